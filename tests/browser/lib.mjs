// lib.mjs -- what every browser test and the benchmark share: a real
// headless Chromium (Debian's /usr/bin/chromium, or $CHROMIUM) driven by
// playwright-core, a fresh profile per launch, and a page opened from
// file:// with every request, console message, page error and dialog
// recorded, so a test can say "nothing was fetched, nothing was logged,
// nothing ran".
//
// Environment: NPUSCOPE (the binary, default ./build/npuscope from the
// repository root), CHROMIUM (default /usr/bin/chromium), CHROMIUM_MULTI
// (1: Chromium's usual processes, not --single-process), NS_OUT (where
// pages are written; default a new temporary folder, removed at exit), NS_SHOTS (where
// screenshots go; default tests/browser/screenshots), NS_CPU_SLOWDOWN (a
// factor: every page's main thread is slowed that many times through
// Chromium's own CPU throttling, Emulation.setCPUThrottlingRate -- the load
// check, tests/run_load.sh, sets it: busy loops beside a browser slow it
// only as much as the scheduler lets them, which for a page's short bursts
// of work is hardly at all; the throttle slows every page alike).

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..', '..');
export const fixtures = path.join(root, 'tests', 'fixtures');
export const npuscope = path.resolve(root, process.env.NPUSCOPE || 'build/npuscope');
export const shots = process.env.NS_SHOTS || path.join(here, 'screenshots');
export const out = process.env.NS_OUT || fs.mkdtempSync(path.join(os.tmpdir(), 'npuscope-browser-'));
if (!process.env.NS_OUT) process.on('exit', () => fs.rmSync(out, { recursive: true, force: true }));
fs.mkdirSync(shots, { recursive: true });

// How long any wait for a condition may take before the test fails: a
// deadline for a hang, never a measure -- generous, since a loaded machine
// (make check's load check: two busy loops per CPU) is many times slower.
export const DEADLINE_MS = 120000;

// --single-process: the renderer, network and utility work in the browser's
// own process.  The pages are the same Blink and V8 (every test passes
// either way); what goes is starting a renderer process for each page
// and a utility process for each service, which on the two-core test
// machine -- where a process start costs milliseconds of system time --
// was a quarter of the browser tests' CPU (162 -> 120 s a run of them; the
// load check runs them three times).  CHROMIUM_MULTI=1 leaves it out.
export const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ...(process.env.CHROMIUM_MULTI === '1' ? [] : ['--single-process']),
];

// A browser with a profile of its own (removed by close()).  playwright-core
// is loaded here, not at the top, so that the generators work without it.
export async function launch() {
  const { chromium } = await import('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'npuscope-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1280, height: 900 },
  });
  // every wait of Playwright's (waitForSelector, waitForFunction, click...)
  context.setDefaultTimeout(DEADLINE_MS);
  const slowdown = Number(process.env.NS_CPU_SLOWDOWN || 1);
  if (slowdown > 1) {
    // each new page slowed before the test can navigate it (the pages a
    // test opens all come from context.newPage)
    const newPage = context.newPage.bind(context);
    context.newPage = async (...args) => {
      const page = await newPage(...args);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      return page;
    };
  }
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

// search(page, text): type text into the explorer's search box and wait
// until the page's search has answered (its status line changes).  Enter
// is not pressed: the page searches 120 ms after the last keystroke, and
// Enter searches at once only if it has not -- otherwise it moves to the
// next match.  A test that typed and pressed Enter read "1 of 7" on a
// quiet machine and "2 of 7" in the load check, where the key came after
// the 120 ms.  (The text must change the status: a second search for the
// same text would wait for its deadline.)
export async function search(page, text) {
  const before = await page.textContent('#status');
  await page.fill('#q', text);
  await page.waitForFunction((b) => document.getElementById('status').textContent !== b, before);
}

// Run npuscope with args; returns {status, stdout, stderr}.
export function run(args) {
  const r = spawnSync(npuscope, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// `npuscope report -o OUT/name.html ARGS...`; returns the page's path.
export function report(name, args) {
  const file = path.join(out, name + '.html');
  const r = run(['report', '-q', '-o', file, ...args]);
  if (r.status !== 0) throw new Error(`npuscope report exited ${r.status}: ${r.stderr}`);
  return file;
}

// Open a page from file:// in a new tab; every request, console message,
// page error and dialog is recorded (dialogs are dismissed).
export async function open(browser, file, opts = {}) {
  const page = await browser.context.newPage();
  const seen = { requests: [], console: [], errors: [], dialogs: [] };
  page.on('request', (r) => seen.requests.push(r.url()));
  page.on('console', (m) => seen.console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  page.on('dialog', (d) => { seen.dialogs.push(`${d.type()}: ${d.message()}`); d.dismiss().catch(() => {}); });
  const url = pathToFileURL(file).href;
  await page.goto(url, { waitUntil: opts.waitUntil || 'load' });
  // ready: the explorer's first rows; complete: the figures and tables
  // below it built (web/later.js), which the tests look at too
  if (opts.waitUntil !== 'commit') await page.waitForSelector('html[data-ready][data-complete]');
  return { page, seen, url };
}

// The data block of a page, parsed (the tests check the page against it).
export function pageData(file) {
  const html = fs.readFileSync(file, 'utf8');
  const m = html.match(/<script type="application\/json" id="npuscope-data">([\s\S]*?)<\/script>/);
  if (!m) throw new Error('no data block in ' + file);
  return JSON.parse(m[1]);
}

// The page's scripts, by design exactly three: two data blocks (type
// application/json, which the browser never runs: the findings document and
// the data) and the page script (no attributes).  Each as 'type#id', sorted.
export const SCRIPTS = ['#', 'application/json#npuscope-data', 'application/json#npuscope-findings'];

// The scripts of a page's source: fails unless they are exactly SCRIPTS,
// every data block holds no '<' (so no markup from a log can end it early)
// and parses as JSON.
export function checkScripts(assert, html) {
  const opens = html.match(/<script\b[^>]*>/g) || [];
  assert.equal((html.match(/<\/script>/g) || []).length, opens.length, 'each script ends once');
  const found = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attrs = m[1].trim();
    if (attrs === '') { found.push('#'); continue; }
    const a = attrs.match(/^type="application\/json" id="([a-z-]+)"$/);
    assert.ok(a, 'a script with unexpected attributes: ' + attrs);
    found.push('application/json#' + a[1]);
    assert.doesNotMatch(m[2], /</, `no "<" inside the data block ${a[1]}`);
    assert.doesNotThrow(() => JSON.parse(m[2]), `the data block ${a[1]} is JSON`);
  }
  assert.deepEqual(found.sort(), SCRIPTS, 'the data blocks and the page script, nothing more');
}

// The same of a live page: its script elements as 'type#id', sorted (to
// compare with SCRIPTS; an element added by a name from a log shows here).
export function domScripts(page) {
  return page.evaluate(() => [...document.querySelectorAll('script')]
    .map((s) => (s.getAttribute('type') || '') + '#' + s.id).sort());
}

// A full-page screenshot; figures out of view are drawn for it (the page
// leaves them to the browser until they come near: content-visibility in
// web/report.css), as they are for printing.
export async function screenshot(page, name) {
  await page.screenshot({ path: path.join(shots, name + '.png'), fullPage: true,
    style: 'figure { content-visibility: visible !important; }' });
}

export function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });
}

// until(page, fn, arg, what): poll fn(arg) in the page until it returns a
// truthy value, and return that; fail, showing the last value, when
// DEADLINE_MS passes first.  The polling is node's own timer, so it also
// works in a page whose clock is held (page.clock: its timers and
// animation frames wait) -- a test waits for what it checks, never for a
// fixed time or the first frame.
export async function until(page, fn, arg, what = 'the condition') {
  const end = Date.now() + DEADLINE_MS;
  let last;
  for (;;) {
    last = await page.evaluate(fn, arg);
    if (last && (typeof last !== 'object' || last.ok !== false)) return last;
    if (Date.now() > end) throw new Error(`${what}: not within ${DEADLINE_MS} ms (last ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// idle(page): the page's pending work done: two animation frames, then an
// idle callback (the page's own requestIdleCallback work queued before it
// runs first).  Not for a page whose clock is held.
export function idle(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() =>
    (window.requestIdleCallback ? requestIdleCallback(() => r(), { timeout: 10000 }) : setTimeout(r, 0))))));
}

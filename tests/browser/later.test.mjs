// later.test.mjs -- the parts of the page below the tree explorer (the
// heaviest passes, the run tables, the figures) are written inside
// <noscript class="later"> elements and built by web/later.js after the
// first paint.  Checked here, with the page's clock held (Playwright's
// page.clock: no timer and no animation frame runs until the test says):
//
//   - deferred for real on a big page (over later.js's AT_ONCE_BYTES of
//     parts): when the explorer is ready, no part is built yet;
//     with the clock let go, every part is, the page is marked complete,
//     no noscript part is left, nothing was logged or asked for;
//   - the same page: the elements built are those the browser's own parser
//     makes of the same page with JavaScript off (where the parts are
//     simply shown), compared as markup section by section -- every
//     figure, every table row;
//   - printing builds everything at once and unfolds the long runs table
//     and every other fold (each configuration's fixes in What to change)
//     (beforeprint; and print media matching, which is what an emulated
//     print sends);
//   - a #fragment naming a figure inside a part builds it at once;
//   - a small page is built whole before its load event, the clock held
//     (so a tool that takes a page at its load sees every section:
//     shots.test.mjs);
//   - without JavaScript the parts are shown, on screen and in print;
//   - a pass name that would close the noscript element ("</noscript>"
//     and a script after it) is text in the chart, and nothing runs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCRIPTS, checkScripts, domScripts, fixtures, launch, out, report, until } from './lib.mjs';
import { makeSweep } from './gen.mjs';

let browser, heldBrowser, sweep, hostile;
const HOSTILE = '</noscript><script>alert(5)</script>';

before(async () => {
  const dir = path.join(out, 'later-sweep');
  fs.rmSync(dir, { recursive: true, force: true });
  // 8 models x 6 windows x 4 precisions, cold and warm: a runs table of
  // 384 rows, folded (over 100); 650 KB of parts, more than later.js
  // builds at once
  makeSweep(dir, { models: { m1: 0.5, m2: 1, m3: 1.5, m4: 3, m5: 7, m6: 14, m7: 32, m8: 70 }, repeats: 2 });
  sweep = report('later-sweep', [dir]);
  const log = path.join(out, 'later-hostile.log');
  const text = fs.readFileSync(path.join(fixtures, 'mlir22-tree-st.txt'), 'utf8');
  fs.writeFileSync(log, text.replace(/Canonicalizer$/gm, HOSTILE));
  hostile = report('later-hostile', [log]);
  browser = await launch();
  // a clock installed is the whole context's: a browser of its own
  heldBrowser = await launch();
  await heldBrowser.context.clock.install({ time: new Date('2026-01-01T00:00:00Z') });
  await heldBrowser.context.clock.pauseAt(new Date('2026-01-02T00:00:00Z'));
});
after(async () => { await browser.close(); await heldBrowser.close(); });

const withoutScripts = (html) => html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '');

// A page opened with its clock held: scripts run, timers and frames wait
// (page.clock.resume lets them go -- in every page of the context: so the
// clock is paused again, a day later, for each page).
let day = 1;
async function held(file, hash = '') {
  await heldBrowser.context.clock.pauseAt(new Date(Date.UTC(2026, 0, 1 + ++day)));
  const page = await heldBrowser.context.newPage();
  const seen = { requests: [], console: [], errors: [], dialogs: [] };
  page.on('request', (r) => seen.requests.push(r.url()));
  page.on('console', (m) => seen.console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  page.on('dialog', (d) => { seen.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  await page.goto(pathToFileURL(file).href + hash, { waitUntil: 'load' });
  await page.waitForSelector('html[data-ready]');
  return { page, seen };
}

const state = (page) => page.evaluate(() => ({
  left: document.querySelectorAll('noscript.later').length,
  figures: [...document.querySelectorAll('figure')].map((f) => f.id),
  rows: document.querySelectorAll('#runs-table tbody tr').length,
  complete: document.documentElement.hasAttribute('data-complete'),
  // every fold, named by what it folds: the long runs table, or the
  // section it is in ("What to change" folds each configuration's fixes)
  folds: [...document.querySelectorAll('details.fold')].map((d) =>
    (d.querySelector('#runs-table') ? 'runs-table' : d.closest('section[id]').id)
    + (d.open ? ' open' : ' folded')),
}));

// The sections below the explorer as markup, the noscript wrappers (left
// by a page without JavaScript) replaced by what they hold.
const sections = (page) => page.evaluate(() => {
  for (const ns of [...document.querySelectorAll('noscript.later')]) ns.replaceWith(...ns.childNodes);
  return ['passes', 'tables', 'figures'].map((id) => {
    const s = document.getElementById(id);
    return s ? s.innerHTML : null;
  });
});

// The figure ids and table row count the page source holds (outside its
// scripts, whose comments may name the element).
function inSource(file) {
  const html = withoutScripts(fs.readFileSync(file, 'utf8'));
  return {
    parts: (html.match(/<noscript class="later">/g) || []).length,
    figures: [...html.matchAll(/<figure id="([^"]+)">/g)].map((m) => m[1]),
    rows: (html.slice(html.indexOf('<table id="runs-table"'), html.indexOf('</table>', html.indexOf('<table id="runs-table"')))
      .match(/<tr[ >]/g) || []).length - 1, // less the heading row
  };
}

test('the parts below the explorer are built after the first paint, every figure and row', async () => {
  const src = inSource(sweep);
  assert.ok(src.parts >= 5, `${src.parts} parts`);
  assert.ok(src.figures.length >= 4, src.figures.join(' '));
  assert.equal(src.rows, 384);
  const { page, seen } = await held(sweep);
  let s = await state(page);
  // the explorer answers; nothing below it is built yet
  assert.equal(s.left, src.parts);
  assert.deepEqual(s.figures, []);
  assert.equal(s.complete, false);
  assert.ok(await page.locator('#tree .row').count() > 0);
  await page.clock.resume();
  await page.waitForSelector('html[data-complete]');
  s = await state(page);
  assert.equal(s.left, 0);
  assert.deepEqual(s.figures, src.figures);
  assert.equal(s.rows, src.rows);
  assert.deepEqual(s.folds, ['what-to-change folded', 'runs-table folded'], 'the long runs table and the fixes stay folded on screen');
  // a figure drawn once it is scrolled to (content-visibility: auto)
  await page.locator('figure').last().scrollIntoViewIfNeeded();
  const box = await page.locator('figure').last().locator('svg').boundingBox();
  assert.ok(box && box.height > 100, JSON.stringify(box));
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  assert.deepEqual(seen.requests, [pathToFileURL(sweep).href]);
  await page.close();
});

test('a small page is built whole before its load event', async () => {
  const src = inSource(hostile);
  assert.ok(src.parts >= 1 && fs.statSync(hostile).size < 512 * 1024);
  const { page, seen } = await held(hostile);
  // the clock held: no timer, frame or idle callback has run
  const s = await state(page);
  assert.equal(s.left, 0);
  assert.equal(s.complete, true);
  assert.deepEqual(s.figures, src.figures);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('what is built is what the parser makes of the page without JavaScript', async () => {
  const on = await browser.context.newPage();
  await on.goto(pathToFileURL(sweep).href);
  await on.waitForSelector('html[data-complete]');
  const built = await sections(on);
  await on.close();
  const off = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(off);
  await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
  await off.goto(pathToFileURL(sweep).href);
  const s = await off.evaluate(() => ({
    ready: document.documentElement.hasAttribute('data-ready'),
    parts: document.querySelectorAll('noscript.later').length,
    figures: [...document.querySelectorAll('figure')].map((f) => f.id),
    shown: [...document.querySelectorAll('figure svg')].every((g) => g.getBoundingClientRect().height > 0),
  }));
  assert.equal(s.ready, false, 'no script ran');
  assert.ok(s.parts >= 5);
  assert.deepEqual(s.figures, inSource(sweep).figures);
  assert.equal(s.shown, true, 'each figure is drawn without JavaScript');
  await off.emulateMedia({ media: 'print' });
  const printed = await off.evaluate(() => [...document.querySelectorAll('noscript.later')]
    .every((n) => getComputedStyle(n).display !== 'none'));
  assert.equal(printed, true, 'and printed');
  const parsed = await sections(off);
  await off.close();
  for (let i = 0; i < 3; i++) {
    assert.ok(built[i] && built[i].length > 1000, `section ${i}`);
    assert.equal(built[i], parsed[i], `section ${['passes', 'tables', 'figures'][i]}`);
  }
});

test('printing builds every part first and unfolds the long table', async () => {
  for (const how of ['beforeprint', 'media']) {
    const { page, seen } = await held(sweep);
    assert.equal((await state(page)).left, inSource(sweep).parts);
    if (how === 'beforeprint') await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    else {
      // a media query's change event comes with the next rendering step
      await page.emulateMedia({ media: 'print' });
      await page.waitForSelector('html[data-complete]');
    }
    const s = await state(page);
    assert.equal(s.left, 0, how);
    assert.equal(s.complete, true, how);
    assert.deepEqual(s.figures, inSource(sweep).figures, how);
    assert.equal(s.rows, 384, how);
    assert.deepEqual(s.folds, ['what-to-change open', 'runs-table open'], how);
    assert.deepEqual(seen.errors, []);
    await page.close();
  }
});

test('a #fragment inside a part builds it at once and goes there', async () => {
  const want = inSource(sweep).figures.at(-1);
  const { page } = await held(sweep, '#' + want);
  const s = await state(page);
  assert.equal(s.left, 0);
  assert.ok(s.figures.includes(want));
  // (the clock held: nothing of the page's timers or frames has run, so
  // this is the page's doing at once; waited for, not read once, as layout
  // may settle after the first read)
  await until(page, (id) => {
    const top = document.getElementById(id).getBoundingClientRect().top;
    return { ok: top > -5 && top < 450, top };
  }, want, 'the figure in the top half of the view');
  await page.close();
});

test('a pass name that would end the noscript element is text, and nothing runs', async () => {
  const source = fs.readFileSync(hostile, 'utf8');
  checkScripts(assert, source);
  const html = withoutScripts(source);
  const opened = (html.match(/<noscript[ >]/g) || []).length;
  assert.ok((html.match(/<noscript class="later">/g) || []).length >= 1);
  assert.equal((html.match(/<\/noscript>/g) || []).length, opened, 'each noscript element ends once, where it should');
  const { page, seen } = await held(hostile);
  await page.clock.resume();
  await page.waitForSelector('html[data-complete]');
  const dom = await page.evaluate(() => ({
    labels: [...document.querySelectorAll('#heaviest-passes svg text')].map((t) => t.textContent),
  }));
  assert.deepEqual(await domScripts(page), SCRIPTS);
  assert.ok(dom.labels.includes(HOSTILE), dom.labels.join(' | '));
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

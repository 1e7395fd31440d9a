// speedscope.test.mjs -- npuscope's exports in the real speedscope viewer.
//
// The viewer is the npm package `speedscope` (pinned in package-lock.json):
// its built dist/release, served from 127.0.0.1 by a tiny http server here,
// opened in headless Chromium at #profileURL=/profiles/NAME -- the viewer
// fetches the profile itself and picks the importer by content, as it does
// for a user.  The inputs are real compiler output: tests/fixtures/
// mlir22-tree-mt.txt (mlir-opt-22 --mlir-timing, threaded, negative Rest)
// and clang22-ftime-report.txt (clang-22 -ftime-report, five reports).
//
// Each export is read back from the viewer twice and compared with
// `npuscope tree --format json` of the same input:
//   - what a person sees: the profile list (every profile's name and total
//     weight, the toolbar's drop-down) and, profile by profile ('n' is
//     speedscope's next-profile key), every row of the Sandwich table
//     (frame name, total, self), numbers as speedscope prints them;
//   - what the viewer holds: its own Export button, which writes the loaded
//     profiles back as speedscope JSON (evented); replayed, it gives the
//     weight of every stack, compared exactly (to float rounding).
// `--format speedscope` is a sampled profile by self time, one per report;
// `--format chrome` is a Chrome trace (speedscope's "Trace Event Format"
// importer), a synthetic timeline whose boxes the tree JSON predicts
// (docs/formats.md, 2.6).  Two things speedscope's importer does with
// trace events, read in its source: a profile is named "<process_name>
// (pid N, tid M)", and a frame is "<name> <JSON of args>", so every event
// of npuscope's chrome export is a frame of its own there (the speedscope
// export keeps one frame per pass name).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEADLINE_MS, fixtures, launch, run, screenshot } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'node_modules', 'speedscope', 'dist', 'release');
const inputs = {
  mlir: path.join(fixtures, 'mlir22-tree-mt.txt'),
  clang: path.join(fixtures, 'clang22-ftime-report.txt'),
};

let browser, server;

// ---------------------------------------------------------------- the server
// GET only; files of dist/release, and /profiles/NAME from memory.
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.wasm': 'application/wasm', '.woff2': 'font/woff2', '.png': 'image/png', '.ico': 'image/x-icon' };
function serve() {
  const profiles = new Map();
  const srv = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    let body, type;
    if (req.method !== 'GET') { res.writeHead(405); res.end(); return; }
    if (p.startsWith('/profiles/')) {
      body = profiles.get(p.slice('/profiles/'.length));
      type = 'application/json';
    } else {
      const file = path.join(dist, path.normalize(p === '/' ? '/index.html' : p));
      if (file.startsWith(dist + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        body = fs.readFileSync(file);
        type = types[path.extname(file)] || 'application/octet-stream';
      }
    }
    if (body === undefined) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({
    origin: `http://127.0.0.1:${srv.address().port}`,
    profiles,
    close: () => new Promise((r) => srv.close(r)),
  })));
}

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), 'speedscope is installed (npm ci in tests/browser)');
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser.close();
  await server.close();
});

// ---------------------------------------------------------------- what the tree JSON predicts
// Profiles as [{name, total, stacks: Map(key -> weight), frames: Map(name ->
// {total, self})}], seconds; a stack's key is its frame names joined by \x01.
function profileOf(name, samples) {
  const stacks = new Map(), frames = new Map();
  let total = 0;
  for (const [stack, w] of samples) {
    const key = stack.join('\x01');
    stacks.set(key, (stacks.get(key) || 0) + w);
    total += w;
    for (const f of new Set(stack)) {
      const e = frames.get(f) || { total: 0, self: 0 };
      e.total += w;
      frames.set(f, e);
    }
    frames.get(stack[stack.length - 1]).self += w;
  }
  return { name, total, stacks, frames };
}

// --format speedscope: one sample per node with positive self time (wall
// minus its children's wall), the stack from the report's label down.
function expectSampled(tree) {
  return tree.reports.map((r) => {
    const samples = [];
    const walk = (n, stack) => {
      const s = [...stack, stack.length ? n.name : r.label];
      let self = n.wall_s;
      for (const c of n.children) if (c.wall_s != null) self -= c.wall_s;
      if (self > 5e-10) samples.push([s, self]);
      for (const c of n.children) walk(c, s);
    };
    walk(r.root, []);
    return profileOf(r.label, samples);
  });
}

// --format chrome, as speedscope imports it: a node's box is its wall time
// or its children's boxes, whichever is longer; a node without a positive
// time has no event (its children sit in its parent); an event's frame is
// its name and its args (compared without args.stretched: see stretch()).
// Each profile also gets boxes: Map(frame -> box length) and stretch:
// Map(frame -> box minus wall time).
function expectChrome(tree) {
  return tree.reports.map((r, i) => {
    const samples = [], stretch = new Map(), boxes = new Map();
    const box = (n) => Math.max(n.wall_s > 0 ? n.wall_s : 0, n.children.reduce((a, c) => a + box(c), 0));
    const walk = (n, stack, top) => {
      const t = n.wall_s, b = box(n);
      let s = stack;
      if (t != null && t > 0) {
        const f = chromeFrame(top ? r.label : n.name, { wall_s: n.wall_s, user_s: n.user_s });
        stretch.set(f, Math.max(stretch.get(f) || 0, b - t));
        if (!stack.includes(f)) boxes.set(f, (boxes.get(f) || 0) + b);
        s = [...stack, f];
        const self = b - n.children.reduce((a, c) => a + box(c), 0);
        if (self > 5e-10) samples.push([s, self]);
      }
      for (const c of n.children) walk(c, s, false);
    };
    walk(r.root, [], true);
    return { ...profileOf(`${r.label} (pid ${i + 1}, tid 1)`, samples), stretch, boxes };
  });
}
const chromeFrame = (name, args) => `${name} ${JSON.stringify(args)}`;

// A frame speedscope made from one of npuscope's trace events,
// "<name> {"wall_s":..,"user_s":..[,"stretched":true]}": the frame without
// "stretched", and whether it was there.
function unstretch(frame) {
  const at = frame.lastIndexOf(' {"wall_s":');
  if (at < 0) return { frame, stretched: false };
  const args = JSON.parse(frame.slice(at + 1));
  const { stretched, ...rest } = args;
  return { frame: chromeFrame(frame.slice(0, at), rest), stretched: !!stretched };
}

// args.stretched against the boxes: a box longer than its time by more than
// rounding must say so, one that is not must not; a flag set where the
// children add up to the parent within float rounding is reported (node
// test diagnostics), not failed -- see docs/formats.md 2.6.
function stretch(t, frames, want) {
  for (const f of frames) {
    const u = unstretch(f), excess = want.stretch.get(u.frame);
    if (excess === undefined) continue; // an unexpected frame fails elsewhere
    if (excess > 1e-9) assert.ok(u.stretched, `${want.name}: ${u.frame} is ${excess} s longer than its time: stretched`);
    else if (u.stretched) t.diagnostic(`${want.name}: ${u.frame} says stretched, by ${excess} s (float rounding)`);
  }
}

// ---------------------------------------------------------------- what the viewer shows
// speedscope's time formatter prints "1:05" (minutes), "1.61s", "65.90ms",
// "300.00µs", "0.00ns"; back to seconds, with the half-unit it rounded to.
function seconds(text) {
  let m = text.match(/^(\d+):(\d\d)$/);
  if (m) return { v: +m[1] * 60 + +m[2], tol: 1 };
  m = text.match(/^(-?[\d.]+)(s|ms|µs|ns)$/);
  assert.ok(m, `a time as speedscope prints it: ${JSON.stringify(text)}`);
  const f = { s: 1, ms: 1e-3, 'µs': 1e-6, ns: 1e-9 }[m[2]];
  return { v: +m[1] * f, tol: 0.00501 * f };
}
function near(got, want, what) {
  const g = seconds(got);
  assert.ok(Math.abs(g.v - want) <= g.tol + 1e-12, `${what}: speedscope shows ${got}, the tree JSON says ${want} s`);
}

// The profiles as the toolbar lists them: [{name, weight}] from its
// drop-down's table (#, Name, Total Weight), which speedscope draws only for
// more than one profile; for one, [{name}] from the toolbar's title.
async function profileList(page) {
  return page.evaluate(() => {
    const t = [...document.querySelectorAll('table')].find((x) => x.tHead && /Total Weight/.test(x.tHead.textContent));
    if (t) return [...t.tBodies[0].rows].map((r) => ({ name: r.cells[1].textContent, weight: r.cells[2].textContent }));
    const exp = [...document.querySelectorAll('div')].find((d) => d.children.length > 0 && /^\S*Export$/u.test(d.textContent));
    const title = exp && exp.parentElement.previousSibling; // a text node
    return title ? [{ name: title.textContent }] : [];
  });
}

// Every row of the Sandwich table, scrolling its virtual list to the end:
// [{total, self, name}] (times as printed, without the share).
async function sandwichRows(page) {
  const rows = new Map();
  for (let step = 0; step < 200; step++) {
    const seen = await page.evaluate(() => {
      const time = /^(\d+:\d\d|-?[\d.]+(s|ms|µs|ns)) \(/;
      const got = [];
      for (const tr of document.querySelectorAll('tr')) {
        if (tr.cells.length !== 3 || !time.test(tr.cells[0].textContent)) continue;
        const t = (c) => c.textContent.replace(/ \(.*$/, '');
        got.push({ total: t(tr.cells[0]), self: t(tr.cells[1]), name: tr.cells[2].textContent });
      }
      // the scrolling list: the element that holds the rows and scrolls
      const first = [...document.querySelectorAll('tr')].find((tr) => tr.cells.length === 3 && time.test(tr.cells[0].textContent));
      let box = first && first.parentElement;
      while (box && !(box.scrollHeight > box.clientHeight + 1 && getComputedStyle(box).overflowY !== 'visible')) box = box.parentElement;
      let more = false;
      if (box && box.scrollTop + box.clientHeight < box.scrollHeight - 1) {
        box.scrollTop += Math.max(1, box.clientHeight - 40);
        more = true;
      }
      return { got, more };
    });
    for (const r of seen.got) rows.set(r.name, r);
    if (!seen.more) break;
    // the list drawn again for its new scroll position: a frame rendered
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  return [...rows.values()];
}

// The viewer's own Export: the loaded profiles as speedscope (evented) JSON,
// replayed into {name, total, stacks} like the predictions.
async function exported(page) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByText('Export', { exact: false }).click()]);
  const file = await dl.path();
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const names = doc.shared.frames.map((f) => f.name);
  return doc.profiles.map((p) => {
    assert.equal(p.type, 'evented');
    const stacks = new Map();
    const open = [];
    let at = p.startValue;
    for (const ev of p.events) {
      if (open.length && ev.at > at) {
        const key = open.map((f) => names[f]).join('\x01');
        stacks.set(key, (stacks.get(key) || 0) + (ev.at - at));
      }
      at = ev.at;
      if (ev.type === 'O') open.push(ev.frame);
      else assert.equal(open.pop(), ev.frame, 'events close what they opened');
    }
    assert.equal(open.length, 0);
    return { name: p.name, unit: p.unit, total: p.endValue - p.startValue, stacks };
  });
}

// ---------------------------------------------------------------- one input in the viewer
// Open `tree --format FORMAT FILE` in the viewer and compare what it shows
// and holds with want (seconds; the viewer's own numbers times scale).
// norm maps a viewer frame name to a predicted one.
async function check(t, label, file, format, want, { scale, norm, tol }) {
  const profile = run(['tree', '-q', '--format', format, file]);
  assert.equal(profile.status, 0, profile.stderr);
  const name = `${label}-${format}.json`;
  server.profiles.set(name, profile.stdout);

  const page = await browser.context.newPage();
  const seen = { requests: [], errors: [], console: [] };
  page.on('request', (r) => seen.requests.push(r.url()));
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') seen.console.push(m.text()); });
  page.on('dialog', (d) => { seen.errors.push(`dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
  await page.goto(`${server.origin}/#profileURL=/profiles/${name}&view=sandwich`);
  await page.waitForFunction(() => /Symbol Name/.test(document.body.textContent) &&
    [...document.querySelectorAll('tr')].some((tr) => tr.cells.length === 3 && / \(/.test(tr.cells[0].textContent)));

  // the profile list: every report, in order, with its total weight
  const list = await profileList(page);
  assert.deepEqual(list.map((p) => p.name), want.map((p) => p.name), 'the profiles');
  for (let i = 0; i < want.length; i++) if (list[i].weight) near(list[i].weight, want[i].total, `total weight of ${want[i].name}`);

  // each profile's Sandwich table: one row per frame, its total and self
  for (let i = 0; i < want.length; i++) {
    if (i > 0) {
      await page.keyboard.press('n');
      await page.waitForFunction((k) => document.body.textContent.includes(`(${k}/`), i + 1);
    }
    // the table of the new profile: its rows name its frames, every one
    // of them (a list read while it was still drawn lacks some), or the
    // deadline passes and the comparison below says what differs
    let rows = [];
    for (const end = Date.now() + DEADLINE_MS; Date.now() < end;) {
      rows = await sandwichRows(page);
      const got = new Set(rows.map((r) => norm(r.name)));
      if (rows.every((r) => want[i].frames.has(norm(r.name))) && got.size === want[i].frames.size) break;
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    if (want[i].stretch) stretch(t, rows.map((r) => r.name), want[i]);
    const w = want[i].frames;
    const names = rows.map((r) => norm(r.name));
    assert.equal(new Set(names).size, names.length, `${want[i].name}: one row per frame`);
    assert.deepEqual([...names].sort(), [...w.keys()].sort(), `frames of ${want[i].name}`);
    for (const r of rows) {
      near(r.total, w.get(norm(r.name)).total, `${want[i].name}: total of ${r.name}`);
      near(r.self, w.get(norm(r.name)).self, `${want[i].name}: self of ${r.name}`);
    }
    // the root frame (the report's label) holds the whole profile
    const root = [...w.entries()].find(([, v]) => Math.abs(v.total - want[i].total) < 1e-12);
    assert.ok(root, `${want[i].name}: a frame holds the total weight`);
    if (i === 0) await screenshot(page, `speedscope-${label}-${format}`);
  }

  // what the viewer holds: every stack's weight, exactly
  const got = await exported(page);
  assert.deepEqual(got.map((p) => p.name), want.map((p) => p.name));
  for (let i = 0; i < want.length; i++) {
    const g = got[i], w = want[i];
    const stacks = new Map();
    for (const [k, v] of g.stacks) {
      const nk = k.split('\x01').map(norm).join('\x01');
      stacks.set(nk, (stacks.get(nk) || 0) + v * scale);
    }
    assert.ok(Math.abs(g.total * scale - w.total) <= tol * w.stacks.size,
      `${w.name}: total weight ${g.total * scale}, the tree JSON says ${w.total}`);
    assert.deepEqual([...stacks.keys()].sort(), [...w.stacks.keys()].sort(), `${w.name}: the stacks`);
    for (const [k, v] of w.stacks) {
      assert.ok(Math.abs(stacks.get(k) - v) <= tol, `${w.name}: ${k.split('\x01').join(';')} weighs ${stacks.get(k)}, want ${v}`);
    }
    // each frame's total: for a trace event its box, stretched or not
    const totals = new Map();
    for (const [k, v] of stacks) for (const f of new Set(k.split('\x01'))) totals.set(f, (totals.get(f) || 0) + v);
    const wt = w.boxes || new Map([...w.frames].map(([f, e]) => [f, e.total]));
    assert.deepEqual([...totals.keys()].sort(), [...wt.keys()].sort(), `${w.name}: the frames`);
    for (const [f, v] of wt) {
      assert.ok(Math.abs(totals.get(f) - v) <= tol * w.stacks.size, `${w.name}: ${f} spans ${totals.get(f)}, want ${v}`);
    }
  }

  assert.deepEqual(seen.requests.filter((u) => !u.startsWith(server.origin + '/')), [], 'nothing fetched from elsewhere');
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
  return got;
}

function tree(file) {
  const r = run(['tree', '-q', '--format', 'json', file]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

for (const [label, file] of Object.entries(inputs)) {
  test(`speedscope shows ${path.basename(file)} (--format speedscope) as the tree JSON has it`, async (t) => {
    const want = expectSampled(tree(file));
    // weights are written with 9 significant digits
    const got = await check(t, label, file, 'speedscope', want, { scale: 1, norm: (f) => f, tol: 1e-9 });
    assert.ok(got.every((p) => p.unit === 'seconds'));
  });
  test(`speedscope imports ${path.basename(file)} as a Chrome trace (--format chrome) with the boxes the tree JSON predicts`, async (t) => {
    const want = expectChrome(tree(file));
    // both inputs have boxes that must stretch (threads, an LLVM group
    // whose rows add up to more than its Total): the rule is exercised
    assert.ok(want.some((p) => [...p.stretch.values()].some((e) => e > 1e-9)), 'a box that stretches');
    // trace events are in microseconds, ts and dur with 3 decimals
    const got = await check(t, label, file, 'chrome', want, { scale: 1e-6, norm: (f) => unstretch(f).frame, tol: 3e-9 });
    assert.ok(got.every((p) => p.unit === 'microseconds'));
  });
}

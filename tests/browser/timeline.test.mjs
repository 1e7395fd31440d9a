// timeline.test.mjs -- `npuscope timeline --format chrome` in the real
// speedscope viewer (the npm package, as speedscope.test.mjs serves it).
//
// The inputs are the constructed timeline fixtures (tests/fixtures/load/):
// three compiles with gaps, and two compiles that overlap.  The export is
// opened at #profileURL=..., as a user opens a file, and the viewer's own
// Export button gives back what it loaded (speedscope JSON, evented);
// replayed, every profile (one per process and thread: the phases around
// the compiles on thread 0, each lane of compiles on a thread of its own)
// must hold exactly the phases `timeline --format json` lists for it, each
// frame weighing its phase's length.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtures, launch, run, screenshot } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'node_modules', 'speedscope', 'dist', 'release');
const inputs = {
  three: path.join(fixtures, 'load', 'constructed-timeline-3.log'),
  parallel: path.join(fixtures, 'load', 'constructed-timeline-parallel.log'),
};

let browser, server;
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.wasm': 'application/wasm', '.woff2': 'font/woff2', '.png': 'image/png', '.ico': 'image/x-icon' };

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), 'speedscope is installed (npm ci in tests/browser)');
  const profiles = new Map();
  const srv = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    let body, type;
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
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  server = { origin: `http://127.0.0.1:${srv.address().port}`, profiles, close: () => new Promise((r) => srv.close(r)) };
  browser = await launch();
});
after(async () => {
  await browser.close();
  await server.close();
});

// What the timeline JSON predicts: per profile name "<source> (pid 1, tid
// T)", the weight (seconds) of each frame (a phase's label, or its kind).
function expected(file) {
  const r = run(['timeline', '-q', '--format', 'json', file]);
  assert.equal(r.status, 0, r.stderr);
  const tl = JSON.parse(r.stdout).timelines[0];
  const want = new Map();
  for (const ph of tl.phases) {
    const compile = ph.kind === 'compile' || ph.kind === 'failed-compile';
    const name = `${tl.source} (pid 1, tid ${compile ? 1 + ph.lane : 0})`;
    if (!want.has(name)) want.set(name, new Map());
    const frame = ph.label ?? ph.kind, w = want.get(name);
    w.set(frame, (w.get(frame) || 0) + (ph.end_s - ph.start_s));
  }
  return want;
}

// The viewer's Export, replayed: Map(profile name -> Map(frame -> weight)).
async function exported(page) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByText('Export', { exact: false }).click()]);
  const doc = JSON.parse(fs.readFileSync(await dl.path(), 'utf8'));
  const names = doc.shared.frames.map((f) => f.name);
  const got = new Map();
  for (const p of doc.profiles) {
    assert.equal(p.type, 'evented');
    assert.equal(p.unit, 'microseconds');
    const w = new Map(), open = [];
    let at = p.startValue;
    for (const ev of p.events) {
      if (open.length && ev.at > at) {
        const f = names[open[open.length - 1]];
        w.set(f, (w.get(f) || 0) + (ev.at - at) * 1e-6);
      }
      at = ev.at;
      if (ev.type === 'O') open.push(ev.frame);
      else assert.equal(open.pop(), ev.frame, 'events close what they opened');
    }
    assert.equal(open.length, 0, 'every event closed');
    got.set(p.name, w);
  }
  return got;
}

for (const [label, file] of Object.entries(inputs)) {
  test(`speedscope opens the timeline of ${path.basename(file)} (--format chrome) with the phases the JSON lists`, async () => {
    const want = expected(file);
    const trace = run(['timeline', '-q', '--format', 'chrome', file]);
    assert.equal(trace.status, 0, trace.stderr);
    server.profiles.set(`${label}.json`, trace.stdout);
    const page = await browser.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
    await page.goto(`${server.origin}/#profileURL=/profiles/${label}.json`);
    await page.waitForFunction(() => /Export/.test(document.body.textContent));
    await screenshot(page, `speedscope-timeline-${label}`);
    const got = await exported(page);
    assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), 'a profile per process and thread');
    for (const [name, w] of want) {
      const g = got.get(name);
      assert.deepEqual([...g.keys()].sort(), [...w.keys()].sort(), `${name}: its phases`);
      for (const [f, v] of w) assert.ok(Math.abs(g.get(f) - v) <= 1e-6, `${name}: ${f} weighs ${g.get(f)} s, want ${v}`);
    }
    if (label === 'parallel') assert.equal(want.size, 2, 'two lanes: the compiles overlap');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

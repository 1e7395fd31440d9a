// shots.test.mjs -- the page as a plain headless Chromium takes it, and the
// figures' labels, on two real pages (issue 25).
//
// Two pages: the demo study (tests/helpers/gen-study.py, what `make demo`
// shows: 60 constructed NPUW configurations recorded by the real `npuscope
// sweep`) and a real mlir-opt-22 sweep (examples/demo.sh's: 4 module sizes
// x 3 runs -- four configurations, the fewest that make a study, so its
// "What to change" has the study's fix table).  For each:
//
//   - `chromium --headless --screenshot --window-size=1280,H --dump-dom`
//     (one run, both taken at once), plain: no virtual time budget, no script of ours, so the
//     page is taken as it is at its load event.  Every section must be
//     filled then (no part left in its noscript wrapper, each section more
//     than its heading, each figure an SVG with marks, "What to change"
//     with rows), and the PNG must not be blank or half drawn: decoded here
//     (node's zlib), every tenth of its height holds ink, and it has colours
//     besides the page's text and background.  H is the height of the page
//     as Playwright lays it out whole, so a page drawn only in part leaves
//     white bands.
//   - in Playwright, every SVG figure's <text> labels: no two overlap by
//     more than LABEL_SLACK px both ways, and none reaches out of its
//     SVG's viewBox (where it would be cut off), boxes compared in the
//     SVG's own coordinates.  Also on a third page, a real mlir-opt-22
//     report whose pass names are 104 CamelCase characters and wide
//     letters outside ASCII (the bars' names).
//
// Screenshots: shot-study.png and shot-mlir.png in the screenshots folder
// (not committed).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { chromiumArgs, fixtures, launch, npuscope, open, out, report, root, shots } from './lib.mjs';

const LABEL_SLACK = 1.5;   // px of overlap two labels may share (antialiasing, rounding)
let browser;
const pages = {};

// A child process to its end; rejects on a non-zero exit.
function exec(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: root, ...opts });
    let stdout = '', stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve({ stdout, stderr })
      : reject(new Error(`${cmd} ${args.slice(0, 3).join(' ')}... exited ${code}: ${stderr.slice(-2000)}`))));
  });
}

// The module of examples/demo.sh: {funcs} small functions, compiled by the
// real mlir-opt-22 with --mlir-timing.
const MLIR = `awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) {
    printf "func.func @f%d(%%a: i32, %%b: i32) -> i32 {\\n", i
    printf "  %%0 = arith.addi %%a, %%b : i32\\n  %%1 = arith.muli %%0, %%a : i32\\n  return %%1 : i32\\n}\\n" } }' |
  mlir-opt-22 --mlir-timing '--pass-pipeline=builtin.module(inline,func.func(canonicalize,cse),convert-to-llvm)' -o /dev/null`;

// The pages, each a promise: the mlir page's tests run while the study
// is still being recorded (its fake compiles sleep most of their time).
before(async () => {
  const study = path.join(out, 'shots-study');
  const mlir = path.join(out, 'shots-mlir');
  fs.rmSync(study, { recursive: true, force: true });
  fs.rmSync(mlir, { recursive: true, force: true });
  // (the study: made once per make check and copied, tests/helpers/study.sh)
  pages.study = exec('sh', [path.join(root, 'tests', 'helpers', 'study.sh'), study],
    { env: { ...process.env, NPUSCOPE: npuscope } }).then(() => report('shots-study', [path.join(study, 'runs')]));
  pages.mlir = exec(npuscope, ['sweep', '-q', '-o', mlir, '-n', '3', '-L', 'funcs=250,500,1000,2000',
    '--tag', 'tool=mlir-opt-22', '--', 'sh', '-c', MLIR, 'sh', '{funcs}']).then(() => report('shots-mlir', [mlir]));
  // a real mlir-opt-22 report whose pass names are long: CamelCase of 104
  // characters, and one outside ASCII (the label check only)
  const log = path.join(out, 'shots-long.log');
  fs.writeFileSync(log, fs.readFileSync(path.join(fixtures, 'mlir22-tree-st.txt'), 'utf8')
    .replace(/  Canonicalizer$/gm, '  VeryLongPassNameThatGoesOnAndOnForeverAndEverBecauseSomeoneLikesDescriptiveNamesInTheirPipelineDefinitions')
    .replace(/  Inliner$/gm, '  Встраивание-функций-和-内联-パス-WWWWWWWWWWMMMMMMMMMM'));
  pages.long = Promise.resolve(report('shots-long', [log]));
  // (awaited by the tests; a failure is theirs, not an unhandled rejection)
  for (const p of Object.values(pages)) p.catch(() => {});
  browser = await launch();
});
after(async () => { if (browser) await browser.close(); });

// ====== Plain chromium ======

// chromium --headless with a profile of its own and ARGS, then the URL.
async function plain(args, file) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'npuscope-plain-'));
  try {
    return await exec(process.env.CHROMIUM || '/usr/bin/chromium',
      [...chromiumArgs, '--hide-scrollbars', `--user-data-dir=${profile}`, ...args, pathToFileURL(file).href],
      { timeout: 120000 });
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

// The height of the page laid out whole at 1280 px (every figure drawn).
async function fullHeight(file) {
  const { page } = await open(browser, file);
  await page.setViewportSize({ width: 1280, height: 900 });
  const h = await page.evaluate(() => {
    for (const f of document.querySelectorAll('figure')) f.style.contentVisibility = 'visible';
    return Math.ceil(document.documentElement.scrollHeight);
  });
  await page.close();
  return h;
}

// ====== The PNG, decoded ======

// {width, height, px(x, y) -> [r, g, b]} of an 8-bit RGB or RGBA PNG.
export function decodePng(buf) {
  assert.equal(buf.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'a PNG signature');
  let off = 8, width = 0, height = 0, type = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off), kind = buf.toString('latin1', off + 4, off + 8);
    const body = buf.subarray(off + 8, off + 8 + len);
    if (kind === 'IHDR') {
      width = body.readUInt32BE(0); height = body.readUInt32BE(4);
      assert.equal(body[8], 8, 'bit depth 8');
      type = body[9];
      assert.ok(type === 2 || type === 6, `colour type ${type}`);
      assert.equal(body[12], 0, 'not interlaced');
    } else if (kind === 'IDAT') idat.push(body);
    else if (kind === 'IEND') break;
    off += 12 + len;
  }
  const bpp = type === 6 ? 4 : 3, stride = width * bpp;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  assert.equal(raw.length, height * (stride + 1), 'the image data is whole');
  const img = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1, dst = y * stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? img[dst + i - bpp] : 0;
      const b = y > 0 ? img[dst - stride + i] : 0;
      const c = y > 0 && i >= bpp ? img[dst - stride + i - bpp] : 0;
      let v = raw[src + i];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      img[dst + i] = v & 255;
    }
  }
  return { width, height, px: (x, y) => { const o = y * stride + x * bpp; return [img[o], img[o + 1], img[o + 2]]; } };
}

// What a screenshot holds: per tenth of its height, the share of pixels
// unlike the background (the top-left pixel); and how many colours that are
// not a grey (text and background are greys; marks, bars, cells are not).
function ink(png) {
  const bg = png.px(0, 0).join();
  const bands = Array(10).fill(0), per = Array(10).fill(0), hues = new Set();
  for (let y = 0; y < png.height; y += 2) {
    const band = Math.min(9, Math.floor((y * 10) / png.height));
    for (let x = 0; x < png.width; x += 2) {
      const p = png.px(x, y);
      per[band]++;
      if (p.join() !== bg) bands[band]++;
      if (Math.max(...p) - Math.min(...p) > 24) hues.add(p.map((v) => v >> 4).join());
    }
  }
  return { bands: bands.map((n, i) => n / per[i]), hues: hues.size };
}

// ====== The dumped DOM ======

// Each <section id=...> of a page's markup: {id, body}.
function sectionsOf(html) {
  return [...html.matchAll(/<section id="([^"]+)">([\s\S]*?)<\/section>/g)].map((m) => ({ id: m[1], body: m[2] }));
}

// What is wrong with the page as dumped at its load: a list, empty when
// every section is filled.
export function unfilled(dom) {
  const bad = [];
  // (the page script's comments name the wrapper too)
  const html = dom.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
  if (/<noscript class="later">/.test(html)) bad.push('a part is still in its noscript wrapper');
  // (what is left there is text, not the page's elements)
  const built = html.replace(/<noscript class="later">[\s\S]*?<\/noscript>/g, '');
  const secs = sectionsOf(built);
  const ids = secs.map((s) => s.id);
  for (const want of ['findings', 'what-to-change', 'trees', 'passes', 'tables', 'figures', 'method'])
    if (!ids.includes(want)) bad.push(`no section ${want}`);
  for (const s of secs) {
    const rest = s.body.replace(/<h2>[\s\S]*?<\/h2>/, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
    if (rest.length < 40) bad.push(`section ${s.id} holds only ${JSON.stringify(rest)}`);
    if (/Nothing to report|No figure:/.test(s.body)) bad.push(`section ${s.id} says it is empty`);
  }
  const figs = [...built.matchAll(/<figure id="([^"]+)">([\s\S]*?)<\/figure>/g)];
  if (figs.length < 2) bad.push(`${figs.length} figures`);
  for (const [, id, body] of figs) {
    const marks = (body.match(/<(circle|rect|path|polyline|line)\b/g) || []).length;
    if (!/<svg\b/.test(body) || marks < 3) bad.push(`figure ${id}: ${marks} marks`);
    if (!/<figcaption>[^<]{20,}/.test(body)) bad.push(`figure ${id}: no caption`);
  }
  const change = secs.find((s) => s.id === 'what-to-change');
  // the study's fix table: a row per regime found
  const fix = change ? change.body.match(/<table id="fix-table">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/) : null;
  if (!fix || !/<tr\b/.test(fix[1])) bad.push('What to change has no row in its fix table');
  return bad;
}

// ====== Labels ======

// Overlapping and clipped labels of every SVG figure on the page: a list of
// sentences, empty when none.  Each label's box is taken in its SVG's own
// coordinates (the viewBox's), through the text's transforms.
function labelFaults(page) {
  return page.evaluate((slack) => {
    const faults = [];
    for (const svg of document.querySelectorAll('figure svg')) {
      const fig = svg.closest('figure').id;
      const vb = svg.viewBox.baseVal;
      const toSvg = svg.getCTM().inverse();
      const boxes = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '' && t.getBBox().width > 0).map((t) => {
        const b = t.getBBox(), m = toSvg.multiply(t.getCTM());
        const pts = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
          .map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
        const xs = pts.map((p) => p.x), ys = pts.map((p) => p.y);
        return { text: t.textContent, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
      });
      const r = (v) => v.toFixed(1);
      for (const a of boxes)
        if (a.x0 < vb.x - slack || a.x1 > vb.x + vb.width + slack || a.y0 < vb.y - slack || a.y1 > vb.y + vb.height + slack)
          faults.push(`${fig}: "${a.text}" cut off: x ${r(a.x0)}..${r(a.x1)}, y ${r(a.y0)}..${r(a.y1)}, viewBox ${vb.width} x ${vb.height}`);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
          if (w > slack && h > slack) faults.push(`${fig}: "${a.text}" and "${b.text}" overlap by ${r(w)} x ${r(h)}`);
        }
      }
    }
    return faults;
  }, LABEL_SLACK);
}

// ====== The tests ======

for (const name of ['mlir', 'study', 'long']) {
  if (name !== 'long') test(`${name}: a plain headless screenshot and DOM show every section filled`, async () => {
    const file = await pages[name];
    const h = await fullHeight(file);
    assert.ok(h > 2000 && h < 30000, `page height ${h}`);
    const png = path.join(shots, `shot-${name}.png`);
    fs.rmSync(png, { force: true });
    const { stdout: dom } = await plain([`--screenshot=${png}`, `--window-size=1280,${h}`, '--dump-dom'], file);
    assert.deepEqual(unfilled(dom), [], 'every section filled at the load event');
    const img = decodePng(fs.readFileSync(png));
    assert.equal(img.width, 1280);
    assert.equal(img.height, h);
    const k = ink(img);
    const empty = k.bands.map((v, i) => [i, v]).filter(([, v]) => v < 0.005).map(([i]) => i);
    assert.deepEqual(empty, [], `tenths of the screenshot with no ink: ${k.bands.map((v) => v.toFixed(3))}`);
    assert.ok(k.hues >= 20, `${k.hues} colours besides greys`);
  });

  test(`${name}: no figure label overlaps another or is cut off`, async () => {
    const { page, seen } = await open(browser, await pages[name]);
    const faults = await labelFaults(page);
    assert.deepEqual(faults, []);
    assert.deepEqual(seen.errors, []);
    await page.close();
  });
}

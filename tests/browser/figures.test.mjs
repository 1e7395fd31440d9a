// figures.test.mjs -- a report over sweeps shows its tables and figures.
//
// Two sweeps: a real one (`npuscope sweep` of `sh -c 'sleep 0.0{n}; cat
// LOG'`, cold and warm, where LOG is the constructed NPU compiler log, so
// each run keeps a vpux report), and a constructed one (gen.mjs makeSweep:
// model x window x precision whose dominant stage moves with the window).
// The page must hold the runs table, the diff table (--a/--b), and every
// figure with the marks its data asks for, each mark with a <title>; the
// --svg-dir copies must be well-formed SVG of the same figures.  Then the
// constructed NPU study (tests/helpers/gen-study.py): each study figure
// drawn and screenshotted (study-*.png in the screenshots folder, not
// committed), and a 15-series plot shown whole as small multiples.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fixtures, launch, npuscope, open, out, report, root, run, screenshot, shots } from './lib.mjs';
import { makeSweep } from './gen.mjs';

let browser, real, built, svgDir;
const log = path.join(fixtures, 'constructed-npu-2025.log');

before(async () => {
  const dir = path.join(out, 'real-sweep');
  const r = run(['sweep', '-q', '-o', dir, '-n', '2', '-L', 'n=1,2,4', '-L', 'precision=int8,fp16',
    '--modes', 'cold,warm', '--', 'sh', '-c', `sleep 0.0{n}; cat '${log}'`]);
  assert.equal(r.status, 0, r.stderr);
  svgDir = path.join(out, 'svg');
  real = report('real-sweep', ['--svg-dir', svgDir, '--a', 'precision=int8', '--b', 'precision=fp16', dir]);
  const cdir = path.join(out, 'built-sweep');
  makeSweep(cdir, { models: { m1: 0.5, m2: 3, m3: 14 }, windows: [128, 512, 2048, 8192], precisions: ['int8', 'int4', 'fp16'], repeats: 3 });
  built = report('built-sweep', [cdir]);
  browser = await launch();
});
after(async () => { await browser.close(); });

// Counts of each kind of mark, and the marks without a <title>.
async function marks(page) {
  return page.evaluate(() => {
    const count = (sel) => document.querySelectorAll(sel).length;
    const kinds = ['circle.pt', 'path.spread', 'path.fit', 'rect.cell', 'rect.seg', 'rect.bar', 'circle.ratio', 'polyline.ratio-line'];
    const c = {};
    for (const k of kinds) c[k] = count(`figure svg ${k}`);
    const all = document.querySelectorAll('figure svg :is(circle, rect.bar, rect.seg, rect.cell, path.fit, path.spread, polyline)');
    c.untitled = [...all].filter((m) => !m.querySelector(':scope > title')).length;
    c.figures = [...document.querySelectorAll('figure')].map((f) => f.id);
    c.svgTitles = [...document.querySelectorAll('figure svg > title')].map((t) => t.textContent);
    return c;
  });
}

test('a real sweep: fix, runs and diff tables, scaling, regime, fingerprint and ratio figures', async () => {
  const { page, seen, url } = await open(browser, real);
  const m = await marks(page);
  // a study of 6 configurations: of its figures, the memory-scheduling share
  // against n (the only numeric axis) per precision; no hand-off (every run
  // prints the same log: one compile time), no sizes, one family
  assert.deepEqual(m.figures, ['heaviest-passes', 'scaling-n', 'regime-precision-n', 'fingerprint', 'ratio-precision', 'precision-scaling-precision']);
  // scaling: n = 1, 2, 4 for each precision (cold): 6 points, 2 fitted lines
  assert.equal(m['circle.pt'], 6 + 2 * 3);          // + precision-scaling: 2 precisions x 3 n
  assert.equal(m['path.fit'], 2);
  assert.ok(m['path.spread'] <= 6);
  assert.equal(m['rect.cell'], 6);                  // precision x n
  assert.equal(m['rect.seg'] % 12, 0);               // 12 configurations x modes, a segment per stage
  assert.ok(m['rect.seg'] >= 12);
  assert.equal(m['circle.ratio'], 3);                // fp16 / int8 at n = 1, 2, 4
  assert.equal(m['polyline.ratio-line'], 1);
  assert.ok(m['rect.bar'] >= 10);
  assert.equal(m.untitled, 0, 'every mark has a <title>');
  const tables = await page.evaluate(() => [...document.querySelectorAll('table')].map((t) => ({
    id: t.id, rows: t.tBodies[0].rows.length, first: t.tBodies[0].rows[0].cells[0].textContent,
  })));
  // What to change comes first: the study's fix table, a row per regime
  // found, which together hold the study's 6 configurations
  assert.deepEqual(tables.map((t) => t.id), ['fix-table', 'runs-table', 'diff-table']);
  const when = await page.$$eval('#fix-table tbody tr', (rs) => rs.map((r) => r.cells[1].textContent));
  assert.ok(when.length >= 1);
  assert.equal(when.reduce((n, w) => n + Number((w.match(/^(\d+) of 6 configurations: /) || [0, NaN])[1]), 0), 6, when.join(' | '));
  assert.equal(tables[1].rows, 12);                  // 3 n x 2 precisions x cold/warm
  assert.equal(tables[2].first, 'total');
  const findings = await page.$$eval('#findings li', (li) => li.map((l) => l.textContent));
  assert.ok(findings.some((f) => /^Wall time grows as n\^/.test(f)), 'a fitted exponent');
  // every run prints the same log, warm ones too: the cache verdict is a
  // miss, and then the page gives no warm-cache factor
  assert.ok(findings.some((f) => /^The cache did not hit in 6 of 6 configurations: 12 of 12 warm runs compiled again/.test(f)), 'the cache miss');
  assert.ok(!findings.some((f) => /warm cache makes/i.test(f)), 'no cache factor beside a miss');
  assert.ok(findings.some((f) => /^B \(precision=fp16\) against A \(precision=int8\)/.test(f)), 'the diff');
  assert.ok(findings.some((f) => /^precision=fp16 takes/.test(f)), 'the ratio');
  await screenshot(page, 'sweep-real');
  assert.deepEqual(seen.requests, [url]);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);

  // the standalone copies: well-formed SVG, one per figure, same marks
  const files = fs.readdirSync(svgDir).sort();
  assert.deepEqual(files, [...m.figures].sort().map((f) => f + '.svg'));
  for (const f of files) {
    const text = fs.readFileSync(path.join(svgDir, f), 'utf8');
    assert.match(text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const ok = await page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      return !doc.querySelector('parsererror') && doc.documentElement.localName === 'svg' &&
        !!doc.querySelector('svg > title');
    }, text);
    assert.ok(ok, `${f} parses as SVG`);
  }
  await page.close();
});

test('a constructed sweep: the regime moves with the window, series are fitted', async () => {
  const { page, seen } = await open(browser, built);
  const m = await marks(page);
  assert.deepEqual(m.figures, ['heaviest-passes', 'scaling-window', 'regime-model-window', 'fingerprint', 'ratio-precision',
    'handoff', 'fingerprint-family-window-512', 'precision-scaling-precision']);
  assert.equal(m['rect.cell'], 12);                  // 3 models x 4 windows
  assert.equal(m['path.fit'], 9);                    // 9 series, all drawn (3 panels of 3)
  const cells = await page.$$eval('#regime-model-window rect.cell > title', (t) => t.map((x) => x.textContent));
  const stages = new Set(cells.map((c) => c.match(/dominant stage (\S+),/)[1]));
  assert.ok(stages.size >= 2, `the dominant stage changes: ${[...stages]}`);
  const legend = await page.$$eval('#regime-model-window .legend-item text', (t) => t.map((x) => x.textContent));
  assert.deepEqual(new Set(legend), stages);
  assert.equal(m.untitled, 0);
  await page.locator('#figures').screenshot({ path: path.join(process.env.NS_SHOTS || path.join(path.dirname(new URL(import.meta.url).pathname), 'screenshots'), 'sweep-figures.png') });
  assert.deepEqual(seen.errors, []);
  await page.close();
});

// The constructed NPU study (tests/helpers/gen-study.py: 5 models x 4
// windows x 3 precisions, 7 sub-model reports each): every study figure is
// on the page, drawn, screenshotted; the 15-series scaling plot is whole.
test('the study: its six figures, and 15 series as small multiples', async () => {
  const dir = path.join(out, 'study');
  // (made once per make check and copied: tests/helpers/study.sh)
  const g = spawnSync('sh', [path.join(root, 'tests', 'helpers', 'study.sh'), dir], {
    cwd: root, env: { ...process.env, NPUSCOPE: npuscope }, encoding: 'utf8' });
  assert.equal(g.status, 0, g.stderr);
  const file = report('study', [path.join(dir, 'runs')]);
  const { page, seen, url } = await open(browser, file);
  const m = await marks(page);
  const prefixes = ['regime-', 'handoff', 'why-costly', 'fingerprint-family', 'precision-size', 'precision-scaling'];
  for (const p of prefixes) {
    const id = m.figures.find((f) => f.startsWith(p));
    assert.ok(id, `a ${p} figure: ${m.figures}`);
    const fig = page.locator(`figure#${id}`);
    await fig.scrollIntoViewIfNeeded();
    const box = await fig.boundingBox();
    assert.ok(box && box.width > 300 && box.height > 150, `${id} is drawn: ${JSON.stringify(box)}`);
    await fig.screenshot({ path: path.join(shots, `study-${id}.png`) });
  }
  assert.equal(m.untitled, 0, 'every mark has a <title>');
  // the hand-off: markers of 4 families (circles, squares, triangles, diamonds), a line per stage
  const hand = await page.evaluate(() => {
    const f = document.querySelector('#handoff svg');
    return { lines: f.querySelectorAll('polyline.line').length, pts: f.querySelectorAll('.pt').length,
      shapes: new Set([...f.querySelectorAll('.pt')].map((e) => e.localName + (e.getAttribute('d') || '').replace(/[0-9.\s-]/g, ''))).size };
  });
  assert.ok(hand.lines >= 3, `lines per stage: ${hand.lines}`);
  assert.equal(hand.shapes, 4, 'one marker shape per family');
  // why-costly: one point per report, a fitted line
  assert.equal(await page.locator('#why-costly-FeasibleAllocation circle.pt').count(), 420);
  assert.equal(await page.locator('#why-costly-FeasibleAllocation path.fit').count(), 1);
  // precision-size: two panels, the y = 1 line in the second
  assert.equal(await page.locator('[id^="precision-size"] g.panel').count(), 2);
  assert.equal(await page.locator('[id^="precision-size"] g.panel').nth(1).locator('line.ref').count(), 1);
  // 15 series against window: 3 panels (one per precision), 5 series each,
  // every point drawn and inside its figure; no sentence of a cut
  const sm = await page.evaluate(() => {
    const fig = document.querySelector('#scaling-window');
    const svg = fig.querySelector('svg').getBoundingClientRect();
    const pts = [...fig.querySelectorAll('circle.pt')];
    const inside = pts.filter((c) => {
      const r = c.getBoundingClientRect();
      return r.width > 0 && r.left >= svg.left - 1 && r.right <= svg.right + 1 && r.top >= svg.top - 1 && r.bottom <= svg.bottom + 1;
    }).length;
    return { panels: [...fig.querySelectorAll('g.panel')].map((g) => g.getAttribute('aria-label')),
      perPanel: [...fig.querySelectorAll('g.panel')].map((g) => g.querySelectorAll('g.series').length),
      pts: pts.length, inside, legend: fig.querySelectorAll('.legend-item').length,
      caption: fig.querySelector('figcaption').textContent };
  });
  assert.deepEqual(sm.panels, ['precision=fp16', 'precision=int4', 'precision=int8']);
  assert.deepEqual(sm.perPanel, [5, 5, 5]);
  assert.equal(sm.pts, 60);                          // 15 series x 4 windows
  assert.equal(sm.inside, 60, 'every point is inside the figure');
  assert.equal(sm.legend, 5);                        // the 5 models, the same colour in every panel
  assert.doesNotMatch(sm.caption, /series are shown/);
  assert.match(sm.caption, /All 15 series are drawn, as 3 panels/);
  await page.locator('#scaling-window').screenshot({ path: path.join(shots, 'study-small-multiples.png') });
  assert.deepEqual(seen.requests, [url]);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
});

// 8 models x 8 precisions against window: 64 series that no one tag splits
// into panels of 7 colours -- one panel per series, every point drawn.
test('64 series no tag splits: one panel each, none cut', async () => {
  const dir = path.join(out, 'wide-sweep');
  const models = {};
  for (let i = 1; i <= 8; i++) models['m' + i] = i;
  makeSweep(dir, { models, windows: [128, 1024, 8192], precisions: ['int8', 'int4', 'fp16', 'bf16', 'fp8', 'int2', 'nf4', 'fp32'], repeats: 1 });
  const file = report('wide-sweep', [dir]);
  const { page, seen } = await open(browser, file);
  const w = await page.evaluate(() => {
    const fig = document.querySelector('#scaling-window');
    return { panels: fig.querySelectorAll('g.panel').length, pts: fig.querySelectorAll('circle.pt').length,
      legend: fig.querySelectorAll('.legend-item').length, caption: fig.querySelector('figcaption').textContent };
  });
  assert.equal(w.panels, 64);
  assert.equal(w.pts, 64 * 3);
  assert.equal(w.legend, 0, 'each panel names its series');
  assert.match(w.caption, /All 64 series are drawn, one panel each/);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
});

test('same input, same bytes', () => {
  const again = report('real-sweep-again', ['--a', 'precision=int8', '--b', 'precision=fp16', path.join(out, 'real-sweep')]);
  const a = fs.readFileSync(real, 'utf8').replace(/npuscope report -q -o \S+ --svg-dir \S+/, '');
  const b = fs.readFileSync(again, 'utf8').replace(/npuscope report -q -o \S+/, '');
  assert.equal(a, b);
});

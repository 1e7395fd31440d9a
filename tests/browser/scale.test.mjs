// scale.test.mjs -- big trees stay usable: a 10,000-row report and a
// 10,000-deep chain (walks in C and in JS are loops, never recursion); and
// a 1,200-run sweep makes a compact page whose picker opens any
// configuration's median run.  Nothing here is timed (`make bench`
// measures the page); it checks that the rows are all there, the page's
// size per run, and that the explorer still answers.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, open, out, pageData, report, screenshot, search } from './lib.mjs';
import { decode } from './data.mjs';
import { bigTreeLog, deepTreeLog, makeSweep } from './gen.mjs';

let browser, wide, deep, big, bigRuns;

before(async () => {
  fs.writeFileSync(path.join(out, 'wide.log'), bigTreeLog(10000));
  fs.writeFileSync(path.join(out, 'deep.log'), deepTreeLog(10000));
  wide = report('wide', [path.join(out, 'wide.log')]);
  deep = report('deep', [path.join(out, 'deep.log')]);
  const dir = path.join(out, 'sweep-1200');
  fs.rmSync(dir, { recursive: true, force: true });
  bigRuns = makeSweep(dir);
  big = report('sweep-1200', [dir]);
  fs.rmSync(dir, { recursive: true, force: true });
  browser = await launch();
});
after(async () => { await browser.close(); });

test('a 10,000-row report: lazy rows, expand all, search', async () => {
  const data = decode(pageData(wide));
  let nodes = 0;
  const stack = [data.reports[0].root];
  while (stack.length) { const n = stack.pop(); nodes++; stack.push(...n.children); }
  assert.ok(nodes > 10000, `${nodes} rows`);
  const { page, seen } = await open(browser, wide);
  // only the report row and its top-level rows exist at first
  const first = await page.locator('#tree .row[role=treeitem]').count();
  assert.equal(first, 1 + data.reports[0].root.children.length);
  await page.click('#expand-all');
  assert.equal(await page.locator('#tree .row[role=treeitem]').count(), nodes);
  await page.click('#collapse-all');
  await search(page, 'Analysis9999');
  const cur = await page.$eval('#tree .row.current', (r) => [r.getAttribute('aria-level'), r.querySelector('.name').title]);
  assert.deepEqual(cur, ['4', '(A) Analysis9999']);
  await screenshot(page, 'wide-search');
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
});

test('a 10,000-deep chain: expand all reaches the bottom row', async () => {
  const { page, seen } = await open(browser, deep);
  await page.click('#expand-all');
  const info = await page.evaluate(() => {
    const rows = document.querySelectorAll('#tree .row[role=treeitem]');
    const last = rows[rows.length - 1];
    return { n: rows.length, level: last.getAttribute('aria-level'), name: last.querySelector('.name').title };
  });
  // the report row, P0 .. P9999, Rest
  assert.deepEqual(info, { n: 10002, level: '2', name: 'Rest' });
  const bottom = await page.$eval('#tree .row[data-id] .name[title="P9999"]', (n) => n.closest('.row').getAttribute('aria-level'));
  assert.equal(bottom, '10001');
  await page.click('#collapse-all');
  await search(page, 'P9998');
  assert.match(await page.textContent('#status'), /^1 of 1 match/);
  await page.keyboard.press('Tab'); // out of the search box, into the tree
  await screenshot(page, 'deep-search');
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('a 1,200-run sweep: a compact page; the picker opens any configuration, its median run first', async () => {
  assert.equal(bigRuns, 1200);
  // the tree JSON of every median run made 1,372 bytes a run; the data
  // block now holds the fastest and slowest runs' trees as well in under
  // half of that.  The whole page (figures and tables too, which grow with
  // what the sweep supports, not with its runs) stays under 1,000 a run:
  // 3 MB at 3,000 runs
  const html = fs.readFileSync(big, 'utf8');
  const block = html.match(/<script type="application\/json" id="npuscope-data">([\s\S]*?)<\/script>/)[1];
  assert.ok(block.length / bigRuns < 300, `${(block.length / bigRuns).toFixed(0)} bytes of data per run`);
  assert.ok(html.length / bigRuns < 1000, `${(html.length / bigRuns).toFixed(0)} bytes of page per run`);
  const d = decode(pageData(big));
  assert.equal(d.configs.mode.length, 240, '120 configurations, cold and warm');
  assert.equal(pageData(big).shapes.length, 1, 'one shape shared by every report');
  const S = d.strings, tag = (k, c) => S[d.configs.tag[d.tags.indexOf(k)][c]];
  const { page, seen } = await open(browser, big);
  const opts = await page.$$eval('#picker .pick-a select[data-tag]', (ss) => ss.map((s) => [s.dataset.tag, s.options.length]));
  assert.deepEqual(opts, [['model', 5], ['window', 6], ['precision', 4]]);
  await page.selectOption('#picker .pick-a select[data-tag="model"]', 'm5');
  await page.selectOption('#picker .pick-a select[data-tag="window"]', '4096');
  await page.selectOption('#picker .pick-a select[data-tag="precision"]', 'fp16');
  assert.equal(await page.inputValue('#picker .pick-a select.mode'), 'cold');
  let c = -1;
  for (let i = 0; i < d.configs.mode.length; i++)
    if (tag('model', i) === 'm5' && tag('window', i) === '4096' && tag('precision', i) === 'fp16' && S[d.configs.mode[i]] === 'cold') c = i;
  const x = d.runs.config.findIndex((cc, i) => cc === c && (d.runs.roles[i] & 1));
  const want = d.reports[d.runs.first[x]];
  const row = await page.$eval('#tree .row.report', (r) => [r.querySelector('.wall').textContent, r.getAttribute('aria-expanded')]);
  assert.deepEqual(row, [want.total.wall_s.toFixed(4), 'true']);
  assert.equal(await page.locator('#tree .row[aria-level="2"]').count(), want.root.children.length);
  // a warm cache hit prints no report: said, not an empty box
  await page.selectOption('#picker .pick-a select.mode', 'warm');
  assert.match(await page.textContent('#tree'), /No timing report in this run/);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
});

// scale.test.mjs -- big trees stay usable: a 10,000-row report and a
// 10,000-deep chain (walks in C and in JS are loops, never recursion).
// Nothing here is timed (`make bench` measures the page); it checks that
// the rows are all there and the explorer still answers.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, open, out, pageData, report, screenshot } from './lib.mjs';
import { decode } from './data.mjs';
import { bigTreeLog, deepTreeLog } from './gen.mjs';

let browser, wide, deep;

before(async () => {
  fs.writeFileSync(path.join(out, 'wide.log'), bigTreeLog(10000));
  fs.writeFileSync(path.join(out, 'deep.log'), deepTreeLog(10000));
  wide = report('wide', [path.join(out, 'wide.log')]);
  deep = report('deep', [path.join(out, 'deep.log')]);
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
  await page.fill('#q', 'Analysis9999');
  await page.press('#q', 'Enter');
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
  await page.fill('#q', 'P9998');
  await page.press('#q', 'Enter');
  assert.match(await page.textContent('#status'), /^1 of 1 match/);
  await page.keyboard.press('Tab'); // out of the search box, into the tree
  await screenshot(page, 'deep-search');
  assert.deepEqual(seen.errors, []);
  await page.close();
});

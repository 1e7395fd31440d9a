// explorer.test.mjs -- the tree explorer of a real page in headless
// Chromium: opened from file://, nothing fetched or logged; a click shows a
// node's children with share bars that match the data; keyboard; search;
// expand/collapse all; the threshold; dark and print.
//
// The page: `npuscope report --npuw` of tests/fixtures/constructed-npuw-7.log
// (seven sub-model reports in the NPU compiler's format).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fixtures, launch, open, pageData, report, screenshot } from './lib.mjs';
import { decode } from './data.mjs';

let browser, file, data;

before(async () => {
  file = report('npuw', ['--npuw', path.join(fixtures, 'constructed-npuw-7.log')]);
  data = decode(pageData(file));
  browser = await launch();
});
after(async () => { await browser.close(); });

// Rows on the page: [{id, level, name, expanded, share, fill, bar}] in order.
async function rows(page) {
  return page.$$eval('#tree .row[role=treeitem]', (els) => els.map((r) => {
    const bar = r.querySelector('.bar'), fill = r.querySelector('.bar > span');
    const name = r.querySelector('.name');
    return {
      id: +r.dataset.id,
      level: +r.getAttribute('aria-level'),
      text: name.textContent,
      expanded: r.getAttribute('aria-expanded'),
      share: r.querySelector('.share').textContent,
      style: parseFloat(fill.style.width),
      ratio: fill.getBoundingClientRect().width / bar.getBoundingClientRect().width,
      focused: document.activeElement === r,
    };
  }));
}

// The JSON node of report ri reached by a path of child names.
function node(ri, names) {
  let n = data.reports[ri].root;
  for (const want of names) n = n.children.find((c) => c.name === want);
  return n;
}

test('opens from file:// with no request but the page itself, no console message, no error', async () => {
  const { page, seen, url } = await open(browser, file);
  const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  assert.match(csp, /default-src 'none'/);
  assert.deepEqual(seen.requests, [url]);
  assert.deepEqual(seen.console, []);
  assert.deepEqual(seen.errors, []);
  assert.equal(await page.locator('#tree .row.report').count(), 7);
  await screenshot(page, 'explorer-open');
  await page.close();
});

test('a click shows the children, with share bars of the sub-model total', async () => {
  const { page, seen } = await open(browser, file);
  // the first report is open at its top-level rows; open "Compile network"
  const before = await rows(page);
  const cn = before.find((r) => r.level === 2 && r.text.endsWith('Compile network'));
  assert.ok(cn, 'a "Compile network" row');
  assert.equal(cn.expanded, 'false');
  await page.click(`#tree .row[data-id="${cn.id}"]`);
  const after = await rows(page);
  const at = after.findIndex((r) => r.id === cn.id);
  assert.equal(after[at].expanded, 'true');
  const want = node(0, ['Compile network']).children;
  const got = after.slice(at + 1, at + 1 + want.length);
  const total = data.reports[0].total.wall_s;
  assert.equal(got.length, want.length);
  for (let i = 0; i < want.length; i++) {
    assert.equal(got[i].level, 3);
    assert.ok(got[i].text.endsWith(want[i].name), `${got[i].text} is ${want[i].name}`);
    const share = want[i].wall_s / total;
    assert.equal(got[i].share, (share * 100).toFixed(1) + '%');
    assert.ok(Math.abs(got[i].style - Math.max(0, Math.min(1, share)) * 100) < 0.01, `bar style of ${want[i].name}`);
    assert.ok(Math.abs(got[i].ratio - Math.max(0, Math.min(1, share))) < 0.02, `drawn bar of ${want[i].name}`);
  }
  assert.equal(after[at + 1 + want.length].level <= 2, true, 'then the next top-level row');
  // a second click collapses
  await page.click(`#tree .row[data-id="${cn.id}"]`);
  assert.equal((await rows(page)).length, before.length);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('keyboard: arrows, Enter, Space, Home and End on a focused row', async () => {
  const { page, seen } = await open(browser, file);
  const r2 = (await rows(page)).find((r) => r.level === 1 && r.text.includes('generate/2'));
  assert.ok(r2, 'report generate/2');
  await page.focus(`#tree .row[data-id="${r2.id}"]`);
  const focused = async () => (await rows(page)).find((r) => r.focused);
  const count = async () => (await rows(page)).length;
  const n0 = await count();
  await page.keyboard.press('ArrowRight'); // expands
  assert.equal((await focused()).expanded, 'true');
  const n1 = await count();
  assert.equal(n1 - n0, data.reports[1].root.children.length);
  await page.keyboard.press('ArrowRight'); // to the first child
  assert.equal((await focused()).level, 2);
  await page.keyboard.press('ArrowDown');
  assert.equal((await focused()).level, 2);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft'); // to the parent
  assert.equal((await focused()).id, r2.id);
  await page.keyboard.press('ArrowLeft'); // collapses
  assert.equal((await focused()).expanded, 'false');
  assert.equal(await count(), n0);
  await page.keyboard.press('Enter');
  assert.equal(await count(), n1);
  await page.keyboard.press(' ');
  assert.equal(await count(), n0);
  await page.keyboard.press('End');
  const all = await rows(page);
  assert.equal((await focused()).id, all[all.length - 1].id);
  await page.keyboard.press('Home');
  assert.equal((await focused()).id, all[0].id);
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'Space does not scroll the page');
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('search reveals a nested pass and highlights it', async () => {
  const { page, seen } = await open(browser, file);
  const want = 'FeasibleAllocation';
  await page.fill('#q', want.toLowerCase());
  await page.press('#q', 'Enter');
  const marks = await page.$$eval('#tree .row.match mark', (ms) => ms.map((m) => m.textContent));
  // one match per report that has the pass, every one revealed
  let expected = 0;
  for (const r of data.reports) {
    const stack = [r.root];
    while (stack.length) {
      const n = stack.pop();
      if (n.name.toLowerCase().includes('feasibleallocation')) expected++;
      stack.push(...n.children);
    }
  }
  assert.ok(expected >= 7, 'the fixture has the pass in every report');
  assert.equal(marks.length, expected);
  for (const m of marks) assert.equal(m, want);
  const cur = await page.$eval('#tree .row.current', (r) => ({
    level: +r.getAttribute('aria-level'),
    inView: (() => {
      const a = r.getBoundingClientRect(), t = document.getElementById('tree').getBoundingClientRect();
      return a.top >= t.top - 1 && a.bottom <= t.bottom + 1;
    })(),
  }));
  assert.ok(cur.level >= 3, 'the match is nested');
  assert.ok(cur.inView, 'the current match is scrolled into view');
  assert.match(await page.textContent('#status'), new RegExp(`^1 of ${expected} matches`));
  // every ancestor of a match is expanded
  const closed = await page.$$eval('#tree .row.match', (ms) => ms.filter((m) => {
    let lv = +m.getAttribute('aria-level');
    for (let r = m.previousElementSibling; r && lv > 1; r = r.previousElementSibling) {
      const l = +r.getAttribute('aria-level');
      if (l < lv) { if (r.getAttribute('aria-expanded') !== 'true') return true; lv = l; }
    }
    return false;
  }).length);
  assert.equal(closed, 0);
  await page.press('#q', 'Enter');
  assert.match(await page.textContent('#status'), new RegExp(`^2 of ${expected} matches`));
  await screenshot(page, 'explorer-search');
  await page.fill('#q', 'no-such-pass-anywhere');
  await page.press('#q', 'Enter');
  assert.match(await page.textContent('#status'), /^No row matches/);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('expand all, collapse all, and the threshold', async () => {
  const { page, seen } = await open(browser, file);
  let nodes = 0;
  for (const r of data.reports) {
    const stack = [r.root];
    while (stack.length) { const n = stack.pop(); nodes++; stack.push(...n.children); }
  }
  await page.click('#expand-all');
  assert.equal(await page.locator('#tree .row[role=treeitem]').count(), nodes);
  await screenshot(page, 'explorer-expanded');
  await page.click('#collapse-all');
  assert.equal(await page.locator('#tree .row[role=treeitem]').count(), data.reports.length);
  await page.click('#expand-all');
  await page.fill('#min-ms', '100');
  await page.waitForFunction(() => document.querySelector('#tree .row.elided'));
  const shown = await page.$$eval('#tree .row[role=treeitem]', (els) => els.map((r) => +r.dataset.id));
  const walls = await page.$$eval('#tree .row[role=treeitem] .wall', (els) => els.map((e) => parseFloat(e.textContent)));
  assert.ok(shown.length < nodes);
  for (const w of walls) assert.ok(!(Math.abs(w) < 0.1), `a row of ${w} s is below 100 ms`);
  const elided = await page.$$eval('#tree .row.elided', (els) => els.map((e) => e.textContent));
  assert.ok(elided.length > 0);
  for (const e of elided) assert.match(e, /^\(\d+ rows? below 100 ms elided, \d+\.\d{4} s together\)$/);
  await screenshot(page, 'explorer-threshold');
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('dark scheme and print', async () => {
  const { page, seen } = await open(browser, file);
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await page.$eval('body', (b) => getComputedStyle(b).backgroundColor);
  assert.equal(dark, 'rgb(15, 20, 25)');
  await screenshot(page, 'explorer-dark');
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  const print = await page.evaluate(() => ({
    controls: getComputedStyle(document.querySelector('.controls')).display,
    bg: getComputedStyle(document.body).backgroundColor,
    tree: getComputedStyle(document.getElementById('tree')).maxHeight,
  }));
  assert.deepEqual(print, { controls: 'none', bg: 'rgb(255, 255, 255)', tree: 'none' });
  assert.deepEqual(seen.errors, []);
  await page.close();
});

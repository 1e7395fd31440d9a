// safety.test.mjs -- names from a log are text, never markup, and the page
// asks for nothing.
//
// The log is a real fixture (tests/fixtures/mlir22-tree-st.txt) whose pass
// names are rewritten into <script>, an <img onerror>, a bare </script> and
// an attribute handler (gen.mjs, hostileNames).  In Chromium: no dialog
// opens, no console message, no error, no request but the page; the DOM
// holds no element the names describe; every name reads back verbatim from
// the tree, the chart and its <title> tooltips.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SCRIPTS, checkScripts, domScripts, idle, launch, open, out, report, screenshot, search } from './lib.mjs';
import { hostileLog, hostileNames } from './gen.mjs';

let browser, file;

before(async () => {
  const log = path.join(out, 'hostile.log');
  fs.writeFileSync(log, hostileLog());
  file = report('hostile', [log]);
  browser = await launch();
});
after(async () => { await browser.close(); });

test('hostile pass names render as plain text and execute nothing', async () => {
  const { page, seen, url } = await open(browser, file);
  await page.click('#expand-all');
  await page.hover('#heaviest-passes rect.bar'); // a tooltip's <title>, too
  await idle(page); // whatever the hover and the expansion set going has run
  const dom = await page.evaluate(() => ({
    imgs: document.querySelectorAll('img').length,
    bold: document.querySelectorAll('main b, #tree b').length,
    handlers: [...document.querySelectorAll('*')].filter((e) =>
      [...e.attributes].some((a) => /^on/i.test(a.name))).length,
    rows: [...document.querySelectorAll('#tree .row .name')].map((n) => n.title),
    rowText: [...document.querySelectorAll('#tree .row .name')].map((n) => n.textContent),
    svgText: [...document.querySelectorAll('#heaviest-passes svg text')].map((t) => t.textContent),
    svgTitles: [...document.querySelectorAll('#heaviest-passes svg rect.bar > title')].map((t) => t.textContent),
    findings: document.getElementById('findings').textContent,
  }));
  assert.deepEqual(await domScripts(page), SCRIPTS, 'the data blocks and the page script, nothing more');
  assert.equal(dom.imgs, 0);
  assert.equal(dom.bold, 0);
  assert.equal(dom.handlers, 0);
  for (const name of hostileNames) {
    assert.ok(dom.rows.includes(name), `tree row named ${name}`);
    assert.ok(dom.rowText.some((t) => t.endsWith(name)), `tree text ${name}`);
    assert.ok(dom.svgText.includes(name), `chart label ${name}`);
    assert.ok(dom.svgTitles.some((t) => t.startsWith(name + ': ')), `chart tooltip ${name}`);
  }
  assert.ok(dom.findings.includes(hostileNames[0]), 'the heaviest pass sentence');
  // search for one of them: the highlight is text too
  await search(page, '<script>');
  const marks = await page.$$eval('#tree mark', (ms) => ms.map((m) => m.textContent));
  assert.ok(marks.length >= 1);
  for (const m of marks) assert.equal(m, '<script>');
  await screenshot(page, 'hostile-names');
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.console, []);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.requests, [url]);
  await page.close();
});

test('the page source holds no markup from the log', () => {
  const html = fs.readFileSync(file, 'utf8');
  assert.equal((html.match(/<script/g) || []).length, SCRIPTS.length);
  checkScripts(assert, html);
  assert.doesNotMatch(html, /<img/);
  assert.doesNotMatch(html, /<b /);
});

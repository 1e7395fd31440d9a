// failed.test.mjs -- the page of a sweep where one configuration's runs all
// failed: choosing it throws nothing, says there is no counted run, and
// leaves no tree or median of the configuration shown before under its
// label (a TypeError used to stop the picker half way).
//
// The runs: tests/helpers/gen-runs.py, configuration cfg=good with three
// ok runs, cfg=bad with three runs that exited 1 (their run.json edited).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { launch, open, out, report, sh } from './lib.mjs';

let browser, file;

before(async () => {
  const dir = path.join(out, 'failed-runs');
  fs.rmSync(dir, { recursive: true, force: true });
  sh('python3', ['tests/helpers/gen-runs.py', dir, '--runs', '3', '--tag', 'cfg=good', '--prefix', 'good']);
  sh('python3', ['tests/helpers/gen-runs.py', dir, '--runs', '3', '--tag', 'cfg=bad', '--prefix', 'bad']);
  for (const d of fs.readdirSync(dir).filter((d) => d.startsWith('bad-'))) {
    const f = path.join(dir, d, 'run.json');
    const r = JSON.parse(fs.readFileSync(f, 'utf8'));
    r.exit_code = 1; r.ok = false; r.error = 'exit 1'; r.reports = [];
    fs.writeFileSync(f, JSON.stringify(r) + '\n');
  }
  file = report('failed', [dir]);
  browser = await launch();
});
after(async () => { await browser.close(); });

test('a configuration whose runs all failed: no error, says so, shows nothing stale', async () => {
  const { page, seen } = await open(browser, file);
  assert.equal(await page.isVisible('#picker'), true);
  assert.equal(await page.inputValue('#picker .pick-a select[data-tag="cfg"]'), 'good');
  assert.match(await page.textContent('#picker .pick-a .info'), /^3 runs, median \d+\.\d{4} s$/);
  const before = await page.$$eval('#tree .row[role=treeitem]', (rs) => rs.length);
  assert.ok(before > 0, 'the good configuration shows its tree');
  await page.selectOption('#picker .pick-a select[data-tag="cfg"]', 'bad');
  assert.deepEqual(seen.errors, []);
  const info = await page.textContent('#picker .pick-a .info');
  assert.match(info, /^no counted run/);
  assert.doesNotMatch(info, /median/);
  // no row of a run: the good configuration's tree is gone
  const rows = await page.$$eval('#tree .row[role=treeitem]', (rs) => rs.map((r) => r.textContent));
  assert.equal(rows.some((t) => /pass-0/.test(t)), false, 'a stale tree is still shown: ' + rows.join(' | '));
  // and back: the good one again
  await page.selectOption('#picker .pick-a select[data-tag="cfg"]', 'good');
  assert.match(await page.textContent('#picker .pick-a .info'), /^3 runs, median/);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

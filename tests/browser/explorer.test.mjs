// explorer.test.mjs -- the tree explorer of a real page in headless
// Chromium: opened from file://, nothing fetched or logged; a click shows a
// node's children with share bars that match the data; keyboard; search;
// expand/collapse all; the threshold; dark and print.  Then the explorer of
// a sweep: a configuration picked by its tags, its sub-model compiles
// grouped by kind with their shares, another run of it opened, a second
// configuration compared beside it (aligned by path, differences and rows
// only one side has marked), and the per-pass memory columns shown when the
// rows have them and absent when they do not.
//
// The pages: `npuscope report --npuw` of tests/fixtures/constructed-npuw-7.log
// (seven sub-model reports in the NPU compiler's format); a constructed
// NPUW sweep and a hand-made run with memory keys (explorer-gen.mjs).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { fixtures, launch, open, out, pageData, report, run, screenshot, shots, search } from './lib.mjs';
import { HOSTILE, MEM, RENAMED, hostileRuns, memRun, npuwSweep } from './explorer-gen.mjs';
import { decode } from './data.mjs';

let browser, file, data, sweepFile, sweep, memDir, memFile;

before(async () => {
  file = report('npuw', ['--npuw', path.join(fixtures, 'constructed-npuw-7.log')]);
  data = decode(pageData(file));
  const dir = path.join(out, 'npuw-sweep');
  fs.rmSync(dir, { recursive: true, force: true });
  npuwSweep(dir);
  sweepFile = report('npuw-sweep', [dir]);
  sweep = decode(pageData(sweepFile));
  memDir = path.join(out, 'mem-runs');
  fs.rmSync(memDir, { recursive: true, force: true });
  memRun(memDir);
  memFile = report('mem', [memDir]);
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
  // the explorer may start below the first screen (What to change comes
  // first), so focusing a row may have scrolled to it: Space must not
  // scroll further.  A keyboard scroll is smooth, so it would show only
  // later: what is checked is the cause, the key's default action taken
  // away (seen by a listener on the window, after the tree's own), and
  // that there is room below for it to have scrolled
  const y = () => page.evaluate(() => window.scrollY);
  const y0 = await y();
  assert.ok(await page.evaluate(() => document.documentElement.scrollHeight - innerHeight) > y0 + 100,
    'the page could scroll down on Space');
  await page.evaluate(() => window.addEventListener('keydown', (e) => {
    if (e.key === ' ') window.nsSpaceKept = !e.defaultPrevented;
  }));
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => window.nsSpaceKept), false, 'Space does not scroll the page');
  assert.equal(await y(), y0, 'nor has it scrolled yet');
  assert.equal(await count(), n0);
  await page.keyboard.press('End');
  const all = await rows(page);
  assert.equal((await focused()).id, all[all.length - 1].id);
  await page.keyboard.press('Home');
  assert.equal((await focused()).id, all[0].id);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('search reveals a nested pass and highlights it', async () => {
  const { page, seen } = await open(browser, file);
  const want = 'FeasibleAllocation';
  await search(page, want.toLowerCase());
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
  await search(page, 'no-such-pass-anywhere');
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

// ====== The explorer of a sweep ======

// The configuration of the sweep page with these tags, and its embedded
// run of the role (1 median, 2 fastest, 4 slowest): {config, run, reports}.
function sweepRun(tags, role = 1) {
  const S = sweep.strings, C = sweep.configs, R = sweep.runs;
  let config = -1;
  for (let c = 0; c < C.mode.length && config < 0; c++)
    if (sweep.tags.every((k, i) => tags[k] === undefined || S[C.tag[i][c]] === tags[k])) config = c;
  assert.ok(config >= 0, `a configuration ${JSON.stringify(tags)}`);
  const x = R.config.findIndex((c, i) => c === config && (R.roles[i] & role));
  assert.ok(x >= 0, `an embedded run of role ${role}`);
  return { config, run: x, id: S[R.id[x]], reports: sweep.reports.slice(R.first[x], R.first[x] + R.count[x]) };
}

async function sweepRows(page) {
  return page.$$eval('#tree .row[role=treeitem]', (els) => els.map((r) => {
    const t = (c) => { const e = r.querySelector(c); return e ? e.textContent : null; };
    return {
      id: +r.dataset.id, level: +r.getAttribute('aria-level'), name: r.querySelector('.name').title,
      cls: r.className, expanded: r.getAttribute('aria-expanded'),
      wall: t('.wall'), share: t('.share'), wallB: t('.wall-b'), shareB: t('.share-b'), ratio: t('.ratio'),
    };
  }));
}
// The explorer as a reader sees it: the page scrolled to it, the viewport
// shot (rows off screen are not painted: content-visibility, report.css).
async function treesShot(page, name, row) {
  await page.evaluate((sel) => {
    document.getElementById('trees').scrollIntoView();
    const r = sel && document.querySelector(sel);
    if (r) r.scrollIntoView({ block: 'center' });
  }, row);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: path.join(shots, name + '.png') });
}
const pct = (v) => (v * 100).toFixed(1) + '%';
const sum = (reps) => reps.reduce((a, r) => a + r.total.wall_s, 0);

// The seven reports of a run grouped by kind: the rows expected at the top.
function groupedRows(reports) {
  const all = sum(reports), out = [];
  for (const kind of ['generate', 'prefill', 'lm_head']) {
    const reps = reports.filter((r) => r.label.split('/')[0] === kind);
    out.push({ level: 1, name: `${kind} (${reps.length} compile${reps.length === 1 ? '' : 's'})`,
      wall: sum(reps).toFixed(4), share: pct(sum(reps) / all) });
    for (const r of reps) out.push({ level: 2, name: r.label, wall: r.total.wall_s.toFixed(4), share: pct(r.total.wall_s / all) });
  }
  return out;
}

test('a sweep: a configuration picked by its tags, sub-models grouped by kind with their shares', async () => {
  const { page, seen } = await open(browser, sweepFile);
  assert.equal(await page.isVisible('#picker'), true);
  const tags = await page.$$eval('#picker .pick-a select[data-tag]', (ss) => ss.map((s) => [s.dataset.tag, s.value]));
  assert.deepEqual(tags, [['model', 'm1'], ['window', '128']], 'the first configuration in table order');
  // pick window 1024
  await page.selectOption('#picker .pick-a select[data-tag="window"]', '1024');
  const want = sweepRun({ model: 'm1', window: '1024' });
  const top = (await sweepRows(page)).map(({ level, name, wall, share }) => ({ level, name, wall, share }));
  assert.deepEqual(top, groupedRows(want.reports));
  // the run list: the median first, then the fastest and the slowest
  const runs = await page.$$eval('#picker .pick-a select.run option', (os) => os.map((o) => o.textContent));
  assert.equal(runs.length, 3);
  assert.match(runs[0], /^median · repeat 1 · /);
  assert.match(runs[1], /^fastest · repeat 2 · /);
  assert.match(runs[2], /^slowest · repeat 3 · /);
  assert.match(await page.textContent('#picker .pick-a .info'), /^3 runs, median \d+\.\d{4} s$/);
  // inside a sub-model, shares are of its own total
  const p1 = (await sweepRows(page)).find((r) => r.name === 'prefill/1');
  await page.click(`#tree .row[data-id="${p1.id}"]`);
  const rows = await sweepRows(page);
  const at = rows.findIndex((r) => r.id === p1.id);
  const rep = want.reports.find((r) => r.label === 'prefill/1');
  const kids = rows.slice(at + 1, at + 1 + rep.root.children.length);
  assert.deepEqual(kids.map((r) => [r.level, r.name, r.wall, r.share]),
    rep.root.children.map((c) => [3, c.name, c.wall_s.toFixed(4), pct(c.wall_s / rep.total.wall_s)]));
  await screenshot(page, 'explorer-picked');
  await treesShot(page, 'explorer-picked-trees');
  // another run of the same configuration: the fastest
  await page.selectOption('#picker .pick-a select.run', { index: 1 });
  const fast = sweepRun({ model: 'm1', window: '1024' }, 2);
  assert.notEqual(fast.id, want.id);
  const top2 = (await sweepRows(page)).map(({ level, name, wall, share }) => ({ level, name, wall, share }));
  assert.deepEqual(top2, groupedRows(fast.reports));
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  assert.equal(seen.requests.length, 1);
  await page.close();
});

test('a sweep: a second configuration compared beside the first, aligned by path, differences marked', async () => {
  const { page, seen } = await open(browser, sweepFile);
  await page.click('#compare');
  assert.equal(await page.isVisible('#picker .pick-b'), true);
  assert.equal(await page.getAttribute('#compare', 'aria-pressed'), 'true');
  // A: m1 at 128, B: m1 at 1024 -- only FeasibleAllocation differs (x3)
  await page.selectOption('#picker .pick-b select[data-tag="model"]', 'm1');
  await page.selectOption('#picker .pick-b select[data-tag="window"]', '1024');
  const a = sweepRun({ model: 'm1', window: '128' }), b = sweepRun({ model: 'm1', window: '1024' });
  let rows = await sweepRows(page);
  for (const lab of ['generate/1', 'prefill/3', 'lm_head']) {
    const r = rows.find((x) => x.name === lab);
    const ra = a.reports.find((x) => x.label === lab), rb = b.reports.find((x) => x.label === lab);
    assert.equal(r.wall, ra.total.wall_s.toFixed(4));
    assert.equal(r.wallB, rb.total.wall_s.toFixed(4), `B beside A: ${lab}`);
    assert.equal(r.ratio, (rb.total.wall_s / ra.total.wall_s).toFixed(2) + '\u00d7');
    assert.equal(r.shareB, pct(rb.total.wall_s / sum(b.reports)));
  }
  await page.click('#expand-all');
  rows = await sweepRows(page);
  const fa = rows.filter((r) => r.name === 'FeasibleAllocation');
  assert.equal(fa.length, 7, 'the pass in every sub-model');
  for (const r of fa) {
    assert.match(r.cls, /\bslower\b/, `FeasibleAllocation marked: ${r.ratio}`);
    assert.ok(parseFloat(r.ratio) >= 2.5, r.ratio);
  }
  // every pass FeasibleAllocation is not under is the same on both sides: unmarked
  const canon = rows.filter((r) => r.name === 'Canonicalizer');
  assert.ok(canon.length > 0);
  for (const r of canon) {
    assert.equal(r.wall, r.wallB);
    assert.doesNotMatch(r.cls, /\b(slower|faster|only-a|only-b)\b/);
  }
  assert.equal(rows.filter((r) => /\bonly-[ab]\b/.test(r.cls)).length, 0, 'the same passes on both sides');
  // B: m2 at 128 -- slower overall, and one pass renamed
  await page.selectOption('#picker .pick-b select[data-tag="model"]', 'm2');
  await page.selectOption('#picker .pick-b select[data-tag="window"]', '128');
  await page.click('#expand-all');
  rows = await sweepRows(page);
  const onlyA = rows.filter((r) => /\bonly-a\b/.test(r.cls)), onlyB = rows.filter((r) => /\bonly-b\b/.test(r.cls));
  assert.ok(onlyA.length >= 1 && onlyA.every((r) => r.name === RENAMED[0] && r.ratio === 'only A' && r.wallB === '-'),
    JSON.stringify(onlyA.map((r) => r.name)));
  assert.equal(onlyB.length, onlyA.length);
  assert.ok(onlyB.every((r) => r.name === RENAMED[1] && r.ratio === 'only B' && r.wall === '-'));
  // each row only B has sits beside its A twin, under the same parent
  for (const r of onlyB) {
    const i = rows.indexOf(r);
    assert.equal(rows[i - 1].name, RENAMED[0]);
    assert.equal(rows[i - 1].level, r.level);
  }
  const slower = rows.filter((r) => /\bslower\b/.test(r.cls));
  assert.ok(slower.length > 20, `${slower.length} rows of m2 slower by over 25%`);
  const head = await page.$$eval('.tree-head span', (ss) => ss.map((s) => s.textContent));
  assert.deepEqual(head, ['name', 'wall s', 'share', '', 'user s', 'B wall s', 'B share', 'B / A']);
  await page.click('#collapse-all');
  await page.selectOption('#picker .pick-b select[data-tag="window"]', '1024');
  // the search opens the way to the pass that differs most, in every sub-model
  await search(page, 'FeasibleAllocation');
  const found = await sweepRows(page);
  assert.equal(found.filter((r) => r.name === 'FeasibleAllocation' && /\bslower\b/.test(r.cls)).length, 7);
  await screenshot(page, 'explorer-compared');
  await treesShot(page, 'explorer-compared-trees', '#tree .row.current');
  // closing the comparison takes B's columns away
  await page.click('#compare');
  assert.equal(await page.isVisible('#picker .pick-b'), false);
  assert.equal(await page.locator('#tree .row .wall-b').count(), 0);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
});

test('per-pass memory columns: shown when the rows have them, absent when they do not', async () => {
  const { page, seen } = await open(browser, sweepFile);
  const head = await page.$$eval('.tree-head span', (ss) => ss.map((s) => s.textContent));
  assert.deepEqual(head, ['name', 'wall s', 'share', '', 'user s'], 'no memory column without memory keys');
  assert.equal(await page.locator('#tree .row .mem').count(), 0);
  await page.close();
  // the hand-made run's rows carry mem_peak_kb and mem_increase_kb: the
  // run folder reader keeps them, the page embeds them as two columns
  const tj = run(['tree', '--format', 'json', path.join(memDir, 'mem-r01')]);
  assert.equal(tj.status, 0, tj.stderr);
  assert.match(tj.stdout, /"mem_peak_kb":5000,"mem_increase_kb":2500/);
  const d = pageData(memFile);
  assert.ok(d.reports.cols.mem_peak_kb && d.reports.cols.mem_increase_kb, 'the page embeds the memory columns');
  const memPage = memFile;
  const m = await open(browser, memPage);
  const mhead = await m.page.$$eval('.tree-head span', (ss) => ss.map((s) => s.textContent));
  assert.deepEqual(mhead, ['name', 'wall s', 'share', '', 'user s', 'peak kB', '+kB']);
  const rows = await m.page.$$eval('#tree .row[role=treeitem]', (els) => els.map((r) =>
    [r.querySelector('.name').title, ...[...r.querySelectorAll('.mem')].map((e) => e.textContent)]));
  assert.deepEqual(rows.slice(1), MEM.slice(1).map(([n, , p, i]) => [n, p === null ? '-' : String(p), i === null ? '-' : String(i)]));
  await screenshot(m.page, 'explorer-memory');
  assert.deepEqual(m.seen.errors, []);
  assert.deepEqual(seen.console, []);
  await m.page.close();
});

test('a sweep whose tags are markup and a bidi override: the picker shows them as text', async () => {
  const dir = path.join(out, 'hostile-runs');
  fs.rmSync(dir, { recursive: true, force: true });
  hostileRuns(dir);
  const file = report('hostile-tags', [dir]);
  const { page, seen } = await open(browser, file);
  const dom = await page.evaluate(() => ({
    imgs: document.querySelectorAll('img').length,
    bold: document.querySelectorAll('#picker b').length,
    label: document.querySelector('#picker .pick-a label').textContent,
    options: [...document.querySelectorAll('#picker .pick-a select[data-tag] option')].map((o) => [o.value, o.textContent]),
  }));
  assert.equal(dom.imgs, 0);
  assert.equal(dom.bold, 0);
  assert.match(dom.label, /^<b>k<\/b> /);
  assert.deepEqual(dom.options, [[HOSTILE[0], HOSTILE[0]], [HOSTILE[1], 'a\\u202Eb']]);
  await page.selectOption('#picker .pick-a select[data-tag]', HOSTILE[1]);
  assert.equal(await page.locator('#tree .row.report').count(), 1);
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.console, []);
  await page.close();
});

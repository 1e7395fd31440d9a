// fixed-wait.probe.mjs -- the fragment test of later.test.mjs with a fixed
// wait put back: the probe that shows the load check (tests/run_load.sh)
// catches a test that reads the page at a fixed time.  Not one of the
// suite's tests (its name does not end in .test.mjs): tests/load_probe.sh
// runs it once on the machine as it is, where it passes, and then through
// the load check, where it is meant to fail.
//
// What it gets wrong on purpose: it opens the sweep page at a #fragment
// naming its last figure, with the page's clock running, waits PROBE_WAIT_MS
// (default 1000) after the navigation is committed, and reads once what
// later.test.mjs waits for: the figure built, in the top half of the view,
// and every part of the page built (html[data-complete], set by the page's
// idle callbacks).  Whether that holds after a fixed time depends on how
// busy the machine is -- exactly what a test must never depend on.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { launch, out, report } from './lib.mjs';
import { makeSweep } from './gen.mjs';

// (200 ms until 2026-12-07: the page then took 500-800 ms to be complete
// on the machine as it is, and the probe failed there already)
const WAIT_MS = Number(process.env.PROBE_WAIT_MS || 1000);
let browser, sweep;

before(async () => {
  const dir = path.join(out, 'probe-sweep');
  fs.rmSync(dir, { recursive: true, force: true });
  makeSweep(dir, { repeats: 20 }); // 5 models x 6 windows x 4 precisions x 2 modes x 20: 4,800 runs, a page of some seconds' work
  sweep = report('probe-sweep', [dir]);
  browser = await launch();
});
after(async () => { await browser.close(); });

test(`a #fragment inside a part, read ${WAIT_MS} ms after the navigation (a fixed wait)`, async () => {
  const html = fs.readFileSync(sweep, 'utf8').replace(/<script[^>]*>[\s\S]*?<\/script>/g, '');
  const want = [...html.matchAll(/<figure id="([^"]+)">/g)].map((m) => m[1]).at(-1);
  const page = await browser.context.newPage();
  // (for the log: when the page really was complete, by its own clock)
  await page.addInitScript(() => {
    const poll = setInterval(() => {
      if (document.documentElement && document.documentElement.hasAttribute('data-complete')) {
        window.probeDone = performance.now();
        clearInterval(poll);
      }
    }, 10);
  });
  await page.goto(pathToFileURL(sweep).href + '#' + want, { waitUntil: 'commit' });
  await page.waitForTimeout(WAIT_MS);
  const s = await page.evaluate((id) => {
    const f = document.getElementById(id);
    return {
      built: !!f,
      top: f ? f.getBoundingClientRect().top : null,
      complete: document.documentElement.hasAttribute('data-complete'),
    };
  }, want);
  // how long the page really took, for the log (waited for, after the read)
  await page.waitForSelector('html[data-complete]');
  const done = Math.round(await page.evaluate(() => window.probeDone));
  console.log(`# probe: read at ${WAIT_MS} ms: ${JSON.stringify(s)}; the page complete at ${done} ms`);
  assert.ok(s.built, 'the figure is built');
  assert.ok(s.top > -5 && s.top < 450, `the figure in the top half of the view (${s.top})`);
  assert.ok(s.complete, 'every part built');
  await page.close();
});

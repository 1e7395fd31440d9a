// interact.mjs -- when a page first answers a click, measured the way a
// person meets it: clicking from the moment the page starts to load.
//
// bench.mjs used to read the row's box through Playwright and then click:
// two round trips to the browser after the row existed, which on a loaded
// machine put 300-400 ms of harness into every figure (the one-report page
// took 420-500 ms).  Here the position is known beforehand and real input
// is sent from navigation start, so the figure is the page's:
//
//   1. a warm-up load finds the first row that can be opened (the row the
//      click must open) and its centre once the page is ready;
//   2. each measured load starts navigating and, at once and every
//      CLICK_EVERY_MS, sends a real mouse press and release at that point
//      through the DevTools protocol (Input.dispatchMouseEvent: the
//      browser's own input path, hit-tested by the page when it handles
//      the event), whether or not the page has taken the last one;
//   3. a capturing listener injected before the page's script counts the
//      clicks that found no openable row (and stops them, so that a click
//      on, say, a folded table's summary cannot open it and change what is
//      measured); the first click that lands on such a row goes through to
//      the page's own handler, and a listener on window -- the last one an
//      event reaches -- records performance.now() after that handler ran:
//      "first click handled", in ms from navigation start.  Clicks after it
//      are stopped too, so the row stays open and is checked open.
//   4. beside it: the page's ready mark ("npuscope-ready"), when the event
//      was made (its timeStamp: how long it queued behind the main thread
//      is handled minus that), and the main thread's long tasks (over 50
//      ms, PerformanceObserver 'longtask') that started before the click
//      was handled -- what the page made the click wait for;
//   5. no click after that one; the load is followed until the page is
//      complete (its figures and tables built: the "npuscope-complete" mark
//      of web/later.js, or the first frame after the load event for a page
//      without it), and its long tasks over the whole load say how long a
//      later click could have had to wait.
//
// Nothing here asserts a time; bench.mjs prints the figures.

import { pathToFileURL } from 'node:url';

const CLICK_EVERY_MS = 15;
const GIVE_UP_MS = 20000;
const MAX_QUEUED = 40;

// The point to click on file's page: the centre of the first row that can
// be opened (at most 100 px into it: the name, not a number), once ready.
export async function rowPoint(browser, file) {
  const page = await browser.context.newPage();
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.waitForSelector('html[data-ready]');
  const box = await page.locator('#tree .row[aria-expanded="false"] >> nth=0').boundingBox();
  await page.close();
  if (!box) throw new Error('no row to open on ' + file);
  return { x: box.x + Math.min(box.width / 2, 100), y: box.y + box.height / 2 };
}

// Injected before any script of the page (a string: it runs in the page).
const probe = `(() => {
  const ns = window.__nsProbe = { start: 0, handled: 0, stamp: 0, misses: 0, row: null, long: [],
                                  complete: NaN };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) ns.long.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { ns.long = null; }
  // complete: the page's own mark (web/later.js), or for a page without
  // parts built later (one written before them) its first frame after the
  // load event
  const completed = (t) => {
    if (ns.complete === ns.complete) return;
    ns.complete = t;
    if (window.__nsComplete) window.__nsComplete();
  };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'npuscope-complete') completed(e.startTime);
    }).observe({ type: 'mark', buffered: true });
  } catch (e) { /* no marks: the load event below */ }
  addEventListener('load', () => requestAnimationFrame(() => setTimeout(() => {
    if (!document.querySelector('noscript.later') && !document.documentElement.hasAttribute('data-complete'))
      completed(performance.now());
  }, 0)));
  addEventListener('click', (e) => {
    const row = !ns.start && e.target.closest ? e.target.closest('#tree .row[aria-expanded="false"]') : null;
    if (!row) {
      if (!ns.start) ns.misses++;
      e.preventDefault();
      e.stopImmediatePropagation();
      return;
    }
    ns.start = performance.now();
    ns.stamp = e.timeStamp;
    ns.row = row;
  }, true);
  addEventListener('click', (e) => {
    if (!ns.row || ns.handled) return;
    ns.handled = performance.now();
    if (window.__nsHandled) window.__nsHandled();
  }, false);
})();`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One load of file, clicked at pt from navigation start until a click is
// handled.  Returns { handled, queued, ready, complete, long, longBefore,
// longMax, longAll, longMaxAll, misses, sent, open }: times in ms from
// navigation start (complete: the parts below the explorer built,
// web/later.js; for a page without them, its first frame after the load
// event); long = number of long tasks begun before the click was handled,
// longBefore their summed duration, longMax the longest; longAll and
// longMaxAll the same over the whole load, until complete and two frames
// more (no input after the first click: what a later click could meet);
// misses = clicks that found no row to open; open = the row is open
// afterwards (the page really handled the click).
export async function clickFromStart(browser, file, pt) {
  const page = await browser.context.newPage();
  let handled = false, complete = false;
  await page.exposeBinding('__nsHandled', () => { handled = true; });
  await page.exposeBinding('__nsComplete', () => { complete = true; });
  await page.addInitScript(probe);
  const cdp = await browser.context.newCDPSession(page);
  const url = pathToFileURL(file).href;
  let sent = 0, inflight = 0;
  const t0 = Date.now();
  const nav = page.goto(url, { waitUntil: 'load' });
  const mouse = (type) => cdp.send('Input.dispatchMouseEvent', { type, x: pt.x, y: pt.y, button: 'left', buttons: type === 'mousePressed' ? 1 : 0, clickCount: 1 });
  // not awaited: a click goes out every CLICK_EVERY_MS whether or not the
  // page has taken the last one (the browser queues them in order, as it
  // queues a person's), at most MAX_QUEUED at a time
  while (!handled && Date.now() - t0 < GIVE_UP_MS) {
    if (inflight < MAX_QUEUED) {
      inflight++;
      sent++;
      const down = mouse('mousePressed').catch(() => {}), up = mouse('mouseReleased').catch(() => {});
      Promise.all([down, up]).finally(() => { inflight--; });
    }
    await sleep(CLICK_EVERY_MS);
  }
  await nav;
  await page.waitForSelector('html[data-ready]');
  for (let t = Date.now(); !complete && Date.now() - t < GIVE_UP_MS;) await sleep(CLICK_EVERY_MS);
  // two frames more: the last part's style and layout, and its long task reported
  await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(res, 50)))));
  const r = await page.evaluate(() => {
    const ns = window.__nsProbe;
    const mark = performance.getEntriesByName('npuscope-ready')[0];
    const all = ns.long || [];
    const before = all.filter((l) => l[0] < ns.handled);
    return {
      handled: ns.handled, stamp: ns.stamp, misses: ns.misses,
      ready: mark ? mark.startTime : NaN, complete: ns.complete,
      open: !!ns.row && ns.row.getAttribute('aria-expanded') === 'true',
      long: ns.long ? before.length : NaN,
      longBefore: before.reduce((s, l) => s + l[1], 0),
      longMax: before.reduce((m, l) => Math.max(m, l[1]), 0),
      longAll: all.reduce((s, l) => s + l[1], 0),
      longMaxAll: all.reduce((m, l) => Math.max(m, l[1]), 0),
    };
  });
  await cdp.detach().catch(() => {});
  await page.close();
  if (!r.handled) throw new Error(`no click handled on ${file} within ${GIVE_UP_MS} ms (${sent} sent)`);
  return { ...r, queued: r.handled - r.stamp, sent };
}

// The old measure, kept for comparison (and named so): the row's box read
// through Playwright as soon as the row exists, then a click at its
// centre -- the figure holds those round trips.  Returns ms from navigation
// start to the handled click.
export async function clickAfterBox(browser, file) {
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    addEventListener('click', (e) => {
      const row = e.target.closest && e.target.closest('#tree .row');
      if (!window.__nsClick && row) { window.__nsClick = performance.now(); window.__nsRow = row; }
    }, true);
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'commit' });
  const box = await page.locator('#tree .row[aria-expanded="false"] >> nth=0').boundingBox();
  await page.mouse.click(box.x + Math.min(box.width / 2, 100), box.y + box.height / 2);
  await page.waitForFunction(() => window.__nsRow && window.__nsRow.getAttribute('aria-expanded') === 'true');
  const t = await page.evaluate(() => window.__nsClick);
  await page.close();
  return t;
}

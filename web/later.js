/* later.js -- the parts of the report page below the tree explorer (the
 * heaviest passes, the run tables, the figures), built after the page's
 * first paint so that they never stand between a reader and the first
 * click.
 *
 * render/html.c writes each part inside a <noscript class="later">
 * element.  With scripting on, the browser keeps a noscript element's
 * content as one text node (it never becomes elements, so it costs no
 * style, no layout, no paint): that text is the part's markup, exactly as
 * the parser would have read it in place.  Here each part is parsed from
 * that text into an inert template and put where its noscript element was:
 *
 *   - after the first frame, in the main thread's idle moments
 *     (requestIdleCallback after requestAnimationFrame; a plain timer as
 *     the fallback for a page that is never drawn), in page order, about
 *     PART_BYTES of markup per task and a new task for the next, so that a
 *     click or a key already waiting goes first, and one that comes later
 *     waits for one part at most;
 *   - a part whose section comes into view (or near it: IntersectionObserver)
 *     moves to the front of that queue;
 *   - everything at once before printing (beforeprint, and print media
 *     matching, which is all an emulated print medium sends), and for a
 *     #fragment naming an element inside a part (then scrolled to).
 *
 * A small page is built at once instead, when its document is parsed
 * (DOMContentLoaded), so before its load event: parts of AT_ONCE_BYTES of
 * markup or less in all.  Tools that take a page as it is at its load
 * event -- `chromium --headless --screenshot`, `--dump-dom`, a crawler --
 * then see every section filled (a plain screenshot showed Heaviest
 * passes, Runs and Figures empty).  The deferral was measured on a
 * 6,000-run sweep (1.7 MB below the explorer: 465 ms in the longest task,
 * 109 ms deferred); at that rate -- an estimate, not measured again --
 * 512 KB costs the load about 100 ms once and the demo study's 345 KB
 * about 70, while the big sweeps the deferral is for stay deferred.
 *
 * When the last part is in, the page is marked: performance mark
 * "npuscope-complete" and the data-complete attribute on <html> (the tests
 * wait for it before they look at figures and tables).
 *
 * Safety: the text parsed is the page's own markup, written by npuscope,
 * every name in it escaped there (no '<' from a log can be in it: it would
 * have ended the noscript element).  It goes through a template, whose
 * content is inert: a script in it would never run.  Nothing of the data
 * block or of a log is ever parsed as markup.
 *
 * This file is its own function in the page's script, before the
 * explorer's (render/html.c): the rest of the page is built even on a page
 * whose explorer has nothing to show.
 */
  var PART_BYTES = 65536;      /* markup built in one task (at least one part) */
  var AT_ONCE_BYTES = 524288;  /* parts of this much markup or less: all at once */
  var IDLE_WAIT_MS = 200;      /* the longest a step waits for an idle moment */
  var html = document.documentElement;
  var queue = [];              /* noscript.later elements not yet built, next first */
  var begun = false;           /* the timed building has started */
  var collected = false;       /* queue holds the page's parts */

  /* ====== Building a part ====== */
  // Put the elements of noscript ns's text in its place; returns the text's
  // length (0 when ns was built already).
  function build(ns) {
    if (!ns.parentNode) return 0;
    var text = ns.textContent || '';
    var t = document.createElement('template');
    t.innerHTML = text;
    ns.parentNode.replaceChild(t.content, ns);
    return text.length + 1;
  }

  function collect() {
    if (collected) return;
    collected = true;
    var all = document.querySelectorAll('noscript.later');
    for (var i = 0; i < all.length; i++) queue.push(all[i]);
  }

  function finish() {
    if (queue.length || html.hasAttribute('data-complete')) return;
    if (observer) observer.disconnect();
    if (window.performance && performance.mark) performance.mark('npuscope-complete');
    html.setAttribute('data-complete', '1');
  }

  // the next step when the main thread is idle (a click or a key waiting
  // goes first), and within IDLE_WAIT_MS even when it never is
  function later(fn) {
    if (window.requestIdleCallback) requestIdleCallback(fn, { timeout: IDLE_WAIT_MS });
    else setTimeout(fn, 0);
  }

  function step() {
    var n = 0;
    while (queue.length && n < PART_BYTES) n += build(queue.shift());
    if (queue.length) later(step);
    else finish();
  }

  function buildAll() {
    collect();
    while (queue.length) build(queue.shift());
    finish();
  }

  /* ====== Sections in view first ====== */
  var observer = null;
  function watch() {
    if (!window.IntersectionObserver) return;
    observer = new IntersectionObserver(function (entries) {
      for (var i = 0; i < entries.length; i++) {
        if (!entries[i].isIntersecting) continue;
        var sec = entries[i].target, mine = [], rest = [];
        observer.unobserve(sec);
        for (var k = 0; k < queue.length; k++) (sec.contains(queue[k]) ? mine : rest).push(queue[k]);
        queue = mine.concat(rest);
      }
    }, { rootMargin: '0px 0px 50% 0px' });
    var seen = [];
    for (var j = 0; j < queue.length; j++) {
      var sec = queue[j].parentNode;
      if (sec && seen.indexOf(sec) < 0) { seen.push(sec); observer.observe(sec); }
    }
  }

  /* ====== A fragment inside a part ====== */
  function toFragment() {
    var id = location.hash ? decodeURIComponent(location.hash.slice(1)) : '';
    if (!id || document.getElementById(id) || !queue.length) return;
    buildAll();
    goTo(id);
  }

  function goTo(id) {
    var el = document.getElementById(id);
    if (!el) return;
    // The figures above it laid out for real first: one left to
    // content-visibility keeps a placeholder height until the browser
    // decides to draw it, and drawn (or dropped) after the scroll it moved
    // the target out of view (by 457 px, now and then).
    var figs = document.querySelectorAll('figure');
    for (var i = 0; i < figs.length && figs[i] !== el; i++)
      if (figs[i].compareDocumentPosition(el) & 4) figs[i].style.contentVisibility = 'visible';
    el.scrollIntoView();
  }

  /* ====== Printing: everything, unfolded ====== */
  function forPrint() {
    buildAll();
    // a long table is folded (render/html.c); print it whole
    var folds = document.querySelectorAll('details.fold');
    for (var i = 0; i < folds.length; i++) folds[i].open = true;
  }
  window.addEventListener('beforeprint', forPrint);
  if (window.matchMedia) {
    var printing = window.matchMedia('print');
    var onPrint = function (e) { if (e.matches) forPrint(); };
    if (printing.addEventListener) printing.addEventListener('change', onPrint);
    else if (printing.addListener) printing.addListener(onPrint);
  }

  /* ====== Start ====== */
  function start() {
    collect();
    if (!queue.length) { finish(); return; }
    var total = 0;
    for (var i = 0; i < queue.length; i++) total += (queue[i].textContent || '').length;
    if (total <= AT_ONCE_BYTES) {
      var id = location.hash ? decodeURIComponent(location.hash.slice(1)) : '';
      var inPart = id && !document.getElementById(id);
      buildAll();
      if (inPart) goTo(id);
      return;
    }
    toFragment();
    if (!queue.length) return;
    watch();
    var go = function () { if (!begun) { begun = true; step(); } };
    if (window.requestAnimationFrame) requestAnimationFrame(function () { later(go); });
    setTimeout(go, 500);
  }
  window.addEventListener('hashchange', function () { collect(); toFragment(); });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();

/* picker.js -- the second part of the report page's script (web/report.js
 * is the first; render/html.c writes both into one function, so this file
 * shares its scope: the data, the view, show's helpers).
 *
 * The picker of a sweep: one compact line of native selects per side -- a
 * list per tag, the mode, the run (the median first) -- and "Compare
 * with..." for a second side.  Changing a tag picks the configuration
 * nearest the current one that has the new value (the most other tags
 * equal, then the same mode), so a list never leads to a combination the
 * sweep does not have.  A page without runs has no picker: the logs'
 * reports are shown as they are.  Then the start: the first view, the
 * ready mark the tests and the benchmark wait for.
 */
  /* ====== The picker ====== */
  var picker = document.getElementById('picker');
  var NCFG = CFG ? CFG.mode.length : 0;
  var runsOf = [];                 /* config -> its openable runs */
  for (var x = 0; RUNS && x < RUNS.config.length; x++) (runsOf[RUNS.config[x]] = runsOf[RUNS.config[x]] || []).push(x);
  var pick = { a: -1, b: -1 };     /* picked configurations */
  var sides = {};                  /* side -> its selects */

  function cfgTag(c, k) { return str(CFG.tag[k][c]); }
  function cfgLabel(c) {
    var parts = [];
    for (var k = 0; k < TAGS.length; k++) parts.push(shown(TAGS[k] + '=' + cfgTag(c, k)));
    return parts.join(', ') + ' (' + shown(str(CFG.mode[c])) + ')';
  }
  function roleText(r) {
    var out = [];
    if (r & 1) out.push('median');
    if (r & 2) out.push('fastest');
    if (r & 4) out.push('slowest');
    return out.join(', ');
  }
  function hasTree(c) {
    var rs = runsOf[c] || [];
    for (var i = 0; i < rs.length; i++) if (RUNS.count[rs[i]] > 0) return true;
    return false;
  }

  // The configuration closest to c whose tag k (or the mode, k = -1) is v:
  // the most other tags equal, then the same mode, then table order.
  function nearest(c, k, v) {
    var best = -1, score = -1;
    for (var d = 0; d < NCFG; d++) {
      if (k >= 0 ? cfgTag(d, k) !== v : str(CFG.mode[d]) !== v) continue;
      var s = 0;
      for (var j = 0; j < TAGS.length; j++) if (j !== k && CFG.tag[j][d] === CFG.tag[j][c]) s += 4;
      if (k >= 0 && CFG.mode[d] === CFG.mode[c]) s += 2;
      if (hasTree(d)) s += 1;
      if (s > score) { score = s; best = d; }
    }
    return best;
  }

  function option(sel, value, text, disabled) {
    var o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    if (disabled) o.disabled = true;
    sel.appendChild(o);
  }

  function labelled(wrap, text, sel) {
    var l = document.createElement('label');
    l.appendChild(document.createTextNode(text + ' '));
    l.appendChild(sel);
    wrap.appendChild(l);
  }

  // One side's selects: a list per tag, the mode, the run.
  function makeSide(s, title) {
    var wrap = document.createElement('div');
    wrap.className = 'pick pick-' + s;
    wrap.setAttribute('role', 'group');
    wrap.setAttribute('aria-label', title);
    wrap.appendChild(span('side', title));
    var o = { wrap: wrap, tags: [], mode: null, run: null, info: null };
    for (var k = 0; k < TAGS.length; k++) {
      var sel = document.createElement('select');
      sel.dataset.tag = TAGS[k];
      var vals = [], seen = {};
      for (var c = 0; c < NCFG; c++) {
        var v = cfgTag(c, k);
        if (!seen[v]) { seen[v] = 1; vals.push(v); }
      }
      for (var i = 0; i < vals.length; i++) option(sel, vals[i], shown(vals[i]));
      (function (kk, se) {
        se.addEventListener('change', function () { choose(s, nearest(pick[s], kk, se.value)); });
      })(k, sel);
      labelled(wrap, shown(TAGS[k]), sel);
      o.tags.push(sel);
    }
    o.mode = document.createElement('select');
    o.mode.className = 'mode';
    o.mode.addEventListener('change', function () { choose(s, nearest(pick[s], -1, o.mode.value)); });
    labelled(wrap, 'mode', o.mode);
    o.run = document.createElement('select');
    o.run.className = 'run';
    o.run.addEventListener('change', function () { view[s] = +o.run.value; show(); });
    labelled(wrap, 'run', o.run);
    o.info = span('info');
    wrap.appendChild(o.info);
    sides[s] = o;
    return wrap;
  }

  // Pick configuration c on side s: its selects, its runs, the median run.
  function choose(s, c) {
    if (c < 0) return;
    pick[s] = c;
    var o = sides[s];
    for (var k = 0; k < TAGS.length; k++) o.tags[k].value = cfgTag(c, k);
    o.mode.textContent = '';
    var modes = {};
    for (var d = 0; d < NCFG; d++) {
      var same = true;
      for (var j = 0; j < TAGS.length && same; j++) same = CFG.tag[j][d] === CFG.tag[j][c];
      if (same && !modes[CFG.mode[d]]) { modes[CFG.mode[d]] = 1; option(o.mode, str(CFG.mode[d]), shown(str(CFG.mode[d]))); }
    }
    o.mode.value = str(CFG.mode[c]);
    o.run.textContent = '';
    var rs = runsOf[c] || [];
    for (var i = 0; i < rs.length; i++) {
      var x = rs[i];
      option(o.run, String(x), roleText(RUNS.roles[x]) + ' \u00b7 repeat ' + RUNS.repeat[x] + ' \u00b7 ' +
        fmt(RUNS.wall_s[x], 4) + ' s' + (RUNS.count[x] > 0 ? '' : ' (no timing report)'));
      o.run.lastChild.title = shown(str(RUNS.id[x]));
    }
    var n = CFG.n[c];
    if (n > rs.length) option(o.run, '', (n - rs.length) + ' more run' + (n - rs.length === 1 ? '' : 's') +
      ' counted: ' + (data.extras_left ? 'only the median runs are embedded in a page this big'
        : 'only the median, fastest and slowest are embedded'), true);
    view[s] = rs.length ? rs[0] : -1;
    o.run.value = String(view[s]);
    // no counted run (every run failed, or only warmups): said, and no
    // other configuration's tree or median left under this label
    o.info.textContent = n ? n + ' run' + (n === 1 ? '' : 's') + ', median ' + fmt(CFG.median_s[c], 4) + ' s'
      : 'no counted run' + (rs.length ? '' : ' (every run failed, or none is counted): nothing to show');
    show();
  }

  var cmpBtn = null;
  function setCompare(on) {
    compare = on;
    sides.b.wrap.hidden = !on;
    cmpBtn.textContent = on ? 'Close the comparison' : 'Compare with\u2026';
    cmpBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
    if (on && pick.b < 0) {
      // the next configuration with a tree, in table order
      var c = pick.a;
      for (var i = 1; i <= NCFG; i++) {
        var d = (pick.a + i) % NCFG;
        if (hasTree(d) && CFG.mode[d] === CFG.mode[pick.a]) { c = d; break; }
      }
      choose('b', c);
      return;
    }
    show();
  }

  function show() {
    open = []; hit = []; forced = []; matches = []; query = ''; active = -1;
    if (q) q.value = '';
    setView();
    for (var i = 0; i < roots.length; i++) if (rep[roots[i]] < 0) open[roots[i]] = 1; /* groups open */
    if (roots.length && !grouped()) open[roots[0]] = 1; /* the first report shows its top-level rows */
    rebuild();
    var t = compare && view.b >= 0 ? 'A: ' + cfgLabel(pick.a) + '; B: ' + cfgLabel(pick.b) +
      '. Rows that differ by over ' + Math.round((UP - 1) * 100) + '% are marked.' : '';
    say(t);
  }

  if (picker && NCFG) {
    picker.hidden = false;
    picker.appendChild(makeSide('a', 'Configuration'));
    var bw = makeSide('b', 'Compare with');
    bw.hidden = true;
    cmpBtn = document.createElement('button');
    cmpBtn.type = 'button';
    cmpBtn.id = 'compare';
    cmpBtn.addEventListener('click', function () { setCompare(!compare); });
    sides.a.wrap.appendChild(cmpBtn);
    picker.appendChild(bw);
    cmpBtn.textContent = 'Compare with\u2026';
    // the first configuration of the figures' mode with a tree
    var start = -1;
    for (var c0 = 0; c0 < NCFG && start < 0; c0++) if (hasTree(c0) && str(CFG.mode[c0]) === 'cold') start = c0;
    for (c0 = 0; c0 < NCFG && start < 0; c0++) if (hasTree(c0)) start = c0;
    choose('a', start < 0 ? 0 : start);
  } else {
    show();
  }

  /* ====== Start ====== */
  if (window.performance && performance.mark) performance.mark('npuscope-ready');
  document.documentElement.setAttribute('data-ready', '1');

/* report.js -- the tree explorer of an npuscope report page.
 *
 * The page carries its timing trees in the script element of type
 * application/json with id npuscope-data, in the compact form
 * render/page_data.c writes (docs/formats.md): a string table, tree shapes
 * shared by every report that has them, one array of scaled integers per
 * column and report, and for run folders the configurations as columns.
 * This script turns them into an expandable tree: click or keyboard
 * (arrows, Enter/Space, Home/End) on a focused row, expand-all /
 * collapse-all, a search that reveals and highlights matching rows, and a
 * threshold that elides rows below it (summed into one line per parent, so
 * nothing disappears without a trace).
 *
 * For a sweep the explorer shows one run at a time, picked in a compact
 * picker: a configuration (one list per tag), its mode and a run (the
 * median run first; the fastest and slowest are embedded too).  An NPUW
 * compile's reports are grouped by sub-model kind (generate, prefill,
 * lm_head: the label's last part that is not a number, as
 * ns_submodel_kind_new says) with their shares of the run; rows inside a
 * report have shares of that sub-model's total.  "Compare with..." picks a
 * second run: its values stand beside the first's, aligned by path (the
 * report's label, then the names from the root, the k-th of equal names
 * matched to the k-th), rows that differ highlighted, rows only one side has
 * marked.
 *
 * How it stays fast at 10,000 runs and on trees of 10,000+ rows: the JSON
 * is arrays, so parsing it makes no object per row; a report becomes rows
 * only when it is opened (its root first, its descendants on the first
 * expand or search), into parallel arrays (first child / next sibling
 * links); and rows exist in the DOM only while their parent is expanded.
 * Every walk is a loop with an explicit stack, never recursion: trees can
 * be 10,000 deep.
 *
 * Safety: names come from logs nobody controls.  They are only ever set as
 * text (textContent, createTextNode, the title property, option text),
 * never as markup.  No framework, no request: the page must work from
 * file:// with a CSP that forbids every fetch.
 *
 * The script is two files, one scope: this one (the data, the rows, the
 * view, the tree's keyboard and controls) and web/picker.js (the picker of
 * a sweep, and the start).  render/html.c writes them in that order inside
 * one function, `(function () { 'use strict'; ... })();`, so neither is a
 * script of its own and nothing reaches the page's global scope.
 */

  var tree = document.getElementById('tree');
  var block = document.getElementById('npuscope-data');
  if (!tree || !block) return;
  var data = JSON.parse(block.textContent || '{}');
  var S = data.strings || [], KINDS = data.kinds || [], SHAPES = data.shapes || [];
  var REP = data.reports || { label: [], cols: {} };
  var NREP = (REP.label || []).length;
  var COLS = REP.cols || {};
  var CFG = data.configs || null, RUNS = data.runs || null, TAGS = data.tags || [];
  var NLOGS = data.logs || 0;

  var EXPAND_LIMIT = 20000;   /* rows "expand all" may show */
  var REVEAL_LIMIT = 500;     /* matches a search opens the way to */
  var INDENT_LEVELS = 40;     /* deeper rows are not indented further */
  /* extra columns shown when a report has them: key -> heading */
  var EXTRA = [['mem_peak_kb', 'peak kB'], ['mem_increase_kb', '+kB']];
  /* a difference worth a highlight: B / A beyond these, on a row of at least
   * MIN_SHARE of its report on either side */
  var UP = 1.25, DOWN = 0.8, MIN_SHARE = 0.01;

  function str(i) { return i >= 0 && i < S.length ? String(S[i]) : ''; }

  // A name as a person may safely see it (as base/display.h does for the
  // terminal): controls and bidi characters as visible escapes, so that a
  // right-to-left override in a pass name cannot reverse the figures after it.
  var CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function shown(s) {
    return String(s).replace(CONTROLS, function (c) {
      var h = c.charCodeAt(0).toString(16).toUpperCase();
      return c.charCodeAt(0) < 0x80 ? '\\x' + ('0' + h.toLowerCase()).slice(-2) : '\\u' + ('000' + h).slice(-4);
    });
  }

  /* ====== Values ====== */
  // Column `key` of report ri: {dec, v: [scaled...]} or null.
  function column(key, ri) {
    var c = COLS[key] && COLS[key][ri];
    return c ? c : null;
  }
  function decOf(key, ri) { var c = column(key, ri); return c ? c[0] : -2; }
  // Row k (pre-order) of column key in report ri, as the printed number.
  function value(key, ri, k) {
    var c = column(key, ri);
    if (!c) return NaN;
    var x = c[k + 1];
    if (typeof x !== 'number') return NaN;
    return c[0] > 0 ? x / Math.pow(10, c[0]) : x;
  }

  /* ====== Rows: parallel arrays, filled as reports are opened ====== */
  var name = [], wall = [], user = [], parent = [], first = [], next = [];
  var depth = [], rep = [], kind = [], pos = [], lastChild = [];
  var rootOf = [];      /* report -> its root row, once made */
  var filled = [];      /* report -> its descendants are made */
  var total = [];       /* report -> its total (wall) */
  var gkey = [];        /* group row -> its sub-model kind */

  function newRow(nm, ri, k, kd, d, p) {
    var id = name.length;
    name.push(nm);
    rep.push(ri);
    pos.push(k);
    kind.push(kd);
    depth.push(d);
    parent.push(p);
    first.push(-1);
    next.push(-1);
    lastChild.push(-1);
    wall.push(ri >= 0 ? value('wall_s', ri, k) : NaN);
    user.push(ri >= 0 ? value('user_s', ri, k) : NaN);
    if (p >= 0) {
      if (lastChild[p] < 0) first[p] = id; else next[lastChild[p]] = id;
      lastChild[p] = id;
    }
    return id;
  }

  function shapeOf(ri) { return SHAPES[REP.shape[ri]] || { name: [-1], depth: [0], kind: [5] }; }

  // The root row of report ri (its descendants come with fill).
  function root(ri) {
    if (rootOf[ri] !== undefined) return rootOf[ri];
    var t = REP.total ? REP.total[ri] : NaN;
    total[ri] = typeof t === 'number' ? t : NaN;
    var id = newRow(shown(str(REP.label[ri])), ri, 0, 'report', 0, -1);
    if (shapeOf(ri).name.length > 1) first[id] = -2; /* children not made yet */
    rootOf[ri] = id;
    return id;
  }

  function fill(ri) {
    if (filled[ri]) return;
    filled[ri] = 1;
    var r = root(ri), sh = shapeOf(ri), n = sh.name.length;
    first[r] = -1;
    var stack = [r]; /* stack[d] = the last row of depth d */
    for (var k = 1; k < n; k++) {
      var d = sh.depth[k], nm = str(sh.name[k]);
      if (sh.detail && sh.detail[k] >= 0) nm += ' (' + str(sh.detail[k]) + ')';
      var id = newRow(shown(nm), ri, k, KINDS[sh.kind[k]] || 'pass', d, stack[d - 1]);
      stack[d] = id;
      stack.length = d + 1;
    }
  }

  function hasKids(id) { return first[id] !== -1; }
  function kidsOf(id) {
    if (first[id] === -2) fill(rep[id]);
    var out = [];
    for (var c = first[id]; c >= 0; c = next[c]) out.push(c);
    return out;
  }

  // A run's rows at the top: its reports, grouped by sub-model kind when it
  // has more than one report.  Group rows are made once per run.
  var runTop = [];
  function kindOfLabel(label) {
    var parts = label.split('/');
    for (var i = parts.length - 1; i > 0 && /^[0-9]+$/.test(parts[i]); i--);
    return parts[i];
  }
  function topOfRun(x) {
    if (runTop[x]) return runTop[x];
    var out = [], f = RUNS.first[x], n = RUNS.count[x];
    if (f < 0 || n <= 0) return (runTop[x] = out);
    if (n === 1) return (runTop[x] = [root(f)]);
    var groups = {}, order = [];
    for (var ri = f; ri < f + n; ri++) {
      var k = kindOfLabel(str(REP.label[ri]));
      if (!groups[k]) { groups[k] = []; order.push(k); }
      groups[k].push(ri);
    }
    for (var g = 0; g < order.length; g++) {
      var list = groups[order[g]];
      var gid = newRow(shown(order[g]), -1, 0, 'group', -1, -1);
      var sum = 0;
      for (var j = 0; j < list.length; j++) {
        var r = root(list[j]);
        parent[r] = gid;
        if (lastChild[gid] < 0) first[gid] = r; else next[lastChild[gid]] = r;
        lastChild[gid] = r;
        if (isFinite(total[list[j]])) sum += total[list[j]];
      }
      name[gid] = shown(order[g] + ' (' + list.length + ' compile' + (list.length === 1 ? '' : 's') + ')');
      wall[gid] = sum;
      gkey[gid] = order[g];
      out.push(gid);
    }
    return (runTop[x] = out);
  }

  /* ====== The view: one run (or the logs), and maybe a second beside it ====== */
  var view = { a: -1, b: -1 };   /* openable runs (index into RUNS) */
  var runSum = { a: NaN, b: NaN };
  var compare = false;
  var bOf = [];                  /* A row -> its B row (-1: none), once aligned */
  var ghost = [];                /* B rows shown where A has none */
  var vkids = [];                /* row -> the rows shown under it (compare) */
  var vparent = [];              /* row -> the row it was shown under */
  var extra = [];                /* EXTRA columns the view's reports have */
  var roots = [];                /* the view's top rows */

  function side(x) { return x === view.a ? 'a' : 'b'; }

  function sumOf(x) {
    if (x < 0) return NaN;
    var s = 0, f = RUNS.first[x], n = RUNS.count[x];
    for (var ri = f; ri < f + n; ri++) { root(ri); if (isFinite(total[ri])) s += total[ri]; }
    return n > 0 ? s : NaN;
  }

  // Align two lists of rows: the k-th of equal keys to the k-th.  A row
  // only B has goes where B has it: before the A row of the next B row
  // that both have (so after A's rows in between, which B lacks).
  function keyOf(id) { return rep[id] < 0 ? 'g:' + gkey[id] : (depth[id] === 0 ? 'r:' : 'n:') + name[id]; }
  function merge(alist, blist) {
    var at = {}, seen = {}, before = {}, pending = [], out = [];
    for (var i = 0; i < alist.length; i++) {
      var k = keyOf(alist[i]), c = seen[k] = (seen[k] || 0) + 1;
      at[k + '\u0000' + c] = alist[i];
      bOf[alist[i]] = -1;
    }
    seen = {};
    for (var j = 0; j < blist.length; j++) {
      var kb = keyOf(blist[j]), cb = seen[kb] = (seen[kb] || 0) + 1;
      var a = at[kb + '\u0000' + cb];
      if (a === undefined) { ghost[blist[j]] = 1; pending.push(blist[j]); continue; }
      bOf[a] = blist[j];
      if (pending.length) { before[a] = pending; pending = []; }
    }
    for (i = 0; i < alist.length; i++) {
      if (before[alist[i]]) out = out.concat(before[alist[i]]);
      out.push(alist[i]);
    }
    return out.concat(pending);
  }

  // The rows shown under id, in order.
  function shownKids(id) {
    if (!compare || id < 0) return kidsOf(id);
    if (vkids[id]) return vkids[id];
    var own = kidsOf(id);
    if (ghost[id]) return (vkids[id] = own.map(function (c) { ghost[c] = 1; return c; }));
    var b = partner(id);
    return (vkids[id] = b >= 0 ? merge(own, kidsOf(b)) : own.map(function (c) { bOf[c] = -1; return c; }));
  }
  function partner(id) {
    if (!compare || ghost[id]) return -1;
    return bOf[id] === undefined ? -1 : bOf[id];
  }
  function viewHasKids(id) {
    if (hasKids(id)) return true;
    var b = partner(id);
    return b >= 0 && hasKids(b);
  }

  // The rows of the view's top: the logs' reports, then the picked run's
  // (merged with the compared run's).
  function setView() {
    bOf = []; ghost = []; vkids = []; vparent = [];
    var top = [];
    for (var i = 0; i < NLOGS; i++) top.push(root(i));
    var a = view.a >= 0 ? topOfRun(view.a) : [];
    runSum.a = sumOf(view.a);
    if (compare && view.b >= 0) {
      runSum.b = sumOf(view.b);
      top = top.concat(merge(a, topOfRun(view.b)));
    } else {
      top = top.concat(a);
    }
    roots = top;
    extra = [];
    var from = reportsOfView();
    for (var e = 0; e < EXTRA.length; e++)
      for (var r = 0; r < from.length; r++)
        if (column(EXTRA[e][0], from[r])) { extra.push(EXTRA[e]); break; }
    head();
  }
  function reportsOfView() {
    var out = [];
    for (var i = 0; i < NLOGS; i++) out.push(i);
    var xs = [view.a];
    if (compare) xs.push(view.b);
    for (var j = 0; j < xs.length; j++) {
      if (xs[j] < 0) continue;
      for (var ri = RUNS.first[xs[j]]; ri >= 0 && ri < RUNS.first[xs[j]] + RUNS.count[xs[j]]; ri++) out.push(ri);
    }
    return out;
  }
  function grouped() { return view.a >= 0 && RUNS.count[view.a] > 1; }

  /* ====== Row cells ====== */
  var open = [], hit = [], forced = [], rowEl = [];
  var lower = [];                   /* lower-case names, made by searches */
  var active = -1;                  /* the row that holds the focus (roving tabindex) */
  var query = '', matches = [], current = -1;
  var minS = 0;                     /* threshold in seconds */

  function fmt(v, dec) {
    // null (a configuration without a counted run has no median) is no
    // number: isFinite(null) is true, and null.toFixed a TypeError
    if (typeof v !== 'number' || !isFinite(v)) return '-';
    return dec >= 0 ? v.toFixed(dec) : String(v);
  }
  function level(id) {
    if (rep[id] < 0) return 1;
    return depth[id] + 1 + (grouped() && rep[id] >= NLOGS ? 1 : 0);
  }
  // Share of a row: of its report's total; a report's and a group's of
  // its run's (the logs' reports: of their own, 100%).
  function share(id) {
    var t;
    if (rep[id] < 0 || (depth[id] === 0 && rep[id] >= NLOGS && grouped()))
      t = ghost[id] || isB(id) ? runSum.b : runSum.a;
    else t = total[rep[id]];
    return t > 0 && isFinite(wall[id]) ? wall[id] / t : NaN;
  }
  function isB(id) {
    if (!compare || view.b < 0) return false;
    var ri = rep[id];
    if (ri < 0) { var f = first[id]; ri = f >= 0 ? rep[f] : -1; }
    return ri >= RUNS.first[view.b] && ri < RUNS.first[view.b] + RUNS.count[view.b] && view.a !== view.b;
  }
  function decOfRow(key, id) {
    var ri = rep[id];
    if (ri < 0) { var f = first[id]; ri = f >= 0 ? rep[f] : -1; }
    return ri >= 0 ? decOf(key, ri) : 4;
  }

  function kept(id) {
    var w = wall[id], b = partner(id);
    if (forced[id] || !(minS > 0)) return true;
    return !(Math.abs(w) < minS) || (b >= 0 && !(Math.abs(wall[b]) < minS));
  }

  function span(cls, text) {
    var s = document.createElement('span');
    s.className = cls;
    if (text !== undefined) s.textContent = text;
    return s;
  }

  function putName(cell, id) {
    var s = name[id];
    var at = hit[id] && query ? lower[id].indexOf(query) : -1;
    if (at < 0) { cell.appendChild(document.createTextNode(s)); return; }
    var m = document.createElement('mark');
    m.textContent = s.substr(at, query.length);
    cell.appendChild(document.createTextNode(s.substr(0, at)));
    cell.appendChild(m);
    cell.appendChild(document.createTextNode(s.substr(at + query.length)));
  }

  function bar(sh) {
    var b = span('bar'), fill_ = span('fill');
    var w = isFinite(sh) ? Math.max(0, Math.min(1, sh)) * 100 : 0;
    fill_.style.width = w.toFixed(2) + '%';
    b.appendChild(fill_);
    b.dataset.share = isFinite(sh) ? String(sh) : '';
    return b;
  }
  function pct(sh) { return isFinite(sh) ? (sh * 100).toFixed(1) + '%' : '-'; }

  // The difference class of a row shown with its partner.
  function diffClass(a, b) {
    if (b < 0) return ' only-a';
    var wa = wall[a], wb = wall[b], sa = share(a), sb = share(b);
    if (!isFinite(wa) || !isFinite(wb)) return '';
    if (!(Math.max(Math.abs(sa) || 0, Math.abs(sb) || 0) >= MIN_SHARE)) return '';
    var r = wa !== 0 ? wb / wa : (wb !== 0 ? Infinity : 1);
    return r >= UP ? ' slower' : r <= DOWN ? ' faster' : '';
  }

  function makeRow(id, vp) {
    var g = !!ghost[id], a = g ? -1 : id, b = g ? id : partner(id);
    var lv = level(id), ri = rep[id];
    var sh = a >= 0 ? share(a) : NaN;
    var row = document.createElement('div');
    var cls = 'row k-' + kind[id] + (depth[id] === 0 && ri >= 0 ? ' report' : '') + (ri < 0 ? ' group' : '') +
      (hit[id] ? ' match' : '') + (sh < 0 ? ' neg' : '');
    if (compare && view.b >= 0 && !(ri >= 0 && ri < NLOGS)) cls += g ? ' only-b' : diffClass(a, b);
    row.className = cls;
    row.setAttribute('role', 'treeitem');
    row.setAttribute('aria-level', String(lv));
    if (viewHasKids(id)) row.setAttribute('aria-expanded', open[id] ? 'true' : 'false');
    row.tabIndex = id === active ? 0 : -1;
    row.dataset.id = String(id);
    row.nsLevel = lv;
    vparent[id] = vp;
    var cell = span('name');
    cell.style.paddingLeft = (Math.min(lv - 1, INDENT_LEVELS) * 1.2) + 'em';
    cell.title = name[id];
    var tog = span('tog', viewHasKids(id) ? (open[id] ? '\u25be' : '\u25b8') : '');
    tog.setAttribute('aria-hidden', 'true');
    cell.appendChild(tog);
    if (lv - 1 > INDENT_LEVELS) cell.appendChild(span('depth', 'depth ' + (lv - 1)));
    putName(cell, id);
    if (depth[id] === 0 && ri >= 0 && ri < NLOGS) /* a run's are all its stdout.log */
      cell.appendChild(span('src', str(REP.producer[ri]) + '  ' + str(REP.file[ri]) + ':' + (REP.line[ri] || '')));
    row.appendChild(cell);
    row.appendChild(span('num wall', a >= 0 ? fmt(wall[a], decOfRow('wall_s', a)) : '-'));
    row.appendChild(span('num share', pct(sh)));
    row.appendChild(bar(sh));
    row.appendChild(span('num user', a >= 0 ? fmt(user[a], decOfRow('user_s', a)) : '-'));
    for (var e = 0; e < extra.length; e++) {
      var v = a >= 0 && rep[a] >= 0 ? value(extra[e][0], rep[a], pos[a]) : NaN;
      row.appendChild(span('num mem', fmt(v, decOf(extra[e][0], rep[a]))));
    }
    if (compare && view.b >= 0) {
      var sb = b >= 0 ? share(b) : NaN;
      row.appendChild(span('num wall-b', b >= 0 ? fmt(wall[b], decOfRow('wall_s', b)) : '-'));
      row.appendChild(span('num share-b', pct(sb)));
      var ratio = a >= 0 && b >= 0 && wall[a] !== 0 ? wall[b] / wall[a] : NaN;
      row.appendChild(span('num ratio', isFinite(ratio) ? ratio.toFixed(2) + '\u00d7' : a < 0 ? 'only B' : b < 0 ? 'only A' : '-'));
    }
    rowEl[id] = row;
    return row;
  }

  /* ====== The header row and the grid ====== */
  var headEl = document.querySelector('.tree-head');
  function head() {
    var cols = ['minmax(10em, 1fr)', '6.5em', '4.5em', '9em', '6.5em'];
    var names = [['name', ''], ['wall s', 'num'], ['share', 'num'], ['', ''], ['user s', 'num']];
    for (var e = 0; e < extra.length; e++) { cols.push('6.5em'); names.push([extra[e][1], 'num']); }
    if (compare && view.b >= 0) {
      cols.push('6.5em', '4.5em', '5em');
      names.push(['B wall s', 'num'], ['B share', 'num'], ['B / A', 'num']);
    }
    var tpl = cols.join(' ');
    tree.style.setProperty('--cols', tpl);
    if (!headEl) return;
    headEl.style.setProperty('--cols', tpl);
    headEl.textContent = '';
    for (var i = 0; i < names.length; i++) headEl.appendChild(span(names[i][1], names[i][0]));
  }

  /* The line that stands for a parent's children below the threshold. */
  function elidedRow(pid, n, sum) {
    var row = document.createElement('div');
    row.className = 'row elided';
    row.setAttribute('role', 'none');
    row.nsLevel = level(pid) + 1;
    var cell = span('name', '(' + n + ' row' + (n === 1 ? '' : 's') + ' below ' + (minS * 1000) +
      ' ms elided, ' + sum.toFixed(4) + ' s together)');
    cell.style.paddingLeft = (Math.min(level(pid), INDENT_LEVELS) * 1.2 + 1.3) + 'em';
    row.appendChild(cell);
    return row;
  }

  /* Rows of pid's shown descendants, in order, into frag (pid is open). */
  function emit(frag, pid) {
    var sp = [pid], sk = [shownKids(pid)], si = [0], en = [0], es = [0];
    while (sp.length) {
      var k = sp.length - 1;
      if (si[k] >= sk[k].length) {
        if (en[k]) frag.appendChild(elidedRow(sp[k], en[k], es[k]));
        sp.pop(); sk.pop(); si.pop(); en.pop(); es.pop();
        continue;
      }
      var c = sk[k][si[k]++];
      if (!kept(c)) {
        en[k]++;
        if (isFinite(wall[c])) es[k] += wall[c];
        continue;
      }
      frag.appendChild(makeRow(c, sp[k]));
      if (open[c] && viewHasKids(c)) { sp.push(c); sk.push(shownKids(c)); si.push(0); en.push(0); es.push(0); }
    }
  }

  function rebuild() {
    var frag = document.createDocumentFragment();
    rowEl = [];
    if (active >= 0 && !isShown(active)) active = -1;
    if (active < 0 && roots.length) active = roots[0];
    for (var i = 0; i < roots.length; i++) {
      if (!kept(roots[i])) continue;
      frag.appendChild(makeRow(roots[i], -1));
      if (open[roots[i]]) emit(frag, roots[i]);
    }
    tree.textContent = '';
    if (!roots.length)
      tree.appendChild(span('empty', view.a >= 0 || (RUNS && RUNS.config.length) ?
        'No timing report in this run (a warm cache hit prints none).' : 'No timing report in the input.'));
    tree.appendChild(frag);
  }

  /* Would id have a row after a rebuild (its path open and kept)? */
  function isShown(id) {
    if (ghost[id]) return !!rowEl[id];
    if (!kept(id)) return false;
    for (var p = parent[id]; p >= 0; p = parent[p]) if (!open[p] || !kept(p)) return false;
    return roots.indexOf(topOf(id)) >= 0;
  }
  function topOf(id) { while (parent[id] >= 0) id = parent[id]; return id; }

  function setToggle(id) {
    var row = rowEl[id];
    if (!row || !viewHasKids(id)) return;
    row.setAttribute('aria-expanded', open[id] ? 'true' : 'false');
    row.firstChild.firstChild.textContent = open[id] ? '\u25be' : '\u25b8';
  }

  function expand(id) {
    if (!viewHasKids(id) || open[id]) return;
    open[id] = 1;
    setToggle(id);
    var frag = document.createDocumentFragment();
    emit(frag, id);
    tree.insertBefore(frag, rowEl[id].nextSibling);
  }

  function collapse(id) {
    if (!open[id]) return;
    open[id] = 0;
    setToggle(id);
    var row = rowEl[id], lv = row.nsLevel;
    for (var nx = row.nextSibling; nx && nx.nsLevel > lv; nx = row.nextSibling) {
      if (nx.dataset.id) rowEl[+nx.dataset.id] = undefined;
      tree.removeChild(nx);
    }
  }

  function toggle(id) { if (open[id]) collapse(id); else expand(id); }

  /* ====== Focus and keyboard ====== */
  function focusRow(row) {
    if (!row || !row.dataset.id) return;
    var old = rowEl[active];
    if (old) old.tabIndex = -1;
    active = +row.dataset.id;
    row.tabIndex = 0;
    row.focus();
  }

  function step(row, forward) {
    for (var r = forward ? row.nextSibling : row.previousSibling; r;
         r = forward ? r.nextSibling : r.previousSibling)
      if (r.dataset && r.dataset.id) return r;
    return null;
  }

  function edge(last) {
    var r = last ? tree.lastChild : tree.firstChild;
    if (r && !(r.dataset && r.dataset.id)) r = step(r, !last);
    return r;
  }

  tree.addEventListener('keydown', function (e) {
    var row = e.target.closest ? e.target.closest('.row') : null;
    if (!row || !row.dataset.id) return;
    var id = +row.dataset.id;
    switch (e.key) {
      case 'ArrowDown': focusRow(step(row, true)); break;
      case 'ArrowUp': focusRow(step(row, false)); break;
      case 'ArrowRight':
        if (viewHasKids(id) && !open[id]) expand(id);
        else if (open[id]) {
          var c = step(row, true);
          if (c && c.nsLevel === row.nsLevel + 1) focusRow(c);
        }
        break;
      case 'ArrowLeft':
        if (open[id]) collapse(id);
        else if (vparent[id] >= 0 && rowEl[vparent[id]]) focusRow(rowEl[vparent[id]]);
        break;
      case 'Enter':
      case ' ':
        toggle(id);
        break;
      case 'Home': focusRow(edge(false)); break;
      case 'End': focusRow(edge(true)); break;
      default: return;
    }
    e.preventDefault();
  });

  tree.addEventListener('click', function (e) {
    var row = e.target.closest ? e.target.closest('.row') : null;
    if (!row || !row.dataset.id) return;
    focusRow(row);
    toggle(+row.dataset.id);
  });

  /* ====== Controls ====== */
  var status = document.getElementById('status');
  function say(text) { if (status) status.textContent = text; }

  function expandAll() {
    var queue = roots.filter(kept), count = queue.length, full = true;
    for (var qi = 0; qi < queue.length; qi++) {
      var id = queue[qi];
      if (!viewHasKids(id)) continue;
      var kids = shownKids(id).filter(kept);
      if (count + kids.length > EXPAND_LIMIT) { full = false; continue; }
      open[id] = 1;
      count += kids.length;
      for (var c = 0; c < kids.length; c++) queue.push(kids[c]);
    }
    rebuild();
    say(full ? 'All rows expanded.' : 'Expanded ' + count + ' rows, breadth first (at most ' +
      EXPAND_LIMIT + ' at once).');
  }

  function collapseAll() {
    open = [];
    rebuild();
    say('');
  }

  function markCurrent(k) {
    var old = tree.querySelector('.row.current');
    if (old) old.classList.remove('current');
    current = k;
    var id = matches[k];
    if (!isShown(id)) { reveal(id); rebuild(); }
    var row = rowEl[id];
    if (!row) return;
    row.classList.add('current');
    row.scrollIntoView({ block: 'nearest' });
    say((k + 1) + ' of ' + matches.length + ' match' + (matches.length === 1 ? '' : 'es') +
      (matches.length > REVEAL_LIMIT ? ' (the first ' + REVEAL_LIMIT + ' are opened)' : '') +
      '; Enter for the next.');
  }

  function reveal(id) {
    forced[id] = 1;
    for (var p = parent[id]; p >= 0 && !(open[p] && forced[p]); p = parent[p]) {
      open[p] = 1;
      forced[p] = 1;
    }
  }

  // The rows a search looks at: every row of the view's first side, in
  // order (made now if they were not).
  function searchRows() {
    var out = [], stack = [];
    for (var i = roots.length - 1; i >= 0; i--) if (!ghost[roots[i]]) stack.push(roots[i]);
    while (stack.length) {
      var id = stack.pop();
      out.push(id);
      var kids = kidsOf(id);
      for (var k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    }
    return out;
  }

  function search(text) {
    var q = text.trim().toLowerCase();
    hit = [];
    forced = [];
    matches = [];
    current = -1;
    query = q;
    if (!q) { rebuild(); say(''); return; }
    var ids = searchRows();
    for (var i = 0; i < ids.length; i++) {
      var id = ids[i];
      if (lower[id] === undefined) lower[id] = name[id].toLowerCase();
      if (lower[id].indexOf(q) < 0) continue;
      hit[id] = 1;
      if (matches.length < REVEAL_LIMIT) reveal(id);
      matches.push(id);
    }
    rebuild();
    if (matches.length) markCurrent(0);
    else say('No row matches \u201c' + text.trim() + '\u201d.');
  }

  var q = document.getElementById('q'), minMs = document.getElementById('min-ms');
  var timer = 0;
  function later(fn) { clearTimeout(timer); timer = setTimeout(fn, 120); }
  if (q) {
    q.addEventListener('input', function () { later(function () { search(q.value); }); });
    q.addEventListener('keydown', function (e) {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      clearTimeout(timer);
      if (q.value.trim().toLowerCase() !== query) search(q.value);
      else if (matches.length) markCurrent((current + 1) % Math.min(matches.length, REVEAL_LIMIT));
    });
  }
  if (minMs) {
    minMs.addEventListener('input', function () {
      later(function () {
        var v = parseFloat(minMs.value);
        minS = isFinite(v) && v > 0 ? v / 1000 : 0;
        rebuild();
        say(minS > 0 ? 'Rows below ' + minS * 1000 + ' ms are elided.' : '');
      });
    });
  }
  var ea = document.getElementById('expand-all'), ca = document.getElementById('collapse-all');
  if (ea) ea.addEventListener('click', expandAll);
  if (ca) ca.addEventListener('click', collapseAll);


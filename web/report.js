/* report.js -- the tree explorer of an npuscope report page.
 *
 * The page carries its timing trees as JSON (the npuscope-tree contract,
 * one object per report) in the script element of type application/json
 * with id npuscope-data; this script turns them into an expandable tree:
 * click or keyboard (arrows, Enter/Space, Home/End) on a focused row,
 * expand-all / collapse-all, a search that reveals and highlights matching
 * rows, and a threshold that elides rows below it (summed into one line per
 * parent, so nothing disappears without a trace).
 *
 * How it stays fast on trees of 10,000+ rows: every report is flattened
 * once into parallel arrays (pre-order, first child / next sibling links),
 * and rows exist in the DOM only while their parent is expanded: expanding
 * builds the children's rows, collapsing removes them.  Every walk is a
 * loop with an explicit stack, never recursion: trees can be 10,000 deep.
 *
 * Safety: names come from logs nobody controls.  They are only ever set as
 * text (textContent, createTextNode, the title property), never as markup.
 * No framework, no request: the page must work from file:// with a CSP that
 * forbids every fetch.
 */
(function () {
  'use strict';

  var tree = document.getElementById('tree');
  var block = document.getElementById('npuscope-data');
  if (!tree || !block) return;
  var data = JSON.parse(block.textContent || '{}');
  var reports = data.reports || [];

  var EXPAND_LIMIT = 20000;   /* rows "expand all" may show */
  var REVEAL_LIMIT = 500;     /* matches a search opens the way to */
  var INDENT_LEVELS = 40;     /* deeper rows are not indented further */

  /* ====== Flat tree ====== */
  var name = [], wall = [], user = [], parent = [], first = [], next = [];
  var level = [], rep = [], kind = [], lastChild = [];
  var roots = [], total = [];

  function num(v) { return typeof v === 'number' ? v : NaN; }

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

  function flatten(ri) {
    var r = reports[ri], root = r.tree && r.tree.root;
    if (!root) return;
    var t = num(r.tree.total && r.tree.total.wall_s);
    if (!isFinite(t)) t = num(r.tree.header_total_s);
    total[ri] = t;
    var stack = [root], par = [-1], lev = [1];
    while (stack.length) {
      var n = stack.pop(), p = par.pop(), lv = lev.pop();
      var id = name.length;
      name.push(shown(p < 0 ? String(r.label) : (n.detail ? n.name + ' (' + n.detail + ')' : String(n.name))));
      wall.push(num(n.wall_s));
      user.push(num(n.user_s));
      parent.push(p);
      first.push(-1);
      next.push(-1);
      lastChild.push(-1);
      level.push(lv);
      rep.push(ri);
      kind.push(p < 0 ? 'report' : String(n.kind));
      if (p < 0) roots.push(id);
      else {
        if (lastChild[p] < 0) first[p] = id; else next[lastChild[p]] = id;
        lastChild[p] = id;
      }
      var kids = n.children || [];
      for (var k = kids.length - 1; k >= 0; k--) {
        stack.push(kids[k]);
        par.push(id);
        lev.push(lv + 1);
      }
    }
    r.tree.root = null; /* the parsed objects are no longer needed */
  }
  for (var ri = 0; ri < reports.length; ri++) flatten(ri);
  var N = name.length;
  var open = new Uint8Array(N);     /* expanded */
  var hit = new Uint8Array(N);      /* matches the search */
  var forced = new Uint8Array(N);   /* shown whatever the threshold (a match or its path) */
  var lower = null;                 /* lower-case names, made by the first search */
  var rowEl = [];                   /* id -> its row element, while shown */
  var active = -1;                  /* the row that holds the focus (roving tabindex) */
  var query = '', matches = [], current = -1;
  var minS = 0;                     /* threshold in seconds */

  /* ====== Rows ====== */
  function fmt(v, dec) { return isFinite(v) ? v.toFixed(dec) : '-'; }

  function share(id) {
    var t = total[rep[id]];
    return t > 0 && isFinite(wall[id]) ? wall[id] / t : NaN;
  }

  function kept(id) {
    return forced[id] || !(minS > 0) || !(Math.abs(wall[id]) < minS);
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

  function makeRow(id) {
    var r = reports[rep[id]], lv = level[id], sh = share(id);
    var row = document.createElement('div');
    row.className = 'row k-' + kind[id] + (lv === 1 ? ' report' : '') + (hit[id] ? ' match' : '') +
      (sh < 0 ? ' neg' : '');
    row.setAttribute('role', 'treeitem');
    row.setAttribute('aria-level', String(lv));
    if (first[id] >= 0) row.setAttribute('aria-expanded', open[id] ? 'true' : 'false');
    row.tabIndex = id === active ? 0 : -1;
    row.dataset.id = String(id);
    row.nsLevel = lv;
    var cell = span('name');
    cell.style.paddingLeft = (Math.min(lv - 1, INDENT_LEVELS) * 1.2) + 'em';
    cell.title = name[id];
    var tog = span('tog', first[id] >= 0 ? (open[id] ? '\u25be' : '\u25b8') : '');
    tog.setAttribute('aria-hidden', 'true');
    cell.appendChild(tog);
    if (lv - 1 > INDENT_LEVELS) cell.appendChild(span('depth', 'depth ' + (lv - 1)));
    putName(cell, id);
    if (lv === 1) {
      var src = r.tree.source || {};
      cell.appendChild(span('src', r.tree.producer + '  ' + (src.file || '') + ':' + (src.line || '')));
    }
    row.appendChild(cell);
    row.appendChild(span('num wall', fmt(wall[id], r.wall_dec)));
    row.appendChild(span('num share', isFinite(sh) ? (sh * 100).toFixed(1) + '%' : '-'));
    var bar = span('bar');
    var fill = span('fill');
    var w = isFinite(sh) ? Math.max(0, Math.min(1, sh)) * 100 : 0;
    fill.style.width = w.toFixed(2) + '%';
    bar.appendChild(fill);
    bar.dataset.share = isFinite(sh) ? String(sh) : '';
    row.appendChild(bar);
    row.appendChild(span('num user', fmt(user[id], r.user_dec)));
    rowEl[id] = row;
    return row;
  }

  /* The line that stands for a parent's children below the threshold. */
  function elidedRow(pid, n, sum) {
    var row = document.createElement('div');
    row.className = 'row elided';
    row.setAttribute('role', 'none');
    row.nsLevel = level[pid] + 1;
    var cell = span('name', '(' + n + ' row' + (n === 1 ? '' : 's') + ' below ' + (minS * 1000) +
      ' ms elided, ' + sum.toFixed(4) + ' s together)');
    cell.style.paddingLeft = (Math.min(level[pid], INDENT_LEVELS) * 1.2 + 1.3) + 'em';
    row.appendChild(cell);
    return row;
  }

  /* Rows of pid's shown descendants, in order, into frag (pid is open). */
  function emit(frag, pid) {
    var sp = [pid], sc = [first[pid]], en = [0], es = [0];
    while (sp.length) {
      var k = sp.length - 1, c = sc[k];
      if (c < 0) {
        if (en[k]) frag.appendChild(elidedRow(sp[k], en[k], es[k]));
        sp.pop(); sc.pop(); en.pop(); es.pop();
        continue;
      }
      sc[k] = next[c];
      if (!kept(c)) {
        en[k]++;
        if (isFinite(wall[c])) es[k] += wall[c];
        continue;
      }
      frag.appendChild(makeRow(c));
      if (open[c] && first[c] >= 0) { sp.push(c); sc.push(first[c]); en.push(0); es.push(0); }
    }
  }

  function rebuild() {
    var frag = document.createDocumentFragment();
    rowEl = [];
    if (active >= 0 && !isShown(active)) active = -1;
    if (active < 0 && roots.length) active = roots[0];
    for (var i = 0; i < roots.length; i++) {
      frag.appendChild(makeRow(roots[i]));
      if (open[roots[i]]) emit(frag, roots[i]);
    }
    tree.textContent = '';
    if (!roots.length) tree.appendChild(span('empty', 'No timing report in the input.'));
    tree.appendChild(frag);
  }

  /* Would id have a row after a rebuild (its path open and kept)? */
  function isShown(id) {
    if (!kept(id)) return false;
    for (var p = parent[id]; p >= 0; p = parent[p]) if (!open[p] || !kept(p)) return false;
    return true;
  }

  function setToggle(id) {
    var row = rowEl[id];
    if (!row || first[id] < 0) return;
    row.setAttribute('aria-expanded', open[id] ? 'true' : 'false');
    row.firstChild.firstChild.textContent = open[id] ? '\u25be' : '\u25b8';
  }

  function expand(id) {
    if (first[id] < 0 || open[id]) return;
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
    var row = rowEl[id], lv = level[id];
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
        if (first[id] >= 0 && !open[id]) expand(id);
        else if (open[id]) {
          var c = step(row, true);
          if (c && c.nsLevel === level[id] + 1) focusRow(c);
        }
        break;
      case 'ArrowLeft':
        if (open[id]) collapse(id);
        else if (parent[id] >= 0 && rowEl[parent[id]]) focusRow(rowEl[parent[id]]);
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
    var queue = roots.slice(), shown = roots.length, full = true;
    for (var qi = 0; qi < queue.length; qi++) {
      var id = queue[qi], kids = 0;
      if (first[id] < 0) continue;
      for (var c = first[id]; c >= 0; c = next[c]) if (kept(c)) kids++;
      if (shown + kids > EXPAND_LIMIT) { full = false; continue; }
      open[id] = 1;
      shown += kids;
      for (c = first[id]; c >= 0; c = next[c]) if (kept(c)) queue.push(c);
    }
    rebuild();
    say(full ? 'All rows expanded.' : 'Expanded ' + shown + ' rows, breadth first (at most ' +
      EXPAND_LIMIT + ' at once).');
  }

  function collapseAll() {
    open.fill(0);
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

  function search(text) {
    var q = text.trim().toLowerCase();
    hit.fill(0);
    forced.fill(0);
    matches = [];
    current = -1;
    query = q;
    if (!q) { rebuild(); say(''); return; }
    if (!lower) {
      lower = new Array(N);
      for (var i = 0; i < N; i++) lower[i] = name[i].toLowerCase();
    }
    for (var id = 0; id < N; id++) {
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

  /* ====== Start ====== */
  if (roots.length) open[roots[0]] = 1; /* the first report shows its top-level rows */
  rebuild();
  if (window.performance && performance.mark) performance.mark('npuscope-ready');
  document.documentElement.setAttribute('data-ready', '1');
})();

// gen.mjs -- inputs the browser tests and the benchmark make for
// themselves: big and deep timing reports, a log with hostile pass names,
// and constructed sweeps of run folders.
//
// Everything here is deterministic (a fixed linear congruential generator,
// no clock), so the same call writes the same bytes.  The constructed
// sweeps are CONSTRUCTED, not measured: they follow the run folder layout
// of src/runs.h, with the real report of tests/fixtures/constructed-npu-2025.log
// scaled per configuration, so that the figures have something to show
// (a regime that moves with the window, precisions that cross).

import fs from 'node:fs';
import path from 'node:path';
import { fixtures, run } from './lib.mjs';

// Deterministic numbers in [0, 1).
export function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

// An MLIR --mlir-timing text report from rows [{depth, name, wall}] in
// print order (wall in seconds; parents are not checked).
function mlirReport(rows) {
  let total = 0;
  for (const r of rows) if (r.depth === 0) total += r.wall;
  const rest = 0.0001;
  total += rest;
  const line = (w, d, name) =>
    `${w.toFixed(4).padStart(10)} (${((w / total) * 100).toFixed(1).padStart(5)}%)  ${'  '.repeat(d)}${name}`;
  const out = [
    '===-------------------------------------------------------------------------===',
    '                         ... Execution time report ...',
    '===-------------------------------------------------------------------------===',
    `  Total Execution Time: ${total.toFixed(4)} seconds`,
    '',
    '  ----Wall Time----  ----Name----',
  ];
  for (const r of rows) out.push(line(r.wall, r.depth, r.name));
  out.push(line(rest, 0, 'Rest'), line(total, 0, 'Total'), '');
  return out.join('\n');
}

// Leaves get random walls; every parent is its children's sum plus a bit.
// Walking backwards, acc[d] sums the rows of depth d seen since their
// parent (at depth d - 1) was last passed.
function sumUp(rows, rnd) {
  const acc = [];
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i], d = r.depth, kids = acc[d + 1] || 0;
    acc[d + 1] = 0;
    r.wall = kids > 0 ? kids + 0.0001 + rnd() * 0.001 : 0.0001 + rnd() * rnd() * 0.05;
    acc[d] = (acc[d] || 0) + r.wall;
  }
  return rows;
}

// A wide report of about n rows: pipelines of passes, each pass with
// analyses, four levels deep -- the shape of a big compile.
export function bigTreeLog(n) {
  const rnd = lcg(42), rows = [];
  let id = 0;
  while (rows.length < n) {
    rows.push({ depth: 0, name: `'func.func' Pipeline #${id++}` });
    for (let p = 0; p < 50 && rows.length < n; p++) {
      rows.push({ depth: 1, name: `Pass${id++}` });
      for (let a = 0; a < 3 && rows.length < n; a++) rows.push({ depth: 2, name: `(A) Analysis${id++}` });
    }
  }
  return mlirReport(sumUp(rows, rnd));
}

// A chain report: row k at depth k, depth rows in all.
export function deepTreeLog(depth) {
  const rows = [];
  for (let k = 0; k < depth; k++) rows.push({ depth: k, name: `P${k}`, wall: 0.0001 * (depth - k) + 0.0001 });
  return mlirReport(rows);
}

// A real fixture whose pass names are rewritten into markup and script.
export const hostileNames = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(2)>',
  '</script>',
  "<b onmouseover='alert(3)'>&amp; x</b>",
];
export function hostileLog() {
  const text = fs.readFileSync(path.join(fixtures, 'mlir22-tree-st.txt'), 'utf8');
  return text
    .replace(/Canonicalizer$/gm, hostileNames[0])
    .replace(/  LoopInvariantCodeMotion$/gm, '  ' + hostileNames[1])
    .replace(/  Inliner$/gm, '  ' + hostileNames[2])
    .replace(/  SymbolDCE$/gm, '  ' + hostileNames[3]);
}

// ====== Constructed sweeps ======

// The stage a pass would scale with, by its name (a rough guess for the
// constructed data only; npuscope's stage maps are the real rules).
function scaleOf(name, size, win, prec) {
  const w = win / 128;
  let f;
  if (/Tiling|Strategy|MultiCluster/.test(name)) f = 4 * size ** 0.5 * w ** 0.05;
  else if (/Allocation|Async|Schedul|Barrier|Spill|DMA|Dma/.test(name)) f = 0.6 * size ** 1.0 * w ** 0.6;
  else if (/Vf|VF|Vertical/.test(name)) f = size ** 0.7 * w ** 0.3;
  else if (/ELF|VPUASM|VPUMI|NPUReg|Reloc|Section/.test(name)) f = 0.2 * size ** 1.3 * w ** 1.0;
  else f = size ** 0.8 * w ** 0.3;
  const p = { int8: 1, int4: 0.95, fp16: 0.58 * (size / 0.5) ** 0.352, bf16: 1.1 }[prec] ?? 1;
  return f * p;
}

// The report tree of the fixture scaled for one configuration: every row's
// self time scaled by its name's factor, parents summed again.
function scaledReport(base, size, win, prec, noise) {
  const copy = JSON.parse(JSON.stringify(base));
  const order = [], stack = [copy.root];
  while (stack.length) { // pre-order; walk it backwards to sum children first
    const n = stack.pop();
    order.push(n);
    for (const c of n.children) stack.push(c);
  }
  const self = new Map();
  for (const n of order) {
    let kids = 0;
    for (const c of n.children) kids += c.wall_s ?? 0;
    self.set(n, (n.wall_s ?? 0) - kids);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i];
    let kids = 0;
    for (const c of n.children) kids += c.wall_s;
    const s = n === copy.root ? 0 : self.get(n) * scaleOf(n.name, size, win, prec) * noise;
    n.wall_s = Number((kids + s).toFixed(4));
    n.user_s = null;
  }
  copy.total = { wall_s: copy.root.wall_s, user_s: null };
  copy.header_total_s = copy.root.wall_s;
  return copy;
}

// Write a constructed sweep into dir: model x window x precision, cold
// runs (repeats each) and warm runs (one primer + repeats - 1 cache hits,
// which print no report).  Returns the number of runs written.
export function makeSweep(dir, o = {}) {
  const models = o.models ?? { m1: 0.5, m2: 1.5, m3: 3, m4: 7, m5: 14 };
  const windows = o.windows ?? [128, 256, 512, 1024, 2048, 4096];
  const precisions = o.precisions ?? ['int8', 'int4', 'fp16', 'bf16'];
  const repeats = o.repeats ?? 5;
  const withReports = o.reports ?? true;
  const r = run(['tree', '--format', 'json', path.join(fixtures, 'constructed-npu-2025.log')]);
  if (r.status !== 0) throw new Error('npuscope tree failed: ' + r.stderr);
  const base = JSON.parse(r.stdout).reports[0];
  const rnd = lcg(7);
  fs.mkdirSync(dir, { recursive: true });
  let count = 0, minute = 0;
  for (const [model, size] of Object.entries(models))
    for (const win of windows)
      for (const prec of precisions)
        for (const mode of ['cold', 'warm'])
          for (let rep = 1; rep <= repeats; rep++) {
            const noise = 1 + (rnd() - 0.5) * 0.06;
            const primer = mode === 'warm' && rep === 1;
            const compiles = mode === 'cold' || primer;
            const report = compiles && withReports ? scaledReport(base, size, win, prec, noise) : null;
            const wall = compiles ? (report ? report.root.wall_s : 40 * size) + 0.8 : 1.8 + 0.02 * size * noise;
            const id = `model-${model}_window-${win}_precision-${prec}-${mode}-r${String(rep).padStart(2, '0')}`;
            const tags = { model, window: String(win), precision: prec };
            const at = new Date(Date.UTC(2026, 10, 28, 16, 0, 0) + 60000 * minute++).toISOString().replace(/\.000Z$/, 'Z');
            const runJson = {
              format: 'npuscope-run', version: 1, id,
              command: ['python3', 'examples/ov_compile.py', `${model}.xml`, '--window', String(win), '--precision', prec],
              env: { OV_NPU_LOG_LEVEL: 'LOG_INFO', IE_NPU_LOG_FILTER: 'vpux-compiler', NPUSCOPE_MODE: mode,
                     NPUSCOPE_PARAM_model: model, NPUSCOPE_PARAM_window: String(win), NPUSCOPE_PARAM_precision: prec },
              tags, mode, repeat: rep, warmup: false, primer, started_at: at,
              wall_s: Number(wall.toFixed(4)), user_s: Number((wall * 0.97).toFixed(4)), sys_s: 0.4,
              peak_rss_mb: Number((900 + 300 * size).toFixed(1)),
              exit_code: 0, signal: null, signal_name: null, timed_out: false, interrupted: false, ok: true, error: null,
              metrics: {}, metric_counts: {}, stdout_bytes: 1000, stderr_bytes: 0,
              host: { name: 'constructed', os: 'Linux 6.1.0 x86_64', cpus: 8 }, npuscope_version: '0.1.0',
              reports: report ? [report] : [],
            };
            fs.mkdirSync(path.join(dir, id));
            fs.writeFileSync(path.join(dir, id, 'run.json'), JSON.stringify(runJson) + '\n');
            count++;
          }
  return count;
}

// explorer-gen.mjs -- CONSTRUCTED run folders for the sweep explorer's
// tests (explorer.test.mjs): not measured, made.
//
// npuwSweep(dir): an NPUW LLM sweep, models m1, m2 x windows 128, 1024,
// cold, 3 runs each.  Every run keeps the seven sub-model reports of
// tests/fixtures/constructed-npuw-7.log (generate/1..3, prefill/1..3,
// lm_head, as `npuscope tree --npuw --format json` reads them), each row's
// self time scaled by a factor known here (SCALE: FeasibleAllocation grows
// with the window, m2 is slower overall) and the parents summed again, so a
// test knows which rows of a comparison must differ.  Two passes differ in
// name between the models, to give rows only one side has: m1's reports
// keep "SimplifySchedule", m2's call it "SimplifyScheduleV2".
//
// memRun(dir): one hand-made run of one tiny report whose rows carry the
// per-pass memory keys "mem_peak_kb" and "mem_increase_kb" (kB), listed in
// its "columns" as the tree JSON writer lists them.

import fs from 'node:fs';
import path from 'node:path';
import { fixtures, run } from './lib.mjs';

export const MODELS = ['m1', 'm2'];
export const WINDOWS = ['128', '1024'];
export const RENAMED = ['SimplifySchedule', 'SimplifyScheduleV2'];

// Self-time factor of a row of `name` in the configuration.
export function scale(name, model, window) {
  let f = model === 'm2' ? 1.6 : 1;
  if (name === 'FeasibleAllocation') f *= window === '1024' ? 3 : 1;
  return f;
}

function scaled(base, model, window, noise) {
  const rep = JSON.parse(JSON.stringify(base));
  const order = [], stack = [rep.root];
  while (stack.length) { const n = stack.pop(); order.push(n); for (const c of n.children) stack.push(c); }
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
    const s = n === rep.root ? 0 : Math.max(0, self.get(n)) * scale(n.name, model, window) * noise;
    n.wall_s = Number((kids + s).toFixed(4));
    if (model === 'm2' && n.name === RENAMED[0]) n.name = RENAMED[1];
    delete n.line;
  }
  rep.total = { wall_s: rep.root.wall_s, user_s: null };
  rep.header_total_s = rep.root.wall_s;
  return rep;
}

function runJson(id, tags, repeat, wall, reports) {
  return {
    format: 'npuscope-run', version: 1, id, command: ['constructed'], env: {}, tags, mode: 'cold',
    repeat, warmup: false, primer: false, started_at: '2026-12-01T12:00:00Z',
    wall_s: wall, user_s: wall, sys_s: 0.1, peak_rss_mb: 100, exit_code: 0, signal: null, signal_name: null,
    timed_out: false, interrupted: false, ok: true, error: null, metrics: {}, metric_counts: {},
    stdout_bytes: 0, stderr_bytes: 0, host: { name: 'constructed', os: 'Linux', cpus: 2 },
    npuscope_version: '0.1.0', reports,
  };
}

function write(dir, j) {
  fs.mkdirSync(path.join(dir, j.id), { recursive: true });
  fs.writeFileSync(path.join(dir, j.id, 'run.json'), JSON.stringify(j) + '\n');
}

export function npuwSweep(dir) {
  const r = run(['tree', '--npuw', '--format', 'json', path.join(fixtures, 'constructed-npuw-7.log')]);
  if (r.status !== 0) throw new Error('npuscope tree failed: ' + r.stderr);
  const base = JSON.parse(r.stdout).reports;
  const noises = [1.0, 0.97, 1.04]; // repeat 1 the median, 2 the fastest, 3 the slowest
  for (const model of MODELS)
    for (const window of WINDOWS)
      for (let rep = 1; rep <= 3; rep++) {
        const reports = base.map((b) => scaled(b, model, window, noises[rep - 1]));
        let wall = 0;
        for (const x of reports) wall += x.root.wall_s;
        write(dir, runJson(`model-${model}_window-${window}-cold-r0${rep}`, { model, window }, rep,
          Number((wall + 0.5).toFixed(4)), reports));
      }
}

export const MEM = [
  // name, wall_s, mem_peak_kb, mem_increase_kb
  ['Total', 0.5, 9000, 4000],
  ['Parser', 0.1, 5000, 2500],
  ['FeasibleAllocation', 0.3, 9000, 1200],
  ['Rest', 0.1, null, null],
];
export function memRun(dir) {
  const node = ([name, wall, peak, inc], children = []) => {
    const n = { name, kind: name === 'Total' ? 'total' : name === 'Rest' ? 'rest' : 'pass', wall_s: wall, user_s: null };
    if (peak !== null) { n.mem_peak_kb = peak; n.mem_increase_kb = inc; }
    n.children = children;
    return n;
  };
  const root = node(MEM[0], MEM.slice(1).map((m) => node(m)));
  const rep = {
    index: 0, label: '#1', producer: 'mlir-text-tree', title: '... Execution time report ...',
    source: { file: 'stdout.log', line: 1, end_line: 9 }, complete: true, columns: ["wall", "mem_peak", "mem_increase"],
    header_total_s: 0.5, total: { wall_s: 0.5, user_s: null }, root,
  };
  write(dir, runJson('mem-r01', { case: 'mem' }, 1, 0.6, [rep]));
}

// hostileRuns(dir): two runs of the memory report whose tag values are
// markup and a right-to-left override, and one whose tag key is markup.
export const HOSTILE = ['<img src=x onerror=alert(1)>', 'a\u202eb'];
export function hostileRuns(dir) {
  memRun(dir);
  const base = JSON.parse(fs.readFileSync(path.join(dir, 'mem-r01', 'run.json'), 'utf8'));
  fs.rmSync(path.join(dir, 'mem-r01'), { recursive: true });
  HOSTILE.forEach((v, i) => write(dir, { ...base, id: `hostile-${i}`, tags: { '<b>k</b>': v } }));
}

// data.mjs -- the report page's data block (render/page_data.c, the format
// in docs/formats.md) decoded back into the tree JSON it was made from, so
// that a test can hold the page against `npuscope tree --format json`.
//
//   import { decode } from './data.mjs';   decode(block) -> {reports, configs, runs}
//   node tests/browser/data.mjs PAGE.html  prints {"reports":[{label, root}]}
//
// Each report comes back as {label, producer, source: {file, line}, total:
// {wall_s}, root: {name, kind, detail?, wall_s, user_s, ...columns,
// children}} -- the tree JSON's keys, less the row line numbers, which the
// page does not embed.  Values are divided back by 10^dec exactly as the
// page's script does.

import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export function block(html) {
  const m = html.match(/<script type="application\/json" id="npuscope-data">([\s\S]*?)<\/script>/);
  if (!m) throw new Error('no data block');
  return JSON.parse(m[1]);
}

function value(col, k) {
  if (!col) return undefined;
  const x = col[k + 1];
  if (typeof x !== 'number') return null;
  return col[0] > 0 ? x / Math.pow(10, col[0]) : x;
}

export function decode(d) {
  const S = d.strings, R = d.reports, reports = [];
  for (let ri = 0; ri < R.label.length; ri++) {
    const sh = d.shapes[R.shape[ri]], nodes = [];
    for (let k = 0; k < sh.name.length; k++) {
      const n = { name: S[sh.name[k]], kind: d.kinds[sh.kind[k]] };
      if (sh.detail && sh.detail[k] >= 0) n.detail = S[sh.detail[k]];
      for (const key of Object.keys(R.cols)) {
        const v = value(R.cols[key][ri], k);
        if (v !== undefined) n[key] = v;
        else if (key === 'user_s') n[key] = null;
      }
      n.children = [];
      nodes.push(n);
      if (k) {
        let p = k - 1;
        while (sh.depth[p] >= sh.depth[k]) p--;
        nodes[p].children.push(n);
      }
    }
    reports.push({
      label: S[R.label[ri]], producer: S[R.producer[ri]],
      source: { file: S[R.file[ri]], line: R.line[ri] },
      total: { wall_s: R.total[ri] }, root: nodes[0],
    });
  }
  return { reports, configs: d.configs, runs: d.runs, tags: d.tags, logs: d.logs, strings: S };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const d = decode(block(fs.readFileSync(process.argv[2], 'utf8')));
  process.stdout.write(JSON.stringify({ reports: d.reports.map((r) => ({ label: r.label, root: r.root })) }) + '\n');
}

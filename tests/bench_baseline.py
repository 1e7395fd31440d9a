#!/usr/bin/env python3
"""bench_baseline.py -- the Python baseline for `make bench`.

A deliberately straightforward parser of MLIR `--mlir-timing` text reports,
written the way a typical user would write it: read the log line by line,
enter a report at a `===---===` banner, decide from the column header whether
it is an MLIR report (`----Name----`) or an LLVM TimerGroup table
(`--- Name ---`, skipped), then `re.match` every line of an MLIR report
against the row regex until the `Total` row, counting rows and summing the
wall time per name.

Lines behind a logger prefix (`[INFO] ... [vpux-compiler] `), MLIR JSON output
and LLVM tables are not counted: this is a baseline, not a second npuscope.

usage: bench_baseline.py LOG [N]     (N = how many top names to print, default 5)

Output (stdout), first line machine-readable:
  reports=R rows=W names=K total_wall_s=T
  then the N names with the largest summed wall time.
"""
import re
import sys
from collections import defaultdict

ROW = re.compile(
    r'^\s*(-?[\d.]+) \(\s*[-\d.]+%\)(?:\s+(-?[\d.]+) \(\s*[-\d.]+%\))?\s{2}(\s*)(.+)$')


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: bench_baseline.py LOG [N]\n")
        return 2
    top_n = int(argv[2]) if len(argv) > 2 else 5

    reports = 0
    rows = 0
    total_wall = 0.0
    wall_by_name = defaultdict(float)
    count_by_name = defaultdict(int)

    OUT, HEADER, ROWS = 0, 1, 2
    state = OUT
    with open(argv[1], encoding="utf-8", errors="replace") as f:
        for line in f:
            if state == OUT:
                if line.startswith("===-"):
                    state = HEADER
                continue
            if state == HEADER:
                if "----Name----" in line:        # MLIR: ----Wall Time----  ----Name----
                    state = ROWS
                    reports += 1
                elif "--- Name ---" in line:      # LLVM TimerGroup table: not ours
                    state = OUT
                continue
            m = ROW.match(line.rstrip("\r\n"))
            if not m:
                continue
            wall = float(m.group(2) if m.group(2) is not None else m.group(1))
            name = m.group(4).strip()
            if name == "Total":
                total_wall += wall
                state = OUT
                continue
            rows += 1
            wall_by_name[name] += wall
            count_by_name[name] += 1

    print("reports=%d rows=%d names=%d total_wall_s=%.4f"
          % (reports, rows, len(wall_by_name), total_wall))
    for name, wall in sorted(wall_by_name.items(), key=lambda kv: -kv[1])[:top_n]:
        print("%12.4f  %6d  %s" % (wall, count_by_name[name], name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""bench_baseline.py -- the Python baselines for `make bench`.

Parsers of MLIR `--mlir-timing` text reports written the way users write
them: read the log line by line, enter a report at a `===---===` banner,
decide from the column header whether it is an MLIR report (`----Name----`)
or an LLVM TimerGroup table (`--- Name ---`, skipped), read rows with a
regex until the `Total` row, count rows and sum the wall time per name.

Two ways of reading the lines, chosen by the first argument:

  plain   the straightforward script: every line is tried against the row
          regex (`ROW.match(line)`), and only lines that are not rows are
          looked at for a banner or a column header.  This is the baseline
          the performance target is stated against.
  tuned   what a careful author writes after profiling the first: outside
          a report, a line is only checked with `str.startswith("===-")`,
          which runs at C speed, and the regex runs only inside reports.
          Shown beside the target, so that the ratio against the best
          simple Python is never hidden.

Both find and sum exactly the same reports and rows.  Lines behind a logger
prefix (`[INFO] ... [vpux-compiler] `), MLIR JSON output and LLVM tables are
not counted: this is a baseline, not a second npuscope.

usage: bench_baseline.py plain|tuned LOG [N]   (N = top names printed, default 5)

Output (stdout), first line machine-readable:
  reports=R rows=W names=K total_wall_s=T
  then the N names with the largest summed wall time.
"""
import re
import sys
from collections import defaultdict

ROW = re.compile(
    r'^\s*(-?[\d.]+) \(\s*[-\d.]+%\)(?:\s+(-?[\d.]+) \(\s*[-\d.]+%\))?\s{2}(\s*)(.+)$')

OUT, HEADER, ROWS = 0, 1, 2


class Sums:
    def __init__(self):
        self.reports = 0
        self.rows = 0
        self.total_wall = 0.0
        self.wall_by_name = defaultdict(float)
        self.count_by_name = defaultdict(int)

    def row(self, m):
        """Add one row; True when it was the report's Total row."""
        wall = float(m.group(2) if m.group(2) is not None else m.group(1))
        name = m.group(4).strip()
        if name == "Total":
            self.total_wall += wall
            return True
        self.rows += 1
        self.wall_by_name[name] += wall
        self.count_by_name[name] += 1
        return False


def header_state(line, sums):
    """The state after a line seen in HEADER state."""
    if "----Name----" in line:        # MLIR: ----Wall Time----  ----Name----
        sums.reports += 1
        return ROWS
    if "--- Name ---" in line:        # LLVM TimerGroup table: not ours
        return OUT
    return HEADER


def parse_plain(f, sums):
    state = OUT
    for line in f:
        m = ROW.match(line.rstrip("\r\n"))
        if m:
            if state == ROWS and sums.row(m):
                state = OUT
            continue
        if line.startswith("===-"):
            if state == OUT:
                state = HEADER
        elif state == HEADER:
            state = header_state(line, sums)


def parse_tuned(f, sums):
    state = OUT
    for line in f:
        if state == OUT:
            if line.startswith("===-"):
                state = HEADER
            continue
        if state == HEADER:
            state = header_state(line, sums)
            continue
        m = ROW.match(line.rstrip("\r\n"))
        if m and sums.row(m):
            state = OUT


def main(argv):
    if len(argv) < 3 or argv[1] not in ("plain", "tuned"):
        sys.stderr.write("usage: bench_baseline.py plain|tuned LOG [N]\n")
        return 2
    top_n = int(argv[3]) if len(argv) > 3 else 5
    sums = Sums()
    with open(argv[2], encoding="utf-8", errors="replace") as f:
        (parse_plain if argv[1] == "plain" else parse_tuned)(f, sums)

    print("reports=%d rows=%d names=%d total_wall_s=%.4f"
          % (sums.reports, sums.rows, len(sums.wall_by_name), sums.total_wall))
    for name, wall in sorted(sums.wall_by_name.items(), key=lambda kv: -kv[1])[:top_n]:
        print("%12.4f  %6d  %s" % (wall, sums.count_by_name[name], name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""gen-runs.py -- constructed run folders for the fault tier and the bench.

    gen-runs.py OUT [--runs N] [--wall S] [--factor F] [--rows R]
                    [--configs C] [--reports K] [--depth D] [--prefix P]
                    [--seed N] [--tag K=V]... [--name-rows NAME]...

Writes N run folders OUT/<prefix>-<i>/run.json (no logs: the readers need
run.json only), each one counted run (ok, mode "none") whose wall_s is
S * F * (1 + a small deterministic jitter) and whose K reports each hold R
passes (pass-0 .. pass-R-1, the times a fixed share of the wall).  With
--configs C the runs spread over C configurations (tag cfg=0..C-1); with
--depth D the first report is instead one chain of D nested rows (how deep
`record` can write).  --name-rows adds rows of those exact names (hostile
names for the escaping checks).  The same arguments write the same bytes.
"""
import argparse
import json
import os
import random
import sys


def tree(rows, wall, names):
    kids = [{"name": "pass-%d" % i, "wall_s": round(wall * 0.5 / max(rows, 1), 9),
             "user_s": None, "children": []} for i in range(rows)]
    for n in names:
        kids.append({"name": n, "wall_s": round(wall * 0.01, 9), "user_s": None, "children": []})
    return {"name": "Total", "wall_s": wall, "user_s": None, "children": kids}


def chain(depth, wall):
    node = {"name": "leaf", "wall_s": wall / 2, "user_s": None, "children": []}
    for i in range(depth - 1):
        node = {"name": "level-%d" % (depth - 2 - i), "wall_s": wall / 2, "user_s": None,
                "children": [node]}
    return {"name": "Total", "wall_s": wall, "user_s": None, "children": [node]}


def main():
    sys.setrecursionlimit(100000)  # json.dump of a --depth chain recurses
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--wall", type=float, default=1.0)
    ap.add_argument("--factor", type=float, default=1.0)
    ap.add_argument("--rows", type=int, default=3)
    ap.add_argument("--configs", type=int, default=0)
    ap.add_argument("--reports", type=int, default=1)
    ap.add_argument("--depth", type=int, default=0)
    ap.add_argument("--prefix", default="run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tag", action="append", default=[])
    ap.add_argument("--name-rows", action="append", default=[])
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.runs):
        wall = round(a.wall * a.factor * (1 + rnd.uniform(-0.05, 0.05)), 6)
        tags = dict(t.split("=", 1) for t in a.tag)
        if a.configs:
            tags["cfg"] = str(i % a.configs)
        rid = "%s-%06d" % (a.prefix, i)
        reports = []
        for k in range(a.reports):
            root = chain(a.depth, wall) if a.depth and k == 0 else tree(a.rows, wall, a.name_rows)
            reports.append({"index": k, "label": "report %d" % k, "producer": "mlir-text-tree",
                            "source": {"file": "stdout.log", "line": 1 + k},
                            "total": {"wall_s": wall, "user_s": None}, "root": root})
        run = {"format": "npuscope-run", "version": 1, "id": rid, "command": ["true"],
               "env": {}, "tags": tags, "mode": "none", "repeat": i + 1, "warmup": False,
               "primer": False, "started_at": "2026-01-01T00:00:00Z", "wall_s": wall,
               "user_s": wall, "sys_s": 0.0, "peak_rss_mb": 10.0, "exit_code": 0,
               "signal": None, "signal_name": None, "timed_out": False, "interrupted": False,
               "ok": True, "error": None, "metrics": {}, "metric_counts": {},
               "stdout_bytes": 0, "stderr_bytes": 0,
               "host": {"name": "constructed", "os": "Linux", "cpus": 1},
               "npuscope_version": "0.1.0", "reports": reports}
        d = os.path.join(a.out, rid)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump(run, f, separators=(",", ":"))
            f.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""gen-study.py -- a CONSTRUCTED NPU compile-time study with known ground truth.

What it is: a stand-in for the published NPUW LLM compile-time study, small
enough for CI.  There is no NPU here and no model is compiled: every number
is made up from the cost model below, so a test knows what npuscope must
find.  Two roles in one file:

  gen-study.py OUT [--repeats N] [--npuscope BIN]
      runs the REAL `npuscope sweep` (preset npu, --npuw, tag NPUW_LLM=YES)
      over axes model x window x precision (5 x 4 x 3 = 60 configurations)
      with this script as the compile command, into OUT/runs, and writes
      the ground truth to OUT/truth.json.
  gen-study.py --compile MODEL WINDOW PRECISION
      the fake compile: prints, in the vpux log format (docs/npu.md;
      `[INFO] HH:MM:SS.mmm [logger]   msg`, tests/helpers/fake-vpux.sh),
      seven sub-model compiles (NPUW layout generate:3,prefill:3,lm_head:1),
      each with its `VPUIP Tasks - N ops` fact line and an MLIR timing
      report, then sleeps its claimed time scaled down by TIME_SCALE
      (1/100: a compile whose reports total 140 s takes 1.4 s), so that
      wall-clock findings (scaling of wall time, the median run) agree
      with the reports instead of measuring Python's start-up.

The cost model (per sub-model compile j with weight w_j; s = size in B
from the model name, W = window, m = precision factor):
  tasks      = round(255 * s^1.5 * (W/128)^0.6 * w_j * m^(1/0.69))
  FeasibleAllocation   = 0.002 * tasks^0.69 * noise   (memory-scheduling)
  tiling passes        = 0.9 * s^0.2 * w_j * m       (tiling-search)
  ELF passes           = 0.01 * s^0.5 * (W/128)^1.1 * w_j * m (serialization)
  the rest (frontend, other) small.
  m(int8) = 1, m(int4) = 0.97, m(fp16) = 0.58 * (1.88/0.58)^(ln(s/0.5)/ln(14))
so fp16/int8 goes 0.58 (0.5B) -> 1.88 (7B), crossing 1 near 1.7B.  noise is
a deterministic +-4% (a hash of the configuration and report), so the fit of
FeasibleAllocation against tasks has an interval that holds 0.69.
The regime of a configuration is the stage with the most time over its
seven reports -- the generator computes it from the same numbers it prints;
the hand-off (truth.json "handoff") is the regimes in order of the median
compile time (summed report totals, "total_s") of the cells each rules.
Must not touch: anything outside OUT; it writes no file when it compiles.
"""
import hashlib
import json
import math
import os
import subprocess
import sys

MODELS = ["qwen2-0.5b", "llama3.2-1b", "qwen2.5-1.5b", "phi3-3.8b", "qwen2-7b"]
WINDOWS = [128, 1024, 4096, 32768]
PRECISIONS = ["int4", "int8", "fp16"]
# NPUW layout generate:3,prefill:3,lm_head:1: the weight of each compile
WEIGHTS = [0.5, 0.3, 0.3, 1.0, 0.6, 0.6, 0.2]
EXPONENT = 0.69
TIME_SCALE = 0.01  # the fake compile sleeps its reports' total x this


def size_b(model):
    return float(model.rsplit("-", 1)[1].rstrip("b"))


def prec_factor(prec, s):
    if prec == "int8":
        return 1.0
    if prec == "int4":
        return 0.97
    return 0.58 * (1.88 / 0.58) ** (math.log(s / 0.5) / math.log(14.0))


def noise(*key):
    h = hashlib.sha256("/".join(map(str, key)).encode()).digest()
    return 1.0 + 0.08 * (h[0] / 255.0 - 0.5)


def costs(model, window, prec):
    """Per report: (tasks, {pass: seconds}) -- the numbers printed."""
    s, m = size_b(model), prec_factor(prec, size_b(model))
    out = []
    for j, w in enumerate(WEIGHTS):
        tasks = int(round(255 * s ** 1.5 * (window / 128) ** 0.6 * w * m ** (1 / EXPONENT)))
        fa = 0.002 * tasks ** EXPONENT * noise(model, window, prec, j)
        til = 0.9 * s ** 0.2 * w * m
        elf = 0.01 * s ** 0.5 * (window / 128) ** 1.1 * w * m
        out.append((tasks, [
            ("frontend", "ConvertIEToVPUNCE", 0.02 * w * m),
            ("tiling-search", "MultiClusterStrategyAssignment", 0.35 * til),
            ("tiling-search", "TilingStrategyAssignment", 0.65 * til),
            ("memory-scheduling", "FeasibleAllocation", fa),
            ("other", "ConvertAsyncOpsToTasks", 0.01 * w * m),
            ("serialization", "ConvertVPUIP2VPUMI40XX", 0.5 * elf),
            ("serialization", "ConvertVPUMI40XX2VPUASM", 0.3 * elf),
            ("serialization", "AddELFRelocations", 0.2 * elf),
        ]))
    return out


def regime(model, window, prec):
    """(stage, its dominant pass, the pass's share of the compile)."""
    st, ps, total = {}, {}, 0.0
    for _, passes in costs(model, window, prec):
        for stage, name, t in passes:
            t = float("%.4f" % t)
            st[stage] = st.get(stage, 0) + t
            ps[name] = ps.get(name, 0) + t
            total += t
    stage = max(sorted(st), key=lambda k: st[k])
    of = {n: sg for sg, n, _ in costs(model, window, prec)[0][1]}
    dom = max(sorted(n for n in ps if of[n] == stage), key=lambda n: ps[n])
    return stage, dom, ps[dom] / total


def total(model, window, prec):
    """The compile's time as its reports give it: the summed report totals."""
    return sum(0.0100 + sum(float("%.4f" % t) for _, _, t in passes)
               for _, passes in costs(model, window, prec))


def handoff(cells):
    """The hand-off: regimes in order of the median compile time of the
    configurations each one rules (tiling-search at the short compiles,
    serialization at the longest)."""
    times = {}
    for c in cells:
        times.setdefault(c["regime"], []).append(c["total_s"])
    med = lambda v: sorted(v)[len(v) // 2] if len(v) % 2 else sum(sorted(v)[len(v) // 2 - 1:len(v) // 2 + 1]) / 2
    return sorted(times, key=lambda r: med(times[r]))


def compile_log(model, window, prec):
    import time
    claimed = total(model, window, prec)
    w = sys.stdout.write
    w('[INFO] 12:00:00.000 [vpux-compiler] config: --config NPU_PLATFORM="4000" '
      'LOG_LEVEL="LOG_INFO" model=%s window=%s precision=%s\n' % (model, window, prec))
    for tasks, passes in costs(model, window, prec):
        rows = [(n, float("%.4f" % t), stage) for stage, n, t in passes]
        ie = [r for r in rows if r[2] != "serialization"]
        elf = [r for r in rows if r[2] == "serialization"]
        imp = 0.0100
        sie, self_ = sum(r[1] for r in ie), sum(r[1] for r in elf)
        comp = sie + self_
        tot = imp + comp
        pct = lambda t: 100.0 * t / tot
        w("[INFO] 12:00:00.000 [dump-statistics-of-task-ops]   VPUIP tasks statistics:\n")
        w("[INFO] 12:00:00.000 [dump-statistics-of-task-ops]     VPUIP Tasks - %d ops\n" % tasks)
        w("===" + "-" * 73 + "===\n")
        w(" " * 25 + "... Execution time report ...\n")
        w("===" + "-" * 73 + "===\n")
        w("  Total Execution Time: %.4f seconds\n\n" % tot)
        w("  ----Wall Time----  ----Name----\n")
        line = lambda t, ind, name: w("  %8.4f (%5.1f%%)  %s%s\n" % (t, pct(t), "  " * ind, name))
        line(imp, 0, "Import network")
        line(comp, 0, "Compile network")
        line(sie, 1, "IE to VPUIP pipeline")
        for n, t, _ in ie:
            line(t, 2, n)
        line(self_, 1, "ELF pipeline")
        for n, t, _ in elf:
            line(t, 2, n)
        line(0.0, 0, "Rest")
        line(tot, 0, "Total")
        w("[INFO] 12:00:00.000 [vpux-compiler] Compile net time: %d ms\n" % int(tot * 1000))
    sys.stdout.flush()
    time.sleep(claimed * TIME_SCALE)


def truth():
    cells = []
    for mo in MODELS:
        for wi in WINDOWS:
            for pr in PRECISIONS:
                stage, dom, share = regime(mo, wi, pr)
                cells.append({"model": mo, "window": str(wi), "precision": pr,
                              "regime": stage, "dominant_pass": dom, "share": share,
                              "total_s": total(mo, wi, pr)})
    fix = {"tiling-search": "reuse-strategy", "memory-scheduling": "fewer-tasks",
           "serialization": "ship-blob", "vertical-fusion": "vertical-fusion"}
    cross = 0.5 * 14.0 ** (math.log(1 / 0.58) / math.log(1.88 / 0.58))
    return {"constructed": True, "cells": cells, "fix": fix, "handoff": handoff(cells),
            "fa_exponent": EXPONENT, "fp16_over_int8": {"smallest": 0.58, "largest": 1.88,
                                                        "crossing_size_b": cross},
            "int4_over_int8_max": 0.99}


def main(argv):
    if len(argv) == 5 and argv[1] == "--compile":
        compile_log(argv[2], int(argv[3]), argv[4])
        return 0
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    out, repeats, bin_ = argv[1], "1", os.environ.get("NPUSCOPE", "./build/npuscope")
    i = 2
    while i < len(argv):
        if argv[i] == "--repeats":
            repeats, i = argv[i + 1], i + 2
        elif argv[i] == "--npuscope":
            bin_, i = argv[i + 1], i + 2
        else:
            sys.stderr.write("gen-study.py: unknown argument %s\n" % argv[i])
            return 2
    os.makedirs(out, exist_ok=True)
    me = os.path.abspath(__file__)
    cmd = [bin_, "sweep", "-q", "-o", os.path.join(out, "runs"), "-n", repeats,
           "--preset", "npu", "--npuw", "--mode", "cold", "--tag", "NPUW_LLM=YES",
           "-L", "model=" + ",".join(MODELS), "-L", "window=" + ",".join(map(str, WINDOWS)),
           "-L", "precision=" + ",".join(PRECISIONS),
           "--", sys.executable, me, "--compile", "{model}", "{window}", "{precision}"]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(truth(), f, indent=1, sort_keys=True)
        f.write("\n")
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))

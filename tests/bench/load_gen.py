#!/usr/bin/env python3
"""load_gen.py -- N constructed run folders for the run-folder load benchmark.

    load_gen.py BASE.json N OUT

BASE.json is `npuscope tree --format json` of a log (tests/bench/load.sh
uses tests/fixtures/constructed-npu-2025.log: one NPU compile report of
about 120 rows, 12 KB of tree JSON); its first report is the template.
OUT receives N run folders OUT/<id>/run.json, each holding that report
with every time scaled by a per-run factor and printed with the report's
4 decimals, as `record` writes them.  The configurations are the study's
shape: 5 models x 6 windows x 4 precisions = 120, cold, run after run
(repeat r of every configuration before repeat r+1), so 1,200 runs are 10
repeats and 12,000 are 100.  Deterministic (a fixed LCG): the same N gives
the same bytes.  No run names this machine (a constructed host, no
NPUSCOPE_RUN_DIR).
"""
import json
import os
import re
import sys

MODELS = ["m1", "m2", "m3", "m4", "m5"]
WINDOWS = [128, 256, 512, 1024, 2048, 4096]
PRECISIONS = ["int8", "int4", "fp16", "bf16"]
VARIANTS = 64  # distinct scaled reports, cycled (generation stays fast)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: load_gen.py BASE.json N OUT")
    base_path, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(base_path) as f:
        report = json.load(f)["reports"][0]
    report.pop("source", None)  # would name the file it was read from
    text = json.dumps(report, separators=(",", ":"))
    num = re.compile(r'("(?:wall_s|header_total_s)":)(-?[0-9.]+)')
    seed = 12345

    def rnd():
        nonlocal seed
        seed = (seed * 1103515245 + 12345) % 2147483648
        return seed / 2147483648

    variants = []
    for v in range(VARIANTS):
        k = 0.5 + 1.5 * v / VARIANTS
        variants.append((num.sub(lambda m: "%s%.4f" % (m.group(1), float(m.group(2)) * k), text), k))
    total = report["root"]["wall_s"]
    configs = [(m, w, p) for m in MODELS for w in WINDOWS for p in PRECISIONS]
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        model, win, prec = configs[i % len(configs)]
        rep = i // len(configs) + 1
        rtext, k = variants[int(rnd() * VARIANTS)]
        wall = total * k + 0.8
        rid = "model-%s_window-%d_precision-%s-cold-r%03d" % (model, win, prec, rep)
        head = {
            "format": "npuscope-run", "version": 1, "id": rid,
            "command": ["python3", "examples/ov_compile.py", model + ".xml", "--window", str(win),
                        "--precision", prec],
            "env": {"OV_NPU_LOG_LEVEL": "LOG_INFO", "NPUSCOPE_MODE": "cold",
                    "NPUSCOPE_PARAM_model": model, "NPUSCOPE_PARAM_window": str(win),
                    "NPUSCOPE_PARAM_precision": prec},
            "tags": {"model": model, "window": str(win), "precision": prec},
            "mode": "cold", "repeat": rep, "warmup": False, "primer": False,
            "started_at": "2026-11-28T%02d:%02d:%02dZ" % (i // 3600 % 24, i // 60 % 60, i % 60),
        }
        tail = ('"wall_s":%.4f,"user_s":%.4f,"sys_s":0.4000,"peak_rss_mb":%.1f,"exit_code":0,'
                '"signal":null,"signal_name":null,"timed_out":false,"interrupted":false,"ok":true,'
                '"error":null,"metrics":{"vpuip_tasks":%d},"metric_counts":{"vpuip_tasks":1},'
                '"stdout_bytes":1000,"stderr_bytes":52000,'
                '"host":{"name":"constructed","os":"Linux 6.1.0 x86_64","cpus":8},'
                '"npuscope_version":"0.1.0","reports":[%s]}\n'
                % (wall, wall * 0.97, 900 + 300 * k, int(5000 * k), rtext))
        d = os.path.join(out, rid)
        os.mkdir(d)
        with open(os.path.join(d, "run.json"), "w") as f:
            f.write(json.dumps(head, separators=(",", ":"))[:-1] + "," + tail)


if __name__ == "__main__":
    main()

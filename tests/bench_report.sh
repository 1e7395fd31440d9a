#!/usr/bin/env bash
# bench_report.sh -- the report's benchmarks: a 10,000-row page in headless
# Chromium and `npuscope report` over a 1,200-run sweep (tests/browser/bench.mjs
# says what is measured and how).  `make bench` runs it after tests/bench.sh;
# `make bench-report` runs it alone.  Timings are printed, never asserted;
# the exit status is 1 only when npuscope fails.
#
# Needs node (Debian package nodejs); the page part also needs chromium and
# playwright-core (installed here with `npm ci` into tests/browser/node_modules
# when missing) and says "skipped" without them.
#
# Environment: NPUSCOPE (default ./npuscope), BENCH_LOADS, BENCH_RUNS,
# BENCH_DIR (where the pages and the sweep go; default a new mktemp -d).
set -u
cd "$(dirname "$0")/.." || exit 2
NPUSCOPE=${NPUSCOPE:-./npuscope}
[ -x "$NPUSCOPE" ] || { echo "bench_report: $NPUSCOPE not found: run 'make' first" >&2; exit 2; }
echo
echo "== npuscope report benchmarks"
if ! command -v node >/dev/null 2>&1; then
    echo "skipped: the report benchmarks need node (Debian package nodejs)"
    exit 0
fi
if [ ! -f tests/browser/node_modules/playwright-core/package.json ]; then
    (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error) >/dev/null 2>&1 ||
        echo "note: npm ci failed in tests/browser; the page benchmark will be skipped"
fi
if [ -n "${BENCH_DIR:-}" ]; then
    mkdir -p "$BENCH_DIR" || exit 2
    W=$BENCH_DIR
else
    W=$(mktemp -d "${TMPDIR:-/tmp}/npuscope-bench-report.XXXXXX") || exit 2
    trap 'rm -rf "$W"' EXIT
fi
# (CHROMIUM_MULTI=1: Chromium's usual processes, as a reader's browser has
# them -- the tests run it as one process, tests/browser/lib.mjs)
CHROMIUM_MULTI=1 NPUSCOPE=$(cd "$(dirname "$NPUSCOPE")" && pwd)/$(basename "$NPUSCOPE") NS_OUT=$W node tests/browser/bench.mjs

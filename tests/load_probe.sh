#!/usr/bin/env bash
# load_probe.sh -- the load check (tests/run_load.sh) seen failing: the
# fragment test with a fixed wait put back (tests/browser/fixed-wait.probe.mjs:
# it reads the page PROBE_WAIT_MS after the navigation instead of waiting
# for what it checks) passes on the machine as it is, and the load check
# must fail it.  Not part of make check -- a probe that must fail cannot
# be one of the suite's checks -- but its evidence, run by hand:
#
#   bash tests/load_probe.sh        (after make; chromium and
#                                    tests/browser/node_modules as for the
#                                    browser tests; stress-ng)
#
# Prints what each part saw, and ends "the load check caught the fixed
# wait" (exit 0) or says why not (exit 1).  PROBE_TRIES (3) plain runs
# first: each must pass, or the probe's wait is too short for this machine
# to prove anything.
cd "$(dirname "$0")/.." || exit 2
NPUSCOPE=${NPUSCOPE:-./build/npuscope}
NPUSCOPE=$(cd "$(dirname "$NPUSCOPE")" && pwd)/$(basename "$NPUSCOPE")
export NPUSCOPE NS_TESTS=./fixed-wait.probe.mjs
plain=$(mktemp) || exit 2
trap 'rm -f "$plain"' EXIT
for i in $(seq 1 "${PROBE_TRIES:-3}"); do
    sh tests/browser/run.sh >"$plain" 2>&1
    grep '# probe:' "$plain" | sed "s/^/plain run $i: /"
    if ! grep -q '^ok 1 ' "$plain"; then
        tail -n 20 "$plain"
        echo "the probe failed without load: its fixed wait is too short here to prove anything"; exit 1
    fi
done
out=$(LOAD_LIVE=0 RB_READY=1 bash -c '. tests/lib.sh; . tests/run_load.sh; finish' 2>&1)
echo "$out" | sed 's/^/load check: /'
if echo "$out" | tail -n 1 | grep -q ' [1-9][0-9]* failed$'; then
    echo "the load check caught the fixed wait"
else
    echo "the load check did not catch the fixed wait"; exit 1
fi

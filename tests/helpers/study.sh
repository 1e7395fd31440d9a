#!/bin/sh
# study.sh DIR -- the constructed NPU study (tests/helpers/gen-study.py: 60
# configurations recorded by the real `npuscope sweep`) in DIR, for the
# tests that read one (tests/run_study.sh, run_predict.sh,
# run_consistency.sh, the browser tests' figures and shots).
#
# The study is the same every time (the generator is seeded) and making it
# costs about 6 s of CPU and 16 s of waiting; make check read it nine times
# over, three of them in each round of the load check.  With NS_STUDY set
# (tests/run.sh exports a folder of its own temporary folder), the first
# caller makes it there and every caller copies it; flock(1) keeps two
# callers from making it at once, and one that finds it made does not wait
# for the others.  Without NS_STUDY (a test run alone), it is made in DIR.
# NPUSCOPE: the binary that records it (default ./build/npuscope).
#
# Exit 0 with DIR/runs and DIR/truth.json; otherwise 1, and the
# generator's messages on standard error.
set -u
dir=${1:?usage: study.sh DIR}
if [ -z "${NS_STUDY:-}" ]; then
    # (gen-study.py writes truth.json even when the sweep failed: a
    # failed study is removed, so that no caller takes it as made)
    rm -rf "$dir"
    python3 "$(dirname "$0")/gen-study.py" "$dir" >/dev/null && [ -s "$dir/truth.json" ] ||
        { rm -rf "$dir"; exit 1; }
    exit 0
fi
# made once, under the lock, and marked done when whole (looked for again
# under the lock: another caller may have made it while this one waited)
[ -e "$NS_STUDY.done" ] ||
    flock "$NS_STUDY.lock" sh -c '[ -e "$1.done" ] || { NS_STUDY= sh "$2" "$1" && : >"$1.done"; }' \
        sh "$NS_STUDY" "$0" ||
    exit 1
rm -rf "$dir"
mkdir -p "$(dirname "$dir")"
cp -R "$NS_STUDY" "$dir"

#!/usr/bin/env bash
# update-golden.sh -- regenerate tests/cases/*.out|.err|.rc from the current
# build.  Run after an intended output change, then read `git diff
# tests/cases` line by line before committing: the diff is the review.
set -eu
cd "$(dirname "$0")/.."
for c in tests/cases/*.args; do
    base=${c%.args}
    mapfile -t args <"$c"
    set +e
    ./build/npuscope "${args[@]}" >"$base.out" 2>"$base.err" </dev/null
    echo $? >"$base.rc"
    set -e
done
echo "regenerated $(ls tests/cases/*.args | wc -l) cases"

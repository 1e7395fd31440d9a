#!/bin/sh
# run.sh -- the browser tests: node's test runner over every *.test.mjs here,
# one file at a time (each launches its own headless Chromium), TAP on
# standard output.  tests/run_browser.sh runs this and counts the results;
# by hand:
#
#   (cd tests/browser && npm ci)              # once: playwright-core
#   NPUSCOPE=build/npuscope sh tests/browser/run.sh
#
# Environment: see lib.mjs (NPUSCOPE, CHROMIUM, NS_OUT, NS_SHOTS).
# Screenshots land in tests/browser/screenshots/ (not committed).
set -eu
cd "$(dirname "$0")"
# NS_TESTS: the test files to run (default every one)
# shellcheck disable=SC2086
exec node --test --test-reporter=tap --test-concurrency=1 ${NS_TESTS:-./*.test.mjs}

#!/bin/sh
# gen.sh DIR -- write the large inputs of the bad-input corpus into DIR.
#
# Inputs over 64 KB are not committed: each such case has
# tests/bad/cases/NAME.gen (a one-line note) instead of NAME.in, and this
# script writes DIR/NAME.in for it.  The output is the same on every run
# (no clock, no randomness), so a failure reproduces:
#   sh tests/bad/gen.sh /tmp/bad && ./build/npuscope tree /tmp/bad/deep-10000.in
# About 40 MB in all; a few seconds.
set -eu
out=${1:?usage: gen.sh DIR}
mkdir -p "$out"

# one complete MLIR --mlir-timing report (shares as MLIR prints them)
report() {
    cat <<'REPORT'
===-------------------------------------------------------------------------===
                         ... Execution time report ...
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0030 seconds

  ----Wall Time----  ----Name----
    0.0010 ( 33.3%)  Parser
    0.0010 ( 33.3%)  Canonicalizer
    0.0005 ( 16.7%)    (A) DominanceInfo
    0.0010 ( 33.3%)  Output
    0.0000 (  0.0%)  Rest
    0.0030 (100.0%)  Total
REPORT
}
header() { report | head -n 6; }

# a line of 1 MiB between two reports
{ report; awk 'BEGIN { s = "xxxxxxxxxxxxxxxx"; while (length(s) < 1048576) s = s s; print s }'; report; } >"$out/long-line.in"

# a pass name of 1 MiB inside a report
{ header
  awk 'BEGIN { s = "nnnnnnnnnnnnnnnn"; while (length(s) < 1048576) s = s s; print "    0.0010 ( 33.3%)  " s }'
  report | tail -n 2; } >"$out/long-name-1m.in"

# 10,000 rows, each nested one level (two spaces) deeper, no Total row
{ header
  awk 'BEGIN { ind = ""; for (i = 0; i < 10000; i++) { print "    0.0001 (  0.0%)  " ind "P" i; ind = ind "  " } }'; } >"$out/deep-10000.in"

# 100,000 complete reports, one after the other
awk 'BEGIN { b = "===-------------------------------------------------------------------------==="
    for (i = 0; i < 100000; i++) {
        print b; print "  ... Execution time report ..."; print b
        print "  Total Execution Time: 0.0010 seconds"; print ""; print "  ----Wall Time----  ----Name----"
        print "    0.0010 (100.0%)  P"; print "    0.0000 (  0.0%)  Rest"; print "    0.0010 (100.0%)  Total" } }' >"$out/reports-100000.in"

# MLIR JSON timing with 10,000 nested "passes" arrays
awk 'BEGIN { print "["
    for (i = 0; i < 10000; i++) printf "{\"wall\": {\"duration\": 0.0001, \"percentage\": 0.1}, \"name\": \"P%d\", \"passes\": [\n", i
    for (i = 0; i < 10000; i++) print "{}]},"
    print "{\"wall\": {\"duration\": 0.1000, \"percentage\": 100.0}, \"name\": \"Total\"}"; print "]" }' >"$out/mlir-json-deep-10000.in"

# a Chrome trace of 2,000 complete events, each inside the one before (the
# speedscope export repeats each sample's whole stack: 2,000 deep writes
# 10 MB, 10,000 deep 240 MB)
awk 'BEGIN { printf "{\"traceEvents\":["
    for (i = 0; i < 2000; i++) printf "%s{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":%d,\"name\":\"E%d\"}", (i ? "," : ""), i, 2 * (2000 - i), i
    print "]}" }' >"$out/trace-deep-2000.in"

# 300 lines of 4,000 letters and one line with the number: a --metric regex
# that starts with a repetition is tried at every position of every line
awk 'BEGIN { s = "dddddddddddddddd"; while (length(s) < 4000) s = s s; s = substr(s, 1, 4000)
             for (i = 0; i < 300; i++) print s "!"; print "x 42" }' >"$out/metric-slow-lines.in"

# MLIR JSON timing with 100,000 nested "passes" arrays (memory must stay
# linear in the depth: issue 13, item 11)
awk 'BEGIN { print "["
    for (i = 0; i < 100000; i++) printf "{\"wall\": {\"duration\": 0.0001, \"percentage\": 0.1}, \"name\": \"P%d\", \"passes\": [\n", i
    for (i = 0; i < 100000; i++) print "{}]},"
    print "{\"wall\": {\"duration\": 0.1000, \"percentage\": 100.0}, \"name\": \"Total\"}"; print "]" }' >"$out/mlir-json-deep-100000.in"

# run.json files, read by `table` as a run folder (NAME.args: RUNDIR).  A
# run that succeeded, in 1.5 s, with one kind of bulk:
run_head() { printf '{"format": "npuscope-run", "version": 1, "mode": "cold",\n "wall_s": 1.5, "exit_code": 0,\n'; }
# 100,000 "reports" entries that are not reports (each a warning; reading
# them was quadratic: the line of "reports" was searched once per entry)
{ run_head; awk 'BEGIN { printf " \"reports\": ["; for (i = 0; i < 100000; i++) printf "%s{\"x\": %d}", (i ? "," : ""), i; print "]}" }'; } >"$out/run-reports-100000.in"
# 100,000 metrics (the table's medians searched each run's list per name)
{ run_head; awk 'BEGIN { printf " \"metrics\": {"; for (i = 0; i < 100000; i++) printf "%s\"m%06d\": %d", (i ? "," : ""), i, i; print "}}" }'; } >"$out/run-metrics-100000.in"
# a report 3,000 levels deep: deeper than jansson reads (2,048)
{ run_head; awk 'BEGIN { printf " \"reports\": [{\"root\": "; for (i = 0; i < 3000; i++) printf "{\"name\": \"P%d\", \"wall_s\": 0.1, \"children\": [", i
    for (i = 0; i < 3000; i++) printf "]}"; print "}]}" }'; } >"$out/run-deep-report.in"

# shellcheck shell=bash
# run_pandas.sh -- npuscope's CSV and JSON tables read by pandas (Debian's
# python3-pandas), through tests/pandas_check.py: dtypes, NaN for missing
# values, the same values as npuscope's own text output, and the pandas
# recipe of docs/formats.md as written.
#
#   . tests/run_pandas.sh      from tests/run.sh (uses its check/ok/bad,
#                              $NPUSCOPE, $TMP)
#   bash tests/run_pandas.sh   alone: its own helpers, the notes, and
#                              "N passed, N failed"
#
# pandas_check.py runs every check in one python (pandas takes a second to
# import) and leaves one result file per check; each is one check here.
# What pandas makes of npuscope's output that a user must know (tag columns
# guessed as numbers, all-null JSON keys as None, ...) is printed as "note:"
# lines alone or with VERBOSE=1; they are findings, not failures.  Skipped,
# with a line that says so, only when python3-pandas cannot be installed.
# About 5 s.

if ! declare -F check >/dev/null 2>&1; then
    # alone: the suite's helpers and set-up (tests/lib.sh)
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    pd_alone=1
fi

PD=$TMP/pandas
mkdir -p "$PD"
# Debian's python3 has Debian's pandas; a python3 earlier on PATH (pyenv,
# a venv) may have none
PD_PY=${PANDAS_PYTHON:-/usr/bin/python3}
pd_have() { "$PD_PY" -c 'import pandas' >/dev/null 2>&1; }
pd_install() {
    [ "$(id -u)" -eq 0 ] || { echo "not root" >"$PD/apt.log"; return 1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pandas >"$PD/apt.log" 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 &&
          DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pandas >"$PD/apt.log" 2>&1; }
}

# one result: NN-name.ok or NN-name.fail, the title first, then what failed
pd_result() { tail -n +2 "$1"; case $1 in *.ok) return 0 ;; *) return 1 ;; esac; }

pd_have || pd_install
if ! pd_have; then
    pd_why=$(grep -v '^\s*$' "$PD/apt.log" 2>/dev/null | tail -n 1)
    echo "skipped: pandas checks (no pandas for $PD_PY: ${pd_why:-python3-pandas serves /usr/bin/python3 only})"
else
    "$PD_PY" tests/pandas_check.py --npuscope "$NPUSCOPE" --out "$PD/results" >"$PD/run.out" 2>&1
    pd_n=0
    for pd_f in "$PD"/results/[0-9]*; do
        [ -f "$pd_f" ] || continue
        check "pandas: $(head -n 1 "$pd_f")" pd_result "$pd_f"
        pd_n=$((pd_n + 1))
    done
    if [ "$pd_n" -eq 0 ]; then
        bad "pandas: tests/pandas_check.py ran no check"
        sed 's/^/     /' "$PD/run.out" | head -20
    fi
    if [ -n "${VERBOSE:-}${pd_alone:-}" ] && [ -s "$PD/results/notes.txt" ]; then
        sed 's/^/note: pandas: /' "$PD/results/notes.txt"
    fi
fi

if [ -n "${pd_alone:-}" ]; then
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi

#!/usr/bin/env bash
# check_docs.sh -- the help texts and the man page against the code's own
# tables: every option of every command's option table (listed by
# `npuscope CMD --completion-helper`) is in `npuscope CMD --help` and in
# docs/npuscope.1, and every exit code line of `npuscope --help` (printed
# from base/exit.h) is in the man page's EXIT STATUS section.
#
#   tests/check_docs.sh [NPUSCOPE]
# Prints one line per omission and "docs: N missing"; exits 1 if any.
set -u
cd "$(dirname "$0")/.." || exit 2
NS=${1:-${NPUSCOPE:-./build/npuscope}}
MAN=docs/npuscope.1
# the man page as text: roff's \- is '-', font changes go
man=$(sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\(em/--/g' "$MAN")
missing=0 seen=0
miss() { echo "docs: $*"; missing=$((missing + 1)); }
for cmd in tree top record sweep table fit diff stages advise report predict timeline; do
    opts=$("$NS" "$cmd" --completion-helper 2>/dev/null) || { miss "$cmd --completion-helper failed"; continue; }
    # a command still on hand-written options lists none; count what is listed
    help=$("$NS" "$cmd" --help)
    while read -r line; do
        [ -n "$line" ] || continue
        seen=$((seen + 1))
        # "-q, --quiet" -> check each spelling; drop the value name
        for o in $(echo "$line" | sed 's/,/ /; s/\[=.*\]//; s/ [^-].*//'); do
            case $o in -*) ;; *) continue ;; esac
            grep -qe "$o\b" <<<"$help" || miss "$cmd: $o is in the option table, not in '$cmd --help'"
            grep -qe "$o\b" <<<"$man" || miss "$cmd: $o is in the option table, not in $MAN"
        done
    done <<<"$opts"
done
[ "$seen" -gt 0 ] || miss "no command listed any option (--completion-helper)"
exits=$("$NS" --help | sed -n '/^exit codes:/,/^$/p' | sed '1d;$d')
[ -n "$exits" ] || miss "npuscope --help lists no exit codes"
section=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$MAN" | sed 's/\\-/-/g')
while read -r status what; do
    [ -n "$status" ] || continue
    grep -qxF -- "$what" <<<"$section" || miss "exit $status '$what' is not in the man page's EXIT STATUS"
done <<<"$exits"
if [ "$missing" -gt 0 ]; then echo "docs: $missing missing"; exit 1; fi
echo "docs: ok ($seen options, $(echo "$exits" | wc -l) exit codes)"

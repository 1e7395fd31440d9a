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
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\(em/--/g' "$MAN" >"$tmp/man"
missing=0 seen=0
miss() { echo "docs: $*"; missing=$((missing + 1)); }
for cmd in tree top record sweep table fit diff stages advise report predict timeline; do
    "$NS" "$cmd" --completion-helper >"$tmp/opts" 2>/dev/null || { miss "$cmd --completion-helper failed"; continue; }
    # a command still on hand-written options lists none; count what is listed
    "$NS" "$cmd" --help >"$tmp/help"
    # each spelling of each option ("-q, --quiet"; the value name dropped)
    # as a word (grep's "OPT\b") in the help and in the man page: one awk
    # for the command (a grep an option was 900 processes)
    awk -v cmd="$cmd" -v man_name="$MAN" '
        function has(text, o,   i, at, next_char) {
            for (at = 1; (i = index(substr(text, at), o)) > 0; at += i) {
                next_char = substr(text, at + i - 1 + length(o), 1)
                if (next_char !~ /[A-Za-z0-9_]/) return 1
            }
            return 0
        }
        FILENAME == ARGV[1] { man = man $0 "\n"; next }
        FILENAME == ARGV[2] { help = help $0 "\n"; next }
        NF {
            print "seen"
            line = $0; sub(/,/, " ", line); sub(/\[=.*\]/, "", line); sub(/ [^-].*/, "", line)
            n = split(line, spelling, " ")
            for (k = 1; k <= n; k++) {
                o = spelling[k]
                if (o !~ /^-/) continue
                if (!has(help, o)) print "docs: " cmd ": " o " is in the option table, not in \047" cmd " --help\047"
                if (!has(man, o)) print "docs: " cmd ": " o " is in the option table, not in " man_name
            }
        }' "$tmp/man" "$tmp/help" "$tmp/opts" >"$tmp/found"
    seen=$((seen + $(grep -c '^seen$' "$tmp/found")))
    grep '^docs: ' "$tmp/found"
    missing=$((missing + $(grep -c '^docs: ' "$tmp/found")))
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

#!/usr/bin/env bash
# layers.sh -- check that npuscope's dependencies point down (src/LAYERS).
#
#   tools/layers.sh [BUILD]      BUILD: the folder of objects (default build)
#
# Two checks, because either alone can be fooled:
#   includes  every `#include "LAYER/..."` in src/ names a layer at or below
#             the including file's own (read from the sources);
#   calls     every symbol an object uses is defined in an object of its own
#             layer or a lower one, and no objects of one layer use each
#             other around a loop (read from the objects with nm, so a call
#             declared by hand, without the header, is caught too).
# And one for the layers src/LAYERS marks "quiet" (parse, npu): their
# objects print nothing -- no stdio output, none of base/common.h's
# printing diagnostics -- because what they have to say goes to the sink
# their caller hands them (read from the objects with nm).
# And one for size: no src/*.[ch] file over 800 lines (NS_FILE_MAX), but
# for an allowlist of files "to be split this round" (LAYERS_TO_BE_SPLIT,
# empty now).
# And one for the platform layer: what POSIX and Windows do differently --
# processes (fork, exec*, wait*, kill, setpgid, setsid, prctl), poll/select,
# mmap, flock and fcntl, signal handling, termios and ioctl, uname, /proc --
# is called only by the objects of src/platform/ (read from the objects
# with nm; /proc from the sources), so a port is that folder alone.
# Prints one line per offence, `FILE:LINE: ...` for includes, then
# "layers: N offences" and exits 1 if there are any; 0 and "layers: ok"
# otherwise.  Needs the objects built (make).
set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${1:-build}
LAYERS=${LAYERS_FILE:-src/LAYERS}
[ -f "$LAYERS" ] || { echo "layers: $LAYERS not found" >&2; exit 2; }

# rank of each layer: 1 for the first line of src/LAYERS
ranks=$(grep -v '^[[:space:]]*\(#\|$\)' "$LAYERS" | awk '{ print $1, NR }')
[ -n "$ranks" ] || { echo "layers: $LAYERS names no layer" >&2; exit 2; }

offences=0

# ---------------------------------------------------------------- includes
# src/LAYER/.../file.c includes "OTHER/x.h": OTHER must rank <= LAYER.
# (one grep over every file, not one a file: process starts were most of
# this script's time)
inc=$(find src -mindepth 2 -name '*.[ch]' -print0 | sort -z |
    xargs -0 grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' /dev/null | awk -v ranks="$ranks" '
    BEGIN { n = split(ranks, r, "\n"); for (i = 1; i <= n; i++) { split(r[i], p, " "); rank[p[1]] = p[2] } }
    {
        file = $0; sub(/:.*/, "", file)
        line = $0; sub(/^[^:]*:/, "", line); sub(/:.*/, "", line)
        hdr = $0; sub(/^[^"]*"/, "", hdr); sub(/".*/, "", hdr)
        split(file, fp, "/"); mine = fp[2]
        if (!(mine in rank)) { printf "%s:%s: the folder %s is not in src/LAYERS\n", file, line, mine; next }
        if (hdr !~ /\//) next                      # a file of its own folder
        split(hdr, hp, "/"); theirs = hp[1]
        if (!(theirs in rank)) { printf "%s:%s: includes %s: %s is not a layer in src/LAYERS\n", file, line, hdr, theirs; next }
        if (rank[theirs] > rank[mine])
            printf "%s:%s: includes %s: %s may not use %s (it comes later in src/LAYERS)\n", file, line, hdr, mine, theirs
    }')
if [ -n "$inc" ]; then echo "$inc"; offences=$((offences + $(echo "$inc" | wc -l))); fi

# ---------------------------------------------------------------- calls
objs=$(find "$BUILD" -name '*.o' ! -name 'main.o' ! -name 'web_assets.o' 2>/dev/null | sort)
# keep only the objects of modules that exist in src/ (a stale object of a
# moved or deleted file would otherwise speak for code that is gone)
mods=""
for o in $objs; do
    rel=${o#"$BUILD"/}; src=src/${rel%.o}.c
    [ -f "$src" ] && mods="$mods $o"
done
[ -n "$mods" ] || { echo "layers: no objects in $BUILD (run make first)" >&2; exit 2; }
# nm -A prints "obj:[addr] TYPE name": T/D/B/R/C/V define a symbol, U uses one.
# shellcheck disable=SC2086
# one nm of every object (nm loads its plugins at each start): the calls
# check below reads all of it, the quiet and platform checks its undefined
# symbols
symbols=$(nm -A $mods 2>/dev/null)
calls=$(printf '%s\n' "$symbols" | awk -v ranks="$ranks" -v build="$BUILD/" '
    BEGIN { n = split(ranks, r, "\n"); for (i = 1; i <= n; i++) { split(r[i], p, " "); rank[p[1]] = p[2] } }
    # "build/parse/scan.o:0000000000000000 T ns_scan_path" or "build/x.o:  U sym"
    { obj = $1; sub(/:.*/, "", obj); sub("^" build, "", obj); sub(/\.o$/, ".c", obj) }
    NF == 3 && $2 ~ /^[TDBRCV]$/ { def[$3] = obj }
    NF == 3 && $2 == "U" { use[obj, $3] = 1; users[obj] = users[obj] " " $3 }
    END {
        for (k in use) {
            split(k, p, SUBSEP); o = p[1]; s = p[2]
            if (!(s in def)) continue            # libc, jansson, libm
            d = def[s]; if (d == o) continue
            split(o, a, "/"); split(d, b, "/")
            if (rank[b[1]] > rank[a[1]])
                printf "src/%s: calls %s (src/%s): %s may not use %s (it comes later in src/LAYERS)\n", o, s, d, a[1], b[1]
            if (a[1] == b[1]) edge[o, d] = s
        }
        # loops between files of one layer: depth-first search, white/grey/black
        for (e in edge) { split(e, p, SUBSEP); nodes[p[1]] = 1; nodes[p[2]] = 1; adj[p[1]] = adj[p[1]] " " p[2] }
        for (v in nodes) if (!(v in color)) dfs(v, "")
    }
    function dfs(v, path,    m, i, w, nb) {
        color[v] = 1; path = path " " v
        m = split(adj[v], nb, " ")
        for (i = 1; i <= m; i++) {
            w = nb[i]
            if ((w in color) && color[w] == 1) { cycle(path, w); continue }
            if (!(w in color)) dfs(w, path)
        }
        color[v] = 2
    }
    function cycle(path, w,    q, m, i, out, on) {
        m = split(path, q, " "); out = ""; on = 0
        for (i = 1; i <= m; i++) { if (q[i] == w) on = 1; if (on) out = out "src/" q[i] " -> " }
        printf "%ssrc/%s: these files of one layer call each other in a loop\n", out, w
    }' | sort)
if [ -n "$calls" ]; then echo "$calls"; offences=$((offences + $(echo "$calls" | wc -l))); fi

# ---------------------------------------------------------------- quiet layers
quiet=" $(grep -v '^[[:space:]]*\(#\|$\)' "$LAYERS" | awk '$2 == "quiet" { print $1 }' | tr '\n' ' ')"
prints='^(printf|fprintf|vprintf|vfprintf|dprintf|puts|fputs|putchar|fputc|putc|perror|fwrite|write|stdout|stderr|__[a-z]*printf_chk|ns_warn_at|ns_error_at|ns_error|ns_note_at|ns_diag_print|ns_diag_stderr|ns_diag_summary)$'
# (one nm for every object: nm starts slowly -- it loads its plugins --
# and once an object made this script take 20 s)
# shellcheck disable=SC2086
undefined=$(printf '%s\n' "$symbols" | awk 'NF == 3 && $2 == "U"')
# offenders RE MESSAGE LAYERS: "src/FILE.c: MESSAGE" (%s: the symbol, then
# the layer) for each undefined symbol matching RE in an object of one of
# LAYERS (" a b "; "*": every layer but platform)
offenders() {
    printf '%s\n' "$undefined" | awk -v build="$BUILD/" -v re="$1" -v msg="$2" -v layers="$3" '
        NF >= 2 {
            obj = $1; sub(/:.*/, "", obj); sub("^" build, "", obj)
            layer = obj; sub(/\/.*/, "", layer)
            if (layers == "*" ? layer == "platform" : !index(layers, " " layer " ")) next
            sym = $NF; sub(/@.*/, "", sym)
            if (sym !~ re) next
            sub(/\.o$/, ".c", obj)
            printf "src/%s: " msg "\n", obj, sym, layer
        }'
}
loud=$(offenders "$prints" "uses %s: the quiet layer %s prints nothing (src/LAYERS); hand the message to the caller's sink" "$quiet")
loud=$(printf '%s' "$loud" | sort)
if [ -n "$loud" ]; then echo "$loud"; offences=$((offences + $(echo "$loud" | wc -l))); fi

# ---------------------------------------------------------------- file size
# Files of one job: no src/*.[ch] over NS_FILE_MAX lines (800, the
# project's rule).  The allowlist names files that other changes of a
# round are splitting, "to be split this round", space-separated paths in
# LAYERS_TO_BE_SPLIT; it is empty now (every file is under the limit) and
# is emptied again when such changes are merged.
NS_FILE_MAX=${NS_FILE_MAX:-800}
to_be_split=" ${LAYERS_TO_BE_SPLIT:-} "
long=$(find src -name '*.[ch]' -print0 | sort -z | xargs -0 wc -l | awk '$2 != "total"' | while read -r n f; do
    [ "$n" -gt "$NS_FILE_MAX" ] || continue
    case "$to_be_split" in *" $f "*) continue ;; esac  # to be split this round
    echo "$f:$n: $n lines: more than $NS_FILE_MAX; break it into files of one job"
done)
if [ -n "$long" ]; then echo "$long"; offences=$((offences + $(echo "$long" | wc -l))); fi
# ---------------------------------------------------------------- platform calls
osonly='^(fork|vfork|execv|execve|execvp|execvpe|execl|execlp|execle|fexecve|posix_spawn|posix_spawnp|wait|waitpid|wait3|wait4|waitid|kill|killpg|setpgid|setsid|prctl|poll|ppoll|select|pselect|mmap|mmap64|munmap|mprotect|madvise|posix_madvise|flock|lockf|fcntl|fcntl64|signal|sigaction|sigprocmask|pthread_sigmask|sigemptyset|sigfillset|sigaddset|raise|alarm|ioctl|tcgetattr|tcsetattr|cfmakeraw|uname|syscall|CreateProcessW|CreateProcessA|TerminateProcess|TerminateJobObject|MapViewOfFile|LockFileEx|SetConsoleCtrlHandler|GetConsoleMode|SetConsoleMode|MoveFileExW)$'
plat=$(offenders "$osonly" "calls %s: what differs between POSIX and Windows is the platform layer's (src/platform/plat.h)" "*")
[ -n "$plat" ] && plat="$plat
"
procs=$(find src -name '*.c' ! -path 'src/platform/*' -exec grep -Hn '"/proc[/"]' {} + 2>/dev/null | sort |
    sed 's/^\([^:]*:[0-9]*\):.*/\1: reads \/proc: what differs between POSIX and Windows is the platform layer'"'"'s (src\/platform\/plat.h)/')
[ -n "$procs" ] && plat="${plat}${procs}
"
plat=$(printf '%s' "$plat" | sort)
if [ -n "$plat" ]; then echo "$plat"; offences=$((offences + $(echo "$plat" | wc -l))); fi

if [ "$offences" -gt 0 ]; then echo "layers: $offences offences"; exit 1; fi
echo "layers: ok"

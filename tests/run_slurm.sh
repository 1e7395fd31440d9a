# shellcheck shell=bash
# run_slurm.sh -- sharded sweeps on a real Slurm cluster: a one-host cluster
# of Debian's munge, slurmctld and slurmd, started here and stopped here.
#
#   . tests/run_slurm.sh      from tests/run.sh (uses its check/ok/bad,
#                             $NPUSCOPE, $TMP)
#   bash tests/run_slurm.sh   alone: its own helpers and "N passed, N failed"
#
# The cluster: a slurm.conf written here, every state, spool, log, pid and
# socket file in a temporary folder, the daemons started directly (no
# systemd) and listening on 127.0.0.1 only, stopped by a trap whatever
# happens; the last check proves nothing of it is left running.  On it:
#   1. examples/slurm-sweep.sh as a user submits it: sbatch --array=0-3
#      --wait, each task one shard of 8 cells x 2 real mlir-opt-22 compiles;
#      the shards merged by the documented cp are the unsharded sweep (the
#      same run ids, the same table rows, n and failures; timings aside);
#   2. one array task cancelled (scancel JOB_2) mid-run -- its second cell
#      reads its input from a FIFO, so the task is caught inside a compile --
#      and submitted again: the shard finishes, nothing twice, nothing
#      lost, the runs it had kept untouched, the cut-off run left under a
#      dotted name (docs/recording.md, sections 6 and 8);
#   3. docs/recording.md shows examples/slurm-sweep.sh byte for byte.
# Skipped, with a line that says so, only when the packages cannot be
# installed (not root, or apt fails); about 40 s on two cores.

if ! declare -F check >/dev/null 2>&1; then
    # alone: the suite's helpers and set-up (tests/lib.sh)
    # shellcheck source=tests/lib.sh
    . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
    sl_alone=1
fi

SL=$TMP/slurm
mkdir -p "$SL"
SL_NS=$(cd "$(dirname "$NPUSCOPE")" && pwd)/$(basename "$NPUSCOPE")

# ---------------------------------------------------------------- docs
# the recipe in docs/recording.md is the example, byte for byte: the fenced
# block that opens with the example's first two lines
sl_docs() {
    awk 'f && /^```$/ { exit } f { print } /^```bash$/ { getline a; getline b
             if (a == "#!/bin/bash" && b ~ /^# slurm-sweep\.sh -- /) { f = 1; print a; print b } }' \
        docs/recording.md >"$SL/doc.sh"
    [ -s "$SL/doc.sh" ] || { echo "no slurm-sweep.sh block in docs/recording.md"; return 1; }
    diff "$SL/doc.sh" examples/slurm-sweep.sh
}
check "slurm: docs/recording.md shows examples/slurm-sweep.sh as it is" sl_docs

# ---------------------------------------------------------------- the cluster
sl_have() {
    local c
    for c in munged mungekey slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
        command -v "$c" >/dev/null 2>&1 || { sl_missing=$c; return 1; }
    done
}
sl_install() {
    [ "$(id -u)" -eq 0 ] || { echo "not root" >"$SL/apt.log"; return 1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >"$SL/apt.log" 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 &&
          DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >"$SL/apt.log" 2>&1; }
}

SL_PIDS=()   # munged, slurmctld, slurmd: started here, stopped by sl_down
sl_conf=$SL/etc/slurm.conf
sl_cmd() { SLURM_CONF=$sl_conf "$@"; }

# a TCP port nobody listens on (from /proc/net/tcp*, no ss needed)
sl_port() {
    local p hex
    for p in $(shuf -i 20000-59999 -n 50); do
        hex=$(printf ':%04X ' "$p")
        grep -q "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null || { echo "$p"; return 0; }
    done
    return 1
}

sl_up() {
    local d node cpus i
    mkdir -p "$SL"/{etc,munge,state,spool,log,jobs} || return 1
    # munged wants its socket's folder, and every folder above it, open to
    # all (execute): a folder of its own, not inside the private $TMP
    SL_RUN=$(mktemp -d) && chmod 755 "$SL_RUN" || return 1
    chmod 700 "$SL/munge" || return 1
    mungekey --create --keyfile="$SL/munge/munge.key" || return 1
    munged -F --socket="$SL_RUN/munge.sock" --key-file="$SL/munge/munge.key" \
        --pid-file="$SL_RUN/munged.pid" --log-file="$SL/log/munged.log" \
        --seed-file="$SL/munge/munged.seed" >"$SL/log/munged.out" 2>&1 &
    SL_PIDS+=($!)
    wait_for 60 test -S "$SL_RUN/munge.sock"
    [ -S "$SL_RUN/munge.sock" ] || { echo "munged did not start:"; cat "$SL/log/munged.out"; return 1; }

    node=$(hostname -s) cpus=$(nproc)
    SL_CTLD_PORT=$(sl_port) || { echo "no free port"; return 1; }
    SL_D_PORT=$(sl_port) || { echo "no free port"; return 1; }
    [ "$SL_CTLD_PORT" != "$SL_D_PORT" ] || SL_D_PORT=$((SL_CTLD_PORT + 1))
    cat >"$sl_conf" <<EOF
# a one-host cluster for tests/run_slurm.sh; every path in a temporary folder
ClusterName=npuscope-test
SlurmctldHost=$node(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SL_RUN/munge.sock
SlurmctldPort=$SL_CTLD_PORT
SlurmdPort=$SL_D_PORT
# bind to the address the names resolve to (127.0.0.1), not to every address
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL_RUN/slurmctld.pid
SlurmdPidFile=$SL_RUN/slurmd.pid
SlurmctldLogFile=$SL/log/slurmctld.log
SlurmdLogFile=$SL/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
KillWait=5
# sbatch --wait polls every 2 s only while that is under MinJobAge/2 (then 8, 32)
MinJobAge=4
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    sl_cmd slurmctld -D -f "$sl_conf" >"$SL/log/slurmctld.out" 2>&1 &
    SL_PIDS+=($!)
    sl_cmd slurmd -D -f "$sl_conf" -N "$node" >"$SL/log/slurmd.out" 2>&1 &
    SL_PIDS+=($!)
    sl_idle() { [ "$(sl_cmd sinfo -h -N -o %T 2>/dev/null)" = idle ]; }
    wait_for 120 sl_idle
    [ "$(sl_cmd sinfo -h -N -o %T 2>/dev/null)" = idle ] ||
        { echo "the node is not idle:"; sl_cmd sinfo -N 2>&1; tail -n 20 "$SL"/log/slurm*.log "$SL"/log/*.out; return 1; }
    # both daemons listen, on 127.0.0.1 only (0100007F), nothing on IPv6
    local p
    for p in "$SL_CTLD_PORT" "$SL_D_PORT"; do
        hex=$(printf '%04X' "$p")
        awk -v h=":$hex" '$2 ~ h"$" && $4 == "0A" { print $2 }' /proc/net/tcp >"$SL/listen"
        [ "$(cat "$SL/listen")" = "0100007F:$hex" ] || { echo "port $p: listening on $(cat "$SL/listen")"; return 1; }
        ! awk -v h=":$hex" '$2 ~ h"$" && $4 == "0A"' /proc/net/tcp6 | grep -q . || { echo "port $p on IPv6"; return 1; }
    done
    SL_UP=1
}

# every process of this cluster: the daemons and whatever they started
# (slurmstepd, job scripts, npuscope, compilers) carry SLURM_CONF=$sl_conf
sl_procs() {
    local e
    for e in /proc/[0-9]*/environ; do
        { tr '\0' '\n' <"$e"; } 2>/dev/null | grep -qxF "SLURM_CONF=$sl_conf" && { e=${e#/proc/}; echo "${e%/environ}"; }
    done
    for e in "${SL_PIDS[@]}"; do kill -0 "$e" 2>/dev/null && echo "$e"; done
}

sl_down() {
    [ -f "$sl_conf" ] || return 0
    local i p ctld=${SL_PIDS[1]:-}
    if [ -n "$ctld" ] && kill -0 "$ctld" 2>/dev/null; then
        sl_cmd scancel --quiet --partition=test 2>/dev/null
        for i in $(seq 100); do [ -z "$(sl_cmd squeue -h 2>/dev/null)" ] && break; sleep 0.1; done
    fi
    # slurmd, slurmctld, munged, in that order; then anything left
    for ((i = ${#SL_PIDS[@]} - 1; i >= 0; i--)); do
        p=${SL_PIDS[i]}
        kill -TERM "$p" 2>/dev/null || continue
        for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$p" 2>/dev/null
        wait "$p" 2>/dev/null
    done
    for p in $(sl_procs | sort -u); do [ "$p" != $$ ] && kill -KILL "$p" 2>/dev/null; done
    return 0
}

sl_clean() { [ -z "${SL_RUN:-}" ] || rm -rf "$SL_RUN"; }

# the trap: stop the cluster, then whatever the EXIT trap did before
sl_prev_trap=$(trap -p EXIT) sl_prev_sig=$(trap -p INT TERM)
sl_prev_cmd() { # 'trap -- CMD EXIT' -> CMD
    [ -n "$sl_prev_trap" ] || return 0
    local -a w
    eval "w=(${sl_prev_trap#trap -- })"
    printf '%s' "${w[0]}"
}
# shellcheck disable=SC2064 # the previous command is expanded now, on purpose
trap "sl_down; sl_clean; $(sl_prev_cmd)" EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- sweeps
# 8 cells (module size) x 2 real compiles; examples/slurm-sweep.sh gets the
# sweep as its arguments
sl_inputs() { # sl_inputs DIR
    local n
    mkdir -p "$1"
    for n in 100 200 300 400 500 600 700 800; do
        awk -v n=$n 'BEGIN { for (i = 0; i < n * 2; i++) {
            printf "func.func @f%d(%%a: i32, %%b: i32) -> i32 {\n", i
            printf "  %%0 = arith.addi %%a, %%b : i32\n  %%1 = arith.muli %%0, %%a : i32\n"
            printf "  %%2 = arith.addi %%1, %%0 : i32\n  return %%2 : i32\n}\n" } }' >"$1/in-$n.mlir"
    done
}
sl_sweep() { # sl_sweep INPUT-DIR: the sweep's arguments, one a line
    printf '%s\n' -q -n 2 -L n=100,200,300,400,500,600,700,800 -- mlir-opt-22 --mlir-timing \
        '--pass-pipeline=builtin.module(inline,func.func(canonicalize,cse),convert-to-llvm)' \
        "$1/in-{n}.mlir" -o /dev/null
}
# sbatch ARGS... examples/slurm-sweep.sh with the sweep of INPUT-DIR, OUT as given
sl_submit() { # sl_submit OUT INPUT-DIR SBATCH-ARGS...
    local out=$1 in=$2 args=(); shift 2
    mapfile -t args < <(sl_sweep "$in")
    (cd "$SL/jobs" && OUT=$out NPUSCOPE=$SL_NS SHARDS=4 timeout 300 \
        env SLURM_CONF="$sl_conf" sbatch "$@" -o "$SL/jobs/%A_%a.out" \
        "$OLDPWD/examples/slurm-sweep.sh" "${args[@]}")
}
sl_ids() { find "$1" -mindepth 1 -maxdepth 1 ! -name '.*' -printf '%f\n' | sort; }
sl_rows() { "$SL_NS" table -q --format json "$1" | jq -c '[.rows[] | {tags, mode, n, failures, warmups, primers}]'; }
sl_merge() { # the documented merge: mkdir -p OUT/all && cp -r OUT/shard-*/* OUT/all/
    mkdir -p "$1/all" && cp -r "$1"/shard-*/* "$1/all/"
}

sl_array() {
    local a=() j
    sl_inputs "$SL/in"
    mapfile -t a < <(sl_sweep "$SL/in")
    "$SL_NS" sweep -o "$SL/whole" "${a[@]}" || { echo "the unsharded sweep failed"; return 1; }
    sl_submit "$SL/sharded" "$SL/in" --array=0-3 --wait >"$SL/submit.out" 2>&1 ||
        { echo "sbatch --wait failed:"; cat "$SL/submit.out" "$SL"/jobs/*.out; return 1; }
    j=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$SL/submit.out")
    # four array tasks ran it, each its own shard, as Slurm numbered them
    [ "$(find "$SL/jobs" -name "${j}_[0-3].out" | wc -l)" -eq 4 ] || { ls "$SL/jobs"; return 1; }
    for k in 0 1 2 3; do
        [ -s "$SL/jobs/${j}_$k.out" ] && { echo "task $k said:"; cat "$SL/jobs/${j}_$k.out"; return 1; }
        diff <(sl_ids "$SL/sharded/shard-$k") \
             <("$SL_NS" sweep --dry-run --shard $k/4 -o "$SL/none" "${a[@]}" | cut -f1 | sort) ||
            { echo "shard $k holds other runs than its plan"; return 1; }
    done
    sl_merge "$SL/sharded" || return 1
    diff <(sl_ids "$SL/whole") <(sl_ids "$SL/sharded/all") || { echo "run ids differ"; return 1; }
    [ "$(sl_ids "$SL/whole" | wc -l)" -eq 16 ] || return 1
    sl_rows "$SL/whole" >"$SL/rows.whole" && sl_rows "$SL/sharded/all" >"$SL/rows.sharded" || return 1
    diff "$SL/rows.whole" "$SL/rows.sharded" || { echo "table rows differ"; return 1; }
    jq -e 'length == 8 and all(.[]; .n == 2 and .failures == 0)' "$SL/rows.sharded" >/dev/null ||
        { cat "$SL/rows.sharded"; return 1; }
    # and each run kept the compile's report
    local d
    for d in "$SL"/sharded/all/*/; do
        jq -e '.ok and (.reports | length) == 1 and .reports[0].complete' "$d/run.json" >/dev/null ||
            { echo "$d"; return 1; }
    done
}

sl_cancel() {
    local a=() j i k=2 ids before out=$SL/k
    sl_inputs "$SL/kin"
    mapfile -t a < <(sl_sweep "$SL/kin")
    # shard 2 runs n=300 then n=700 (interleaved: r01 of each, then r02);
    # n=700 reads a FIFO nobody writes, so the task is caught in a compile
    "$SL_NS" sweep --dry-run --shard $k/4 -o "$SL/none" "${a[@]}" | cut -f1 >"$SL/plan2"
    [ "$(sed -n 2p "$SL/plan2")" = "$(grep '^n-700-.*-r01$' "$SL/plan2")" ] || { cat "$SL/plan2"; return 1; }
    rm "$SL/kin/in-700.mlir" && mkfifo "$SL/kin/in-700.mlir" || return 1
    sl_submit "$out" "$SL/kin" --array=0-3 >"$SL/submit2.out" 2>&1 || { cat "$SL/submit2.out"; return 1; }
    j=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$SL/submit2.out")
    [ -n "$j" ] || { cat "$SL/submit2.out"; return 1; }
    # wait for task 2 to hold n=300 r01 and be inside n=700 r01
    for i in $(seq 1200); do
        [ -d "$out/shard-$k/$(sed -n 1p "$SL/plan2")" ] &&
            ls -d "$out/shard-$k"/.tmp-n-700-* >/dev/null 2>&1 && break
        sleep 0.1
    done
    ls -d "$out/shard-$k"/.tmp-n-700-* >/dev/null 2>&1 ||
        { echo "task $k never reached its second compile"; sl_cmd squeue; ls -a "$out"/*; return 1; }
    before=$(md5sum "$out/shard-$k"/n-*/run.json)
    sl_cmd scancel "${j}_$k" || return 1
    for i in $(seq 1200); do [ -z "$(sl_cmd squeue -h -j "$j" 2>/dev/null)" ] && break; sleep 0.1; done
    [ -z "$(sl_cmd squeue -h -j "$j")" ] || { echo "the array did not end"; sl_cmd squeue; return 1; }
    # slurmstepd says so in the task's output
    grep -q "CANCELLED" "$SL/jobs/${j}_$k.out" || { echo "task $k not cancelled:"; cat "$SL/jobs/${j}_$k.out"; return 1; }
    # the shard kept what it finished, nothing of the cut-off run but a dotted folder
    [ "$(sl_ids "$out/shard-$k")" = "$(sed -n 1p "$SL/plan2")" ] || { ls -a "$out/shard-$k"; return 1; }
    find "$out/shard-$k" -mindepth 1 -maxdepth 1 -regextype egrep \
        -regex '.*/\.(interrupted|tmp)-n-700-[0-9a-f]{8}-none-r01-[0-9-]+' -printf '%f\n' >"$SL/cut"
    [ -s "$SL/cut" ] || { echo "the cut-off run left no trace:"; ls -a "$out/shard-$k"; return 1; }
    echo "left by the cancelled task: $(cat "$SL/cut")"
    # the input is there now; the same task again
    rm "$SL/kin/in-700.mlir" && cp "$SL/kin/in-600.mlir" "$SL/kin/in-700.mlir" || return 1
    sl_submit "$out" "$SL/kin" --array=$k --wait >"$SL/submit3.out" 2>&1 ||
        { echo "resubmitted task failed:"; cat "$SL/submit3.out" "$SL"/jobs/*.out; return 1; }
    diff <(sl_ids "$out/shard-$k") <(sort "$SL/plan2") || { echo "shard $k after the resubmit"; return 1; }
    [ "$(md5sum "$out/shard-$k/$(sed -n 1p "$SL/plan2")/run.json")" = "$before" ] ||
        { echo "a finished run was touched"; return 1; }
    # merged: every run of the sweep once, all counted, nothing dotted copied
    sl_merge "$out" || return 1
    ids=$(sl_ids "$out/all")
    [ "$(echo "$ids" | wc -l)" -eq 16 ] || { echo "$ids"; return 1; }
    [ -z "$(echo "$ids" | uniq -d)" ] || { echo "twice: $(echo "$ids" | uniq -d)"; return 1; }
    diff <(echo "$ids") <("$SL_NS" sweep --dry-run -o "$SL/none" "${a[@]}" | cut -f1 | sort) || return 1
    [ -z "$(find "$out/all" -mindepth 1 -maxdepth 1 -name '.*')" ] || { echo "a dotted folder was merged"; return 1; }
    sl_rows "$out/all" | jq -e 'length == 8 and all(.[]; .n == 2 and .failures == 0)' >/dev/null
}

# check NAME FN, but in this shell (check runs FN in a subshell)
sl_check() {
    local name=$1; shift
    if "$@" >"$SL/check.out" 2>&1; then ok "$name"
    else bad "$name"; sed 's/^/     /' "$SL/check.out" | head -20; fi
}

sl_nothing_left() {
    sl_down
    local left; left=$(sl_procs | sort -u)
    if [ -n "$left" ]; then
        echo "still running (now killed):"
        for p in $left; do { tr '\0' ' ' </proc/"$p"/cmdline; } 2>/dev/null; echo; kill -KILL "$p" 2>/dev/null; done
        return 1
    fi
    [ ! -S "$SL_RUN/munge.sock" ] || { echo "munged left its socket"; return 1; }
    [ -z "$(find "$SL/spool" -type s 2>/dev/null)" ] || { echo "a job step's socket is left:"; find "$SL/spool" -type s; return 1; }
    sl_clean
}

if [ -n "${NPUSCOPE_INNER:-}" ]; then
    : # the sanitized inner run of tests/run.sh: the outer run has the cluster
else
    sl_have || sl_install munge slurmctld slurmd slurm-client
    if ! sl_have; then
        sl_why=$(grep -v '^\s*$' "$SL/apt.log" 2>/dev/null | tail -n 1)
        sl_skip_msg="no slurm ($sl_missing not found after installing munge slurmctld slurmd slurm-client: ${sl_why:-no message})"
        if declare -F skip >/dev/null; then skip "$sl_skip_msg"; else echo "skipped: $sl_skip_msg"; fi
    else
        # in this shell, not check's subshell: the cluster's state (SL_RUN,
        # SL_PIDS, SL_UP) must reach the checks after it
        sl_check "slurm: a one-host cluster (munge, slurmctld, slurmd) up, on 127.0.0.1 only" sl_up
        if [ -n "${SL_UP:-}" ]; then
            check "slurm: sbatch --array=0-3 --wait examples/slurm-sweep.sh: 4 shards merged = the unsharded sweep" sl_array
            check "slurm: one array task scancel'ed mid-compile and resubmitted: no duplicates, nothing lost" sl_cancel
        else
            bad "slurm: the cluster did not come up, so the job-array checks did not run"
        fi
        sl_check "slurm: daemons stopped, nothing of the cluster left running" sl_nothing_left
    fi
fi
trap - INT TERM
eval "$sl_prev_sig"
eval "${sl_prev_trap:-trap - EXIT}"

if [ -n "${sl_alone:-}" ]; then
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi

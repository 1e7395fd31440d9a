# stagemap.awk -- a constructed NPU timing report from a pipeline-walk list,
# and the stage each of its rows should get.  Used by tests/run_stagemap.sh.
#
#   awk -v VARIANT=default -v SHAPE=2025 -v EXPECT=FILE -f tests/stagemap/stagemap.awk \
#       tests/stagemap/intent.txt tests/stagemap/vpux-2026-npu50xx.passes > report.txt
#
# The first file is the intent (tests/stagemap/intent.txt: which stage the
# passes of each pipeline builder belong to, written down from the
# compiler's source, not from npuscope); the second a list made by
# tools/vpux-pipeline.py.  The passes of the list that run in VARIANT (its
# `runs` column) become, in list order, one MLIR timing report in the text
# tree format (upstream MLIR's Timing.cpp: "  %8.4f (%5.1f%%)  " and two
# spaces of indent per level), in the NPU compiler's tree shape:
#   SHAPE=2025  Import network / Compile network > IE to VPUIP pipeline (the
#               main passes) and ELF pipeline > Build compilation pipeline,
#               then the ELF passes
#   SHAPE=2024  Import network / Build compilation pipeline / Compile network
#               holding the main passes and then the ELF passes, flat
# Consecutive function passes are grouped under a 'func.func' Pipeline row,
# as MLIR's pass manager groups them.  Times are invented: fixed numbers of
# 0.1 ms from the row's position, every parent the sum of its own time and
# its children's, Total the sum of the top level and Rest.
#
# EXPECT gets one line per row of the report, in the order `npuscope stages`
# lists them: "EXPECTED<TAB>NAME<TAB>SEQ<TAB>BUILDER", where EXPECTED is a
# stage, "A|B" (either: a 'func.func' Pipeline row is in the range of the row
# before it or of its first pass), or "-" (not checked).
#
# Intent rules (first match decides; see intent.txt for the reasons):
#   [@LIST[,LIST]] pass NAME -> STAGE          every occurrence of the pass
#   scope elf -> STAGE                         every pass of the ELF pass manager
#   [@LIST[,LIST]] BUILDER -> STAGE            the passes a builder adds itself
#   [@LIST[,LIST]] BUILDER from PASS -> STAGE  from PASS on, within one call of
#                                              the builder (forward only)
#   key PASS -> STAGE                          checked by the test, not here

function applies(lists,    n, a, k) {
    if (lists == "") return 1
    n = split(lists, a, ",")
    for (k = 1; k <= n; k++) if (a[k] == LISTNAME) return 1
    return 0
}
function node(d, name, t, want, seq, builder) {
    n++; dep[n] = d; nm[n] = name; selfw[n] = t; ex[n] = want; sq[n] = seq; bl[n] = builder
}
function row(t, ind, name,    k, s) {
    s = sprintf("  %8.4f (%5.1f%%)  ", t / 10000, 100.0 * t / TW)
    for (k = 0; k < ind; k++) s = s " "
    print s name
}
function intent(i,    b, k, m, a, key, nf, gone) {
    if (("pass" SUBSEP pname[i]) in prule) return prule["pass" SUBSEP pname[i]]
    if (pscope[i] == "elf" && elfstage != "") return elfstage
    b = pbuilder[i]
    # a builder's "from" state lasts for one call: forget the builders this
    # row is not inside of
    m = split(pchain[i], a, / > /)
    split("", inchain)
    for (k = 1; k <= m; k++) inchain[a[k]] = 1
    inchain[b] = 1
    nf = 0
    for (key in state) if (!(key in inchain)) gone[++nf] = key
    for (k = 1; k <= nf; k++) { delete state[gone[k]]; delete fired[gone[k]] }
    for (k = (b in fired ? fired[b] + 1 : 1); k <= nfrom[b]; k++)
        if (frompass[b, k] == pname[i]) { fired[b] = k; state[b] = fromstage[b, k]; break }
    if (b in state) return state[b]
    if (b in base) return base[b]
    return "?no-intent"
}
# ---- the intent file
FNR == NR {
    if ($0 ~ /^[ \t]*(#|$)/) next
    lists = ""
    if ($1 ~ /^@/) { lists = substr($1, 2); sub(/^[ \t]*@[^ \t]+[ \t]+/, ""); $0 = $0 }
    if (!applies(lists)) next
    if ($1 == "key") next
    if ($1 == "pass" && $3 == "->") { prule["pass" SUBSEP $2] = $4; next }
    if ($1 == "scope" && $2 == "elf" && $3 == "->") { elfstage = $4; next }
    if ($2 == "->") { base[$1] = $3; next }
    if ($2 == "from" && $4 == "->") { k = ++nfrom[$1]; frompass[$1, k] = $3; fromstage[$1, k] = $5; next }
    printf "stagemap.awk: %s:%d: not an intent rule: %s\n", FILENAME, FNR, $0 > "/dev/stderr"
    bad = 1
    next
}
# ---- the list
/^#/ { next }
{
    split($0, f, "\t")
    if (("," f[6] ",") !~ ("," VARIANT ",")) next
    np++
    pseq[np] = f[1]; pscope[np] = f[2]; pname[np] = f[3]; pkind[np] = f[4]
    pbuilder[np] = f[7]; pcond[np] = f[9]; pchain[np] = f[10]
}
END {
    if (bad) exit 2
    for (i = 1; i <= np; i++) pexp[i] = intent(i)
    if (SHAPE == 2024) {
        node(0, "Import network", 40, "frontend")
        node(1, "Common nGraph passes", 4462, "frontend")
        node(1, "Add CNNNetwork Operation", 16, "frontend")
        node(1, "Import nGraph function", 1382, "frontend")
        node(1, "Validate MLIR module", 24, "frontend")
        node(0, "Build compilation pipeline", 118, "other")
        node(0, "Compile network", 30, "other")
        base_d = 1
    } else {
        node(0, "Import network", 40, "frontend")
        node(1, "Common nGraph passes", 4462, "frontend")
        node(1, "Add NetworkInfo Operation", 16, "frontend")
        node(1, "Import nGraph function", 1382, "frontend")
        node(1, "Validate MLIR module", 24, "frontend")
        node(0, "Compile network", 30, "other")
        node(1, "IE to VPUIP pipeline", 20, "other")
        base_d = 2
    }
    ingroup = 0; prev = ""
    for (i = 1; i <= np; i++) {
        if (SHAPE != 2024 && pscope[i] == "elf" && !elfopen) {
            node(1, "ELF pipeline", 10, "serialization")
            node(2, "Build compilation pipeline", 103, "serialization")
            elfopen = 1; ingroup = 0
        }
        nested = (pcond[i] ~ /\[nested: .*Const::DeclareOp/)
        if (pkind[i] == "function" || nested) {
            if (!ingroup) {
                node(base_d, "'func.func' Pipeline", 2, prev "|" pexp[i])
                ingroup = 1
            }
            if (nested) {
                node(base_d + 1, "'const.Declare' Pipeline", 1, "-")
                node(base_d + 2, pname[i], 1 + (pseq[i] * 37) % 400, pexp[i], pseq[i], pbuilder[i])
            } else {
                node(base_d + 1, pname[i], 1 + (pseq[i] * 37) % 400, pexp[i], pseq[i], pbuilder[i])
            }
        } else {
            ingroup = 0
            node(base_d, pname[i], 1 + (pseq[i] * 37) % 400, pexp[i], pseq[i], pbuilder[i])
        }
        prev = pexp[i]
    }
    # a pipeline row whose range is that of the row before it or of its
    # first pass: with no row before it, only the latter
    for (i = 1; i <= n; i++) if (ex[i] ~ /^\|/) ex[i] = substr(ex[i], 2)
    # inclusive times, bottom-up
    for (d = 0; d <= 8; d++) aw[d] = 0
    for (i = n; i >= 1; i--) {
        d = dep[i]
        tw[i] = selfw[i] + aw[d + 1]
        aw[d + 1] = 0
        aw[d] += tw[i]
    }
    restw = 7
    TW = aw[0] + restw
    print "===-------------------------------------------------------------------------==="
    print "                         ... Execution time report ..."
    print "===-------------------------------------------------------------------------==="
    printf "  Total Execution Time: %.4f seconds\n\n", TW / 10000
    print "  ----Wall Time----  ----Name----"
    for (i = 1; i <= n; i++) {
        row(tw[i], 2 * dep[i], nm[i])
        if (EXPECT != "") printf "%s\t%s\t%s\t%s\n", ex[i], nm[i], sq[i], bl[i] > EXPECT
    }
    row(restw, 0, "Rest")
    row(TW, 0, "Total")
}

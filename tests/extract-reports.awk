# extract-reports.awk -- print the timing reports found in a log, exactly as
# they stand, and nothing else.  An independent (and deliberately naive)
# second reading of the formats, used to prove that `npuscope tree --format
# original` reproduces every report byte for byte.
#   MLIR/LLVM text: from a "===---===" banner line through the "Total" row
#                   (LLVM: and the blank line after it)
#   MLIR JSON:      from a "[" line followed by an entry through the "]" line
function flush_json() { if (jbuf != "") printf "%s", jbuf; jbuf = "" }
{
    if (state == "") {
        if ($0 ~ /^===-+===$/) { state = "text"; llvm = 0; print; next }
        if ($0 == "[") { state = "json?"; jbuf = $0 "\n"; next }
        next
    }
    if (state == "json?") {
        if ($0 ~ /^\{"(user|wall)": \{"duration":/) { state = "json"; jbuf = jbuf $0 "\n"; next }
        state = ""; jbuf = ""
        if ($0 ~ /^===-+===$/) { state = "text"; llvm = 0; print }
        next
    }
    if (state == "json") {
        jbuf = jbuf $0 "\n"
        if ($0 == "]") { flush_json(); state = "" }
        next
    }
    if (state == "text") {
        print
        if ($0 ~ /wall clock\)$/ || $0 ~ /--- Name ---$/) llvm = 1
        if ($0 ~ /%\)  Total$/) { state = llvm ? "blank" : ""; }
        next
    }
    if (state == "blank") { if ($0 == "") print; state = ""; next }
}

/* fuzz_run_json.c -- libFuzzer target: one run.json read back by
 * ns_run_load (runs_read.c), as `table` and `tree RUNDIR` read every run.
 *
 * ns_run_load takes a path, so each input is written to one file per
 * fuzzing process -- on /dev/shm (tmpfs) when it exists, else in $TMPDIR or
 * /tmp -- and loaded from there; the file is removed at exit.  No change to
 * src/ is needed for this.  A run that loads is checked (id and mode set,
 * reports non-NULL), its reports are rendered through the json, text and
 * original exporters into a memory stream, ns_run_ok is asked, and the run
 * is freed.
 */
#include "render/export.h"
#include "model/runs.h"
#include "parse/run_read.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char nsf_path[512];

static void nsf_cleanup(void) {
    if (nsf_path[0]) unlink(nsf_path);
}

static void nsf_init(void) {
    struct stat st;
    const char *dir = "/dev/shm";
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK) != 0) {
        dir = getenv("TMPDIR");
        if (!dir || !*dir) dir = "/tmp";
    }
    snprintf(nsf_path, sizeof nsf_path, "%s/npuscope-fuzz-run-%ld.json", dir, (long)getpid());
    atexit(nsf_cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!nsf_path[0]) nsf_init();
    FILE *w = fopen(nsf_path, "wb");
    if (!w) abort();
    if (size && fwrite(data, 1, size, w) != size) abort();
    if (fclose(w) != 0) abort();

    ns_run r;
    long said[2] = {0, 0};
    ns_diag count = {ns_diag_count, said};
    ns_why why = {"", 0};
    if (ns_run_load(nsf_path, "fuzz-r01", &r, &count, &why) != 0) {
        if (!why.text[0]) abort(); /* a skipped run always has a reason */
        return 0;
    }
    if (!r.id || !r.mode || (r.nreports && !r.reports)) abort();
    (void)ns_run_ok(&r);

    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    if (!f) abort();
    static const ns_format fmts[] = {NS_FMT_JSON, NS_FMT_TEXT, NS_FMT_ORIGINAL};
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        ns_export_opts o;
        memset(&o, 0, sizeof o);
        o.format = fmts[i];
        ns_view_init(&o.view);
        o.diag = count;
        ns_exporter *e = ns_exporter_new(&o, f);
        for (int k = 0; k < r.nreports; k++) {
            if (!r.reports[k]) abort();
            ns_exporter_add(e, r.reports[k]);
        }
        ns_exporter_end(e);
    }
    fclose(f);
    free(out);
    ns_run_free(&r);
    return 0;
}

/* unit_report_reload.c -- `report`'s second read of a run folder
 * (builtin/report/read.c, ns__report_load).
 *
 * report reads a run folder run by run, keeps summaries and frees each
 * run's trees, then reads again the run.json of the runs its page embeds.
 * Between the two reads the folder can change under it; a run whose
 * run.json is gone or says other things than the first time must have its
 * trees left out (and a warning), never shown beside the numbers of the
 * first read.  The test copies three runs of tests/data/stages/runs to a temporary
 * folder, reads it, then changes one run, deletes another and rewrites a
 * third with the same content before asking for their trees.
 *
 * Run from the repository's top folder (it reads tests/data/stages/runs).
 * Prints "unit_report_reload: N passed, M failed". */
#include "check.h"

#include "builtin/report/report.h"
#include "platform/plat.h"

#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#define NS__RUN "tests/data/stages/runs/model-cnn-cold-r0"

/* Copy run `k` (1..3) of tests/runs into dir/rK/run.json; 0 or -1. */
static int copy_run(const char *dir, int k) {
    char from[256], to[512];
    snprintf(from, sizeof from, "%s%d/run.json", NS__RUN, k);
    snprintf(to, sizeof to, "%s/r%d", dir, k);
    if (ns_plat_mkdir(to, 0777) != 0) return -1;
    snprintf(to, sizeof to, "%s/r%d/run.json", dir, k);
    size_t len;
    char *text = check_slurp(from, &len);
    FILE *f = text ? fopen(to, "wb") : NULL;
    int rc = f && fwrite(text, 1, len, f) == len ? 0 : -1;
    if (f && fclose(f) != 0) rc = -1;
    free(text);
    return rc;
}

int main(void) {
    const char *tmp = getenv("TMPDIR");
    char dir[256];
    snprintf(dir, sizeof dir, "%s/unit_report_reload_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        printf("FAIL: no temporary folder\n");
        return 1;
    }
    for (int k = 1; k <= 3; k++) CHECK(copy_run(dir, k) == 0);
    ns_diag_quiet(1); /* the warnings are the command's to print */
    ns_stage_sel sel;
    CHECK(ns_stage_sel_init(&sel, NULL) == 0);
    ns__report_read rd;
    ns__report_read_init(&rd, &sel, 0);
    ns_read_opts ro;
    memset(&ro, 0, sizeof ro);
    char *inputs[] = {dir};
    CHECK(ns__report_read_inputs(&rd, inputs, 1, &ro) == 0);
    CHECK(rd.set.nruns == 3);
    if (rd.set.nruns == 3) {
        /* read once: summaries kept, trees freed */
        for (int i = 0; i < 3; i++) {
            CHECK(rd.set.runs[i].nreports == 0);
            CHECK(rd.sums[i].nreports > 0 && rd.sums[i].nodes > 0);
        }
        /* unchanged: its trees come back */
        CHECK(ns__report_load(&rd, 0) == 0);
        CHECK(rd.set.runs[0].nreports == rd.sums[0].nreports);
        /* rewritten with another wall time: left out */
        char path[512];
        snprintf(path, sizeof path, "%s/r2/run.json", dir);
        json_error_t err;
        json_t *j = json_load_file(path, 0, &err);
        CHECK(j != NULL);
        if (j) {
            json_object_set_new(j, "wall_s",
                                json_real(json_number_value(json_object_get(j, "wall_s")) + 0.5));
            CHECK(json_dump_file(j, path, 0) == 0);
            json_decref(j);
        }
        CHECK(ns__report_load(&rd, 1) == -1);
        CHECK(rd.set.runs[1].nreports == 0);
        /* deleted: left out */
        snprintf(path, sizeof path, "%s/r3/run.json", dir);
        CHECK(unlink(path) == 0);
        CHECK(ns__report_load(&rd, 2) == -1);
        CHECK(rd.set.runs[2].nreports == 0);
        /* written again with the same content: its trees come back */
        CHECK(copy_run(dir, 3) != 0); /* r3 exists: copy_run makes the folder */
        snprintf(path, sizeof path, "%s/r3/run.json", dir);
        char from[256];
        snprintf(from, sizeof from, "%s3/run.json", NS__RUN);
        size_t len;
        char *text = check_slurp(from, &len);
        FILE *f = text ? fopen(path, "wb") : NULL;
        CHECK(f && fwrite(text, 1, len, f) == len);
        if (f) fclose(f);
        free(text);
        CHECK(ns__report_load(&rd, 2) == 0);
        CHECK(rd.set.runs[2].nreports == rd.sums[2].nreports);
    }
    ns__report_read_free(&rd);
    ns_stage_sel_free(&sel);
    for (int k = 1; k <= 3; k++) {
        char p[512];
        snprintf(p, sizeof p, "%s/r%d/run.json", dir, k);
        unlink(p);
        snprintf(p, sizeof p, "%s/r%d", dir, k);
        rmdir(p);
    }
    rmdir(dir);
    return check_summary("unit_report_reload");
}

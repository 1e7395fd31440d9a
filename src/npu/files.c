/* files.c -- schedule trace and strategy JSON readers (see files.h).
 *
 * jansson reads each file whole (they are a few megabytes at most); the
 * counting is a walk over its values.  A file that is not what it should
 * be gives no metrics and a failure reason, which the caller turns into a
 * warning or not: nothing here prints.  The file names the compiler uses
 * are the one thing this file knows of the run folder.
 */
#include "npu/files.h"

#include "base/path.h"

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The JSON document at path (a new reference: json_decref it), or NULL
 * with the reason in *why. */
static json_t *ns__json_load_new(const char *path, ns_why *why) {
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j) ns_fail(why, e.line, "not valid JSON: %s", e.text);
    return j;
}

static int ns__cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ====== Schedule trace ====== */

int ns_npu_schedule_metrics(const char *path, ns_run *r, ns_why *why) {
    json_t *j = ns__json_load_new(path, why);
    if (!j) return -1;
    const json_t *ev = json_is_object(j) ? json_object_get(j, "traceEvents") : j;
    if (!json_is_array(ev)) {
        json_decref(j);
        return ns_fail(why, 0, "no \"traceEvents\" array: not a schedule trace");
    }
    /* categories: 2024 names SW tasks "SW" (enumToStr), 2025+ "Shave"
     * (getTaskCategory, src/vpux_utils/src/profiling/reports/json.cpp) */
    static const char *const cats[5] = {"DMA", "DPU", "SW", "M2I", "Shave"};
    static const int cat_of[5] = {0, 1, 2, 3, 2};
    static const char *const count_name[4] = {"tasks_dma", "tasks_dpu", "tasks_sw", "tasks_m2i"};
    static const char *const dur_name[4] = {"task_us_dma", "task_us_dpu", "task_us_sw", "task_us_m2i"};
    double count[4] = {0}, dur[4] = {0};
    size_t i;
    json_t *e;
    json_array_foreach(ev, i, e) {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        const char *cat = json_string_value(json_object_get(e, "cat"));
        const char *name = json_string_value(json_object_get(e, "name"));
        if (!ph || strcmp(ph, "X") || !cat) continue;
        if (name && strstr(name, "/variant_")) continue; /* per-variant copies */
        for (int k = 0; k < 5; k++)
            if (!strcmp(cat, cats[k])) {
                int c = cat_of[k];
                count[c]++;
                const json_t *d = json_object_get(e, "dur");
                if (json_is_number(d)) dur[c] += json_number_value(d);
            }
    }
    double total = 0;
    for (int c = 0; c < 4; c++) {
        total += count[c];
        ns_run_set_metric(r, count_name[c], count[c]);
        ns_run_set_metric(r, dur_name[c], dur[c]);
    }
    ns_run_set_metric(r, "tasks", total);
    json_decref(j);
    return 9;
}

/* ====== Strategy ====== */

/* Tiles of a strategy document (see files.h); -1 when it is not one. */
static int ns__strategy_counts(const json_t *j, double *tiles_out, double *tiled_out) {
    if (!json_is_object(j)) return -1;
    double tiles = 0, tiled = 0;
    json_t *seen = json_object(); /* VF hashes counted already */
    const char *key;
    json_t *op;
    json_object_foreach((json_t *)j, key, op) {
        const json_t *ts = json_object_get(op, "tilingStrategy");
        if (!json_is_object(ts)) continue; /* "NONE": not tiled, no tiles counted */
        /* the tiles are the product of whatever axes the strategy names:
         * 2024 {N,C,H,W}; 2026 also {G,N,C,H,W}, {B,H,OC}, {H,W}, {N}
         * (json_utils.cpp); a value below 1 or not a number counts 1 */
        double t = 1;
        const char *axis;
        json_t *v;
        json_object_foreach((json_t *)ts, axis, v)
            if (json_is_number(v) && json_number_value(v) >= 1) t *= json_number_value(v);
        const char *vf = json_string_value(json_object_get(op, "verticalFusionHash"));
        if (vf && strcmp(vf, "Null") != 0) {
            if (json_object_get(seen, vf)) continue; /* the region's tiles once */
            json_object_set_new(seen, vf, json_true());
        }
        tiles += t;
        if (t > 1) tiled++;
    }
    json_decref(seen);
    *tiles_out = tiles;
    *tiled_out = tiled;
    return 0;
}

int ns_npu_strategy_text(const char *text, size_t len, double *tiles, double *tiled) {
    json_error_t e;
    json_t *j = json_loadb(text, len, 0, &e);
    if (!j) return -1;
    int rc = ns__strategy_counts(j, tiles, tiled);
    json_decref(j);
    return rc;
}

int ns_npu_strategy_metrics(const char *path, ns_run *r, ns_why *why) {
    json_t *j = ns__json_load_new(path, why);
    if (!j) return -1;
    double tiles, tiled;
    if (ns__strategy_counts(j, &tiles, &tiled) != 0) {
        json_decref(j);
        return ns_fail(why, 0, "not an object of layers: not a strategy file");
    }
    ns_run_set_metric(r, "tiles", tiles);
    ns_run_set_metric(r, "tiled_ops", tiled);
    json_decref(j);
    return 2;
}

/* Is name "strategy_dump_<modelID>.json", the file dump-strategy-to-log
 * writes (manual_strategy_utils.cpp, 2026)? */
int ns_npu_is_strategy_dump(const char *name) {
    static const char pre[] = "strategy_dump_", suf[] = ".json";
    size_t n = strlen(name);
    return n > sizeof pre - 1 + sizeof suf - 1 && !strncmp(name, pre, sizeof pre - 1) &&
           !strcmp(name + n - (sizeof suf - 1), suf) && !strchr(name, '/');
}

/* The strategy dumps in run_dir, summed: each compiler process writes one
 * (its name is fixed by the first model the process compiles), so several
 * files are several processes' last compiles.  Returns the files read. */
static int ns__strategy_dumps(const char *run_dir, ns_run *r, const ns_diag *d) {
    DIR *dir = opendir(run_dir);
    if (!dir) return 0;
    char **names = NULL;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(dir)))
        if (ns_npu_is_strategy_dump(de->d_name)) {
            names = ns_xrealloc(names, sizeof *names * (size_t)(n + 1));
            names[n++] = ns_strdup(de->d_name);
        }
    closedir(dir);
    /* a stable order for the warnings (qsort of NULL, even of 0 entries, is undefined) */
    if (n > 1) qsort(names, (size_t)n, sizeof *names, ns__cmp_str);
    double tiles = 0, tiled = 0;
    int read = 0;
    for (int i = 0; i < n; i++) {
        char *p = ns_path_join_new(run_dir, names[i]);
        ns_why why = {"", 0};
        json_t *j = ns__json_load_new(p, &why);
        double t, o;
        if (j && ns__strategy_counts(j, &t, &o) == 0) {
            tiles += t;
            tiled += o;
            read++;
        } else {
            if (j) ns_fail(&why, 0, "not an object of layers: not a strategy dump");
            ns_diag_why(d, NS_DIAG_WARNING, p, &why, "");
        }
        json_decref(j);
        free(p);
        free(names[i]);
    }
    free(names);
    if (read) {
        ns_run_set_metric(r, "tiles", tiles);
        ns_run_set_metric(r, "tiled_ops", tiled);
        ns_run_set_metric(r, "strategy_dumps", read);
    }
    return read;
}

void ns_npu_collected_metrics(const char *run_dir, ns_run *r, const ns_diag *d) {
    static const struct {
        const char *name;                                  /* as the compiler writes it */
        int (*read)(const char *path, ns_run *r, ns_why *why); /* its reader */
    } files[] = {{"compileTimeScheduleTrace.json", ns_npu_schedule_metrics},
                 {"strategy_out.json", ns_npu_strategy_metrics}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *p = ns_path_join_new(run_dir, files[i].name);
        ns_why why = {"", 0};
        if (access(p, R_OK) == 0 && files[i].read(p, r, &why) < 0)
            ns_diag_why(d, NS_DIAG_WARNING, p, &why, "");
        free(p);
    }
    /* read last: the dumps, where there are any, give tiles and tiled_ops */
    ns__strategy_dumps(run_dir, r, d);
}

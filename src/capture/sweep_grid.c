/* sweep_grid.c -- the declared grid of a sweep, written beside its runs
 * (sweep_grid.h).  The reader is `predict --grid` (builtin/predict.c).
 */
#include "capture/sweep_grid.h"
#include "base/jsonw.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ns_sweep_grid_write(const char *dir, const ns_axes *a) {
    ns_buf b = {0}, path = {0}, tmp = {0};
    int rc = -1;
    ns_buf_puts(&b, "{\"format\":\"npuscope-grid\",\"version\":1,\"axes\":[");
    for (int i = 0; i < a->naxes; i++) {
        ns_buf_puts(&b, i ? ",{\"name\":" : "{\"name\":");
        ns_json_str(&b, a->axes[i].name);
        ns_buf_puts(&b, ",\"values\":[");
        for (int v = 0; v < a->axes[i].nvalues; v++) {
            if (v) ns_buf_putc(&b, ',');
            ns_json_str(&b, a->axes[i].values[v]);
        }
        ns_buf_puts(&b, "]}");
    }
    ns_buf_puts(&b, "]}\n");
    ns_buf_printf(&path, "%s/%s", dir, NS_GRID_FILE);
    ns_buf_printf(&tmp, "%s/%s.new", dir, NS_GRID_FILE);
    FILE *f = fopen(tmp.data, "w");
    if (!f || fwrite(b.data, 1, b.len, f) != b.len || fclose(f) != 0) {
        if (f) fclose(f);
        ns_warn_at(NULL, 0, "%s: %s; predict --grid will know only the measured values",
                   tmp.data, strerror(errno));
        remove(tmp.data);
        goto out;
    }
    if (rename(tmp.data, path.data) != 0) {
        ns_warn_at(NULL, 0, "%s: %s", path.data, strerror(errno));
        remove(tmp.data);
        goto out;
    }
    rc = 0;
out:
    ns_buf_free(&b);
    ns_buf_free(&path);
    ns_buf_free(&tmp);
    return rc;
}

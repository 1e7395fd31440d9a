/* write.c -- where the page of `npuscope report` goes (report.h lists the
 * files of the command): one HTML file, or standard output with -o -, and
 * with --svg-dir every figure again as a standalone .svg file that a paper
 * can include (the same drawing, with an XML declaration).
 *
 * Each file is written whole from a buffer and closed before success is
 * said; a failed write or close is an error naming the file.  This file
 * must not change what it writes.
 */
#include "builtin/report/report.h"
#include "platform/plat.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static int ns__write_file(const char *path, const char *pre, const char *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) {
        ns_error("%s: %s", path, strerror(errno));
        return -1;
    }
    int bad = (pre && fputs(pre, f) == EOF) || (len && fwrite(data, 1, len, f) != len);
    if (fclose(f) != 0) bad = 1;
    if (bad) {
        ns_error("%s: write error", path);
        return -1;
    }
    return 0;
}

int ns__report_write_page(const char *out, const ns_buf *html) {
    if (strcmp(out, "-") == 0) {
        if ((html->len && fwrite(html->data, 1, html->len, stdout) != html->len) || fflush(stdout)) {
            ns_error("error writing the output");
            return -1;
        }
        return 0;
    }
    if (ns__write_file(out, NULL, html->data, html->len) < 0) return -1;
    fprintf(stderr, "npuscope: wrote %s\n", out);
    return 0;
}

int ns__report_write_svgs(const char *dir, const ns_page *p) {
    if (ns_plat_mkdir(dir, 0777) != 0 && errno != EEXIST) {
        ns_error("%s: %s", dir, strerror(errno));
        return -1;
    }
    ns_buf path = {0};
    int rc = 0;
    for (int i = 0; i < p->nfigs && rc == 0; i++) {
        path.len = 0;
        ns_buf_printf(&path, "%s/%s.svg", dir, p->figs[i].id);
        rc = ns__write_file(path.data, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                            p->figs[i].svg, strlen(p->figs[i].svg));
    }
    ns_buf_free(&path);
    return rc;
}

/* unit_load.c -- unit tests of the run-folder load path: the decimals a tree
 * JSON value comes back with (parse/tree_read.c recovers them by
 * arithmetic, not by printing: checked here against the printf + strtod
 * trial it replaced, on every kind of value a report holds).
 *
 * Prints one line per failure and ends with "unit_load: N passed, N failed". */
#include "check.h"

#include "model/report.h"
#include "parse/tree_read.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== Decimals ====== */

/* The reference: the fewest decimals (0..9) whose printing reads back as v. */
static int trial_decimals(double v) {
    char buf[64];
    for (int d = 0; d <= 9; d++) {
        snprintf(buf, sizeof buf, "%.*f", d, v);
        if (strtod(buf, NULL) == v) return d;
    }
    return 9;
}

/* The decimals tree_read gives the root's wall_s when it is the number
 * written `text` (a one-node report, so no column widening). */
static int read_decimals(const char *text, double *v) {
    char doc[256];
    snprintf(doc, sizeof doc, "{\"root\":{\"name\":\"Total\",\"wall_s\":%s,\"children\":[]}}", text);
    json_error_t err;
    json_t *o = json_loads(doc, 0, &err);
    if (!o) return -100;
    const char *why;
    ns_report *r = ns_report_from_json_new(o, "t.json", &why);
    json_decref(o);
    if (!r) return -101;
    int dec = r->root->val[NS_COL_WALL].dec;
    *v = r->root->val[NS_COL_WALL].v;
    ns_report_free(r);
    return dec;
}

static unsigned long long seed = 88172645463325252ULL;
static unsigned long long next(void) { /* xorshift64 */
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}

static void test_decimals(void) {
    static const char *const fixed[] = {"3.8142", "0.016", "0.0160", "-0.0001", "62.5888",
                                        "1e-7", "0.1", "0.7", "1234567.891", "999999.9999999",
                                        "5e15", "1.5e300", "123456789012.5", "0.000000001",
                                        "2.675", "1.005", "-0.5", "1e6", "999999.999999999"};
    int mismatch = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        double v;
        int got = read_decimals(fixed[i], &v);
        if (got != trial_decimals(v)) {
            printf("  decimals of %s: %d, the trial gives %d\n", fixed[i], got, trial_decimals(v));
            mismatch++;
        }
    }
    CHECK(mismatch == 0);
    double v;
    CHECK(read_decimals("3.8142", &v) == 4 && v == 3.8142);
    CHECK(read_decimals("0.0160", &v) == 3); /* JSON keeps no trailing zero */
    /* printed numbers: m / 10^d for random m of up to 15 digits, d 0..12,
     * and random doubles of every size (%.17g) */
    mismatch = 0;
    for (int i = 0; i < 200000; i++) {
        char text[64];
        unsigned long long r = next();
        if (i % 2) {
            int d = (int)(r % 13);
            long long m = (long long)((r >> 8) % 1000000000000000ULL) / (long long)(1 + (r >> 4) % 1000000);
            snprintf(text, sizeof text, "%s%lld.%0*lld", (r & 1) ? "-" : "", m / 1000, d ? d : 1,
                     (long long)(m % (long long)pow(10, d ? d : 1)));
        } else {
            double x = ldexp((double)(r >> 11) / 9007199254740992.0, (int)(r % 80) - 40);
            snprintf(text, sizeof text, "%.17g", x);
        }
        int got = read_decimals(text, &v);
        if (got != trial_decimals(v)) {
            if (mismatch++ < 5)
                printf("  decimals of %s: %d, the trial gives %d\n", text, got, trial_decimals(v));
        }
    }
    CHECK(mismatch == 0);
}

int main(void) {
    test_decimals();
    return check_summary("unit_load");
}

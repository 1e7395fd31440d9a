/* adaptive.h -- `sweep --adaptive N`: measure only the configurations of a
 * grid that the model of the sweep needs.
 *
 * A full grid of a study (5 models x 4 windows x 3 precisions, 10 cold
 * repeats each) is days of NPU time; a model of the sweep (analyse/
 * predict.h) learns the exponents and the regime map from a fraction of
 * it.  So the sweep runs its configurations in an order chosen as it goes:
 *   1. a space-filling start: the corners of the grid (each axis at its
 *      first or last value), then its centre;
 *   2. then, each time, the configuration whose prediction is least
 *      certain: the widest interval (hi / lo), where a model can be made;
 *      a configuration with a category never measured first, and without
 *      a model the one farthest from every configuration measured;
 *   3. until N configurations are measured, or (--target-error PCT) the
 *      model's leave-one-out median error is at most PCT.
 * Ties go to the lower configuration index, so the order is a function of
 * the grid and of what the folder holds: a sweep stopped and started again
 * reads its runs back and continues where it was; a shard (--shard K/N)
 * chooses among its own configurations only.  Deliberately left out:
 * choosing by the regime's margin, and batches (one configuration at a
 * time, its repeats back to back).
 */
#ifndef NPUSCOPE_ADAPTIVE_H
#define NPUSCOPE_ADAPTIVE_H

#include "capture/sweep_plan.h"

typedef struct {
    const char *dir;     /* the sweep's output folder (its runs so far) */
    const ns_axes *axes; /* the grid */
    int budget;          /* N: configurations to measure at most */
    double target_pct;   /* --target-error, or 0 */
    const char *mode;    /* the runs the model reads (the sweep's first mode) */
    int quiet;           /* no line on what was chosen and why */
} ns_adaptive;

/* Plan item k is about to start a configuration: choose the next one among
 * those of plan->items[k..n) and move its items to k (their order kept).
 * The configurations of items[0..k) count as measured (a dry run's, or runs
 * still failing).  Returns 1 when one was chosen, 0 when the sweep is done
 * (a line on stderr says why, unless quiet). */
int ns_adaptive_next(const ns_adaptive *ad, ns_plan *plan, size_t k);

#endif

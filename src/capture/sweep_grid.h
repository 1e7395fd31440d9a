/* sweep_grid.h -- the grid a sweep was asked for, kept with its runs.
 *
 * A sweep's folder holds the runs that ran; an adaptive sweep (adaptive.h)
 * or a stopped one leaves cells of its grid unmeasured, and `predict
 * --grid` is asked exactly for those.  So `sweep` writes the axes and
 * values it was given to DIR/.npuscope-grid.json before the first run:
 *   {"format":"npuscope-grid","version":1,
 *    "axes":[{"name":"window","values":["128","1024"]}]}
 * (values verbatim, in the order given).  A name beginning with '.' is
 * never read as a run folder.  Written to a temporary name and renamed, so
 * a reader sees the old file or the new one; a later sweep into the same
 * folder replaces it.  Left out: merging the grids of several sweeps into
 * one folder (the latest one stands).
 */
#ifndef NPUSCOPE_SWEEP_GRID_H
#define NPUSCOPE_SWEEP_GRID_H

#include "capture/sweep_plan.h"

#define NS_GRID_FILE ".npuscope-grid.json"

/* Write a's grid into dir.  Returns 0, or -1 (a warning says why). */
int ns_sweep_grid_write(const char *dir, const ns_axes *a);

#endif

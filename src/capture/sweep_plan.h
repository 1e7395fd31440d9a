/* sweep_plan.h -- what a sweep will run, decided before anything runs.
 *
 * `npuscope sweep` runs the user's compile command over the cartesian product
 * of some axes (-L model=qwen1.5b,qwen7b  -P window=128:2048:*2), in one or
 * more modes (cold, warm), R counted times after W warmups, possibly split
 * over several machines (--shard K/N).  This module is the pure part of that:
 * axes, their product, the order of the runs, the shard split, placeholder
 * substitution and run ids.  It starts no process and touches no file, so
 * every decision is unit-tested (tests/unit_sweep.c) and `sweep --dry-run`
 * can print the exact plan that a real sweep would execute.
 *
 * Safety contract:
 *   - axis values are kept verbatim and inserted verbatim into argv elements;
 *     nothing here (or in sweep) is ever passed through a shell, so a value
 *     such as "$(rm -rf /)" is just bytes;
 *   - a run id is a single, safe path component whatever the values are:
 *     no '/', never "." or "..", never a leading '.', at most ~140 bytes.
 *
 * Orders:
 *   NS_ORDER_INTERLEAVE (default): all warmups first, then repeat 1 of every
 *     (config, mode), then repeat 2 of every one, ...  Slow drift of the
 *     machine (thermal state, background load, a filling disk) then touches
 *     every configuration alike instead of biasing whichever ran last.
 *   NS_ORDER_GROUPED: each (config, mode) runs its warmups and repeats back
 *     to back -- friendlier to caches outside npuscope's control, worse for
 *     comparisons.
 * A shard keeps whole configurations (config % N == K): a warm-mode compile
 * cache lives on the machine that filled it.  The plan of shard K is exactly
 * the unsharded plan filtered, order preserved, so the union of all shards is
 * the unsharded plan.
 *
 * Ownership (see common.h): ns_axes owns its names and values, ns_plan owns
 * its items; functions named *_new return strings the caller frees.
 * Failing functions print one `npuscope: ...` message and leave their
 * output object unchanged.
 *
 * Deliberately left out: running anything, reading run folders to resume a
 * sweep (the caller skips ids that already exist), and random orders (a
 * plan is a pure function of its inputs).
 */
#ifndef NPUSCOPE_SWEEP_PLAN_H
#define NPUSCOPE_SWEEP_PLAN_H

#include "base/common.h"

/* ====== Limits ====== */
#define NS_AXES_MAX_CONFIGS 1000000   /* product of all axes' value counts */
#define NS_RANGE_MAX_VALUES 100000    /* values one -P range may produce */
#define NS_PLAN_MAX_ITEMS 10000000    /* runs in one plan (after sharding) */
#define NS_RUN_ID_SLUG_MAX 80         /* bytes of the readable part of an id */

/* ====== Axes ====== */
typedef struct {
    char *name;     /* [A-Za-z_][A-Za-z0-9_]*, unique among the axes (owned) */
    char **values;  /* nvalues distinct, non-empty strings, verbatim (owned) */
    int nvalues;    /* >= 1 */
} ns_axis;

typedef struct {
    ns_axis *axes;  /* in command-line order; the first varies slowest */
    int naxes;      /* number of axes; 0 means one configuration, no values */
} ns_axes;

/* -L NAME=v1,v2,...: values verbatim (any bytes but ','), each non-empty,
 * no duplicates; NAME new and well-formed.  Returns 0, or -1 with a
 * message. */
int ns_axes_add_list(ns_axes *a, const char *spec);

/* -P NAME=LO:HI:STEP (arithmetic, STEP > 0) or NAME=LO:HI:*K (geometric,
 * K > 1, LO > 0).  LO <= HI; values run from LO up to HI, inclusive of HI
 * when it is reached within a relative 1e-9 (so 0.1:0.3:0.1 gives 0.1, 0.2,
 * 0.3).  Value i is computed as LO + i*STEP (or LO * K^i), never by
 * accumulation.  Values are printed as integers when integral, else with the
 * fewest decimals that give back the %.15g-rounded value, locale-independent
 * ("C" locale; npuscope never calls setlocale).  At most NS_RANGE_MAX_VALUES
 * values.  Returns 0, or -1 with a message. */
int ns_axes_add_range(ns_axes *a, const char *spec);

/* Index of the axis called `name`, or -1. */
int ns_axes_find(const ns_axes *a, const char *name);

void ns_axes_free(ns_axes *a);

/* Number of configurations: the product of the value counts (1 without
 * axes).  Never more than NS_AXES_MAX_CONFIGS: larger products are refused
 * when the axis is added. */
size_t ns_axes_configs(const ns_axes *a);

/* Configuration c (0-based, < ns_axes_configs) -> the value index of each
 * axis, into idx[naxes].  The first axis varies slowest. */
void ns_axes_config(const ns_axes *a, size_t c, int *idx);

/* ====== Plan ====== */
typedef enum { NS_ORDER_INTERLEAVE, NS_ORDER_GROUPED } ns_order;

typedef struct {
    size_t config;  /* configuration index, see ns_axes_config */
    int mode;       /* index into the caller's list of modes */
    int repeat;     /* 1-based; counts warmups and counted runs separately */
    int warmup;     /* 1 for a --warmup run (repeat is then 1..W), else 0 */
} ns_plan_item;

typedef struct {
    ns_plan_item *items;  /* in execution order (owned) */
    size_t n;             /* number of items */
} ns_plan;

/* For every configuration and mode: `warmups` warmup runs and `repeats`
 * counted runs, in `order` (see the top of this file), keeping only the
 * configurations of shard shard_k of shard_n (shard_n == 1: all).
 * nmodes >= 1, repeats >= 0, warmups >= 0, 0 <= shard_k < shard_n.  A shard
 * with no configuration gives an empty plan (n == 0), not an error.
 * Returns 0, or -1 with a message (bad arguments, more than
 * NS_PLAN_MAX_ITEMS runs). */
int ns_plan_build(ns_plan *p, const ns_axes *a, int nmodes, int repeats,
                  int warmups, ns_order order, int shard_k, int shard_n);
void ns_plan_free(ns_plan *p);

/* Parse "K/N" (decimal digits only, 0 <= K < N) for --shard.  Returns 0, or
 * -1 with a message. */
int ns_shard_parse(const char *s, int *k, int *n);

/* ====== Placeholders ====== */

/* `tmpl` with every {NAME} (NAME an identifier) replaced by the value of
 * axis NAME in the configuration idx.  Other braces are text, so MLIR pass
 * options like canonicalize{max-iterations=3} pass through; "{{" and "}}"
 * stand for one brace (to write a literal {NAME}).  An identifier that is
 * no axis is an error (a typo): a message naming the template and the
 * placeholder, and NULL.  Values are inserted verbatim.  Returns a new
 * string. */
char *ns_axes_subst_new(const ns_axes *a, const int *idx, const char *tmpl);

/* Check `tmpl` as ns_axes_subst_new would, and set used[i] = 1 for every
 * axis i it names (used[] is not cleared first), so the caller can warn
 * about an axis no argument mentions.  Returns 0, or -1 with a message. */
int ns_axes_mark_used(const ns_axes *a, const char *tmpl, int *used);

/* ====== Run ids ====== */

/* The id (folder name) of one run: "<slug>-<hash8>-<mode>-r<NN>", or
 * "...-w<NN>" for a warmup; NN is the repeat printed with %02d.
 *   slug:  "name-value" of every axis, joined by '_', each byte outside
 *          [A-Za-z0-9.+-] replaced by '_', a leading '.' by '_', cut to
 *          NS_RUN_ID_SLUG_MAX bytes; "run" without axes.
 *   hash8: FNV-1a 32 in 8 lowercase hex digits over "name=value\n" for every
 *          axis in order, then "tag:" extra_kv[i] "\n" for each of the nextra
 *          extra tags, which the caller passes as "K=V" strings (--tag
 *          arguments).  Two configurations whose slugs collide ("a/b" and
 *          "a_b", or long values cut alike) still get different ids.
 *   mode:  sanitized like the slug, cut to 32 bytes; "none" when NULL or "".
 * Deterministic, and a safe single path component (see the top).  Returns a
 * new string. */
char *ns_run_id_new(const ns_axes *a, const int *idx,
                    const char *const *extra_kv, int nextra, const char *mode,
                    int repeat, int warmup);

#endif

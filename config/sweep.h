/* sweep.h — the plan of a parameter sweep: `-s key=v1,v2,…` value lists
 * parsed into axes, their cartesian product (the first axis varies slowest),
 * and the validation of every value and every point through the same
 * configuration code as a run. Pure logic, no processes: `tessera sweep`
 * (cli/cmd_sweep.c) runs the points. */
#ifndef TESSERA_SWEEP_H
#define TESSERA_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "events/base/diag.h"

#define SWEEP_MAX_POINTS 10000u  /* larger sweeps need --force */

/* One -s argument: a key and its values. */
typedef struct sweep_axis {
    const char *arg;          /* the -s argument as given (not owned) */
    char *key;                /* "section.key", blanks trimmed */
    char **assign;            /* "key=value" per value, for cfg_set and the children */
    size_t n;                 /* number of values */
} sweep_axis_t;

typedef struct sweep_plan {
    sweep_axis_t *axes;
    size_t n_axes;
} sweep_plan_t;

/* Parses the n -s arguments (which must outlive the plan) into axes. A list
 * is split on commas, but a `choice:` latency keeps the commas that follow
 * it up to the next value with a `form:` of its own; a list containing `;`
 * is split on `;` only. Blanks around keys and values are ignored. Returns
 * TESS_OK; TESS_EINPUT ("sweep -s 'ARG': empty value", "…: expected
 * section.key=v1,v2,...", "…: KEY is already set by -s 'ARG'"); TESS_ENOMEM.
 * Free the plan with sweep_plan_free whatever the result. */
int sweep_plan_parse(sweep_plan_t *p /* OUT */, char *const *args, size_t n, diag_t *d);

void sweep_plan_free(sweep_plan_t *p);

/* The number of points (1 without axes), or 0 when it does not fit 64 bits. */
uint64_t sweep_plan_points(const sweep_plan_t *p);

/* The n_axes assignments of point k (0-based; the last axis varies fastest),
 * pointers into the plan. */
void sweep_plan_point(const sweep_plan_t *p, uint64_t k, char **out /* OUT */);

/* "key=v key=v" of the axes with several values ("fixed settings" when
 * none), for messages; truncated to size. */
void sweep_plan_label(const sweep_plan_t *p, uint64_t k, char *buf, size_t size);

/* Checks every value alone, then each of the first n points, as a run would
 * apply them: the defaults, `config_path` (NULL: none), the point's
 * assignments in order, the cross-key checks and the model's own checks
 * (gpu_desc_check). The message names the -s argument ("sweep -s 'ARG': …")
 * or the point ("sweep point K (LABEL): …"). Returns TESS_OK, TESS_EINPUT,
 * TESS_EIO (config_path unreadable) or TESS_ENOMEM. */
int sweep_plan_check(const sweep_plan_t *p, const char *config_path, uint64_t n, diag_t *d);

#endif

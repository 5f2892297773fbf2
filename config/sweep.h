/* sweep.h — the plan of a parameter sweep: `-s key=v1,v2,…` value lists
 * parsed into axes, their cartesian product (the first axis varies slowest),
 * and the validation of every value and every point through the same
 * configuration code as a run. Pure logic, no processes: `tessera sweep`
 * (cli/cmd_sweep.c) runs the points. */
#ifndef TESSERA_SWEEP_H
#define TESSERA_SWEEP_H

#include <stdbool.h>
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
    size_t group;             /* the first axis of its --zip group (itself when alone): the
                                 axes of a group take their i-th values together */
} sweep_axis_t;

typedef struct sweep_plan {
    sweep_axis_t *axes;
    size_t n_axes;
    uint64_t *pick;           /* --sample: the chosen points of the product, ascending */
    uint64_t n_pick;          /* (NULL: every point) */
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

/* --zip KEY,KEY,...: those axes (each set by -s, all with the same number
 * of values) vary together, the i-th values in one point, instead of in
 * every combination. TESS_EINPUT naming the key that is not an axis, is
 * zipped twice, or whose count differs; TESS_ENOMEM. */
int sweep_plan_zip(sweep_plan_t *p, const char *keys, diag_t *d);

/* --sample N --seed S: keeps N points drawn from the product without
 * repetition (Floyd's algorithm on a stream seeded by S: the same N and S
 * give the same points), run in product order. TESS_EINPUT when N is 0 or
 * more than the product; TESS_ENOMEM. */
int sweep_plan_sample(sweep_plan_t *p, uint64_t n, uint64_t seed, diag_t *d);

/* The points of the product, zipped axes counted once (0: over 64 bits). */
uint64_t sweep_plan_product(const sweep_plan_t *p);

/* The number of points to run: the sample's, else the product's (1
 * without axes; 0 when it does not fit 64 bits). */
uint64_t sweep_plan_points(const sweep_plan_t *p);

/* The n_axes assignments of point k (0-based, of the points to run; in the
 * product the last axis varies fastest), pointers into the plan. */
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

/* Keys that would have no effect (cfg_key_inert), over the first n points:
 * an axis of several values whose key has none in some point would run
 * equal machines under different labels — refused with TESS_EUSAGE naming
 * the key, how many points, why and what to add ("-s core.model=simt"),
 * unless `allowed` (--allow-inert), then a warning; a fixed setting (one
 * value, or a --config key off its default) with no effect warns. Each key
 * is reported once. TESS_OK, TESS_EUSAGE, TESS_EIO/TESS_EINPUT (the file). */
int sweep_plan_inert(const sweep_plan_t *p, const char *config_path, uint64_t n, bool allowed,
                     diag_t *d);

#endif

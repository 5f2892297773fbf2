/* plot.h — `tessera plot`: gnuplot scripts drawn from a statistics database.
 * A sweep plot draws a run_summary column against a parameter, one line per
 * value of another; an interval plot draws a run's utilisation over time from
 * its `intervals` (record.interval). The script is self-contained (its data
 * inline), so a user can print it (`--script`), edit it and run gnuplot. */
#ifndef TESSERA_PLOT_H
#define TESSERA_PLOT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "events/base/diag.h"

typedef struct plot_opts {
    const char *x_key;        /* sweep: the parameter on the x axis ("sm.bank") */
    const char *y_col;        /* sweep: the run_summary column on the y axis ("end_cycles") */
    const char *by_key;       /* sweep: one line per value of this parameter, or NULL */
    const char *program;      /* sweep: only this program's runs (file name or stored path), or NULL */
    const char *where;        /* sweep: only runs where this SQL condition on run_summary holds */
    const char *const *replicate_keys; /* sweep: keys a point may average over without a
                                 warning (sim.seed, keys that never change a result),
                                 NULL-terminated; NULL: none */
    const char *const *known_keys; /* every configuration key, NULL-terminated (NULL: none):
                                 --x/--by `issue_width` suggests `simt.issue_width` */
    bool intervals;           /* draw run `run_id`'s intervals instead of a sweep */
    int64_t run_id;           /* intervals: the run; 0 = the latest */
} plot_opts_t;

typedef struct plot plot_t;

/* Reads what `opts` asks for from the database at `path` (read-only). A
 * sweep's --x and --by take a parameter key or `program` (the runs' paths);
 * --where may only read (an authorizer refuses anything else).
 * Returns NULL with the reason in diag: TESS_EIO/TESS_EDB for the database,
 * TESS_EINPUT for a key no run has (suggesting the key of that name in
 * another section), a column run_summary lacks or that is not numeric, a
 * --where that is not one valid condition, no run with status ok (among
 * those selected), a run without intervals; TESS_ENOMEM. A sweep
 * point that averages runs differing in a parameter neither plotted (--x,
 * --by) nor a replicate key, or in their program, warns through diag (once
 * per parameter, naming a point, the values and how to tell them apart). */
plot_t *plot_open(const char *path, const plot_opts_t *opts, diag_t *diag);
void plot_close(plot_t *p);

/* The picture formats, by the output's extension: "svg" or "png" (NULL: neither). */
const char *plot_format(const char *out_path);

/* Writes the gnuplot script that draws `p` in `format` ("svg" or "png") to
 * `output` (NULL: gnuplot's standard output). Never fails (stream errors are
 * the caller's to check). */
void plot_write_script(const plot_t *p, const char *format, const char *output, FILE *f);

#endif

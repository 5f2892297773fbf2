/* timeline.h — the SVG Gantt chart of one recorded run (docs/VISUALS.md),
 * drawn from the run reader (run.h): a row per core, a lane per bank, CF
 * markers, a time axis in cycles. Memory is bounded by the picture's width,
 * whatever the number of accesses. */
#ifndef TESSERA_TIMELINE_H
#define TESSERA_TIMELINE_H

#include <stdio.h>

#include "analysis/present/run.h"

typedef struct tl_svg_opts {
    uint64_t from_ps, to_ps;  /* the window; to_ps 0 = the end of the run */
    unsigned width;           /* pixels, 0 = 1200 */
} tl_svg_opts_t;

/* Draws the Gantt chart of the run (docs/VISUALS.md) to `out`, streaming:
 * memory is bounded by the width, whatever the number of accesses.
 * TESS_OK, or TESS_EINPUT (level summary, empty window), TESS_EDB, TESS_EIO,
 * TESS_ENOMEM with the reason in diag; what was written is then incomplete. */
int tl_svg_write(tl_run_t *run, const tl_svg_opts_t *opts, FILE *out, diag_t *diag);

/* Spreads the busy interval [ca, cb) — in columns of col_ps picoseconds
 * from the window's start, 0 <= ca < cb — over row[0..cols), weighted by w:
 * each column gets w times the picoseconds of it that the interval covers
 * (the last column takes what lies past the end). The timeline's lanes
 * (w = 1) and the viewer's columns (analysis/view/vw_cols.c: issues weighted
 * by the eligible warps, too) both draw busy time with it. */
void tl_spread(double *row, unsigned cols, double col_ps, double ca, double cb, double w);

#endif

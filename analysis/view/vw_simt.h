/* vw_simt.h — a SIMT run's part of the timeline answer (docs/VISUALS.md):
 * the issue port per slot and the warps' states per pixel column.
 * Private to analysis/view/. Invariant: the issues and warp ld/st are read from their
 * packs (simt_issue_packs, simt_mem_packs; the layout: store/sipack.h) by a
 * decoder in C, never row by row through the simt_issue / simt_mem views
 * (files older than version 11, without both pack tables, excepted); a run's
 * summary (vw_simt_sum_t, built once with the MIMD one, vw_lanes.c) answers
 * wide windows, and tells a narrow one which pack rows to decode. */
#ifndef TESSERA_VW_SIMT_H
#define TESSERA_VW_SIMT_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/present/run.h"
#include "analysis/view/vw_cols.h"

typedef struct vw_simt_sum vw_simt_sum_t;

/* The summary of `run` over the buckets of `unit` ps from t0 (as many as
 * cover [t0, t1)): *out NULL when the run has no SIMT packs. TESS_OK, or
 * TESS_EDB / TESS_ENOMEM / TESS_EINTERRUPTED (*stop set) in diag. */
int vw_simt_build(tl_run_t *run, int64_t t0, int64_t t1, int64_t unit, unsigned buckets,
                  const atomic_bool *stop, vw_simt_sum_t **out, diag_t *diag);
void vw_simt_free(vw_simt_sum_t *s);    /* NULL is fine */
uint64_t vw_simt_entries(const vw_simt_sum_t *s); /* issues and ld/st it holds */

/* What a window takes from a summary: its columns (then `summary`), or the
 * pack rows to decode. Filled under the cache's lock by vw_simt_plan, used
 * (and freed) by vw_simt_part. */
typedef struct vw_simt_win {
    bool summary;             /* warp lanes, count and frame come from the summary */
    bool have_rows;           /* rows[][] are the only packs to decode (else: all) */
    cols_t warp;              /* the warp lanes (vw_simt.c's W_*), in the summary's columns */
    unsigned slots;
    int *count, *frame;       /* [slot * warp.n + col] */
    int64_t rows[2][2];       /* issue and ld/st packs: rowids [lo, hi]; hi 0: none */
} vw_simt_win_t;

/* Plans the window [t0, t1) in `cols` columns from s (NULL: decode every
 * pack): from its columns when !exact and they are at least two buckets
 * wide. TESS_ENOMEM on failure. */
int vw_simt_plan(const vw_simt_sum_t *s, int64_t t0, int64_t t1, unsigned cols, bool exact,
                 vw_simt_win_t *w);

/* Adds "issue" (level events) and "warps" to `out` for a SIMT run (nothing
 * for a MIMD one), as w says; frees what w holds. TESS_OK or the failure in
 * diag. */
int vw_simt_part(tl_run_t *run, vw_simt_win_t *w, int64_t t0, int64_t t1, unsigned cols,
                 json_t *out, diag_t *diag);
void vw_simt_win_free(vw_simt_win_t *w);  /* what w holds; w is zeroed */

/* Warp `frame`'s instruction slots over the whole run, as the task panel
 * shows them (docs/VISUALS.md, /api/run/N/task: warp.slots): from the
 * summary (under the cache's lock), or decoded from every pack of the run;
 * the latter NULL with TESS_EINPUT when the file has no packs (older than
 * version 11: read the views), else the failure in diag. */
json_t *vw_simt_slots(const vw_simt_sum_t *s, unsigned frame);
json_t *vw_simt_slots_decode(tl_run_t *run, unsigned frame, diag_t *diag);

#endif

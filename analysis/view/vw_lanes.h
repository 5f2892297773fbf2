/* vw_lanes.h — the run page's timeline as the viewer's API gives it
 * (docs/VISUALS.md, "tessera view"): per pixel column, the share of time
 * each bank was busy and each core waited on the Shared Memory, the SIMT
 * issue port and warp states, and the accesses themselves when few are in
 * view. Invariant: accesses are read from their packs (run.h's decoder)
 * and folded into columns; a window wider than a few buckets of the run is
 * answered from a per-run summary (cumulative busy time in VW_BUCKETS
 * buckets) kept in a small cache, built once per run by one decoding pass. Private to analysis/view/. */
#ifndef TESSERA_VW_LANES_H
#define TESSERA_VW_LANES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/present/run.h"

#define VW_BUCKETS 32768          /* summary buckets over a run */
#define VW_COLS_MAX 8192          /* pixel columns a request may ask for */
#define VW_DETAIL_MAX 5000        /* accesses (or issues) sent one by one at most */
#define VW_EXACT_MAX 100000       /* a run of at most this many accesses is always decoded */

typedef struct vw_cache vw_cache_t;

/* A cache of the summaries of at most `runs` runs of the database `db`
 * (shared by the server's threads: it locks). NULL when out of memory. */
vw_cache_t *vw_cache_create(const char *db, unsigned runs);
void vw_cache_destroy(vw_cache_t *c);   /* NULL is fine */

/* Makes the builds in progress and to come give up (TESS_EINTERRUPTED):
 * the server is stopping. Thread-safe; NULL is fine. */
void vw_cache_cancel(vw_cache_t *c);

/* Builds the summaries of the newest finished runs of `db` (half the
 * cache's room), the newest first: so that opening them is fast. Run on a
 * thread of its own at start. TESS_OK, or the first failure (in diag). */
int vw_cache_warm(vw_cache_t *c, const char *db, diag_t *diag);

/* The timeline of `run` over [t0, t1) in `cols` columns, as a JSON object
 * (the caller owns it; docs/VISUALS.md). The bank and wait lanes come from
 * the summary when it is coarse enough (their columns then whole numbers of
 * buckets: "lanes" says where they lie), else from the window's packs;
 * `exact`: always from the packs. NULL with TESS_EDB / TESS_ENOMEM /
 * TESS_EINTERRUPTED (the cache was cancelled) in diag. */
json_t *vw_timeline(vw_cache_t *c, tl_run_t *run, int64_t t0, int64_t t1, unsigned cols,
                    bool exact, diag_t *diag);

/* Warp `frame`'s instruction slots of a SIMT run (the task panel's
 * warp.slots, docs/VISUALS.md): from the run's summary when the cache holds
 * it, else decoded from the packs. NULL with TESS_EINPUT in diag when the
 * file has no SIMT packs (older than version 11), else on failure. */
json_t *vw_warp_slots(vw_cache_t *c, tl_run_t *run, unsigned frame, diag_t *diag);

#endif

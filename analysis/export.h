/* export.h — getting a recorded run out of the database (read through
 * timeline.h): its SM accesses streamed from their packs, output files that
 * appear whole or not at all, and the traces for other viewers: Chrome/
 * Perfetto trace-event JSON (ui.perfetto.dev) and VCD (GTKWave). Everything
 * is streamed: memory does not grow with the number of accesses
 * (docs/VISUALS.md describes the tracks and the signals). */
#ifndef TESSERA_EXPORT_H
#define TESSERA_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/timeline.h"

#define EXP_ALL_ACCESSES UINT64_MAX

/* --- SM accesses, streamed --------------------------------------------------------- */

/* One SM access (`sm_accesses`); times are TL_NONE when NULL. */
typedef struct exp_access {
    unsigned frame, core, bank, addr, value;
    bool store, sync;
    int64_t idx, request, arrive, grant, done;
} exp_access_t;

/* When the bank that served `a` became free again: grant + sm.bank when that
 * latency is fixed, else done - sm.resp when that one is, else one cycle. */
int64_t exp_bank_free(const tl_run_t *run, const exp_access_t *a);

/* A stream of accesses. Which ones: those overlapping [from, to) (to 0: no
 * end), of one core task when frame and core are >= 0, and requested before
 * cut (0: no cut). Rows of one core task come in program order. */
typedef struct exp_acc_filter {
    uint64_t from, to, cut;
    int frame, core;
} exp_acc_filter_t;
typedef struct exp_acc_iter exp_acc_iter_t;

/* Starts a stream; NULL with TESS_EDB/TESS_ENOMEM in diag on failure. */
exp_acc_iter_t *exp_acc_begin(tl_run_t *run, const exp_acc_filter_t *f, diag_t *diag);
/* 1: *a is the next access; 0: the end; -1: TESS_EDB in diag. */
int exp_acc_next(exp_acc_iter_t *it, exp_access_t *a /* OUT */, diag_t *diag);
void exp_acc_end(exp_acc_iter_t *it);        /* NULL is fine */

/* Where to cut a stream so that it holds at most `max` of the accesses
 * overlapping [from, to), keeping the earliest requested: one pass over the
 * pack rows, then one over about `max` accesses (8 bytes of memory each). */
typedef struct exp_acc_cut {
    uint64_t cut;             /* keep the accesses requested before this; 0: keep all */
    uint64_t kept;            /* at most this many are kept (0: none, skip them) */
    uint64_t total;           /* accesses of the packs overlapping the window */
} exp_acc_cut_t;
int exp_acc_cut(tl_run_t *run, uint64_t from, uint64_t to, uint64_t max,
                exp_acc_cut_t *out /* OUT */, diag_t *diag);

/* --- output files ------------------------------------------------------------ */

/* An output written through a temporary file renamed into place on success,
 * so a failure never leaves a partial file; "-" is stdout. */
typedef struct exp_out {
    FILE *f;                  /* ro: where to write */
    char *path, *tmp;         /* private */
} exp_out_t;

/* TESS_OK, or TESS_EIO/TESS_ENOMEM with the reason in diag (nothing created). */
int exp_out_open(exp_out_t *o, const char *path, diag_t *diag);
/* Commits when ok (TESS_EIO if writing failed), else removes the temporary
 * file. Always releases o. */
int exp_out_close(exp_out_t *o, bool ok, diag_t *diag);

/* --- the traces ---------------------------------------------------------------- */

typedef struct exp_opts {
    uint64_t from_ps, to_ps;  /* the window; to_ps 0 = the end of the run */
    uint64_t max_accesses;    /* SM accesses to export at most (EXP_ALL_ACCESSES: all);
                                 beyond it the trace stops showing accesses at a cut time */
} exp_opts_t;

/* What an export wrote. */
typedef struct exp_stats {
    uint64_t accesses;        /* SM accesses exported */
    uint64_t accesses_total;  /* SM accesses in the window */
    uint64_t cut_ps;          /* accesses requested from here on were left out (0: none) */
    uint64_t records;         /* JSON events, or VCD value changes */
} exp_stats_t;

/* Writes the Perfetto / Chrome trace-event JSON of `run` to `out`.
 * TESS_OK, or TESS_EINPUT (level summary, empty window), TESS_EDB, TESS_EIO,
 * TESS_ENOMEM with the reason in diag (the output is then incomplete). */
int exp_perfetto_write(tl_run_t *run, const exp_opts_t *opts, FILE *out,
                       exp_stats_t *stats /* OUT */, diag_t *diag);

/* Writes the VCD of `run` to `out`: value changes in ascending time order.
 * Same results as exp_perfetto_write(). */
int exp_vcd_write(tl_run_t *run, const exp_opts_t *opts, FILE *out,
                  exp_stats_t *stats /* OUT */, diag_t *diag);

#endif

/* export.h — the traces of a recorded run for other viewers, read through
 * the run reader (run.h): Chrome/Perfetto trace-event JSON (ui.perfetto.dev)
 * and VCD (GTKWave). Everything is streamed: memory does not grow with the
 * number of accesses (docs/VISUALS.md describes the tracks and the signals). */
#ifndef TESSERA_EXPORT_H
#define TESSERA_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/present/run.h"

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

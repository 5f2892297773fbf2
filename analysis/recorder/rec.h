/* rec.h — the recorder: writes what a run reports (gpu_trace.h records, the
 * kernel's event log) into a SQLite database whose schema is a public
 * contract (docs/SCHEMA.md). Every run appends: tables carry run_id. The
 * recorder attaches to the simulation as its trace hook; writing overlaps
 * the simulation (a writer thread) and memory stays bounded whatever the
 * length of the run. What was recorded is committed by rec_end_run() even
 * for a run that was interrupted or stopped by the watchdog. */
#ifndef TESSERA_REC_H
#define TESSERA_REC_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/store/rec_level.h"
#include "events/sim.h"
#include "events/base/diag.h"
#include "model/gpu_trace.h"
#include "model/ivl.h"
#include "model/race.h"

/* rec_level_t: REC_SUMMARY, REC_TASKS, REC_MEM, REC_EVENTS (REC_LEVELS,
 * analysis/store/rec_level.h, the one list the configuration's record.level
 * and the readers share). */

typedef struct rec_opts {
    uint8_t level;            /* rec_level_t */
    sim_time_t from_ps;       /* record only what overlaps [from_ps, to_ps) … */
    sim_time_t to_ps;         /* … 0 = until the end */
} rec_opts_t;

typedef struct rec rec_t;

/* Opens (creating it and its schema if needed) the database at `path`.
 * Returns NULL with the reason in diag (TESS_EDB, TESS_EIO, TESS_ENOMEM):
 * an unwritable path, a file that is not a database, a locked database.
 * Never modifies an existing file it could not open as a Tessera database. */
rec_t *rec_open(const char *path, const rec_opts_t *opts, diag_t *diag);

/* What identifies a run (stored in `runs` and `params`). */
typedef struct rec_run_info {
    const char *program;      /* the program's path as given */
    const uint8_t *tm_image;  /* 2048 bytes: hashed into program_sha256 */
    const uint8_t *sm_image;  /* 4096 bytes: the initial SM, hashed into data_sha256 */
    const char *config;       /* the effective configuration as INI text */
    const char *const *param_keys;   /* "section.key" … */
    const char *const *param_values; /* … and their canonical values */
    size_t n_params;
    uint64_t period_ps;       /* clock period, for the views' cycle columns */
    unsigned banks;           /* sm.banks, how the accesses' banks are packed; 0: 16 */
} rec_run_info_t;

/* Starts a run: inserts its `runs` row (status 'running') and its params.
 * Returns TESS_OK and the run id, or TESS_EDB with the reason in diag. */
int rec_begin_run(rec_t *rec, const rec_run_info_t *info, int64_t *run_id /* OUT */,
                  diag_t *diag);

/* Attaches the recorder to `sim` as its trace hook (and turns the event log
 * on at REC_EVENTS). Returns the gpu_set_trace() mask the level needs. */
unsigned rec_attach(rec_t *rec, sim_t *sim);
/* Where the model should append the SM accesses (gpu_set_access_sink), or
 * NULL: through the hook (the level records none, or a window filters
 * them). Valid while the recorder is open; outside a run what is appended
 * is dropped. */
gpu_access_sink_t *rec_access_sink(rec_t *rec);

/* How a run ended. */
typedef struct rec_run_end {
    const char *status;       /* "ok", "watchdog", "interrupted", "time_limit",
                                 "wall_limit", "record_limit", "time_overflow", "deadlock",
                                 "error" */
    const char *error;        /* a message for any status but ok, or NULL */
    sim_time_t end_ps;        /* when the last READY reached the TS */
    sim_time_t stop_ps;       /* the simulated time at which the run stopped (end_ps for a
                                 run that finished); SIM_TIME_NEVER: unknown */
    race_det_t *races;        /* --races: the races found, into `races`; NULL: none asked */
    const ivl_t *intervals;   /* record.interval: into `intervals` (kind 'interval'), or NULL */
    const ivl_t *window;      /* the recording window's figures (kind 'window'), or NULL */
    uint64_t events;          /* kernel events run */
    double wall_s;            /* wall-clock seconds of the simulation */
} rec_run_end_t;

/* Ends the run: waits for the writer, builds the indexes, records the
 * status, commits. Returns TESS_OK or TESS_EDB (what was committed before
 * stays); when any of it failed, the run is stored as 'error' with
 * "recording incomplete: …" (when even that cannot be written, it stays
 * 'running', as a killed run does), never as end->status. */
int rec_end_run(rec_t *rec, const rec_run_end_t *end, diag_t *diag);

/* Closes the database (ending a run still open as 'error'). NULL is fine. */
void rec_close(rec_t *rec);

/* Records of the current (or last) run handed to the writer so far, by
 * table, for reports and benchmarks: accesses are counted one by one (not
 * as sm_access_packs rows); all of them are in the file once rec_end_run()
 * returned TESS_OK. */
typedef struct rec_counts {
    uint64_t frames, stalls, core_tasks, accesses, events, counters;
    uint64_t bytes_queued;    /* bytes handed to the writer */
} rec_counts_t;
void rec_get_counts(const rec_t *rec, rec_counts_t *out /* OUT */);

/* The trace hook rec_attach() installs (`rec` is the rec_t), for callers that
 * feed records themselves (benchmarks, tests) or chain it behind their own
 * hook. Records arriving outside a run, or after the writer failed, are
 * dropped. Never fails; may block while the writer is behind. */
void rec_hook(void *rec, unsigned kind, const void *record);

#endif

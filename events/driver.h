/* driver.h — runs a simulation from the libev host loop.
 * As fast as possible: an idle watcher drains the queue in batches and returns
 * to libev between batches, so that signals and timers are served. Paced: one
 * ev_timer is armed for the head of the queue, scaled by wall seconds per
 * simulated second. In both: SIGINT/SIGTERM stop the run between two events
 * (SIM_END_INTERRUPTED, state left consistent), a periodic progress line
 * (one line rewritten in place on a terminal, one line per period elsewhere), an
 * optional wall-clock limit, an optional limit of the embedding's (over_limit),
 * an optional stop flag. Simulated time never comes from libev. */
#ifndef TESSERA_DRIVER_H
#define TESSERA_DRIVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "events/sim.h"

typedef struct sim_drive_desc {
    sim_time_t until;          /* simulated-time limit; 0 = none */
    double wall_limit_s;       /* wall-clock limit in seconds; 0 = none */
    double pace;               /* wall seconds per simulated second; 0 = as fast as possible */
    double progress_period_s;  /* seconds between progress lines; 0 = 1 s */
    int progress;              /* 1 = always print progress, 0 = only when stderr is a
                                  terminal, -1 = never */
    FILE *progress_out;        /* NULL = stderr; on a terminal the line is updated in place */
    sim_time_t cycle_ps;       /* progress shows simulated time in cycles of this many ps;
                                  0 = in ns/us/ms */
    bool catch_signals;        /* SIGINT and SIGTERM stop the run */
    size_t batch;              /* events per loop iteration; 0 = 4096 */
    /* Optional: when it becomes non-zero the run stops between two batches
     * (paced: at the next event) with SIM_END_INTERRUPTED and signal 0. It
     * may be set from a signal handler or another thread. */
    const atomic_int *stop;
    /* Optional: where an asynchronous stop (a signal, the wall-clock limit,
     * the stop flag) takes effect. Without it the run stops between two
     * events. With it the driver asks stop_point(stop_user) for an instant
     * at or after now (the model's components may have run ahead of time),
     * runs every event up to it and stops there, as the simulated-time limit
     * would (sim_advance to it); the end is the stop's, not TIME_LIMIT. */
    sim_time_t (*stop_point)(void *user);
    void *stop_user;
    /* Optional: polled after every batch (and each paced event); when it
     * returns true the run stops as the wall-clock limit does, with
     * SIM_END_HOST_LIMIT (a limit of the embedding's: the database's size). */
    bool (*over_limit)(void *user);
    void *limit_user;
    /* Optional: appends model-specific text to the progress line. */
    void (*progress_extra)(void *user, char *buf, size_t size);
    void *progress_user;
} sim_drive_desc_t;

typedef struct sim_drive_result {
    sim_end_t end;             /* why the run returned */
    int signal;                /* the signal that interrupted it, or 0 */
    double wall_s;             /* wall-clock seconds spent in sim_drive */
    uint64_t events;           /* events run during this call */
} sim_drive_result_t;

/* Runs `sim` until an end condition: queue empty, a stop requested by a
 * component, the simulated-time limit, a signal, or the wall-clock limit.
 * Returns TESS_OK (see out->end for why it ended) or TESS_ENOMEM when the
 * libev loop cannot be created. Signal handlers are restored on return. */
int sim_drive(sim_t *sim, const sim_drive_desc_t *desc, sim_drive_result_t *out /* OUT */);

#endif

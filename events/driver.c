/* driver.c — runs a simulation from a libev loop (driver.h).
 * Invariant: events only ever run inside sim_run, called from one watcher at
 * a time, so every libev callback (signal, timer) sees the simulation between
 * two events, in a consistent state.
 *
 * As fast as possible, an ev_idle watcher runs sim_run in batches (4096 by
 * default) and returns to libev between batches: a libev iteration (a
 * zero-timeout epoll_wait while an idle watcher is active) costs ~0.3 us
 * here, ten times an event, so one event per iteration would cost more than
 * the events (bench_kernel, drive-hold batch=1 vs 4096). Paced,
 * one ev_timer is armed for the wall time of the queue head, scaled by
 * desc->pace, and runs every event of that simulated time when it fires.
 *
 * Why not one libev timer per event: libev timers are wall-clock doubles,
 * fired in batches per loop iteration, so an event scheduled by a callback
 * could run behind a later one already due, and picoseconds do not survive a
 * double for long. Simulated time must be exact and deterministic: it stays
 * in the kernel's integer queue, and libev only decides when to look at it.
 *
 * Each call uses its own loop (ev_loop_new), destroyed before returning; the
 * SIGINT/SIGTERM dispositions found on entry are restored on return. */
#include "events/driver.h"

#include <ev.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "events/base/err.h"

#define DRIVE_BATCH 4096
#define DRIVE_SLICE_S 0.01     /* a batch should take about this long at most */
#define DRIVE_PS_PER_S 1e12

typedef struct drive {
    sim_t *sim;
    const sim_drive_desc_t *desc;
    struct ev_loop *loop;
    ev_idle idle;              /* as fast as possible: one batch per call */
    ev_timer pace;             /* paced: fires at the head event's wall time */
    ev_timer progress;         /* periodic progress line */
    ev_timer wall;             /* wall-clock limit */
    ev_signal sig[2];          /* SIGINT, SIGTERM */
    struct sigaction old[2];   /* dispositions to restore */
    sim_time_t until;          /* simulated-time limit (SIM_TIME_NEVER: none); an
                                  asynchronous stop's instant once one is settling */
    sim_end_t settling;        /* the asynchronous stop that ends the run at `until`
                                  (desc->stop_point), SIM_END_NONE: none */
    size_t batch;              /* events per sim_run call, adapted to DRIVE_SLICE_S */
    size_t batch_max;          /* desc->batch or DRIVE_BATCH */
    FILE *out;                 /* progress stream, NULL when progress is off */
    bool tty;                  /* out is a terminal: rewrite one line in place */
    double wall0;              /* ev_time() on entry */
    double pace0;              /* loop time that simulated time sim0 maps to */
    sim_time_t sim0;           /* simulated time on entry */
    uint64_t events0;          /* sim_events_run() on entry */
    uint64_t last_events;      /* at the previous progress line */
    double last_wall;          /* ev_time() of the previous progress line */
    sim_drive_result_t *res;
} drive_t;

static const int drive_signals[2] = { SIGINT, SIGTERM };

/* ---- ending ----------------------------------------------------------- */

static void finish(drive_t *d, sim_end_t why)
{
    d->res->end = why;
    ev_break(d->loop, EVBREAK_ALL);
}

/* An asynchronous stop (signal, wall-clock limit, stop flag): at once, or,
 * when the model says where it can stop (desc->stop_point), at that instant
 * once every event up to it has run. The first stop wins. */
static void stop_async(drive_t *d, sim_end_t why)
{
    if (!d->desc->stop_point) {
        finish(d, why);
        return;
    }
    if (d->settling != SIM_END_NONE)
        return;
    d->settling = why;
    sim_time_t at = d->desc->stop_point(d->desc->stop_user);
    d->until = at < d->until ? at : d->until;
}

/* Ends the run when the simulation cannot go on; returns true if it did. */
static bool check_end(drive_t *d)
{
    sim_end_t why = sim_stop_reason(d->sim);
    if (why == SIM_END_NONE && sim_pending(d->sim) == 0)
        why = SIM_END_EMPTY;
    if (why == SIM_END_NONE && sim_next_time(d->sim) > d->until) {
        why = d->settling != SIM_END_NONE ? d->settling : SIM_END_TIME_LIMIT;
        sim_advance(d->sim, d->until); /* the run stopped at the limit, not at its last event */
    }
    if (why == SIM_END_NONE && d->desc->stop && d->settling == SIM_END_NONE &&
        atomic_load_explicit(d->desc->stop, memory_order_relaxed)) {
        if (!d->desc->stop_point)
            why = SIM_END_INTERRUPTED;
        else {
            stop_async(d, SIM_END_INTERRUPTED);
            return check_end(d); /* the stop's instant may be now */
        }
    }
    if (why == SIM_END_NONE)
        return false;
    finish(d, why);
    return true;
}

/* ---- progress --------------------------------------------------------- */

static void format_time(char *buf, size_t size, sim_time_t ps)
{
    if (ps >= 1000000000ull)
        snprintf(buf, size, "%.6f ms", (double)ps / 1e9);
    else if (ps >= 1000000ull)
        snprintf(buf, size, "%.6f us", (double)ps / 1e6);
    else
        snprintf(buf, size, "%.3f ns", (double)ps / 1e3);
}

/* The current progress line; `last` ends it (on a terminal the line is
 * otherwise rewritten in place by the next one). */
static void print_progress(drive_t *d, bool last)
{
    double now = ev_time();
    uint64_t events = sim_events_run(d->sim);
    double dt = now - d->last_wall;
    double rate = dt > 0 ? (double)(events - d->last_events) / dt : 0.0;
    char t[48], extra[256] = "";
    if (d->desc->cycle_ps)
        snprintf(t, sizeof t, "cycle %llu",
                 (unsigned long long)(sim_now(d->sim) / d->desc->cycle_ps));
    else
        format_time(t, sizeof t, sim_now(d->sim));
    if (d->desc->progress_extra)
        d->desc->progress_extra(d->desc->progress_user, extra, sizeof extra);
    /* \r and "erase to the end of the line" (ECMA-48 EL) keep one line on a terminal */
    fprintf(d->out, "%sprogress: %s%s%s%s, %llu events, %.3g events/s, wall %.1f s%s",
            d->tty ? "\r" : "", d->desc->cycle_ps ? "" : "sim ", t, extra[0] ? ", " : "", extra,
            (unsigned long long)(events - d->events0), rate, now - d->wall0,
            d->tty ? (last ? "\033[K\n" : "\033[K") : "\n");
    fflush(d->out);
    d->last_wall = now;
    d->last_events = events;
}

static void progress_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    print_progress(w->data, false);
}

/* ---- the watchers ----------------------------------------------------- */

/* Events differ in cost by orders of magnitude (a core may run a million
 * instructions in one), so the batch halves while batches take longer than
 * DRIVE_SLICE_S and doubles back while they are short: signals and timers
 * are served within a few hundredths of a second either way. */
static void adapt_batch(drive_t *d, double seconds)
{
    if (seconds > DRIVE_SLICE_S && d->batch > 1)
        d->batch /= 2;
    else if (seconds < DRIVE_SLICE_S / 4 && d->batch < d->batch_max)
        d->batch = d->batch * 2 < d->batch_max ? d->batch * 2 : d->batch_max;
}

/* The embedding's limit (desc->over_limit), after a batch: an asynchronous
 * stop, as the wall-clock limit's. */
static void check_limit(drive_t *d)
{
    if (d->desc->over_limit && d->settling == SIM_END_NONE &&
        d->desc->over_limit(d->desc->limit_user))
        stop_async(d, SIM_END_HOST_LIMIT);
}

static void idle_cb(struct ev_loop *loop, ev_idle *w, int revents)
{
    drive_t *d = w->data;
    double t0 = ev_time();
    sim_run(d->sim, d->until, d->batch);
    adapt_batch(d, ev_time() - t0);
    check_limit(d);
    check_end(d);
}

/* Arms the pace timer for the wall time of the queue head. */
static void pace_arm(drive_t *d)
{
    if (check_end(d))
        return;
    sim_time_t head = sim_next_time(d->sim);
    double at = d->pace0 + (double)(head - d->sim0) / DRIVE_PS_PER_S * d->desc->pace;
    double delay = at - ev_now(d->loop);
    ev_timer_set(&d->pace, delay > 0 ? delay : 0.0, 0.0);
    ev_timer_start(d->loop, &d->pace);
}

/* Runs every event at the head's simulated time (up to a batch). */
static void pace_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    drive_t *d = w->data;
    sim_run(d->sim, sim_next_time(d->sim), d->batch);
    ev_now_update(loop);
    check_limit(d);
    pace_arm(d);
}

static void wall_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    drive_t *d = w->data;
    stop_async(d, SIM_END_WALL_LIMIT);
    if (d->settling != SIM_END_NONE)
        check_end(d);
}

static void signal_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
    drive_t *d = w->data;
    if (d->settling == SIM_END_NONE)
        d->res->signal = w->signum;
    stop_async(d, SIM_END_INTERRUPTED);
    if (d->settling != SIM_END_NONE)
        check_end(d);
}

/* ---- setup and teardown ----------------------------------------------- */

static FILE *progress_stream(const sim_drive_desc_t *desc)
{
    FILE *out = desc->progress_out ? desc->progress_out : stderr;
    if (desc->progress < 0)
        return NULL;
    if (desc->progress == 0 && !isatty(fileno(out)))
        return NULL;
    return out;
}

static void start_signals(drive_t *d)
{
    for (int i = 0; i < 2; i++) {
        sigaction(drive_signals[i], NULL, &d->old[i]);
        ev_signal_init(&d->sig[i], signal_cb, drive_signals[i]);
        d->sig[i].data = d;
        ev_signal_start(d->loop, &d->sig[i]);
    }
}

/* libev resets a stopped signal to SIG_DFL; the signals stay blocked until
 * the old dispositions are back, so one arriving now goes to the old handler
 * instead of killing the process. */
static void stop_signals(drive_t *d)
{
    sigset_t block, saved;
    sigemptyset(&block);
    for (int i = 0; i < 2; i++)
        sigaddset(&block, drive_signals[i]);
    pthread_sigmask(SIG_BLOCK, &block, &saved);
    for (int i = 0; i < 2; i++) {
        ev_signal_stop(d->loop, &d->sig[i]);
        sigaction(drive_signals[i], &d->old[i], NULL);
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

static void start_timers(drive_t *d)
{
    const sim_drive_desc_t *desc = d->desc;
    if (d->out) {
        double period = desc->progress_period_s > 0 ? desc->progress_period_s : 1.0;
        ev_timer_init(&d->progress, progress_cb, period, period);
        d->progress.data = d;
        ev_timer_start(d->loop, &d->progress);
    }
    if (desc->wall_limit_s > 0) {
        ev_timer_init(&d->wall, wall_cb, desc->wall_limit_s, 0.0);
        d->wall.data = d;
        ev_timer_start(d->loop, &d->wall);
    }
}

static void stop_all(drive_t *d)
{
    ev_idle_stop(d->loop, &d->idle);
    ev_timer_stop(d->loop, &d->pace);
    ev_timer_stop(d->loop, &d->progress);
    ev_timer_stop(d->loop, &d->wall);
    if (d->desc->catch_signals)
        stop_signals(d);
}

static void init_drive(drive_t *d, sim_t *sim, const sim_drive_desc_t *desc,
                       sim_drive_result_t *out)
{
    memset(d, 0, sizeof *d);
    d->sim = sim;
    d->desc = desc;
    d->res = out;
    d->until = desc->until ? desc->until : SIM_TIME_NEVER - 1;  /* NEVER never runs */
    d->batch = d->batch_max = desc->batch ? desc->batch : DRIVE_BATCH;
    d->out = progress_stream(desc);
    d->tty = d->out && isatty(fileno(d->out));
    d->wall0 = d->last_wall = ev_time();
    d->sim0 = sim_now(sim);
    d->events0 = d->last_events = sim_events_run(sim);
    ev_idle_init(&d->idle, idle_cb);
    d->idle.data = d;
    ev_timer_init(&d->pace, pace_cb, 0.0, 0.0);
    d->pace.data = d;
    ev_timer_init(&d->progress, progress_cb, 0.0, 0.0);
    ev_timer_init(&d->wall, wall_cb, 0.0, 0.0);
}

int sim_drive(sim_t *sim, const sim_drive_desc_t *desc, sim_drive_result_t *out)
{
    static const sim_drive_desc_t defaults;
    drive_t d;
    memset(out, 0, sizeof *out);
    init_drive(&d, sim, desc ? desc : &defaults, out);
    d.loop = ev_loop_new(EVFLAG_AUTO);
    if (!d.loop)
        return TESS_ENOMEM;
    if (!check_end(&d)) {
        if (d.desc->catch_signals)
            start_signals(&d);
        start_timers(&d);
        ev_now_update(d.loop);
        d.pace0 = ev_now(d.loop);
        if (d.desc->pace > 0)
            pace_arm(&d);
        else
            ev_idle_start(d.loop, &d.idle);
        ev_run(d.loop, 0);
        stop_all(&d);
    }
    ev_loop_destroy(d.loop);
    out->events = sim_events_run(sim) - d.events0;
    out->wall_s = ev_time() - d.wall0;
    if (d.out)
        print_progress(&d, true);
    return TESS_OK;
}

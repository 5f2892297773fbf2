/* sim.h — the simulation kernel: virtual time and the deterministic event queue.
 * A sim_t owns one queue ordered by (time, priority, sequence): at the same
 * picosecond lower priorities run first, then events in the order they were
 * scheduled, so a run is the same on every host. Events are embedded in their
 * owners (libev's watchers); the queue links them and never allocates per
 * event. The kernel knows nothing of the GPU. No globals: simulations are
 * independent and may be run interleaved in one process. */
#ifndef TESSERA_SIM_H
#define TESSERA_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t sim_time_t;           /* picoseconds; never wall-clock time */
#define SIM_TIME_NEVER UINT64_MAX
/* The end of simulated time: 2^63 ps (about 106 days). An event scheduled
 * later stops the run (SIM_END_TIME_OVERFLOW) instead of being queued, so
 * that no time computation wraps: every single step the model takes (a
 * latency of at most 10^6 cycles of at most 10^9 ps, or a core's slice of
 * local instructions, model/core.c) adds far less than the 2^63 ps left
 * between the end of time and 2^64. */
#define SIM_TIME_END (UINT64_C(1) << 63)

typedef struct sim sim_t;
typedef struct sim_event sim_event_t;

/* The one callback shape: the event that fired, on its simulation. The owner
 * is recovered with container_of (or ev->data). */
typedef void (*sim_event_cb)(sim_t *sim, sim_event_t *ev);

struct sim_event {
    sim_event_cb cb;      /* rw: what happens when the event fires */
    void *data;           /* rw: free for the owner */
    const char *name;     /* rw: a static label for the event log ("bank3.grant") */
    sim_time_t time;      /* ro: when it fires; meaningful while pending */
    uint32_t slot;        /* private: queue position + 1; 0 when not pending */
    uint8_t prio;         /* rw while not pending: same-time order, lower first */
    uint8_t flags;        /* private */
};

#define container_of(ptr, type, member) \
    ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* Prepares an event (not pending). */
void sim_event_init(sim_event_t *ev, sim_event_cb cb, void *data, uint8_t prio,
                    const char *name);

static inline bool sim_event_pending(const sim_event_t *ev) { return ev->slot != 0; }

/* Creates a simulation at time 0 with an empty queue; NULL when out of memory. */
sim_t *sim_create(void);
/* Destroys it; pending events are dropped without being called. */
void sim_destroy(sim_t *sim);

/* Makes room for `n` pending events so that scheduling never allocates while
 * at most n are pending. Returns TESS_OK or TESS_ENOMEM (nothing changed). */
int sim_reserve(sim_t *sim, size_t n);
/* Caps the queue at `max` pending events (0, the default: no cap). Scheduling
 * one more fails as running out of memory does (SIM_END_ERROR): a guard
 * against runaway models, and how tests reach that path. */
void sim_limit_pending(sim_t *sim, size_t max);
/* Pending events that fit before the queue has to grow (and allocate). */
size_t sim_capacity(const sim_t *sim);

sim_time_t sim_now(const sim_t *sim);
/* Moves simulated time forward to `t` without running anything, as SystemC's
 * sc_start(T) does when no event is due before T: the driver does this when
 * a run reaches its simulated-time limit. Does nothing when `t` is not later
 * than now or an event is due before it. */
void sim_advance(sim_t *sim, sim_time_t t);
size_t sim_pending(const sim_t *sim);
uint64_t sim_events_run(const sim_t *sim);    /* events executed so far */
/* Time of the earliest pending event; SIM_TIME_NEVER when the queue is empty. */
sim_time_t sim_next_time(const sim_t *sim);

/* Schedules `ev` at absolute time `at` (at >= now; earlier is a bug and
 * asserts). A time past SIM_TIME_END (but SIM_TIME_NEVER) is not queued:
 * the run stops with SIM_END_TIME_OVERFLOW. A pending event is moved: it gets a new sequence number, as if
 * cancelled and scheduled again. Same time and priority as the running event
 * means "after it" (SystemC's delta cycle). Never fails: if the queue cannot
 * grow, the simulation stops with SIM_END_ERROR and sim_errmsg() says why.
 * While its callback runs, an event is not pending; scheduling it from there
 * is the cheapest path (an in-place queue update). An event scheduled at
 * SIM_TIME_NEVER stays pending and never runs. */
void sim_schedule(sim_t *sim, sim_event_t *ev, sim_time_t at);
static inline void sim_schedule_in(sim_t *sim, sim_event_t *ev, sim_time_t delay);
/* For the running event's callback, which would schedule its event again at
 * `at` (> now): when nothing else is pending and the running sim_run call
 * would run it next (within its time bound and event count, no stop, yield
 * or event log), the kernel starts that next run now — time moves to `at`,
 * it counts as an event run, its sequence number is taken — and returns
 * true: the callback goes on as that run, in place, without the queue.
 * Otherwise it returns false and changes nothing (the caller schedules).
 * Either way the same events run at the same times in the same order; a
 * component whose event serves many instants one after another (the SM's
 * grants of a contended bank) saves the queue's round trip per instant. */
bool sim_continue(sim_t *sim, sim_event_t *ev, sim_time_t at);
/* Removes a pending event; does nothing when it is not pending. */
void sim_cancel(sim_t *sim, sim_event_t *ev);

/* Why a run returned. */
typedef enum sim_end {
    SIM_END_NONE = 0,        /* still runnable: a batch or time bound was reached */
    SIM_END_EMPTY,           /* the queue is empty */
    SIM_END_STOPPED,         /* a component called sim_stop() */
    SIM_END_TIME_LIMIT,      /* the next event lies beyond the simulated-time limit */
    SIM_END_INTERRUPTED,     /* SIGINT/SIGTERM (set by the driver) */
    SIM_END_WALL_LIMIT,      /* the wall-clock limit passed (set by the driver) */
    SIM_END_ERROR,           /* the kernel failed (out of memory), see sim_errmsg */
    SIM_END_TIME_OVERFLOW,   /* an event would lie past SIM_TIME_END */
    SIM_END_HOST_LIMIT,      /* a limit of the embedding's passed (sim_drive_desc_t
                                .over_limit, set by the driver; e.g. the database's size) */
} sim_end_t;

const char *sim_end_name(sim_end_t end);  /* "empty", "stopped", … */

/* Runs events in order while their time is <= `until`, at most `max_events`
 * of them, and returns how many ran. Returns early after the event during
 * which sim_stop() was called. Time never moves past the last event run. */
size_t sim_run(sim_t *sim, sim_time_t until, size_t max_events);

/* Asks the running loop to return after the current event; `why` is kept
 * (the first request wins, but a kernel failure overrides it) until
 * sim_clear_stop(), and while it is kept sim_run() and sim_drive() run
 * nothing. */
void sim_stop(sim_t *sim, sim_end_t why);
sim_end_t sim_stop_reason(const sim_t *sim);
/* Asks the running sim_run call to return after the current event, once (not
 * a stop: the next call runs on). For an event that did much work, so that
 * the driver serves signals and timers soon (a core's long local loop). */
void sim_yield(sim_t *sim);
void sim_clear_stop(sim_t *sim);
/* The message of SIM_END_ERROR and SIM_END_TIME_OVERFLOW ("" otherwise). */
const char *sim_errmsg(const sim_t *sim);

/* Trace hook: components report what happened as (kind, record) pairs; the
 * hook decides what to keep. Kinds below SIM_TRACE_USER belong to the kernel.
 * With no hook attached, sim_trace() costs one predictable branch. */
typedef void (*sim_hook_fn)(void *user, unsigned kind, const void *record);
enum {
    SIM_TRACE_EVENT = 0,      /* record: const sim_trace_event_t *, per event run,
                                 only while the event log is enabled */
    SIM_TRACE_USER = 16,
};
typedef struct sim_trace_event {
    sim_time_t time;
    uint64_t seq;             /* ordinal of the event in the run, from 0 */
    const char *name;         /* the event's name (may be NULL) */
    uint8_t prio;
} sim_trace_event_t;

void sim_set_hook(sim_t *sim, sim_hook_fn fn, void *user);
bool sim_tracing(const sim_t *sim);                 /* a hook is attached */
void sim_trace(sim_t *sim, unsigned kind, const void *record);
/* Emits SIM_TRACE_EVENT for every event run (off by default). */
void sim_set_event_log(sim_t *sim, bool on);

static inline void sim_schedule_in(sim_t *sim, sim_event_t *ev, sim_time_t delay)
{
    sim_schedule(sim, ev, sim_now(sim) + delay);
}

#endif

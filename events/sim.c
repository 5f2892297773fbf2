/* sim.c — the simulation kernel: virtual time, the event queue, the run loop.
 * Invariant: every pending event sits in the queue (evq.h) under the key
 * (time, prio, seq) it was last scheduled with, and now <= every pending time.
 * While a callback runs, its event stays at the root of the heap under key 0
 * (nothing can pass it) and counts as not pending; if the callback schedules
 * it again the new key is kept aside and applied after the callback with one
 * sift-down, which makes the common "reschedule myself" pattern an in-place
 * heap update instead of a pop and a push. */
#include "events/sim.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"
#include "events/evq.h"

#define SIM_QUEUE_INITIAL 60    /* nodes allocated by sim_create */

struct sim {
    evq_t q;                  /* pending events, plus the running one at the root */
    sim_time_t now;           /* time of the last event run */
    uint64_t seq;             /* next insertion sequence number (from 1) */
    uint64_t events_run;      /* events executed so far */
    sim_event_t *running;     /* the event whose callback runs, or NULL */
    evq_key_t run_key;        /* its new key if it scheduled itself again, else 0 */
    sim_time_t cont_until;    /* the latest time sim_continue may move to: the running
                                 sim_run call's bound, 0 once a stop or a yield is
                                 asked or when that call logs events (one test) */
    size_t run_left;          /* events that call may still run besides the running one */
    sim_end_t stop;           /* requested stop, SIM_END_NONE when none */
    bool yield;               /* sim_yield(): end the current sim_run call */
    bool event_log;           /* emit SIM_TRACE_EVENT per event */
    sim_hook_fn hook;         /* trace hook, NULL when none */
    void *hook_user;          /* its argument */
    size_t max_pending;       /* queue growth limit (sim_limit_pending), 0 = none */
    char errmsg[192];         /* message of SIM_END_ERROR and SIM_END_TIME_OVERFLOW */
};

void sim_event_init(sim_event_t *ev, sim_event_cb cb, void *data, uint8_t prio,
                    const char *name)
{
    ev->cb = cb;
    ev->data = data;
    ev->name = name;
    ev->time = 0;
    ev->slot = 0;
    ev->prio = prio;
    ev->flags = 0;
}

sim_t *sim_create(void)
{
    sim_t *sim = tess_calloc(1, sizeof *sim);
    if (!sim)
        return NULL;
    evq_init(&sim->q);
    if (evq_reserve(&sim->q, SIM_QUEUE_INITIAL) != 0) {
        tess_free(sim);
        return NULL;
    }
    sim->seq = 1;
    return sim;
}

void sim_destroy(sim_t *sim)
{
    if (!sim)
        return;
    assert(!sim->running && "sim_destroy from inside an event");
    /* Pending events are not touched: their owners may be gone already. */
    evq_fini(&sim->q);
    tess_free(sim);
}

/* One node more than asked: the running event keeps the root while n
 * others are pending. */
int sim_reserve(sim_t *sim, size_t n)
{
    if (n == SIZE_MAX || evq_reserve(&sim->q, n + 1) != 0)
        return TESS_ENOMEM;
    return TESS_OK;
}

void sim_limit_pending(sim_t *sim, size_t max)
{
    sim->max_pending = max;
}

size_t sim_capacity(const sim_t *sim) { return sim->q.cap - 1; }

sim_time_t sim_now(const sim_t *sim) { return sim->now; }

void sim_advance(sim_t *sim, sim_time_t t)
{
    if (t > sim->now && t != SIM_TIME_NEVER && sim_next_time(sim) >= t)
        sim->now = t;
}
uint64_t sim_events_run(const sim_t *sim) { return sim->events_run; }

size_t sim_pending(const sim_t *sim)
{
    size_t n = sim->q.n;
    if (sim->running && !sim->run_key)
        n--;
    return n;
}

sim_time_t sim_next_time(const sim_t *sim)
{
    const evq_t *q = &sim->q;
    if (!sim->running)
        return q->n ? evq_key_time(q->key[0]) : SIM_TIME_NEVER;
    /* The root is the running event: look at its children and its new key. */
    evq_key_t k = sim->run_key ? sim->run_key : EVQ_KEY_MAX;
    for (uint32_t c = 1; c <= EVQ_ARITY && c < q->n; c++)
        if (q->key[c] < k)
            k = q->key[c];
    return k == EVQ_KEY_MAX ? SIM_TIME_NEVER : evq_key_time(k);
}

/* ---- errors and stops ------------------------------------------------- */

static void fail(sim_t *sim, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sim->errmsg, sizeof sim->errmsg, fmt, ap);
    va_end(ap);
    sim->stop = SIM_END_ERROR;      /* overrides any earlier request */
    sim->cont_until = 0;
}

void sim_stop(sim_t *sim, sim_end_t why)
{
    assert(why != SIM_END_NONE);
    if (sim->stop == SIM_END_NONE)
        sim->stop = why;
    sim->cont_until = 0;
}

sim_end_t sim_stop_reason(const sim_t *sim) { return sim->stop; }

void sim_yield(sim_t *sim)
{
    sim->yield = true;
    sim->cont_until = 0;
}

void sim_clear_stop(sim_t *sim)
{
    sim->stop = SIM_END_NONE;
    sim->errmsg[0] = '\0';
}

const char *sim_errmsg(const sim_t *sim)
{
    return sim->stop == SIM_END_ERROR || sim->stop == SIM_END_TIME_OVERFLOW ? sim->errmsg : "";
}

const char *sim_end_name(sim_end_t end)
{
    switch (end) {
    case SIM_END_NONE: return "none";
    case SIM_END_EMPTY: return "empty";
    case SIM_END_STOPPED: return "stopped";
    case SIM_END_TIME_LIMIT: return "time-limit";
    case SIM_END_INTERRUPTED: return "interrupted";
    case SIM_END_WALL_LIMIT: return "wall-limit";
    case SIM_END_ERROR: return "error";
    case SIM_END_TIME_OVERFLOW: return "time-overflow";
    case SIM_END_HOST_LIMIT: return "host-limit";
    }
    return "unknown";
}

/* ---- scheduling ------------------------------------------------------- */

/* An event past the end of simulated time: not queued (a pending one is
 * removed), and the run stops, saying which event and when. */
static __attribute__((noinline, cold)) void time_overflow(sim_t *sim, sim_event_t *ev,
                                                           sim_time_t at)
{
    sim_cancel(sim, ev);
    if (sim->stop != SIM_END_NONE)
        return;
    snprintf(sim->errmsg, sizeof sim->errmsg,
             "simulated time would pass its end, 2^63 ps, at event '%s' due at %llu ps (now "
             "%llu ps)", ev->name ? ev->name : "?", (unsigned long long)at,
             (unsigned long long)sim->now);
    sim_stop(sim, SIM_END_TIME_OVERFLOW);
}

static evq_key_t next_key(sim_t *sim, sim_event_t *ev, sim_time_t at)
{
    assert(at >= sim->now && "event scheduled in the past");
    assert(sim->seq <= EVQ_SEQ_MAX);
    ev->time = at;
    return evq_make_key(at, ev->prio, sim->seq++);
}

static void push_new(sim_t *sim, sim_event_t *ev, evq_key_t k)
{
    evq_t *q = &sim->q;
    if (sim->max_pending && sim_pending(sim) >= sim->max_pending) {
        fail(sim, "event queue: more than %zu pending events (limit) when "
             "scheduling '%s'", sim->max_pending, ev->name ? ev->name : "?");
        return;
    }
    if (evq_push(q, ev, k) != 0)
        fail(sim, "event queue: out of memory growing past %u events when "
             "scheduling '%s'", (unsigned)q->n, ev->name ? ev->name : "?");
}

/* Kept out of line so that the self-rescheduling path of sim_schedule
 * stays a leaf function without a register-saving prologue. */
static __attribute__((noinline)) void schedule_other(sim_t *sim, sim_event_t *ev,
                                                     evq_key_t k)
{
    if (ev->slot)
        evq_rekey_at(&sim->q, ev->slot - 1, k);
    else
        push_new(sim, ev, k);
}

void sim_schedule(sim_t *sim, sim_event_t *ev, sim_time_t at)
{
    if (__builtin_expect(at > SIM_TIME_END && at != SIM_TIME_NEVER, 0)) {
        time_overflow(sim, ev, at);
        return;
    }
    evq_key_t k = next_key(sim, ev, at);
    if (ev == sim->running) {
        sim->run_key = k;           /* applied when the callback returns */
        ev->slot = 1;               /* it is at the root */
        return;
    }
    schedule_other(sim, ev, k);
}

void sim_cancel(sim_t *sim, sim_event_t *ev)
{
    if (!ev->slot)
        return;
    if (ev == sim->running) {
        ev->slot = 0;               /* removed when the callback returns */
        sim->run_key = 0;
    } else {
        evq_remove_at(&sim->q, ev->slot - 1);
    }
}

bool sim_continue(sim_t *sim, sim_event_t *ev, sim_time_t at)
{
    assert(ev == sim->running && !ev->slot && at > sim->now);
    /* q.n == 1: the running event's root is all the queue holds */
    if (sim->q.n != 1 || at > sim->cont_until || !sim->run_left || at > SIM_TIME_END)
        return false;
    assert(sim->seq <= EVQ_SEQ_MAX);
    sim->seq++;                     /* numbered as sim_schedule would have */
    ev->time = at;
    sim->now = at;
    sim->run_left--;
    sim->events_run++;
    return true;
}

/* ---- the run loop ----------------------------------------------------- */

static void log_event(sim_t *sim, const sim_event_t *ev)
{
    sim_trace_event_t rec = {
        .time = sim->now, .seq = sim->events_run, .name = ev->name, .prio = ev->prio,
    };
    if (sim->hook)
        sim->hook(sim->hook_user, SIM_TRACE_EVENT, &rec);
}

/* Runs the root event, then sifts it down under its new key or removes it.
 * A callback may free its event's owner unless it scheduled it again, so the
 * event is not touched after the callback in that case. */
static inline __attribute__((always_inline)) void
run_one(sim_t *sim, evq_t *q, bool logged)
{
    sim_event_t *ev = q->ev[0];
    sim->now = evq_key_time(q->key[0]);
    q->key[0] = 0;                  /* nothing scheduled now can pass it */
    ev->slot = 0;
    sim->running = ev;
    sim->run_key = 0;
    if (logged)
        log_event(sim, ev);
    sim->events_run++;
    ev->cb(sim, ev);
    if (sim->run_key)
        evq_sift_down(q, 0, sim->run_key, ev);
    else
        evq_pop_root(q);
}

static inline __attribute__((always_inline)) size_t
run_loop(sim_t *sim, sim_time_t until, size_t max_events, bool logged)
{
    evq_t *q = &sim->q;
    size_t n = 0;
    /* An empty queue has EVQ_KEY_MAX at the root, whose time is beyond any
     * limit since events at SIM_TIME_NEVER never run. */
    if (until == SIM_TIME_NEVER)
        until--;
    sim->cont_until = logged || sim->yield ? 0 : until; /* logged: each event as it pops */
    while (n < max_events && evq_key_time(q->key[0]) <= until) {
        sim->run_left = max_events - n - 1;
        run_one(sim, q, logged);
        n = max_events - sim->run_left; /* with the runs sim_continue made */
        if (__builtin_expect((sim->stop != SIM_END_NONE) | sim->yield, 0))
            break;
    }
    sim->yield = false;
    sim->running = NULL;
    return n;
}

size_t sim_run(sim_t *sim, sim_time_t until, size_t max_events)
{
    assert(!sim->running && "sim_run from inside an event");
    if (sim->stop != SIM_END_NONE)
        return 0;
    if (sim->event_log && sim->hook)
        return run_loop(sim, until, max_events, true);
    return run_loop(sim, until, max_events, false);
}

/* ---- trace hook ------------------------------------------------------- */

void sim_set_hook(sim_t *sim, sim_hook_fn fn, void *user)
{
    sim->hook = fn;
    sim->hook_user = user;
}

bool sim_tracing(const sim_t *sim) { return sim->hook != NULL; }

void sim_trace(sim_t *sim, unsigned kind, const void *record)
{
    if (sim->hook)
        sim->hook(sim->hook_user, kind, record);
}

void sim_set_event_log(sim_t *sim, bool on)
{
    sim->event_log = on;
}

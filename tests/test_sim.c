/* test_sim.c — the kernel's event queue and run loop (events/sim.h).
 * The order test runs a million random events (equal times, priorities,
 * scheduling, moving and cancelling from callbacks) on the kernel and on a
 * naive reference queue and requires the same sequence; the others pin down
 * cancel/reschedule, delta cycles, run limits, stops, the trace hook,
 * reservation, the out-of-memory path and interleaved simulations. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "events/base/err.h"
#include "events/sim.h"
#include "tests/testutil.h"

/* ---- a log of events run, shared by the small tests ------------------- */

#define LOG_MAX 64

typedef struct log {
    const char *names[LOG_MAX];
    sim_time_t times[LOG_MAX];
    unsigned n;
} log_t;

typedef struct tev {
    sim_event_t ev;
    log_t *log;
    void (*action)(sim_t *sim, struct tev *self);   /* optional, after logging */
    struct tev *other[3];                           /* for actions */
    bool pending_in_cb;                             /* sim_event_pending() seen inside */
} tev_t;

static void tev_cb(sim_t *sim, sim_event_t *ev)
{
    tev_t *t = container_of(ev, tev_t, ev);
    if (t->log->n < LOG_MAX) {
        t->log->names[t->log->n] = ev->name;
        t->log->times[t->log->n] = sim_now(sim);
        t->log->n++;
    }
    t->pending_in_cb = sim_event_pending(ev);
    if (t->action)
        t->action(sim, t);
}

static void tev_init(tev_t *t, log_t *log, const char *name, uint8_t prio)
{
    memset(t, 0, sizeof *t);
    sim_event_init(&t->ev, tev_cb, NULL, prio, name);
    t->log = log;
}

/* tev_init, then scheduled at `when`. */
static void tev_at(sim_t *sim, tev_t *t, log_t *log, const char *name, sim_time_t when)
{
    tev_init(t, log, name, 0);
    sim_schedule(sim, &t->ev, when);
}

/* The log as one string, "a@5 b@7 …", for readable assertions. */
static const char *log_str(const log_t *log)
{
    static char buf[1024];
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < log->n && len < sizeof buf - 40; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s@%llu", i ? " " : "",
                                log->names[i], (unsigned long long)log->times[i]);
    return buf;
}

/* ---- the million-event order test ------------------------------------- */

#define ORD_OBJS 4096
#define ORD_LIMIT 1000000        /* no new scheduling after this many events */

typedef struct ord_obj {
    sim_event_t ev;
    uint32_t id;
    uint8_t prio;
    bool pending;                /* reference backend */
    uint32_t version;            /* reference backend: stale heap entries */
    uint64_t order;              /* value of the schedule counter when last scheduled */
} ord_obj_t;

typedef struct ord_entry {
    sim_time_t time;
    uint64_t order;
    uint32_t id, version;
    uint8_t prio;
} ord_entry_t;

typedef struct ord_model {
    bool ref;                    /* reference backend instead of the kernel */
    sim_t *sim;
    uint64_t rng;
    uint64_t order;              /* schedules so far */
    sim_time_t now;
    size_t pending;              /* pending objects, kept by the model */
    size_t runs;
    uint32_t *trace;             /* ids in run order */
    sim_time_t *times;
    ord_entry_t *heap;           /* reference backend: binary heap, lazy deletion */
    size_t nheap, capheap;
    /* direct checks of the kernel run */
    bool any;
    sim_time_t last_time;
    uint8_t last_prio;
    uint64_t last_order, order_mark;
    unsigned violations;
    ord_obj_t objs[ORD_OBJS];
} ord_model_t;

static bool ord_less(const ord_entry_t *a, const ord_entry_t *b)
{
    if (a->time != b->time)
        return a->time < b->time;
    if (a->prio != b->prio)
        return a->prio < b->prio;
    return a->order < b->order;
}

static void ref_push(ord_model_t *m, ord_entry_t e)
{
    if (m->nheap == m->capheap) {
        m->capheap = m->capheap ? 2 * m->capheap : 1024;
        m->heap = realloc(m->heap, m->capheap * sizeof *m->heap);
    }
    size_t i = m->nheap++;
    while (i > 0 && ord_less(&e, &m->heap[(i - 1) / 2])) {
        m->heap[i] = m->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    m->heap[i] = e;
}

static bool ref_pop(ord_model_t *m, ord_entry_t *out)
{
    if (!m->nheap)
        return false;
    *out = m->heap[0];
    ord_entry_t e = m->heap[--m->nheap];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= m->nheap)
            break;
        if (c + 1 < m->nheap && ord_less(&m->heap[c + 1], &m->heap[c]))
            c++;
        if (!ord_less(&m->heap[c], &e))
            break;
        m->heap[i] = m->heap[c];
        i = c;
    }
    m->heap[i] = e;
    return true;
}

static bool ord_pending(ord_model_t *m, uint32_t id)
{
    return m->ref ? m->objs[id].pending : sim_event_pending(&m->objs[id].ev);
}

static void ord_schedule(ord_model_t *m, uint32_t id, sim_time_t at)
{
    ord_obj_t *o = &m->objs[id];
    if (!ord_pending(m, id))
        m->pending++;
    o->order = ++m->order;
    if (!m->ref) {
        sim_schedule(m->sim, &o->ev, at);
        return;
    }
    o->pending = true;
    o->version++;
    ref_push(m, (ord_entry_t){ at, o->order, id, o->version, o->prio });
}

static void ord_cancel(ord_model_t *m, uint32_t id)
{
    if (!ord_pending(m, id))
        return;
    m->pending--;
    if (m->ref)
        m->objs[id].pending = false;
    else
        sim_cancel(m->sim, &m->objs[id].ev);
}

/* What object `id` does when it fires: the same on both backends. */
static void ord_step(ord_model_t *m, uint32_t id)
{
    m->trace[m->runs] = id;
    m->times[m->runs] = m->now;
    m->runs++;
    if (m->runs >= ORD_LIMIT)
        return;
    uint64_t r = test_rand(&m->rng);
    unsigned u = (unsigned)(r % 100);
    sim_time_t d = (r >> 8) % 4 == 0 ? 0 : (r >> 16) % 40;
    sim_time_t d2 = (r >> 24) % 8;
    uint32_t j = (uint32_t)((r >> 32) % ORD_OBJS);
    if (u < 50) {
        ord_schedule(m, id, m->now + d);                  /* myself again */
    } else if (u < 70) {
        ord_schedule(m, j, m->now + d);                   /* another: moved or new */
        ord_schedule(m, id, m->now + d2);
    } else if (u < 80) {
        ord_cancel(m, j);                                 /* maybe a same-time sibling */
        ord_schedule(m, id, m->now + d);
    } else if (u < 88) {
        ord_schedule(m, id, m->now + d);                  /* twice: the last wins */
        ord_schedule(m, id, m->now + d2);
    } else if (u < 92) {
        ord_schedule(m, id, m->now + d);                  /* and changes its mind */
        ord_cancel(m, id);
    }
    if (m->pending < ORD_OBJS / 4 && !ord_pending(m, j))
        ord_schedule(m, j, m->now + d2);
}

/* Kernel backend: checks the order directly, then steps the model. */
static void ord_cb(sim_t *sim, sim_event_t *ev)
{
    ord_obj_t *o = container_of(ev, ord_obj_t, ev);
    ord_model_t *m = ev->data;
    m->now = sim_now(sim);
    if (m->any && m->now < m->last_time)
        m->violations++;
    /* An event already pending when the previous one started must come
     * after it in (priority, scheduling order) if both share the time. */
    if (m->any && m->now == m->last_time && o->order <= m->order_mark &&
        !(m->last_prio < o->prio || (m->last_prio == o->prio && m->last_order < o->order)))
        m->violations++;
    m->any = true;
    m->last_time = m->now;
    m->last_prio = o->prio;
    m->last_order = o->order;
    m->order_mark = m->order;
    m->pending--;
    ord_step(m, o->id);
}

static ord_model_t *ord_create(bool ref)
{
    ord_model_t *m = calloc(1, sizeof *m);
    m->ref = ref;
    m->rng = 42;
    m->trace = malloc((ORD_LIMIT + ORD_OBJS) * sizeof *m->trace);
    m->times = malloc((ORD_LIMIT + ORD_OBJS) * sizeof *m->times);
    if (!ref)
        m->sim = sim_create();
    uint64_t init_rng = 7;
    for (uint32_t i = 0; i < ORD_OBJS; i++) {
        uint64_t r = test_rand(&init_rng);
        m->objs[i].id = i;
        m->objs[i].prio = (uint8_t)(r % 4);
        sim_event_init(&m->objs[i].ev, ord_cb, m, m->objs[i].prio, "ord");
        ord_schedule(m, i, (r >> 8) % 2000);
    }
    return m;
}

static void ord_destroy(ord_model_t *m)
{
    sim_destroy(m->sim);
    free(m->trace);
    free(m->times);
    free(m->heap);
    free(m);
}

static void ref_run(ord_model_t *m)
{
    ord_entry_t e;
    while (ref_pop(m, &e)) {
        ord_obj_t *o = &m->objs[e.id];
        if (!o->pending || o->version != e.version)
            continue;                                     /* cancelled or moved */
        o->pending = false;
        m->pending--;
        m->now = e.time;
        ord_step(m, e.id);
    }
}

static void test_order_million_random_events(void)
{
    ord_model_t *k = ord_create(false), *r = ord_create(true);
    size_t n = sim_run(k->sim, SIM_TIME_NEVER, SIZE_MAX);
    ref_run(r);
    CU_ASSERT_EQUAL(k->violations, 0);
    CU_ASSERT(k->runs >= ORD_LIMIT);
    CU_ASSERT_EQUAL(n, k->runs);
    CU_ASSERT_EQUAL(k->runs, r->runs);
    CU_ASSERT_EQUAL(sim_pending(k->sim), 0);
    CU_ASSERT_EQUAL(k->pending, 0);
    size_t first_diff = k->runs;
    for (size_t i = 0; i < k->runs && i < r->runs; i++) {
        if (k->trace[i] != r->trace[i] || k->times[i] != r->times[i]) {
            first_diff = i;
            break;
        }
    }
    CU_ASSERT_EQUAL(first_diff, k->runs);
    ord_destroy(k);
    ord_destroy(r);
}

/* ---- same-time order and delta cycles --------------------------------- */

static void test_same_time_priority_then_fifo(void)
{
    sim_t *sim = sim_create();
    log_t log = {0};
    tev_t e[5];
    tev_init(&e[0], &log, "p2", 2);
    tev_init(&e[1], &log, "p0a", 0);
    tev_init(&e[2], &log, "p1", 1);
    tev_init(&e[3], &log, "p0b", 0);
    tev_init(&e[4], &log, "early", 9);
    for (int i = 0; i < 4; i++)
        sim_schedule(sim, &e[i].ev, 10);
    sim_schedule(sim, &e[4].ev, 3);
    CU_ASSERT_EQUAL(sim_pending(sim), 5);
    CU_ASSERT_EQUAL(sim_next_time(sim), 3);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 5);
    CU_ASSERT_STRING_EQUAL(log_str(&log), "early@3 p0a@10 p0b@10 p1@10 p2@10");
    CU_ASSERT_EQUAL(sim_now(sim), 10);
    CU_ASSERT_EQUAL(sim_events_run(sim), 5);
    CU_ASSERT_EQUAL(sim_next_time(sim), SIM_TIME_NEVER);
    sim_destroy(sim);
}

static void schedule_b_now(sim_t *sim, tev_t *self)
{
    sim_schedule(sim, &self->other[0]->ev, sim_now(sim));
    sim_schedule(sim, &self->other[1]->ev, sim_now(sim));
}

/* An event scheduled at the current time runs after the current one: after
 * every same-time event of its priority already pending, and before those of
 * a larger priority number — even a lower number than the running event's. */
static void test_delta_cycle_at_current_time(void)
{
    sim_t *sim = sim_create();
    log_t log = {0};
    tev_t a, f, d, b, urgent;
    tev_init(&a, &log, "A", 1);
    tev_init(&f, &log, "F", 1);
    tev_init(&d, &log, "D", 2);
    tev_init(&b, &log, "B", 1);
    tev_init(&urgent, &log, "U", 0);
    a.action = schedule_b_now;
    a.other[0] = &b;
    a.other[1] = &urgent;
    sim_schedule(sim, &a.ev, 5);
    sim_schedule(sim, &d.ev, 5);
    sim_schedule(sim, &f.ev, 5);
    sim_run(sim, SIM_TIME_NEVER, 100);
    CU_ASSERT_STRING_EQUAL(log_str(&log), "A@5 U@5 F@5 B@5 D@5");
    sim_destroy(sim);
}

/* ---- cancel and reschedule -------------------------------------------- */

static void test_cancel_and_move_pending(void)
{
    sim_t *sim = sim_create();
    log_t log = {0};
    tev_t x, y, z, w;
    tev_init(&x, &log, "x", 0);
    sim_cancel(sim, &x.ev);                     /* never scheduled: no-op */
    CU_ASSERT_FALSE(sim_event_pending(&x.ev));
    sim_schedule(sim, &x.ev, 10);
    tev_at(sim, &y, &log, "y", 10);
    tev_at(sim, &z, &log, "z", 30);
    tev_at(sim, &w, &log, "w", 20);
    CU_ASSERT_TRUE(sim_event_pending(&x.ev));
    sim_schedule(sim, &x.ev, 10);               /* same time, new sequence: after y */
    sim_schedule(sim, &z.ev, 5);                /* earlier */
    sim_schedule(sim, &w.ev, 40);               /* later */
    CU_ASSERT_EQUAL(sim_pending(sim), 4);
    CU_ASSERT_EQUAL(x.ev.time, 10);
    CU_ASSERT_EQUAL(z.ev.time, 5);
    sim_cancel(sim, &y.ev);
    sim_cancel(sim, &y.ev);                     /* twice: no-op */
    CU_ASSERT_FALSE(sim_event_pending(&y.ev));
    CU_ASSERT_EQUAL(sim_pending(sim), 3);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 3);
    CU_ASSERT_STRING_EQUAL(log_str(&log), "z@5 x@10 w@40");
    sim_cancel(sim, &x.ev);                     /* already run: no-op */
    CU_ASSERT_EQUAL(sim_pending(sim), 0);
    sim_destroy(sim);
}

static void cancel_siblings_move_others(sim_t *sim, tev_t *self)
{
    sim_cancel(sim, &self->other[0]->ev);                     /* same-time sibling */
    sim_schedule(sim, &self->other[1]->ev, sim_now(sim));     /* later one to now */
    sim_schedule(sim, &self->other[2]->ev, sim_now(sim) + 100); /* earlier one later */
}

static void test_cancel_and_move_from_callback(void)
{
    sim_t *sim = sim_create();
    log_t log = {0};
    tev_t a, sib, late, soon;
    tev_at(sim, &a, &log, "a", 10);
    tev_at(sim, &sib, &log, "sib", 10);
    tev_at(sim, &late, &log, "late", 50);
    tev_at(sim, &soon, &log, "soon", 20);
    a.action = cancel_siblings_move_others;
    a.other[0] = &sib;
    a.other[1] = &late;
    a.other[2] = &soon;
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 3);
    CU_ASSERT_STRING_EQUAL(log_str(&log), "a@10 late@10 soon@110");
    sim_destroy(sim);
}

typedef struct self_ev {
    sim_event_t ev;
    int runs;
    int mode;                 /* what the callback does, see self_cb */
    bool pending_before, pending_after;
} self_ev_t;

static void self_cb(sim_t *sim, sim_event_t *ev)
{
    self_ev_t *s = container_of(ev, self_ev_t, ev);
    s->runs++;
    s->pending_before = sim_event_pending(ev);
    sim_time_t now = sim_now(sim);
    switch (s->mode) {
    case 0: /* reschedule twice: the last wins */
        if (s->runs < 3) {
            sim_schedule(sim, ev, now + 1000);
            sim_schedule(sim, ev, now + 10);
        }
        break;
    case 1: /* reschedule, then cancel: does not run again */
        sim_schedule(sim, ev, now + 10);
        sim_cancel(sim, ev);
        break;
    case 2: /* cancel itself without rescheduling: no-op */
        sim_cancel(sim, ev);
        break;
    }
    s->pending_after = sim_event_pending(ev);
}

static void test_self_reschedule_and_cancel_in_callback(void)
{
    sim_t *sim = sim_create();
    self_ev_t s[3];
    for (int i = 0; i < 3; i++) {
        memset(&s[i], 0, sizeof s[i]);
        s[i].mode = i;
        sim_event_init(&s[i].ev, self_cb, NULL, 0, "self");
        sim_schedule(sim, &s[i].ev, 5);
    }
    sim_run(sim, SIM_TIME_NEVER, 100);
    CU_ASSERT_EQUAL(s[0].runs, 3);
    CU_ASSERT_FALSE(s[0].pending_before);       /* not pending inside its callback */
    CU_ASSERT_EQUAL(sim_now(sim), 25);          /* 5, 15, 25 */
    CU_ASSERT_EQUAL(s[1].runs, 1);
    CU_ASSERT_FALSE(s[1].pending_after);
    CU_ASSERT_EQUAL(s[2].runs, 1);
    CU_ASSERT_FALSE(s[2].pending_after);
    CU_ASSERT_EQUAL(sim_pending(sim), 0);
    CU_ASSERT_EQUAL(sim_events_run(sim), 5);
    sim_destroy(sim);
}

typedef struct probe {
    sim_event_t ev;
    sim_event_t *other;
    size_t pending_seen;
    sim_time_t next_seen[2];
} probe_t;

/* sim_pending and sim_next_time inside a callback, before and after the
 * running event reschedules itself. */
static void probe_cb(sim_t *sim, sim_event_t *ev)
{
    probe_t *p = container_of(ev, probe_t, ev);
    p->pending_seen = sim_pending(sim);
    p->next_seen[0] = sim_next_time(sim);
    sim_schedule(sim, ev, sim_now(sim) + 1);
    p->next_seen[1] = sim_next_time(sim);
    sim_cancel(sim, ev);
}

static void test_queries_inside_callback(void)
{
    sim_t *sim = sim_create();
    log_t log = {0};
    probe_t p = {0};
    tev_t later;
    tev_init(&later, &log, "later", 0);
    sim_event_init(&p.ev, probe_cb, NULL, 0, "probe");
    sim_schedule(sim, &p.ev, 10);
    sim_schedule(sim, &later.ev, 50);
    sim_run(sim, 10, 100);
    CU_ASSERT_EQUAL(p.pending_seen, 1);
    CU_ASSERT_EQUAL(p.next_seen[0], 50);
    CU_ASSERT_EQUAL(p.next_seen[1], 11);
    CU_ASSERT_EQUAL(sim_pending(sim), 1);
    CU_ASSERT_EQUAL(sim_next_time(sim), 50);
    sim_destroy(sim);
}

/* ---- run limits and stops --------------------------------------------- */

static void stop_now(sim_t *sim, tev_t *self)
{
    sim_stop(sim, SIM_END_STOPPED);
    sim_stop(sim, SIM_END_EMPTY);               /* the first request wins */
}

static void test_run_time_and_count_limits(void)
{
    sim_t *sim = sim_create();
    log_t log = {0};
    tev_t e[6];
    const char *names[6] = { "a", "b", "c", "d", "e", "f" };
    for (int i = 0; i < 6; i++) {
        tev_init(&e[i], &log, names[i], 0);
        sim_schedule(sim, &e[i].ev, 10 * (sim_time_t)(i + 1));
    }
    CU_ASSERT_EQUAL(sim_run(sim, 5, 100), 0);   /* nothing due */
    CU_ASSERT_EQUAL(sim_now(sim), 0);
    CU_ASSERT_EQUAL(sim_run(sim, 30, 100), 3);  /* events at the limit run */
    CU_ASSERT_EQUAL(sim_now(sim), 30);
    CU_ASSERT_EQUAL(sim_run(sim, 45, 100), 1);  /* time stays at the last event */
    CU_ASSERT_EQUAL(sim_now(sim), 40);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 1), 1);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 0), 0);
    CU_ASSERT_EQUAL(sim_pending(sim), 1);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 10), 1);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 10), 0);
    CU_ASSERT_STRING_EQUAL(log_str(&log), "a@10 b@20 c@30 d@40 e@50 f@60");
    sim_destroy(sim);
}

static void test_stop_returns_after_event_and_sticks(void)
{
    sim_t *sim = sim_create();
    log_t log = {0};
    tev_t a, b, c;
    tev_init(&a, &log, "a", 0);
    tev_init(&b, &log, "b", 0);
    tev_init(&c, &log, "c", 0);
    b.action = stop_now;
    sim_schedule(sim, &a.ev, 1);
    sim_schedule(sim, &b.ev, 2);
    sim_schedule(sim, &c.ev, 2);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 2);
    CU_ASSERT_EQUAL(sim_stop_reason(sim), SIM_END_STOPPED);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 0);  /* still stopped */
    CU_ASSERT_STRING_EQUAL(sim_errmsg(sim), "");
    sim_clear_stop(sim);
    CU_ASSERT_EQUAL(sim_stop_reason(sim), SIM_END_NONE);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 1);
    CU_ASSERT_STRING_EQUAL(log_str(&log), "a@1 b@2 c@2");
    CU_ASSERT_STRING_EQUAL(sim_end_name(SIM_END_STOPPED), "stopped");
    CU_ASSERT_STRING_EQUAL(sim_end_name(SIM_END_TIME_LIMIT), "time-limit");
    CU_ASSERT_STRING_EQUAL(sim_end_name(SIM_END_EMPTY), "empty");
    sim_destroy(sim);
}

/* The end of simulated time (issue 26): an event that would lie past 2^63
 * ps is not queued; the run stops with SIM_END_TIME_OVERFLOW at the time it
 * reached, the message names the event and both times; an event exactly at
 * the end runs, and SIM_TIME_NEVER stays a pending event that never runs. */
static void jump_far(sim_t *sim, tev_t *self)
{
    sim_schedule(sim, &self->other[0]->ev, sim_now(sim) + (UINT64_C(1) << 62));
}

static void test_time_past_its_end_stops_the_run(void)
{
    sim_t *sim = sim_create();
    log_t log = {0};
    tev_t a, b, never;
    tev_init(&a, &log, "a", 0);
    tev_init(&b, &log, "b", 0);
    tev_init(&never, &log, "never", 0);
    a.action = jump_far, a.other[0] = &b;   /* a at 2^62 + 2^61: b at 2^63 + 2^61 */
    b.action = jump_far, b.other[0] = &a;
    sim_schedule(sim, &never.ev, SIM_TIME_NEVER);
    sim_schedule(sim, &a.ev, (UINT64_C(1) << 62) + (UINT64_C(1) << 61));
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 1);
    CU_ASSERT_EQUAL(sim_stop_reason(sim), SIM_END_TIME_OVERFLOW);
    CU_ASSERT_EQUAL(sim_now(sim), (UINT64_C(1) << 62) + (UINT64_C(1) << 61));
    CU_ASSERT_FALSE(sim_event_pending(&b.ev));
    CU_ASSERT_TRUE(sim_event_pending(&never.ev));
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(sim), "event 'b' due at 11529215046068469760 ps"));
    CU_ASSERT_STRING_EQUAL(sim_end_name(SIM_END_TIME_OVERFLOW), "time-overflow");
    sim_clear_stop(sim);
    CU_ASSERT_STRING_EQUAL(sim_errmsg(sim), "");
    sim_schedule(sim, &b.ev, SIM_TIME_END); /* the last instant is one */
    b.action = NULL;
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 1);
    CU_ASSERT_EQUAL(sim_now(sim), SIM_TIME_END);
    CU_ASSERT_EQUAL(sim_stop_reason(sim), SIM_END_NONE);
    CU_ASSERT_STRING_EQUAL(log_str(&log), "a@6917529027641081856 b@9223372036854775808");
    sim_destroy(sim);
}

/* ---- trace hook and event log ----------------------------------------- */

typedef struct trace_rec {
    unsigned kinds[16];
    sim_trace_event_t evs[16];
    int user_value;
    unsigned n;
} trace_rec_t;

static void hook(void *user, unsigned kind, const void *record)
{
    trace_rec_t *t = user;
    if (t->n >= 16)
        return;
    t->kinds[t->n] = kind;
    if (kind == SIM_TRACE_EVENT)
        t->evs[t->n] = *(const sim_trace_event_t *)record;
    else
        t->user_value = *(const int *)record;
    t->n++;
}

static void emit_user(sim_t *sim, tev_t *self)
{
    int v = 77;
    if (sim_tracing(sim))
        sim_trace(sim, SIM_TRACE_USER + 1, &v);
}

static void test_trace_hook_and_event_log(void)
{
    sim_t *sim = sim_create();
    log_t log = {0};
    trace_rec_t rec = {0};
    tev_t a, b;
    tev_init(&a, &log, "a", 3);
    tev_init(&b, &log, "b", 1);
    b.action = emit_user;
    CU_ASSERT_FALSE(sim_tracing(sim));
    sim_trace(sim, SIM_TRACE_USER, &rec);                  /* no hook: nothing */
    sim_set_event_log(sim, true);                          /* no hook yet */
    sim_schedule(sim, &a.ev, 4);
    sim_run(sim, SIM_TIME_NEVER, 10);
    sim_set_hook(sim, hook, &rec);
    CU_ASSERT_TRUE(sim_tracing(sim));
    sim_schedule(sim, &a.ev, 7);
    sim_schedule(sim, &b.ev, 9);
    sim_run(sim, SIM_TIME_NEVER, 10);
    CU_ASSERT_EQUAL(rec.n, 3);
    CU_ASSERT_EQUAL(rec.kinds[0], SIM_TRACE_EVENT);
    CU_ASSERT_EQUAL(rec.evs[0].time, 7);
    CU_ASSERT_EQUAL(rec.evs[0].seq, 1);                    /* second event of the run */
    CU_ASSERT_STRING_EQUAL(rec.evs[0].name, "a");
    CU_ASSERT_EQUAL(rec.evs[0].prio, 3);
    CU_ASSERT_EQUAL(rec.kinds[1], SIM_TRACE_EVENT);
    CU_ASSERT_EQUAL(rec.evs[1].seq, 2);
    CU_ASSERT_EQUAL(rec.kinds[2], SIM_TRACE_USER + 1);
    CU_ASSERT_EQUAL(rec.user_value, 77);
    sim_set_event_log(sim, false);                         /* hook only: user records */
    sim_schedule(sim, &b.ev, 12);
    sim_run(sim, SIM_TIME_NEVER, 10);
    CU_ASSERT_EQUAL(rec.n, 4);
    CU_ASSERT_EQUAL(rec.kinds[3], SIM_TRACE_USER + 1);
    sim_set_hook(sim, NULL, NULL);
    CU_ASSERT_FALSE(sim_tracing(sim));
    sim_destroy(sim);
}

/* ---- sim_continue: a callback going on as its event's next run --------- */

/* Runs every `step` ps up to `last`, going on in place when the kernel
 * allows (sim_continue), else scheduling itself; counts callback entries. */
typedef struct stepper {
    sim_event_t ev;
    log_t *log;
    sim_time_t step, last;
    unsigned entries;
} stepper_t;

static void stepper_cb(sim_t *sim, sim_event_t *ev)
{
    stepper_t *s = container_of(ev, stepper_t, ev);
    s->entries++;
    for (;;) {
        log_t *log = s->log;
        if (log->n < LOG_MAX) {
            log->names[log->n] = ev->name;
            log->times[log->n++] = sim_now(sim);
        }
        CU_ASSERT_FALSE(sim_event_pending(ev));
        sim_time_t at = sim_now(sim) + s->step;
        if (at > s->last)
            return;
        if (!sim_continue(sim, ev, at)) {
            sim_schedule(sim, ev, at);
            return;
        }
        CU_ASSERT_EQUAL(sim_now(sim), at);
    }
}

static void stepper_init(stepper_t *s, log_t *log, sim_time_t step, sim_time_t last)
{
    memset(s, 0, sizeof *s);
    sim_event_init(&s->ev, stepper_cb, NULL, 2, "s");
    s->log = log;
    s->step = step;
    s->last = last;
}

static void test_continue_in_place(void)
{
    /* alone: one callback runs all of its instants, each counted as an event */
    sim_t *sim = sim_create();
    log_t log = {0};
    stepper_t s;
    stepper_init(&s, &log, 10, 50);
    sim_schedule(sim, &s.ev, 10);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 5);
    CU_ASSERT_EQUAL(sim_events_run(sim), 5);
    CU_ASSERT_EQUAL(s.entries, 1);
    CU_ASSERT_EQUAL(sim_now(sim), 50);
    CU_ASSERT_EQUAL(sim_pending(sim), 0);
    CU_ASSERT_STRING_EQUAL(log_str(&log), "s@10 s@20 s@30 s@40 s@50");

    /* another event pending: the stepper goes through the queue, so that
       events of its time and earlier keep their order */
    log = (log_t){0};
    tev_t x, y;
    tev_init(&x, &log, "x", 0);
    tev_init(&y, &log, "y", 3); /* after s at the same time */
    stepper_init(&s, &log, 10, 200);
    sim_schedule(sim, &s.ev, 60);
    sim_schedule(sim, &x.ev, 95);
    sim_schedule(sim, &y.ev, 130);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 17);
    CU_ASSERT_STRING_EQUAL(log_str(&log), "s@60 s@70 s@80 s@90 x@95 s@100 s@110 s@120 s@130 "
                                          "y@130 s@140 s@150 s@160 s@170 s@180 s@190 s@200");
    CU_ASSERT_EQUAL(sim_events_run(sim), 5 + 17);
    sim_destroy(sim);
}

static void test_continue_within_bounds(void)
{
    sim_t *sim = sim_create();
    log_t log = {0};
    stepper_t s;
    stepper_init(&s, &log, 10, 100);
    sim_schedule(sim, &s.ev, 10);
    CU_ASSERT_EQUAL(sim_run(sim, 35, 100), 3);   /* the time bound */
    CU_ASSERT_EQUAL(sim_now(sim), 30);
    CU_ASSERT_EQUAL(sim_next_time(sim), 40);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 2), 2); /* the event count */
    CU_ASSERT_EQUAL(sim_now(sim), 50);
    CU_ASSERT_EQUAL(sim_next_time(sim), 60);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 5);
    CU_ASSERT_STRING_EQUAL(log_str(&log), "s@10 s@20 s@30 s@40 s@50 s@60 s@70 s@80 s@90 s@100");
    CU_ASSERT_EQUAL(s.entries, 3);
    CU_ASSERT_EQUAL(sim_events_run(sim), 10);

    /* the event log sees every run: the kernel runs each through the queue */
    trace_rec_t rec = {0};
    sim_set_hook(sim, hook, &rec);
    sim_set_event_log(sim, true);
    log = (log_t){0};
    stepper_init(&s, &log, 1, 103);
    sim_schedule(sim, &s.ev, 101);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 3);
    CU_ASSERT_EQUAL(s.entries, 3);
    CU_ASSERT_EQUAL(rec.n, 3);
    CU_ASSERT_EQUAL(rec.evs[2].time, 103);
    CU_ASSERT_EQUAL(rec.evs[2].seq, 12);
    sim_destroy(sim);
}

/* ---- reservation and the out-of-memory path --------------------------- */

static void kid_cb_noop(sim_t *sim, sim_event_t *ev) {}

static void test_reserve_prevents_growth(void)
{
    sim_t *sim = sim_create();
    enum { N = 5000 };
    sim_event_t *evs = calloc(N, sizeof *evs);
    CU_ASSERT_EQUAL(sim_reserve(sim, N), TESS_OK);
    size_t cap = sim_capacity(sim);
    CU_ASSERT(cap >= N);
    for (int i = 0; i < N; i++) {
        sim_event_init(&evs[i], tev_cb, NULL, 0, "r");
        evs[i].cb = NULL;
    }
    uint64_t rng = 1;
    for (int i = 0; i < N; i++) {
        sim_schedule(sim, &evs[i], test_rand(&rng) % 1000);
        CU_ASSERT_EQUAL_FATAL(sim_capacity(sim), cap);      /* never grew */
    }
    for (int i = 0; i < N; i += 2)
        sim_cancel(sim, &evs[i]);
    CU_ASSERT_EQUAL(sim_pending(sim), N / 2);
    CU_ASSERT_EQUAL(sim_capacity(sim), cap);
    CU_ASSERT_EQUAL(sim_reserve(sim, (size_t)1 << 40), TESS_ENOMEM);  /* unchanged */
    CU_ASSERT_EQUAL(sim_capacity(sim), cap);
    CU_ASSERT_EQUAL(sim_pending(sim), N / 2);
    sim_destroy(sim);
    free(evs);
}

typedef struct relay_ev {
    sim_event_t ev;
    sim_event_t *spare;        /* scheduled by the callback while the others wait */
} relay_ev_t;

static void relay_ev_cb(sim_t *sim, sim_event_t *ev)
{
    relay_ev_t *r = container_of(ev, relay_ev_t, ev);
    if (r->spare)
        sim_schedule(sim, r->spare, sim_now(sim) + 5);
}

/* The reservation holds while a callback runs: its event keeps a node while
 * it schedules one more, bringing the pending count back to n. */
static void test_reserve_covers_running_event(void)
{
    enum { N = 100 };
    sim_t *sim = sim_create();
    relay_ev_t r[N];
    sim_event_t spare;
    sim_event_init(&spare, kid_cb_noop, NULL, 0, "spare");
    CU_ASSERT_EQUAL(sim_reserve(sim, N), TESS_OK);
    size_t cap = sim_capacity(sim);
    for (int i = 0; i < N; i++) {
        sim_event_init(&r[i].ev, relay_ev_cb, NULL, 0, "relay");
        r[i].spare = i == 0 ? &spare : NULL;
        sim_schedule(sim, &r[i].ev, 1);
    }
    CU_ASSERT_EQUAL(sim_run(sim, 1, 1), 1);
    CU_ASSERT_EQUAL(sim_pending(sim), N);
    CU_ASSERT_EQUAL(sim_capacity(sim), cap);
    sim_destroy(sim);
}

typedef struct spawner {
    sim_event_t ev;
    sim_event_t kids[8];
    int made;
} spawner_t;

static void spawn_cb(sim_t *sim, sim_event_t *ev)
{
    spawner_t *s = container_of(ev, spawner_t, ev);
    for (int i = 0; i < 8; i++) {
        sim_schedule(sim, &s->kids[i], sim_now(sim) + 1);
        if (sim_stop_reason(sim) == SIM_END_ERROR)
            return;
        s->made++;
    }
}

static void test_queue_limit_stops_with_error(void)
{
    sim_t *sim = sim_create();
    spawner_t s = {0};
    sim_event_init(&s.ev, spawn_cb, NULL, 0, "spawner");
    for (int i = 0; i < 8; i++)
        sim_event_init(&s.kids[i], kid_cb_noop, NULL, 0, "kid");
    sim_limit_pending(sim, 5);
    sim_schedule(sim, &s.ev, 1);
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 1);  /* returns after it */
    CU_ASSERT_EQUAL(s.made, 5);
    CU_ASSERT_EQUAL(sim_stop_reason(sim), SIM_END_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(sim), "kid"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_errmsg(sim), "5"));
    CU_ASSERT_EQUAL(sim_pending(sim), 5);                  /* state intact */
    CU_ASSERT_FALSE(sim_event_pending(&s.kids[5]));
    sim_clear_stop(sim);
    CU_ASSERT_STRING_EQUAL(sim_errmsg(sim), "");
    CU_ASSERT_EQUAL(sim_run(sim, SIM_TIME_NEVER, 100), 5);
    sim_destroy(sim);
}

#ifndef NDEBUG
static void past_cb(sim_t *sim, sim_event_t *ev)
{
    sim_schedule(sim, ev, sim_now(sim) - 1);
}

/* Scheduling in the past is a bug: the child must abort. */
static void test_schedule_in_past_asserts(void)
{
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(3);
        sim_t *sim = sim_create();
        sim_event_t ev;
        sim_event_init(&ev, past_cb, NULL, 0, "past");
        sim_schedule(sim, &ev, 10);
        sim_run(sim, SIM_TIME_NEVER, 10);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    CU_ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}
#endif

/* ---- two simulations in one process ----------------------------------- */

#define PH_EVENTS 64

typedef struct ph_ev {
    sim_event_t ev;
    uint32_t lp;
} ph_ev_t;

typedef struct phold {
    sim_t *sim;
    uint64_t rng;
    uint64_t hash;
    ph_ev_t evs[PH_EVENTS];
} phold_t;

static void ph_cb(sim_t *sim, sim_event_t *ev)
{
    phold_t *p = ev->data;
    ph_ev_t *e = container_of(ev, ph_ev_t, ev);
    uint64_t r = test_rand(&p->rng);
    p->hash = (p->hash ^ (sim_now(sim) * 31 + e->lp + (uint64_t)(e - p->evs))) *
              0x100000001b3ull;
    e->lp = (uint32_t)(r % 16);
    sim_schedule(sim, ev, sim_now(sim) + (r >> 8) % 3 * ((r >> 16) % 100));
}

static void ph_init(phold_t *p, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->sim = sim_create();
    p->rng = seed;
    for (int i = 0; i < PH_EVENTS; i++) {
        sim_event_init(&p->evs[i].ev, ph_cb, p, (uint8_t)(i % 3), "ph");
        sim_schedule(p->sim, &p->evs[i].ev, test_rand(&p->rng) % 50);
    }
}

static void test_two_simulations_interleaved(void)
{
    const sim_time_t end = 200000;
    phold_t *alone = malloc(2 * sizeof *alone), *both = malloc(2 * sizeof *both);
    for (int i = 0; i < 2; i++) {
        ph_init(&alone[i], 100 + (uint64_t)i);
        sim_run(alone[i].sim, end, SIZE_MAX);
        ph_init(&both[i], 100 + (uint64_t)i);
    }
    size_t ran;
    do {
        ran = sim_run(both[0].sim, end, 7);
        ran += sim_run(both[1].sim, end, 13);
    } while (ran);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT(sim_events_run(alone[i].sim) > 10000);
        CU_ASSERT_EQUAL(both[i].hash, alone[i].hash);
        CU_ASSERT_EQUAL(sim_events_run(both[i].sim), sim_events_run(alone[i].sim));
        CU_ASSERT_EQUAL(sim_now(both[i].sim), sim_now(alone[i].sim));
        CU_ASSERT_EQUAL(sim_pending(both[i].sim), PH_EVENTS);
        sim_destroy(alone[i].sim);
        sim_destroy(both[i].sim);
    }
    CU_ASSERT_NOT_EQUAL(alone[0].hash, alone[1].hash);
    free(alone);
    free(both);
}

static const test_case_t cases[] = {
    TEST(test_order_million_random_events),
    TEST(test_same_time_priority_then_fifo),
    TEST(test_delta_cycle_at_current_time),
    TEST(test_cancel_and_move_pending),
    TEST(test_cancel_and_move_from_callback),
    TEST(test_self_reschedule_and_cancel_in_callback),
    TEST(test_queries_inside_callback),
    TEST(test_run_time_and_count_limits),
    TEST(test_stop_returns_after_event_and_sticks),
    TEST(test_time_past_its_end_stops_the_run),
    TEST(test_continue_in_place),
    TEST(test_continue_within_bounds),
    TEST(test_trace_hook_and_event_log),
    TEST(test_reserve_prevents_growth),
    TEST(test_reserve_covers_running_event),
    TEST(test_queue_limit_stops_with_error),
#ifndef NDEBUG
    TEST(test_schedule_in_past_asserts),
#endif
    TEST(test_two_simulations_interleaved),
    TEST_END
};

static const test_suite_t suites[] = { { "sim", cases }, { NULL, NULL } };

int main(void)
{
    return test_run_suites(suites);
}

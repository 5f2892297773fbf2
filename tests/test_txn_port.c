/* test_txn_port.c — transactions (events/txn.h) and ports (events/port.h):
 * pool reuse and growth by chunks, the debug check that catches use after
 * release, delivery times and timestamps, zero-latency delivery after the
 * current event, and forwarding a transaction from its own delivery. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "events/base/err.h"
#include "events/port.h"
#include "events/sim.h"
#include "events/txn.h"
#include "tests/testutil.h"

/* ---- the pool --------------------------------------------------------- */

static bool contains(txn_t *const *set, size_t n, const txn_t *t)
{
    for (size_t i = 0; i < n; i++)
        if (set[i] == t)
            return true;
    return false;
}

static void test_pool_reuse_and_chunks(void)
{
    sim_t *sim = sim_create();
    txn_pool_t pool;
    CU_ASSERT_EQUAL(txn_pool_init(&pool, sim, 4), TESS_OK);
    CU_ASSERT_EQUAL(pool.capacity, 4);
    CU_ASSERT_EQUAL(pool.live, 0);
    txn_t *first[4];
    for (int i = 0; i < 4; i++)
        first[i] = txn_alloc(&pool);
    CU_ASSERT_EQUAL(pool.live, 4);
    CU_ASSERT_EQUAL(pool.capacity, 4);
    txn_t *fifth = txn_alloc(&pool);                   /* grows by one chunk */
    CU_ASSERT_PTR_NOT_NULL(fifth);
    CU_ASSERT_EQUAL(pool.capacity, 4 + pool.chunk_size);
    txn_release(&pool, fifth);
    for (int i = 0; i < 4; i++)
        txn_release(&pool, first[i]);
    CU_ASSERT_EQUAL(pool.live, 0);
    for (int i = 0; i < 4; i++)                        /* released ones come back */
        CU_ASSERT_TRUE(contains(first, 4, txn_alloc(&pool)));
    txn_pool_fini(&pool);

    /* Warm: a million alloc/release cycles with up to 100 live never grow. */
    CU_ASSERT_EQUAL(txn_pool_init(&pool, sim, 0), TESS_OK);
    size_t cap = pool.capacity;
    txn_t *live[100];
    uint64_t rng = 3;
    size_t nlive = 0;
    for (int i = 0; i < 1000000; i++) {
        if (nlive < 100 && (nlive == 0 || test_rand(&rng) % 2)) {
            live[nlive++] = txn_alloc(&pool);
        } else {
            size_t j = test_rand(&rng) % nlive;
            txn_release(&pool, live[j]);
            live[j] = live[--nlive];
        }
    }
    CU_ASSERT_EQUAL(pool.capacity, cap);
    CU_ASSERT_EQUAL(pool.live, nlive);
    txn_pool_fini(&pool);                              /* live ones go with it */
    CU_ASSERT_EQUAL(pool.capacity, 0);
    sim_destroy(sim);
}

static void test_pool_lifo_reuse(void)
{
    sim_t *sim = sim_create();
    txn_pool_t pool;
    txn_pool_init(&pool, sim, 8);
    txn_t *a = txn_alloc(&pool), *b = txn_alloc(&pool);
    txn_release(&pool, a);
    txn_release(&pool, b);
    CU_ASSERT_PTR_EQUAL(txn_alloc(&pool), b);
    CU_ASSERT_PTR_EQUAL(txn_alloc(&pool), a);
    CU_ASSERT_EQUAL(pool.live, 2);
    txn_pool_fini(&pool);
    sim_destroy(sim);
}

typedef struct stamp_ctx {
    sim_event_t ev;
    txn_pool_t *pool;
    txn_t *got;
} stamp_ctx_t;

static void alloc_cb(sim_t *sim, sim_event_t *ev)
{
    stamp_ctx_t *c = container_of(ev, stamp_ctx_t, ev);
    c->got = txn_alloc(c->pool);
}

static void test_alloc_zeroes_and_stamps_creation(void)
{
    sim_t *sim = sim_create();
    txn_pool_t pool;
    txn_pool_init(&pool, sim, 2);
    txn_t *t = txn_alloc(&pool);
    t->kind = 7;
    t->data = 99;
    t->t_done = 5;
    txn_release(&pool, t);
    stamp_ctx_t c = { .pool = &pool };
    sim_event_init(&c.ev, alloc_cb, NULL, 0, "alloc");
    sim_schedule(sim, &c.ev, 1234);
    sim_run(sim, SIM_TIME_NEVER, 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c.got);
    CU_ASSERT_EQUAL(c.got->t_created, 1234);
    CU_ASSERT_EQUAL(c.got->kind, 0);
    CU_ASSERT_EQUAL(c.got->data, 0);
    CU_ASSERT_EQUAL(c.got->t_done, 0);
    CU_ASSERT_PTR_NULL(c.got->user);
    CU_ASSERT_FALSE(sim_event_pending(&c.got->ev));
    txn_check(c.got);
    txn_pool_fini(&pool);
    sim_destroy(sim);
}

/* ---- use after release (debug builds) --------------------------------- */

#ifndef NDEBUG
typedef enum { MISUSE_CHECK, MISUSE_SEND, MISUSE_RELEASE_TWICE } misuse_t;

static void recv_nothing(void *owner, txn_t *txn) {}

/* Runs a misuse of a released transaction in a child; true if it aborted. */
static bool child_aborts(misuse_t how)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(3);
        sim_t *sim = sim_create();
        txn_pool_t pool;
        port_t port;
        txn_pool_init(&pool, sim, 4);
        port_init(&port, sim, 10, 0, recv_nothing, NULL, "p");
        txn_t *t = txn_alloc(&pool);
        txn_release(&pool, t);
        if (how == MISUSE_CHECK)
            txn_check(t);
        else if (how == MISUSE_SEND)
            port_send(&port, t, 0);
        else
            txn_release(&pool, t);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void test_use_after_release_aborts(void)
{
    CU_ASSERT_TRUE(child_aborts(MISUSE_CHECK));
    CU_ASSERT_TRUE(child_aborts(MISUSE_SEND));
    CU_ASSERT_TRUE(child_aborts(MISUSE_RELEASE_TWICE));
}

static void test_released_payload_is_poisoned(void)
{
    sim_t *sim = sim_create();
    txn_pool_t pool;
    txn_pool_init(&pool, sim, 2);
    txn_t *t = txn_alloc(&pool);
    t->kind = 1;
    t->addr = 2;
    txn_release(&pool, t);
    CU_ASSERT_EQUAL(t->kind, 0xa5a5);      /* pool memory: still ours to read */
    CU_ASSERT_EQUAL(t->addr, 0xa5a5a5a5u);
    txn_pool_fini(&pool);
    sim_destroy(sim);
}
#endif

/* ---- ports ------------------------------------------------------------ */

typedef struct sink {
    txn_t *got[8];
    sim_time_t at[8];
    unsigned n;
    sim_t *sim;
} sink_t;

static void sink_recv(void *owner, txn_t *txn)
{
    sink_t *s = owner;
    if (s->n < 8) {
        s->got[s->n] = txn;
        s->at[s->n] = sim_now(s->sim);
        s->n++;
    }
}

typedef struct sender {
    sim_event_t ev;
    port_t *port;
    txn_t *txn;
    sim_time_t extra;
    bool done;             /* set after port_send returned */
    const sink_t *sink;
    unsigned sink_seen;    /* deliveries the sink had when the sender finished */
} sender_t;

static void send_cb(sim_t *sim, sim_event_t *ev)
{
    sender_t *s = container_of(ev, sender_t, ev);
    port_send(s->port, s->txn, s->extra);
    s->sink_seen = s->sink->n;
    s->done = true;
}

static void test_port_latency_and_timestamps(void)
{
    sim_t *sim = sim_create();
    txn_pool_t pool;
    port_t port;
    sink_t sink = { .sim = sim };
    txn_pool_init(&pool, sim, 8);
    port_init(&port, sim, 100, 2, sink_recv, &sink, "a->b");
    sender_t s = { .port = &port, .extra = 7, .sink = &sink };
    sim_event_init(&s.ev, send_cb, NULL, 0, "send");
    s.txn = txn_alloc(&pool);
    sim_schedule(sim, &s.ev, 50);
    sim_run(sim, SIM_TIME_NEVER, 10);
    CU_ASSERT_EQUAL(sink.n, 1);
    CU_ASSERT_PTR_EQUAL(sink.got[0], s.txn);
    CU_ASSERT_EQUAL(sink.at[0], 157);
    CU_ASSERT_EQUAL(s.txn->t_created, 0);
    CU_ASSERT_EQUAL(s.txn->t_sent, 50);
    CU_ASSERT_EQUAL(s.txn->t_arrived, 157);
    CU_ASSERT_EQUAL(port.sent, 1);
    /* Outside any event, from time 157, with no extra delay. */
    txn_t *t2 = txn_alloc(&pool);
    port.latency = 3;
    port_send(&port, t2, 0);
    CU_ASSERT_TRUE(sim_event_pending(&t2->ev));
    CU_ASSERT_EQUAL(t2->ev.prio, 2);
    CU_ASSERT_EQUAL(sim_next_time(sim), 160);
    sim_run(sim, SIM_TIME_NEVER, 10);
    CU_ASSERT_EQUAL(sink.n, 2);
    CU_ASSERT_EQUAL(t2->t_sent, 157);
    CU_ASSERT_EQUAL(t2->t_arrived, 160);
    CU_ASSERT_EQUAL(port.sent, 2);
    txn_pool_fini(&pool);
    sim_destroy(sim);
}

typedef struct marker {
    sim_event_t ev;
    const sink_t *sink;
    unsigned sink_seen;
} marker_t;

static void marker_cb(sim_t *sim, sim_event_t *ev)
{
    marker_t *m = container_of(ev, marker_t, ev);
    m->sink_seen = m->sink->n;
}

/* Zero latency: the delivery runs after the sending event has finished, and
 * after same-time events of the port's priority already pending. */
static void test_zero_latency_runs_after_current_event(void)
{
    sim_t *sim = sim_create();
    txn_pool_t pool;
    port_t port;
    sink_t sink = { .sim = sim };
    txn_pool_init(&pool, sim, 8);
    port_init(&port, sim, 0, 0, sink_recv, &sink, "zero");
    sender_t s = { .port = &port, .sink = &sink };
    marker_t m = { .sink = &sink };
    sim_event_init(&s.ev, send_cb, NULL, 0, "send");
    sim_event_init(&m.ev, marker_cb, NULL, 0, "marker");
    s.txn = txn_alloc(&pool);
    sim_schedule(sim, &s.ev, 10);
    sim_schedule(sim, &m.ev, 10);                 /* pending before the send */
    sim_run(sim, SIM_TIME_NEVER, 10);
    CU_ASSERT_TRUE(s.done);
    CU_ASSERT_EQUAL(s.sink_seen, 0);              /* not delivered inside the send */
    CU_ASSERT_EQUAL(m.sink_seen, 0);              /* FIFO: the marker came first */
    CU_ASSERT_EQUAL(sink.n, 1);
    CU_ASSERT_EQUAL(sink.at[0], 10);
    CU_ASSERT_EQUAL(s.txn->t_sent, 10);
    CU_ASSERT_EQUAL(s.txn->t_arrived, 10);
    txn_pool_fini(&pool);
    sim_destroy(sim);
}

/* A relay forwards what it receives on a second port and the last stage
 * releases it: the delivery event is re-used from inside its own callback. */
typedef struct relay {
    port_t out;
    txn_pool_t *pool;
    sim_t *sim;
    sim_time_t final_at;
    txn_t *final;
    unsigned hops;
} relay_t;

static void last_recv(void *owner, txn_t *txn)
{
    relay_t *r = owner;
    r->final = txn;
    r->final_at = txn->t_arrived;
    txn_release(r->pool, txn);
}

static void relay_recv(void *owner, txn_t *txn)
{
    relay_t *r = owner;
    r->hops++;
    txn->data += 1;
    port_send(&r->out, txn, 5);
}

static void test_forward_and_release_in_receiver(void)
{
    sim_t *sim = sim_create();
    txn_pool_t pool;
    port_t in;
    relay_t r = { .pool = &pool, .sim = sim };
    txn_pool_init(&pool, sim, 4);
    port_init(&in, sim, 10, 0, relay_recv, &r, "in");
    port_init(&r.out, sim, 20, 1, last_recv, &r, "out");
    txn_t *t = txn_alloc(&pool);
    port_send(&in, t, 0);
    sim_run(sim, SIM_TIME_NEVER, 10);
    CU_ASSERT_EQUAL(r.hops, 1);
    CU_ASSERT_PTR_EQUAL(r.final, t);
    CU_ASSERT_EQUAL(r.final_at, 35);
    CU_ASSERT_EQUAL(pool.live, 0);
    CU_ASSERT_EQUAL(sim_pending(sim), 0);
    CU_ASSERT_EQUAL(sim_events_run(sim), 2);
    txn_pool_fini(&pool);
    sim_destroy(sim);
}

static const test_case_t cases[] = {
    TEST(test_pool_reuse_and_chunks),
    TEST(test_pool_lifo_reuse),
    TEST(test_alloc_zeroes_and_stamps_creation),
#ifndef NDEBUG
    TEST(test_use_after_release_aborts),
    TEST(test_released_payload_is_poisoned),
#endif
    TEST(test_port_latency_and_timestamps),
    TEST(test_zero_latency_runs_after_current_event),
    TEST(test_forward_and_release_in_receiver),
    TEST_END
};

static const test_suite_t suites[] = { { "txn_port", cases }, { NULL, NULL } };

int main(void)
{
    return test_run_suites(suites);
}

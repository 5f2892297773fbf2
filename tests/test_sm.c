/* test_sm.c — the SM as a block on its own (model/sm.h): a requester of the
 * test's, wired to it as a block in front of it would be (a link to
 * sm_on_request_queued, sm_attach for the answers), with several requests in
 * flight at once — as a cache with several misses or an LSU sending passes
 * would have. Golden
 * times by hand from T7 and T8 with the default latencies (cycle = 1000 ps,
 * sm.bank 1, sm.resp 1): a request granted at G holds its bank for [G, G+1)
 * and is answered at G+2; the bank grants its next request at G+1 at the
 * earliest. Each requester's requests to one bank are served in the order
 * they arrive (ties: the order they were posted), and the arbiter chooses
 * among the requesters (sm.h). Every test runs in both timing modes: the
 * request link calls the SM at once with a future arrival (decoupled) or is
 * an event at the arrival (stepped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu_impl.h"
#include "model/link.h"
#include "model/sm.h"
#include "tests/harness.h"
#include "tests/testutil.h"

#define C(n) ((sim_time_t)(n) * 1000) /* cycles → ps */

static unsigned timing_mode; /* GPU_TIMING_DECOUPLED, then GPU_TIMING_STEPPED */

/* One answer as the requester saw it. */
typedef struct answer {
    unsigned id;              /* the request's number in the test */
    sim_time_t now, granted, done;
    uint64_t data;
} answer_t;

typedef struct bench {
    sim_t *sim;
    gpu_t *g;                 /* what the blocks share: the clock, the pool */
    sm_t sm;                  /* the block under test, built and wired here */
    policy_run_t arbiter, bank_map; /* no plugins: the built-in policies */
    link_t to_sm;
    answer_t got[32];
    unsigned n;
} bench_t;

static void on_answer(void *owner, txn_t *t)
{
    bench_t *b = owner;
    CU_ASSERT_FATAL(b->n < 32);
    b->got[b->n++] = (answer_t){(unsigned)(uintptr_t)t->user, sim_now(b->sim), t->t_granted,
                                t->t_done, t->data};
    txn_release(&b->g->pool, t);
}

/* An SM of the test's own on a machine that runs nothing (no frame is
 * started): only the test's requests reach it. */
static void bench_open(bench_t *b, gpu_arbiter_t arbiter)
{
    memset(b, 0, sizeof *b);
    static program_t p;
    h_assemble(&p, ".group cores=0x1\n ready\n");
    gpu_desc_t d;
    gpu_desc_default(&d);
    d.timing = (uint8_t)timing_mode;
    d.arbiter = arbiter;
    b->sim = sim_create();
    diag_t diag = {0};
    b->g = gpu_create(b->sim, &d, &p, &diag);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b->g);
    sm_init(&b->sm, b->g, p.sm, &b->arbiter, &b->bank_map);
    for (unsigned c = 0; c < GPU_CORES; c++)
        sm_attach(&b->sm, c, on_answer, b);
    link_init(&b->to_sm, b->sim, timing_mode == GPU_TIMING_DECOUPLED, GPU_PRIO_SM_ARRIVE,
              sm_on_request_queued, &b->sm, "test->sm");
}

/* Requester `core` posts request `id` now: a st of `value` (store) or a ld,
 * at `addr`, reaching its bank at `at`. */
static void post(bench_t *b, unsigned id, unsigned core, bool store, unsigned addr,
                 uint8_t value, sim_time_t at)
{
    txn_t *t = gpu_txn(b->g, GPU_TXN_SM_REQ);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    t->core = (uint16_t)core;
    t->addr = addr;
    t->flags = store ? GPU_TXN_STORE : 0;
    t->data = value;
    t->user = (void *)(uintptr_t)id;
    link_send(&b->to_sm, t, at);
}

static void bench_run(bench_t *b)
{
    while (sim_run(b->sim, SIM_TIME_NEVER, 1u << 20) > 0 && sim_stop_reason(b->sim) == SIM_END_NONE)
        ;
}

static void bench_close(bench_t *b)
{
    gpu_destroy(b->g);
    sim_destroy(b->sim);
}

/* The k-th answer is request `id`, granted at G and answered at D (stepped:
 * taken at D; decoupled: within the grant, at G). */
static void assert_answer(const bench_t *b, unsigned k, unsigned id, sim_time_t granted,
                          sim_time_t done)
{
    CU_ASSERT_FATAL(k < b->n);
    const answer_t *a = &b->got[k];
    CU_ASSERT_EQUAL(a->id, id);
    CU_ASSERT_EQUAL(a->granted, granted);
    CU_ASSERT_EQUAL(a->done, done);
    CU_ASSERT_EQUAL(a->now, timing_mode == GPU_TIMING_STEPPED ? done : granted);
    if (a->id != id || a->granted != granted || a->done != done)
        fprintf(stderr, "answer %u: request %u granted %llu done %llu\n", k, a->id,
                (unsigned long long)a->granted, (unsigned long long)a->done);
}

/* One requester, three requests to bank 0 (addresses 0x005 under `high`),
 * all arriving at 1: st 7, ld, st 9. The bank serves them one a cycle in
 * posting order: granted 1, 2, 3, answered 3, 4, 5. T7: each takes effect at
 * its grant, so the ld reads the first st's 7 and the byte ends as 9. The
 * later two waited 1 and 2 cycles: 2 conflicts, 3000 ps. */
static void test_one_requester_several_in_flight(void)
{
    bench_t b;
    bench_open(&b, GPU_ARB_FIXED);
    post(&b, 0, 0, true, 0x005, 7, C(1));
    post(&b, 1, 0, false, 0x005, 0, C(1));
    post(&b, 2, 0, true, 0x005, 9, C(1));
    bench_run(&b);
    CU_ASSERT_EQUAL(b.n, 3);
    assert_answer(&b, 0, 0, C(1), C(3));
    assert_answer(&b, 1, 1, C(2), C(4));
    assert_answer(&b, 2, 2, C(3), C(5));
    CU_ASSERT_EQUAL(b.got[1].data, 7);
    CU_ASSERT_EQUAL(sm_bytes(&b.sm)[0x005], 9);
    sm_totals_t tot;
    sm_get_totals(&b.sm, &tot);
    CU_ASSERT_EQUAL(tot.accesses, 3);
    CU_ASSERT_EQUAL(tot.conflicts, 2);
    CU_ASSERT_EQUAL(tot.conflict_ps, C(1) + C(2));
    bench_close(&b);
}

/* Posted in call order, not time order (what decoupled timing does: the
 * requester runs ahead): request 0 arrives at 5, request 1, posted after it,
 * at 2, request 2 at 5 too. The bank goes by arrival: 1 granted at 2
 * (answered 4); at 5 requests 0 and 2 have arrived, 0 first (posted first):
 * granted 5 and 6, answered 7 and 8. Stepped, the link delivers them in that
 * order anyway: the same answers. */
static void test_requests_served_by_arrival_not_call_order(void)
{
    bench_t b;
    bench_open(&b, GPU_ARB_FIXED);
    post(&b, 0, 3, false, 0x105, 0, C(5));
    post(&b, 1, 3, true, 0x105, 4, C(2));
    post(&b, 2, 3, false, 0x106, 0, C(5));
    bench_run(&b);
    CU_ASSERT_EQUAL(b.n, 3);
    assert_answer(&b, 0, 1, C(2), C(4));
    assert_answer(&b, 1, 0, C(5), C(7));
    assert_answer(&b, 2, 2, C(6), C(8));
    CU_ASSERT_EQUAL(b.got[1].data, 4); /* the ld at 5 reads the st granted at 2 */
    sm_totals_t tot;
    sm_get_totals(&b.sm, &tot);
    CU_ASSERT_EQUAL(tot.conflicts, 1); /* request 2 waited [5, 6) */
    CU_ASSERT_EQUAL(tot.conflict_ps, C(1));
    bench_close(&b);
}

/* Requester 0 has two requests at bank 0, requester 1 one, all arriving at
 * 1. T8: the arbiter chooses among the requesters, each requester's earliest
 * request competing. fixed: 0's first at 1, then 0's second (lowest id) at
 * 2, 1's at 3. rr: 0's first at 1, then from the requester after the last
 * granted: 1's at 2, 0's second at 3. fifo: at 2 both waiting arrived at 1,
 * the tie to the lowest id: as fixed. */
static void test_arbiter_chooses_among_requesters(void)
{
    static const struct {
        gpu_arbiter_t arb;
        unsigned second, third;   /* request ids granted at 2 and at 3 */
    } want[] = {{GPU_ARB_FIXED, 1, 2}, {GPU_ARB_RR, 2, 1}, {GPU_ARB_FIFO, 1, 2}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        bench_t b;
        bench_open(&b, want[i].arb);
        post(&b, 0, 0, false, 0x010, 0, C(1));
        post(&b, 1, 0, false, 0x011, 0, C(1));
        post(&b, 2, 1, false, 0x012, 0, C(1));
        bench_run(&b);
        CU_ASSERT_EQUAL(b.n, 3);
        assert_answer(&b, 0, 0, C(1), C(3));
        assert_answer(&b, 1, want[i].second, C(2), C(4));
        assert_answer(&b, 2, want[i].third, C(3), C(5));
        bench_close(&b);
    }
}

/* One requester with requests at two banks at once (0x010: bank 0, 0x210:
 * bank 2), and a second at bank 0 arriving later, at 4: the banks are
 * independent, both first requests granted at 1 and answered at 3; the
 * third, alone when it arrives, granted at 4, answered at 6. */
static void test_requests_at_several_banks(void)
{
    bench_t b;
    bench_open(&b, GPU_ARB_FIXED);
    post(&b, 0, 5, false, 0x010, 0, C(1));
    post(&b, 1, 5, false, 0x210, 0, C(1));
    post(&b, 2, 5, false, 0x011, 0, C(4));
    bench_run(&b);
    CU_ASSERT_EQUAL(b.n, 3);
    assert_answer(&b, 0, 0, C(1), C(3));
    assert_answer(&b, 1, 1, C(1), C(3));
    assert_answer(&b, 2, 2, C(4), C(6));
    sm_totals_t tot;
    sm_get_totals(&b.sm, &tot);
    CU_ASSERT_EQUAL(tot.conflicts, 0);
    bench_close(&b);
}

/* Many in flight: requester 2 posts 20 requests to bank 1, request k
 * arriving at 1 + k/4 (four at a time), while requester 0 has one arriving
 * at 3. fixed: requester 0's is granted as soon as the bank is free once it
 * has arrived (lowest id): at 3; requester 2's go one a cycle in posting
 * order around it: k = 0, 1 at 1, 2; k = 2.. from 4. */
static void test_many_in_flight_keep_their_order(void)
{
    bench_t b;
    bench_open(&b, GPU_ARB_FIXED);
    for (unsigned k = 0; k < 20; k++)
        post(&b, k, 2, false, 0x100 + k, 0, C(1 + k / 4));
    post(&b, 20, 0, false, 0x1ff, 0, C(3));
    bench_run(&b);
    CU_ASSERT_EQUAL(b.n, 21);
    assert_answer(&b, 0, 0, C(1), C(3));
    assert_answer(&b, 1, 1, C(2), C(4));
    assert_answer(&b, 2, 20, C(3), C(5));
    for (unsigned k = 2; k < 20; k++)
        assert_answer(&b, k + 1, k, C(2 + k), C(4 + k));
    bench_close(&b);
}

static int use_decoupled(void) { timing_mode = GPU_TIMING_DECOUPLED; return 0; }
static int use_stepped(void) { timing_mode = GPU_TIMING_STEPPED; return 0; }

static const test_case_t cases[] = {
    TEST(test_one_requester_several_in_flight),
    TEST(test_requests_served_by_arrival_not_call_order),
    TEST(test_arbiter_chooses_among_requesters),
    TEST(test_requests_at_several_banks),
    TEST(test_many_in_flight_keep_their_order),
    TEST_END,
};

int main(void)
{
    int rc = 0;
    const test_suite_t decoupled[] = {{"sm (decoupled)", cases}, {NULL, NULL}};
    const test_suite_t stepped[] = {{"sm (stepped)", cases}, {NULL, NULL}};
    use_decoupled();
    rc |= test_run_suites(decoupled);
    use_stepped();
    rc |= test_run_suites(stepped);
    return rc;
}

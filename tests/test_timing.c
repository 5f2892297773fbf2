/* test_timing.c — golden timelines of the timed model, computed by hand from
 * the reference timing model (spec §6, T1–T8) with the default latencies:
 * cycle = 1000 ps, ts.decode 1, ts.xfer 4, ts.ready 1, alu 1, mul 2, div 8,
 * branch 1, ready 1, sm.req 1, sm.bank 1, sm.resp 1. The reasoning is written
 * next to each test, in cycles; assertions are in picoseconds. Every test
 * runs in both timing modes (decoupled and stepped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/harness.h"
#include "tests/testutil.h"

#define C(n) ((sim_time_t)(n) * 1000) /* cycles → ps */
#define NEVER SIM_TIME_NEVER

static unsigned timing_mode; /* GPU_TIMING_DECOUPLED, then GPU_TIMING_STEPPED */

static gpu_desc_t desc_default(void)
{
    gpu_desc_t d;
    gpu_desc_default(&d);
    d.timing = (uint8_t)timing_mode;
    return d;
}

static h_run_t *run(const char *src, const gpu_desc_t *d)
{
    gpu_desc_t def = desc_default();
    h_run_t *r = h_run_src(src, d ? d : &def);
    CU_ASSERT_EQUAL(r->outcome, GPU_DONE);
    return r;
}

static void assert_frame(const h_run_t *r, unsigned f, sim_time_t decoded, sim_time_t issued,
                         sim_time_t started, sim_time_t completed)
{
    CU_ASSERT_TRUE(r->have_frame[f]);
    CU_ASSERT_EQUAL(r->frames[f].decode_ps, decoded);
    CU_ASSERT_EQUAL(r->frames[f].issue_ps, issued);
    CU_ASSERT_EQUAL(r->frames[f].start_ps, started);
    CU_ASSERT_EQUAL(r->frames[f].complete_ps, completed);
}

/* §6 worked example: CF decode 1 + IF decode 1 + transfer 4 + 2 instructions
 * + READY 1 = cycle 9.
 *   CF0  decode [0,1), takes effect at 1
 *   IF0  decode [1,2), issued at 2, transfer [2,6), core 0 starts at 6
 *   set_const [6,7), ready [7,8): READY sent at 8, reaches the TS at 9. */
static void test_worked_example_completes_at_9000ps(void)
{
    h_run_t *r = run(".group cores=0x1\n set_const r8, 1\n ready\n", NULL);
    assert_frame(r, 0, C(1), C(1), NEVER, NEVER);
    assert_frame(r, 1, C(2), C(2), C(6), C(9));
    const gpu_tr_core_task_t *t = h_task(r, 1, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->start_ps, C(6));
    CU_ASSERT_EQUAL(t->finish_ps, C(8));
    CU_ASSERT_EQUAL(t->ready_ps, C(9));
    CU_ASSERT_EQUAL(t->instructions, 2);
    CU_ASSERT_EQUAL(r->stats.end_ps, 9000);
    CU_ASSERT_EQUAL(r->arch.regs[0][8], 1);
    h_free(r);
}

/* One ld (T7): the task starts at 6 (as above).
 *   ld at 6: the request reaches bank 0 at 7, is granted at 7 (bank free),
 *   holds the bank [7,8), the answer reaches the core at 9 → 3 cycles.
 *   ready [9,10): READY sent at 10, reaches the TS at 11. */
static void test_one_ld_takes_three_cycles(void)
{
    h_run_t *r = run(".group cores=0x1\n ld [r1, r2], r3\n ready\n"
                     ".data 0x000: 0x5a\n",
                     NULL);
    const gpu_tr_access_t *a = h_access(r, 0, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(a->request_ps, C(6));
    CU_ASSERT_EQUAL(a->arrive_ps, C(7));
    CU_ASSERT_EQUAL(a->grant_ps, C(7));
    CU_ASSERT_EQUAL(a->done_ps, C(9));
    CU_ASSERT_EQUAL(a->value, 0x5a);
    CU_ASSERT_EQUAL(a->bank, 0);
    CU_ASSERT_FALSE(a->is_store);
    const gpu_tr_core_task_t *t = h_task(r, 1, 0);
    CU_ASSERT_EQUAL(t->finish_ps, C(10));
    CU_ASSERT_EQUAL(t->ready_ps, C(11));
    CU_ASSERT_EQUAL(t->sm_ops, 1);
    CU_ASSERT_EQUAL(t->sm_wait_ps, C(3));
    CU_ASSERT_EQUAL(t->sm_conflict_ps, 0);
    CU_ASSERT_EQUAL(r->arch.regs[0][3], 0x5a);
    CU_ASSERT_EQUAL(r->stats.end_ps, C(11));
    h_free(r);
}

/* A ld or st in slot 15 ends the task when its answer arrives (T6):
 * 15 nops [6,21), st at 21 → granted 22, answer 24 = finish, READY at 25. */
static void test_st_in_slot_15_finishes_at_its_answer(void)
{
    h_run_t *r = run(".group cores=0x1\n"
                     " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
                     " nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
                     " st [r1, r2], r3\n",
                     NULL);
    const gpu_tr_core_task_t *t = h_task(r, 1, 0);
    CU_ASSERT_EQUAL(t->instructions, 16);
    CU_ASSERT_EQUAL(t->finish_ps, C(24));
    CU_ASSERT_EQUAL(t->ready_ps, C(25));
    h_free(r);
}

/* Falling off slot 15 adds no ready latency (T6, D11): 16 nops [6,22),
 * finish at 22, READY at 23. */
static void test_fall_off_slot_15_adds_no_ready_latency(void)
{
    h_run_t *r = run(".group cores=0x1\n"
                     " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
                     " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n",
                     NULL);
    CU_ASSERT_EQUAL(h_task(r, 1, 0)->finish_ps, C(22));
    CU_ASSERT_EQUAL(r->stats.end_ps, C(23));
    h_free(r);
}

/* Latencies by class (T6): mul 2, div 8, bnz 1 taken or not:
 * mul [6,8), div [8,16), bnz (not taken, r5 = 0) [16,17), ready [17,18),
 * READY at 19. */
static void test_instruction_latencies(void)
{
    h_run_t *r = run(".group cores=0x1\n mul r1, r2, r3\n div r1, r2, r3\n bnz 0, r5\n ready\n",
                     NULL);
    CU_ASSERT_EQUAL(h_task(r, 1, 0)->finish_ps, C(18));
    CU_ASSERT_EQUAL(r->stats.div_by_zero, 1);
    h_free(r);
}

/* Two cores' lds reach bank 0 in the same cycle (both start at 6, arrive at
 * 7), and with sm.bank = 4 a queue forms. Cores 0, 1, 2 each do two lds of
 * address 0 (bank 0), then ready. A grant at G holds the bank [G, G+4) and
 * the answer arrives at G+5; the next ld then arrives one cycle later.
 *
 * fixed (lowest id):
 *   7: {c0,c1,c2} → c0 (answer 12, 2nd ld arrives 13)
 *  11: {c1,c2} → c1 (answer 16, 2nd arrives 17)
 *  15: {c2@7, c0@13} → c0 (answer 20: ready, READY 22)
 *  19: {c2@7, c1@17} → c1 (answer 24: READY 26)
 *  23: {c2} → c2 1st (answer 28, 2nd arrives 29)
 *  29: c2 2nd (answer 34: READY 36)                         → end 36
 * rr (from the core after the last granted; core 0 first):
 *   7: c0 · 11: c1 · 15: {c2@7, c0@13}, after c1 → c2 (answer 20, 2nd at 21)
 *  19: {c0@13, c1@17}, after c2 → c0 (READY 26) · 23: {c1@17, c2@21} after c0 → c1
 *  (READY 30) · 27: c2 2nd (answer 32, READY 34)              → end 34
 * fifo (oldest arrival, ties to the lowest id): the same grants as rr here:
 *  15: c2 (arrived 7) before c0 (13); 19: c0 (13) before c1 (17); 23: c1 (17)
 *  before c2 (21).                                             → end 34 */
static const char *queue_src = ".group cores=0x7\n ld [r1, r2], r3\n ld [r1, r2], r3\n ready\n";

static void check_grants(const h_run_t *r, const unsigned *core, const unsigned *cycle, unsigned n)
{
    unsigned seen[GPU_CORES] = {0};
    for (unsigned i = 0; i < n; i++) {
        const gpu_tr_access_t *a = h_access(r, core[i], seen[core[i]]++);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_EQUAL(a->grant_ps, C(cycle[i]));
        CU_ASSERT_EQUAL(a->done_ps, C(cycle[i] + 5));
    }
}

static void test_bank_queue_fixed_arbiter(void)
{
    gpu_desc_t d = desc_default();
    d.sm_bank = lat_fixed(4);
    h_run_t *r = run(queue_src, &d);
    static const unsigned core[] = {0, 1, 0, 1, 2, 2}, cycle[] = {7, 11, 15, 19, 23, 29};
    check_grants(r, core, cycle, 6);
    CU_ASSERT_EQUAL(h_task(r, 1, 0)->ready_ps, C(22));
    CU_ASSERT_EQUAL(h_task(r, 1, 1)->ready_ps, C(26));
    CU_ASSERT_EQUAL(r->stats.end_ps, C(36));
    /* waits: c1 4, c0 2nd 2, c2 1st 16, c1 2nd 2 → 4 accesses waited */
    CU_ASSERT_EQUAL(r->stats.sm_conflicts, 4);
    CU_ASSERT_EQUAL(r->stats.sm_conflict_ps, C(4 + 2 + 16 + 2));
    h_free(r);
}

static void test_bank_queue_rr_and_fifo_arbiters(void)
{
    static const unsigned core[] = {0, 1, 2, 0, 1, 2}, cycle[] = {7, 11, 15, 19, 23, 27};
    for (unsigned arb = GPU_ARB_RR; arb <= GPU_ARB_FIFO; arb++) {
        gpu_desc_t d = desc_default();
        d.sm_bank = lat_fixed(4);
        d.arbiter = (uint8_t)arb;
        h_run_t *r = run(queue_src, &d);
        check_grants(r, core, cycle, 6);
        CU_ASSERT_EQUAL(h_task(r, 1, 0)->ready_ps, C(26));
        CU_ASSERT_EQUAL(h_task(r, 1, 1)->ready_ps, C(30));
        CU_ASSERT_EQUAL(r->stats.end_ps, C(34));
        h_free(r);
    }
}

/* Two cores, one bank, one cycle, with the default bank time (1 cycle):
 * c0 and c1 set r2 to their id and ld from their own bank first (granted
 * at 8 each: set_const [6,7), ld arrives at 8), answers at 10; then both ld
 * address 0 (bank 0, last granted core 0): requests arrive at 11 together.
 *   fixed: c0 at 11, c1 at 12 · rr: after c0 → c1 at 11, c0 at 12 ·
 *   fifo: tie → c0 at 11, c1 at 12 · random: one of the two at 11. */
static const char *pair_src = ".group cores=0x3\n set_const r2, id\n ld [r1, r2], r3\n"
                              " ld [r1, r4], r3\n ready\n";

static unsigned first_at_11(unsigned arbiter, uint64_t seed)
{
    gpu_desc_t d = desc_default();
    d.arbiter = (uint8_t)arbiter;
    d.seed = seed;
    h_run_t *r = run(pair_src, &d);
    const gpu_tr_access_t *a0 = h_access(r, 0, 1), *a1 = h_access(r, 1, 1);
    CU_ASSERT_EQUAL(a0->arrive_ps, C(11));
    CU_ASSERT_EQUAL(a1->arrive_ps, C(11));
    CU_ASSERT_EQUAL(h_access(r, 0, 0)->grant_ps, C(8));
    unsigned winner = a0->grant_ps == C(11) ? 0 : 1;
    CU_ASSERT_EQUAL((winner ? a0 : a1)->grant_ps, C(12));
    h_free(r);
    return winner;
}

static void test_two_cores_one_bank_one_cycle_each_arbiter(void)
{
    CU_ASSERT_EQUAL(first_at_11(GPU_ARB_FIXED, 1), 0);
    CU_ASSERT_EQUAL(first_at_11(GPU_ARB_RR, 1), 1);
    CU_ASSERT_EQUAL(first_at_11(GPU_ARB_FIFO, 1), 0);
    unsigned wins[2] = {0, 0};
    for (uint64_t seed = 1; seed <= 16; seed++) {
        unsigned w = first_at_11(GPU_ARB_RANDOM, seed);
        CU_ASSERT_EQUAL(w, first_at_11(GPU_ARB_RANDOM, seed)); /* same seed, same choice */
        wins[w]++;
    }
    CU_ASSERT_TRUE(wins[0] > 0 && wins[1] > 0); /* the seed changes the choice */
}

/* Every arbiter of GPU_ARBITERS has a behaviour of its own (T8): on one
 * contention case each must grant in an order no other arbiter gives, and
 * the deterministic ones in the order computed here. An arbiter added to
 * the list that behaves like another (say it falls through to fixed's code)
 * fails this test. sm.bank = 4 cycles, so bank 0 stays busy from 13 to 45
 * and every grant is at 13 + 4k; an answer reaches the core at grant + 5
 * and its next ld reaches the bank at grant + 6.
 * Cores 0-3 start at 6 (decode 1 + 1, transfer 4); r2 = 4 - id; the loop
 * runs 4 - id times (sub, bnz: 2 cycles each) from 10, so core c's first ld
 * starts at 18 - 2c and arrives at 19 - 2c: c3@13, c2@15, c1@17, c0@19.
 *   fixed (lowest id that has arrived):
 *     13 c3 (2nd arrives 19) · 17 {c2, c1} → c1 (2nd 23) · 21 {c2, c0, c3'} → c0
 *     (2nd 27) · 25 {c2, c3', c1'} → c1' · 29 {c2, c3', c0'} → c0' · 33 c2 (2nd 39)
 *     · 37 c3' · 41 c2'                                     → 3 1 0 1 0 2 3 2
 *   rr (from the core after the last granted):
 *     13 c3 · 17 from 4 → c1 (2nd 23) · 21 from 2 → c2 (2nd 27) · 25 from 3 → c3'
 *     · 29 from 4 → c0 (2nd 35) · 33 from 1 → c1' · 37 from 2 → c2' · 41 c0'
 *                                                           → 3 1 2 3 0 1 2 0
 *   fifo (oldest arrival, ties to the lowest id):
 *     13 c3 (2nd 19) · 17 c2@15 (2nd 23) · 21 c1@17 (2nd 27) · 25 {c0@19, c3'@19}
 *     → c0 (2nd 31) · 29 c3'@19 · 33 c2'@23 · 37 c1'@27 · 41 c0'
 *                                                           → 3 2 1 0 3 2 1 0
 *   random (seed 1): any order the others do not give. */
static void grant_order(unsigned arbiter, char order[9])
{
    gpu_desc_t d = desc_default();
    d.sm_bank = lat_fixed(4);
    d.arbiter = (uint8_t)arbiter;
    h_run_t *r = run(H_CONTENTION_SRC, &d);
    h_grant_order(r, order);
    h_free(r);
}

static void test_each_arbiter_has_its_own_grant_order(void)
{
    static const char *const expect[GPU_ARB_COUNT] = {
        [GPU_ARB_FIXED] = "31010232",
        [GPU_ARB_RR] = "31230120",
        [GPU_ARB_FIFO] = "32103210",
    };
    char order[GPU_ARB_COUNT][9];
    for (unsigned a = 0; a < GPU_ARB_COUNT; a++) {
        grant_order(a, order[a]);
        if (expect[a] && strcmp(order[a], expect[a]))
            fprintf(stderr, "\n  arbiter %s granted %s, expected %s\n", gpu_arbiter_names[a],
                    order[a], expect[a]);
        CU_ASSERT_TRUE(!expect[a] || !strcmp(order[a], expect[a]));
    }
    for (unsigned a = 0; a < GPU_ARB_COUNT; a++) {
        for (unsigned b = a + 1; b < GPU_ARB_COUNT; b++) {
            if (!strcmp(order[a], order[b]))
                fprintf(stderr, "\n  arbiters %s and %s grant alike (%s): each needs its own "
                                "behaviour in sm.c's arbitrate()\n",
                        gpu_arbiter_names[a], gpu_arbiter_names[b], order[a]);
            CU_ASSERT_STRING_NOT_EQUAL(order[a], order[b]);
        }
    }
}

/* Bank mapping (D13): cores 0 and 1 read addresses 0x000 and 0x100 (the ld
 * at 7 arrives at 8). Under `high` (bank = addr[11:8]) they use banks 0 and
 * 1 and nobody waits; under `interleaved` (bank = addr[3:0]) both use bank 0
 * and core 1 is granted one cycle later, at 9. */
static void test_bank_mapping_decides_conflicts(void)
{
    const char *src = ".group cores=0x3\n set_const r2, id\n ld [r1, r2], r3\n ready\n";
    gpu_desc_t d = desc_default();
    h_run_t *high = run(src, &d);
    CU_ASSERT_EQUAL(h_access(high, 1, 0)->bank, 1);
    CU_ASSERT_EQUAL(high->stats.sm_conflicts, 0);
    d.bank_map = GPU_MAP_INTERLEAVED;
    h_run_t *inter = run(src, &d);
    CU_ASSERT_EQUAL(h_access(inter, 1, 0)->bank, 0);
    CU_ASSERT_EQUAL(inter->stats.sm_conflicts, 1);
    CU_ASSERT_EQUAL(h_access(inter, 1, 0)->grant_ps, C(9));
    h_free(high);
    h_free(inter);
}

/* sm.banks and sm.bank_map: the bank of five addresses for every bank count
 * and mapping, worked out by hand from their bits (k = log2(banks)):
 *   0xabc = 1010 1011 1100, 0x5a7 = 0101 1010 0111, 0x100, 0x001, 0xfff.
 * high = addr[11:12-k]; interleaved = addr[k-1:0]; xor = addr[k-1:0] ^
 * addr[2k-1:k]. E.g. 0xabc with 8 banks: high = 101 = 5, interleaved = 100
 * = 4, xor = 100 ^ 111 = 3; with 64: 101010 = 42, 111100 = 60, 60 ^ 42 =
 * 010110 = 22. One core loads the five addresses in order; the model's
 * access records must name these banks. */
static const unsigned bank_addr[5] = {0xabc, 0x5a7, 0x100, 0x001, 0xfff};
static const struct {
    unsigned banks;
    unsigned bank[3][5]; /* high, interleaved, xor; of bank_addr[] */
} bank_table[] = {
    {1, {{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}}},
    {2, {{1, 0, 0, 0, 1}, {0, 1, 0, 1, 1}, {0, 0, 0, 1, 0}}},
    {4, {{2, 1, 0, 0, 3}, {0, 3, 0, 1, 3}, {3, 2, 0, 1, 0}}},
    {8, {{5, 2, 0, 0, 7}, {4, 7, 0, 1, 7}, {3, 3, 0, 1, 0}}},
    {16, {{10, 5, 1, 0, 15}, {12, 7, 0, 1, 15}, {7, 13, 0, 1, 0}}},
    {32, {{21, 11, 2, 0, 31}, {28, 7, 0, 1, 31}, {9, 10, 8, 1, 0}}},
    {64, {{42, 22, 4, 0, 63}, {60, 39, 0, 1, 63}, {22, 49, 4, 1, 0}}},
};

static void test_bank_formulas_every_count_and_mapping(void)
{
    char src[512];
    int n = snprintf(src, sizeof src, ".group cores=0x1\n");
    for (unsigned i = 0; i < 5; i++)
        n += snprintf(src + n, sizeof src - (size_t)n,
                      " set_const r8, %u\n set_const r9, %u\n ld [r9, r8], r3\n",
                      bank_addr[i] >> 8, bank_addr[i] & 0xff);
    snprintf(src + n, sizeof src - (size_t)n, " ready\n");
    static const uint8_t maps[3] = {GPU_MAP_HIGH, GPU_MAP_INTERLEAVED, GPU_MAP_XOR};
    for (size_t t = 0; t < sizeof bank_table / sizeof bank_table[0]; t++) {
        for (unsigned m = 0; m < 3; m++) {
            gpu_desc_t d = desc_default();
            d.banks = (uint8_t)bank_table[t].banks;
            d.bank_map = maps[m];
            h_run_t *r = run(src, &d);
            for (unsigned i = 0; i < 5; i++) {
                unsigned want = bank_table[t].bank[m][i];
                if (h_access(r, 0, i)->bank != want || gpu_bank_of(maps[m], d.banks,
                                                                    bank_addr[i]) != want)
                    fprintf(stderr, "\n  %u banks, map %u, 0x%03x: bank %u, expected %u\n",
                            d.banks, m, bank_addr[i], h_access(r, 0, i)->bank, want);
                CU_ASSERT_EQUAL(h_access(r, 0, i)->bank, want);
                CU_ASSERT_EQUAL(gpu_bank_of(maps[m], d.banks, bank_addr[i]), want);
            }
            h_free(r);
        }
    }
}

/* A strided access that only xor spreads: core c loads address 16c (a
 * column of a 16x16 row-major matrix at 0x000; ld [a, b] reads {R[b][3:0],
 * R[a]}). With
 * 16 banks, high gives bank addr[11:8] = 0 and interleaved addr[3:0] = 0 to
 * every core: the 16 requests (set_const, lshft, then ld: all cores in
 * step) reach bank 0 together and are served one per cycle (sm.bank = 1),
 * so 15 wait, 1 + 2 + ... + 15 = 120 cycles in all. xor
 * gives bank addr[3:0] ^ addr[7:4] = c: 16 banks, nobody waits. */
static void test_xor_removes_strided_conflicts(void)
{
    const char *src = ".group cores=0xffff\n set_const r2, id\n lshft r2, 4, r2\n"
                      " ld [r2, r1], r3\n ready\n";
    gpu_desc_t d = desc_default();
    h_run_t *high = run(src, &d);
    d.bank_map = GPU_MAP_INTERLEAVED;
    h_run_t *inter = run(src, &d);
    d.bank_map = GPU_MAP_XOR;
    h_run_t *xor = run(src, &d);
    CU_ASSERT_EQUAL(high->stats.sm_conflicts, 15);
    CU_ASSERT_EQUAL(high->stats.sm_conflict_ps, C(120));
    CU_ASSERT_EQUAL(inter->stats.sm_conflicts, 15);
    CU_ASSERT_EQUAL(xor->stats.sm_conflicts, 0);
    for (unsigned c = 0; c < 16; c++) {
        CU_ASSERT_EQUAL(high->stats.sm_accesses, 16);
        CU_ASSERT_EQUAL(h_access(high, c, 0)->bank, 0);
        CU_ASSERT_EQUAL(h_access(xor, c, 0)->bank, c);
        CU_ASSERT_EQUAL(h_access(xor, c, 0)->grant_ps, h_access(xor, 0, 0)->grant_ps);
    }
    CU_ASSERT_TRUE(xor->stats.end_ps < high->stats.end_ps);
    h_free(high);
    h_free(inter);
    h_free(xor);
}

/* Fewer banks, more conflicts: two cores reading 0x000 and 0x800 have
 * separate banks under high for every count >= 2 (bit 11 differs) and share
 * bank 0 with one bank; interleaved puts both in bank 0 always. */
static void test_one_bank_serialises_everything(void)
{
    const char *src = ".group cores=0x3\n set_const r1, id\n lshft r1, 3, r1\n"
                      " ld [r2, r1], r3\n ready\n";
    gpu_desc_t d = desc_default();
    for (unsigned banks = 1; banks <= SM_BANKS_MAX; banks *= 2) {
        d.banks = (uint8_t)banks;
        h_run_t *r = run(src, &d);
        CU_ASSERT_EQUAL(r->stats.sm_conflicts, banks == 1 ? 1 : 0);
        CU_ASSERT_EQUAL(h_access(r, 1, 0)->bank, banks == 1 ? 0 : banks / 2);
        h_free(r);
    }
}

/* The spec's example 1 (figure 2), tasks of two instructions (set_const,
 * ready: start S, READY at S+3):
 *   CF0 [0,1) effect 1 · IF0 [1,2) issue 2 start 6 complete 9
 *   IF1 decode [2,3), mask until 9: issue 9 start 13 complete 16
 *   IF2 [9,10) issue 16 start 20 complete 23 · IF3 [16,17) issue 23 start 27
 *   complete 30 · CF1 decode [23,24), acq: waits for IF3 → effect 30
 *   IF4 [30,31) issue 31 start 35 complete 38 · IF5 [31,32) issue 38 start 42
 *   complete 45. IF4 starts after IF3 completes. */
static void test_example1_figure2(void)
{
    h_run_t *r = run(h_example_src("acq"), NULL);
    assert_frame(r, 1, C(2), C(2), C(6), C(9));
    assert_frame(r, 2, C(3), C(9), C(13), C(16));
    assert_frame(r, 3, C(10), C(16), C(20), C(23));
    assert_frame(r, 4, C(17), C(23), C(27), C(30));
    assert_frame(r, 5, C(24), C(30), NEVER, NEVER);
    assert_frame(r, 6, C(31), C(31), C(35), C(38));
    assert_frame(r, 7, C(32), C(38), C(42), C(45));
    CU_ASSERT_TRUE(r->frames[6].start_ps > r->frames[4].complete_ps);
    CU_ASSERT_EQUAL(r->arch.regs[0][8], 4);
    CU_ASSERT_EQUAL(r->arch.regs[15][8], 6);
    h_free(r);
}

/* Example 2 (figure 3, CF0 fence no), inorder (D5): as example 1 up to IF3
 * (issued 23, starts 27, completes 30).
 *   CF1 decode [23,24), no acq before it → effect 24
 *   IF4 decode [24,25), masks disjoint, but the bus carries IF3 until 27:
 *   issue 27, start 31 = IF3's start + 4 (the code bus), complete 34
 *   IF5 decode [27,28), mask (IF4) until 34: issue 34, start 38, complete 41 */
static void test_example2_figure3_inorder(void)
{
    h_run_t *r = run(h_example_src("no"), NULL);
    assert_frame(r, 4, C(17), C(23), C(27), C(30));
    assert_frame(r, 5, C(24), C(24), NEVER, NEVER);
    assert_frame(r, 6, C(25), C(27), C(31), C(34));
    assert_frame(r, 7, C(28), C(34), C(38), C(41));
    CU_ASSERT_EQUAL(r->frames[6].start_ps, r->frames[4].start_ps + C(4));
    CU_ASSERT_EQUAL(r->stats.end_ps, C(41));
    h_free(r);
}

/* Example 2 under lookahead (window 8): every frame decodes back to back,
 * CF0 [0,1) IF0 [1,2) IF1 [2,3) IF2 [3,4) IF3 [4,5) CF1 [5,6) IF4 [6,7) IF5 [7,8).
 *   IF0 issue 2, transfer [2,6), start 6, complete 9
 *   CF1 takes effect at 6 (nothing acq before it)
 *   IF4 decoded at 7, bus free since 6, masks disjoint, no acq before it:
 *   issue 7, transfer [7,11), start 11, complete 14
 *   IF1 waits for IF0 (mask) until 9, then for IF4's transfer until 11:
 *   issue 11, start 15 — IF4 started before IF1; complete 18
 *   IF5 mask (IF4) until 14, bus (IF1) until 15: issue 15, start 19, complete 22
 *   IF2 mask (IF1) until 18, bus (IF5) until 19: issue 19, start 23, complete 26
 *   IF3 mask (IF2) until 26: issue 26, start 30, complete 33. */
static void test_example2_lookahead_starts_if4_before_if1(void)
{
    gpu_desc_t d = desc_default();
    d.policy = GPU_POLICY_LOOKAHEAD;
    d.window = 8;
    h_run_t *r = run(h_example_src("no"), &d);
    assert_frame(r, 1, C(2), C(2), C(6), C(9));
    assert_frame(r, 2, C(3), C(11), C(15), C(18));
    assert_frame(r, 5, C(6), C(6), NEVER, NEVER);
    assert_frame(r, 6, C(7), C(7), C(11), C(14));
    assert_frame(r, 7, C(8), C(15), C(19), C(22));
    assert_frame(r, 3, C(4), C(19), C(23), C(26));
    assert_frame(r, 4, C(5), C(26), C(30), C(33));
    CU_ASSERT_TRUE(r->frames[6].start_ps < r->frames[2].start_ps);
    h_free(r);
}

/* A rel group's tasks wait for every earlier task (rule 3), masks disjoint:
 *   CF0 (core 0, no) [0,1) · IF0 [1,2) issue 2 start 6: 4 instructions
 *   [6,10), READY 11 · CF1 (core 1, rel) decode [2,3) effect 3 (T2: a rel CF
 *   does not wait) · IF1 decode [3,4), rel: waits for IF0 until 11 → issue
 *   11, start 15, complete 18. With fence=no it would issue at 6 (the bus). */
static void test_rel_fence_waits_for_earlier_tasks(void)
{
    const char *src = ".group cores=0x1\n nop\n nop\n nop\n ready\n"
                      ".group cores=0x2 fence=%s\n ready\n";
    char buf[256];
    snprintf(buf, sizeof buf, src, "rel");
    h_run_t *r = run(buf, NULL);
    assert_frame(r, 2, C(3), C(3), NEVER, NEVER);
    assert_frame(r, 3, C(4), C(11), C(15), C(17));
    snprintf(buf, sizeof buf, src, "no");
    h_run_t *n = run(buf, NULL);
    assert_frame(n, 3, C(4), C(6), C(10), C(12));
    h_free(r);
    h_free(n);
}

/* The code bus serialises two disjoint tasks (T4): IF0 issue 2, transfer
 * [2,6); CF1 [2,3) effect 3; IF1 decoded at 4 waits for the bus until 6:
 * issue 6, start 10. */
static void test_code_bus_serialises_disjoint_tasks(void)
{
    h_run_t *r = run(".group cores=0x1\n ready\n.group cores=0x2\n ready\n", NULL);
    assert_frame(r, 1, C(2), C(2), C(6), C(8));
    assert_frame(r, 3, C(4), C(6), C(10), C(12));
    bool bus_stall = false;
    for (size_t i = 0; i < r->n_stalls; i++)
        if (r->stalls[i].frame == 3 && r->stalls[i].reason == GPU_STALL_BUS)
            bus_stall = r->stalls[i].from_ps == C(4) && r->stalls[i].to_ps == C(6);
    CU_ASSERT_TRUE(bus_stall);
    h_free(r);
}

/* D3: R0 initialisation happens after every earlier task on the core and
 * before the group's first task starts. Group A (core 0): stores R0 at the end
 * of a long task. Group B (core 0, IF_Num = 0, init R0 = 9) takes effect while
 * A runs, but R0 changes only once A completes. Group C (core 0) stores R0.
 * Group D (core 0, init R0 = 0x33) applies it at its task's start.
 *   SM[0] = 0 (A saw the old R0), SM[1] = 9, SM[2] = 0x33. */
static void test_d3_r0_initialisation_timing(void)
{
    h_run_t *r = run(".group cores=0x1\n set_const r9, 0\n nop\n nop\n nop\n nop\n"
                     " set_const r10, 0\n st [r10, r9], r0\n"
                     ".group cores=0x1 init_r0={0:9}\n"
                     ".group cores=0x1\n set_const r9, 0\n set_const r10, 1\n st [r10, r9], r0\n"
                     ".group cores=0x1 init_r0={0:0x33}\n set_const r9, 0\n set_const r10, 2\n"
                     " st [r10, r9], r0\n",
                     NULL);
    CU_ASSERT_EQUAL(r->arch.sm[0], 0);
    CU_ASSERT_EQUAL(r->arch.sm[1], 9);
    CU_ASSERT_EQUAL(r->arch.sm[2], 0x33);
    /* B (frame 2) took effect at its decode, before A (frame 1) completed */
    CU_ASSERT_TRUE(r->frames[2].issue_ps < r->frames[1].complete_ps);
    h_free(r);
}

/* D12 watchdog: a loop that never exits stops the run with the frame, core
 * and IP; budget 100: instructions 0..99 run, the 101st (IP 0 of the loop
 * `bnz 0, r8` with r8 = 1 after set_const) is not executed. */
static void test_watchdog_names_frame_core_ip(void)
{
    gpu_desc_t d = desc_default();
    d.budget = 100;
    h_run_t *r = h_run_src(".group cores=0x4\n set_const r8, 1\nloop:\n bnz loop, r8\n", &d);
    CU_ASSERT_EQUAL(r->outcome, GPU_WATCHDOG);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->errmsg, "frame 1, core 2, IP 1"));
    CU_ASSERT_EQUAL(r->stats.instructions, 100);
    h_free(r);
}

/* D16 lock: with sm.atomics on, cores 0 and 1 both run
 *   ld_sync [r1, r10], r3  (r10 = 0x40: bits 7:6 = 01, address 0, bank 0)
 *   add r3, r9, r3         (r9 = 1)
 *   st_sync [r1, r10], r3
 * Both ld_syncs arrive at 9; c0 is granted and locks; c0's st_sync arrives
 * at 13, is granted and unlocks; c1's ld_sync is granted at 14 and reads 1.
 * The byte is incremented twice (2). Without atomics both read 0 and one
 * increment is lost (1). */
static void test_atomic_lock_serialises_increments(void)
{
    gpu_desc_t d = desc_default();
    d.atomics = true;
    h_run_t *r = run(".group cores=0x3\n set_const r10, 0x40\n set_const r9, 1\n"
                     " ld [r1, r10], r3\n add r3, r9, r3\n st [r1, r10], r3\n ready\n",
                     &d);
    CU_ASSERT_EQUAL(r->arch.sm[0], 2);
    const gpu_tr_access_t *st0 = h_access(r, 0, 1), *ld1 = h_access(r, 1, 0);
    CU_ASSERT_TRUE(ld1->grant_ps > st0->grant_ps);
    CU_ASSERT_EQUAL(ld1->value, 1);
    CU_ASSERT_EQUAL(st0->grant_ps, C(13));
    CU_ASSERT_EQUAL(ld1->grant_ps, C(14));
    d.atomics = false; /* without the extension both read 0: the increment is lost */
    h_run_t *racy = run(".group cores=0x3\n set_const r10, 0x40\n set_const r9, 1\n"
                        " ld [r1, r10], r3\n add r3, r9, r3\n st [r1, r10], r3\n ready\n",
                        &d);
    CU_ASSERT_EQUAL(racy->arch.sm[0], 1);
    h_free(r);
    h_free(racy);
}

/* A ld_sync never followed by its st_sync leaves the lock held: the other
 * core waits forever and the run ends stuck, naming the bank. */
static void test_unreleased_lock_is_reported(void)
{
    gpu_desc_t d = desc_default();
    d.atomics = true;
    h_run_t *r = h_run_src(".group cores=0x3\n set_const r10, 0x40\n ld [r1, r10], r3\n ready\n",
                           &d);
    CU_ASSERT_EQUAL(r->outcome, GPU_STUCK);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->errmsg, "bank 0"));
    h_free(r);
}

static int use_decoupled(void) { timing_mode = GPU_TIMING_DECOUPLED; return 0; }
static int use_stepped(void) { timing_mode = GPU_TIMING_STEPPED; return 0; }

static const test_case_t cases[] = {
    TEST(test_worked_example_completes_at_9000ps),
    TEST(test_one_ld_takes_three_cycles),
    TEST(test_st_in_slot_15_finishes_at_its_answer),
    TEST(test_fall_off_slot_15_adds_no_ready_latency),
    TEST(test_instruction_latencies),
    TEST(test_bank_queue_fixed_arbiter),
    TEST(test_bank_queue_rr_and_fifo_arbiters),
    TEST(test_each_arbiter_has_its_own_grant_order),
    TEST(test_two_cores_one_bank_one_cycle_each_arbiter),
    TEST(test_bank_mapping_decides_conflicts),
    TEST(test_bank_formulas_every_count_and_mapping),
    TEST(test_xor_removes_strided_conflicts),
    TEST(test_one_bank_serialises_everything),
    TEST(test_example1_figure2),
    TEST(test_example2_figure3_inorder),
    TEST(test_example2_lookahead_starts_if4_before_if1),
    TEST(test_rel_fence_waits_for_earlier_tasks),
    TEST(test_code_bus_serialises_disjoint_tasks),
    TEST(test_d3_r0_initialisation_timing),
    TEST(test_watchdog_names_frame_core_ip),
    TEST(test_atomic_lock_serialises_increments),
    TEST(test_unreleased_lock_is_reported),
    TEST_END,
};

int main(void)
{
    /* the same golden timelines in both timing modes */
    int rc = 0;
    const test_suite_t decoupled[] = {{"timing (decoupled)", cases}, {NULL, NULL}};
    const test_suite_t stepped[] = {{"timing (stepped)", cases}, {NULL, NULL}};
    use_decoupled();
    rc |= test_run_suites(decoupled);
    use_stepped();
    rc |= test_run_suites(stepped);
    return rc;
}

/* test_equivalence.c — the two executors and the two timing modes agree.
 * Differential: race-free random programs give the same final SM and
 * registers under the timed model (every policy, arbiter, bank count and
 * mapping) as
 * under the untimed ISS. Decoupling: the decoupled mode (cores run ahead)
 * gives exactly the timestamps of the stepped mode (one event per
 * instruction) on random programs, racy ones and random latencies included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "model/iss.h"
#include "tests/harness.h"
#include "tests/randprog.h"
#include "tests/testutil.h"

#define DIFF_PROGRAMS 240
#define EQUIV_PROGRAMS 160

static bool same_arch(const arch_state_t *a, const arch_state_t *b, uint64_t seed,
                      const char *what)
{
    if (memcmp(a->sm, b->sm, SM_BYTES) == 0 && memcmp(a->regs, b->regs, sizeof a->regs) == 0)
        return true;
    fprintf(stderr, "program %llu: %s differs from the ISS\n", (unsigned long long)seed, what);
    return false;
}

/* One configuration per program: every policy × arbiter is used many times
 * over the set (2 × 4 = 8 combinations, 240 programs), and every mapping ×
 * bank count (3 × 7 = 21 combinations, each 11 or 12 times). */
static void variant(gpu_desc_t *d, unsigned i)
{
    gpu_desc_default(d);
    d->policy = (uint8_t)(i & 1);
    d->bank_map = (uint8_t)(i % 3);
    d->banks = (uint8_t)(1u << (i / 3 % 7));
    d->arbiter = (uint8_t)((i >> 2) & 3);
    d->window = (uint8_t)(1 + (i * 7) % 12);
    d->seed = i;
    if (i % 5 == 0)
        d->sm_bank = lat_fixed(3);
    if (i % 7 == 0)
        d->ts_xfer = lat_fixed(0);
}

static void test_timed_model_matches_iss_on_race_free_programs(void)
{
    rp_opts_t opts = {.race_free = true};
    program_t *p = malloc(sizeof *p);
    arch_state_t *ref = malloc(sizeof *ref);
    unsigned mismatches = 0;
    for (unsigned i = 0; i < DIFF_PROGRAMS; i++) {
        uint64_t seed = 1000 + i;
        rp_generate(p, seed, &opts);
        iss_stats_t st;
        arch_reset(ref, p->sm);
        CU_ASSERT_EQUAL_FATAL(iss_run(&p->tm, ref, NULL, &st, NULL), TESS_OK);
        gpu_desc_t d;
        variant(&d, i);
        h_run_t *r = h_run(p, &d);
        CU_ASSERT_EQUAL(r->outcome, GPU_DONE);
        CU_ASSERT_EQUAL(r->stats.instructions, st.instructions);
        CU_ASSERT_EQUAL(r->stats.sm_accesses, st.loads + st.stores);
        mismatches += !same_arch(&r->arch, ref, seed, "final state");
        h_free(r);
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    free(p);
    free(ref);
}

/* Random latencies exercise the draws of every component. */
static void jitter(gpu_desc_t *d, unsigned i)
{
    if (i % 3)
        return;
    d->sm_bank.kind = LAT_UNIFORM, d->sm_bank.lo = 1, d->sm_bank.hi = 4;
    d->sm_req.kind = LAT_CHOICE, d->sm_req.n = 3;
    d->sm_req.choices[0] = 1, d->sm_req.choices[1] = 1, d->sm_req.choices[2] = 5;
    d->core_alu.kind = LAT_UNIFORM, d->core_alu.lo = 1, d->core_alu.hi = 3;
    d->ts_xfer.kind = LAT_UNIFORM, d->ts_xfer.lo = 0, d->ts_xfer.hi = 6;
}

static void test_decoupled_timestamps_equal_stepped(void)
{
    program_t *p = malloc(sizeof *p);
    unsigned differing = 0;
    for (unsigned i = 0; i < EQUIV_PROGRAMS; i++) {
        rp_opts_t opts = {.race_free = i % 2 == 0, .mem_weight = 20 + i % 50};
        rp_generate(p, 5000 + i, &opts);
        gpu_desc_t d;
        variant(&d, i);
        jitter(&d, i);
        d.timing = GPU_TIMING_DECOUPLED;
        h_run_t *a = h_run(p, &d);
        d.timing = GPU_TIMING_STEPPED;
        h_run_t *b = h_run(p, &d);
        CU_ASSERT_EQUAL(a->outcome, GPU_DONE);
        if (!h_same_timeline(a, b) || memcmp(&a->arch, &b->arch, sizeof a->arch) != 0) {
            fprintf(stderr, "program %u: decoupled and stepped differ\n", 5000 + i);
            differing++;
        }
        CU_ASSERT_TRUE(a->events < b->events || a->stats.instructions == 0);
        h_free(a);
        h_free(b);
    }
    CU_ASSERT_EQUAL(differing, 0);
    free(p);
}

/* Same program, configuration and seed → the same records, run after run. */
static void test_runs_are_deterministic(void)
{
    program_t *p = malloc(sizeof *p);
    rp_opts_t opts = {.race_free = false, .mem_weight = 60};
    rp_generate(p, 77, &opts);
    gpu_desc_t d;
    gpu_desc_default(&d);
    d.arbiter = GPU_ARB_RANDOM;
    d.seed = 12345;
    jitter(&d, 0);
    h_run_t *a = h_run(p, &d), *b = h_run(p, &d);
    CU_ASSERT_TRUE(h_same_timeline(a, b));
    CU_ASSERT_EQUAL(memcmp(&a->arch, &b->arch, sizeof a->arch), 0);
    h_free(a);
    h_free(b);
    free(p);
}

static const test_case_t cases[] = {
    TEST(test_timed_model_matches_iss_on_race_free_programs),
    TEST(test_decoupled_timestamps_equal_stepped),
    TEST(test_runs_are_deterministic),
    TEST_END,
};

static const test_suite_t suites[] = {{"equivalence", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

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
#include "model/simt/simt.h"
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

/* Program `seed` into p, its untimed result into ref and st, and the i-th
 * variant of the configuration into d: the start of every differential case. */
static void reference(program_t *p, uint64_t seed, const rp_opts_t *opts, arch_state_t *ref,
                      iss_stats_t *st /* OUT */, gpu_desc_t *d /* OUT */, unsigned i)
{
    rp_generate(p, seed, opts);
    arch_reset(ref, p->sm);
    CU_ASSERT_EQUAL_FATAL(iss_run(&p->tm, ref, NULL, st, NULL), TESS_OK);
    variant(d, i);
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

/* --- SIMT (SIMT-SPEC "Counting") ---------------------------------------------- */

/* SIMT configuration k of the 12 = scheduler (3) × scoreboard (2) × broadcast (2). */
static void simt_variant(gpu_desc_t *d, unsigned i, unsigned k)
{
    variant(d, i);
    d->model = GPU_MODEL_SIMT;
    d->simt_scheduler = (uint8_t)(k % 3);
    d->simt_scoreboard = (k / 3) & 1;
    d->simt_broadcast = (k / 6) & 1;
    d->simt_issue_width = (uint8_t)(1 + i % 3);
}

/* A pipeline configuration drawn from i (a small hash, so that every key
 * varies independently of the others): I-buffer 0..8, fetch width 1..4,
 * fetch latency 1..3, collectors 0..4 over 1..8 banks, either register-file
 * arbiter, unit widths 1, 2, 4, 8 or 16 (SIMT-SPEC S11–S13). */
static void pipe_variant(gpu_desc_t *d, unsigned i)
{
    uint32_t h = i * 2654435761u;
    static const uint8_t widths[] = {1, 2, 4, 8, 16};
    d->simt_ibuffer = (uint8_t)(h % 9);
    d->simt_fetch_width = (uint8_t)(1 + (h >> 4) % 4);
    d->simt_fetch_latency = (uint8_t)(1 + (h >> 6) % 3);
    d->simt_collectors = (uint8_t)((h >> 8) % 5);
    d->simt_rf_banks = (uint8_t)(1 + (h >> 11) % 8);
    d->simt_sp_width = widths[(h >> 14) % 5];
    d->simt_sfu_width = widths[(h >> 17) % 5];
    d->simt_lsu_width = widths[(h >> 20) % 5];
    d->simt_rf_arbiter = (uint8_t)((h >> 23) % SIMT_RF_COUNT);
    d->simt_pipeline = true; /* also when the draw is all defaults */
}

/* A pipeline configuration barrier mode accepts (S14: no I-buffer). */
static void barrier_pipe_variant(gpu_desc_t *d, unsigned i)
{
    pipe_variant(d, i);
    d->simt_ibuffer = 0;
    d->simt_reconvergence = GPU_RECONV_BARRIER;
}

/* Every lane executed exactly the instructions its core did on the MIMD
 * machine (per task), and every warp's cycles add up. */
static bool same_lane_counts(const h_run_t *simt, const h_run_t *mimd, uint64_t seed)
{
    if (simt->n_tasks != mimd->n_tasks) {
        fprintf(stderr, "program %llu: %zu lane tasks, %zu core tasks\n",
                (unsigned long long)seed, simt->n_tasks, mimd->n_tasks);
        return false;
    }
    for (size_t i = 0; i < mimd->n_tasks; i++) {
        const gpu_tr_core_task_t *t = h_task(simt, mimd->tasks[i].frame, mimd->tasks[i].core);
        if (!t || t->instructions != mimd->tasks[i].instructions) {
            fprintf(stderr, "program %llu: frame %u lane %u: instruction counts differ\n",
                    (unsigned long long)seed, mimd->tasks[i].frame, mimd->tasks[i].core);
            return false;
        }
    }
    return true;
}

/* Issued + stall cycles = resident cycles for every warp, and every warp
 * complete (none left waiting at a barrier); true for a MIMD run. */
static bool warps_add_up(const h_run_t *r)
{
    for (size_t i = 0; i < r->n_warps; i++) {
        const gpu_tr_simt_warp_t *w = &r->warps[i];
        uint64_t sum = w->issued_cycles;
        for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
            sum += w->stall_cycles[k];
        if (sum != w->resident_cycles || !w->complete) {
            fprintf(stderr, "warp (frame %u): %llu issued + stalls != %llu resident\n", w->frame,
                    (unsigned long long)w->issued_cycles,
                    (unsigned long long)w->resident_cycles);
            return false;
        }
    }
    return true;
}

/* --- the differential study: the timed model against the ISS ------------------ */

/* One differential study: `programs` race-free random programs, program i
 * from seed base + i, each run by the ISS and by the MIMD machine under
 * variant(i), then under `configs` SIMT configurations configure(i, k). */
typedef struct {
    const char *what;                                         /* named in messages */
    uint64_t base;                                            /* program i: seed base + i */
    unsigned programs;                                        /* how many */
    unsigned configs;                                         /* SIMT runs per program */
    void (*configure)(gpu_desc_t *d, unsigned i, unsigned k); /* SIMT run k of program i */
    bool barrier_too; /* each SIMT run again under simt.reconvergence = barrier */
} diff_study_t;

/* Asserts that run r completed with the ISS's instruction count (st) and, for
 * the MIMD run (mimd NULL), its SM access count; false (the difference
 * printed) when r's final SM and registers are not the ISS's (ref), or, for a
 * SIMT run, its per-lane counts are not the MIMD run's or its warps' cycles do
 * not add up. */
static bool agrees(const h_run_t *r, const iss_stats_t *st, const arch_state_t *ref,
                   const h_run_t *mimd, uint64_t seed, const char *what)
{
    CU_ASSERT_EQUAL(r->outcome, GPU_DONE);
    CU_ASSERT_EQUAL(r->stats.instructions, st->instructions);
    if (!mimd) {
        CU_ASSERT_EQUAL(r->stats.sm_accesses, st->loads + st->stores);
        return same_arch(&r->arch, ref, seed, what);
    }
    return same_arch(&r->arch, ref, seed, what) && same_lane_counts(r, mimd, seed) &&
           warps_add_up(r);
}

/* Runs the study s; asserts that no run disagrees. */
static void differential(const diff_study_t *s)
{
    rp_opts_t opts = {.race_free = true};
    program_t *p = malloc(sizeof *p);
    arch_state_t *ref = malloc(sizeof *ref);
    unsigned bad = 0;
    for (unsigned i = 0; i < s->programs; i++) {
        uint64_t seed = s->base + i;
        iss_stats_t st;
        gpu_desc_t d;
        reference(p, seed, &opts, ref, &st, &d, i);
        h_run_t *m = h_run(p, &d);
        bad += !agrees(m, &st, ref, NULL, seed, "final state");
        for (unsigned k = 0; k < s->configs; k++) {
            s->configure(&d, i, k);
            h_run_t *r = h_run(p, &d);
            bad += !agrees(r, &st, ref, m, seed, s->what);
            h_free(r);
            if (!s->barrier_too)
                continue;
            d.simt_reconvergence = GPU_RECONV_BARRIER;
            r = h_run(p, &d);
            bad += !agrees(r, &st, ref, m, seed, "SIMT barrier final state");
            h_free(r);
        }
        h_free(m);
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(p);
    free(ref);
}

/* --- the pair study: two configurations that must give the same records ------ */

/* One pair study: EQUIV_PROGRAMS random programs (the even ones race-free,
 * memory weight 20–69), program i from seed base + i, each run under
 * first(i) and again after second(i) changed it. */
typedef struct {
    const char *what;                          /* "<what> differ" when they differ */
    uint64_t base;                             /* program i: seed base + i */
    void (*first)(gpu_desc_t *d, unsigned i);  /* the first run's configuration */
    void (*second)(gpu_desc_t *d, unsigned i); /* what the second run changes */
    bool must_finish;                          /* assert that the first run completes */
    void (*also)(const h_run_t *a, const h_run_t *b); /* more assertions, or NULL */
} pair_study_t;

/* Runs the study s; asserts that every pair gives the same outcome, records
 * and final state, with warps whose cycles add up in each finished run. */
static void pairs(const pair_study_t *s)
{
    program_t *p = malloc(sizeof *p);
    unsigned differing = 0;
    for (unsigned i = 0; i < EQUIV_PROGRAMS; i++) {
        rp_opts_t opts = {.race_free = i % 2 == 0, .mem_weight = 20 + i % 50};
        rp_generate(p, s->base + i, &opts);
        gpu_desc_t d;
        s->first(&d, i);
        h_run_t *a = h_run(p, &d);
        s->second(&d, i);
        h_run_t *b = h_run(p, &d);
        if (s->must_finish)
            CU_ASSERT_EQUAL(a->outcome, GPU_DONE);
        if (s->also)
            s->also(a, b);
        if (a->outcome != b->outcome || !h_same_timeline(a, b) ||
            memcmp(&a->arch, &b->arch, sizeof a->arch) != 0 ||
            (a->outcome == GPU_DONE && !warps_add_up(a)) ||
            (b->outcome == GPU_DONE && !warps_add_up(b))) {
            fprintf(stderr, "program %llu: %s differ\n", (unsigned long long)(s->base + i),
                    s->what);
            differing++;
        }
        h_free(a);
        h_free(b);
    }
    CU_ASSERT_EQUAL(differing, 0);
    free(p);
}

/* The second run of a timing pair: stepped (the first is decoupled). */
static void stepped(gpu_desc_t *d, unsigned i)
{
    (void)i;
    d->timing = GPU_TIMING_STEPPED;
}

/* The second run of a defaults pair: through the pipeline's cycle. */
static void through_pipeline(gpu_desc_t *d, unsigned i)
{
    (void)i;
    d->simt_pipeline = true;
}

/* --- MIMD ------------------------------------------------------------------- */

static void test_timed_model_matches_iss_on_race_free_programs(void)
{
    differential(&(diff_study_t){.what = "final state", .base = 1000, .programs = DIFF_PROGRAMS});
}

static void mimd_decoupled(gpu_desc_t *d, unsigned i)
{
    variant(d, i);
    jitter(d, i);
    d->timing = GPU_TIMING_DECOUPLED;
}

/* The decoupled mode runs on fewer kernel events than the stepped one. */
static void fewer_events(const h_run_t *a, const h_run_t *b)
{
    CU_ASSERT_TRUE(a->events < b->events || a->stats.instructions == 0);
}

static void test_decoupled_timestamps_equal_stepped(void)
{
    pairs(&(pair_study_t){.what = "decoupled and stepped", .base = 5000, .first = mimd_decoupled,
                          .second = stepped, .must_finish = true, .also = fewer_events});
}

/* --- SIMT ------------------------------------------------------------------- */

static void simt_config(gpu_desc_t *d, unsigned i, unsigned k)
{
    simt_variant(d, i, k);
}

/* Race-free random programs under core.model = simt, every scheduler ×
 * scoreboard × broadcast: the ISS's final SM and registers, the MIMD run's
 * per-lane instruction counts, and issued + stall cycles = resident cycles. */
static void test_simt_matches_iss_and_mimd_lane_counts(void)
{
    differential(&(diff_study_t){.what = "SIMT final state", .base = 9000,
                                 .programs = DIFF_PROGRAMS, .configs = 12,
                                 .configure = simt_config});
}

static void simt_decoupled(gpu_desc_t *d, unsigned i)
{
    simt_variant(d, i, i % 12);
    jitter(d, i);
    d->timing = GPU_TIMING_DECOUPLED;
}

/* The SIMT unit's timestamps do not depend on core.timing: random programs
 * (racy ones and random latencies included) give the same records. */
static void test_simt_decoupled_equals_stepped(void)
{
    pairs(&(pair_study_t){.what = "SIMT decoupled and stepped", .base = 7000,
                          .first = simt_decoupled, .second = stepped, .must_finish = true});
}

/* --- the SIMT pipeline (SIMT-SPEC S11–S13) ---------------------------------- */

static void pipe_config(gpu_desc_t *d, unsigned i, unsigned k)
{
    simt_variant(d, i, (i + 5 * k) % 12);
    pipe_variant(d, 4 * i + k);
}

/* Race-free random programs under random pipeline configurations (and every
 * scheduler × scoreboard × broadcast): the ISS's final SM and registers, the
 * MIMD run's per-lane instruction counts, issued + stall cycles = resident
 * cycles per warp (timing never changes results). */
static void test_simt_pipeline_matches_iss_and_mimd(void)
{
    differential(&(diff_study_t){.what = "SIMT pipeline final state", .base = 11000,
                                 .programs = DIFF_PROGRAMS / 2, .configs = 4,
                                 .configure = pipe_config});
}

static void simt_either_timing(gpu_desc_t *d, unsigned i)
{
    simt_variant(d, i, i % 12);
    d->timing = i % 4 ? GPU_TIMING_DECOUPLED : GPU_TIMING_STEPPED;
}

/* The pipeline with every S11–S13 key at its default is the machine of
 * S1–S10: random programs (racy ones too), every scheduler × scoreboard ×
 * broadcast and issue widths 1–3, fixed latencies, give the same records
 * (issue port, warps, ld/st, accesses, tasks) through the pipeline's cycle
 * as through S1–S10's issue decision. */
static void test_simt_pipeline_defaults_are_s1_s10(void)
{
    pairs(&(pair_study_t){.what = "the default pipeline and S1-S10", .base = 12000,
                          .first = simt_either_timing, .second = through_pipeline,
                          .must_finish = true});
}

static void pipe_decoupled(gpu_desc_t *d, unsigned i)
{
    simt_variant(d, i, i % 12);
    pipe_variant(d, i);
    jitter(d, i);
    d->timing = GPU_TIMING_DECOUPLED;
}

/* Under random pipeline configurations the unit's timestamps do not depend
 * on core.timing (racy programs and random latencies included). */
static void test_simt_pipeline_decoupled_equals_stepped(void)
{
    pairs(&(pair_study_t){.what = "SIMT pipeline decoupled and stepped", .base = 13000,
                          .first = pipe_decoupled, .second = stepped, .must_finish = true});
}

/* --- stack-less reconvergence (SIMT-SPEC S14) ----------------------------------- */

/* The stack's run k of program i, which the study repeats under barriers:
 * the first two plain, the last two with random collectors and widths. */
static void stack_config(gpu_desc_t *d, unsigned i, unsigned k)
{
    simt_variant(d, i, (i + 5 * k) % 12);
    if (k >= 2) {
        barrier_pipe_variant(d, 4 * i + k);
        d->simt_reconvergence = GPU_RECONV_STACK;
    }
}

/* Race-free random programs under simt.reconvergence = barrier, every
 * scheduler × scoreboard × broadcast × issue widths 1-3, half of them with
 * random collectors (0-4 over 1-8 register banks) and unit widths (1, 2, 4,
 * 8, 16; S12, S13): the ISS's final SM and registers, the MIMD run's
 * per-lane instruction counts, issued + stall cycles = resident cycles per
 * warp, every warp complete (no group left waiting at a barrier); the same
 * programs under the stack (with the same collectors and widths) give the
 * same final state (and the same lane counts). */
static void test_simt_barrier_matches_iss_mimd_and_stack(void)
{
    differential(&(diff_study_t){.what = "SIMT stack final state", .base = 15000,
                                 .programs = DIFF_PROGRAMS / 2, .configs = 4,
                                 .configure = stack_config, .barrier_too = true});
}

static void barrier_decoupled(gpu_desc_t *d, unsigned i)
{
    simt_variant(d, i, i % 12);
    if (i % 2)
        barrier_pipe_variant(d, i);
    d->simt_reconvergence = GPU_RECONV_BARRIER;
    jitter(d, i);
    d->timing = GPU_TIMING_DECOUPLED;
}

/* Under barrier mode the unit's timestamps do not depend on core.timing
 * (racy programs and random latencies included). */
static void test_simt_barrier_decoupled_equals_stepped(void)
{
    pairs(&(pair_study_t){.what = "SIMT barrier decoupled and stepped", .base = 16000,
                          .first = barrier_decoupled, .second = stepped, .must_finish = true});
}

static void barrier_either_timing(gpu_desc_t *d, unsigned i)
{
    simt_variant(d, i, i % 12);
    d->simt_reconvergence = GPU_RECONV_BARRIER;
    d->atomics = i % 3 == 0;
    d->timing = i % 4 ? GPU_TIMING_DECOUPLED : GPU_TIMING_STEPPED;
}

/* Barrier mode through the pipeline's collectors and units with their keys
 * at the defaults (gpu_desc_t.simt_pipeline: no collector, 16-lane units)
 * is S14's machine: random programs (racy ones too), every scheduler ×
 * scoreboard × broadcast and issue widths 1-3, atomics on and off, give the
 * same records as thread groups issuing straight to the units. */
static void test_simt_barrier_pipeline_defaults_are_s14(void)
{
    pairs(&(pair_study_t){.what = "barrier mode's default pipeline and S14", .base = 17000,
                          .first = barrier_either_timing, .second = through_pipeline});
}

/* A single warp without divergence or memory access has MIMD's timestamps
 * (S3): random straight-line ALU/mul/div tasks, one group at a time. */
static void test_simt_single_uniform_warp_has_mimd_times(void)
{
    static const char *ops[] = {"add", "sub", "mul", "div", "cmpge", "and", "or", "xor"};
    uint64_t rs = 42;
    unsigned differing = 0;
    for (unsigned i = 0; i < 100; i++) {
        char src[4096];
        int at = snprintf(src, sizeof src, ".group cores=0x%x fence=acq\n",
                          (unsigned)(test_rand(&rs) % 0xffff) + 1);
        for (unsigned t = 0, nt = 1 + (unsigned)(test_rand(&rs) % 3); t < nt; t++) {
            at += snprintf(src + at, sizeof src - (size_t)at, "%s set_const r1, id\n",
                           t ? ".task\n" : "");
            for (unsigned k = 0, n = (unsigned)(test_rand(&rs) % 14); k < n; k++) {
                unsigned r = (unsigned)test_rand(&rs);
                if (r % 5 == 0)
                    at += snprintf(src + at, sizeof src - (size_t)at, " rshft r%u, %u, r%u\n",
                                   r % 16, (r >> 4) % 8, (r >> 8) % 16);
                else
                    at += snprintf(src + at, sizeof src - (size_t)at, " %s r%u, r%u, r%u\n",
                                   ops[(r >> 3) % 8], (r >> 6) % 16, (r >> 10) % 16,
                                   (r >> 14) % 16);
            }
        }
        gpu_desc_t d;
        gpu_desc_default(&d);
        h_run_t *m = h_run_src(src, &d);
        d.model = GPU_MODEL_SIMT; /* S3: the scoreboard off, any scheduler and width */
        d.simt_scheduler = (uint8_t)(i % 3);
        d.simt_issue_width = (uint8_t)(1 + i % 16);
        h_run_t *s = h_run_src(src, &d);
        if (!h_same_timeline(m, s) || memcmp(&m->arch, &s->arch, sizeof m->arch) != 0) {
            fprintf(stderr, "uniform warp %u differs from MIMD:\n%s", i, src);
            differing++;
        }
        h_free(m);
        h_free(s);
    }
    CU_ASSERT_EQUAL(differing, 0);
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
    TEST(test_simt_matches_iss_and_mimd_lane_counts),
    TEST(test_simt_decoupled_equals_stepped),
    TEST(test_simt_single_uniform_warp_has_mimd_times),
    TEST(test_simt_pipeline_matches_iss_and_mimd),
    TEST(test_simt_pipeline_defaults_are_s1_s10),
    TEST(test_simt_pipeline_decoupled_equals_stepped),
    TEST(test_simt_barrier_matches_iss_mimd_and_stack),
    TEST(test_simt_barrier_decoupled_equals_stepped),
    TEST(test_simt_barrier_pipeline_defaults_are_s14),
    TEST_END,
};

static const test_suite_t suites[] = {{"equivalence", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

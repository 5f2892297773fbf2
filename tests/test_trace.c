/* test_trace.c — the instruction trace (--trace, model/itrace.h): golden
 * traces of a small program under `iss` and `run` worked out by hand; a
 * traced run has exactly the timestamps and results of an untraced one;
 * the untimed and the timed trace of a race-free program list the same
 * instructions per core (per lane on the SIMT unit), with the same values;
 * the window options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "model/iss.h"
#include "tests/harness.h"
#include "tests/randprog.h"
#include "tests/testutil.h"

/* --- golden traces ------------------------------------------------------------- */

/* Two cores. By hand, default timing (T1-T7, one cycle each, T4 = 4):
 * CF0 decodes [0,1), IF1 [1,2), is issued at 2 and starts at 6 on both cores.
 *   6  set_const r0, id     r0 = core id
 *   7  set_const r8, 2
 *   8  mul r0, r8, r1       2 cycles: r1 = 2*id, r2 = the high byte, 0
 *  10  st [r1, r8], r8      addr {r8[3:0], r1} = 0x200 + 2*id, bank 2 (high:
 *                           addr[11:8]); both requests reach bank 2 at 11:
 *                           core 0 is granted at 11 (done 13), core 1 at 12
 *                           (fixed arbiter; done 14)
 *  13/14 ld [r1, r8], r3    core 0's arrives at 14, granted 14, done 16;
 *                           core 1's arrives at 15, granted 15, done 17
 *  16/17 ready
 * A ld/st line is written when its answer arrives (its value known), with its
 * start time; the cores run ahead of each other (decoupled mode), so core 1's
 * first three lines come before core 0's st. The ISS runs core 0's task, then
 * core 1's: `when` is the instruction's ordinal. */
static const char trace_src[] = ".group cores=0x3\n set_const r0, id\n set_const r8, 2\n"
                                " mul r0, r8, r1\n st [r1, r8], r8\n ld [r1, r8], r3\n ready\n";

static const char golden_run[] =
    "# tessera trace 1: trace.s, when = cycles\n"
    "6 f1 c0 s0 | set_const r0, id | r0=0x00 | -\n"
    "7 f1 c0 s1 | set_const r8, 0x02 | r8=0x02 | -\n"
    "8 f1 c0 s2 | mul r0, r8, r1 | r1=0x00 r2=0x00 | -\n"
    "6 f1 c1 s0 | set_const r0, id | r0=0x01 | -\n"
    "7 f1 c1 s1 | set_const r8, 0x02 | r8=0x02 | -\n"
    "8 f1 c1 s2 | mul r0, r8, r1 | r1=0x02 r2=0x00 | -\n"
    "10 f1 c0 s3 | st [r1, r8], r8 | - | st 0x200 bank 2 value 0x02\n"
    "10 f1 c1 s3 | st [r1, r8], r8 | - | st 0x202 bank 2 value 0x02\n"
    "13 f1 c0 s4 | ld [r1, r8], r3 | r3=0x02 | ld 0x200 bank 2 value 0x02\n"
    "16 f1 c0 s5 | ready | - | -\n"
    "14 f1 c1 s4 | ld [r1, r8], r3 | r3=0x02 | ld 0x202 bank 2 value 0x02\n"
    "17 f1 c1 s5 | ready | - | -\n";

/* The ISS, with -s sm.banks=4 -s sm.bank_map=xor: bank = addr[1:0] ^
 * addr[3:2]: 0x200 → 0 ^ 0 = 0, 0x202 → 2 ^ 0 = 2. */
static const char golden_iss[] =
    "# tessera trace 1: trace.s, when = ordinal\n"
    "0 f1 c0 s0 | set_const r0, id | r0=0x00 | -\n"
    "1 f1 c0 s1 | set_const r8, 0x02 | r8=0x02 | -\n"
    "2 f1 c0 s2 | mul r0, r8, r1 | r1=0x00 r2=0x00 | -\n"
    "3 f1 c0 s3 | st [r1, r8], r8 | - | st 0x200 bank 0 value 0x02\n"
    "4 f1 c0 s4 | ld [r1, r8], r3 | r3=0x02 | ld 0x200 bank 0 value 0x02\n"
    "5 f1 c0 s5 | ready | - | -\n"
    "6 f1 c1 s0 | set_const r0, id | r0=0x01 | -\n"
    "7 f1 c1 s1 | set_const r8, 0x02 | r8=0x02 | -\n"
    "8 f1 c1 s2 | mul r0, r8, r1 | r1=0x02 r2=0x00 | -\n"
    "9 f1 c1 s3 | st [r1, r8], r8 | - | st 0x202 bank 2 value 0x02\n"
    "10 f1 c1 s4 | ld [r1, r8], r3 | r3=0x02 | ld 0x202 bank 2 value 0x02\n"
    "11 f1 c1 s5 | ready | - | -\n";

/* Runs `tessera ARGS` in the scratch directory holding trace.s. */
static int in_tmp(const char *args, char **out)
{
    const char *src = test_tmp_path("trace.s");
    CU_ASSERT_EQUAL_FATAL(test_write_file(src, trace_src, strlen(trace_src)), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_tmp_dir(), TESSERA_BINARY, args);
    return test_run_shell(cmd, out);
}

static void expect_text(const char *args, const char *want)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(in_tmp(args, &out), 0);
    if (!out || strcmp(out, want))
        fprintf(stderr, "\n  tessera %s printed:\n%s  expected:\n%s", args, out ? out : "", want);
    CU_ASSERT_STRING_EQUAL(out ? out : "", want);
    free(out);
}

static void test_golden_run_trace(void)
{
    expect_text("run trace.s --no-db --quiet --trace -", golden_run);
    /* to a file: the same text */
    char *out = NULL;
    CU_ASSERT_EQUAL(in_tmp("run trace.s --no-db --quiet --trace t.txt && cat t.txt", &out), 0);
    CU_ASSERT_STRING_EQUAL(out ? out : "", golden_run);
    free(out);
}

static void test_golden_iss_trace(void)
{
    char args[256];
    snprintf(args, sizeof args,
             "iss trace.s -s sm.banks=4 -s sm.bank_map=xor --trace - | grep -v '^trace.s:'");
    expect_text(args, golden_iss);
}

/* --trace-from C --trace-to C: instructions starting in [C, C') only; the
 * ISS's window is in ordinals. */
static void test_trace_window(void)
{
    expect_text("run trace.s --no-db --quiet --trace - --trace-from 8 --trace-to 14",
                "# tessera trace 1: trace.s, when = cycles\n"
                "8 f1 c0 s2 | mul r0, r8, r1 | r1=0x00 r2=0x00 | -\n"
                "8 f1 c1 s2 | mul r0, r8, r1 | r1=0x02 r2=0x00 | -\n"
                "10 f1 c0 s3 | st [r1, r8], r8 | - | st 0x200 bank 2 value 0x02\n"
                "10 f1 c1 s3 | st [r1, r8], r8 | - | st 0x202 bank 2 value 0x02\n"
                "13 f1 c0 s4 | ld [r1, r8], r3 | r3=0x02 | ld 0x200 bank 2 value 0x02\n");
    expect_text("iss trace.s --trace - --trace-from 10 | grep -v '^trace.s:'",
                "# tessera trace 1: trace.s, when = ordinal\n"
                "10 f1 c1 s4 | ld [r1, r8], r3 | r3=0x02 | ld 0x202 bank 2 value 0x02\n"
                "11 f1 c1 s5 | ready | - | -\n");
    char *out = NULL;
    CU_ASSERT_EQUAL(in_tmp("run trace.s --no-db --trace-from 3", &out), TESS_EUSAGE);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "--trace-from and --trace-to need --trace FILE")
                               : NULL);
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(in_tmp("run trace.s --no-db --trace - --trace-from 9 --trace-to 9", &out),
                    TESS_EUSAGE);
    CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, "--trace-to 9 is not after --trace-from 9") : NULL);
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(in_tmp("run trace.s --no-db --trace /nonexistent/dir/t.txt", &out),
                    TESS_EIO);
    free(out);
}

/* --- the trace against the model ----------------------------------------------- */

typedef struct line {
    uint64_t when;
    uint8_t frame, unit, slot;
    uint16_t word, wmask;
    uint8_t regs[ISA_REGS];   /* the written ones; others 0 */
    bool mem, store;
    uint16_t addr;
    uint8_t bank, value;
} line_t;

typedef struct lines {
    line_t *v;
    size_t n, cap;
} lines_t;

/* One line per core and instruction: a SIMT warp's record becomes one per
 * active lane (lane = core). */
static void collect(void *user, const itrace_rec_t *r)
{
    lines_t *l = user;
    for (unsigned lane = 0; lane < ITRACE_LANES; lane++) {
        if (r->simt ? !(r->lanes >> lane & 1) : lane > 0)
            continue;
        if (l->n == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 1024;
            l->v = realloc(l->v, l->cap * sizeof *l->v);
        }
        line_t *x = &l->v[l->n++];
        memset(x, 0, sizeof *x);
        *x = (line_t){.when = r->when, .frame = r->frame,
                      .unit = r->simt ? (uint8_t)lane : r->unit, .slot = r->slot,
                      .word = r->word, .wmask = r->wmask, .mem = r->mem, .store = r->store,
                      .addr = r->addr[lane], .bank = r->bank[lane], .value = r->value[lane]};
        for (unsigned k = 0; k < ISA_REGS; k++)
            if (r->wmask & (1u << k))
                x->regs[k] = r->regs[r->simt ? lane : 0][k];
    }
}

/* The configurations of test_equivalence.c, in short: every mapping and
 * bank count, policies, arbiters, drawn latencies every third program. */
static void config_of(gpu_desc_t *d, unsigned i)
{
    gpu_desc_default(d);
    d->policy = (uint8_t)(i & 1);
    d->bank_map = (uint8_t)(i % 3);
    d->banks = (uint8_t)(1u << (i / 3 % 7));
    d->arbiter = (uint8_t)((i >> 2) & 3);
    d->seed = i;
    d->timing = (uint8_t)(i % 4 == 3);
    /* warps and lanes, drawn latencies included (SIMT's per-bank replay count
     * once overflowed with 64 banks, which made two identical runs differ) */
    d->model = (uint8_t)(i % 5 == 1 ? GPU_MODEL_SIMT : GPU_MODEL_MIMD);
    if (i % 3 == 0) {
        d->sm_bank.kind = LAT_UNIFORM, d->sm_bank.lo = 1, d->sm_bank.hi = 4;
        d->core_alu.kind = LAT_UNIFORM, d->core_alu.lo = 1, d->core_alu.hi = 3;
    }
}

/* Tracing changes nothing: the same records, times and final state, racy
 * programs, drawn latencies and the SIMT unit included; one line per
 * instruction (per lane of a warp's), each
 * core's lines in program order with nondecreasing start times. */
static void test_traced_run_has_untraced_timing(void)
{
    program_t *p = malloc(sizeof *p);
    unsigned differing = 0;
    for (unsigned i = 0; i < 120; i++) {
        rp_opts_t opts = {.race_free = i % 2 == 0, .mem_weight = 20 + i % 50};
        rp_generate(p, 7000 + i, &opts);
        gpu_desc_t d;
        config_of(&d, i);
        lines_t l = {0};
        h_run_t *a = h_run(p, &d), *b = h_run_itrace(p, &d, collect, &l);
        if (!h_same_timeline(a, b) || memcmp(&a->arch, &b->arch, sizeof a->arch) != 0 ||
            a->stats.end_ps != b->stats.end_ps) {
            fprintf(stderr, "program %u: traced and untraced runs differ\n", 7000 + i);
            differing++;
        }
        CU_ASSERT_EQUAL(l.n, b->stats.instructions);
        uint64_t last[GPU_CORES] = {0};
        for (size_t k = 0; k < l.n; k++) {
            CU_ASSERT_TRUE(l.v[k].when >= last[l.v[k].unit]);
            last[l.v[k].unit] = l.v[k].when;
            if (l.v[k].mem)
                CU_ASSERT_EQUAL(l.v[k].bank, gpu_bank_of(d.bank_map, d.banks, l.v[k].addr));
        }
        free(l.v);
        h_free(a);
        h_free(b);
    }
    CU_ASSERT_EQUAL(differing, 0);
    free(p);
}

/* The k-th line of `unit` in `l` from index *at on, or NULL. */
static const line_t *next_of(const lines_t *l, unsigned unit, size_t *at)
{
    for (; *at < l->n; (*at)++)
        if (l->v[*at].unit == unit)
            return &l->v[(*at)++];
    return NULL;
}

/* Race-free programs: per core, the ISS and the timed model execute the same
 * instructions (frame, slot, word) in the same order, write the same values
 * and access the same addresses, banks and bytes. */
static void test_iss_and_run_list_the_same_instructions_per_core(void)
{
    program_t *p = malloc(sizeof *p);
    arch_state_t *st = malloc(sizeof *st);
    unsigned differing = 0;
    for (unsigned i = 0; i < 120; i++) {
        rp_opts_t opts = {.race_free = true, .mem_weight = 10 + i % 60};
        rp_generate(p, 9000 + i, &opts);
        gpu_desc_t d;
        config_of(&d, i);
        lines_t timed = {0}, untimed = {0};
        h_run_t *r = h_run_itrace(p, &d, collect, &timed);
        iss_desc_t id = {.itrace = collect, .itrace_user = &untimed, .banks = d.banks,
                         .bank_map = d.bank_map};
        iss_stats_t s;
        arch_reset(st, p->sm);
        CU_ASSERT_EQUAL_FATAL(iss_run(&p->tm, st, &id, &s, NULL), TESS_OK);
        CU_ASSERT_EQUAL(untimed.n, s.instructions);
        CU_ASSERT_EQUAL(timed.n, untimed.n);
        bool same = timed.n == untimed.n;
        for (unsigned c = 0; c < GPU_CORES && same; c++) {
            size_t at = 0, bt = 0;
            const line_t *x, *y;
            while (same && (x = next_of(&timed, c, &at)) != NULL) {
                y = next_of(&untimed, c, &bt);
                same = y && x->frame == y->frame && x->slot == y->slot &&
                       x->word == y->word && x->wmask == y->wmask &&
                       !memcmp(x->regs, y->regs, sizeof x->regs) && x->mem == y->mem &&
                       x->store == y->store && x->addr == y->addr && x->bank == y->bank &&
                       x->value == y->value;
            }
            same = same && next_of(&untimed, c, &bt) == NULL;
        }
        if (!same) {
            fprintf(stderr, "program %u: the ISS and the timed traces differ\n", 9000 + i);
            differing++;
        }
        free(timed.v);
        free(untimed.v);
        h_free(r);
    }
    CU_ASSERT_EQUAL(differing, 0);
    free(p);
    free(st);
}

static const test_case_t cases[] = {
    TEST(test_golden_run_trace),
    TEST(test_golden_iss_trace),
    TEST(test_trace_window),
    TEST(test_traced_run_has_untraced_timing),
    TEST(test_iss_and_run_list_the_same_instructions_per_core),
    TEST_END,
};

static const test_suite_t suites[] = {{"trace", cases}, {NULL, NULL}};

int main(void) { return test_run_suites(suites); }

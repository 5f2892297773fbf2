/* test_examples.c — every program in examples/ end to end: its documented
 * final memory (and registers where it documents them) under the ISS and
 * under the timed model in several configurations that must not change a
 * race-free result, the asm/disasm round trip, and each example's own point
 * (bank mapping costs, a missing fence, atomics off). Runs the built binary. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera_names.h" /* the model's stall reasons (cmake/gen-names.c) */
#include "tests/testutil.h"

enum { MEM_BYTES = 4096, REG_BYTES = 256, CORES = 16 };

/* The final state of one run. */
typedef struct outcome {
    int rc;                    /* tessera's exit status */
    uint8_t mem[MEM_BYTES];    /* --dump-mem */
    uint8_t regs[REG_BYTES];   /* --dump-regs: core-major, R0..R15 per core */
    char *out;                 /* stdout+stderr, malloc'd (NULL if none) */
} outcome_t;

/* One example program and its documented result. */
typedef struct example {
    const char *name;              /* examples/<name>.s */
    const char *opts;              /* options every `run` of it needs */
    void (*expect)(uint8_t *mem);  /* initial SM image -> documented final one */
    bool regs_fixed;               /* registers do not depend on timing */
} example_t;

/* Configurations that must not change a race-free result. */
static const char *const configs[] = {
    "",
    "-s ts.policy=lookahead",
    "-s sm.arbiter=rr",
    "-s sm.bank_map=interleaved",
    "-s sm.bank=3",
    "-s core.timing=stepped",
};
enum { NCONFIGS = sizeof configs / sizeof configs[0] };

static uint8_t reg(const outcome_t *o, unsigned core, unsigned r)
{
    return o->regs[core * 16 + r];
}

/* ---- running tessera ---------------------------------------------------- */

/* Runs `tessera CMD PROG OPTS --dump-mem --dump-regs` into *o (the dumps are
 * zeroed first, so a missing dump shows as a mismatch). Returns o->rc. */
static int run_prog(const char *cmd, const char *prog, const char *opts, outcome_t *o)
{
    char args[2048];
    const char *mem = test_tmp_path("out.mem"), *regs = test_tmp_path("out.regs");
    remove(mem);
    remove(regs);
    snprintf(args, sizeof args, "%s '%s' %s --dump-mem '%s' --dump-regs '%s'", cmd, prog,
             opts ? opts : "", mem, regs);
    free(o->out);
    o->out = NULL;
    o->rc = test_run_tessera(args, &o->out);
    if (o->rc != 0)
        fprintf(stderr, "\ntessera %s -> %d\n%s\n", args, o->rc, o->out ? o->out : "");
    memset(o->mem, 0, sizeof o->mem);
    memset(o->regs, 0, sizeof o->regs);
    size_t len = 0;
    uint8_t *b = test_read_file(mem, &len);
    if (b && len == MEM_BYTES)
        memcpy(o->mem, b, MEM_BYTES);
    free(b);
    b = test_read_file(regs, &len);
    if (b && len == REG_BYTES)
        memcpy(o->regs, b, REG_BYTES);
    free(b);
    return o->rc;
}

static const char *example_path(const example_t *e)
{
    static char path[8][256];
    static unsigned next;
    char rel[128];
    char *p = path[next++ % 8];
    snprintf(rel, sizeof rel, "examples/%s.s", e->name);
    snprintf(p, 256, "%s", test_src_path(rel));
    return p;
}

/* The SM image of a program's .data lines, from `tessera asm --mem-out`. */
static bool initial_mem(const char *prog, uint8_t *mem)
{
    char args[1024];
    const char *tm = test_tmp_path("init.tm"), *data = test_tmp_path("init.data");
    snprintf(args, sizeof args, "asm '%s' -o '%s' --mem-out '%s'", prog, tm, data);
    if (test_run_tessera(args, NULL) != 0)
        return false;
    size_t len = 0;
    uint8_t *b = test_read_file(data, &len);
    bool ok = b && len == MEM_BYTES;
    if (ok)
        memcpy(mem, b, MEM_BYTES);
    free(b);
    return ok;
}

/* Compares a whole SM image, naming the first difference. */
static bool same_mem(const char *what, const uint8_t *want, const uint8_t *got)
{
    for (unsigned a = 0; a < MEM_BYTES; a++) {
        if (want[a] != got[a]) {
            fprintf(stderr, "\n%s: SM[0x%03x] = 0x%02x, expected 0x%02x\n", what, a, got[a],
                    want[a]);
            return false;
        }
    }
    return true;
}

/* Copies the file at src to the temp file `name`, replacing the one
 * occurrence of `from` by `to`; the path goes to path[len]. Returns false
 * (and writes nothing) when `from` is not found exactly once. */
static bool patched_copy(const char *src, const char *from, const char *to, const char *name,
                         char *path, size_t pathlen)
{
    size_t len = 0;
    char *text = (char *)test_read_file(src, &len);
    if (!text)
        return false;
    char *at = strstr(text, from);
    if (!at || strstr(at + 1, from)) {
        free(text);
        return false;
    }
    size_t head = (size_t)(at - text), fl = strlen(from), tl = strlen(to);
    char *out = malloc(len - fl + tl + 1);
    if (!out) {
        free(text);
        return false;
    }
    memcpy(out, text, head);
    memcpy(out + head, to, tl);
    memcpy(out + head + tl, at + fl, len - head - fl + 1);
    snprintf(path, pathlen, "%s", test_tmp_path(name));
    int rc = test_write_file(path, out, strlen(out));
    free(out);
    free(text);
    return rc == 0;
}

/* ---- the documented results -------------------------------------------- */

static void expect_vecadd(uint8_t *m)
{
    for (unsigned i = 0; i < 64; i++)
        m[0x300 + i] = (uint8_t)(3 * i + 1);
}

/* simt_diverge.s: the parity if/else and the per-lane loop (its header). */
static void expect_simt_diverge(uint8_t *m)
{
    for (unsigned c = 0; c < 16; c++) {
        m[0x100 + c] = (uint8_t)(c % 2 ? c + 100 : 2 * c);
        m[0x200 + c] = (uint8_t)(c * (c + 1) / 2);
    }
}

/* simt_memory.s: X[c] + c and K + c (its header). */
static void expect_simt_memory(uint8_t *m)
{
    for (unsigned c = 0; c < 16; c++) {
        m[0x300 + c] = (uint8_t)(10 + 2 * c);
        m[0x310 + c] = (uint8_t)(7 + c);
    }
}

/* simt_latency.s: Y[c] = 48 + 3c in row 3 of bank c (its header). */
static void expect_simt_latency(uint8_t *m)
{
    for (unsigned c = 0; c < 16; c++) {
        for (unsigned k = 0; k < 3; k++)
            m[0x100 * c + k] = (uint8_t)(16 * k + c);
        m[0x100 * c + 3] = (uint8_t)(48 + 3 * c);
    }
}

/* simt_paths.s: X[c] doubled for even c, Z[c] + 1 for odd c (its header). */
static void expect_simt_paths(uint8_t *m)
{
    for (unsigned c = 0; c < 8; c++) {
        if (c % 2)
            m[0x200 + c] = (uint8_t)(m[0x200 + c] + 1);
        else
            m[0x100 + c] = (uint8_t)(2 * m[0x100 + c]);
    }
}

/* simt_greedy.s: the SM as loaded (its header). */
static void expect_unchanged(uint8_t *m) { (void)m; }

static void expect_reduce(uint8_t *m)
{
    static const uint8_t tree[15] = {25, 21, 18, 22, 26, 12, 16, 30, 46, 40, 38, 46, 86, 84, 170};
    memcpy(m + 0x200, tree, sizeof tree);
}

static void expect_histogram(uint8_t *m)
{
    static const uint8_t h[8] = {23, 23, 19, 14, 11, 12, 15, 11};
    for (unsigned i = 0; i < 128; i++)
        m[0x200 + (i & ~7u) + m[0x100 + i]]++; /* P[c][X[i]], c = i / 8 */
    memcpy(m + 0x300, h, sizeof h);
}

static void expect_matmul4(uint8_t *m)
{
    static const uint8_t c[16] = {8, 9, 11, 17, 24, 25, 27, 37, 40, 41, 43, 57, 56, 57, 59, 77};
    memcpy(m + 0x300, c, sizeof c);
}

static void expect_transpose(uint8_t *m)
{
    for (unsigned n = 0; n < 256; n++)
        m[0x200 + n] = (uint8_t)((n >> 4) | (n << 4));
}

static const uint8_t scan_steps[4][16] = {
    {3, 4, 5, 5, 6, 14, 11, 8, 11, 8, 8, 13, 17, 16, 16, 12},
    {3, 4, 8, 9, 11, 19, 17, 22, 22, 16, 19, 21, 25, 29, 33, 28},
    {3, 4, 8, 9, 14, 23, 25, 31, 33, 35, 36, 43, 47, 45, 52, 49},
    {3, 4, 8, 9, 14, 23, 25, 31, 36, 39, 44, 52, 61, 68, 77, 80},
};

static void expect_prefix(uint8_t *m)
{
    for (unsigned k = 0; k < 4; k++)
        memcpy(m + 0x200 + 0x100 * k, scan_steps[k], 16);
}

static void expect_prodcons(uint8_t *m)
{
    for (unsigned p = 0; p < 4; p++) {
        m[0x200 + p] = (uint8_t)(0x10 * (p + 1));
        m[0x300 + p] = (uint8_t)(0x10 * (p + 1) + 1);
    }
}

static void expect_lock(uint8_t *m)
{
    m[0x300] = 240;
}

static const uint8_t example_counters[16] = {0x27, 0x27, 0x27, 0x27, 0x22, 0x2a, 0x33, 0x3b,
                                             0x27, 0x27, 0x27, 0x27, 0x66, 0x6e, 0x77, 0x7f};

static void expect_example12(uint8_t *m)
{
    memcpy(m, example_counters, 16);
}

static void expect_matadd(uint8_t *m)
{
    for (unsigned i = 0; i < 8; i++)
        m[0x20 + i] = (uint8_t)(0x10 * (i + 1) + i);
}

static void expect_matmul(uint8_t *m)
{
    static const uint8_t c[4] = {7, 10, 15, 22};
    memcpy(m + 0x20, c, 4);
}

static const example_t examples[] = {
    {"vecadd", "", expect_vecadd, true},
    {"reduce", "", expect_reduce, true},
    {"histogram", "", expect_histogram, true},
    {"matmul4", "", expect_matmul4, true},
    {"transpose", "", expect_transpose, true},
    {"prefix", "", expect_prefix, true},
    {"prodcons", "", expect_prodcons, true},
    {"lock", "-s sm.atomics=on", expect_lock, false},
    {"example1", "", expect_example12, true},
    {"example2", "", expect_example12, true},
    {"matadd", "", expect_matadd, true},
    {"matmul", "", expect_matmul, true},
    {"simt_diverge", "", expect_simt_diverge, true},
    {"simt_diverge", "-s core.model=simt", expect_simt_diverge, true},
    {"simt_memory", "", expect_simt_memory, true},
    {"simt_memory", "-s core.model=simt", expect_simt_memory, true},
    {"simt_memory", "-s core.model=simt -s simt.broadcast=on -s simt.scoreboard=on",
     expect_simt_memory, true},
    {"simt_latency", "", expect_simt_latency, true},
    {"simt_latency", "-s core.model=simt -s simt.issue_width=2", expect_simt_latency, true},
    {"simt_paths", "", expect_simt_paths, true},
    {"simt_paths", "-s core.model=simt", expect_simt_paths, true},
    {"simt_paths", "-s core.model=simt -s simt.reconvergence=barrier", expect_simt_paths, true},
    {"simt_greedy", "-s core.model=simt -s simt.scoreboard=on", expect_unchanged, true},
    {"simt_greedy", "-s core.model=simt -s simt.scoreboard=on -s simt.reconvergence=barrier",
     expect_unchanged, true},
};
enum { NEXAMPLES = sizeof examples / sizeof examples[0] };

static const example_t *example_named(const char *name)
{
    for (unsigned i = 0; i < NEXAMPLES; i++)
        if (strcmp(examples[i].name, name) == 0)
            return &examples[i];
    return NULL;
}

/* The documented final SM of an example; false when it cannot be built. */
static bool expected_mem(const example_t *e, uint8_t *mem)
{
    if (!initial_mem(example_path(e), mem))
        return false;
    e->expect(mem);
    return true;
}

/* ---- every example, every configuration --------------------------------- */

/* Under the ISS, then under `run` in every configuration: exit 0 and the
 * documented memory; where the registers do not depend on timing, the same
 * registers as the ISS. */
static void check_example(const example_t *e)
{
    static uint8_t want[MEM_BYTES];
    static outcome_t iss, o;
    char what[512];
    CU_ASSERT_FATAL(expected_mem(e, want));
    CU_ASSERT_EQUAL(run_prog("iss", example_path(e), "", &iss), 0);
    snprintf(what, sizeof what, "iss %s", e->name);
    CU_ASSERT(same_mem(what, want, iss.mem));
    for (unsigned k = 0; k < NCONFIGS; k++) {
        char opts[256];
        snprintf(opts, sizeof opts, "--no-db %s %s", e->opts, configs[k]);
        CU_ASSERT_EQUAL(run_prog("run", example_path(e), opts, &o), 0);
        if (o.rc != 0)
            continue; /* reported; the dumps are not worth comparing */
        snprintf(what, sizeof what, "run %s %s", e->name, opts);
        CU_ASSERT(same_mem(what, want, o.mem));
        if (e->regs_fixed && memcmp(iss.regs, o.regs, REG_BYTES) != 0) {
            fprintf(stderr, "\n%s: registers differ from the ISS's\n", what);
            CU_FAIL("registers differ from the ISS's");
        }
    }
    free(iss.out);
    free(o.out);
    iss.out = o.out = NULL;
}

static void test_vecadd(void) { check_example(example_named("vecadd")); }
static void test_reduce(void) { check_example(example_named("reduce")); }
static void test_histogram(void) { check_example(example_named("histogram")); }
static void test_matmul4(void) { check_example(example_named("matmul4")); }
static void test_transpose(void) { check_example(example_named("transpose")); }
static void test_prefix(void) { check_example(example_named("prefix")); }
static void test_prodcons(void) { check_example(example_named("prodcons")); }
static void test_lock(void) { check_example(example_named("lock")); }

static void test_existing_examples(void)
{
    static const char *const names[] = {"example1", "example2", "matadd", "matmul"};
    for (unsigned i = 0; i < 4; i++)
        check_example(example_named(names[i]));
}

/* The SIMT examples, each in every configuration listed for it (MIMD, the
 * stack, barriers): the documented memory. */
static void test_simt_examples(void)
{
    for (unsigned i = 0; i < NEXAMPLES; i++)
        if (strncmp(examples[i].name, "simt_", 5) == 0)
            check_example(&examples[i]);
}

/* ---- documented registers ------------------------------------------------ */

/* matmul4: core i's accumulator r13 = C[i]; prodcons: consumer 8+p's r2 = M[p]. */
static void test_documented_registers(void)
{
    static outcome_t o;
    static const uint8_t c[16] = {8, 9, 11, 17, 24, 25, 27, 37, 40, 41, 43, 57, 56, 57, 59, 77};
    CU_ASSERT_EQUAL(run_prog("run", example_path(example_named("matmul4")), "--no-db", &o), 0);
    for (unsigned i = 0; i < CORES; i++)
        CU_ASSERT_EQUAL(reg(&o, i, 13), c[i]);
    CU_ASSERT_EQUAL(run_prog("run", example_path(example_named("prodcons")), "--no-db", &o), 0);
    for (unsigned p = 0; p < 4; p++)
        CU_ASSERT_EQUAL(reg(&o, 8 + p, 2), 0x10 * (p + 1));
    free(o.out);
    o.out = NULL;
}

/* lock: every core counted down to 0 and wrote a value nobody else wrote;
 * the largest is 240. Under the ISS and under every configuration. */
static void check_lock_regs(const outcome_t *o)
{
    bool seen[256] = {false};
    unsigned max = 0;
    for (unsigned c = 0; c < CORES; c++) {
        uint8_t last = reg(o, c, 1);
        CU_ASSERT_EQUAL(reg(o, c, 11), 0);
        CU_ASSERT_FALSE(seen[last]);
        seen[last] = true;
        max = last > max ? last : max;
    }
    CU_ASSERT_EQUAL(max, 240);
}

static void test_lock_registers(void)
{
    static outcome_t o;
    const char *prog = example_path(example_named("lock"));
    CU_ASSERT_EQUAL(run_prog("iss", prog, "", &o), 0);
    check_lock_regs(&o);
    for (unsigned k = 0; k < NCONFIGS; k++) {
        char opts[256];
        snprintf(opts, sizeof opts, "--no-db -s sm.atomics=on %s", configs[k]);
        if (run_prog("run", prog, opts, &o) == 0)
            check_lock_regs(&o);
        else
            CU_FAIL("lock.s did not run");
    }
    free(o.out);
    o.out = NULL;
}

/* ---- asm / disasm -------------------------------------------------------- */

/* asm, disasm --mem, asm again: the identical TM and SM images. */
static void round_trip(const char *prog)
{
    char args[2048];
    const char *tm1 = test_tmp_path("rt1.tm"), *mem1 = test_tmp_path("rt1.data");
    const char *src2 = test_tmp_path("rt2.s"), *tm2 = test_tmp_path("rt2.tm");
    const char *mem2 = test_tmp_path("rt2.data");
    snprintf(args, sizeof args, "asm '%s' -o '%s' --mem-out '%s'", prog, tm1, mem1);
    CU_ASSERT_EQUAL_FATAL(test_run_tessera(args, NULL), 0);
    snprintf(args, sizeof args, "'%s' disasm '%s' --mem '%s' > '%s'", TESSERA_BINARY, tm1, mem1,
             src2);
    CU_ASSERT_EQUAL_FATAL(test_run_shell(args, NULL), 0);
    snprintf(args, sizeof args, "asm '%s' -o '%s' --mem-out '%s'", src2, tm2, mem2);
    CU_ASSERT_EQUAL_FATAL(test_run_tessera(args, NULL), 0);
    size_t l1 = 0, l2 = 0, m1 = 0, m2 = 0;
    uint8_t *a = test_read_file(tm1, &l1), *b = test_read_file(tm2, &l2);
    uint8_t *c = test_read_file(mem1, &m1), *d = test_read_file(mem2, &m2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(l1, 2048);
    CU_ASSERT(l1 == l2 && memcmp(a, b, l1) == 0);
    CU_ASSERT(m1 == MEM_BYTES && m1 == m2 && memcmp(c, d, m1) == 0);
    if (l1 != l2 || memcmp(a, b, l1 < l2 ? l1 : l2) != 0)
        fprintf(stderr, "\n%s: the image does not survive disasm + asm\n", prog);
    free(a);
    free(b);
    free(c);
    free(d);
}

static void test_asm_disasm_round_trip(void)
{
    for (unsigned i = 0; i < NEXAMPLES; i++)
        round_trip(example_path(&examples[i]));
    round_trip(test_src_path("examples/bench.s"));
}

/* ---- each example's point ------------------------------------------------ */

/* The summary figures `tessera run` prints. */
typedef struct figures {
    unsigned long long cycles, accesses, waited, lost;
} figures_t;

static bool parse_figures(const char *out, figures_t *f)
{
    const char *t = out ? strstr(out, "simulated time") : NULL;
    const char *a = out ? strstr(out, "SM accesses") : NULL;
    const char *b = out ? strstr(out, "bank conflicts") : NULL;
    unsigned long long ps;
    return t && a && b && sscanf(t, "simulated time %llu ps (%llu cycles)", &ps, &f->cycles) == 2 &&
           sscanf(a, "SM accesses %llu", &f->accesses) == 1 &&
           sscanf(b, "bank conflicts accesses that waited for their bank: %llu; total wait: %llu"
                  " cycles", &f->waited, &f->lost) == 2;
}

/* Runs an example with the given options and parses its summary. */
static bool figures_of(const char *name, const char *opts, figures_t *f)
{
    static outcome_t o;
    char all[256];
    snprintf(all, sizeof all, "--no-db %s", opts);
    bool ok = run_prog("run", example_path(example_named(name)), all, &o) == 0 &&
              parse_figures(o.out, f);
    if (!ok)
        fprintf(stderr, "\nno summary figures in:\n%s\n", o.out ? o.out : "");
    free(o.out);
    o.out = NULL;
    return ok;
}

/* transpose.s: `high` puts A in one bank and B in another, `interleaved`
 * spreads them; documented: high loses about 4 times the cycles and runs
 * 1.6 times longer, while fewer (but far longer) waits happen under high
 * (340 vs 209 cycles, 15 vs 112 waits, 1020 vs 253 cycles lost). */
static void test_transpose_bank_mapping(void)
{
    figures_t hi, il;
    CU_ASSERT_FATAL(figures_of("transpose", "", &hi));
    CU_ASSERT_FATAL(figures_of("transpose", "-s sm.bank_map=interleaved", &il));
    fprintf(stderr, "\ntranspose high: %llu cycles, %llu/%llu waited, %llu lost; "
                    "interleaved: %llu cycles, %llu/%llu waited, %llu lost\n",
            hi.cycles, hi.waited, hi.accesses, hi.lost, il.cycles, il.waited, il.accesses, il.lost);
    CU_ASSERT_EQUAL(hi.accesses, 512);
    CU_ASSERT_EQUAL(il.accesses, 512);
    CU_ASSERT(hi.lost > 3 * il.lost);
    CU_ASSERT(2 * hi.cycles > 3 * il.cycles);
    CU_ASSERT(hi.waited < il.waited);
}

/* transpose.s under `xor` (docs/STUDY-BANKS.md), computed by hand. With k =
 * log2(sm.banks) >= 4, bank = addr[k-1:0] XOR addr[2k-1:k]: core c's j-th
 * load, A[c][j] at 0x100 + 16c + j, and its store, B[j][c] at 0x200 + 16j + c,
 * go to 16 different banks for the 16 cores at each j (the row index c sits in
 * the XORed field), and the cores run in lockstep, so nothing ever waits. The
 * run is then pure compute: the task starts at cycle 6, the 7 set-up
 * instructions take 7 cycles, each of the 16 iterations 3 (ld) + 3 (st) + 4
 * ALU/branch = 10, and ready 1: 7 + 160 + 1 = 168, so the cores finish at 174
 * and READY reaches the TS at 175 (T5) — for 16, 32 and 64 banks. With 4 banks
 * (k = 2) c is outside both fields, every core's j-th load shares one bank as
 * under `interleaved`, and the loads wait. */
static void test_transpose_xor_is_conflict_free(void)
{
    static const char *const banks[] = {"16", "32", "64"};
    for (unsigned i = 0; i < 3; i++) {
        figures_t f;
        char opts[128];
        snprintf(opts, sizeof opts, "-s sm.bank_map=xor -s sm.banks=%s", banks[i]);
        CU_ASSERT_FATAL(figures_of("transpose", opts, &f));
        CU_ASSERT_EQUAL(f.accesses, 512);
        CU_ASSERT_EQUAL(f.waited, 0);
        CU_ASSERT_EQUAL(f.lost, 0);
        CU_ASSERT_EQUAL(f.cycles, 175);
    }
    figures_t four;
    CU_ASSERT_FATAL(figures_of("transpose", "-s sm.bank_map=xor -s sm.banks=4", &four));
    CU_ASSERT(four.waited > 0);
    CU_ASSERT(four.cycles > 175);
}

/* vecadd.s: strided elements; interleaved gives each core its own bank. */
static void test_vecadd_interleaved_has_no_waits(void)
{
    figures_t hi, il;
    CU_ASSERT_FATAL(figures_of("vecadd", "", &hi));
    CU_ASSERT_FATAL(figures_of("vecadd", "-s sm.bank_map=interleaved", &il));
    CU_ASSERT(hi.waited > 0);
    CU_ASSERT(hi.lost > 0);
    CU_ASSERT_EQUAL(il.waited, 0);
    CU_ASSERT_EQUAL(il.lost, 0);
    CU_ASSERT(il.cycles < hi.cycles);
}

/* histogram.s: the private bins share bank 2, so the counting task waits. */
static void test_histogram_bins_conflict(void)
{
    figures_t f;
    CU_ASSERT_FATAL(figures_of("histogram", "", &f));
    CU_ASSERT(f.waited > 0);
    CU_ASSERT(f.lost > 0);
}

/* reduce.s without group 0's acq: level 1 starts while level 0 is still
 * summing and reads zeros; the leaves are still right. */
static void test_reduce_needs_its_first_fence(void)
{
    static outcome_t o;
    char prog[1024];
    CU_ASSERT_FATAL(patched_copy(example_path(example_named("reduce")),
                                 ".group cores=0x00ff fence=acq", ".group cores=0x00ff fence=no",
                                 "reduce-nofence.s", prog, sizeof prog));
    CU_ASSERT_EQUAL(run_prog("run", prog, "--no-db", &o), 0);
    static const uint8_t leaves[8] = {25, 21, 18, 22, 26, 12, 16, 30};
    CU_ASSERT_EQUAL(memcmp(o.mem + 0x200, leaves, 8), 0);
    for (unsigned n = 8; n < 15; n++)
        CU_ASSERT_EQUAL(o.mem[0x200 + n], 0);
    CU_ASSERT_EQUAL(run_prog("iss", prog, "", &o), 0);
    CU_ASSERT_EQUAL(o.mem[0x20e], 170); /* the ISS does not care */
    free(o.out);
    o.out = NULL;
}

/* prodcons.s without the producer's acq: the ISS (program order) still gives
 * the documented result; the timed model's consumer reads the stale 0xee. */
static void test_prodcons_without_fence_reads_stale(void)
{
    static outcome_t o;
    static uint8_t want[MEM_BYTES];
    const example_t *e = example_named("prodcons");
    char prog[1024];
    CU_ASSERT_FATAL(patched_copy(example_path(e), ".group cores=0x000f fence=acq",
                                 ".group cores=0x000f fence=no", "prodcons-nofence.s", prog,
                                 sizeof prog));
    CU_ASSERT_FATAL(expected_mem(e, want));
    CU_ASSERT_EQUAL(run_prog("iss", prog, "", &o), 0);
    CU_ASSERT(same_mem("iss prodcons without fence", want, o.mem));
    CU_ASSERT_EQUAL(run_prog("run", prog, "--no-db", &o), 0);
    for (unsigned p = 0; p < 4; p++) {
        CU_ASSERT_EQUAL(o.mem[0x200 + p], 0x10 * (p + 1)); /* M is written all the same */
        CU_ASSERT_EQUAL(o.mem[0x300 + p], 0xef);           /* R from the stale message */
        CU_ASSERT_EQUAL(reg(&o, 8 + p, 2), 0xee);
    }
    free(o.out);
    o.out = NULL;
}

/* lock.s with sm.atomics=off: plain ld/st race and increments are lost
 * (documented: 60 of 240 with the default timing, 15 with rr); the ISS,
 * one core at a time, still counts 240. */
static void test_lock_without_atomics_loses_increments(void)
{
    static outcome_t o;
    const char *prog = example_path(example_named("lock"));
    CU_ASSERT_EQUAL(run_prog("run", prog, "--no-db -s sm.atomics=off", &o), 0);
    fprintf(stderr, "\nlock, atomics off: K = %u (atomics on: 240)\n", o.mem[0x300]);
    CU_ASSERT(o.mem[0x300] < 240);
    CU_ASSERT_EQUAL(o.mem[0x300], 60);
    CU_ASSERT_EQUAL(run_prog("run", prog, "--no-db -s sm.arbiter=rr", &o), 0);
    CU_ASSERT_EQUAL(o.mem[0x300], 15);
    CU_ASSERT_EQUAL(run_prog("iss", prog, "", &o), 0);
    CU_ASSERT_EQUAL(o.mem[0x300], 240);
    free(o.out);
    o.out = NULL;
}

/* ---- the slot profile's sums ------------------------------------------------ */

/* MIMD runs: a core's slots whose execute + SM wait, SM wait or instructions
 * differ from its counters (busy_ps, sm_wait_ps, instructions). */
#define SLOT_CORE_MISMATCHES                                                               \
    "SELECT count(*) FROM (SELECT c.run_id AS run_id, c.component AS unit,"                \
    "  max(CASE c.name WHEN '" GEN_CTR_CORE_BUSY_PS "' THEN c.value END) AS busy,"         \
    "  max(CASE c.name WHEN '" GEN_CTR_CORE_SM_WAIT_PS "' THEN c.value END) AS wait,"      \
    "  max(CASE c.name WHEN '" GEN_CTR_CORE_INSTRUCTIONS "' THEN c.value END) AS n"        \
    "  FROM counters AS c WHERE c.component GLOB '" GEN_UNIT_CORE_GLOB "'"                 \
    "  GROUP BY c.run_id, c.component) AS k"                                               \
    " LEFT JOIN (SELECT run_id, '" GEN_UNIT_CORE "' || core AS unit,"                      \
    "  sum(execute_ps + sm_wait_ps) AS busy,"                                              \
    "  sum(sm_wait_ps) AS wait, sum(instructions) AS n FROM slot_profile"                  \
    "  WHERE core IS NOT NULL GROUP BY run_id, core) AS s USING (run_id, unit)"            \
    " JOIN run_summary AS r USING (run_id) WHERE r.core_model = 'mimd'"                   \
    " AND (coalesce(s.busy, 0) <> k.busy OR coalesce(s.wait, 0) <> k.wait"                 \
    "  OR coalesce(s.n, 0) <> k.n)"

/* SIMT runs: frames whose slots' warp and lane instructions, issued and
 * stall cycles differ from the sums of their warps, and warps whose issued
 * + stall cycles (every reason of the model's list; barrier NULL under the
 * stack) are not their resident cycles. */
#define STALL_SUM(name, literal) ", sum(stall_" #name "_cycles)"
#define STALL_PLUS(name, literal) " + stall_" #name "_cycles"
#define STALL_PLUS_OR0(name, literal) " + coalesce(stall_" #name "_cycles, 0)"
#define SLOT_WARP_SUMS                                                                     \
    "sum(instructions_w), sum(lane_instructions), sum(issued_cycles)" GEN_SIMT_STALLS(STALL_SUM)
#define SLOT_WARP_MISMATCHES                                                               \
    "SELECT count(*) FROM (SELECT run_id, frame, " SLOT_WARP_SUMS                          \
    "  FROM (SELECT *, warp_instructions AS instructions_w FROM simt_warps)"               \
    "  GROUP BY run_id, frame EXCEPT SELECT run_id, frame, " SLOT_WARP_SUMS                \
    "  FROM (SELECT *, instructions AS instructions_w FROM slot_profile WHERE core IS NULL)" \
    "  GROUP BY run_id, frame)"

#define WARP_RESIDENCY_MISMATCHES                                                          \
    "SELECT count(*) FROM simt_warps WHERE issued_cycles"                                 \
    GEN_SIMT_STALLS_BY(STALL_PLUS, STALL_PLUS_OR0) " <> resident_cycles"

/* Every example on one machine, in both timing modes: the slot profile
 * sums to the per-core counters and to the per-warp figures, every warp's
 * cycles add up, and the profile has rows for every run (a check that cannot
 * pass on no rows). `stack` says the machine is the SIMT unit under the
 * reconvergence stack, where lock.s deadlocks (S9): a stopped run, profiled
 * too (under barriers it completes, S14). One case per machine below, so
 * that processes sharing the cases (TESSERA_TEST_SHARD) share the runs. */
static void slot_profile_sums(const char *machine, bool stack)
{
    char db[512]; /* test_tmp_path's buffer is reused */
    snprintf(db, sizeof db, "%s", test_tmp_path("slots.db"));
    remove(db);
    unsigned runs = 0;
    for (unsigned i = 0; i < NEXAMPLES; i++) {
        if (i > 0 && !strcmp(examples[i].name, examples[i - 1].name))
            continue;
        for (unsigned stepped = 0; stepped < 2; stepped++) {
            char args[1024];
            snprintf(args, sizeof args, "run '%s' --quiet --db '%s' %s %s %s",
                     example_path(&examples[i]), db, examples[i].opts, machine,
                     stepped ? "-s core.timing=stepped" : "");
            char *out = NULL;
            int rc = test_run_tessera(args, &out);
            if (rc != 0 && !(stack && !strcmp(examples[i].name, "lock")))
                fprintf(stderr, "\ntessera %s -> %d\n%s\n", args, rc, out ? out : "");
            free(out);
            runs++;
        }
    }
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs"), (int64_t)runs);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE run_id NOT IN"
                                    " (SELECT run_id FROM slot_profile)"), 0);
    CU_ASSERT_EQUAL(test_db_int(db, SLOT_CORE_MISMATCHES), 0);
    CU_ASSERT_EQUAL(test_db_int(db, SLOT_WARP_MISMATCHES), 0);
    CU_ASSERT_EQUAL(test_db_int(db, WARP_RESIDENCY_MISMATCHES), 0);
    /* and the SIMT counters' totals, through simt_efficiency */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM simt_efficiency AS e JOIN"
                                    " (SELECT run_id, sum(cycles) AS c FROM slot_profile"
                                    " WHERE core IS NULL GROUP BY run_id) AS s USING (run_id)"
                                    " WHERE s.c <> e.resident_cycles"), 0);
    /* both timing modes: the same profile, row for row */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM (SELECT frame, core, slot, text,"
                                    " instructions, cycles, issued_cycles, stall_issue_cycles,"
                                    " stall_fetch_cycles, stall_collector_cycles,"
                                    " stall_memory_cycles, stall_execute_cycles,"
                                    " stall_barrier_cycles, execute_ps,"
                                    " sm_wait_ps, (run_id - 1) / 2 AS point FROM slot_profile"
                                    " WHERE run_id % 2 = 1 EXCEPT SELECT frame, core, slot, text,"
                                    " instructions, cycles, issued_cycles, stall_issue_cycles,"
                                    " stall_fetch_cycles, stall_collector_cycles,"
                                    " stall_memory_cycles, stall_execute_cycles,"
                                    " stall_barrier_cycles, execute_ps,"
                                    " sm_wait_ps, (run_id - 1) / 2 FROM slot_profile"
                                    " WHERE run_id % 2 = 0)"), 0);
}

static void test_slot_profile_sums_mimd(void) { slot_profile_sums("", false); }

static void test_slot_profile_sums_simt(void)
{
    slot_profile_sums("-s core.model=simt", true);
}

static void test_slot_profile_sums_scoreboard_gto(void)
{
    slot_profile_sums("-s core.model=simt -s simt.scoreboard=on -s simt.scheduler=gto", true);
}

/* the pipeline, S11-S13 */
static void test_slot_profile_sums_pipeline(void)
{
    slot_profile_sums("-s core.model=simt -s simt.ibuffer=2 -s simt.fetch_width=1"
                      " -s simt.collectors=2 -s simt.rf_banks=2 -s simt.sp_width=4"
                      " -s simt.lsu_width=2 -s simt.issue_width=2",
                      true);
}

/* barrier reconvergence, S14 */
static void test_slot_profile_sums_barrier(void)
{
    slot_profile_sums("-s core.model=simt -s simt.reconvergence=barrier -s simt.scoreboard=on"
                      " -s simt.issue_width=2",
                      false);
}

static void test_slot_profile_sums_barrier_pipeline(void)
{
    slot_profile_sums("-s core.model=simt -s simt.reconvergence=barrier -s simt.collectors=2"
                      " -s simt.rf_banks=2 -s simt.sp_width=4 -s simt.lsu_width=2",
                      false);
}

static const test_case_t result_cases[] = {
    TEST(test_slot_profile_sums_mimd),
    TEST(test_slot_profile_sums_simt),
    TEST(test_slot_profile_sums_scoreboard_gto),
    TEST(test_slot_profile_sums_pipeline),
    TEST(test_slot_profile_sums_barrier),
    TEST(test_slot_profile_sums_barrier_pipeline),
    TEST(test_vecadd),
    TEST(test_reduce),
    TEST(test_histogram),
    TEST(test_matmul4),
    TEST(test_transpose),
    TEST(test_prefix),
    TEST(test_prodcons),
    TEST(test_lock),
    TEST(test_existing_examples),
    TEST(test_simt_examples),
    TEST(test_documented_registers),
    TEST(test_lock_registers),
    TEST(test_asm_disasm_round_trip),
    TEST_END,
};

static const test_case_t point_cases[] = {
    TEST(test_transpose_bank_mapping),
    TEST(test_transpose_xor_is_conflict_free),
    TEST(test_vecadd_interleaved_has_no_waits),
    TEST(test_histogram_bins_conflict),
    TEST(test_reduce_needs_its_first_fence),
    TEST(test_prodcons_without_fence_reads_stale),
    TEST(test_lock_without_atomics_loses_increments),
    TEST_END,
};

static const test_suite_t suites[] = {
    {"examples", result_cases},
    {"example_points", point_cases},
    {NULL, NULL},
};

int main(void)
{
    return test_run_suites(suites);
}

/* test_policy.c — policies of one's own (api/tessera_policy.h): the plugins
 * of examples/policies that re-implement built-ins give the built-ins' rows
 * (every table, cmp of scripts/dump-rows.sh's dump) on the examples and on
 * random programs in both timing modes; the literature's policies follow
 * hand-computed timelines; every way a plugin can fail is refused before
 * the run or ends it with status error, with its message; the run records
 * the plugin (name, path, sha256) so that run keys tell versions apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/tessera.h"
#include "events/base/err.h"
#include "tests/harness.h"
#include "tests/randprog.h"
#include "tests/testutil.h"

#define C(n) ((sim_time_t)(n) * 1000) /* cycles → ps */
#define PLUGIN(name) TESSERA_BUILD_DIR "/examples/policies/" name ".so"
#define TPLUGIN(name) TESSERA_BUILD_DIR "/tests/policies/" name ".so"

/* --- rows identical to the built-ins -------------------------------------------- */

/* One built-in and the plugin that re-implements it, with the setting that
 * makes its choices matter (contention for arbiters: interleaved banks). */
typedef struct twin {
    const char *key, *builtin, *plugin, *other;
} twin_t;

static const twin_t twins[] = {
    {"sm.arbiter", "fixed", PLUGIN("fixed"), "sm.bank_map=interleaved"},
    {"sm.arbiter", "rr", PLUGIN("rr"), "sm.bank_map=interleaved"},
    {"sm.arbiter", "fifo", PLUGIN("fifo"), "sm.bank_map=interleaved"},
    {"sm.bank_map", "interleaved", PLUGIN("interleaved"), "sm.arbiter=rr"},
    {"sm.bank_map", "xor", PLUGIN("xor"), "sm.banks=8"},
    {"simt.scheduler", "oldest", PLUGIN("oldest"), "core.model=simt"},
    {"simt.scheduler", "gto", PLUGIN("gto"), "core.model=simt"},
};
#define NTWINS (sizeof twins / sizeof twins[0])

/* Runs PROG (with MEM, or NULL) into DB under the settings `sets`. */
static void run_into(const char *db, const char *prog, const char *mem, char **sets, int n)
{
    tessera_t *t = tessera_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int rc = tessera_config_cli(t, NULL, sets, n);
    if (rc == TESS_OK)
        rc = tessera_load(t, prog, mem);
    if (rc == TESS_OK)
        rc = tessera_record(t, db);
    if (rc == TESS_OK)
        rc = tessera_run(t, 0);
    if (rc != TESS_OK && rc != TESS_EWATCHDOG && rc != TESS_EDEADLOCK)
        fprintf(stderr, "\n  %s: %s %s\n", prog, tessera_errmsg(t), tessera_outcome_msg(t));
    CU_ASSERT_TRUE(rc == TESS_OK || rc == TESS_EWATCHDOG || rc == TESS_EDEADLOCK);
    tessera_free(t);
}

/* PROG under each twin, built-in into a.db and plugin into b.db, with the
 * extra settings `extra` (NULL-terminated; the scheduler twins set
 * core.model = simt after them). */
static void run_twins(const char *prog, const char *mem, const char *const *extra)
{
    for (size_t i = 0; i < NTWINS; i++) {
        char builtin[600], plugin[600], *sets[12];
        int n = 0;
        snprintf(builtin, sizeof builtin, "%s=%s", twins[i].key, twins[i].builtin);
        snprintf(plugin, sizeof plugin, "%s=plugin:%s", twins[i].key, twins[i].plugin);
        sets[n++] = (char *)"record.level=events";
        sets[n++] = (char *)twins[i].other;
        for (const char *const *e = extra; *e; e++)
            sets[n++] = (char *)*e;
        sets[n] = builtin;
        run_into(test_tmp_path("a.db"), prog, mem, sets, n + 1);
        sets[n] = plugin;
        run_into(test_tmp_path("b.db"), prog, mem, sets, n + 1);
    }
}

/* Dumps both databases (scripts/dump-rows.sh) and compares them after
 * taking out of b.db's dump what names the plugin instead of the built-in:
 * KEY = plugin:.../NAME.so is KEY = NAME, and the KEY.plugin, KEY.sha256
 * rows and the config's comment on the plugin go; and the sim.seed params
 * rows of both (a run with a plugin records it — a plugin may draw from its
 * stream — a built-in with nothing random does not: issue 22). */
static void assert_rows_identical(void)
{
    char cmd[8192], *out = NULL;
    snprintf(cmd, sizeof cmd,
             "cd '%s' && sh '%s' a.db | sed -e '/^[0-9]*|sim\\.seed|/d' > a.txt && sh '%s' b.db"
             " | sed -e 's#plugin:[^|]*/examples/policies/\\([a-z_]*\\)\\.so#\\1#g'"
             " -e '/^[0-9]*|[a-z]*\\.[a-z_]*\\.\\(plugin\\|sha256\\)|/d'"
             " -e '/^[0-9]*|sim\\.seed|/d'"
             " -e '/^; [a-z_]*: plugin [a-z_]*, sha256 /d' > b.txt"
             " && cmp a.txt b.txt && wc -l < a.txt",
             test_tmp_dir(), test_src_path("scripts/dump-rows.sh"),
             test_src_path("scripts/dump-rows.sh"));
    int rc = test_run_shell(cmd, &out);
    if (rc != 0)
        fprintf(stderr, "\n  rows differ: %s\n", out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_TRUE(out && atol(out) > 1000); /* there were rows to compare */
    free(out);
    /* the plugins had choices to make: requests waited for their bank */
    CU_ASSERT_TRUE(test_db_int(test_tmp_path("a.db"),
                               "SELECT count(*) FROM sm_accesses WHERE grant_ps > arrive_ps") > 0);
    remove(test_tmp_path("a.db"));
    remove(test_tmp_path("b.db"));
}

static void test_examples_rows_identical_to_builtins(void)
{
    static const char *const decoupled[] = {NULL}, *const stepped[] = {"core.timing=stepped", NULL};
    static const char *const simt[] = {"core.model=simt", "simt.issue_width=2", NULL};
    static const char *const atomics[] = {"sm.atomics=on", "core.timing=stepped", NULL};
    static const char *const progs[] = {"example1", "example2", "first", "histogram", "lock",
                                        "matadd", "matmul", "matmul4", "prefix", "prodcons",
                                        "reduce", "simt_diverge", "simt_latency",
                                        "simt_memory", "stages", NULL};
    for (const char *const *p = progs; *p; p++) {
        char rel[64], path[1024]; /* a copy: the test_*_path buffers rotate */
        snprintf(rel, sizeof rel, "examples/%s.s", *p);
        snprintf(path, sizeof path, "%s", test_src_path(rel));
        run_twins(path, NULL, decoupled);
        run_twins(path, NULL, stepped);
        run_twins(path, NULL, simt);
        run_twins(path, NULL, atomics);
    }
    assert_rows_identical();
}

/* Writes random program `seed` as a .tm and its SM as a .mem. */
static void write_random(uint64_t seed, const char *tm, const char *mem)
{
    static program_t p;
    rp_opts_t o = {.race_free = seed % 2 == 0, .mem_weight = 40};
    rp_generate(&p, seed, &o);
    CU_ASSERT_EQUAL_FATAL(test_write_file(tm, p.image, sizeof p.image), 0);
    CU_ASSERT_EQUAL_FATAL(test_write_file(mem, p.sm, sizeof p.sm), 0);
}

static void test_random_programs_rows_identical_to_builtins(void)
{
    static const char *const decoupled[] = {"core.budget=5000", NULL};
    static const char *const stepped[] = {"core.budget=5000", "core.timing=stepped", NULL};
    char tm[600], mem[600];
    snprintf(tm, sizeof tm, "%s", test_tmp_path("r.tm"));
    snprintf(mem, sizeof mem, "%s", test_tmp_path("r.mem"));
    for (uint64_t seed = 1; seed <= 100; seed++) {
        write_random(seed, tm, mem);
        run_twins(tm, mem, decoupled);
        run_twins(tm, mem, stepped);
        if (seed % 25 == 0)
            assert_rows_identical(); /* smaller dumps */
    }
}

/* --- the literature's policies, against hand-computed timelines --------------------- */

static gpu_desc_t desc_with(const char *const *sets)
{
    cfg_t cfg;
    diag_t d = {0};
    cfg_default(&cfg);
    for (; *sets; sets++) {
        int rc = cfg_set(&cfg, *sets, &d);
        if (rc != TESS_OK)
            fprintf(stderr, "\n  %s\n", d.msg);
        CU_ASSERT_EQUAL_FATAL(rc, TESS_OK);
    }
    return cfg.gpu;
}

/* tests/test_timing.c's contention case (its reasoning gives the arrivals):
 * sm.bank = 4 cycles, bank 0 grants at 13 + 4k; core c's first ld arrives
 * at 19 - 2c (c3@13, c2@15, c1@17, c0@19), its second at its first grant + 6.
 * lrg (least recently granted; never granted first, then the lowest id):
 *   13 c3 (2nd 19) · 17 {c2, c1} both never → c1 (2nd 23)
 *   · 21 {c2, c0, c3'}: c2, c0 never → c0 (2nd 27) · 25 {c2, c3', c1'}: c2 never → c2
 *   (2nd 31) · 29 {c3' granted at 13, c1' at 17, c0' at 21} → c3' · 33 {c1', c0', c2'}
 *   → c1' · 37 {c0', c2'} → c0' · 41 c2'                  → 3 1 0 2 3 1 0 2
 * rr gives 3 1 2 3 0 1 2 0 here: at 21 it starts after c1 (c2), where lrg
 * takes c0, whose turn has waited longer. */
static void grant_order(const char *const *sets, char order[9])
{
    gpu_desc_t d = desc_with(sets);
    h_run_t *r = h_run_src(H_CONTENTION_SRC, &d);
    h_grant_order(r, order);
    h_free(r);
}

static void test_lrg_follows_its_hand_computed_grants(void)
{
    static const char *const timings[] = {"core.timing=decoupled", "core.timing=stepped"};
    for (int i = 0; i < 2; i++) {
        const char *lrg[] = {"sm.bank=4", timings[i], "sm.arbiter=plugin:" PLUGIN("lrg"), NULL};
        const char *rr[] = {"sm.bank=4", timings[i], "sm.arbiter=rr", NULL};
        char got[9], got_rr[9];
        grant_order(lrg, got);
        grant_order(rr, got_rr);
        CU_ASSERT_STRING_EQUAL(got, "31023102");
        CU_ASSERT_STRING_EQUAL(got_rr, "31230120");
    }
}

/* Three warps of 11 instructions each (set_const, set_const, 4 x (sub, bnz),
 * ready; ALU latency 1: alone, a warp issues every cycle), on lanes 0-3
 * (A, frame 1), 4-7 (B, frame 3) and 8-11 (C, frame 5), resident from 6, 10
 * and 14 (each IF's code transfer takes the bus 4 cycles, as in SIMT-SPEC's
 * E3). No memory: the active set changes only when a warp leaves.
 * two_level with an active set of 2 (round-robin after the active warp that
 * issued last; new warps queue oldest first):
 *   6-9 A alone (4) · 10 first choice: queue A, B → active {A, B}; A issued
 *   last → B · 11 A · 12 B · 13 A · 14 C queues (active full) · B at 14, 16,
 *   18, 20, 22 and A at 15, 17, 19, 21, 23 — A's 11th (ready) at 23 · 24 A
 *   gone: C joins the active set {B, C}; the last issue (A) is not active:
 *   from its first, B · 25 C · 26 B · 27 C · 28 B · 29 C · 30 B (its 11th) ·
 *   31-38 C alone (its 4th to 11th).
 * Each frame completes 2 cycles after its ready issues (ready 1, T5 1): A
 * at 25, B at 32, C at 40. rr rotates over all three from 14 (C gets the
 * port at 15, not 25), so the three complete otherwise. */
static const char *three_src =
    ".group cores=0x000f fence=no\n set_const r8, 4\n set_const r9, 1\n"
    "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n"
    ".group cores=0x00f0 fence=no\n set_const r8, 4\n set_const r9, 1\n"
    "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n"
    ".group cores=0x0f00 fence=no\n set_const r8, 4\n set_const r9, 1\n"
    "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n";

/* The cycles frame f issued at, as "c,c,..." */
static void issues_of(const h_run_t *r, unsigned f, char *out, size_t n)
{
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < r->n_issues && at < n; i++)
        if (r->issues[i].frame == f)
            at += (size_t)snprintf(out + at, n - at, "%s%u", at ? "," : "",
                                   (unsigned)(r->issues[i].time_ps / 1000));
}

static void test_two_level_follows_its_hand_computed_timeline(void)
{
    static const char *const timings[] = {"core.timing=decoupled", "core.timing=stepped"};
    for (int i = 0; i < 2; i++) {
        const char *two[] = {"core.model=simt", timings[i],
                             "simt.scheduler=plugin:" PLUGIN("two_level"), NULL};
        gpu_desc_t d = desc_with(two);
        h_run_t *r = h_run_src(three_src, &d);
        CU_ASSERT_EQUAL(r->outcome, GPU_DONE);
        CU_ASSERT_EQUAL(r->frames[1].start_ps, C(6));
        CU_ASSERT_EQUAL(r->frames[3].start_ps, C(10));
        CU_ASSERT_EQUAL(r->frames[5].start_ps, C(14));
        char a[128], b[128], c[128];
        issues_of(r, 1, a, sizeof a);
        issues_of(r, 3, b, sizeof b);
        issues_of(r, 5, c, sizeof c);
        CU_ASSERT_STRING_EQUAL(a, "6,7,8,9,11,13,15,17,19,21,23");
        CU_ASSERT_STRING_EQUAL(b, "10,12,14,16,18,20,22,24,26,28,30");
        CU_ASSERT_STRING_EQUAL(c, "25,27,29,31,32,33,34,35,36,37,38");
        CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(25));
        CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(32));
        CU_ASSERT_EQUAL(r->frames[5].complete_ps, C(40));
        h_free(r);
        const char *rr[] = {"core.model=simt", timings[i], "simt.scheduler=rr", NULL};
        d = desc_with(rr);
        r = h_run_src(three_src, &d);
        issues_of(r, 5, c, sizeof c);
        CU_ASSERT_STRING_NOT_EQUAL(c, "25,27,29,31,32,33,34,35,36,37,38");
        h_free(r);
    }
}

/* --- errors: refused before the run ---------------------------------------------- */

/* `tessera run` of matadd with ARGS: the exit code, the output in *out. */
static int run_cli(const char *args, char **out)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "run '%s' --no-db %s", test_src_path("examples/matadd.s"), args);
    return test_run_tessera(cmd, out);
}

static void expect_refused(const char *args, int code, const char *msg)
{
    char *out = NULL;
    int rc = run_cli(args, &out);
    if (rc != code || !out || !strstr(out, msg))
        fprintf(stderr, "\n  %s: exit %d, '%s'; expected %d and '%s'\n", args, rc,
                out ? out : "", code, msg);
    CU_ASSERT_EQUAL(rc, code);
    CU_ASSERT(out && strstr(out, msg));
    CU_ASSERT_PTR_NULL(out ? strstr(out, "instructions") : NULL); /* nothing ran */
    free(out);
}

static void test_missing_file_is_refused(void)
{
    expect_refused("-s sm.arbiter=plugin:/nonexistent/arb.so", 1,
                   "sm.arbiter: plugin /nonexistent/arb.so: No such file or directory");
    expect_refused("-s sm.bank_map=plugin:", 1, "sm.bank_map: 'plugin:' names no file");
}

static void test_not_a_shared_object_is_refused(void)
{
    char args[1200];
    snprintf(args, sizeof args, "-s sm.arbiter=plugin:%s", test_src_path("examples/matadd.s"));
    expect_refused(args, 1, "cannot load it:");
}

static void test_missing_symbol_is_refused(void)
{
    expect_refused("-s sm.arbiter=plugin:" TPLUGIN("no_symbol"), 1,
                   "no_symbol.so: no symbol 'tessera_policy'");
}

static void test_wrong_abi_is_refused(void)
{
    expect_refused("-s sm.arbiter=plugin:" TPLUGIN("bad_abi"), 1,
                   "bad_abi.so: built for policy ABI 2, this Tessera has ABI 1");
}

static void test_wrong_kind_is_refused(void)
{
    expect_refused("-s sm.bank_map=plugin:" PLUGIN("rr"), 1,
                   "rr.so is an arbiter (sm.arbiter), not a bank mapping (sm.bank_map)");
}

static void test_unknown_parameter_and_failed_create_are_refused(void)
{
    expect_refused("-s sm.arbiter=plugin:" PLUGIN("rr") " -s plugin.rr.weight=3", 2,
                   "plugin.rr.weight: plugin rr (sm.arbiter) reads no such parameter (it "
                   "reads: none)");
    expect_refused("-s sm.arbiter=plugin:" TPLUGIN("create_fail") " -s plugin.create_fail.level=x",
                   2, "plugin create_fail (sm.arbiter): create failed: "
                      "plugin.create_fail.level must be ok");
    expect_refused("-s plugin.bad=1", 2, "plugin.bad: expected plugin.NAME.KEY");
    char *out = NULL; /* a parameter of a plugin not selected is recorded, not refused */
    CU_ASSERT_EQUAL(run_cli("-s sm.arbiter=plugin:" TPLUGIN("create_fail")
                            " -s plugin.create_fail.level=ok -s plugin.other.x=1", &out), 0);
    free(out);
}

/* The same file rewritten while the process holds it: refused, not run
 * under the old code (a process runs one version of a plugin). */
static void test_changed_file_in_one_process_is_refused(void)
{
    char path[600], tmp[600], cmd[8192];
    snprintf(path, sizeof path, "%s", test_tmp_path("mine.so"));
    snprintf(tmp, sizeof tmp, "%s", test_tmp_path("mine.tmp"));
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", PLUGIN("rr"), path);
    CU_ASSERT_EQUAL_FATAL(test_run_shell(cmd, NULL), 0);
    cfg_t cfg;
    diag_t d = {0};
    char set[700];
    snprintf(set, sizeof set, "sm.arbiter=plugin:%s", path);
    cfg_default(&cfg);
    CU_ASSERT_EQUAL(cfg_set(&cfg, set, &d), TESS_OK);
    CU_ASSERT_EQUAL(cfg_set(&cfg, set, &d), TESS_OK); /* loaded once: the same entry */
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && mv '%s' '%s'", PLUGIN("fifo"), tmp, tmp, path);
    CU_ASSERT_EQUAL_FATAL(test_run_shell(cmd, NULL), 0);
    CU_ASSERT_EQUAL(cfg_set(&cfg, set, &d), TESS_EUSAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "changed on disk since this process loaded it"));
}

/* --- errors: a wrong answer during the run ------------------------------------------- */

/* wrong_answer answers like fixed twice (the grants at 13 and 17 of the
 * contention case above), then with requester 99 at 21, when c2, c0 and c3'
 * wait: the run ends with status error at cycle 21, the grant goes to the
 * lowest waiting (c0) and what was recorded stays. */
static void test_wrong_answer_ends_the_run_with_status_error(void)
{
    const char *db = test_tmp_path("wrong.db");
    tessera_t *t = tessera_new();
    CU_ASSERT_EQUAL(tessera_set(t, "sm.bank=4"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_set(t, "sm.arbiter=plugin:" TPLUGIN("wrong_answer")), TESS_OK);
    CU_ASSERT_EQUAL(tessera_set(t, "plugin.wrong_answer.after=2"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_load_source(t, H_CONTENTION_SRC, "contention.s"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_record(t, db), TESS_OK);
    CU_ASSERT_EQUAL(tessera_run(t, 0), TESS_EINPUT);
    CU_ASSERT_STRING_EQUAL(tessera_status(t), "error");
    CU_ASSERT_STRING_EQUAL(tessera_outcome_msg(t),
                           "plugin wrong_answer (sm.arbiter): arbitrate at cycle 21: bank 0 "
                           "granted requester 99, which is not among the 3 waiting (the lowest "
                           "of them stands in)");
    tessera_free(t);
    CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA integrity_check"), 1);
    char *status = test_db_text(db, "SELECT status || ' ' || stop_ps FROM runs");
    CU_ASSERT_STRING_EQUAL(status, "error 21000");
    free(status);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM sm_accesses"), 3); /* 13, 17, 21 */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT core FROM sm_accesses WHERE grant_ps = 21000"), 0);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT value FROM params WHERE "
                                    "key = 'plugin.wrong_answer.after'"), 2);
}

/* A scheduler's order that is not a permutation: the first choice of the
 * three warps above is at cycle 10 (A and B eligible). */
static void test_bad_order_ends_the_run_with_status_error(void)
{
    tessera_t *t = tessera_new();
    CU_ASSERT_EQUAL(tessera_set(t, "core.model=simt"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_set(t, "simt.scheduler=plugin:" TPLUGIN("bad_order")), TESS_OK);
    CU_ASSERT_EQUAL(tessera_load_source(t, three_src, "three.s"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_record(t, test_tmp_path("order.db")), TESS_OK);
    CU_ASSERT_EQUAL(tessera_run(t, 0), TESS_EINPUT);
    CU_ASSERT_STRING_EQUAL(tessera_status(t), "error");
    CU_ASSERT_STRING_EQUAL(tessera_outcome_msg(t),
                           "plugin bad_order (simt.scheduler): schedule at cycle 10: the order of "
                           "the 2 eligible warps is not a permutation of 0..1 (the oldest stand "
                           "in)");
    tessera_free(t);
    CU_ASSERT_EQUAL(test_db_int(test_tmp_path("order.db"), "PRAGMA integrity_check"), 1);
    CU_ASSERT_EQUAL(test_db_int(test_tmp_path("order.db"),
                                "SELECT count(*) FROM runs WHERE status = 'error'"), 1);
}

/* A bank out of range ends the run at cycle 0, before its first event. */
static void test_bank_out_of_range_ends_the_run_at_cycle_0(void)
{
    const char *db = test_tmp_path("bank.db");
    char *out = NULL, args[1200];
    snprintf(args, sizeof args, "run '%s' --db '%s' -s sm.bank_map=plugin:%s",
             test_src_path("examples/matadd.s"), db, TPLUGIN("bad_bank"));
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 2);
    CU_ASSERT(out && strstr(out, "plugin bad_bank (sm.bank_map): bank_of at cycle "
                                              "0: address 0x123 mapped to bank 16, not in 0..15"));
    free(out);
    char *status = test_db_text(db, "SELECT status || ' ' || stop_ps || ' ' || events FROM runs");
    CU_ASSERT_STRING_EQUAL(status, "error 0 0");
    free(status);
}

/* --- what the run records --------------------------------------------------------------- */

static void test_run_records_name_path_and_sha256(void)
{
    const char *db = test_tmp_path("params.db");
    char *out = NULL, args[1600];
    snprintf(args, sizeof args, "run '%s' --db '%s' -s sm.arbiter=plugin:%s -s "
             "plugin.lrg.unused=1 --quiet", test_src_path("examples/matadd.s"), db, PLUGIN("fifo"));
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 0);
    free(out);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "sha256sum '%s' | cut -c1-64 | tr -d '\\n'", PLUGIN("fifo"));
    char *sha = NULL;
    CU_ASSERT_EQUAL_FATAL(test_run_shell(cmd, &sha), 0);
    char *v = test_db_text(db, "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * "
                               "FROM params WHERE key LIKE 'sm.arbiter%' OR key LIKE 'plugin.%' "
                               "ORDER BY key)");
    char expect[1600], real[1024];
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(PLUGIN("fifo"), real));
    snprintf(expect, sizeof expect, "plugin.lrg.unused=1 sm.arbiter=plugin:%s "
             "sm.arbiter.plugin=fifo sm.arbiter.sha256=%s", real, sha);
    CU_ASSERT_STRING_EQUAL(v, expect);
    free(v);
    char *config = test_db_text(db, "SELECT config FROM runs");
    snprintf(expect, sizeof expect, "; arbiter: plugin fifo, sha256 %s\n", sha);
    CU_ASSERT(config && strstr(config, expect)); /* in the run key */
    free(config);
    free(sha);
}

/* The configuration text gives the selection back, parameters included. */
static void test_config_round_trip_with_plugins(void)
{
    cfg_t a, b;
    diag_t d = {0};
    cfg_default(&a);
    CU_ASSERT_EQUAL(cfg_set(&a, "sm.arbiter=plugin:" PLUGIN("lrg"), &d), TESS_OK);
    CU_ASSERT_EQUAL(cfg_set(&a, "sm.bank_map=plugin:" PLUGIN("xor"), &d), TESS_OK);
    CU_ASSERT_EQUAL(cfg_set(&a, "plugin.lrg.b=2", &d), TESS_OK);
    CU_ASSERT_EQUAL(cfg_set(&a, "plugin.lrg.a=1", &d), TESS_OK);
    char *text = cfg_format(&a);
    cfg_default(&b);
    CU_ASSERT_EQUAL(cfg_load_string(&b, text, "round.ini", &d), TESS_OK);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n[plugin]\nlrg.a = 1\nlrg.b = 2\n"));
    free(text);
    CU_ASSERT_EQUAL(cfg_set(&b, "sm.arbiter=fifo", &d), TESS_OK); /* back to a built-in */
    char buf[700];
    CU_ASSERT_EQUAL(cfg_get(&b, "sm.arbiter", buf, sizeof buf), TESS_OK);
    CU_ASSERT_STRING_EQUAL(buf, "fifo");
    CU_ASSERT_PTR_NULL(b.gpu.policies.impl[GPU_POINT_ARBITER]);
}

/* A sweep's resume tells two versions of a plugin at one path apart (the
 * sha256 is in the configuration text, so in the run key). */
static void test_resume_reruns_a_changed_plugin(void)
{
    const char *db = test_tmp_path("resume.db");
    char path[600], cmd[8192], *out = NULL;
    snprintf(path, sizeof path, "%s", test_tmp_path("version.so"));
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", PLUGIN("rr"), path);
    CU_ASSERT_EQUAL_FATAL(test_run_shell(cmd, NULL), 0);
    char sweep[1600];
    snprintf(sweep, sizeof sweep, "sweep '%s' -s sm.arbiter=fixed,plugin:%s --db '%s' -j 1",
             test_src_path("examples/matadd.s"), path, db);
    CU_ASSERT_EQUAL(test_run_tessera(sweep, &out), 0);
    free(out);
    CU_ASSERT_EQUAL(test_run_tessera(sweep, &out), 0); /* both done: nothing runs */
    free(out);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs"), 2);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s.new' && mv '%s.new' '%s'", PLUGIN("fifo"), path, path,
             path);
    CU_ASSERT_EQUAL_FATAL(test_run_shell(cmd, NULL), 0);
    CU_ASSERT_EQUAL(test_run_tessera(sweep, &out), 0); /* the new version is a new point */
    free(out);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs"), 3);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(DISTINCT value) FROM params "
                                    "WHERE key = 'sm.arbiter.sha256'"), 2);
}

/* The Slurm path (docs/SWEEPS.md): a sweep over gto and a scheduler plugin
 * named by a relative path, emitted in one directory and run as array tasks
 * from another (scripts/slurm-sweep.sbatch with the index Slurm would set),
 * then merged: every point records its scheduler, the plugin's absolute
 * path, name and hash. (scripts/realtools.sh slurm runs the same sweep on a
 * real single-node Slurm.) */
static void test_slurm_sweep_over_a_scheduler_plugin(void)
{
    if (test_run_shell("command -v bash", NULL) != 0) {
        test_skip("bash is not installed");
        return;
    }
    char dir[600], cmd[8192], *out = NULL;
    snprintf(dir, sizeof dir, "%s/study", test_tmp_dir());
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' && cd '%s' && cp '%s' . && '%s' sweep '%s' -s core.model=simt"
             " -s simt.scheduler=gto,plugin:two_level.so --db '%s/pol.db' --emit > pol.cmds"
             " && cd / && for i in 1 2; do SLURM_ARRAY_TASK_ID=$i bash '%s' '%s/pol.cmds'"
             " || exit 1; done && cd '%s' && '%s' merge pol.db pol-shard-*.db",
             dir, dir, PLUGIN("two_level"), TESSERA_BINARY, test_src_path("examples/stages.s"),
             dir, test_src_path("scripts/slurm-sweep.sbatch"), dir, dir, TESSERA_BINARY);
    CU_ASSERT_EQUAL(test_run_shell(cmd, &out), 0);
    free(out);
    char db[700], expect[2048], *sha = NULL;
    snprintf(db, sizeof db, "%s/pol.db", dir);
    snprintf(cmd, sizeof cmd, "sha256sum '%s/two_level.so' | cut -c1-64 | tr -d '\\n'", dir);
    CU_ASSERT_EQUAL_FATAL(test_run_shell(cmd, &sha), 0);
    char *rec = test_db_text(db, "SELECT group_concat(value, ' ') FROM (SELECT value FROM params"
                                 " WHERE key LIKE 'simt.scheduler%' ORDER BY run_id, key)");
    snprintf(expect, sizeof expect, "gto plugin:%s/two_level.so two_level %s", dir, sha);
    CU_ASSERT_STRING_EQUAL(rec ? rec : "", expect);
    free(rec);
    free(sha);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), 2);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(DISTINCT end_ps) FROM runs"), 2);
}

int main(void)
{
    static const test_case_t rows[] = {
        TEST(test_examples_rows_identical_to_builtins),
        TEST(test_random_programs_rows_identical_to_builtins),
        TEST_END,
    };
    static const test_case_t literature[] = {
        TEST(test_lrg_follows_its_hand_computed_grants),
        TEST(test_two_level_follows_its_hand_computed_timeline),
        TEST_END,
    };
    static const test_case_t errors[] = {
        TEST(test_missing_file_is_refused),
        TEST(test_not_a_shared_object_is_refused),
        TEST(test_missing_symbol_is_refused),
        TEST(test_wrong_abi_is_refused),
        TEST(test_wrong_kind_is_refused),
        TEST(test_unknown_parameter_and_failed_create_are_refused),
        TEST(test_changed_file_in_one_process_is_refused),
        TEST(test_wrong_answer_ends_the_run_with_status_error),
        TEST(test_bank_out_of_range_ends_the_run_at_cycle_0),
        TEST(test_bad_order_ends_the_run_with_status_error),
        TEST_END,
    };
    static const test_case_t records[] = {
        TEST(test_run_records_name_path_and_sha256),
        TEST(test_config_round_trip_with_plugins),
        TEST(test_resume_reruns_a_changed_plugin),
        TEST(test_slurm_sweep_over_a_scheduler_plugin),
        TEST_END,
    };
    static const test_suite_t suites[] = {
        {"policy_rows", rows},
        {"policy_literature", literature},
        {"policy_errors", errors},
        {"policy_records", records},
        {NULL, NULL},
    };
    return test_run_suites(suites);
}

/* test_inert.c — keys that do nothing (issue 22): a key with no effect on a
 * run's machine is not recorded (absent from params, NULL in run_summary),
 * setting it warns once, a sweep over it refuses unless --allow-inert, `iss`
 * takes only its own keys, and `tessera plot` says which runs a figure
 * averages. The expected key sets are written out by hand from the spec of
 * each key (SIMT-SPEC S4-S13: the simt.* keys; D5: ts.window; sim.seed's
 * streams), and the key table's declarations are checked against them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"
#include "tests/testutil.h"

/* The simt.* keys, all of which only core.model = simt reads. */
static const char *const simt_keys[] = {
    "simt.scheduler", "simt.issue_width", "simt.scoreboard", "simt.broadcast", "simt.ibuffer",
    "simt.fetch_width", "simt.fetch_latency", "simt.collectors", "simt.rf_banks",
    "simt.rf_arbiter", "simt.sp_width", "simt.sfu_width", "simt.lsu_width", "simt.reconvergence"};
#define N_SIMT (sizeof simt_keys / sizeof simt_keys[0])

static int64_t has_param(const char *db, int64_t run, const char *key)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM params WHERE run_id = %lld AND key = '%s'",
             (long long)run, key);
    return test_db_int(db, sql);
}

static int64_t n_params(const char *db, int64_t run)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM params WHERE run_id = %lld", (long long)run);
    return test_db_int(db, sql);
}

/* Runs first.s with `sets` into db; the run's output in *out (may be NULL). */
static int run_into(const char *db, const char *sets, char **out)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "run %s --db %s --quiet %s", test_src_path("examples/first.s"), db,
             sets);
    return test_run_tessera(cmd, out);
}

static unsigned count_of(const char *s, const char *needle)
{
    unsigned n = 0;
    for (const char *p = s; p && (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* --- what a run records ------------------------------------------------------------ */

static void test_mimd_run_records_only_its_keys(void)
{
    char db[512];
    snprintf(db, sizeof db, "%s", test_tmp_path("mimd.db"));
    CU_ASSERT_EQUAL_FATAL(run_into(db, "", NULL), 0);
    /* every key but the 12 simt.* keys, ts.window (inorder) and sim.seed (nothing random) */
    CU_ASSERT_EQUAL(n_params(db, 1), (int64_t)cfg_key_count() - (int64_t)N_SIMT - 2);
    for (size_t i = 0; i < N_SIMT; i++)
        CU_ASSERT_EQUAL(has_param(db, 1, simt_keys[i]), 0);
    CU_ASSERT_EQUAL(has_param(db, 1, "ts.window"), 0);
    CU_ASSERT_EQUAL(has_param(db, 1, "sim.seed"), 0);
    CU_ASSERT_EQUAL(has_param(db, 1, "core.model"), 1);
    CU_ASSERT_EQUAL(has_param(db, 1, "sm.arbiter"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM run_summary WHERE simt_scheduler IS NULL"
                                    " AND ts_window IS NULL AND seed IS NULL"), 1);
    /* runs.config keeps every key: it is the run's whole configuration and its run key */
    char *config = test_db_text(db, "SELECT config FROM runs WHERE run_id = 1");
    CU_ASSERT(config && strstr(config, "[simt]\nscheduler = rr\n"));
    CU_ASSERT(config && strstr(config, "window = 8\n"));
    free(config);
}

static void test_simt_and_conditions_record_what_applies(void)
{
    char db[512];
    snprintf(db, sizeof db, "%s", test_tmp_path("simt.db"));
    remove(db);
    /* run 1: SIMT, an ideal front end, no collectors: fetch_* and rf_banks do nothing */
    CU_ASSERT_EQUAL_FATAL(run_into(db, "-s core.model=simt", NULL), 0);
    /* run 2: an I-buffer and collectors, lookahead, a random arbiter */
    CU_ASSERT_EQUAL_FATAL(run_into(db, "-s core.model=simt -s simt.ibuffer=2 -s simt.collectors=2"
                                       " -s ts.policy=lookahead -s sm.arbiter=random", NULL), 0);
    /* run 3: MIMD with a drawn latency: sim.seed applies */
    CU_ASSERT_EQUAL_FATAL(run_into(db, "-s sm.req=uniform:1..3", NULL), 0);
    for (size_t i = 0; i < N_SIMT; i++) {
        bool front = !strcmp(simt_keys[i], "simt.fetch_width") ||
                     !strcmp(simt_keys[i], "simt.fetch_latency") ||
                     !strcmp(simt_keys[i], "simt.rf_banks") ||
                     !strcmp(simt_keys[i], "simt.rf_arbiter");
        CU_ASSERT_EQUAL(has_param(db, 1, simt_keys[i]), front ? 0 : 1);
        CU_ASSERT_EQUAL(has_param(db, 2, simt_keys[i]), 1);
        CU_ASSERT_EQUAL(has_param(db, 3, simt_keys[i]), 0);
    }
    CU_ASSERT_EQUAL(n_params(db, 1), (int64_t)cfg_key_count() - 6); /* 4 front keys, window, seed */
    CU_ASSERT_EQUAL(n_params(db, 2), (int64_t)cfg_key_count());
    CU_ASSERT_EQUAL(n_params(db, 3), (int64_t)cfg_key_count() - (int64_t)N_SIMT - 1);
    CU_ASSERT_EQUAL(has_param(db, 2, "ts.window"), 1);
    CU_ASSERT_EQUAL(has_param(db, 2, "sim.seed"), 1);
    CU_ASSERT_EQUAL(has_param(db, 3, "sim.seed"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM run_summary WHERE seed = 1"), 2);
}

/* The key table declares what the runs above show: for each key, its
 * absence from params is exactly cfg_key_inert under these configurations. */
static void test_table_declares_what_applies(void)
{
    static const char *const configs[][5] = {
        {NULL}, {"core.model=simt", NULL}, {"core.model=simt", "simt.ibuffer=1", NULL},
        {"ts.policy=lookahead", "sm.arbiter=random", NULL}, {"core.mul=choice:1,2", NULL}};
    static const char *const inert[][16] = {
        {"ts.window", "sim.seed", "simt.*", NULL},
        {"ts.window", "sim.seed", "simt.fetch_width", "simt.fetch_latency", "simt.rf_banks",
         "simt.rf_arbiter", NULL},
        {"ts.window", "sim.seed", "simt.rf_banks", "simt.rf_arbiter", NULL},
        {"simt.*", NULL},
        {"ts.window", "simt.*", NULL}};
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        cfg_t cfg;
        cfg_default(&cfg);
        diag_t d = {0};
        int n = 0;
        while (configs[c][n])
            n++;
        CU_ASSERT_EQUAL_FATAL(cfg_apply_cli(&cfg, NULL, (char *const *)configs[c], n, &d), 0);
        for (size_t i = 0; i < cfg_key_count(); i++) {
            const char *key = cfg_key_info(i)->key;
            bool want = false;
            for (size_t j = 0; inert[c][j]; j++)
                want |= !strcmp(inert[c][j], key) ||
                        (!strcmp(inert[c][j], "simt.*") && !strncmp(key, "simt.", 5));
            const char *fix, *why = cfg_key_inert(&cfg, i, &fix);
            if ((why != NULL) != want)
                fprintf(stderr, "config %zu: %s: inert %d, expected %d\n", c, key, why != NULL,
                        want);
            CU_ASSERT_EQUAL(why != NULL, want);
            CU_ASSERT(!why || (fix && fix[0] == '-'));
        }
    }
    /* iss reads the bank keys only */
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const char *key = cfg_key_info(i)->key;
        CU_ASSERT_EQUAL(cfg_key_for_iss(i), !strcmp(key, "sm.banks") || !strcmp(key, "sm.bank_map"));
    }
}

/* --- warnings ---------------------------------------------------------------------- */

static void test_setting_an_inert_key_warns_once(void)
{
    char db[512];
    snprintf(db, sizeof db, "%s", test_tmp_path("warn.db"));
    char *out = NULL;
    CU_ASSERT_EQUAL(run_into(db, "-s simt.scheduler=gto -s simt.scheduler=oldest", &out), 0);
    CU_ASSERT_EQUAL(count_of(out, "warning:"), 1);
    CU_ASSERT(out && strstr(out, "warning: simt.scheduler = oldest has no effect on "
                                              "this run (core.model is mimd: the simt.* keys "
                                              "apply only to core.model = simt; -s core.model="
                                              "simt gives it one): it is not recorded in params"));
    free(out);
    /* named explicitly at its default: warned all the same */
    CU_ASSERT_EQUAL(run_into(db, "-s ts.window=8", &out), 0);
    CU_ASSERT_EQUAL(count_of(out, "warning:"), 1);
    CU_ASSERT(out && strstr(out, "ts.window = 8 has no effect on this run (ts.policy "
                                              "is inorder"));
    free(out);
    /* where they apply: nothing said */
    CU_ASSERT_EQUAL(run_into(db, "-s core.model=simt -s simt.scheduler=gto -s sim.seed=4 "
                                 "-s sm.arbiter=random", &out), 0);
    CU_ASSERT(!(out && strstr(out, "warning")));
    free(out);
    CU_ASSERT_EQUAL(run_into(db, "-s sim.seed=4", &out), 0);
    CU_ASSERT(out && strstr(out, "sim.seed = 4 has no effect on this run (nothing in "
                                              "the run is random"));
    free(out);
    /* a file: a value other than the default warns, the default does not (baseline.ini) */
    char ini[512];
    snprintf(ini, sizeof ini, "%s", test_tmp_path("gto.ini"));
    CU_ASSERT_EQUAL_FATAL(test_write_file(ini, "[simt]\nscheduler = gto\nbroadcast = off\n", 38),
                          0);
    char sets[640];
    snprintf(sets, sizeof sets, "--config %s", ini);
    CU_ASSERT_EQUAL(run_into(db, sets, &out), 0);
    CU_ASSERT_EQUAL(count_of(out, "warning:"), 1);
    CU_ASSERT(out && strstr(out, "simt.scheduler = gto has no effect"));
    free(out);
    snprintf(sets, sizeof sets, "--config %s", test_src_path("config/baseline.ini"));
    CU_ASSERT_EQUAL(run_into(db, sets, &out), 0);
    CU_ASSERT(!(out && strstr(out, "warning")));
    free(out);
}

/* --- sweeps ------------------------------------------------------------------------- */

static int sweep(const char *args, char **out)
{
    char cmd[1024];
    char db[512];
    snprintf(db, sizeof db, "%s", test_tmp_path("sweep.db"));
    remove(db);
    snprintf(cmd, sizeof cmd, "sweep %s %s --db %s --jobs 2", test_src_path("examples/first.s"),
             args, db);
    return test_run_tessera(cmd, out);
}

static void test_sweep_over_an_inert_key_refuses(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(sweep("-s simt.scheduler=rr,gto", &out), 1);
    CU_ASSERT(out && strstr(out, "sweep -s 'simt.scheduler=rr,gto': simt.scheduler "
                                              "has no effect in 2 of 2 points"));
    CU_ASSERT(out && strstr(out, "add -s core.model=simt, or --allow-inert if this "
                                              "is intended"));
    CU_ASSERT_EQUAL(test_db_int(test_tmp_path("sweep.db"), "SELECT count(*) FROM runs"), -1);
    free(out);
    /* inert in some points only: refused, counted */
    CU_ASSERT_EQUAL(sweep("-s core.model=mimd,simt -s simt.issue_width=1,2", &out), 1);
    CU_ASSERT(out && strstr(out, "simt.issue_width has no effect in 2 of 4 points "
                                              "(first: point 1,"));
    free(out);
    CU_ASSERT_EQUAL(sweep("-s core.model=simt -s simt.fetch_width=1,2", &out), 1);
    CU_ASSERT(out && strstr(out, "add -s simt.ibuffer=N (N >= 1)"));
    free(out);
    CU_ASSERT_EQUAL(sweep("-s sim.seed=1,2,3", &out), 1);
    CU_ASSERT(out && strstr(out, "sim.seed has no effect in 3 of 3 points"));
    free(out);
    CU_ASSERT_EQUAL(sweep("-s ts.window=2,4", &out), 1);
    CU_ASSERT(out && strstr(out, "add -s ts.policy=lookahead"));
    free(out);
    /* intended: run, with one warning per key */
    CU_ASSERT_EQUAL(sweep("-s core.model=mimd,simt -s simt.issue_width=1,2 --allow-inert", &out),
                    0);
    CU_ASSERT_EQUAL(count_of(out, "warning:"), 1);
    CU_ASSERT(out && strstr(out, "allowed by --allow-inert"));
    CU_ASSERT_EQUAL(test_db_int(test_tmp_path("sweep.db"), "SELECT count(*) FROM runs"), 4);
    CU_ASSERT_EQUAL(test_db_int(test_tmp_path("sweep.db"),
                                "SELECT count(*) FROM params WHERE key = 'simt.issue_width'"), 2);
    free(out);
    /* where the key applies: no word */
    CU_ASSERT_EQUAL(sweep("-s core.model=simt -s simt.scheduler=rr,gto", &out), 0);
    CU_ASSERT(!(out && strstr(out, "warning")));
    free(out);
    CU_ASSERT_EQUAL(sweep("-s sm.arbiter=random -s sim.seed=1,2", &out), 0);
    CU_ASSERT(!(out && strstr(out, "warning")));
    free(out);
    /* a fixed setting without effect: a warning, not a refusal */
    CU_ASSERT_EQUAL(sweep("-s sm.bank=1,2 -s simt.scheduler=gto", &out), 0);
    CU_ASSERT_EQUAL(count_of(out, "warning:"), 1);
    free(out);
}

/* --- iss ------------------------------------------------------------------------------ */

static void test_iss_takes_only_its_keys(void)
{
    static const char *const refused[] = {"core.model=simt", "simt.scheduler=gto", "sm.bank=4",
                                          "plugin.x.y=1"};
    char cmd[512], *out = NULL;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        snprintf(cmd, sizeof cmd, "iss %s -s %s", test_src_path("examples/first.s"), refused[i]);
        CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 1);
        CU_ASSERT(out && strstr(out, "does not apply to iss") &&
                               strstr(out, refused[i]));
        free(out);
    }
    snprintf(cmd, sizeof cmd, "iss %s -s sm.banks=8 -s sm.bank_map=xor",
             test_src_path("examples/first.s"));
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    free(out);
}

/* --- plots -------------------------------------------------------------------------- */

static void test_plot_says_what_a_point_averages(void)
{
    char db[512];
    snprintf(db, sizeof db, "%s", test_tmp_path("plot.db"));
    char cmd[1024], *out = NULL;
    remove(db);
    /* a MIMD and two SIMT runs at sm.bank = 1; a SIMT run at sm.bank = 2 */
    CU_ASSERT_EQUAL_FATAL(run_into(db, "", NULL), 0);
    CU_ASSERT_EQUAL_FATAL(run_into(db, "-s core.model=simt", NULL), 0);
    CU_ASSERT_EQUAL_FATAL(run_into(db, "-s core.model=simt -s simt.scheduler=gto", NULL), 0);
    CU_ASSERT_EQUAL_FATAL(run_into(db, "-s core.model=simt -s sm.bank=2", NULL), 0);
    snprintf(cmd, sizeof cmd, "plot %s --x sm.bank --y end_cycles --script", db);
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    /* once per parameter: core.model and simt.scheduler (two recorded values each) */
    CU_ASSERT_EQUAL(count_of(out, "warning: plot:"), 2);
    CU_ASSERT(out && strstr(out, "warning: plot: 1 point averages runs that differ "
                                              "in core.model, which is neither plotted nor "
                                              "filtered (e.g. sm.bank = 1: 3 runs, core.model = "));
    CU_ASSERT(out && strstr(out, "differ in simt.scheduler"));
    /* the figure: its filter and the runs of each point */
    CU_ASSERT(out && strstr(out, "set label 1 '4 runs with status ok; a point is the "
                                              "mean of the n runs written beside it'"));
    CU_ASSERT(out && strstr(out, "\n1 ") && strstr(out, " 3  # sm.bank = 1: 3 runs"));
    CU_ASSERT(out && strstr(out, "with labels"));
    free(out);
    /* separated by --by, filtered by --where: no warning */
    snprintf(cmd, sizeof cmd, "plot %s --x sm.bank --y end_cycles --by simt.scheduler --where "
                              "\"core_model = 'simt'\" --script", db);
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    CU_ASSERT(!(out && strstr(out, "warning")));
    CU_ASSERT(out && strstr(out, "set label 1 '3 runs with status ok where "
                                              "core_model = ''simt''"));
    free(out);
    /* a key without its section */
    snprintf(cmd, sizeof cmd, "plot %s --x issue_width --y end_cycles --script", db);
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 2);
    CU_ASSERT(out && strstr(out, "--x issue_width: no run has this parameter; did "
                                              "you mean simt.issue_width?"));
    free(out);
}

/* A file written before the rule records every key in every run (the MIMD
 * run's simt.* too): it reads as before, and its mixed point is warned of. */
static void test_old_file_reads_and_is_warned_of(void)
{
    char db[512];
    snprintf(db, sizeof db, "%s", test_tmp_path("old.db"));
    char cmd[1024], *out = NULL;
    remove(db);
    CU_ASSERT_EQUAL_FATAL(run_into(db, "", NULL), 0);
    CU_ASSERT_EQUAL_FATAL(run_into(db, "-s core.model=simt", NULL), 0);
    snprintf(cmd, sizeof cmd, "sqlite3 %s \"INSERT INTO params (run_id, key, value) "
                              "SELECT 1, key, value FROM params WHERE run_id = 2 AND key LIKE "
                              "'simt.%%'\"", db);
    CU_ASSERT_EQUAL_FATAL(test_run_shell(cmd, NULL), 0);
    snprintf(cmd, sizeof cmd, "plot %s --x simt.scheduler --y end_cycles --script", db);
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    CU_ASSERT(out && strstr(out, "differ in core.model"));
    CU_ASSERT(out && strstr(out, "# simt.scheduler = rr: 2 runs"));
    free(out);
    snprintf(cmd, sizeof cmd, "report %s --compare --format csv", db);
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    CU_ASSERT(out && strstr(out, "run_id,status,core.model,"));
    free(out);
}

static const test_case_t cases[] = {
    TEST(test_mimd_run_records_only_its_keys),
    TEST(test_simt_and_conditions_record_what_applies),
    TEST(test_table_declares_what_applies),
    TEST(test_setting_an_inert_key_warns_once),
    TEST(test_sweep_over_an_inert_key_refuses),
    TEST(test_iss_takes_only_its_keys),
    TEST(test_plot_says_what_a_point_averages),
    TEST(test_old_file_reads_and_is_warned_of),
    TEST_END,
};

static const test_suite_t suites[] = {{"inert keys", cases}, {NULL, NULL}};

int main(void) { return test_run_suites(suites); }

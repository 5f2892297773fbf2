/* test_api.c — the run API (api/tessera.h) in process: configuration and
 * program errors with their messages, a run recorded or not, the verdicts
 * (ok, watchdog, stopped before and during the run), counters identical to
 * the database's, and calls refused once a run has started. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "api/tessera.h"
#include "events/base/err.h"
#include "tests/testutil.h"

static const char four_cores[] =
    ".group cores=0x000f\n"
    "  set_const r1, id\n  set_const r8, 0\n  set_const r9, 100\n  set_const r10, 1\n"
    "loop:\n  ld [r1, r8], r2\n  add r2, r10, r2\n  st [r1, r8], r2\n"
    "  sub r9, r10, r9\n  bnz loop, r9\n  ready\n";

static void test_rejections_name_what_is_wrong(void)
{
    tessera_t *t = tessera_new();
    CU_ASSERT_EQUAL(tessera_set(t, "sm.arbiter=lifo"), TESS_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(tessera_errmsg(t), "sm.arbiter"));
    CU_ASSERT_EQUAL(tessera_set(t, "sm.arbiter=rr"), TESS_OK);
    CU_ASSERT_STRING_EQUAL(tessera_errmsg(t), "");
    CU_ASSERT_EQUAL(tessera_load_source(t, ".group cores=1\n  frob r1\n", "bad.s"), TESS_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(tessera_errmsg(t), "bad.s:2"));
    CU_ASSERT_EQUAL(tessera_load(t, test_tmp_path("missing.s"), NULL), TESS_EIO);
    CU_ASSERT_EQUAL(tessera_config_file(t, test_tmp_path("missing.ini")), TESS_EIO);
    CU_ASSERT_EQUAL(tessera_run(t, 0), TESS_EUSAGE); /* no program */
    CU_ASSERT_STRING_EQUAL(tessera_status(t), "");
    tessera_free(t);
}

static void test_run_recorded_counters_match_the_database(void)
{
    const char *db = test_tmp_path("api.db");
    unlink(db);
    tessera_t *t = tessera_new();
    CU_ASSERT_EQUAL(tessera_set(t, "sm.bank=4"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_load_source(t, four_cores, "four.s"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_record(t, db), TESS_OK);
    CU_ASSERT_EQUAL(tessera_run(t, 0), TESS_OK);
    CU_ASSERT_STRING_EQUAL(tessera_status(t), "ok");
    tessera_counters_t c;
    arch_state_t s;
    CU_ASSERT_EQUAL(tessera_counters(t, &c), TESS_OK);
    CU_ASSERT_EQUAL(tessera_state(t, &s), TESS_OK);
    CU_ASSERT_EQUAL(c.end_ps, 3216000); /* fixed priority, as examples/embed.c */
    CU_ASSERT_EQUAL(c.instructions, 2020);
    CU_ASSERT_EQUAL(c.sm_accesses, 800);
    CU_ASSERT_EQUAL(c.sm_conflicts, 403);
    CU_ASSERT_EQUAL(c.run_id, 1);
    CU_ASSERT_EQUAL(s.sm[3], 100);
    /* the second call is refused: a run is simulated once */
    CU_ASSERT_EQUAL(tessera_set(t, "sm.bank=2"), TESS_EUSAGE);
    CU_ASSERT_EQUAL(tessera_run(t, 0), TESS_EUSAGE);
    tessera_free(t);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT end_ps FROM runs WHERE run_id = 1"), 3216000);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE program = 'four.s' "
                                    "AND status = 'ok'"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT CAST(value AS INTEGER) FROM params "
                                    "WHERE run_id = 1 "
                                    "AND key = 'sm.bank'"), 4);
}

static void test_unrecorded_run_and_watchdog(void)
{
    tessera_t *t = tessera_new();
    CU_ASSERT_EQUAL(tessera_set(t, "core.budget=50"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_load_source(t, four_cores, "four.s"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_run(t, 0), TESS_EWATCHDOG);
    CU_ASSERT_STRING_EQUAL(tessera_status(t), "watchdog");
    CU_ASSERT_PTR_NOT_NULL(strstr(tessera_outcome_msg(t), "budget"));
    tessera_counters_t c;
    tessera_counters(t, &c);
    CU_ASSERT_EQUAL(c.run_id, 0);
    tessera_free(t);
}

static void test_stop_before_the_first_event(void)
{
    const char *db = test_tmp_path("stopped.db");
    unlink(db);
    tessera_t *t = tessera_new();
    CU_ASSERT_EQUAL(tessera_load_source(t, four_cores, "four.s"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_record(t, db), TESS_OK);
    tessera_stop(t, 15);
    CU_ASSERT_EQUAL(tessera_run(t, 0), TESS_EINTERRUPTED);
    CU_ASSERT_STRING_EQUAL(tessera_status(t), "interrupted");
    CU_ASSERT_STRING_EQUAL(tessera_outcome_msg(t), "interrupted by signal 15");
    tessera_free(t);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'interrupted'"),
                    1);
}

static void *stop_later(void *arg)
{
    usleep(20000);
    tessera_stop(arg, 0);
    return NULL;
}

/* Another thread stops a run that would take far longer (paced: 1 simulated
 * microsecond per wall second). */
static void test_stop_from_another_thread(void)
{
    tessera_t *t = tessera_new();
    CU_ASSERT_EQUAL(tessera_set(t, "sim.pace=1e6"), TESS_OK);
    CU_ASSERT_EQUAL(tessera_load_source(t, four_cores, "four.s"), TESS_OK);
    pthread_t th;
    pthread_create(&th, NULL, stop_later, t);
    CU_ASSERT_EQUAL(tessera_run(t, 0), TESS_EINTERRUPTED);
    pthread_join(th, NULL);
    CU_ASSERT_STRING_EQUAL(tessera_outcome_msg(t), "stopped on request (tessera_stop)");
    tessera_counters_t c;
    tessera_counters(t, &c);
    CU_ASSERT(c.now_ps < 3216000);
    tessera_free(t);
}

static const test_case_t cases[] = {
    TEST(test_rejections_name_what_is_wrong),
    TEST(test_run_recorded_counters_match_the_database),
    TEST(test_unrecorded_run_and_watchdog),
    TEST(test_stop_before_the_first_event),
    TEST(test_stop_from_another_thread),
    TEST_END,
};

static const test_suite_t suites[] = {{"api", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

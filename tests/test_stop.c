/* test_stop.c — numbers a study can trust: parameters typed in the database
 * (a numeric key orders and filters numerically in plain SQL, report json
 * gives numbers), and every run's stop — its status says why it stopped
 * (time_limit, deadlock, watchdog; interrupted and wall_limit are in
 * test_interrupt), runs.stop_ps says when, and the views, the summary and
 * the timeline use that time where the run did not finish. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "tests/testutil.h"

static const char *write_src(const char *name, const char *src)
{
    const char *path = test_tmp_path(name);
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, src, strlen(src)), 0);
    return path;
}

/* --- typed parameters -------------------------------------------------------------- */

static void test_numeric_keys_are_numbers(void)
{
    const char *db = test_tmp_path("typed.db");
    char args[1024], *out = NULL;
    snprintf(args, sizeof args,
             "sweep '%s' -s sm.bank=2,16,8 -s sm.req=1,uniform:1..3 --db '%s'",
             test_src_path("examples/first.s"), db);
    CU_ASSERT_EQUAL_FATAL(test_run_tessera(args, NULL), 0);
    /* as text, 16 sorted before 2 and 8, and 16 > 4 was false */
    char *order = test_db_text(db, "SELECT group_concat(sm_bank) FROM (SELECT DISTINCT sm_bank"
                                   " FROM run_summary ORDER BY sm_bank)");
    CU_ASSERT_STRING_EQUAL(order ? order : "", "2,8,16");
    free(order);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM run_summary WHERE sm_bank > 4"), 4);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM params WHERE key = 'sm.bank'"
                                    " AND value > 4"), 4);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM params WHERE key = 'sm.bank'"
                                    " AND typeof(value) = 'integer'"), 6);
    /* choices and distributions stay text; a number given to a latency key is a number */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM params WHERE key = 'sm.arbiter'"
                                    " AND typeof(value) = 'text'"), 6);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM run_summary WHERE sm_req = 1"), 3);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM run_summary"
                                    " WHERE sm_req = 'uniform:1..3'"), 3);
    /* sim.seed is recorded where something is random: the 3 drawn-latency runs */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM params WHERE key = 'sim.seed'"
                                    " AND typeof(value) = 'integer'"), 3);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM params WHERE key = 'sim.seed'"), 3);
    /* report json and csv: numbers unquoted */
    int64_t run16 = test_db_int(db, "SELECT min(run_id) FROM run_summary WHERE sm_bank = 16");
    snprintf(args, sizeof args, "report '%s' --run %lld --format json", db, (long long)run16);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 0);
    CU_ASSERT(out && strstr(out, "\"sm_bank\": 16,"));
    CU_ASSERT(out && strstr(out, "\"arbiter\": \"fixed\","));
    free(out);
    snprintf(args, sizeof args, "report '%s' --compare --format csv", db);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 0);
    CU_ASSERT(out && strstr(out, ",ok,1,16,"));
    free(out);
}

/* --- where runs stop ------------------------------------------------------------------ */

/* Two cores spin in a counted-forever loop: only a limit stops them. The task
 * starts at 6000 ps (CF and IF decode, 4-cycle transfer, T1-T4). */
static const char spin_src[] = ".group cores=0x3\n set_const r8, 1\nspin:\n bnz spin, r8\n";

static void test_time_limit_stops_at_the_limit(void)
{
    const char *prog = write_src("spin.s", spin_src), *db = test_tmp_path("limit.db");
    char args[1024], *out = NULL;
    snprintf(args, sizeof args, "run '%s' --db '%s' -s sim.time_limit=500 -s core.budget=1000000",
             prog, db);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), TESS_EINTERRUPTED);
    CU_ASSERT(out && strstr(out, ": time_limit\n"));
    CU_ASSERT(out && strstr(out, "  stopped at        500000 ps (500 cycles)\n"));
    CU_ASSERT(out && !strstr(out, "simulated time"));
    free(out);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'time_limit'"
                                    " AND stop_ps = 500000 AND end_ps IS NULL"), 1);
    /* both cores busy from 6000 ps to the stop: the step function reaches it */
    char *steps = test_db_text(db, "SELECT group_concat(time_ps || '-' || until_ps || ':' ||"
                                   " active_cores, ' ') FROM parallelism");
    CU_ASSERT_STRING_EQUAL(steps ? steps : "", "6000-500000:2");
    free(steps);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT sum(busy_ps) FROM core_utilization"), 2 * 494000);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT round(1000 * mean_parallelism) FROM run_summary"),
                    1976); /* 2 x 494000 / 500000 */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT round(1000 * share) FROM core_utilization"
                                    " WHERE core = 0"), 988);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT stop_cycles FROM run_summary"), 500);
    /* the timeline's time axis and title end at the stop */
    const char *svg = test_tmp_path("limit.svg");
    snprintf(args, sizeof args, "timeline '%s' -o '%s'", db, svg);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    size_t len = 0;
    char *text = (char *)test_read_file(svg, &len);
    CU_ASSERT(text && strstr(text, "time_limit · level mem · cycles 0–500 of 500<"));
    free(text);
}

static void test_deadlock_has_its_own_status(void)
{
    /* D16: core 0 locks byte 0x300 with ld_sync and ends its task without the
     * st_sync; core 1's ld_sync waits for ever and nothing is left to run */
    const char *prog = write_src("lockup.s", ".group cores=0x3\n set_const r8, 0x43\n"
                                             " set_const r9, 0\n ld [r9, r8], r1\n ready\n");
    const char *db = test_tmp_path("deadlock.db");
    char args[1024], *out = NULL;
    snprintf(args, sizeof args, "run '%s' --db '%s' -s sm.atomics=on", prog, db);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), TESS_EDEADLOCK);
    CU_ASSERT(out && strstr(out, ": deadlock\n"));
    CU_ASSERT(out && strstr(out, "waits for bank 3, locked by core 0"));
    free(out);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'deadlock'"
                                    " AND error LIKE 'deadlock: core 1%' AND stop_ps > 0"), 1);
}

static void test_watchdog_summary_says_where_it_stopped(void)
{
    const char *prog = write_src("spin1.s", ".group cores=0x1\n set_const r8, 1\nspin:\n"
                                            " bnz spin, r8\n");
    char args[1024], *out = NULL;
    const char *db = test_tmp_path("watchdog.db");
    snprintf(args, sizeof args, "run '%s' --db '%s' -s core.budget=100", prog, db);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), TESS_EWATCHDOG);
    /* 100 instructions of one cycle from 6000 ps: the 101st would start at 106000 ps */
    CU_ASSERT(out && strstr(out, "  stopped at        106000 ps (106 cycles)\n"));
    CU_ASSERT(out && !strstr(out, " 0 ps"));
    free(out);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT stop_ps FROM runs WHERE status = 'watchdog'"), 106000);
}

static void test_finished_run_stops_at_its_end(void)
{
    const char *db = test_tmp_path("ok.db");
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --db '%s' --quiet", test_src_path("examples/example1.s"),
             db);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'"
                                    " AND stop_ps = end_ps AND end_ps > 0"), 1);
}

static const test_case_t cases[] = {
    TEST(test_numeric_keys_are_numbers),
    TEST(test_time_limit_stops_at_the_limit),
    TEST(test_deadlock_has_its_own_status),
    TEST(test_watchdog_summary_says_where_it_stopped),
    TEST(test_finished_run_stops_at_its_end),
    TEST_END,
};

static const test_suite_t suites[] = {{"stop", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

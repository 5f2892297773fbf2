/* test_fault.c — allocation failures (events/base/alloc.h fault injection):
 * counts the allocations of whole `tessera` commands (SQLite's included),
 * then makes the Nth fail for N across the run. Each failure must give an
 * error and a clean exit (0 when the failure was survivable, 7 out of memory,
 * 6 when SQLite reports it) with a message — never a crash — and must leave
 * an existing database sound with its earlier run intact. The sanitizer
 * build runs the same test, so a leak on any of these paths fails it too. */
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/testutil.h"

#define MAX_POINTS 150 /* failure points per command (all of them when fewer) */

static long allocations_of(const char *args)
{
    char cmd[2048], *out = NULL;
    snprintf(cmd, sizeof cmd, "env TESSERA_ALLOC_STATS=1 '%s' %s", TESSERA_BINARY, args);
    int rc = test_run_shell(cmd, &out);
    const char *line = out ? strstr(out, "tessera: allocations: ") : NULL;
    long n = line ? atol(line + strlen("tessera: allocations: ")) : -1;
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_TRUE(n > 0);
    free(out);
    return n;
}

/* Runs `args` with allocation n failing; checks the exit and the message. */
static void fail_once(const char *args, long n, const char *setup)
{
    char cmd[2048], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s env TESSERA_FAIL_ALLOC=%ld '%s' %s", setup, n, TESSERA_BINARY,
             args);
    int rc = test_run_shell(cmd, &out);
    bool clean = rc == 0 || rc == 6 || rc == 7;
    bool said = rc == 0 || (out && strstr(out, "out of memory"));
    if (!clean || !said)
        fprintf(stderr, "allocation %ld of `tessera %s`: exit %d\n%s\n", n, args, rc,
                out ? out : "");
    CU_ASSERT_TRUE(clean);
    CU_ASSERT_TRUE(said);
    free(out);
}

/* Walks the failure point over the whole command: every one of the first
 * 40 allocations (setup paths), then evenly spaced points to the end. */
static void walk(const char *args, const char *setup)
{
    long total = allocations_of(args);
    long step = total > MAX_POINTS ? (total - 40) / (MAX_POINTS - 40) : 1;
    for (long n = 1; n <= total; n += n < 40 ? 1 : step)
        fail_once(args, n, setup);
}

static void test_asm_iss_and_run_without_db_survive_every_failure(void)
{
    char args[1024];
    snprintf(args, sizeof args, "asm '%s' -o '%s'", test_src_path("examples/matmul.s"),
             test_tmp_path("f.tm"));
    walk(args, "");
    snprintf(args, sizeof args, "iss '%s' --dump-mem '%s'", test_src_path("examples/matmul.s"),
             test_tmp_path("f.mem"));
    walk(args, "");
    snprintf(args, sizeof args, "run '%s' --no-db -s sim.progress=off",
             test_src_path("examples/example2.s"));
    walk(args, "");
}

/* Recording into a database that already holds a finished run: whatever
 * allocation fails, that run and the file survive. */
static void test_recorded_run_survives_every_failure(void)
{
    char good[512], db[512]; /* test_tmp_path's buffers rotate: keep copies */
    snprintf(good, sizeof good, "%s", test_tmp_path("good.db"));
    snprintf(db, sizeof db, "%s", test_tmp_path("fault.db"));
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --db '%s' -s sim.progress=off",
             test_src_path("examples/example1.s"), good);
    CU_ASSERT_EQUAL_FATAL(test_run_tessera(args, NULL), 0);
    char setup[4096]; /* resets the database to its one finished run */
    snprintf(setup, sizeof setup, "rm -f '%s' '%s-wal' '%s-shm'; cp '%s' '%s'", db, db, db, good,
             db);
    snprintf(args, sizeof args, "run '%s' --db '%s' -s sim.progress=off",
             test_src_path("examples/example2.s"), db);
    long total = allocations_of(args);
    long step = total > MAX_POINTS ? total / MAX_POINTS : 1;
    for (long n = 1; n <= total; n += step) {
        CU_ASSERT_EQUAL_FATAL(test_run_shell(setup, NULL), 0);
        fail_once(args, n, "");
        CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA integrity_check"), 1);
        CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE run_id = 1 AND status = 'ok'"),
                        1);
        CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM frames WHERE run_id = 1"), 8);
    }
}

static const test_case_t cases[] = {
    TEST(test_asm_iss_and_run_without_db_survive_every_failure),
    TEST(test_recorded_run_survives_every_failure),
    TEST_END,
};

static const test_suite_t suites[] = {{"fault", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

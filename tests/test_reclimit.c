/* test_reclimit.c — recording that could fill a disk (issue 22):
 * record.max_mb stops a run when what it added to its database passes it, with the status
 * record_limit (exit code 4) and a message naming the key, the cheaper
 * levels and the recording window; what was recorded stays, the database is
 * sound, and the rows are those of a stepped run stopped by sim.time_limit
 * at the same stop_ps (the stop settles as sim.wall_limit's does). The
 * progress line shows the database's size. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/testutil.h"

static int64_t file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (int64_t)st.st_size : 0;
}

/* Removes every line of `s` that contains `needle`. */
static void drop_line(char *s, const char *needle)
{
    char *at;
    while ((at = strstr(s, needle)) != NULL) {
        while (at > s && at[-1] != '\n')
            at--;
        char *end = strchr(at, '\n');
        memmove(at, end ? end + 1 : at + strlen(at), strlen(end ? end + 1 : "") + 1);
    }
}

/* Replaces every `word` in s by "STOP" and returns how many there were. */
static unsigned mark(char *s, const char *word)
{
    unsigned n = 0;
    size_t len = strlen(word);
    for (char *at = s; (at = strstr(at, word)) != NULL; n++) {
        memmove(at + 4, at + len, strlen(at + len) + 1);
        memcpy(at, "STOP", 4);
        at += 4;
    }
    return n;
}

/* The status message (a quoted SQL text after `prefix`'s quote) becomes 'MSG'. */
static void mark_message(char *s, const char *prefix)
{
    for (char *at = s; (at = strstr(at, prefix)) != NULL; at += 3) {
        char *q = at + 1, *eol = at + strcspn(at, "\n");
        while (q < eol && (*q != '\'' || q[1] == '\'')) /* the closing quote ('' is one) */
            q += *q == '\'' ? 2 : 1;
        if (q >= eol)
            break;
        memmove(at + 5, q + 1, strlen(q + 1) + 1);
        memcpy(at, "'MSG'", 5);
    }
}

static void test_the_limit_stops_the_run_and_keeps_its_rows(void)
{
    unsigned compared = 0;
    const char *const models[] = {"core.model=mimd", "core.model=simt"};
    for (unsigned m = 0; m < 2; m++) {
        char db[512], ref[512], args[2048], *out = NULL;
        snprintf(db, sizeof db, "%s", test_tmp_path("limited.db"));
        snprintf(ref, sizeof ref, "%s", test_tmp_path("stepped.db"));
        unlink(db), unlink(ref);
        /* bench.s at level mem: about 12 bytes per access, a MiB in a fraction of a second */
        snprintf(args, sizeof args,
                 "run '%s' --db '%s' -s record.max_mb=1 -s %s -s sim.progress=on",
                 test_src_path("examples/bench.s"), db, models[m]);
        CU_ASSERT_EQUAL(test_run_tessera(args, &out), 4);
        CU_ASSERT(out && strstr(out, "over record.max_mb = 1 MiB: it stopped and "
                                                  "what it recorded is kept. Record less, with a "
                                                  "cheaper record.level (summary, tasks;"
                                                  " this run's: mem) or a window (record.from_ps,"
                                                  " record.to_ps), or raise record.max_mb"));
        /* the progress line's size */
        CU_ASSERT(out && strstr(out, " of record.max_mb = 1), "));
        free(out);
        CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA integrity_check"), 1);
        CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'record_limit'"
                                        " AND error LIKE '%record.max_mb = 1 MiB%'"), 1);
        CU_ASSERT(test_db_int(db, "SELECT count(*) FROM sm_accesses") > 10000);
        /* it stopped near the limit: what the writer had queued, and the end's rows */
        int64_t bytes = file_bytes(db);
        fprintf(stderr, "\n%s: stopped with %lld bytes recorded\n", models[m], (long long)bytes);
        CU_ASSERT(bytes >= (1 << 20) && bytes < (16 << 20));
        int64_t stop = test_db_int(db, "SELECT stop_ps FROM runs WHERE run_id = 1");
        CU_ASSERT(stop > 0 && stop % 1000 == 0);
        /* the same rows as a stepped run stopped there by sim.time_limit */
        snprintf(args, sizeof args,
                 "run '%s' --db '%s' --quiet -s %s -s core.timing=stepped -s sim.progress=off"
                 " -s record.max_mb=0 -s sim.time_limit=%lld",
                 test_src_path("examples/bench.s"), ref, models[m], (long long)(stop / 1000));
        CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 4);
        char *a = test_db_dump(db, 1), *b = test_db_dump(ref, 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        /* but the params rows of the two limits, the status and its message */
        drop_line(a, "'sim.time_limit'|"), drop_line(b, "'sim.time_limit'|");
        drop_line(a, "'record.max_mb'|"), drop_line(b, "'record.max_mb'|");
        drop_line(a, "'sim.progress'|"), drop_line(b, "'sim.progress'|");
        mark_message(a, "'the run wrote"), mark_message(b, "'simulated-time limit");
        unsigned na = mark(a, "'record_limit'"), nb = mark(b, "'time_limit'");
        CU_ASSERT_TRUE(na >= 2 && na == nb);
        bool same = strcmp(a, b) == 0;
        if (!same) {
            fprintf(stderr, "%s (stop %lld ps): the limited run's rows differ from the stepped "
                    "run's (kept in %s.rows, %s.rows)\n", models[m], (long long)stop, db, ref);
            char path[600];
            snprintf(path, sizeof path, "%s.rows", db);
            test_write_file(path, a, strlen(a));
            snprintf(path, sizeof path, "%s.rows", ref);
            test_write_file(path, b, strlen(b));
        }
        CU_ASSERT_TRUE(same);
        compared += same;
        free(a);
        free(b);
    }
    CU_ASSERT_EQUAL(compared, 2);
}

static void test_default_and_no_limit(void)
{
    char db[512], args[1024];
    snprintf(db, sizeof db, "%s", test_tmp_path("default.db"));
    unlink(db);
    snprintf(args, sizeof args, "run '%s' --db '%s' --quiet", test_src_path("examples/first.s"),
             db);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT value FROM params WHERE key = 'record.max_mb'"), 2048);
    snprintf(args, sizeof args, "run '%s' --db '%s' --quiet -s record.max_mb=0",
             test_src_path("examples/first.s"), db);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), 2);
    /* the lowest level has nothing cheaper to offer: the window and the key */
    char *out = NULL;
    snprintf(args, sizeof args,
             "run '%s' --db '%s' --quiet -s record.max_mb=1 -s record.level=events -s "
             "core.budget=1000000000", test_src_path("examples/bench.s"), db);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 4);
    CU_ASSERT(out && strstr(out, "(summary, tasks, mem; this run's: "
                                              "events)"));
    free(out);
    CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA integrity_check"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs"), 3);
    /* the limit is on what a run adds: a file other runs made large stops nothing */
    CU_ASSERT(file_bytes(db) > (1 << 20));
    snprintf(args, sizeof args, "run '%s' --db '%s' --quiet -s record.max_mb=1",
             test_src_path("examples/first.s"), db);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), 3);
}

static const test_case_t cases[] = {
    TEST(test_the_limit_stops_the_run_and_keeps_its_rows),
    TEST(test_default_and_no_limit),
    TEST_END,
};

static const test_suite_t suites[] = {{"record.max_mb", cases}, {NULL, NULL}};

int main(void) { return test_run_suites(suites); }

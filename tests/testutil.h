/* testutil.h — what every CUnit test program shares: a one-call suite runner,
 * scratch directories, whole-file reads, and running the `tessera` command.
 * Each tests/test_<component>.c is its own program; main() calls
 * test_run_suites() and returns its result (non-zero when a test failed). */
#ifndef TESSERA_TESTUTIL_H
#define TESSERA_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <CUnit/CUnit.h>
#include <sqlite3.h>

typedef struct test_case {
    const char *name;
    void (*fn)(void);
} test_case_t;

typedef struct test_suite {
    const char *name;
    const test_case_t *cases; /* terminated by {NULL, NULL} */
} test_suite_t;

#define TEST(fn) { #fn, fn }
#define TEST_END { NULL, NULL }

/* Runs the suites (terminated by {NULL, NULL}) verbosely; returns 0 when every
 * test passed, 1 when one failed, and TEST_SKIP_CODE when none failed but one
 * could not run (test_skip): ctest reports the program as skipped (every
 * test's SKIP_RETURN_CODE, tests/CMakeLists.txt), not as passed. Honours
 * TESSERA_TEST_FILTER (substring of a test name) so one test can be run alone,
 * and TESSERA_TEST_SHARD "k/n" (0 <= k < n): only the cases whose position,
 * counted from 0 over all suites in order, is k modulo n — n processes then
 * share one program's cases (scripts/memcheck.sh). */
#define TEST_SKIP_CODE 77
int test_run_suites(const test_suite_t *suites);

/* Called by a test that cannot run here (a tool missing): prints "SKIPPED:
 * <why>" and makes test_run_suites return TEST_SKIP_CODE unless a test fails.
 * The test returns after it. */
void test_skip(const char *why);

/* A fresh scratch directory under the build tree (or $TMPDIR), created on
 * first use per program and removed at exit unless TESSERA_KEEP_TMP is set.
 * test_tmp_path() returns "<dir>/<name>" in a static rotating buffer. */
const char *test_tmp_dir(void);
const char *test_tmp_path(const char *name);

/* Path of a file in the source tree ("examples/matadd.s"), static rotating buffer. */
const char *test_src_path(const char *rel);

/* Reads a whole file; returns a malloc'd buffer (NUL-terminated, *len excludes
 * the NUL) or NULL when it cannot be read. */
uint8_t *test_read_file(const char *path, size_t *len);

/* Writes a whole file; returns 0 on success. */
int test_write_file(const char *path, const void *data, size_t len);

/* Runs `tessera` with the given argument string through /bin/sh, capturing
 * stdout+stderr into *out (malloc'd, may be NULL when not wanted). Returns the
 * exit status (or -1 when killed by a signal). $TESSERA_TEST_WRAPPER, when
 * set, is put in front of the command (scripts/memcheck.sh runs the
 * end-to-end tests under valgrind this way). */
int test_run_tessera(const char *args, char **out);

/* Runs an arbitrary shell command the same way. */
int test_run_shell(const char *cmd, char **out);

/* One value of a one-row query on the database at `path`, opened read-only
 * (on a read-only file system, as immutable): an integer, or for a text
 * value 1 when it is "ok" (PRAGMA integrity_check) and 0 otherwise; -1 when
 * the query fails (the error is printed). */
int64_t test_db_int(const char *path, const char *sql);

/* The same for a text value: a malloc'd copy, or NULL. */
char *test_db_text(const char *path, const char *sql);

/* Every row of run `run_id` of the database at `path`, as text: every table
 * and view with a run_id column (packed relations through their views),
 * each row's columns in order, rows sorted, without what records the host
 * or the timing mode rather than the simulated machine (the columns config, timing,
 * events, wall_s, started_at, finished_at and run_id, the event log, the
 * params row core.timing). Two runs of the same machine agree when their
 * dumps are equal. A malloc'd string, or NULL when the database cannot be
 * read (the error is printed). */
char *test_db_dump(const char *path, int64_t run_id);

/* A small deterministic generator for random tests (splitmix64). */
uint64_t test_rand(uint64_t *state);

/* The database at `path` opened read-only, and `sql` prepared on it: a
 * failure is a fatal assertion (the statement's error printed). */
sqlite3 *test_db_open(const char *path);
sqlite3_stmt *test_db_prepare(sqlite3 *db, const char *sql);

/* The integer of a one-value query on the database at `path` (read-only;
 * a query that fails is a fatal assertion), the query a printf format:
 * -999 for NULL or no row. */
int64_t test_q_int(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Every row of such a query as "v1,v2,…" joined by ';' (NULL as "NULL"), in
 * a static buffer (8 KiB, the rest cut) that the next call overwrites. */
const char *test_q_rows(const char *path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Records a program into a fresh database `name` in the scratch directory,
 * once per program (test process): a later call with the same name returns
 * the same path at once. The program is `prog`, a path under the source
 * tree, or, when `text` is given, that source written beside the database;
 * `opts` (or NULL) are more options of `tessera run`. A run ending other
 * than with exit 0 or `also_ok` (say TESS_EWATCHDOG; 0 for none) is a fatal
 * assertion (its output printed), as is a 17th name. The path is static. */
const char *test_record_once(const char *name, const char *prog, const char *text,
                             const char *opts, int also_ok);

/* Drops every view the store makes (rec_view_names) from h, each drop
 * asserted: how a test makes a file as versions before the views wrote it. */
void test_db_drop_views(sqlite3 *h);

/* A fresh path `name` in the scratch directory (removed if it exists), in
 * the caller's buffer (test_tmp_path's rotates). */
const char *test_fresh_path(const char *name, char *buf, size_t size);

/* Runs `tessera run PROG --db DB --quiet OPTS` (OPTS may be NULL); returns
 * the exit code, the command's output printed when it is neither 0 nor
 * the watchdog's. */
int test_record(const char *db, const char *prog, const char *opts);

#endif

/* test_dbfail.c — the statistics database failing under `tessera run`: a file
 * in the way that is not a database, a directory that does not exist, a
 * database locked by another process, a read-only file system, a full disk.
 * Each must give a clear error naming the database and exit 6 (database
 * error; 5 when the file cannot even be opened), and must never destroy or corrupt an
 * existing file: its bytes (or its earlier run and PRAGMA integrity_check)
 * stay. The file-system cases mount small tmpfs file systems, so they need
 * root, as CI has; elsewhere they fail with a message saying so. */
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/testutil.h"

static char *tessera_out;

static int run_into(const char *db, const char *prog, const char *extra)
{
    char args[1024];
    free(tessera_out);
    tessera_out = NULL;
    snprintf(args, sizeof args, "run '%s' --db '%s' -s sim.progress=off %s", test_src_path(prog),
             db, extra ? extra : "");
    return test_run_tessera(args, &tessera_out);
}

static bool said(const char *what)
{
    bool ok = tessera_out && strstr(tessera_out, what);
    if (!ok)
        fprintf(stderr, "expected '%s' in:\n%s\n", what, tessera_out ? tessera_out : "(nothing)");
    return ok;
}

/* The database holds run 1, finished, and is sound. */
static void assert_first_run_intact(const char *db)
{
    CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA integrity_check"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE run_id = 1 AND status = 'ok'"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM frames WHERE run_id = 1"), 8);
}

static void test_file_that_is_not_a_database_is_left_alone(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s", test_tmp_path("notes.db"));
    const char *text = "my notes, not a database\n";
    test_write_file(path, text, strlen(text));
    CU_ASSERT_EQUAL(run_into(path, "examples/example1.s", NULL), 6);
    CU_ASSERT_TRUE(said("notes.db"));
    size_t len = 0;
    char *after = (char *)test_read_file(path, &len);
    CU_ASSERT_TRUE(after && len == strlen(text) && memcmp(after, text, len) == 0);
    free(after);
}

static void test_missing_directory_is_named(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/no/such/dir/x.db", test_tmp_dir());
    int rc = run_into(path, "examples/example1.s", NULL);
    CU_ASSERT_TRUE(rc == 6 || rc == 5);
    CU_ASSERT_TRUE(said("no/such/dir/x.db"));
}

/* Another process holds an exclusive lock: the run waits (busy timeout),
 * then gives up with an error; the file is intact once the lock goes. */
static void test_locked_database_gives_up_cleanly(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s", test_tmp_path("locked.db"));
    CU_ASSERT_EQUAL_FATAL(run_into(path, "examples/example1.s", NULL), 0);
    sqlite3 *holder = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &holder), SQLITE_OK);
    CU_ASSERT_EQUAL_FATAL(sqlite3_exec(holder, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    CU_ASSERT_EQUAL(run_into(path, "examples/example2.s", NULL), 6);
    CU_ASSERT_TRUE(said("locked"));
    sqlite3_exec(holder, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(holder);
    assert_first_run_intact(path);
    CU_ASSERT_EQUAL(test_db_int(path, "SELECT count(*) FROM runs"), 1);
}

/* A tmpfs of `size` at a fresh directory; "" when it cannot be mounted. */
static const char *mount_tmpfs(const char *name, const char *size)
{
    static char dir[512];
    snprintf(dir, sizeof dir, "%s", test_tmp_path(name));
    mkdir(dir, 0755);
    char opts[64];
    snprintf(opts, sizeof opts, "size=%s", size);
    if (mount("tmpfs", dir, "tmpfs", 0, opts) != 0) {
        fprintf(stderr, "cannot mount a tmpfs at %s (this test needs root): %m\n", dir);
        CU_FAIL("mount tmpfs");
        return "";
    }
    return dir;
}

/* The tmpfs has room for the first run's peak: its WAL (~3.2 MB of 64 KiB
 * pages for the schema and example 1) and the database the last checkpoint
 * fills beside it (~1.9 MB) — since the recorder's checkpointer copies
 * during the run's end, both exist at once. */
static void test_read_only_file_system_is_not_touched(void)
{
    const char *dir = mount_tmpfs("ro", "16m");
    if (!*dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/ro.db", dir);
    CU_ASSERT_EQUAL(run_into(path, "examples/example1.s", NULL), 0);
    size_t before_len = 0;
    uint8_t *before = test_read_file(path, &before_len);
    CU_ASSERT_EQUAL(mount("tmpfs", dir, "tmpfs", MS_REMOUNT | MS_RDONLY, "size=16m"), 0);
    CU_ASSERT_EQUAL(run_into(path, "examples/example2.s", NULL), 5); /* cannot open: I/O */
    CU_ASSERT_TRUE(said("ro.db"));
    size_t after_len = 0;
    uint8_t *after = test_read_file(path, &after_len);
    CU_ASSERT_TRUE(before && after && before_len == after_len &&
                   memcmp(before, after, before_len) == 0);
    assert_first_run_intact(path);
    free(before);
    free(after);
    umount(dir);
}

/* The disk fills in the middle of recording every SM access of a long run:
 * an error, the run marked when possible, the earlier run intact. */
static void test_full_disk_keeps_earlier_runs(void)
{
    const char *dir = mount_tmpfs("full", "6m");
    if (!*dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/full.db", dir);
    CU_ASSERT_EQUAL(run_into(path, "examples/example1.s", NULL), 0);
    CU_ASSERT_EQUAL(run_into(path, "examples/bench.s", "-s record.level=mem"), 6);
    CU_ASSERT_TRUE(said("full"));
    assert_first_run_intact(path);
    CU_ASSERT_TRUE(test_db_int(path, "SELECT count(*) FROM runs WHERE status = 'ok'") == 1);
    umount(dir);
}

/* The disk fills at the run's very end (issue 26: a 2.2 MB tmpfs, where
 * creating an index found the disk full after the summary said ok, and
 * `runs` kept 'ok' under exit 6): whenever the command fails, neither its
 * summary nor `runs` says ok. Several sizes and programs, so that the end
 * fails at different steps (indexes, the final UPDATE, a commit). */
static void test_full_disk_at_the_end_is_not_ok(void)
{
    static const char *const sizes[] = {"2000k", "2200k", "2400k"};
    static const char *const progs[] = {"examples/first.s", "examples/matmul4.s"};
    int failed = 0;
    for (size_t s = 0; s < 3; s++)
        for (size_t p = 0; p < 2; p++) {
            const char *dir = mount_tmpfs("end", sizes[s]);
            if (!*dir)
                return;
            char path[512], prog_ok[128];
            snprintf(path, sizeof path, "%s/end.db", dir);
            int rc = run_into(path, progs[p], NULL);
            snprintf(prog_ok, sizeof prog_ok, "%s: ok\n", progs[p]);
            if (rc != 0) {
                failed++;
                CU_ASSERT_EQUAL(rc, 6);
                CU_ASSERT_PTR_NULL(tessera_out ? strstr(tessera_out, prog_ok) : NULL);
                CU_ASSERT_EQUAL(test_db_int(path, "SELECT count(*) FROM runs WHERE status = 'ok'"),
                                0);
            } else {
                CU_ASSERT_EQUAL(test_db_int(path, "SELECT count(*) FROM runs WHERE status = 'ok'"),
                                1);
            }
            umount(dir);
        }
    CU_ASSERT_TRUE(failed > 0); /* 2.2 MB is too small for first.s's end (issue 26) */
}

static const test_case_t cases[] = {
    TEST(test_file_that_is_not_a_database_is_left_alone),
    TEST(test_missing_directory_is_named),
    TEST(test_locked_database_gives_up_cleanly),
    TEST(test_read_only_file_system_is_not_touched),
    TEST(test_full_disk_keeps_earlier_runs),
    TEST(test_full_disk_at_the_end_is_not_ok),
    TEST_END,
};

static const test_suite_t suites[] = {{"dbfail", cases}, {NULL, NULL}};

int main(void)
{
    int rc = test_run_suites(suites);
    free(tessera_out);
    return rc;
}

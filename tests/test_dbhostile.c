/* test_dbhostile.c — the statistics database against what users' machines do
 * to it (docs/ROBUSTNESS.md, issue 10 classes 2, 6 and 7): many processes
 * writing one file at once, readers on files and file systems they cannot
 * write, merging runs caught in progress, files that carry Tessera's
 * application id but not its tables, and paths that are not regular files.
 * Every case checks the exit code, the message, that nothing crashed or
 * hung (each command runs under `timeout`), and that every file that was
 * there before is byte-identical unless it was the command's output. The
 * file-system cases mount tmpfs and set the immutable attribute, so they
 * need root, as CI has; elsewhere they fail with a message saying so. */
#include <fcntl.h>
#include <linux/fs.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/store/db.h"
#include "tests/testutil.h"

static char *out; /* what the last command printed */

/* Runs `tessera ARGS` (printf-style) under a time limit; its exit code,
 * 124 when it hung, -1 when a signal killed it. */
static int tess(const char *fmt, ...)
{
    char args[4096], cmd[4400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "timeout -s KILL 120 '%s' %s", TESSERA_BINARY, args);
    free(out);
    out = NULL;
    int rc = test_run_shell(cmd, &out);
    CU_ASSERT(rc >= 0 && rc < 124); /* no crash, no hang */
    return rc;
}

static bool said(const char *what)
{
    bool ok = out && strstr(out, what);
    if (!ok)
        fprintf(stderr, "expected '%s' in:\n%s\n", what, out ? out : "(nothing)");
    return ok;
}

/* "<scratch dir>/name" in buffers of this file's own (test_tmp_path's are
 * reused by every command run). */
static const char *tmp(const char *name)
{
    static char buf[16][512];
    static int k;
    char *b = buf[k++ % 16];
    snprintf(b, sizeof buf[0], "%s/%s", test_tmp_dir(), name);
    return b;
}

static bool exists(const char *path) { return access(path, F_OK) == 0; }

static bool sidecars(const char *path)
{
    char a[1024], b[1024], c[1024];
    snprintf(a, sizeof a, "%s-wal", path);
    snprintf(b, sizeof b, "%s-shm", path);
    snprintf(c, sizeof c, "%s-journal", path);
    bool any = exists(a) || exists(b) || exists(c);
    if (any)
        fprintf(stderr, "%s: a -wal, -shm or -journal was left beside it\n", path);
    return any;
}

/* A file's bytes, to compare (NULL: it does not exist). */
typedef struct snap {
    uint8_t *bytes;
    size_t len;
} snap_t;

static snap_t take(const char *path)
{
    snap_t s = {NULL, 0};
    s.bytes = test_read_file(path, &s.len);
    return s;
}

static bool same(snap_t *before, const char *path)
{
    snap_t now = take(path);
    bool eq = before->bytes && now.bytes && before->len == now.len &&
              !memcmp(before->bytes, now.bytes, now.len);
    if (!eq)
        fprintf(stderr, "%s changed\n", path);
    free(now.bytes);
    free(before->bytes);
    before->bytes = NULL;
    return eq;
}

static const char *ex(const char *name)
{
    static char buf[4][512];
    static int k;
    char *b = buf[k++ % 4];
    snprintf(b, sizeof buf[0], "examples/%s", name);
    return test_src_path(b);
}

static int record(const char *db, const char *prog)
{
    return tess("run '%s' --db '%s' -s sim.progress=off", ex(prog), db);
}

static const char *path_in(const char *dir, const char *name)
{
    static char buf[8][1024];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, sizeof buf[0], "%s/%s", dir, name);
    return b;
}

/* A fresh tmpfs at a new directory; "" when it cannot be mounted. */
static const char *mount_tmpfs(const char *name)
{
    static char dirs[4][512];
    static int k;
    char *dir = dirs[k++ % 4];
    snprintf(dir, sizeof dirs[0], "%s", tmp(name));
    mkdir(dir, 0755);
    if (mount("tmpfs", dir, "tmpfs", 0, "size=64m") != 0) {
        fprintf(stderr, "cannot mount a tmpfs at %s (this test needs root): %m\n", dir);
        CU_FAIL("mount tmpfs");
        return "";
    }
    return dir;
}

static bool remount_ro(const char *dir)
{
    bool ok = mount("tmpfs", dir, "tmpfs", MS_REMOUNT | MS_RDONLY, "size=64m") == 0;
    if (!ok)
        fprintf(stderr, "cannot remount %s read-only: %m\n", dir);
    CU_ASSERT(ok);
    return ok;
}

/* The immutable attribute: nobody, root included, may write the file. */
static bool set_immutable(const char *path, bool on)
{
    int fd = open(path, O_RDONLY);
    int flags = 0;
    bool ok = fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
    flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
    ok = ok && ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
    if (!ok)
        fprintf(stderr, "cannot set the immutable attribute of %s: %m\n", path);
    if (fd >= 0)
        close(fd);
    CU_ASSERT(ok);
    return ok;
}

/* --- class 2: many writers ------------------------------------------------------ */

/* Starts n `tessera run` at once on `db` and waits for all; the number that
 * exited 0. */
static int concurrent_runs(const char *db, const char *prog, int n)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -f rc.*; for i in $(seq %d); do"
             " (timeout -s KILL 120 '%s' run '%s' --db '%s' -s sim.progress=off"
             " >out.$i 2>&1; echo $? > rc.$i) & done; wait; cat rc.* | grep -c '^0$'",
             test_tmp_dir(), n, TESSERA_BINARY, ex(prog), db);
    char *o = NULL;
    test_run_shell(cmd, &o);
    int ok = o ? atoi(o) : -1;
    if (ok != n) {
        snprintf(cmd, sizeof cmd, "cd '%s' && head -n 3 out.*", test_tmp_dir());
        char *why = NULL;
        test_run_shell(cmd, &why);
        fprintf(stderr, "%d of %d runs failed:\n%s\n", n - ok, n, why ? why : "");
        free(why);
    }
    free(o);
    return ok;
}

static void test_eight_writers_create_one_database(void)
{
    for (int trial = 0; trial < 4; trial++) {
        const char *db = tmp("new8.db");
        unlink(db);
        CU_ASSERT_EQUAL(concurrent_runs(db, "example1.s", 8), 8);
        CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), 8);
        CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(DISTINCT run_id) FROM frames"), 8);
        CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA integrity_check"), 1);
        CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    }
}

static void test_eight_writers_append_to_one_database(void)
{
    const char *db = tmp("old8.db");
    unlink(db);
    CU_ASSERT_EQUAL_FATAL(record(db, "example2.s"), 0);
    for (int trial = 0; trial < 2; trial++)
        CU_ASSERT_EQUAL(concurrent_runs(db, "matmul.s", 8), 8);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), 17);
    CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA integrity_check"), 1);
}

/* A version-1 file (no analysis views) migrated by many writers at once:
 * one of them migrates, every run lands, the views exist once. */
static void test_eight_writers_migrate_one_database(void)
{
    const char *db = tmp("v1x8.db");
    unlink(db);
    CU_ASSERT_EQUAL_FATAL(record(db, "example1.s"), 0);
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
    /* as version 1 wrote it: no analysis views, none of version 3's additions;
     * then an old definition of one view (a version bump must replace it,
     * not keep it as CREATE … IF NOT EXISTS would) and a view of the user's
     * own, which must survive */
    sqlite3_stmt *st = NULL;
    CU_ASSERT_EQUAL(sqlite3_prepare_v2(h, "SELECT group_concat('DROP VIEW ' || name || ';', '')"
                                          " FROM sqlite_master WHERE type = 'view'"
                                          " AND name <> 'sm_accesses'", -1, &st, NULL), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_ROW);
    CU_ASSERT_EQUAL(sqlite3_exec(h, (const char *)sqlite3_column_text(st, 0), NULL, NULL, NULL),
                    SQLITE_OK);
    sqlite3_finalize(st);
    CU_ASSERT_EQUAL(sqlite3_exec(h, "DROP TABLE races; DROP TABLE intervals; ALTER TABLE runs DROP COLUMN stop_ps;"
                                    " ALTER TABLE runs DROP COLUMN uid; DROP TABLE slot_counts;"
                                    " ALTER TABLE simt_warps DROP COLUMN stall_fetch_cycles;"
                                    " ALTER TABLE simt_warps DROP COLUMN stall_collector_cycles;"
                                    " ALTER TABLE simt_warps DROP COLUMN max_groups;"
                                    " ALTER TABLE simt_warps DROP COLUMN barriers;"
                                    " ALTER TABLE simt_warps DROP COLUMN stall_barrier_cycles;"
                                    " DROP TABLE event_packs; DROP TABLE event_names;"
                                    " DROP TABLE simt_issue_packs;"
                                    " DROP TABLE simt_op_names; DROP TABLE simt_mem_packs;"
                                    " CREATE TABLE events(run_id INTEGER NOT NULL REFERENCES runs"
                                    " ON DELETE CASCADE, seq INTEGER NOT NULL,"
                                    " time_ps INTEGER NOT NULL, prio INTEGER, name TEXT);"
                                    " CREATE VIEW task_latency AS SELECT 1 AS stale;"
                                    " CREATE VIEW my_view AS SELECT run_id FROM runs;"
                                    " PRAGMA user_version = 1", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    CU_ASSERT_EQUAL(concurrent_runs(db, "example1.s", 8), 8);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), 9);
    CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM run_summary"), 9);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'task_latency'"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM pragma_table_info('task_latency')"
                                    " WHERE name = 'total_cycles'"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM task_latency_percentiles"), 9);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM my_view"), 9);
    CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA integrity_check"), 1);
}

/* Readers while writers append: every reader and every writer succeeds. */
static void test_readers_during_writers(void)
{
    const char *db = tmp("rw.db");
    unlink(db);
    CU_ASSERT_EQUAL_FATAL(record(db, "example2.s"), 0);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -f rrc.*; T='%s'; for i in 1 2 3 4; do"
             " (timeout -s KILL 120 $T run '%s' --db '%s' -s sim.progress=off >/dev/null 2>&1;"
             " echo $? > rrc.w$i) &"
             " (timeout -s KILL 120 $T report '%s' --run 1 >/dev/null 2>&1; echo $? > rrc.r$i) &"
             " (timeout -s KILL 120 $T timeline '%s' --run 1 -o tl$i.svg >/dev/null 2>&1;"
             " echo $? > rrc.t$i) & done; wait; cat rrc.* | grep -c '^0$'",
             test_tmp_dir(), TESSERA_BINARY, ex("matmul.s"), db, db, db);
    char *o = NULL;
    test_run_shell(cmd, &o);
    CU_ASSERT_EQUAL(o ? atoi(o) : -1, 12);
    free(o);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), 5);
    CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA integrity_check"), 1);
}

/* Several merges into one new output at once, each from its own shard. */
static void test_concurrent_merges_into_one_output(void)
{
    char cmd[4096];
    for (int i = 0; i < 4; i++) {
        char name[32];
        snprintf(name, sizeof name, "cm-shard%d.db", i);
        unlink(tmp(name));
        CU_ASSERT_EQUAL_FATAL(record(tmp(name), i % 2 ? "example1.s" : "example2.s"), 0);
    }
    const char *outdb = tmp("cm-out.db");
    unlink(outdb);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -f mrc.*; for i in 0 1 2 3; do"
             " (timeout -s KILL 120 '%s' merge cm-out.db cm-shard$i.db >/dev/null 2>&1;"
             " echo $? > mrc.$i) & done; wait; cat mrc.* | grep -c '^0$'",
             test_tmp_dir(), TESSERA_BINARY);
    char *o = NULL;
    test_run_shell(cmd, &o);
    CU_ASSERT_EQUAL(o ? atoi(o) : -1, 4);
    free(o);
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM runs"), 4);
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM merged_runs"), 4);
    CU_ASSERT_EQUAL(test_db_int(outdb, "PRAGMA integrity_check"), 1);
}

/* --- class 6: reading what you may not write ---------------------------------------- */

/* Every reader of `db` succeeds and writes its output in `outdir`; nothing
 * is left beside the database (when `clean`). */
static void every_reader_works(const char *db, const char *outdir, bool clean)
{
    CU_ASSERT_EQUAL(tess("report '%s'", db), 0);
    CU_ASSERT_TRUE(said("Run 1 of"));
    CU_ASSERT_EQUAL(tess("report '%s' --compare --format csv", db), 0);
    CU_ASSERT_EQUAL(tess("timeline '%s' -o '%s'", db, path_in(outdir, "t.svg")), 0);
    CU_ASSERT_EQUAL(tess("export '%s' --perfetto '%s' --vcd '%s'", db,
                         path_in(outdir, "t.json"), path_in(outdir, "t.vcd")), 0);
    CU_ASSERT_TRUE(exists(path_in(outdir, "t.json")) && exists(path_in(outdir, "t.vcd")));
    const char *merged = path_in(outdir, "merged.db");
    unlink(merged);
    CU_ASSERT_EQUAL(tess("merge '%s' '%s'", merged, db), 0);
    CU_ASSERT_TRUE(said("1 run merged"));
    CU_ASSERT_EQUAL(test_db_int(merged, "SELECT count(*) FROM frames"), 8);
    if (clean)
        CU_ASSERT_FALSE(sidecars(db));
}

static void test_readers_on_an_unwritable_file(void)
{
    const char *dir = mount_tmpfs("immut");
    if (!*dir)
        return;
    const char *db = path_in(dir, "colleague.db");
    CU_ASSERT_EQUAL_FATAL(record(db, "example1.s"), 0);
    CU_ASSERT_FALSE(sidecars(db));
    snap_t before = take(db);
    if (set_immutable(db, true)) {
        every_reader_works(db, test_tmp_dir(), true);
        /* and a writer is refused with a message, not a crash */
        CU_ASSERT_EQUAL(record(db, "example2.s"), 5);
        CU_ASSERT_TRUE(said("colleague.db"));
        CU_ASSERT_TRUE(same(&before, db));
        set_immutable(db, false);
    }
    free(before.bytes);
    umount(dir);
}

static void test_readers_on_a_read_only_file_system(void)
{
    const char *dir = mount_tmpfs("rofs");
    if (!*dir)
        return;
    const char *db = path_in(dir, "ro.db");
    CU_ASSERT_EQUAL_FATAL(record(db, "example1.s"), 0);
    snap_t before = take(db);
    if (remount_ro(dir)) {
        every_reader_works(db, test_tmp_dir(), true);
        CU_ASSERT_TRUE(same(&before, db));
        /* a merge into an output there is refused, and names it */
        CU_ASSERT_EQUAL(tess("merge '%s' '%s'", path_in(dir, "out.db"), db), 5);
        CU_ASSERT_TRUE(said("out.db"));
        CU_ASSERT_FALSE(exists(path_in(dir, "out.db")));
    }
    free(before.bytes);
    umount(dir);
}

/* Leaves `db` as a writer killed after a commit leaves it: the commit in the
 * -wal, not in the file. */
static void kill_after_commit(const char *db)
{
    pid_t pid = fork();
    if (pid == 0) {
        sqlite3 *h = NULL;
        if (sqlite3_open(db, &h) == SQLITE_OK &&
            sqlite3_exec(h, "PRAGMA wal_autocheckpoint = 0;"
                            " UPDATE runs SET program = 'committed-in-the-wal'",
                         NULL, NULL, NULL) == SQLITE_OK)
            _exit(0); /* killed before closing: the -wal keeps the commit */
        _exit(1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CU_ASSERT_EQUAL(WEXITSTATUS(st), 0);
}

/* A writer killed with its last transaction in the -wal, then the file
 * system made read-only: readers see what was committed, through the
 * -wal and -shm that are there; without the -shm they say why they cannot. */
static void test_read_only_file_system_with_a_pending_wal(void)
{
    const char *dir = mount_tmpfs("rowal");
    if (!*dir)
        return;
    const char *db = path_in(dir, "wal.db");
    CU_ASSERT_EQUAL_FATAL(record(db, "example1.s"), 0);
    kill_after_commit(db);
    CU_ASSERT_TRUE(exists(path_in(dir, "wal.db-wal")));
    snap_t before = take(db), wal = take(path_in(dir, "wal.db-wal"));
    if (remount_ro(dir)) {
        CU_ASSERT_EQUAL(tess("report '%s' --format csv", db), 0);
        CU_ASSERT_TRUE(said("committed-in-the-wal"));
        CU_ASSERT_EQUAL(tess("timeline '%s' -o '%s'", db, tmp("w.svg")), 0);
        const char *merged = tmp("wal-merged.db");
        unlink(merged);
        CU_ASSERT_EQUAL(tess("merge '%s' '%s'", merged, db), 0);
        CU_ASSERT_EQUAL(test_db_int(merged, "SELECT count(*) FROM runs"
                                            " WHERE program = 'committed-in-the-wal'"), 1);
        CU_ASSERT_TRUE(same(&before, db));
        CU_ASSERT_TRUE(same(&wal, path_in(dir, "wal.db-wal")));
    }
    free(before.bytes);
    free(wal.bytes);
    umount(dir);
    /* the same without the -shm: a clear refusal naming the -wal */
    dir = mount_tmpfs("rowal2");
    if (!*dir)
        return;
    db = path_in(dir, "wal.db");
    CU_ASSERT_EQUAL_FATAL(record(db, "example1.s"), 0);
    kill_after_commit(db);
    unlink(path_in(dir, "wal.db-shm"));
    before = take(db);
    if (remount_ro(dir)) {
        CU_ASSERT_EQUAL(tess("report '%s'", db), 5);
        CU_ASSERT_TRUE(said("wal.db-wal) holds commits"));
        CU_ASSERT_EQUAL(tess("merge '%s' '%s'", tmp("wal-merged2.db"), db), 5);
        CU_ASSERT_TRUE(said("wal.db-wal) holds commits"));
        CU_ASSERT_TRUE(same(&before, db));
    }
    free(before.bytes);
    umount(dir);
}

/* The owner's own file, writable: readers leave no -wal/-shm behind, and
 * clear those a read-only open of someone else left. */
static void test_readers_leave_no_side_files(void)
{
    const char *db = tmp("own.db");
    unlink(db);
    CU_ASSERT_EQUAL_FATAL(record(db, "example1.s"), 0);
    CU_ASSERT_FALSE(sidecars(db));
    every_reader_works(db, test_tmp_dir(), true);
    /* a shard that is also the target of concurrent reading stays sound */
    CU_ASSERT_EQUAL(test_db_int(db, "PRAGMA integrity_check"), 1);
}

/* --- class 7: merging in-progress runs, foreign schemas, odd paths ------------------ */

/* `shard` copied to `copy` as it looked while its run was in progress: status
 * 'running', no end, only the first frames recorded. */
static void make_in_progress_copy(const char *shard, const char *copy)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", shard, copy);
    CU_ASSERT_EQUAL_FATAL(test_run_shell(cmd, NULL), 0);
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(copy, &h), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_exec(h, "UPDATE runs SET status = 'running', finished_at = NULL,"
                                    " end_ps = NULL, wall_s = NULL, events = NULL;"
                                    " DELETE FROM frames WHERE frame > 3;"
                                    " DELETE FROM counters", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
}

static void test_merge_in_progress_then_finished_keeps_one_run(void)
{
    char shard[512], early[512], outdb[512];
    snprintf(shard, sizeof shard, "%s", tmp("prog-shard.db"));
    snprintf(early, sizeof early, "%s", tmp("prog-early.db"));
    snprintf(outdb, sizeof outdb, "%s", tmp("prog-out.db"));
    unlink(shard), unlink(early), unlink(outdb);
    CU_ASSERT_EQUAL_FATAL(record(shard, "example1.s"), 0);
    make_in_progress_copy(shard, early);
    CU_ASSERT_EQUAL(tess("merge '%s' '%s'", outdb, early), 0);
    CU_ASSERT_TRUE(said("1 run merged (run 1)"));
    CU_ASSERT_TRUE(said("still 'running'"));
    CU_ASSERT_EQUAL(tess("merge '%s' '%s'", outdb, shard), 0);
    CU_ASSERT_TRUE(said("1 finished run replacing its in-progress copy"));
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM runs"), 1);
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM runs WHERE run_id = 1"
                                       " AND status = 'ok' AND end_ps IS NOT NULL"), 1);
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM frames"), 8);
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM counters") > 0, 1);
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM merged_runs"), 1);
    /* again, in either order: nothing changes, the finished copy stays */
    snap_t before = take(outdb);
    CU_ASSERT_EQUAL(tess("merge '%s' '%s' '%s'", outdb, shard, early), 0);
    CU_ASSERT_TRUE(said("1 already in the output"));
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM runs WHERE status = 'ok'"), 1);
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM frames"), 8);
    free(before.bytes);
    /* finished first, then the in-progress copy: it is skipped */
    const char *out2 = tmp("prog-out2.db");
    unlink(out2);
    CU_ASSERT_EQUAL(tess("merge '%s' '%s' '%s'", out2, shard, early), 0);
    CU_ASSERT_EQUAL(test_db_int(out2, "SELECT count(*) FROM runs"), 1);
    CU_ASSERT_EQUAL(test_db_int(out2, "SELECT count(*) FROM runs WHERE status = 'ok'"), 1);
    CU_ASSERT_EQUAL(test_db_int(outdb, "PRAGMA integrity_check"), 1);
}

/* A real run merged while it is being written, then again once it ended. */
static void test_merge_a_run_while_it_is_written(void)
{
    char shard[512], outdb[512];
    snprintf(shard, sizeof shard, "%s", tmp("live-shard.db"));
    snprintf(outdb, sizeof outdb, "%s", tmp("live-out.db"));
    unlink(shard), unlink(outdb);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd '%s'; '%s' run '%s' --db '%s' -s sim.progress=off >/dev/null 2>&1 & pid=$!;"
             " for i in $(seq 400); do [ -s '%s-wal' ] && break; sleep 0.01; done;"
             " timeout -s KILL 120 '%s' merge '%s' '%s' > live1.txt 2>&1; echo \"m1 $?\";"
             " wait $pid; echo \"run $?\";"
             " timeout -s KILL 120 '%s' merge '%s' '%s' > live2.txt 2>&1; echo \"m2 $?\"",
             test_tmp_dir(), TESSERA_BINARY, ex("bench.s"), shard, shard, TESSERA_BINARY, outdb,
             shard,
             TESSERA_BINARY, outdb, shard);
    char *o = NULL;
    test_run_shell(cmd, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_PTR_NOT_NULL(strstr(o, "m1 0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(o, "run 0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(o, "m2 0"));
    free(o);
    /* whether the first merge saw the run in progress or not at all, the
     * output holds it once, finished, with all its rows */
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM runs"), 1);
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM runs WHERE status = 'ok'"), 1);
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM sm_access_packs"),
                    test_db_int(shard, "SELECT count(*) FROM sm_access_packs"));
    CU_ASSERT_EQUAL(test_db_int(outdb, "PRAGMA integrity_check"), 1);
}

/* A shard that a run has only created (an empty file: SQLite reads it as a
 * database with no application id and no schema object) holds no run yet:
 * merging it names it and touches nothing, as for a database with no runs;
 * the window in which `tessera run` leaves its file so is short, which the
 * live merge above hits now and then. */
static void test_merge_a_shard_being_created(void)
{
    char shard[512], outdb[512];
    snprintf(shard, sizeof shard, "%s", tmp("new-shard.db"));
    snprintf(outdb, sizeof outdb, "%s", tmp("new-out.db"));
    unlink(outdb);
    FILE *f = fopen(shard, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fclose(f);
    CU_ASSERT_EQUAL(tess("merge '%s' '%s'", outdb, shard), 0);
    CU_ASSERT_TRUE(said("empty, nothing merged"));
    CU_ASSERT_FALSE(exists(outdb));
    struct stat st;
    CU_ASSERT(stat(shard, &st) == 0 && st.st_size == 0);
    /* with a real shard after it, that one is merged */
    const char *real = tmp("new-real.db");
    unlink(real);
    CU_ASSERT_EQUAL_FATAL(record(real, "example1.s"), 0);
    CU_ASSERT_EQUAL(tess("merge '%s' '%s' '%s'", outdb, shard, real), 0);
    CU_ASSERT_EQUAL(test_db_int(outdb, "SELECT count(*) FROM runs"), 1);
    /* a file that is not a database at all is still refused */
    CU_ASSERT_EQUAL(tess("merge '%s' '%s'", outdb, ex("example1.s")), 6);
    CU_ASSERT_TRUE(said("not a Tessera database"));
}

/* Files with Tessera's application id but tables that are not Tessera's. */
static void make_foreign(const char *path, int version, const char *sql)
{
    unlink(path);
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &h), SQLITE_OK);
    char all[1024];
    snprintf(all, sizeof all, "PRAGMA application_id = %d; PRAGMA user_version = %d; %s",
             DB_APP_ID, version, sql);
    CU_ASSERT_EQUAL(sqlite3_exec(h, all, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
}

static void test_foreign_schema_with_our_id_is_refused_untouched(void)
{
    char newer[64];
    snprintf(newer, sizeof newer, "newer than this Tessera's (%d)", DB_SCHEMA_VERSION);
    const struct {
        const char *name;
        int version;
        const char *sql, *message;
    } cases[] = {
        {"f-v2.db", 2, "CREATE TABLE runs(x); CREATE TABLE mine(a, b);", "has no column"},
        {"f-v1.db", 1, "CREATE TABLE notes(t TEXT); INSERT INTO notes VALUES('keep');",
         "has no column"},
        {"f-cols.db", 2,
         "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, program TEXT);", "has no column"},
        {"f-v0.db", 0, "CREATE TABLE t(x);", "not one Tessera ever wrote"},
        {"f-newer.db", DB_SCHEMA_VERSION + 1, "CREATE TABLE t(x);",
         newer},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *db = tmp(cases[i].name);
        make_foreign(db, cases[i].version, cases[i].sql);
        snap_t before = take(db);
        CU_ASSERT_EQUAL(record(db, "example1.s"), 6);
        CU_ASSERT_TRUE(said(cases[i].name) && said(cases[i].message));
        CU_ASSERT_EQUAL(tess("report '%s'", db), 6);
        CU_ASSERT_TRUE(said(cases[i].message));
        CU_ASSERT_EQUAL(tess("timeline '%s' -o '%s'", db, tmp("f.svg")), 6);
        CU_ASSERT_EQUAL(tess("merge '%s' '%s'", db, ex("../no-such-shard.db")), 6);
        CU_ASSERT_TRUE(said(cases[i].message));
        const char *outdb = tmp("f-out.db");
        unlink(outdb);
        CU_ASSERT_EQUAL(tess("merge '%s' '%s'", outdb, db), 6); /* as a shard */
        CU_ASSERT_TRUE(said(cases[i].message));
        CU_ASSERT_TRUE(same(&before, db));
        CU_ASSERT_FALSE(sidecars(db));
    }
}

/* Paths that are not regular files, given as the database to any command. */
static void test_paths_that_are_not_databases(void)
{
    char fifo[512], dirlink[512], dir[512];
    snprintf(fifo, sizeof fifo, "%s", tmp("pipe.db"));
    snprintf(dirlink, sizeof dirlink, "%s", tmp("dirlink.db"));
    snprintf(dir, sizeof dir, "%s", tmp("adir.db"));
    unlink(fifo), unlink(dirlink), rmdir(dir);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0644), 0);
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
    CU_ASSERT_EQUAL_FATAL(symlink(dir, dirlink), 0);
    static const struct {
        const char *what;
        const char *message;
    } kinds[] = {{"/dev/null", "is a character device, not a database"},
                 {NULL, "is a FIFO, not a database"},
                 {NULL, "is a directory, not a database"},
                 {NULL, "is a directory, not a database"}};
    const char *paths[] = {"/dev/null", fifo, dir, dirlink};
    bool had_journal = exists("/dev/null-journal");
    for (int i = 0; i < 4; i++) {
        const char *p = paths[i], *msg = kinds[i].message;
        CU_ASSERT_EQUAL(record(p, "example1.s"), 5);
        CU_ASSERT_TRUE(said(p) && said(msg));
        CU_ASSERT_EQUAL(tess("report '%s'", p), 5);
        CU_ASSERT_TRUE(said(msg));
        CU_ASSERT_EQUAL(tess("timeline '%s' -o '%s'", p, tmp("n.svg")), 5);
        CU_ASSERT_TRUE(said(msg));
        CU_ASSERT_EQUAL(tess("export '%s' --perfetto '%s'", p, tmp("n.json")), 5);
        CU_ASSERT_EQUAL(tess("merge '%s' '%s'", p, ex("example1.s")), 5);
        CU_ASSERT_TRUE(said(msg));
        const char *outdb = tmp("n-out.db");
        unlink(outdb);
        CU_ASSERT_EQUAL(tess("merge '%s' '%s'", outdb, p), 5);
        CU_ASSERT_TRUE(said(msg));
    }
    CU_ASSERT_EQUAL(exists("/dev/null-journal"), had_journal);
    CU_ASSERT_FALSE(exists(path_in(dir, "-journal")));
    struct stat st;
    CU_ASSERT(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    CU_ASSERT(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    unlink(fifo), unlink(dirlink), rmdir(dir);
}

int main(void)
{
    static const test_case_t writers[] = {
        TEST(test_eight_writers_create_one_database),
        TEST(test_eight_writers_append_to_one_database),
        TEST(test_eight_writers_migrate_one_database),
        TEST(test_readers_during_writers),
        TEST(test_concurrent_merges_into_one_output),
        TEST_END,
    };
    static const test_case_t readers[] = {
        TEST(test_readers_on_an_unwritable_file),
        TEST(test_readers_on_a_read_only_file_system),
        TEST(test_read_only_file_system_with_a_pending_wal),
        TEST(test_readers_leave_no_side_files),
        TEST_END,
    };
    static const test_case_t merging[] = {
        TEST(test_merge_in_progress_then_finished_keeps_one_run),
        TEST(test_merge_a_run_while_it_is_written),
        TEST(test_foreign_schema_with_our_id_is_refused_untouched),
        TEST(test_merge_a_shard_being_created),
        TEST(test_paths_that_are_not_databases),
        TEST_END,
    };
    static const test_suite_t suites[] = {
        {"class 2: many writers", writers},
        {"class 6: reading what you may not write", readers},
        {"class 7: merging, foreign schemas, paths", merging},
        {NULL, NULL},
    };
    int rc = test_run_suites(suites);
    free(out);
    return rc;
}

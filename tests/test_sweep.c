/* test_sweep.c — `tessera sweep` and `tessera merge` end to end: the points
 * of a sweep and their results against separate runs, failing points,
 * --emit run by /bin/sh and by GNU parallel, merging (renumbering, counts
 * per table, idempotence, refused shards), the points limit, rejected -s
 * arguments and SIGTERM during a sweep. Runs the built binary; reads the
 * databases with SQLite. */
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/testutil.h"

/* A task that never ends: the watchdog (core.budget) or a signal stops it.
 * It reads the SM in its loop: a loop that touches nothing outside its core
 * runs ahead of the event loop (decoupled timing), where no signal is seen. */
static const char loop_s[] = ".group cores=0x0001 fence=no\n"
                             "  set_const r8, 1\n"
                             "  set_const r9, 0\n"
                             "loop:\n"
                             "  ld [r9, r9], r10\n"
                             "  bnz loop, r8\n";

static const char *const tables[] = {"runs",       "params",          "counters", "frames",
                                     "stalls",     "core_tasks",      "sm_access_packs",
                                     "events",     "sm_accesses"};
#define N_TABLES (sizeof tables / sizeof tables[0])

/* --- helpers ----------------------------------------------------------------- */

/* Paths kept in the caller's buffer: test_tmp_path()'s rotating buffers are
 * reused by every command a test runs. */
typedef char path_t[512];

static const char *tmp_at(path_t out, const char *name)
{
    snprintf(out, sizeof(path_t), "%s", test_tmp_path(name));
    return out;
}

static const char *src_at(path_t out, const char *rel)
{
    snprintf(out, sizeof(path_t), "%s", test_src_path(rel));
    return out;
}

/* The first column of the first row of `sql` on `db` as text (malloc'd;
 * "" for NULL or no row), or NULL when the query fails. */
static char *q_text(const char *db, const char *sql)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    char *res = NULL;
    if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
        int rc = sqlite3_step(st);
        const char *t = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : "";
        if (rc == SQLITE_ROW || rc == SQLITE_DONE)
            res = strdup(t ? t : "");
    }
    if (!res)
        fprintf(stderr, "query failed on %s: %s: %s\n", db, sql, sqlite3_errmsg(h));
    sqlite3_finalize(st);
    sqlite3_close(h);
    return res;
}

static long long q_int(const char *db, const char *sql)
{
    char *t = q_text(db, sql);
    long long v = t ? atoll(t) : -1;
    free(t);
    return v;
}

/* Runs `tessera ARGS`; prints the output when the exit code is unexpected. */
static int tessera_expect(const char *args, int want, char **out)
{
    char *o = NULL;
    int rc = test_run_tessera(args, &o);
    if (rc != want)
        fprintf(stderr, "\ntessera %s -> %d (expected %d)\n%s\n", args, rc, want, o ? o : "");
    if (out)
        *out = o;
    else
        free(o);
    return rc;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Nothing like "NAME.sweep-*" left next to it. */
static bool no_sweep_dir(const char *db)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "ls -d '%s'.sweep-* 2>/dev/null | grep -q .", db);
    return test_run_shell(cmd, NULL) != 0;
}

/* runs and params of every run, in run_id order, as one text. */
static char *results(const char *db)
{
    return q_text(db, "SELECT group_concat(x, ' | ') FROM (SELECT run_id || ':' || status || ':'"
                      " || coalesce(end_ps, 'null') || ':' || events || ':' || "
                      "(SELECT group_concat(key || '=' || value, ',') FROM"
                      "  (SELECT key, value FROM params AS p WHERE p.run_id = r.run_id"
                      "   ORDER BY key)) AS x FROM runs AS r ORDER BY run_id)");
}

/* Every counter of every run, in order, as one text. */
static char *counters(const char *db)
{
    return q_text(db, "SELECT group_concat(run_id || component || name || '=' || value, ',')"
                      " FROM (SELECT * FROM counters ORDER BY run_id, component, name)");
}

static long long count(const char *db, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    return q_int(db, sql);
}

static void assert_intact(const char *db)
{
    char *ok = q_text(db, "PRAGMA integrity_check");
    CU_ASSERT_STRING_EQUAL(ok ? ok : "(null)", "ok");
    free(ok);
}

static const char *loop_prog(void)
{
    const char *p = test_tmp_path("loop.s");
    if (!exists(p))
        test_write_file(p, loop_s, sizeof loop_s - 1);
    return p;
}

/* --- sweeps ---------------------------------------------------------------------- */

/* 2 x 2 points: 4 runs in point order, the same results as 4 separate runs. */
static void test_sweep_2x2_matches_separate_runs(void)
{
    path_t prog, db, sep;
    src_at(prog, "examples/example2.s");
    tmp_at(db, "grid.db"), tmp_at(sep, "grid-sep.db");
    static const char *const points[4][2] = {
        {"fixed", "high"}, {"fixed", "interleaved"}, {"rr", "high"}, {"rr", "interleaved"}};
    char args[4096];
    char *out = NULL;
    snprintf(args, sizeof args,
             "sweep '%s' -s sm.arbiter=fixed,rr -s sm.bank_map=high,interleaved --jobs 3"
             " --db '%s'", prog, db);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "4 points: 4 ok, 0 failed"));
    CU_ASSERT(out && strstr(out, "(runs 1-4)"));
    free(out);
    for (int k = 0; k < 4; k++) {
        snprintf(args, sizeof args, "run '%s' -s sm.arbiter=%s -s sm.bank_map=%s --db '%s'"
                 " --quiet", prog, points[k][0], points[k][1], sep);
        CU_ASSERT_EQUAL(tessera_expect(args, 0, NULL), 0);
    }
    CU_ASSERT_EQUAL(count(db, "runs"), 4);
    for (int k = 0; k < 4; k++) {
        char sql[256];
        snprintf(sql, sizeof sql,
                 "SELECT group_concat(value, ',') FROM (SELECT value FROM params"
                 " WHERE run_id = %d AND key IN ('sm.arbiter', 'sm.bank_map') ORDER BY key)",
                 k + 1);
        char *got = q_text(db, sql), want[64];
        snprintf(want, sizeof want, "%s,%s", points[k][0], points[k][1]);
        CU_ASSERT_STRING_EQUAL(got ? got : "", want);
        free(got);
    }
    char *a = results(db), *b = results(sep), *ca = counters(db), *cb = counters(sep);
    CU_ASSERT_STRING_EQUAL(a ? a : "a", b ? b : "b");
    CU_ASSERT_STRING_EQUAL(ca ? ca : "a", cb ? cb : "b");
    CU_ASSERT_EQUAL(count(db, "sm_accesses"), count(sep, "sm_accesses"));
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(DISTINCT end_ps) FROM runs"), 3);
    free(a), free(b), free(ca), free(cb);
    assert_intact(db);
    CU_ASSERT_TRUE(no_sweep_dir(db));
}

/* A watchdog point is reported with its point and its message; the other
 * point still runs, and both runs are merged with their status. */
static void test_sweep_failing_point_kept(void)
{
    path_t db, prog;
    char args[4096];
    char *out = NULL;
    snprintf(args, sizeof args, "sweep '%s' -s core.budget=10,100000000 --jobs 2 --db '%s'",
             src_at(prog, "examples/example2.s"), tmp_at(db, "fail.db"));
    CU_ASSERT_EQUAL(tessera_expect(args, 3, &out), 3);
    CU_ASSERT(out && strstr(out, "point 1/2 (core.budget=10) failed: exit 3"));
    CU_ASSERT(out && strstr(out, "exceeded its budget"));
    CU_ASSERT(out && strstr(out, "1 ok, 1 failed"));
    free(out);
    char *st = q_text(db, "SELECT group_concat(status, ',') FROM"
                          " (SELECT status FROM runs ORDER BY run_id)");
    CU_ASSERT_STRING_EQUAL(st ? st : "", "watchdog,ok");
    free(st);
    assert_intact(db);
    CU_ASSERT_TRUE(no_sweep_dir(db));
}

/* --emit: one self-contained command per point; /bin/sh runs them, merge
 * folds their shards into what the sweep itself gives. */
static void test_emit_run_by_sh_then_merge(void)
{
    path_t prog, ref, db, cmds;
    src_at(prog, "examples/example2.s");
    tmp_at(ref, "emit-ref.db"), tmp_at(db, "emit.db"), tmp_at(cmds, "emit.sh");
    char args[4096], *out = NULL;
    const char *axes = "-s sm.arbiter=fixed,rr,fifo -s 'sm.bank=1;choice:1,2' -s sim.seed=7";
    snprintf(args, sizeof args, "sweep '%s' %s --db '%s' --emit > '%s'", prog, axes, db, cmds);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, NULL), 0);
    CU_ASSERT_FALSE(exists(db));  /* nothing run, nothing created */
    char *text = (char *)test_read_file(cmds, NULL);
    int lines = 0;
    for (char *p = text; p && *p; p++)
        lines += *p == '\n';
    CU_ASSERT_EQUAL(lines, 6);
    CU_ASSERT(text && strstr(text, " run /"));
    CU_ASSERT(text && strstr(text, "-s sm.bank=choice:1,2 -s sim.seed=7"));
    CU_ASSERT(text && strstr(text, "emit-shard-6.db"));
    free(text);
    snprintf(args, sizeof args, "sh -e '%s' > /dev/null", cmds);
    CU_ASSERT_EQUAL(test_run_shell(args, NULL), 0);
    snprintf(args, sizeof args, "merge '%s' '%s'/emit-shard-*.db", db, test_tmp_dir());
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "emit-shard-6.db: 1 run merged (run 6)"));
    free(out);
    snprintf(args, sizeof args, "sweep '%s' %s --db '%s'", prog, axes, ref);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, NULL), 0);
    char *a = results(ref), *b = results(db);
    CU_ASSERT_STRING_EQUAL(a ? a : "a", b ? b : "b");
    free(a), free(b);
    assert_intact(db);
}

/* The same through GNU parallel, two jobs at a time. */
static void test_emit_through_gnu_parallel(void)
{
    if (test_run_shell("command -v parallel", NULL) != 0) {
        test_skip("GNU parallel is not installed (scripts/setup.sh)");
        return;
    }
    path_t prog, ref, db;
    src_at(prog, "examples/matadd.s");
    tmp_at(ref, "par-ref.db"), tmp_at(db, "par.db");
    char cmd[4096];
    const char *axes = "-s sm.arbiter=fixed,rr -s core.timing=decoupled,stepped";
    snprintf(cmd, sizeof cmd,
             "'%s' sweep '%s' %s --db '%s' --emit | parallel --will-cite -j2 > /dev/null"
             " && '%s' merge '%s' '%s'/par-shard-*.db",
             TESSERA_BINARY, prog, axes, db, TESSERA_BINARY, db, test_tmp_dir());
    char *out = NULL;
    int rc = test_run_shell(cmd, &out);
    if (rc != 0)
        fprintf(stderr, "\n%s -> %d\n%s\n", cmd, rc, out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    snprintf(cmd, sizeof cmd, "sweep '%s' %s --db '%s'", prog, axes, ref);
    CU_ASSERT_EQUAL(tessera_expect(cmd, 0, NULL), 0);
    CU_ASSERT_EQUAL(count(db, "runs"), 4);
    char *a = results(ref), *b = results(db);
    CU_ASSERT_STRING_EQUAL(a ? a : "a", b ? b : "b");
    free(a), free(b);
    assert_intact(db);
}

/* The comma rule: a `choice:` keeps the commas up to the next `form:`; a
 * list with a `;` is split on `;` only. */
static void test_value_lists(void)
{
    static const struct { const char *s; const char *values[4]; } lists[] = {
        {"'sm.bank=1, choice:1,1,8 ,uniform:1..4'", {"1", "choice:1,1,8", "uniform:1..4"}},
        {"'sm.bank=choice:1,8,choice:2,3'", {"choice:1,8", "choice:2,3"}},
        {"'sm.bank=choice:1,8;4'", {"choice:1,8", "4"}},
        {"sm.bank=2", {"2"}},
    };
    path_t prog, db;
    src_at(prog, "examples/example2.s");
    tmp_at(db, "lists.db");
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        char args[4096], *out = NULL;
        snprintf(args, sizeof args, "sweep '%s' -s %s --db '%s' --emit", prog, lists[i].s, db);
        CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
        const char *p = out ? out : "";
        size_t n = 0;
        for (; n < 4 && lists[i].values[n]; n++) {
            char want[64];
            snprintf(want, sizeof want, " -s sm.bank=%s --db", lists[i].values[n]);
            const char *at = strstr(p, want);
            CU_ASSERT_PTR_NOT_NULL(at);
            if (!at)
                fprintf(stderr, "\n%s: no '%s' in\n%s\n", lists[i].s, want, out);
            p = at ? at + 1 : p;
        }
        int lines = 0;
        for (const char *c = out; c && *c; c++)
            lines += *c == '\n';
        CU_ASSERT_EQUAL((size_t)lines, n);
        free(out);
    }
}

/* --progress prints the progress line even when stderr is not a terminal. */
static void test_progress_line(void)
{
    path_t prog, db;
    char args[4096], *out = NULL;
    snprintf(args, sizeof args, "sweep '%s' -s sm.arbiter=fixed,rr --db '%s' --progress",
             src_at(prog, "examples/example2.s"), tmp_at(db, "progress.db"));
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "sweep: 2/2 points, 0 failed"));
    CU_ASSERT(out && strstr(out, "elapsed, ETA"));
    free(out);
    snprintf(args, sizeof args, "sweep '%s' -s sm.arbiter=fifo,random --db '%s'", prog, db);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "ETA") : NULL);
    free(out);
    CU_ASSERT_EQUAL(count(db, "runs"), 4);
}

/* scripts/parallel-sweep.sh on this machine, and scripts/slurm-sweep.sbatch
 * with the array index Slurm would set. */
static void test_scripts(void)
{
    if (test_run_shell("command -v parallel && command -v bash", NULL) != 0) {
        test_skip("GNU parallel or bash is not installed");
        return;
    }
    path_t prog, db, ref, slurm, dir;
    char cmd[4096], *out = NULL;
    src_at(prog, "examples/example2.s");
    tmp_at(db, "script.db"), tmp_at(ref, "script-ref.db"), tmp_at(slurm, "slurm.db");
    snprintf(dir, sizeof dir, "%s", test_tmp_dir());
    const char *axes = "-s sm.arbiter=fixed,rr -s sm.bank_map=high,interleaved";
    snprintf(cmd, sizeof cmd, "TESSERA='%s' sh '%s' -j 2 '%s' '%s' %s", TESSERA_BINARY,
             test_src_path("scripts/parallel-sweep.sh"), db, prog, axes);
    CU_ASSERT_EQUAL(test_run_shell(cmd, &out), 0);
    CU_ASSERT(out && strstr(out, "script-shard-4.db: 1 run merged (run 4)"));
    free(out);
    snprintf(cmd, sizeof cmd, "sweep '%s' %s --db '%s'", prog, axes, ref);
    CU_ASSERT_EQUAL(tessera_expect(cmd, 0, NULL), 0);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' sweep '%s' %s --db '%s' --emit > slurm.cmds && for i in 1 2; do"
             " SLURM_ARRAY_TASK_ID=$i POINTS_PER_TASK=2 bash '%s' slurm.cmds || exit 1; done"
             " && '%s' merge '%s' slurm-shard-*.db",
             dir, TESSERA_BINARY, prog, axes, slurm,
             test_src_path("scripts/slurm-sweep.sbatch"), TESSERA_BINARY, slurm);
    CU_ASSERT_EQUAL(test_run_shell(cmd, &out), 0);
    free(out);
    char *a = results(ref), *b = results(db), *c = results(slurm);
    CU_ASSERT_STRING_EQUAL(a ? a : "a", b ? b : "b");
    CU_ASSERT_STRING_EQUAL(a ? a : "a", c ? c : "c");
    free(a), free(b), free(c);
}

/* --- merging ------------------------------------------------------------------------ */

/* Builds shard `name` with one run per element of `settings` (each a -s list). */
static const char *make_shard(path_t db, const char *name, const char *const *settings,
                              int n)
{
    path_t prog;
    tmp_at(db, name);
    src_at(prog, "examples/example2.s");
    for (int i = 0; i < n; i++) {
        char args[4096];
        snprintf(args, sizeof args, "run '%s' %s --db '%s' --quiet", prog, settings[i], db);
        CU_ASSERT_EQUAL(tessera_expect(args, 0, NULL), 0);
    }
    return db;
}

/* Run ids follow the output's sequence; counts per table are the sums. */
static void test_merge_renumbers_and_sums(void)
{
    static const char *const s1[] = {"-s record.level=events", "-s sm.arbiter=rr"};
    static const char *const s2[] = {"-s record.level=tasks", "-s sm.bank_map=interleaved",
                                     "-s record.level=events -s sm.req=2"};
    static const char *const s0[] = {""};
    path_t a, b, o;
    char args[4096];
    make_shard(a, "m-a.db", s1, 2);
    make_shard(b, "m-b.db", s2, 3);
    make_shard(o, "m-out.db", s0, 1);
    long long before[N_TABLES];
    for (size_t t = 0; t < N_TABLES; t++)
        before[t] = count(o, tables[t]);
    char *out = NULL;
    snprintf(args, sizeof args, "merge '%s' '%s' '%s'", o, a, b);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "m-a.db: 2 runs merged (runs 2-3)"));
    CU_ASSERT(out && strstr(out, "m-b.db: 3 runs merged (runs 4-6)"));
    free(out);
    for (size_t t = 0; t < N_TABLES; t++) {
        long long want = before[t] + count(a, tables[t]) + count(b, tables[t]);
        CU_ASSERT_EQUAL(count(o, tables[t]), want);
        if (count(o, tables[t]) != want)
            fprintf(stderr, "\n%s: %lld, expected %lld\n", tables[t], count(o, tables[t]), want);
    }
    CU_ASSERT_TRUE(count(o, "events") > 0);
    /* run 5 of the output is run 2 of shard b, rows and all */
    CU_ASSERT_EQUAL(q_int(o, "SELECT shard_run_id FROM merged_runs WHERE run_id = 5"), 2);
    char *x = q_text(o, "SELECT group_concat(frame || ':' || core || ':' || grant_ps, ',') FROM"
                        " (SELECT * FROM sm_accesses WHERE run_id = 5 ORDER BY frame, core, idx)");
    char *y = q_text(b, "SELECT group_concat(frame || ':' || core || ':' || grant_ps, ',') FROM"
                        " (SELECT * FROM sm_accesses WHERE run_id = 2 ORDER BY frame, core, idx)");
    CU_ASSERT_STRING_EQUAL(x ? x : "x", y ? y : "y");
    free(x), free(y);
    CU_ASSERT_EQUAL(q_int(o, "SELECT count(*) FROM params WHERE run_id = 6 AND key = 'sm.req'"
                             " AND value = 2"), 1);
    CU_ASSERT_EQUAL(q_int(o, "PRAGMA application_id"), 0x54455353);
    CU_ASSERT_EQUAL(q_int(o, "PRAGMA user_version"), q_int(a, "PRAGMA user_version"));
    assert_intact(o);
}

/* Merging a shard again, or a run the output recorded itself, adds nothing. */
static void test_merge_twice_adds_nothing(void)
{
    static const char *const s1[] = {"-s sm.arbiter=fifo", "-s sm.arbiter=random"};
    path_t sh, o;
    char args[4096], *out = NULL;
    make_shard(sh, "twice-shard.db", s1, 2);
    tmp_at(o, "twice.db");
    snprintf(args, sizeof args, "merge '%s' '%s' '%s'", o, sh, sh);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "0 runs merged, 0 rows, 2 already in the output"));
    free(out);
    long long counts[N_TABLES];
    for (size_t t = 0; t < N_TABLES; t++)
        counts[t] = count(o, tables[t]);
    CU_ASSERT_EQUAL(counts[0], 2);
    snprintf(args, sizeof args, "merge '%s' '%s'", o, sh);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, NULL), 0);
    /* the output's own runs are known too: merging the output's copy back */
    snprintf(args, sizeof args, "cp '%s' '%s.copy' && '%s' merge '%s' '%s.copy'", o, o,
             TESSERA_BINARY, o, o);
    CU_ASSERT_EQUAL(test_run_shell(args, NULL), 0);
    for (size_t t = 0; t < N_TABLES; t++)
        CU_ASSERT_EQUAL(count(o, tables[t]), counts[t]);
    assert_intact(o);
}

/* Shards that are not Tessera databases, of another version, or missing
 * are refused by name; the output is untouched by them and the good shard
 * given with them still merges. */
static void test_merge_rejects_bad_shards(void)
{
    static const char *const s1[] = {""};
    path_t good, o, text, other, newer, dir;
    char args[4096], *out = NULL;
    make_shard(good, "good-shard.db", s1, 1);
    tmp_at(o, "rej.db"), tmp_at(text, "text.db"), tmp_at(other, "other.db");
    tmp_at(newer, "newer.db");
    snprintf(dir, sizeof dir, "%s", test_tmp_dir());
    test_write_file(text, "not a database\n", 15);
    sqlite3 *h = NULL;
    sqlite3_open(other, &h);
    sqlite3_exec(h, "CREATE TABLE runs(run_id INTEGER PRIMARY KEY)", NULL, NULL, NULL);
    sqlite3_close(h);
    snprintf(args, sizeof args, "cp '%s' '%s' && sqlite3 '%s' 'PRAGMA user_version = 99'", good,
             newer, newer);
    CU_ASSERT_EQUAL(test_run_shell(args, NULL), 0);
    snprintf(args, sizeof args, "merge '%s' '%s'", o, good);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, NULL), 0);
    const char *bad[] = {text, other, newer};
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "merge '%s' '%s'", o, bad[i]);
        CU_ASSERT_EQUAL(tessera_expect(args, 6, &out), 6);
        CU_ASSERT(out && strstr(out, bad[i]));
        free(out);
    }
    CU_ASSERT_EQUAL(count(o, "runs"), 1);
    snprintf(args, sizeof args, "merge '%s' '%s' '%s/missing.db'", o, text, dir);
    CU_ASSERT_EQUAL(tessera_expect(args, 6, NULL), 6);
    /* an output that is not a Tessera database is refused and left alone */
    size_t len0 = 0, len1 = 0;
    free(test_read_file(text, &len0));
    snprintf(args, sizeof args, "merge '%s' '%s'", text, good);
    CU_ASSERT_EQUAL(tessera_expect(args, 6, NULL), 6);
    free(test_read_file(text, &len1));
    CU_ASSERT_EQUAL(len0, len1);
    CU_ASSERT_EQUAL(count(o, "runs"), 1);
    assert_intact(o);
}

/* --- refusals before anything runs ----------------------------------------------- */

/* The (sm.req, sm.resp) pairs of the points an emitted sweep would run, as
 * "req/resp;req/resp;..." in order. */
static char *emitted_pairs(const char *extra)
{
    path_t db, prog;
    char args[4096], *out = NULL;
    snprintf(args, sizeof args, "sweep '%s' %s --db '%s' --emit", src_at(prog, "examples/first.s"),
             extra, tmp_at(db, "emit-pairs.db"));
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    char *pairs = calloc(1, 4096), *line = out;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        char *r = strstr(line, "-s sm.req="), *q = strstr(line, "-s sm.resp=");
        if (r && q)
            snprintf(pairs + strlen(pairs), 4096 - strlen(pairs), "%s%d/%d", *pairs ? ";" : "",
                     atoi(r + 10), atoi(q + 11));
        line = nl ? nl + 1 : NULL;
    }
    free(out);
    return pairs;
}

/* --zip: the zipped axes take their i-th values together (3 points, not 9);
 * an unzipped axis still multiplies them (the first -s varies slowest). */
static void test_zipped_sweep_points(void)
{
    char *p = emitted_pairs("-s sm.req=1,2,3 -s sm.resp=4,5,6 --zip sm.req,sm.resp");
    CU_ASSERT_STRING_EQUAL(p, "1/4;2/5;3/6");
    free(p);
    p = emitted_pairs("-s sm.req=1,2 -s sm.arbiter=fixed,rr -s sm.resp=7,8 --zip sm.req,sm.resp");
    CU_ASSERT_STRING_EQUAL(p, "1/7;1/7;2/8;2/8");
    free(p);
    char *out = NULL;
    path_t db, prog;
    char args[1024];
    /* run: the count first, then one ok run per zipped pair */
    snprintf(args, sizeof args, "sweep '%s' -s sm.req=1,2,3 -s sm.resp=4,5,6 --zip sm.req,sm.resp"
             " --db '%s'", src_at(prog, "examples/first.s"), tmp_at(db, "zip.db"));
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "sweep: 3 points to run (3 in the product)\n"));
    free(out);
    char *got = q_text(db, "SELECT group_concat(r || '/' || s, ';') FROM (SELECT"
                           " (SELECT value FROM params WHERE run_id = x.run_id AND key = 'sm.req') AS r,"
                           " (SELECT value FROM params WHERE run_id = x.run_id AND key = 'sm.resp') AS s"
                           " FROM runs AS x WHERE status = 'ok' ORDER BY run_id)");
    CU_ASSERT_STRING_EQUAL(got ? got : "", "1/4;2/5;3/6");
    free(got);
    snprintf(args, sizeof args, "sweep '%s' -s sm.req=1,2,3 -s sm.resp=4,5 --zip sm.req,sm.resp"
             " --db '%s' --emit", src_at(prog, "examples/first.s"), tmp_at(db, "zip-bad.db"));
    CU_ASSERT_EQUAL(tessera_expect(args, 2, &out), 2);
    CU_ASSERT(out && strstr(out, "sm.resp has 2 values, sm.req 3"));
    free(out);
    int n = snprintf(args, sizeof args,
                     "sweep '%s' -s sm.req=1,2 --zip sm.req,sm.bank --db '%s' --emit", prog, db);
    CU_ASSERT_TRUE_FATAL(n > 0 && (size_t)n < sizeof args);
    CU_ASSERT_EQUAL(tessera_expect(args, 2, &out), 2);
    CU_ASSERT(out && strstr(out, "sm.bank is not an axis"));
    free(out);
}

/* --sample N --seed S: N distinct points of the product, in product order,
 * the same for the same seed, others for another seed; --sample-seed
 * draws them without touching sim.seed; N above the product is refused. */
static void test_sampled_sweep_points(void)
{
    const char *axes = "-s sm.req=0,1,2,3,4,5,6,7,8,9 -s sm.resp=0,1,2,3,4,5,6,7,8,9 --sample 12";
    char a1[256], a2[256];
    snprintf(a1, sizeof a1, "%s --seed 5", axes);
    snprintf(a2, sizeof a2, "%s --seed 6", axes);
    char *p1 = emitted_pairs(a1), *p2 = emitted_pairs(a1), *p3 = emitted_pairs(a2);
    CU_ASSERT_STRING_EQUAL(p1, p2);
    CU_ASSERT_STRING_NOT_EQUAL(p1, p3);
    int n = 0, last = -1, distinct = 1;
    for (char *t = p1; t && *t; n++) {
        int point = atoi(t) * 10 + atoi(strchr(t, '/') + 1); /* its index in the product */
        distinct &= point > last; /* ascending: distinct, in product order */
        last = point;
        t = strchr(t, ';');
        t = t ? t + 1 : NULL;
    }
    CU_ASSERT_EQUAL(n, 12);
    CU_ASSERT_TRUE(distinct);
    free(p1), free(p2), free(p3);
    /* --sample-seed: another sample of the same model (sim.seed untouched);
     * without it, a --seed of one number seeds the sample and stays sim.seed */
    char b1[256], b2[256], b3[256];
    snprintf(b1, sizeof b1, "%s --sample-seed 5", axes);
    snprintf(b2, sizeof b2, "%s --seed 9 --sample-seed 5", axes);
    snprintf(b3, sizeof b3, "%s --seed 9 --sample-seed 6", axes);
    char *q0 = emitted_pairs(a1), *q1 = emitted_pairs(b1), *q2 = emitted_pairs(b2);
    char *q3 = emitted_pairs(b3);
    CU_ASSERT_STRING_EQUAL(q1, q0); /* --sample-seed 5 = --seed 5's sample */
    CU_ASSERT_STRING_EQUAL(q2, q0); /* sim.seed does not move the sample */
    CU_ASSERT_STRING_NOT_EQUAL(q3, q2);
    free(q0), free(q1), free(q2), free(q3);
    char *out0 = NULL, cmd0[4096];
    path_t db0, prog0;
    snprintf(cmd0, sizeof cmd0, "sweep '%s' %s --seed 9 --sample-seed 6 --db '%s' --emit",
             src_at(prog0, "examples/first.s"), axes, tmp_at(db0, "sample-seed.db"));
    CU_ASSERT_EQUAL(tessera_expect(cmd0, 0, &out0), 0);
    int with_seed = 0;
    for (char *t = out0; t && (t = strstr(t, " -s sim.seed=9 ")); t++)
        with_seed++;
    CU_ASSERT_EQUAL(with_seed, 12); /* every point runs with sim.seed = 9 */
    free(out0);
    snprintf(cmd0, sizeof cmd0, "sweep '%s' %s --sample-seed 6 --db '%s' --emit", prog0,
             axes, db0);
    CU_ASSERT_EQUAL(tessera_expect(cmd0, 0, &out0), 0);
    CU_ASSERT(!(out0 && strstr(out0, "sim.seed")));
    free(out0);
    snprintf(cmd0, sizeof cmd0, "sweep '%s' -s sm.req=1,2 --sample-seed 6 --db '%s' --emit",
             prog0, db0);
    CU_ASSERT_EQUAL(tessera_expect(cmd0, 1, &out0), 1);
    CU_ASSERT(out0 && strstr(out0, "--sample-seed needs --sample N"));
    free(out0);
    /* every point of a small product, when N is its size */
    char *all = emitted_pairs("-s sm.req=1,2 -s sm.resp=3,4 --sample 4 --seed 3");
    CU_ASSERT_STRING_EQUAL(all, "1/3;1/4;2/3;2/4");
    free(all);
    char *out = NULL, args[1024];
    path_t db, prog;
    snprintf(args, sizeof args, "sweep '%s' -s sm.req=1,2 --sample 3 --db '%s' --emit",
             src_at(prog, "examples/first.s"), tmp_at(db, "sample-bad.db"));
    CU_ASSERT_EQUAL(tessera_expect(args, 2, &out), 2);
    CU_ASSERT(out && strstr(out, "--sample 3: expected 1..2"));
    free(out);
}

/* --- resume ------------------------------------------------------------------------ */

/* Every point of the plan has exactly one 'ok' run in db: as many 'ok' runs
 * as distinct configurations, and as many as `points`. */
static void assert_one_ok_per_point(const char *db, long long points)
{
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), points);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(DISTINCT config) FROM runs WHERE status = 'ok'"),
                    points);
}

/* A sweep stopped by SIGINT after two points finished, run again: only the
 * points not ok run (the stopped one included), the stopped run is kept
 * with its status, and every point then has one 'ok' run; once more: 0
 * points run and nothing is added. The points are paced (sim.pace) so
 * that the signal finds the sweep at work; when it arrives does not
 * matter to what is checked. */
static void test_resume_after_interrupt(void)
{
    path_t db, prog;
    char cmd[4096], *out = NULL;
    tmp_at(db, "resume-int.db");
    src_at(prog, "examples/example2.s");
    const char *axes = "-s sm.bank=1,2,3,4,5,6 -s sim.pace=2000000";
    snprintf(cmd, sizeof cmd,
             "'%s' sweep '%s' %s --jobs 1 --db '%s' & p=$!; i=0;"
             " while [ $i -lt 1200 ] && [ \"$(sqlite3 -readonly '%s' \"SELECT count(*) FROM runs"
             " WHERE status = 'ok'\" 2>/dev/null || echo 0)\" -lt 2 ]; do sleep 0.05;"
             " i=$((i+1)); done; kill -INT $p; wait $p",
             TESSERA_BINARY, prog, axes, db, db);
    int rc = test_run_shell(cmd, &out);
    if (rc != 4)
        fprintf(stderr, "\n%s -> %d\n%s\n", cmd, rc, out ? out : "");
    CU_ASSERT_EQUAL(rc, 4);
    free(out);
    long long ok = q_int(db, "SELECT count(*) FROM runs WHERE status = 'ok'");
    long long stopped = q_int(db, "SELECT count(*) FROM runs WHERE status = 'interrupted'");
    CU_ASSERT_TRUE(ok >= 2 && ok < 6);
    CU_ASSERT_TRUE(stopped <= 1);
    CU_ASSERT_EQUAL(count(db, "runs"), ok + stopped);
    /* again: the missing points only */
    char args[4096], want[1024];
    snprintf(args, sizeof args, "sweep '%s' %s --jobs 2 --db '%s'", prog, axes, db);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    snprintf(want, sizeof want, "sweep: 6 points (6 in the product): %lld already ok in %s,"
             " running %lld\n", ok, db, 6 - ok);
    CU_ASSERT(out && strstr(out, want));
    snprintf(want, sizeof want, "sweep: %lld points: %lld ok, 0 failed", 6 - ok, 6 - ok);
    CU_ASSERT(out && strstr(out, want));
    if (!out || !strstr(out, want))
        fprintf(stderr, "\nexpected '%s' in: %s\n", want, out);
    free(out);
    assert_one_ok_per_point(db, 6);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM runs WHERE status = 'interrupted'"), stopped);
    CU_ASSERT_EQUAL(count(db, "runs"), 6 + stopped);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM latest_ok_runs WHERE ok_runs = 1"), 6);
    CU_ASSERT_EQUAL(q_int(db, "SELECT sum(runs) FROM latest_ok_runs"), 6 + stopped);
    /* and again: nothing to run, nothing added, no directory made */
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "6 already ok in"));
    CU_ASSERT(out && strstr(out, "running 0\n"));
    CU_ASSERT(!(out && strstr(out, "merged")));
    free(out);
    CU_ASSERT_EQUAL(count(db, "runs"), 6 + stopped);
    assert_intact(db);
    CU_ASSERT_TRUE(no_sweep_dir(db));
}

/* A point that failed (watchdog) is run again and its failed run kept; a
 * changed base setting (a fixed -s, the --config file) makes every point
 * new; --rerun runs every point anyway. */
static void test_resume_what_counts(void)
{
    path_t db, prog, ini;
    char args[4096], *out = NULL;
    tmp_at(db, "resume-key.db"), tmp_at(ini, "resume.ini");
    src_at(prog, "examples/example2.s");
    snprintf(args, sizeof args, "sweep '%s' -s core.budget=10,100000000 --db '%s'", prog, db);
    CU_ASSERT_EQUAL(tessera_expect(args, 3, NULL), 3);
    CU_ASSERT_EQUAL(tessera_expect(args, 3, &out), 3); /* the watchdog point again */
    CU_ASSERT(out && strstr(out, "1 already ok in"));
    CU_ASSERT(out && strstr(out, "running 1\n"));
    CU_ASSERT(out && strstr(out, "point 1/2 (core.budget=10) failed"));
    free(out);
    char *st = q_text(db, "SELECT group_concat(status, ',') FROM"
                          " (SELECT status FROM runs ORDER BY run_id)");
    CU_ASSERT_STRING_EQUAL(st ? st : "", "watchdog,ok,watchdog");
    free(st);
    /* a fixed -s that changes nothing but the configuration: both points new */
    snprintf(args, sizeof args, "sweep '%s' -s core.budget=100000000,200000000 -s sm.req=2"
             " --db '%s'", prog, db);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "sweep: 2 points to run"));
    free(out);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "2 already ok in"));
    free(out);
    /* the same value from a --config file is the same point; another is not */
    test_write_file(ini, "[sm]\nreq = 2\n", 12);
    snprintf(args, sizeof args, "sweep '%s' -s core.budget=100000000,200000000 --config '%s'"
             " --db '%s'", prog, ini, db);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "2 already ok in"));
    free(out);
    test_write_file(ini, "[sm]\nreq = 3\n", 12);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "sweep: 2 points to run"));
    CU_ASSERT(out && strstr(out, "2 points: 2 ok"));
    free(out);
    long long runs = count(db, "runs");
    CU_ASSERT_EQUAL(runs, 7);
    /* --rerun: every point, a second ok run each */
    snprintf(args + strlen(args), sizeof args - strlen(args), " --rerun");
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT(out && strstr(out, "2 points: 2 ok"));
    free(out);
    CU_ASSERT_EQUAL(count(db, "runs"), runs + 2);
    /* latest_ok_runs: one row per point with an ok run (not the watchdog point), its
     * latest ok run (the two rerun points: runs 8 and 9), its runs and ok runs */
    char *pts = q_text(db, "SELECT group_concat(run_id || ':' || ok_runs || '/' || runs, ' ')"
                           " FROM (SELECT * FROM latest_ok_runs ORDER BY run_id)");
    CU_ASSERT_STRING_EQUAL(pts ? pts : "", "2:1/1 4:1/1 5:1/1 8:2/2 9:2/2");
    free(pts);
    assert_intact(db);
}

/* --emit after a partial sweep lists only the missing points, under their
 * shard numbers in the whole plan; running and merging them completes it. */
static void test_resume_emit(void)
{
    path_t db, prog, cmds;
    char args[4096], *out = NULL;
    tmp_at(db, "resume-emit.db"), tmp_at(cmds, "resume-emit.sh");
    src_at(prog, "examples/example2.s");
    const char *axes = "-s sm.arbiter=fixed,rr -s sm.bank=1,2";
    snprintf(args, sizeof args, "sweep '%s' %s --db '%s' --emit > '%s' && head -n 3 '%s' | sed 1d"
             " | sh -e > /dev/null && '%s' merge --quiet '%s' '%s'/resume-emit-shard-*.db",
             prog, axes, db, cmds, cmds, TESSERA_BINARY, db, test_tmp_dir());
    CU_ASSERT_EQUAL(tessera_expect(args, 0, NULL), 0); /* points 2 and 3 ran */
    CU_ASSERT_EQUAL(count(db, "runs"), 2);
    snprintf(args, sizeof args, "sweep '%s' %s --db '%s' --emit", prog, axes, db);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    int lines = 0;
    for (char *p = out; p && *p; p++)
        lines += *p == '\n';
    CU_ASSERT_EQUAL(lines, 3); /* two commands and the count on stderr */
    CU_ASSERT(out && strstr(out, "4 points (4 in the product): 2 already ok in"));
    CU_ASSERT(out && strstr(out, "emitting 2\n"));
    CU_ASSERT(out && strstr(out, "-s sm.arbiter=fixed -s sm.bank=1 --db "));
    CU_ASSERT(out && strstr(out, "resume-emit-shard-1.db\n"));
    CU_ASSERT(out && strstr(out, "-s sm.arbiter=rr -s sm.bank=2 --db "));
    CU_ASSERT(out && strstr(out, "resume-emit-shard-4.db\n"));
    CU_ASSERT(!(out && strstr(out, "shard-2.db")));
    free(out);
    snprintf(args, sizeof args, "sweep '%s' %s --db '%s' --emit 2>/dev/null | sh -e > /dev/null"
             " && '%s' merge --quiet '%s' '%s'/resume-emit-shard-*.db", prog, axes, db,
             TESSERA_BINARY, db, test_tmp_dir());
    CU_ASSERT_EQUAL(tessera_expect(args, 0, NULL), 0);
    assert_one_ok_per_point(db, 4);
    CU_ASSERT_EQUAL(count(db, "runs"), 4);
    snprintf(args, sizeof args, "sweep '%s' %s --db '%s' --emit 2>/dev/null | wc -l", prog, axes,
             db);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT_EQUAL(out ? atoi(out) : -1, 0);
    free(out);
    snprintf(args, sizeof args, "sweep '%s' %s --db '%s' --emit --rerun 2>/dev/null | wc -l",
             prog, axes, db);
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT_EQUAL(out ? atoi(out) : -1, 4);
    free(out);
    assert_intact(db);
}

static void test_points_limit(void)
{
    path_t db, prog;
    char args[4096], *out = NULL;
    snprintf(args, sizeof args,
             "sweep '%s' -s \"sim.seed=$(seq -s, 1 101)\" -s \"sm.req=$(seq -s, 0 99)\""
             " --allow-inert --db '%s'", src_at(prog, "examples/example2.s"), tmp_at(db, "huge.db"));
    CU_ASSERT_EQUAL(tessera_expect(args, 2, &out), 2);
    CU_ASSERT(out && strstr(out, "10100 points refused"));
    CU_ASSERT(out && strstr(out, "raise it with --force, or run fewer points with "
                                              "--zip or --sample N"));
    free(out);
    CU_ASSERT_FALSE(exists(db));
    CU_ASSERT_TRUE(no_sweep_dir(db));
    /* forced: accepted (emitted here, not run) */
    snprintf(args + strlen(args), sizeof args - strlen(args),
             " --force --emit 2>/dev/null | wc -l"); /* (--allow-inert's warning: stderr) */
    CU_ASSERT_EQUAL(tessera_expect(args, 0, &out), 0);
    CU_ASSERT_EQUAL(out ? atoi(out) : 0, 10100);
    free(out);
    CU_ASSERT_FALSE(exists(db));
}

static void test_bad_settings_rejected_before_running(void)
{
    static const struct { const char *s, *expect; } bad[] = {
        {"-s sm.arbiter=fixed,lifo", "-s 'sm.arbiter=fixed,lifo'"},
        {"-s sm.nokey=1,2", "unknown key"},
        {"-s sm.bank=1,0", "-s 'sm.bank=1,0'"},
        {"-s sm.bank=1,,2", "empty value"},
        {"-s sm.bank=1, ", "empty value"},
        {"-s sm.bank=1,choice:1,x", "-s 'sm.bank=1,choice:1,x'"},
        {"-s sm.bank=1 -s sm.req=1 -s sm.bank=2", "already set"},
        {"-s nodot", "expected section.key"},
        {"-s record.from_ps=0,100 -s record.to_ps=50", "point 2 (sm.arbiter=rr record.from_ps=100)"},
    };
    path_t db, loop, bad_s, dir;
    tmp_at(db, "bad.db");
    snprintf(loop, sizeof loop, "%s", loop_prog());
    snprintf(dir, sizeof dir, "%s", test_tmp_dir());
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[4096], *out = NULL;
        snprintf(args, sizeof args, "sweep '%s' -s sm.arbiter=rr,fifo %s --db '%s'",
                 loop, bad[i].s, db);
        if (i == 0)  /* the same key may not be swept twice either */
            snprintf(args, sizeof args, "sweep '%s' %s --db '%s'", loop, bad[i].s, db);
        CU_ASSERT_EQUAL(tessera_expect(args, 2, &out), 2);
        CU_ASSERT(out && strstr(out, bad[i].expect));
        if (!out || !strstr(out, bad[i].expect))
            fprintf(stderr, "\n%s: expected '%s' in: %s\n", bad[i].s, bad[i].expect, out);
        free(out);
    }
    char args[4096];
    snprintf(args, sizeof args, "sweep '%s/none.s' -s sm.bank=1,2 --db '%s'", dir,
             db);
    CU_ASSERT_EQUAL(tessera_expect(args, 5, NULL), 5);
    tmp_at(bad_s, "bad.s");
    test_write_file(bad_s, "frobnicate r1\n", 14);
    snprintf(args, sizeof args, "sweep '%s' -s sm.bank=1,2 --db '%s'", bad_s, db);
    CU_ASSERT_EQUAL(tessera_expect(args, 2, NULL), 2);
    snprintf(args, sizeof args, "sweep '%s' -s sm.bank=1,2 --jobs 0 --db '%s'", loop, db);
    CU_ASSERT_EQUAL(tessera_expect(args, 1, NULL), 1);
    snprintf(args, sizeof args, "sweep '%s' -s sm.bank=1,2", loop);
    CU_ASSERT_EQUAL(tessera_expect(args, 1, NULL), 1);
    CU_ASSERT_FALSE(exists(db));
    CU_ASSERT_TRUE(no_sweep_dir(db));
}

/* SIGTERM: no new point, the running ones record 'interrupted', exit 4. */
static void test_sigterm_stops_and_merges(void)
{
    path_t db, loop;
    char cmd[4096], *out = NULL;
    tmp_at(db, "term.db");
    snprintf(loop, sizeof loop, "%s", loop_prog());
    snprintf(cmd, sizeof cmd,
             "'%s' sweep '%s' -s sim.seed=1,2,3,4,5 -s core.budget=1000000000000"
             " -s sim.wall_limit=30 -s record.level=summary --allow-inert --jobs 2 --db '%s'"
             " & p=$!;"
             " sleep 1; kill -TERM $p; wait $p",
             TESSERA_BINARY, loop, db);
    int rc = test_run_shell(cmd, &out);
    CU_ASSERT_EQUAL(rc, 4);
    CU_ASSERT(out && strstr(out, "3 not run"));
    CU_ASSERT(out && strstr(out, "2 interrupted"));
    if (rc != 4)
        fprintf(stderr, "\n%s -> %d\n%s\n", cmd, rc, out ? out : "");
    free(out);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM runs WHERE status = 'interrupted'"), 2);
    CU_ASSERT_EQUAL(count(db, "runs"), 2);
    assert_intact(db);
    CU_ASSERT_TRUE(no_sweep_dir(db));
}

static const test_case_t sweep_cases[] = {
    TEST(test_sweep_2x2_matches_separate_runs),
    TEST(test_sweep_failing_point_kept),
    TEST(test_emit_run_by_sh_then_merge),
    TEST(test_emit_through_gnu_parallel),
    TEST(test_value_lists),
    TEST(test_progress_line),
    TEST(test_scripts),
    TEST(test_points_limit),
    TEST(test_zipped_sweep_points),
    TEST(test_sampled_sweep_points),
    TEST(test_bad_settings_rejected_before_running),
    TEST(test_sigterm_stops_and_merges),
    TEST(test_resume_after_interrupt),
    TEST(test_resume_what_counts),
    TEST(test_resume_emit),
    TEST_END,
};

static const test_case_t merge_cases[] = {
    TEST(test_merge_renumbers_and_sums),
    TEST(test_merge_twice_adds_nothing),
    TEST(test_merge_rejects_bad_shards),
    TEST_END,
};

int main(void)
{
    static const test_suite_t suites[] = {
        {"sweep", sweep_cases},
        {"merge", merge_cases},
        {NULL, NULL},
    };
    return test_run_suites(suites);
}

/* testutil.c — shared support of the CUnit test programs (see testutil.h). */
#include "tests/testutil.h"

#include <CUnit/Basic.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/store/views.h"
#include "events/base/err.h"

static char tmp_dir[512];
static unsigned skipped; /* tests that called test_skip, for test_run_suites */

/* Which cases this process runs: TESSERA_TEST_FILTER and TESSERA_TEST_SHARD. */
typedef struct {
    const char *filter;  /* a substring of the names, or NULL */
    unsigned shard, of;  /* the cases at positions shard, shard + of, ... */
    unsigned position;   /* of the next case, over all suites */
} selection_t;

/* Reads TESSERA_TEST_SHARD ("k/n", 0 <= k < n; unset: 0/1). */
static bool read_shard(selection_t *sel)
{
    const char *v = getenv("TESSERA_TEST_SHARD");
    sel->shard = 0;
    sel->of = 1;
    if (!v)
        return true;
    char tail;
    if (sscanf(v, "%u/%u%c", &sel->shard, &sel->of, &tail) != 2 || sel->of == 0 ||
        sel->shard >= sel->of) {
        fprintf(stderr, "TESSERA_TEST_SHARD=%s: expected k/n with 0 <= k < n\n", v);
        return false;
    }
    return true;
}

static int add_suite(const test_suite_t *s, selection_t *sel)
{
    CU_pSuite suite = CU_add_suite(s->name, NULL, NULL);
    if (!suite)
        return -1;
    for (const test_case_t *c = s->cases; c->name; c++) {
        if (sel->filter && !strstr(c->name, sel->filter))
            continue;
        if (sel->position++ % sel->of != sel->shard)
            continue;
        if (!CU_add_test(suite, c->name, c->fn))
            return -1;
    }
    return 0;
}

int test_run_suites(const test_suite_t *suites)
{
    selection_t sel = {.filter = getenv("TESSERA_TEST_FILTER")};
    if (!read_shard(&sel) || CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    for (const test_suite_t *s = suites; s->name; s++) {
        if (add_suite(s, &sel) != 0) {
            fprintf(stderr, "cannot register suite %s\n", s->name);
            CU_cleanup_registry();
            return 1;
        }
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (run == 0 && !sel.filter && sel.of == 1) {
        fprintf(stderr, "no test ran\n");
        return 1;
    }
    if (failed)
        return 1;
    if (skipped) {
        fprintf(stderr, "%u test(s) skipped\n", skipped);
        return TEST_SKIP_CODE;
    }
    return 0;
}

void test_skip(const char *why)
{
    fprintf(stderr, "\nSKIPPED: %s\n", why);
    skipped++;
}

static void remove_tmp_dir(void)
{
    if (!tmp_dir[0] || getenv("TESSERA_KEEP_TMP"))
        return;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "warning: could not remove %s\n", tmp_dir);
}

const char *test_tmp_dir(void)
{
    if (tmp_dir[0])
        return tmp_dir;
    const char *base = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/tessera-test-XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        abort();
    }
    atexit(remove_tmp_dir);
    return tmp_dir;
}

static char *rotating_buffer(void)
{
    static char bufs[8][1024];
    static unsigned next;
    return bufs[next++ % 8];
}

const char *test_tmp_path(const char *name)
{
    char *b = rotating_buffer();
    snprintf(b, 1024, "%s/%s", test_tmp_dir(), name);
    return b;
}

const char *test_src_path(const char *rel)
{
    char *b = rotating_buffer();
    snprintf(b, 1024, "%s/%s", TESSERA_SOURCE_DIR, rel);
    return b;
}

uint8_t *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

int test_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, len, f);
    return (fclose(f) == 0 && w == len) ? 0 : -1;
}

int test_run_shell(const char *cmd, char **out)
{
    const char *capture = test_tmp_path("last-command-output.txt");
    size_t need = strlen(cmd) + strlen(capture) + 32;
    char *full = malloc(need);
    if (!full)
        return -1;
    snprintf(full, need, "( %s\n) >'%s' 2>&1", cmd, capture); /* \n: cmd may end in a comment */
    int st = system(full);
    free(full);
    if (out)
        *out = (char *)test_read_file(capture, NULL);
    if (st == -1 || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

int test_run_tessera(const char *args, char **out)
{
    const char *wrapper = getenv("TESSERA_TEST_WRAPPER"); /* e.g. valgrind (scripts/memcheck.sh) */
    if (!wrapper)
        wrapper = "";
    size_t need = strlen(wrapper) + strlen(args) + strlen(TESSERA_BINARY) + 8;
    char *cmd = malloc(need);
    if (!cmd)
        return -1;
    snprintf(cmd, need, "%s '%s' %s", wrapper, TESSERA_BINARY, args);
    int st = test_run_shell(cmd, out);
    free(cmd);
    return st;
}

/* Prepares `sql` on `path` read-only; on a read-only file system a WAL
 * database opens only as immutable, so that is the fallback. */
static sqlite3_stmt *db_query(const char *path, const char *sql, sqlite3 **db)
{
    char uri[1100];
    snprintf(uri, sizeof uri, "file:%s?immutable=1", path);
    const char *names[2] = {path, uri};
    const int flags[2] = {SQLITE_OPEN_READONLY, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI};
    for (int i = 0; i < 2; i++) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_open_v2(names[i], db, flags[i], NULL) == SQLITE_OK &&
            sqlite3_prepare_v2(*db, sql, -1, &st, NULL) == SQLITE_OK)
            return st;
        if (i == 1)
            fprintf(stderr, "%s: %s: %s\n", path, sql, *db ? sqlite3_errmsg(*db) : "no handle");
        sqlite3_close(*db);
        *db = NULL;
    }
    return NULL;
}

int64_t test_db_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = db_query(path, sql, &db);
    int64_t v = -1;
    if (st && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_type(st, 0) == SQLITE_TEXT
                ? strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0
                : sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

char *test_db_text(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = db_query(path, sql, &db);
    char *v = NULL;
    if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        v = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

uint64_t test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* --- row dumps ---------------------------------------------------------------------- */

typedef struct dump {
    char *buf;
    size_t len, cap;
    int failed;
} dump_t;

static void dump_put(dump_t *d, const char *s)
{
    size_t n = strlen(s);
    if (d->len + n + 1 > d->cap) {
        size_t cap = (d->len + n + 1) * 2;
        char *b = realloc(d->buf, cap);
        if (!b) {
            d->failed = 1;
            return;
        }
        d->buf = b, d->cap = cap;
    }
    memcpy(d->buf + d->len, s, n + 1);
    d->len += n;
}

static int dump_skipped_column(const char *c)
{
    static const char *const skip[] = {"run_id", "config", "events", "wall_s", "started_at",
                                       "finished_at", "timing", "uid", NULL};
    for (int i = 0; skip[i]; i++)
        if (strcmp(c, skip[i]) == 0)
            return 1;
    return 0;
}

static int dump_skipped_relation(const char *name)
{
    static const char *const skip[] = {"sm_access_packs", "event_packs", "event_names",
                                       "simt_issue_packs", "simt_op_names", "simt_mem_packs",
                                       "events", "merged_runs", NULL};
    for (int i = 0; skip[i]; i++)
        if (strcmp(name, skip[i]) == 0)
            return 1;
    return 0;
}

/* The select of relation `name` for the dump, or "" when it has no run_id. */
static void dump_select(sqlite3 *db, const char *name, int64_t run_id, char *sql, size_t size)
{
    char q[256], cols[4096] = "";
    snprintf(q, sizeof q, "SELECT name FROM pragma_table_info('%s')", name);
    sqlite3_stmt *st = NULL;
    int has_run = 0, n = 0;
    if (sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *c = (const char *)sqlite3_column_text(st, 0);
            has_run |= strcmp(c, "run_id") == 0;
            if (dump_skipped_column(c))
                continue;
            size_t at = strlen(cols);
            snprintf(cols + at, sizeof cols - at, "%squote(\"%s\")", n++ ? " || '|' || " : "", c);
        }
    }
    sqlite3_finalize(st);
    sql[0] = 0;
    if (!has_run || !n)
        return;
    snprintf(sql, size, "SELECT %s FROM \"%s\" WHERE run_id = %lld%s ORDER BY 1", cols, name,
             (long long)run_id, strcmp(name, "params") == 0 ? " AND key <> 'core.timing'" : "");
}

char *test_db_dump(const char *path, int64_t run_id)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *rel = db_query(path, "SELECT name FROM sqlite_master WHERE type IN "
                                       "('table', 'view') AND name NOT LIKE 'sqlite%' "
                                       "ORDER BY name", &db);
    if (!rel)
        return NULL;
    dump_t d = {0};
    dump_put(&d, "");
    while (sqlite3_step(rel) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(rel, 0);
        char sql[5000];
        if (dump_skipped_relation(name))
            continue;
        dump_select(db, name, run_id, sql, sizeof sql);
        if (!sql[0])
            continue;
        dump_put(&d, "-- ");
        dump_put(&d, name);
        dump_put(&d, "\n");
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
            fprintf(stderr, "%s: %s: %s\n", path, sql, sqlite3_errmsg(db));
            d.failed = 1;
        }
        while (st && sqlite3_step(st) == SQLITE_ROW) {
            const char *row = (const char *)sqlite3_column_text(st, 0);
            dump_put(&d, row ? row : "NULL");
            dump_put(&d, "\n");
        }
        sqlite3_finalize(st);
    }
    sqlite3_finalize(rel);
    sqlite3_close(db);
    if (d.failed) {
        free(d.buf);
        return NULL;
    }
    return d.buf;
}

sqlite3 *test_db_open(const char *path)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
    if (rc != SQLITE_OK)
        fprintf(stderr, "%s: %s\n", path, db ? sqlite3_errmsg(db) : "no handle");
    CU_ASSERT_EQUAL_FATAL(rc, SQLITE_OK);
    return db;
}

sqlite3_stmt *test_db_prepare(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    return st;
}

/* `fmt` and its arguments prepared on the database at path (opened into *db). */
static sqlite3_stmt *q_prepare(const char *path, sqlite3 **db, const char *fmt, va_list ap)
{
    char sql[2048];
    vsnprintf(sql, sizeof sql, fmt, ap);
    *db = test_db_open(path);
    return test_db_prepare(*db, sql);
}

int64_t test_q_int(const char *path, const char *fmt, ...)
{
    sqlite3 *db;
    va_list ap;
    va_start(ap, fmt);
    sqlite3_stmt *st = q_prepare(path, &db, fmt, ap);
    va_end(ap);
    int64_t v = -999;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

const char *test_q_rows(const char *path, const char *fmt, ...)
{
    static char buf[8192];
    sqlite3 *db;
    va_list ap;
    va_start(ap, fmt);
    sqlite3_stmt *st = q_prepare(path, &db, fmt, ap);
    va_end(ap);
    size_t len = 0;
    buf[0] = 0;
    for (int r = 0; sqlite3_step(st) == SQLITE_ROW; r++)
        for (int c = 0; c < sqlite3_column_count(st) && len < sizeof buf; c++) {
            const unsigned char *t = sqlite3_column_text(st, c);
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
                                    c ? "," : r ? ";" : "", t ? (const char *)t : "NULL");
        }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return buf;
}

void test_db_drop_views(sqlite3 *h)
{
    for (const char *const *v = rec_view_names; *v; v++) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP VIEW %s", *v);
        CU_ASSERT_EQUAL(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    }
}

const char *test_fresh_path(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s", test_tmp_path(name));
    unlink(buf);
    return buf;
}

int test_record(const char *db, const char *prog, const char *opts)
{
    char args[2048];
    char *out = NULL;
    snprintf(args, sizeof args, "run '%s' --db '%s' --quiet %s", prog, db, opts ? opts : "");
    int rc = test_run_tessera(args, &out);
    if (rc != 0 && rc != TESS_EWATCHDOG)
        fprintf(stderr, "tessera %s: exit %d\n%s\n", args, rc, out ? out : "");
    free(out);
    return rc;
}

const char *test_record_once(const char *name, const char *prog, const char *text,
                             const char *opts, int also_ok)
{
    static char paths[16][1024];
    static char names[16][64];
    unsigned slot = 0;
    for (; slot < 16 && names[slot][0]; slot++)
        if (!strcmp(names[slot], name))
            return paths[slot];
    CU_ASSERT_FATAL(slot < 16);
    snprintf(names[slot], sizeof names[slot], "%s", name);
    snprintf(paths[slot], sizeof paths[slot], "%s", test_tmp_path(name));
    char src[1100], args[3200];
    snprintf(src, sizeof src, "%s", text ? paths[slot] : test_src_path(prog));
    if (text) {
        strcat(src, ".s");
        CU_ASSERT_EQUAL_FATAL(test_write_file(src, text, strlen(text)), 0);
    }
    snprintf(args, sizeof args, "run '%s' --quiet --db '%s' %s", src, paths[slot],
             opts ? opts : "");
    char *out = NULL;
    int rc = test_run_tessera(args, &out);
    if (rc != 0 && rc != also_ok)
        fprintf(stderr, "tessera %s → %d\n%s\n", args, rc, out ? out : "");
    CU_ASSERT_FATAL(rc == 0 || rc == also_ok);
    free(out);
    return paths[slot];
}

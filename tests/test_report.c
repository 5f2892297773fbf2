/* test_report.c — `tessera report` and the library behind it
 * (analysis/report.h): the CSV and JSON tables equal the analysis views
 * value for value, the text report shows the hand-computed numbers of the
 * spec's example 2, --compare shows exactly the parameters that differ,
 * and every error (missing file, foreign file, newer schema, no such run,
 * bad options) gives its message and exit code without creating or
 * modifying a file. */
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/recorder/rec.h"
#include "analysis/store/db.h"
#include "analysis/present/report.h"
#include "events/base/err.h"
#include "tests/simt_programs.h"
#include "tests/testutil.h"

/* --- recording and running ------------------------------------------------------- */


static void record(const char *db, const char *prog, const char *opts)
{
    CU_ASSERT_EQUAL_FATAL(test_record(db, prog, opts), 0);
}

/* The spec's example 2 with two-instruction tasks (tests/test_views.c has
 * its timeline): end at 41 cycles, 26 frame-cycles of waiting. */
static const char *example2_path(void)
{
    static char path[512];
    const char *src = ".group cores=0x0f0f fence=no\n set_const r8, 1\n.task\n set_const r8, 2\n"
                      ".task\n set_const r8, 3\n.task\n set_const r8, 4\n"
                      ".group cores=0xf0f0 fence=acq\n set_const r8, 5\n.task\n set_const r8, 6\n";
    if (!path[0]) {
        snprintf(path, sizeof path, "%s", test_tmp_path("ex2.s"));
        CU_ASSERT_EQUAL_FATAL(test_write_file(path, src, strlen(src)), 0);
    }
    return path;
}

/* `tessera report ARGS`: exit code, output (stdout and stderr) in *out. */
static int report_cli(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int report_cli(char **out, const char *fmt, ...)
{
    char args[2048] = "report ";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args + 7, sizeof args - 7, fmt, ap);
    va_end(ap);
    *out = NULL;
    int rc = test_run_tessera(args, out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*out);
    return rc;
}

static bool contains(const char *text, const char *what)
{
    bool ok = text && strstr(text, what);
    if (!ok)
        fprintf(stderr, "expected \"%s\" in:\n%s\n", what, text ? text : "(null)");
    return ok;
}

/* --- tables read back from CSV and JSON ----------------------------------------------- */

#define MAX_COLS 64

/* A table as the report wrote it: text cells, NULL for an empty or null value. */
typedef struct rtab {
    char name[64];
    int ncols;
    char *cols[MAX_COLS];
    char **cells;             /* nrows × ncols */
    size_t nrows;
} rtab_t;

static void rtab_free(rtab_t *t)
{
    for (size_t k = 0; k < t->nrows * (size_t)t->ncols; k++)
        free(t->cells[k]);
    for (int c = 0; c < t->ncols; c++)
        free(t->cols[c]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

static void rtab_add(rtab_t *t, char **fields, int n)
{
    CU_ASSERT_EQUAL(n, t->ncols);
    t->cells = realloc(t->cells, (t->nrows + 1) * (size_t)t->ncols * sizeof *t->cells);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t->cells);
    for (int c = 0; c < t->ncols; c++)
        t->cells[t->nrows * (size_t)t->ncols + (size_t)c] = c < n ? fields[c] : NULL;
    for (int c = t->ncols; c < n; c++)
        free(fields[c]);
    t->nrows++;
}

/* Splits one CSV record (RFC 4180, no newline inside fields) at *p; fields
 * are malloc'd, "" becomes NULL. Returns the number of fields. */
static int csv_record(const char **p, char **fields)
{
    int n = 0;
    const char *s = *p;
    for (;;) {
        char buf[4096];
        size_t len = 0;
        bool quoted = *s == '"';
        for (s += quoted; *s && len + 1 < sizeof buf; s++) {
            if (quoted && *s == '"' && s[1] == '"')
                buf[len++] = *s++;
            else if (quoted && *s == '"')
                quoted = false;
            else if (!quoted && (*s == ',' || *s == '\n'))
                break;
            else
                buf[len++] = *s;
        }
        buf[len] = 0;
        if (n < MAX_COLS)
            fields[n++] = len ? strdup(buf) : NULL;
        if (*s != ',')
            break;
        s++;
    }
    *p = *s == '\n' ? s + 1 : s;
    return n;
}

/* Reads the CSV table called `name` ("# name" line, header, rows up to a
 * blank line), or the whole text when name is NULL. */
static bool csv_table(const char *text, const char *name, rtab_t *t)
{
    memset(t, 0, sizeof *t);
    const char *p = text;
    if (name) {
        char mark[80];
        snprintf(mark, sizeof mark, "# %s\n", name);
        p = strstr(text, mark);
        if (!p)
            return false;
        p += strlen(mark);
    }
    snprintf(t->name, sizeof t->name, "%s", name ? name : "");
    char *fields[MAX_COLS];
    t->ncols = csv_record(&p, t->cols);
    while (*p && *p != '\n') {
        int n = csv_record(&p, fields);
        rtab_add(t, fields, n);
    }
    return t->ncols > 0;
}

/* Reads the member `name` of a JSON report, using SQLite's JSON functions. */
static bool json_table(const char *json, const char *name, rtab_t *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(":memory:", &db), SQLITE_OK);
    const char *sql = "SELECT r.key, c.key, c.type, c.atom FROM json_each(?1, ?2) AS r,"
                      " json_each(r.value) AS c ORDER BY r.key, c.id";
    CU_ASSERT_EQUAL_FATAL(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    char path[96];
    snprintf(path, sizeof path, "$.\"%s\"", name);
    sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    char *fields[MAX_COLS];
    int n = 0;
    long long row = -1;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_int64(st, 0) != row && row >= 0) {
            rtab_add(t, fields, n);
            n = 0;
        }
        row = sqlite3_column_int64(st, 0);
        if (t->nrows == 0 && n >= t->ncols && t->ncols < MAX_COLS)
            t->cols[t->ncols++] = strdup((const char *)sqlite3_column_text(st, 1));
        const char *type = (const char *)sqlite3_column_text(st, 2);
        char buf[64];
        if (!strcmp(type, "real"))
            snprintf(buf, sizeof buf, "%.17g", sqlite3_column_double(st, 3));
        const char *v = !strcmp(type, "real") ? buf : (const char *)sqlite3_column_text(st, 3);
        if (n < MAX_COLS)
            fields[n++] = strcmp(type, "null") ? strdup(v) : NULL;
    }
    if (row >= 0)
        rtab_add(t, fields, n);
    bool present = sqlite3_finalize(st) == SQLITE_OK;
    sqlite3_close(db);
    return present;
}

/* --- comparing with the views ------------------------------------------------------ */

/* The cell as written equals the view's value: same integer, the same
 * double (17 significant digits round-trip), same text, or both NULL. */
static bool same_value(sqlite3_stmt *st, int col, const char *cell)
{
    switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL:
        return cell == NULL;
    case SQLITE_INTEGER:
        return cell && strtoll(cell, NULL, 10) == sqlite3_column_int64(st, col) &&
               !strchr(cell, '.');
    case SQLITE_FLOAT:
        return cell && strtod(cell, NULL) == sqlite3_column_double(st, col);
    default:
        return cell && !strcmp(cell, (const char *)sqlite3_column_text(st, col));
    }
}

static int stmt_col(sqlite3_stmt *st, const char *name)
{
    for (int c = 0; c < sqlite3_column_count(st); c++)
        if (!strcmp(sqlite3_column_name(st, c), name))
            return c;
    return -1;
}

/* Every cell of t equals the column of the same name of `sql` (same rows,
 * same order); returns the number of cells compared. */
static size_t equals_view(const char *dbpath, const rtab_t *t, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    size_t row = 0, compared = 0;
    for (; row < t->nrows && sqlite3_step(st) == SQLITE_ROW; row++)
        for (int c = 0; c < t->ncols; c++) {
            int vc = stmt_col(st, t->cols[c]);
            const char *cell = t->cells[row * (size_t)t->ncols + (size_t)c];
            bool ok = vc >= 0 && same_value(st, vc, cell);
            if (!ok)
                fprintf(stderr, "%s row %zu %s: report '%s', view '%s'\n", t->name, row,
                        t->cols[c], cell ? cell : "NULL",
                        vc >= 0 ? (const char *)sqlite3_column_text(st, vc) : "(no column)");
            CU_ASSERT(ok);
            compared++;
        }
    CU_ASSERT_EQUAL(row, t->nrows);
    CU_ASSERT(sqlite3_step(st) != SQLITE_ROW); /* no row left out */
    sqlite3_finalize(st);
    sqlite3_close(db);
    return compared;
}

/* The view query behind each table of a run's report (run 1). */
static const char *const view_of[][2] = {
    {"summary", "SELECT * FROM run_summary WHERE run_id = 1"},
    {"tasks", "SELECT * FROM task_latency WHERE run_id = 1 ORDER BY frame"},
    {"task_totals",
     "SELECT count(*) AS tasks, sum(decoding_ps) AS decoding_ps, sum(waiting_ps) AS waiting_ps,"
     " sum(transfer_ps) AS transfer_ps, sum(execution_ps) AS execution_ps,"
     " sum(total_ps) AS total_ps, sum(decoding_cycles) AS decoding_cycles,"
     " sum(waiting_cycles) AS waiting_cycles, sum(transfer_cycles) AS transfer_cycles,"
     " sum(execution_cycles) AS execution_cycles, sum(total_cycles) AS total_cycles,"
     " p.p50_ps AS p50_ps, p.p95_ps AS p95_ps, p.p99_ps AS p99_ps, p.p50_cycles AS p50_cycles,"
     " p.p95_cycles AS p95_cycles, p.p99_cycles AS p99_cycles"
     " FROM task_latency AS t JOIN task_latency_percentiles AS p USING (run_id)"
     " WHERE t.run_id = 1 AND t.complete"},
    {"cores", "SELECT * FROM core_utilization WHERE run_id = 1 ORDER BY core"},
    {"banks", "SELECT * FROM bank_utilization JOIN bank_conflicts USING (run_id, bank, accesses)"
              " WHERE run_id = 1 ORDER BY bank"},
    {"stalls", "SELECT * FROM fence_stalls WHERE run_id = 1 ORDER BY total_ps DESC, reason"},
    {"waiting", "SELECT * FROM frame_stalls WHERE run_id = 1 ORDER BY frame"},
    {"sm_latency", "SELECT * FROM sm_latency_percentiles WHERE run_id = 1"},
};

#define N_TABLES (sizeof view_of / sizeof view_of[0])

/* A run of the real example 2 (SM accesses, bank conflicts, waiting). */
static const char *example2_db(void)
{
    static char db[512];
    if (!db[0]) {
        test_fresh_path("ex2-real.db", db, sizeof db);
        record(db, test_src_path("examples/example2.s"), NULL);
    }
    return db;
}

static void test_csv_equals_views(void)
{
    const char *db = example2_db();
    char *out;
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --format csv", db), 0);
    size_t cells = 0;
    for (size_t k = 0; k < N_TABLES; k++) {
        rtab_t t;
        CU_ASSERT_TRUE(csv_table(out, view_of[k][0], &t));
        cells += equals_view(db, &t, view_of[k][1]);
        rtab_free(&t);
    }
    CU_ASSERT(cells > 500);
    free(out);
}

static void test_json_is_valid_and_equals_views(void)
{
    const char *db = example2_db();
    char *out;
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --run 1 --format json", db), 0);
    sqlite3 *mem = NULL;
    sqlite3_stmt *st = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(":memory:", &mem), SQLITE_OK);
    sqlite3_prepare_v2(mem, "SELECT json_valid(?1), json_type(?1)", -1, &st, NULL);
    sqlite3_bind_text(st, 1, out, -1, SQLITE_STATIC);
    CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_ROW);
    CU_ASSERT_EQUAL(sqlite3_column_int(st, 0), 1);
    CU_ASSERT_STRING_EQUAL((const char *)sqlite3_column_text(st, 1), "object");
    sqlite3_finalize(st);
    sqlite3_close(mem);
    size_t cells = 0;
    for (size_t k = 0; k < N_TABLES; k++) {
        rtab_t t;
        CU_ASSERT_TRUE(json_table(out, view_of[k][0], &t));
        cells += equals_view(db, &t, view_of[k][1]);
        rtab_free(&t);
    }
    CU_ASSERT(cells > 500);
    free(out);
}

/* The text report of example 2 (hand-computed: test_views.c): end 41
 * cycles; 6 tasks on 8 cores each = 48 core tasks, 8 frames, 96
 * instructions; waiting mask 24 + bus 2 = 26 frame-cycles; mean
 * parallelism 96 / 41 = 2.341. */
static void test_text_report_example2(void)
{
    char db[512], *out;
    test_fresh_path("ex2-text.db", db, sizeof db);
    record(db, example2_path(), NULL);
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s'", db), 0);
    CU_ASSERT(contains(out, "Run 1 of "));
    CU_ASSERT(contains(out, "  status         ok\n"));
    CU_ASSERT(contains(out, "  end time       41 cycles = 41000 ps (clock period 1000 ps)\n"));
    CU_ASSERT(contains(out, "  tasks          6 (48 core tasks, 8 frames)\n"));
    CU_ASSERT(contains(out, "  instructions   96\n"));
    CU_ASSERT(contains(out, "  SM accesses    0, of which 0 waited for their bank\n"));
    CU_ASSERT(contains(out, "  waiting        26 frame-cycles"));
    CU_ASSERT(contains(out, "  parallelism    2.341 cores busy on average\n"));
    CU_ASSERT(contains(out, "  recorded       level mem"));
    /* tasks: frame 6 waits 2 (bus), total 10; frame 7 waits 6 (mask), 14 */
    CU_ASSERT(contains(out, "  frame group mask fence decode waiting transfer execution total\n"));
    CU_ASSERT(contains(out, "      6     5 f0f0 acq        1       2        4         3    10\n"));
    CU_ASSERT(contains(out, "      7     5 f0f0 acq        1       6        4         3    14\n"));
    /* totals: decode 6, waiting 0+6+6+6+2+6 = 26, transfer 24, execution 18,
     * total 74; totals sorted 8 10 14 14 14 14: p50 = 14 */
    CU_ASSERT(contains(out, "      6      6      26       24        18    74  14  14  14\n"));
    CU_ASSERT(contains(out, "  reason stalls frames cycles longest   share\n"));
    CU_ASSERT(contains(out, "  mask        4      4     24       6  0.9231\n"));
    CU_ASSERT(contains(out, "  bus         1      1      2       2 0.07692\n"));
    CU_ASSERT(contains(out, "      6 IF   acq         2    0   0   0   2     0\n"));
    /* the cores' busy time: 8 cycles on group 0's cores, 4 on group 1's */
    CU_ASSERT(contains(out, "     0     4    8  0.1951"));
    CU_ASSERT(contains(out, "    15     2    4 0.09756"));
    CU_ASSERT(contains(out, "SM access latency"));
    CU_ASSERT_PTR_NULL(strstr(out, "tessera:"));
    free(out);
    /* at level summary the per-task tables are not recorded, and say so */
    record(db, example2_path(), "-s record.level=summary");
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s'", db), 0);
    CU_ASSERT(contains(out, "Run 2 of "));
    CU_ASSERT(contains(out, "(none: needs record.level=tasks or more)"));
    CU_ASSERT(contains(out, "(none: needs record.level=mem or more)"));
    CU_ASSERT(contains(out, "  end time       41 cycles = 41000 ps"));
    free(out);
}

/* Every table of the text report is in cycles, picoseconds only in the
 * summary's end time (a clock period of 2000 ps makes a ps figure stand
 * out). By hand: cores 0 and 1 each load 0x100 (bank 1) at the same moment;
 * the fixed arbiter serves core 0 at once (3 cycles, T7) and core 1 one
 * cycle later (4 cycles). Bank 1: 2 accesses, 1 waited, 1 cycle of waiting,
 * mean wait 1 / 2 = 0.5 cycles, longest 1; latency min 3, nearest-rank p50
 * (rank 1 of 2) 3, max 4, mean 3.5 cycles. */
static void test_text_report_in_cycles(void)
{
    char db[512], *out;
    const char *src = ".group cores=0x3\n set_const r8, 1\n ld [r0, r8], r1\n ready\n";
    const char *prog = test_tmp_path("twoload.s");
    CU_ASSERT_EQUAL_FATAL(test_write_file(prog, src, strlen(src)), 0);
    test_fresh_path("cycles.db", db, sizeof db);
    record(db, prog, "-s clock.period_ps=2000");
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s'", db), 0);
    CU_ASSERT(contains(out, "  bank accesses busy  share conflicts wait mean wait max wait\n"));
    CU_ASSERT(contains(out, "     1        2    2 0.1538         1    1       0.5        1\n"));
    CU_ASSERT(contains(out, "  accesses min p50 p95 p99 max mean\n"));
    CU_ASSERT(contains(out, "         2   3   3   4   4   4  3.5\n"));
    /* no table line speaks of picoseconds; the summary's end time does */
    const char *tables = strstr(out, "\nTask latency");
    CU_ASSERT_PTR_NOT_NULL_FATAL(tables);
    CU_ASSERT_PTR_NULL(strstr(tables, " ps"));
    CU_ASSERT_PTR_NULL(strstr(tables, "1000")); /* the mean wait in ps */
    CU_ASSERT_PTR_NULL(strstr(tables, "7000")); /* the mean latency in ps */
    CU_ASSERT(contains(out, " cycles = "));
    free(out);
}

/* --last is the default and the largest run id; --run picks another. */
static void test_run_selection(void)
{
    char db[512], *last, *dflt, *one, *two;
    test_fresh_path("select.db", db, sizeof db);
    record(db, example2_path(), NULL);
    record(db, example2_path(), "-s sm.arbiter=rr");
    CU_ASSERT_EQUAL(report_cli(&last, "'%s' --last --format csv", db), 0);
    CU_ASSERT_EQUAL(report_cli(&dflt, "'%s' --format csv", db), 0);
    CU_ASSERT_EQUAL(report_cli(&two, "'%s' --run 2 --format csv", db), 0);
    CU_ASSERT_EQUAL(report_cli(&one, "--format csv '%s' --run 1", db), 0);
    CU_ASSERT_STRING_EQUAL(last, dflt);
    CU_ASSERT_STRING_EQUAL(last, two);
    CU_ASSERT(contains(one, "\n1,"));
    CU_ASSERT(contains(two, "\n2,"));
    CU_ASSERT(contains(two, ",rr,"));
    free(last);
    free(dflt);
    free(one);
    free(two);
}

/* --table prints one table; in CSV just its header and rows. */
static void test_single_table(void)
{
    const char *db = example2_db();
    char *out;
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --format csv --table cores", db), 0);
    CU_ASSERT(!strncmp(out, "core,tasks,busy_ps,", 19));
    CU_ASSERT_PTR_NULL(strchr(out, '#'));
    rtab_t t;
    CU_ASSERT_TRUE(csv_table(out, NULL, &t));
    CU_ASSERT_EQUAL(t.nrows, 16);
    equals_view(db, &t, view_of[3][1]);
    rtab_free(&t);
    free(out);
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --format json --table stalls", db), 0);
    CU_ASSERT(!strncmp(out, "{\n  \"stalls\": [", 15));
    CU_ASSERT_PTR_NULL(strstr(out, "\"cores\""));
    free(out);
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --table summary", db), 0);
    CU_ASSERT(contains(out, "Run 1 of "));
    CU_ASSERT_PTR_NULL(strstr(out, "Cores"));
    free(out);
}

/* --- comparing runs ------------------------------------------------------------------ */

/* The first line of CSV text (the header), in a static buffer. */
static const char *header(const char *csv)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%.*s", (int)strcspn(csv, "\n"), csv);
    return buf;
}

#define RESULTS "end_cycles,tasks,instructions,sm_accesses,conflicts,conflict_cycles," \
                "waiting_cycles,mean_parallelism,wall_s"

/* Four runs of one program: arbiter fixed/rr × policy inorder/lookahead.
 * Only the keys that differ between the runs compared become columns, in
 * configuration order (ts.* before sm.*); a fifth run of another program
 * adds the program column. */
static void test_compare_shows_differing_parameters_only(void)
{
    char db[512], *out;
    test_fresh_path("sweep.db", db, sizeof db);
    const char *prog = test_src_path("examples/example2.s");
    record(db, prog, "-s sm.arbiter=fixed -s ts.policy=inorder");
    record(db, prog, "-s sm.arbiter=rr -s ts.policy=inorder");
    record(db, prog, "-s sm.arbiter=fixed -s ts.policy=lookahead");
    record(db, prog, "-s sm.arbiter=rr -s ts.policy=lookahead");
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --compare --format csv", db), 0);
    CU_ASSERT_STRING_EQUAL(header(out), "# compare");
    rtab_t t;
    CU_ASSERT_TRUE_FATAL(csv_table(out, "compare", &t));
    CU_ASSERT_EQUAL(t.nrows, 4);
    CU_ASSERT_EQUAL(t.ncols, 13);
    CU_ASSERT_STRING_EQUAL(t.cols[2], "ts.policy");
    CU_ASSERT_STRING_EQUAL(t.cols[3], "sm.arbiter");
    equals_view(db, &t, "SELECT s.*, (SELECT value FROM params AS p WHERE p.run_id = s.run_id"
                        " AND p.key = 'ts.policy') AS \"ts.policy\", (SELECT value FROM params"
                        " AS p WHERE p.run_id = s.run_id AND p.key = 'sm.arbiter') AS"
                        " \"sm.arbiter\" FROM run_summary AS s ORDER BY run_id");
    rtab_free(&t);
    free(out);
    CU_ASSERT_EQUAL(report_cli(&out, "'%s' --compare --run 1,2 --format csv --table compare",
                               db), 0);
    CU_ASSERT_STRING_EQUAL(header(out), "run_id,status,sm.arbiter," RESULTS);
    CU_ASSERT(contains(out, "\n1,ok,fixed,"));
    CU_ASSERT(contains(out, "\n2,ok,rr,"));
    free(out);
    CU_ASSERT_EQUAL(report_cli(&out, "'%s' --compare --run 3 --run 1 --format csv --table"
                                     " compare", db), 0);
    CU_ASSERT_STRING_EQUAL(header(out), "run_id,status,ts.policy," RESULTS);
    CU_ASSERT(contains(out, "\n1,ok,inorder,"));
    CU_ASSERT(contains(out, "\n3,ok,lookahead,"));
    free(out);
    /* one run: nothing differs */
    CU_ASSERT_EQUAL(report_cli(&out, "'%s' --compare --run 4 --format csv --table compare", db),
                    0);
    CU_ASSERT_STRING_EQUAL(header(out), "run_id,status," RESULTS);
    free(out);
    record(db, test_src_path("examples/example1.s"), NULL);
    CU_ASSERT_EQUAL(report_cli(&out, "'%s' --compare --run 1,5 --format csv --table compare",
                               db), 0);
    CU_ASSERT_STRING_EQUAL(header(out), "run_id,program,status," RESULTS);
    free(out);
    CU_ASSERT_EQUAL(report_cli(&out, "'%s' --compare", db), 0);
    CU_ASSERT(contains(out, "Runs compared"));
    CU_ASSERT(contains(out, " status ts.policy sm.arbiter end_cycles tasks"));
    CU_ASSERT(contains(out, "examples/example1.s ok     inorder   fixed             173     6"));
    free(out);
}

/* --- errors -------------------------------------------------------------------------- */

static void check_error(int want, const char *needle, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void check_error(int want, const char *needle, const char *fmt, ...)
{
    char args[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char *out;
    int rc = report_cli(&out, "%s", args);
    if (rc != want)
        fprintf(stderr, "report %s: exit %d, expected %d\n%s\n", args, rc, want, out);
    CU_ASSERT_EQUAL(rc, want);
    CU_ASSERT(contains(out, needle));
    free(out);
}

/* Bytes of a file, to check it was not modified (NULL: does not exist). */
static uint8_t *snapshot(const char *path, size_t *len) { return test_read_file(path, len); }

static void test_missing_and_foreign_files(void)
{
    const char *missing = test_tmp_path("nothing-here.db");
    unlink(missing);
    check_error(TESS_EIO, "No such file", "'%s'", missing);
    CU_ASSERT_NOT_EQUAL(access(missing, F_OK), 0); /* never created */
    check_error(TESS_EIO, "is a directory", "'%s'", test_tmp_dir());
    /* a text file and another program's SQLite database: refused, untouched */
    const char *text = test_tmp_path("notes.db");
    CU_ASSERT_EQUAL_FATAL(test_write_file(text, "hello, world\n", 13), 0);
    check_error(TESS_EDB, "not a Tessera database", "'%s'", text);
    size_t len = 0;
    uint8_t *now = snapshot(text, &len);
    CU_ASSERT(now && len == 13 && !memcmp(now, "hello, world\n", 13));
    free(now);
    const char *foreign = test_tmp_path("foreign.db");
    unlink(foreign);
    sqlite3 *db = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(foreign, &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE runs(run_id); INSERT INTO runs VALUES(1)", NULL, NULL, NULL);
    sqlite3_close(db);
    uint8_t *before = snapshot(foreign, &len);
    check_error(TESS_EDB, "not a Tessera database", "'%s' --run 1", foreign);
    size_t len2 = 0;
    uint8_t *after = snapshot(foreign, &len2);
    CU_ASSERT(before && after && len == len2 && !memcmp(before, after, len));
    free(before);
    free(after);
    /* a Tessera database of a newer schema version */
    const char *newer = test_tmp_path("newer.db");
    unlink(newer);
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(newer, &db), SQLITE_OK);
    char sql[128];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d;"
             " CREATE TABLE runs(x);", DB_APP_ID, DB_SCHEMA_VERSION + 1);
    sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    char want[64];
    snprintf(want, sizeof want, "schema version %d", DB_SCHEMA_VERSION + 1);
    check_error(TESS_EDB, want, "'%s'", newer);
}

static void test_bad_runs_and_options(void)
{
    const char *db = example2_db();
    check_error(TESS_EINPUT, "no run 99 (its runs are 1 to 1)", "'%s' --run 99", db);
    check_error(TESS_EINPUT, "no run 7", "'%s' --compare --run 1,7", db);
    check_error(TESS_EUSAGE, "--run 'x1'", "'%s' --run x1", db);
    check_error(TESS_EUSAGE, "--run '1,,2'", "'%s' --run 1,,2 --compare", db);
    check_error(TESS_EUSAGE, "--format 'xml'", "'%s' --format xml", db);
    check_error(TESS_EUSAGE, "--table 'nope'", "'%s' --table nope", db);
    check_error(TESS_EUSAGE, "--table 'cores': expected compare", "'%s' --compare --table cores",
                db);
    check_error(TESS_EUSAGE, "compare them with --compare", "'%s' --run 1,1", db);
    check_error(TESS_EUSAGE, "--last goes alone", "'%s' --last --run 1", db);
    check_error(TESS_EUSAGE, "which database", "--format csv");
    check_error(TESS_EUSAGE, "unexpected argument", "'%s' '%s'", db, db);
    check_error(TESS_EUSAGE, "usage: tessera report", "'%s' --run", db);
    check_error(TESS_OK, "Exit codes: 0 ok, 1 usage, 2 no such run", "--help");
    /* a Tessera database without runs */
    const char *empty = test_tmp_path("empty.db");
    unlink(empty);
    diag_t d = {0};
    rec_close(rec_open(empty, NULL, &d));
    check_error(TESS_EINPUT, "holds no run", "'%s'", empty);
    check_error(TESS_EINPUT, "holds no run", "'%s' --compare", empty);
}

/* A version-1 file (no views) is reported through TEMP views, identically,
 * and left as it was. */
static void test_version1_file_read_without_change(void)
{
    char db[512], *before, *after;
    test_fresh_path("v1.db", db, sizeof db);
    record(db, test_src_path("examples/example2.s"), NULL);
    CU_ASSERT_EQUAL_FATAL(report_cli(&before, "'%s' --format csv", db), 0);
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
    test_db_drop_views(h);
    sqlite3_exec(h, "PRAGMA user_version = 1; PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL,
                 NULL);
    sqlite3_close(h);
    size_t len = 0, len2 = 0;
    uint8_t *bytes = snapshot(db, &len);
    CU_ASSERT_EQUAL_FATAL(report_cli(&after, "'%s' --format csv", db), 0);
    CU_ASSERT_STRING_EQUAL(before, after);
    uint8_t *bytes2 = snapshot(db, &len2);
    CU_ASSERT(bytes && bytes2 && len == len2 && !memcmp(bytes, bytes2, len));
    free(bytes);
    free(bytes2);
    free(before);
    free(after);
}

/* --- the library ------------------------------------------------------------------- */

static char *run_to_text(report_t *rep, int64_t run, const report_opts_t *o, int *rc,
                         diag_t *d)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    *rc = report_run(rep, run, o, f, d);
    fclose(f);
    return buf;
}

static void test_library_api(void)
{
    diag_t d = {0};
    CU_ASSERT_PTR_NULL(report_open(test_tmp_path("absent.db"), &d));
    CU_ASSERT_EQUAL(d.code, TESS_EIO);
    report_t *rep = report_open(example2_db(), &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rep);
    int64_t last = 0;
    CU_ASSERT_EQUAL(report_last_run(rep, &last, &d), TESS_OK);
    CU_ASSERT_EQUAL(last, 1);
    report_opts_t o = {.format = REPORT_JSON};
    int rc;
    char *json = run_to_text(rep, 1, &o, &rc, &d);
    CU_ASSERT_EQUAL(rc, TESS_OK);
    rtab_t t;
    CU_ASSERT_TRUE(json_table(json, "banks", &t));
    CU_ASSERT_EQUAL(t.nrows, 16);
    equals_view(example2_db(), &t, view_of[4][1]);
    rtab_free(&t);
    free(json);
    diag_t d2 = {0};
    free(run_to_text(rep, 2, &o, &rc, &d2));
    CU_ASSERT_EQUAL(rc, TESS_EINPUT);
    CU_ASSERT(contains(d2.msg, "no run 2"));
    diag_t d3 = {0};
    o.table = "compare";
    free(run_to_text(rep, 1, &o, &rc, &d3));
    CU_ASSERT_EQUAL(rc, TESS_EINPUT);
    CU_ASSERT_TRUE(report_table_known("waiting", false));
    CU_ASSERT_FALSE(report_table_known("waiting", true));
    CU_ASSERT_TRUE(report_table_known("compare", true));
    CU_ASSERT_FALSE(report_table_known(NULL, false));
    report_close(rep);
    report_close(NULL);
}

/* --- SIMT runs (SIMT-SPEC E1) ---------------------------------------------------------- */

/* Run 1: E1 on the SIMT unit (level mem), run 2: the same on the MIMD
 * machine. E1's figures (tests/test_views.c has the reasoning): 8 warp
 * instructions, 26 lane instructions, SIMT efficiency 26 / 32 = 0.8125,
 * issue utilisation 8 / 16 = 0.5, one execute stall; the task completes at
 * 16 under SIMT and at 14 under MIMD. */
static const char *simt_db(void)
{
    static char db[512];
    if (!db[0]) {
        test_fresh_path("simt-e1.db", db, sizeof db);
        const char *path = test_tmp_path("e1.s");
        CU_ASSERT_EQUAL_FATAL(test_write_file(path, SIMT_E1, strlen(SIMT_E1)), 0);
        record(db, path, "-s core.model=simt");
        record(db, path, NULL);
    }
    return db;
}

static void test_simt_report(void)
{
    const char *db = simt_db();
    char *out;
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --run 1", db), 0);
    CU_ASSERT_TRUE(contains(out, "  SIMT           8 warp instructions, SIMT efficiency 0.8125,"
                                 " issue utilisation 0.5\n"));
    CU_ASSERT_TRUE(contains(out, "  SIMT unit      scheduler rr, issue width 1, scoreboard off,"
                                 " broadcast off, reconvergence stack\n"));
    CU_ASSERT_FALSE(contains(out, "SIMT thread groups")); /* barrier runs only */
    CU_ASSERT_TRUE(contains(out, "\nSIMT warps (cycles: issued + memory + execute + issue +"
                                 " fetch + collector (+ barrier: groups) = resident)\n"));
    CU_ASSERT_TRUE(contains(out, "  execute        1 0.1111\n"));
    free(out);
    /* the slot profile (E1 under SIMT): one cycle per instruction; the
       warp's one execute stall (cycle 13: the mul issued at 12 completes at
       14) is charged to the ready it waits to issue, which is then the
       hottest slot (2 of the 9 resident cycles); every other slot's rank is
       2, more than three: only rank 1 is marked */
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --run 1 --slots", db), 0);
    CU_ASSERT_TRUE(contains(out, "\nframe 1: 1 warp, 9 cycles\n"));
    CU_ASSERT_TRUE(contains(out, "      3 bnz 6, r2             1    4      1 0.1111      1     0"
                                 "     0         0      0       0\n"));
    CU_ASSERT_TRUE(contains(out, "      6 mul r1, r1, r10       1    2      1 0.1111      1     0"
                                 "     0         0      0       0\n"));
    CU_ASSERT_TRUE(contains(out, "      7 ready                 1    4      2 0.2222      1     0"
                                 "     0         0      0       1  <- #1\n"));
    CU_ASSERT_FALSE(contains(out, "<- #2"));
    free(out);
    /* MIMD (run 2): summed over the 4 cores; the odd cores' mul takes 2
       cycles (T6), so slot 6: 2 cores x 2 = 4 cycles, the hottest */
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --run 2 --slots --frame 1 --format csv", db), 0);
    CU_ASSERT_TRUE(contains(out, "\n1,6,\"mul r1, r1, r10\",2,mimd,2,2,2,4,"));
    free(out);
    CU_ASSERT_EQUAL(report_cli(&out, "'%s' --run 2 --slots --frame 9", db), TESS_EINPUT);
    free(out);
    CU_ASSERT_EQUAL(report_cli(&out, "'%s' --frame 1", db), TESS_EUSAGE);
    free(out);
    /* the SIMT tables equal their views */
    static const char *const simt_views[][2] = {
        {"simt", "SELECT * FROM simt_efficiency WHERE run_id = 1"},
        {"warps", "SELECT * FROM simt_warp_efficiency WHERE run_id = 1 ORDER BY frame"},
        {"simt_stalls", "SELECT reason, cycles, share FROM simt_stalls WHERE run_id = 1"
                        " ORDER BY cycles DESC, reason"}};
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --run 1 --format csv", db), 0);
    size_t cells = 0;
    for (size_t k = 0; k < 3; k++) {
        rtab_t t;
        CU_ASSERT_TRUE(csv_table(out, simt_views[k][0], &t));
        cells += equals_view(db, &t, simt_views[k][1]);
        rtab_free(&t);
    }
    CU_ASSERT(cells >= 40);
    free(out);
    /* a MIMD run's report has no SIMT line or table, unless asked by name */
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --run 2", db), 0);
    CU_ASSERT_FALSE(contains(out, "SIMT"));
    free(out);
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --run 2 --table simt", db), 0);
    CU_ASSERT_TRUE(contains(out, "(none)"));
    free(out);
}

/* A barrier run (simt.reconvergence = barrier, S14): the summary names the
 * mode and the groups table shows E1's warp — 1 divergent branch, 2 groups
 * at most, 1 barrier, no barrier stall, 9 resident cycles — as its view. */
static void test_simt_groups_report(void)
{
    char db[512];
    test_fresh_path("simt-groups.db", db, sizeof db);
    const char *path = test_tmp_path("e1.s");
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, SIMT_E1, strlen(SIMT_E1)), 0);
    record(db, path, "-s core.model=simt -s simt.reconvergence=barrier");
    char *out;
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --run 1", db), 0);
    CU_ASSERT_TRUE(contains(out, " broadcast off, reconvergence barrier\n"));
    CU_ASSERT_TRUE(contains(out, "\nSIMT thread groups (simt.reconvergence = barrier"));
    free(out);
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --run 1 --table groups --format csv", db), 0);
    /* CSV carries every column of the view: complete, max_groups, barriers,
       stall_barrier_cycles come last */
    CU_ASSERT_TRUE(contains(out, ",complete,max_groups,barriers,stall_barrier_cycles\n"));
    CU_ASSERT_TRUE(contains(out, "\n1,1,15,000f,4,8,26,"));
    /* resident 9 = issued 8 + execute 1; memory, issue, fetch, collector 0 */
    CU_ASSERT_TRUE(contains(out, ",9,8,0,1,0,0,0,0,0,0,,1,2,1,0\n"));
    free(out);
    /* the slot profile of a barrier run has the barrier column. E1 under
       S14 (test_views' test_simt_e1_efficiency has the timeline): the bnz at
       3 splits the group; lanes 0, 2 issue 4 and 5, then lanes 1, 3 the mul
       at 6, and the groups join at the barrier at 7 (the bnz's immediate
       post-dominator); the one stall is cycle 13, the mul's second cycle
       (T6), charged to the ready the joined group waits to issue, as under
       the stack */
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --run 1 --slots", db), 0);
    CU_ASSERT_TRUE(contains(out, "   slot text               warp lane cycles  share issued issue"
                                 " fetch collector memory execute barrier\n"));
    CU_ASSERT_TRUE(contains(out, "      6 mul r1, r1, r10       1    2      1 0.1111      1     0"
                                 "     0         0      0       0       0\n"));
    CU_ASSERT_TRUE(contains(out, "      7 ready                 1    4      2 0.2222      1     0"
                                 "     0         0      0       1       0  <- #1\n"));
    free(out);
}

/* A MIMD and a SIMT run of one program side by side: core.model is the
 * parameter that differs, and the SIMT figures join the results (NULL for
 * the MIMD run). */
static void test_compare_mimd_simt(void)
{
    const char *db = simt_db();
    char *out;
    CU_ASSERT_EQUAL_FATAL(report_cli(&out, "'%s' --compare --format csv", db), 0);
    rtab_t t;
    CU_ASSERT_TRUE_FATAL(csv_table(out, "compare", &t));
    CU_ASSERT_EQUAL(t.nrows, 2);
    CU_ASSERT_STRING_EQUAL(t.cols[2], "core.model");
    int want[] = {3, 4, 5, 6, 7, 8};
    const char *names[] = {"end_cycles", "tasks", "instructions", "warp_instructions",
                           "simt_efficiency", "issue_utilization"};
    const char *simt[] = {"16", "1", "26", "8", "0.8125", "0.5"};
    for (int k = 0; k < 6; k++) {
        CU_ASSERT_STRING_EQUAL(t.cols[want[k]], names[k]);
        CU_ASSERT_STRING_EQUAL(t.cells[want[k]], simt[k]);
    }
    CU_ASSERT_STRING_EQUAL(t.cells[t.ncols + 2], "mimd");
    CU_ASSERT_STRING_EQUAL(t.cells[t.ncols + 3], "14");
    CU_ASSERT_STRING_EQUAL(t.cells[t.ncols + 5], "26"); /* the same lane instructions */
    CU_ASSERT_PTR_NULL(t.cells[t.ncols + 6]);
    rtab_free(&t);
    free(out);
}

int main(void)
{
    static const test_case_t equal[] = {
        TEST(test_csv_equals_views), TEST(test_json_is_valid_and_equals_views),
        TEST(test_text_report_example2), TEST(test_text_report_in_cycles), TEST(test_run_selection), TEST(test_single_table),
        TEST_END};
    static const test_case_t compare[] = {
        TEST(test_compare_shows_differing_parameters_only), TEST(test_simt_report),
        TEST(test_simt_groups_report),
        TEST(test_compare_mimd_simt), TEST_END};
    static const test_case_t errors[] = {
        TEST(test_missing_and_foreign_files), TEST(test_bad_runs_and_options),
        TEST(test_version1_file_read_without_change), TEST(test_library_api), TEST_END};
    static const test_suite_t suites[] = {
        {"report: the views' numbers", equal},
        {"report: --compare", compare},
        {"report: errors, old files, the library", errors},
        {NULL, NULL}};
    return test_run_suites(suites);
}

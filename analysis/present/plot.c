/* plot.c — gnuplot scripts from a statistics database (see plot.h). The data
 * are read first, whole, so that every error is known before a script is
 * written; the script carries them inline (gnuplot data blocks). */
#include "analysis/present/plot.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/store/db.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "tessera_names.h" /* the model's stall reasons and units (cmake/gen-names.c) */

typedef struct point {
    char *x;                  /* the parameter's value as recorded */
    char *by;                 /* the series' value, or NULL */
    double xv;                /* x as a number (numeric x) or its category's index */
    double y;                 /* mean of the runs at this point */
    int64_t runs;             /* how many runs were averaged */
} point_t;

struct plot {
    plot_opts_t opts;
    char *db_path, *x_key, *y_col, *by_key;
    bool denied;              /* the authorizer refused something --where asked for */
    char *filter;             /* " AND …" on run_summary AS s (--program, --where), or "" */
    point_t *pts;             /* sorted by (series, x) */
    size_t n, cap;
    bool x_numeric;           /* every x is a number: a numeric axis, else categories */
    int64_t interval_cycles;  /* intervals: their length */
    char **cats;              /* the x categories in order (non-numeric x) */
    size_t n_cats;
    int64_t ok_runs, other_runs;
};

static bool is_number(const char *s, double *v)
{
    char *end;
    if (!s || !*s)
        return false;
    *v = strtod(s, &end);
    return *end == 0;
}

/* --- reading ------------------------------------------------------------------------- */

static int check_column(sqlite3 *db, plot_t *p, diag_t *d)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT * FROM run_summary LIMIT 0", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return db_fail(db, p->db_path, "reading run_summary", d);
    char list[1024] = "";
    bool found = false;
    for (int i = 0; i < sqlite3_column_count(st); i++) {
        const char *name = sqlite3_column_name(st, i);
        found |= strcmp(name, p->y_col) == 0;
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", name);
    }
    sqlite3_finalize(st);
    if (!found)
        return diag_fail(d, TESS_EINPUT, "--y %s: run_summary has no such column (it has: %s)",
                         p->y_col, list);
    return TESS_OK;
}

/* One integer of `sql` with ?1 bound to `text`. */
static int count_of(sqlite3 *db, const char *sql, const char *text, int64_t *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK && text)
        rc = sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st) == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(db);
    if (rc == SQLITE_OK)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc;
}

/* A recorded key, else a key of the table, named `name` in another section
 * ("issue_width" -> "simt.issue_width"), into buf; "" when there is none. */
static void suggest_key(sqlite3 *db, const plot_t *p, const char *key, char *buf, size_t n)
{
    const char *dot = strrchr(key, '.'), *name = dot ? dot + 1 : key;
    sqlite3_stmt *st = NULL;
    buf[0] = 0;
    if (sqlite3_prepare_v2(db, "SELECT key FROM params WHERE substr(key, -length(?1) - 1) = "
                               "'.' || ?1 AND key <> ?2 GROUP BY key ORDER BY count(*) DESC, key "
                               "LIMIT 1", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) == SQLITE_OK &&
        sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        snprintf(buf, n, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    for (const char *const *k = p->opts.known_keys; k && *k && !buf[0]; k++) {
        const char *kd = strrchr(*k, '.');
        if (kd && strcmp(kd + 1, name) == 0 && strcmp(*k, key) != 0)
            snprintf(buf, n, "%s", *k);
    }
}

static bool is_known(const plot_t *p, const char *key)
{
    for (const char *const *k = p->opts.known_keys; k && *k; k++)
        if (strcmp(*k, key) == 0)
            return true;
    return false;
}

static int check_key(sqlite3 *db, plot_t *p, const char *opt, const char *key, diag_t *d)
{
    int64_t n = 0;
    char other[128];
    if (strcmp(key, "program") == 0) /* the runs' programs, run_summary.program */
        return TESS_OK;
    if (count_of(db, "SELECT count(*) FROM params WHERE key = ?1", key, &n) != SQLITE_OK)
        return db_fail(db, p->db_path, "reading params", d);
    if (n > 0)
        return TESS_OK;
    suggest_key(db, p, key, other, sizeof other);
    if (other[0])
        return diag_fail(d, TESS_EINPUT, "%s %s: no run has this parameter; did you mean %s?",
                         opt, key, other);
    if (is_known(p, key))
        return diag_fail(d, TESS_EINPUT,
                         "%s %s: no run records this parameter (a run records only the keys "
                         "that have an effect on it: `tessera config --keys` says which apply "
                         "to which machine)", opt, key);
    return diag_fail(d, TESS_EINPUT,
                     "%s %s: no run has this parameter (keys are section.key, as in "
                     "`tessera config --keys`, or program)", opt, key);
}

/* Prepares `sql` (on run_summary AS s) and, with `run`, steps it through
 * every row; "" when SQLite took it whole, else why not into msg. */
static void try_sql(sqlite3 *db, plot_t *p, const char *sql, bool run, char *msg, size_t size)
{
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, &tail) : SQLITE_NOMEM;
    bool extra = rc == SQLITE_OK && tail && tail[strspn(tail, " \t\r\n\v\f")];
    while (rc == SQLITE_OK && !extra && run && (rc = sqlite3_step(st)) == SQLITE_ROW)
        rc = SQLITE_OK;
    if (rc == SQLITE_DONE)
        rc = SQLITE_OK;
    snprintf(msg, size, "%s",
             extra              ? "one condition on run_summary's columns, not several statements"
             : rc == SQLITE_OK  ? ""
             : rc == SQLITE_NOMEM ? "out of memory"
             : p->denied ? "not authorized (the condition may only read tables and views)"
                         : sqlite3_errmsg(db));
    sqlite3_finalize(st);
}

/* --where is one SQL expression: SQLite parses it as the whole WHERE clause
 * of a statement, with nothing after it (no tail: no second statement; a
 * trailing comment is fine), and again inside parentheses, where only an
 * expression fits — so "1) OR (1" (no statement), "1 GROUP BY x" (not
 * inside parentheses) and "1) --" (neither) are refused, and the
 * parenthesised form, ANDed with the status test, selects exactly the runs
 * the condition does. The parenthesised statement is then run on every row,
 * so that what fails only when evaluated is an error of --where as well. */
static int check_where(sqlite3 *db, plot_t *p, const char *cond, diag_t *d)
{
    char msg[256] = "";
    char *bare = sqlite3_mprintf("SELECT count(*) FROM run_summary AS s WHERE %s", cond);
    try_sql(db, p, bare, false, msg, sizeof msg);
    sqlite3_free(bare);
    if (!msg[0]) {
        char *wrapped = sqlite3_mprintf("SELECT count(*) FROM run_summary AS s WHERE (%s\n)", cond);
        try_sql(db, p, wrapped, true, msg, sizeof msg);
        sqlite3_free(wrapped);
    }
    if (!strcmp(msg, "out of memory"))
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    if (msg[0])
        return diag_fail(d, TESS_EINPUT, "--where \"%s\": %s", cond, msg);
    return TESS_OK;
}

/* --program and --where as one SQL fragment on run_summary AS s (--where
 * checked to be one condition first: check_where). */
static int make_filter(sqlite3 *db, plot_t *p, diag_t *d)
{
    const char *prog = p->opts.program, *cond = p->opts.where;
    if (cond) {
        int rc = check_where(db, p, cond, d);
        if (rc != TESS_OK)
            return rc;
    }
    char *by_prog = prog ? sqlite3_mprintf(" AND (s.program IN (%Q, %Q || '.s') OR substr(s.program,"
                                           " -(length(%Q) + 1)) = '/' || %Q OR substr(s.program,"
                                           " -(length(%Q) + 3)) = '/' || %Q || '.s')",
                                           prog, prog, prog, prog, prog, prog)
                         : sqlite3_mprintf("");
    char *by_cond = cond ? sqlite3_mprintf(" AND (%s\n)", cond) : sqlite3_mprintf("");
    p->filter = by_prog && by_cond ? sqlite3_mprintf("%s%s", by_prog, by_cond) : NULL;
    sqlite3_free(by_prog), sqlite3_free(by_cond);
    if (!p->filter)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    return TESS_OK;
}

/* A failure of a statement that carries the filter: --where's when there is
 * one (exit 2, naming it), else the database's. */
static int filter_fail(sqlite3 *db, plot_t *p, const char *what, diag_t *d)
{
    if (p->opts.where)
        return diag_fail(d, TESS_EINPUT, "--where \"%s\": %s", p->opts.where,
                         p->denied ? "not authorized (the condition may only read tables and "
                                     "views)" : sqlite3_errmsg(db));
    return db_fail(db, p->db_path, what, d);
}

static int check_runs(sqlite3 *db, plot_t *p, diag_t *d)
{
    char sql[256];
    int64_t text = 0;
    const char *okv = db_status_names[DB_STATUS_OK];
    char *ok = sqlite3_mprintf("SELECT count(*) FROM run_summary AS s WHERE status = %Q%s", okv,
                               p->filter);
    char *other = sqlite3_mprintf("SELECT count(*) FROM run_summary AS s WHERE status <> %Q%s",
                                  okv, p->filter);
    int rc = ok && other ? TESS_OK : diag_fail(d, TESS_ENOMEM, "out of memory");
    if (rc == TESS_OK && (count_of(db, ok, NULL, &p->ok_runs) ||
                          count_of(db, other, NULL, &p->other_runs)))
        rc = filter_fail(db, p, "reading run_summary", d);
    sqlite3_free(ok), sqlite3_free(other);
    if (rc != TESS_OK)
        return rc;
    if (p->ok_runs == 0)
        return diag_fail(d, TESS_EINPUT, "%s: no run with status ok to plot%s", p->db_path,
                         p->filter[0] ? " among those --program/--where select" : "");
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM run_summary WHERE status = '%s' AND typeof(\"%s\") = 'text'",
             okv, p->y_col);
    if (count_of(db, sql, NULL, &text) != SQLITE_OK)
        return db_fail(db, p->db_path, "reading run_summary", d);
    if (text > 0)
        return diag_fail(d, TESS_EINPUT, "--y %s: the column is not numeric", p->y_col);
    return TESS_OK;
}

static char *dup_text(sqlite3_stmt *st, int col, bool *lost)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    if (!t)
        return NULL;
    char *s = tess_strdup((const char *)t);
    *lost |= s == NULL;
    return s;
}

static int add_point(plot_t *p, sqlite3_stmt *st, diag_t *d)
{
    point_t *v = tess_grow(p->pts, &p->cap, p->n, sizeof *v, 32);
    if (!v)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    p->pts = v;
    bool lost = false;
    point_t *pt = &p->pts[p->n++];
    *pt = (point_t){dup_text(st, 0, &lost), dup_text(st, 1, &lost), 0,
                    sqlite3_column_double(st, 2), sqlite3_column_int64(st, 3)};
    if (lost || !pt->x)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    return TESS_OK;
}

/* The value of the plot's x (which 0) or --by (1) key in run s of
 * run_summary: a parameter, or `program`: the run's program path; the keys
 * are bound as ?1 and ?2 (prepare_plot). */
static const char *key_value(const plot_t *p, int which)
{
    static const char *const param[] = {
        "(SELECT value FROM params AS q WHERE q.run_id = s.run_id AND q.key = ?1)",
        "(SELECT value FROM params AS q WHERE q.run_id = s.run_id AND q.key = ?2)"};
    static const char *const program[] = {"(CASE WHEN ?1 IS NOT NULL THEN s.program END)",
                                          "(CASE WHEN ?2 IS NOT NULL THEN s.program END)"};
    const char *key = which ? p->by_key : p->x_key;
    return (key && strcmp(key, "program") == 0 ? program : param)[which];
}

/* Prepares `fmt` with its one %s the runs a plot averages, as a subquery
 * (run_id, program, x, b, y): the 'ok' runs of run_summary that --where
 * keeps, x and b the plotted keys' values, y the plotted column; binds the
 * keys. An SQLite result code. */
static int prepare_plot(sqlite3 *db, const plot_t *p, const char *fmt, sqlite3_stmt **st)
{
    *st = NULL;
    char *runs = sqlite3_mprintf(
        "SELECT s.run_id AS run_id, s.program AS program, %s AS x, %s AS b, s.\"%w\" AS y"
        " FROM run_summary AS s WHERE s.status = %Q%s",
        key_value(p, 0), key_value(p, 1), p->y_col, db_status_names[DB_STATUS_OK], p->filter);
    char *sql = runs ? sqlite3_mprintf(fmt, runs) : NULL;
    sqlite3_free(runs);
    if (!sql)
        return SQLITE_NOMEM;
    int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);
    sqlite3_free(sql);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(*st, 1, p->x_key, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK && p->by_key)
        rc = sqlite3_bind_text(*st, 2, p->by_key, -1, SQLITE_STATIC);
    return rc;
}

static int read_points(sqlite3 *db, plot_t *p, diag_t *d)
{
    sqlite3_stmt *st;
    int rc = prepare_plot(db, p, "SELECT x, b, avg(y), count(*) FROM (%s)"
                                 " WHERE x IS NOT NULL AND y IS NOT NULL GROUP BY b, x", &st);
    if (rc == SQLITE_NOMEM)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    int err = TESS_OK;
    while (rc == SQLITE_OK && err == TESS_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        err = add_point(p, st, d);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    if (err != TESS_OK)
        return err;
    if (rc != SQLITE_DONE)
        return filter_fail(db, p, "reading the sweep", d);
    if (p->n == 0)
        return diag_fail(d, TESS_EINPUT, "%s: no run with status ok has both %s and %s",
                         p->db_path, p->x_key, p->y_col);
    return TESS_OK;
}

/* --- points that mix runs ---------------------------------------------------------- */

static bool is_replicate(const plot_t *p, const char *key)
{
    for (const char *const *k = p->opts.replicate_keys; k && *k; k++)
        if (strcmp(*k, key) == 0)
            return true;
    return false;
}

/* Warns, once per parameter, when a point averages runs that differ in it
 * (or in their program) though it is neither plotted nor a replicate key: a
 * mean of a MIMD and a SIMT run, of two arbiters, looks like any other. A key
 * some runs do not record (it has no effect on them) differs only when two
 * recorded values do: its absence follows from a recorded key that differs
 * (core.model, ts.policy), which is named itself. */
static int warn_mixed(sqlite3 *db, plot_t *p, diag_t *d)
{
#define VALUE "(CASE WHEN k.key = 'program' THEN sel.program ELSE v.value END)"
    sqlite3_stmt *st;
    int rc = prepare_plot(db, p,
        "WITH sel AS (SELECT * FROM (%s) WHERE x IS NOT NULL AND y IS NOT NULL),"
        " k AS (SELECT DISTINCT key FROM params WHERE run_id IN (SELECT run_id FROM sel)"
        " UNION SELECT 'program')"
        " SELECT k.key, sel.x, sel.b, group_concat(DISTINCT " VALUE "), count(*)"
        " FROM sel CROSS JOIN k LEFT JOIN params AS v ON v.run_id = sel.run_id AND v.key = k.key"
        " GROUP BY k.key, sel.b, sel.x HAVING count(DISTINCT " VALUE ") > 1"
        " ORDER BY k.key, sel.b, sel.x", &st);
#undef VALUE
    if (rc == SQLITE_NOMEM)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    char last[256] = "", example[512] = "";
    unsigned points = 0;
    for (bool more = true; rc == SQLITE_OK && more;) {
        rc = sqlite3_step(st);
        more = rc == SQLITE_ROW;
        rc = more || rc == SQLITE_DONE ? SQLITE_OK : rc;
        const char *key = more ? (const char *)sqlite3_column_text(st, 0) : "";
        if (more && (strcmp(key, p->x_key) == 0 || (p->by_key && strcmp(key, p->by_key) == 0) ||
                     is_replicate(p, key)))
            continue;
        if (points && (!more || strcmp(key, last) != 0))
            diag_warn(d, "plot: %u point%s average%s runs that differ in %s, which is neither "
                         "plotted nor filtered (%s); plot it with --by %s or keep one value with "
                         "--where", points, points == 1 ? "" : "s", points == 1 ? "s" : "",
                      last, example, last);
        if (!more)
            break;
        if (strcmp(key, last) != 0) {
            snprintf(last, sizeof last, "%s", key);
            const char *b = (const char *)sqlite3_column_text(st, 2);
            char by[192] = "";
            if (b)
                snprintf(by, sizeof by, ", %s = %s", p->by_key, b);
            snprintf(example, sizeof example, "e.g. %s = %s%s: %lld runs, %s = %s", p->x_key,
                     (const char *)sqlite3_column_text(st, 1), by,
                     (long long)sqlite3_column_int64(st, 4), key,
                     (const char *)sqlite3_column_text(st, 3));
            points = 0;
        }
        points++;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? TESS_OK : filter_fail(db, p, "reading params", d);
}

/* --- ordering -------------------------------------------------------------------------- */

/* Compares two values: numerically when both are numbers, else as text; NULL first. */
static int cmp_value(const char *a, const char *b)
{
    double x, y;
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    if (is_number(a, &x) && is_number(b, &y))
        return (x > y) - (x < y);
    return strcmp(a, b);
}

static int cmp_point(const void *pa, const void *pb)
{
    const point_t *a = pa, *b = pb;
    int c = cmp_value(a->by, b->by);
    return c ? c : cmp_value(a->x, b->x);
}

static int cmp_text(const void *a, const void *b)
{
    return cmp_value(*(char *const *)a, *(char *const *)b);
}

/* Numeric x, or categories in sorted order, each point given its position. */
static int place_points(plot_t *p, diag_t *d)
{
    p->x_numeric = true;
    for (size_t i = 0; i < p->n; i++)
        p->x_numeric &= is_number(p->pts[i].x, &p->pts[i].xv);
    qsort(p->pts, p->n, sizeof *p->pts, cmp_point);
    if (p->x_numeric)
        return TESS_OK;
    p->cats = tess_malloc(p->n * sizeof *p->cats);
    if (!p->cats)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    for (size_t i = 0; i < p->n; i++)
        p->cats[i] = p->pts[i].x;
    qsort(p->cats, p->n, sizeof *p->cats, cmp_text);
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++)
        if (k == 0 || strcmp(p->cats[k - 1], p->cats[i]) != 0)
            p->cats[k++] = p->cats[i];
    p->n_cats = k;
    for (size_t i = 0; i < p->n; i++)
        for (size_t c = 0; c < k; c++)
            if (strcmp(p->cats[c], p->pts[i].x) == 0)
                p->pts[i].xv = (double)c;
    return TESS_OK;
}

/* Lets a statement only read: --where can neither write (the connection is
 * read-only as well) nor run a pragma (pragma_table_info() and the like). */
static int read_only(void *denied, int action, const char *a, const char *b, const char *c,
                     const char *e)
{
    (void)a, (void)c, (void)e;
    if (action == SQLITE_FUNCTION && b && sqlite3_stricmp(b, "load_extension") == 0) {
        *(bool *)denied = true;   /* off on this connection anyway: said plainly */
        return SQLITE_DENY;
    }
    if (action == SQLITE_SELECT || action == SQLITE_READ || action == SQLITE_FUNCTION ||
        action == SQLITE_RECURSIVE)
        return SQLITE_OK;
    *(bool *)denied = true;
    return SQLITE_DENY;
}

static int read_sweep(sqlite3 *db, plot_t *p, diag_t *d)
{
    int rc = check_column(db, p, d);
    if (rc == TESS_OK) { /* from here on every statement only reads */
        sqlite3_set_authorizer(db, read_only, &p->denied);
        rc = make_filter(db, p, d);
    }
    if (rc == TESS_OK)
        rc = check_key(db, p, "--x", p->x_key, d);
    if (rc == TESS_OK && p->by_key)
        rc = check_key(db, p, "--by", p->by_key, d);
    if (rc == TESS_OK)
        rc = check_runs(db, p, d);
    if (rc == TESS_OK)
        rc = read_points(db, p, d);
    if (rc == TESS_OK)
        rc = warn_mixed(db, p, d);
    return rc == TESS_OK ? place_points(p, d) : rc;
}

/* --- intervals ------------------------------------------------------------------------ */

static int read_intervals(sqlite3 *db, plot_t *p, diag_t *d)
{
    if (p->opts.run_id == 0 &&
        db_query_int(db, "SELECT coalesce(max(run_id), 0) FROM runs", &p->opts.run_id) != SQLITE_OK)
        return db_fail(db, p->db_path, "reading runs", d);
    /* a SIMT run's also: the issue port, and where the warps' resident
       time went, by stall reason (the model's list, tessera_names.h); the
       series that are NULL for a MIMD run have no points */
#define STALL_SERIES(name, literal) "stall_" #name "_share",
#define STALL_SERIES_NAME(name, literal) "warps stalled: " #name,
    static const char *const series[] = {
        "core_busy_share", "sm_wait_share", "bank_busy_share", "issue_utilization",
        GEN_SIMT_STALLS(STALL_SERIES)};
    static const char *const names[] = {
        "cores busy", "cores waiting on the SM", "banks busy", "SIMT issue port busy",
        GEN_SIMT_STALLS(STALL_SERIES_NAME)};
    _Static_assert(sizeof series == sizeof names, "a name per series");
    for (int k = 0; k < (int)(sizeof series / sizeof series[0]); k++) {
        /* a stall reason that never happened in the run: no line */
        char only[160] = "";
        if (k >= 4)
            snprintf(only, sizeof only, " AND EXISTS (SELECT 1 FROM intervals AS i WHERE"
                     " i.run_id = %lld AND i.unit = '" GEN_UNIT_SIMT_REASON "%.*s' AND i.busy_ps > 0)",
                     (long long)p->opts.run_id, (int)(strlen(series[k]) - 12), series[k] + 6);
        char sql[600];
        snprintf(sql, sizeof sql,
                 "SELECT from_cycles, '%d %s', %s, to_cycles - from_cycles FROM"
                 " utilization_over_time WHERE run_id = %lld AND kind = 'interval'"
                 " AND to_ps > from_ps AND %s IS NOT NULL%s ORDER BY idx",
                 k, names[k], series[k], (long long)p->opts.run_id, series[k], only);
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL), err = TESS_OK;
        while (rc == SQLITE_OK && err == TESS_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            err = add_point(p, st, d);
            p->interval_cycles = sqlite3_column_int64(st, 3) > p->interval_cycles
                                     ? sqlite3_column_int64(st, 3) : p->interval_cycles;
            rc = SQLITE_OK;
        }
        sqlite3_finalize(st);
        if (err != TESS_OK)
            return err;
        if (rc != SQLITE_DONE)
            return db_fail(db, p->db_path, "reading utilization_over_time", d);
    }
    if (p->n == 0)
        return diag_fail(d, TESS_EINPUT,
                         "%s: run %lld has no intervals (record them with -s record.interval=N)",
                         p->db_path, (long long)p->opts.run_id);
    for (size_t i = 0; i < p->n; i++)
        is_number(p->pts[i].x, &p->pts[i].xv);
    p->x_numeric = true;
    qsort(p->pts, p->n, sizeof *p->pts, cmp_point);
    return TESS_OK;
}

static char *dup_opt(const char *s, bool *lost)
{
    if (!s)
        return NULL;
    char *c = tess_strdup(s);
    *lost |= c == NULL;
    return c;
}

plot_t *plot_open(const char *path, const plot_opts_t *opts, diag_t *d)
{
    plot_t *p = tess_calloc(1, sizeof *p);
    if (!p) {
        diag_fail(d, TESS_ENOMEM, "out of memory");
        return NULL;
    }
    bool lost = false;
    p->opts = *opts;
    p->db_path = dup_opt(path, &lost);
    p->x_key = dup_opt(opts->x_key, &lost);
    p->y_col = dup_opt(opts->y_col, &lost);
    p->by_key = dup_opt(opts->by_key, &lost);
    if (lost) {
        diag_fail(d, TESS_ENOMEM, "out of memory");
        plot_close(p);
        return NULL;
    }
    sqlite3 *db = db_open_read(path, NULL, d);
    int rc = !db ? d->code
             : opts->intervals ? read_intervals(db, p, d)
                               : read_sweep(db, p, d);
    sqlite3_close(db);
    if (rc != TESS_OK) {
        plot_close(p);
        return NULL;
    }
    return p;
}

void plot_close(plot_t *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        tess_free(p->pts[i].x), tess_free(p->pts[i].by);
    tess_free(p->pts);
    tess_free(p->cats);
    tess_free(p->db_path), tess_free(p->x_key), tess_free(p->y_col), tess_free(p->by_key);
    sqlite3_free(p->filter);
    tess_free(p);
}

/* --- the script ---------------------------------------------------------------------- */

const char *plot_format(const char *out)
{
    size_t n = out ? strlen(out) : 0;
    if (n > 4 && strcmp(out + n - 4, ".svg") == 0)
        return "svg";
    if (n > 4 && strcmp(out + n - 4, ".png") == 0)
        return "png";
    return NULL;
}

/* Text of a user's (a file name, --program, --where) on one script line: a
 * control character (a newline would start a gnuplot command) becomes a space. */
static void put_text(FILE *f, const char *s)
{
    for (; s && *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

/* A gnuplot single-quoted string: a quote is doubled, control characters are spaces. */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
    }
    fputc('\'', f);
}

static void put_terminal(const char *format, const char *output, FILE *f)
{
    if (strcmp(format, "png") == 0)
        fprintf(f, "set terminal pngcairo size 960,600 enhanced font 'Sans,11'\n");
    else
        fprintf(f, "set terminal svg size 960,600 dynamic enhanced font 'Sans,13' "
                   "background rgb 'white'\n");
    if (output) {
        fprintf(f, "set output ");
        put_quoted(f, output);
        fputc('\n', f);
    }
}

/* Every point averages as many runs (the caption says how many; else each
 * point is labelled with its own n). */
static bool same_runs(const plot_t *p)
{
    for (size_t i = 1; i < p->n; i++)
        if (p->pts[i].runs != p->pts[0].runs)
            return false;
    return true;
}

static void put_head(const plot_t *p, const char *format, const char *output, FILE *f)
{
    fprintf(f, "# tessera plot: %s against %s", p->y_col, p->x_key);
    if (p->by_key)
        fprintf(f, ", one line per %s", p->by_key);
    fprintf(f, "\n# from ");
    put_text(f, p->db_path);
    fprintf(f, ": the %lld runs with status ok", (long long)p->ok_runs);
    if (p->opts.program)
        fprintf(f, " of program "), put_text(f, p->opts.program);
    if (p->opts.where)
        fprintf(f, " where "), put_text(f, p->opts.where);
    if (p->other_runs)
        fprintf(f, " (%lld other runs left out)", (long long)p->other_runs);
    fprintf(f, "; a point of several runs is their mean\n");
    put_terminal(format, output, f);
    char title[512];
    snprintf(title, sizeof title, "%s against %s%s%s", p->y_col, p->x_key,
             p->opts.program ? ": " : "", p->opts.program ? p->opts.program : "");
    fprintf(f, "set encoding utf8\nset title ");
    put_quoted(f, title);
    fprintf(f, " noenhanced\nset xlabel ");
    put_quoted(f, p->x_key);
    fprintf(f, " noenhanced\nset ylabel ");
    put_quoted(f, p->y_col);
    fprintf(f, " noenhanced\nset grid\nset yrange [0:*]\nset offsets graph 0.03, graph 0.03, "
               "graph 0.12, 0\n");
    /* the caption: which runs, and that a point is a mean (its n beside it) */
    char caption[1024];
    int at = snprintf(caption, sizeof caption, "%lld runs with status ok", (long long)p->ok_runs);
    if (p->opts.program && at > 0 && (size_t)at < sizeof caption)
        at += snprintf(caption + at, sizeof caption - (size_t)at, " of program %s",
                       p->opts.program);
    if (p->opts.where && at > 0 && (size_t)at < sizeof caption)
        at += snprintf(caption + at, sizeof caption - (size_t)at, " where %s", p->opts.where);
    if (p->other_runs && at > 0 && (size_t)at < sizeof caption)
        at += snprintf(caption + at, sizeof caption - (size_t)at, " (%lld other runs left out)",
                       (long long)p->other_runs);
    if (at > 0 && (size_t)at < sizeof caption && same_runs(p))
        snprintf(caption + at, sizeof caption - (size_t)at, "; each point: %s%lld run%s",
                 p->pts[0].runs == 1 ? "" : "the mean of ", (long long)p->pts[0].runs,
                 p->pts[0].runs == 1 ? "" : "s");
    else if (at > 0 && (size_t)at < sizeof caption)
        snprintf(caption + at, sizeof caption - (size_t)at,
                 "; a point is the mean of the n runs written beside it");
    fprintf(f, "set bmargin 5\nset label 1 ");
    put_quoted(f, caption);
    fprintf(f, " at screen 0.01, screen 0.02 left font ',10' noenhanced\n");
    if (p->by_key) {
        fprintf(f, "set key outside right top title ");
        put_quoted(f, p->by_key);
        fprintf(f, " noenhanced\n");
    } else {
        fprintf(f, "set key off\n");
    }
}

static void put_xtics(const plot_t *p, FILE *f)
{
    if (p->x_numeric) {
        fprintf(f, "set xtics (");
        /* every x value is a tic: sweeps have few, and they are the ones asked for */
        bool first = true;
        for (size_t i = 0; i < p->n; i++) {
            bool seen = false;
            for (size_t j = 0; j < i && !seen; j++)
                seen = p->pts[j].xv == p->pts[i].xv;
            if (seen)
                continue;
            fprintf(f, "%s", first ? "" : ", ");
            put_quoted(f, p->pts[i].x);
            fprintf(f, " %.17g", p->pts[i].xv);
            first = false;
        }
        fprintf(f, ")\n");
        return;
    }
    fprintf(f, "set xtics (");
    for (size_t c = 0; c < p->n_cats; c++) {
        fprintf(f, "%s", c ? ", " : "");
        put_quoted(f, p->cats[c]);
        fprintf(f, " %zu", c);
    }
    fprintf(f, ")\nset xrange [-0.5:%zu.5]\n", p->n_cats - 1);
}

static bool same_series(const point_t *a, const point_t *b)
{
    return cmp_value(a->by, b->by) == 0;
}

/* Utilisation over time: one step line per share, x in cycles. */
static void put_intervals(const plot_t *p, const char *format, const char *output, FILE *f)
{
    fprintf(f, "# tessera plot: run %lld of %s, utilisation over time (view"
               " utilization_over_time)\n", (long long)p->opts.run_id, p->db_path);
    put_terminal(format, output, f);
    fprintf(f, "set encoding utf8\nset title 'run %lld: utilisation per interval of %lld cycles'"
               " noenhanced\nset xlabel 'cycle'\nset ylabel 'share (cores, banks: of the units;"
               " warps: of their resident time)'\n"
               "set grid\nset yrange [0:1.05]\nset key outside right top\n",
            (long long)p->opts.run_id, (long long)p->interval_cycles);
    unsigned series = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (i == 0 || !same_series(&p->pts[i - 1], &p->pts[i]))
            fprintf(f, "%s$s%u << EOD\n", i ? "EOD\n" : "", ++series);
        fprintf(f, "%.17g %.6f\n", p->pts[i].xv, p->pts[i].y);
        if (i + 1 == p->n || !same_series(&p->pts[i], &p->pts[i + 1])) /* the last one's end */
            fprintf(f, "%.17g %.6f\n", p->pts[i].xv + (double)p->pts[i].runs, p->pts[i].y);
    }
    fprintf(f, "EOD\nplot ");
    series = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (i > 0 && same_series(&p->pts[i - 1], &p->pts[i]))
            continue;
        fprintf(f, "%s$s%u using 1:2 with steps linewidth 2 title ", series ? ", \\\n     " : "",
                series + 1);
        put_quoted(f, p->pts[i].by + 2); /* after the "k " that orders the series */
        series++;
    }
    fprintf(f, "\n");
}

void plot_write_script(const plot_t *p, const char *format, const char *output, FILE *f)
{
    if (p->opts.intervals) {
        put_intervals(p, format, output, f);
        return;
    }
    put_head(p, format, output, f);
    put_xtics(p, f);
    unsigned series = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (i == 0 || !same_series(&p->pts[i - 1], &p->pts[i]))
            fprintf(f, "%s$s%u << EOD\n", i ? "EOD\n" : "", ++series);
        fprintf(f, "%.17g %.17g %lld  # %s = %s: %lld run%s\n", p->pts[i].xv, p->pts[i].y,
                (long long)p->pts[i].runs, p->x_key, p->pts[i].x, (long long)p->pts[i].runs,
                p->pts[i].runs == 1 ? "" : "s");
    }
    fprintf(f, "EOD\nplot ");
    series = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (i > 0 && same_series(&p->pts[i - 1], &p->pts[i]))
            continue;
        static const int points[] = {7, 5, 9, 13, 11, 15};
        fprintf(f, "%s$s%u using 1:2 with linespoints linewidth 2 dashtype %u pointtype %d "
                   "pointsize 1.3 title ", series ? ", \\\n     " : "", series + 1,
                series % 5 + 1, points[series % 6]);
        put_quoted(f, p->pts[i].by ? p->pts[i].by : p->y_col);
        fprintf(f, " noenhanced");
        if (!same_runs(p))
            fprintf(f, ", \\\n     $s%u using 1:2:(sprintf('n=%%d', $3)) with labels "
                       "offset 0, 1 font ',9' notitle", series + 1);
        series++;
    }
    fprintf(f, "\n");
}

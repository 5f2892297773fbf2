/* plot.c — gnuplot scripts from a statistics database (see plot.h). The data
 * are read first, whole, so that every error is known before a script is
 * written; the script carries them inline (gnuplot data blocks). */
#include "analysis/present/plot.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/store/db.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

typedef struct point {
    char *x;                  /* the parameter's value as recorded */
    char *by;                 /* the series' value, or NULL */
    double xv;                /* x as a number (numeric x) or its category's index */
    double y;                 /* mean of the runs at this point */
    int64_t runs;             /* how many runs were averaged */
} point_t;

struct plot {
    plot_opts_t opts;
    char *db_path, *x_key, *y_col, *by_key, *program, *where;
    bool denied;              /* the authorizer refused an action of --where */
    char *sel;                /* the SQL condition on run_summary AS s that selects the runs */
    point_t *pts;             /* sorted by (series, x) */
    size_t n, cap;
    bool x_numeric;           /* every x is a number: a numeric axis, else categories */
    int64_t interval_cycles;  /* intervals: their length */
    char **cats;              /* the x categories in order (non-numeric x) */
    size_t n_cats;
    int64_t ok_runs, other_runs;
};

/* runs.program (of `s`) is the --program name ?3: the path as given, or its last
 * components, with or without the ".s" */
#define PROGRAM_MATCH                                                                      \
    "(s.program = ?3 OR s.program = ?3 || '.s' OR substr(s.program, -length(?3) - 1) = '/' " \
    "|| ?3 OR substr(s.program, -length(?3) - 3) = '/' || ?3 || '.s')"

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

/* The key's value in the query over run_summary AS s: the run's program path
 * for `program`, else the parameter bound to ?`param`; NULL for no key. */
static void key_expr(const char *key, int param, char *buf, size_t size)
{
    if (!key)
        snprintf(buf, size, "NULL");
    else if (strcmp(key, "program") == 0)
        snprintf(buf, size, "s.program");
    else
        snprintf(buf, size, "(SELECT value FROM params AS q WHERE q.run_id = s.run_id"
                            " AND q.key = ?%d)", param);
}

/* Prepares `sql` with ?1 bound to `text` and, where the statement has them,
 * ?2 to the --by key and ?3 to the --program name. */
static int prepare(sqlite3 *db, const plot_t *p, const char *sql, const char *text,
                   sqlite3_stmt **st)
{
    int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);
    int n = rc == SQLITE_OK ? sqlite3_bind_parameter_count(*st) : 0;
    if (rc == SQLITE_OK && text && n >= 1)
        rc = sqlite3_bind_text(*st, 1, text, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK && p->by_key && n >= 2)
        rc = sqlite3_bind_text(*st, 2, p->by_key, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK && p->program && n >= 3)
        rc = sqlite3_bind_text(*st, 3, p->program, -1, SQLITE_STATIC);
    return rc;
}

/* One integer of `sql` (see prepare() for its parameters). */
static int count_of(sqlite3 *db, const plot_t *p, const char *sql, const char *text,
                    int64_t *out)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare(db, p, sql, text, &st);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st) == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(db);
    if (rc == SQLITE_OK)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc;
}

static int check_key(sqlite3 *db, plot_t *p, const char *opt, const char *key, diag_t *d)
{
    int64_t n = 0;
    if (strcmp(key, "program") == 0)
        return TESS_OK;
    if (count_of(db, p, "SELECT count(*) FROM params WHERE key = ?1", key, &n) != SQLITE_OK)
        return db_fail(db, p->db_path, "reading params", d);
    if (n == 0)
        return diag_fail(d, TESS_EINPUT,
                         "%s %s: no run has this parameter (keys are section.key, as in "
                         "`tessera config --keys`, or program)", opt, key);
    return TESS_OK;
}

/* The --program name's runs exist, or the error lists the programs there are. */
static int check_program(sqlite3 *db, plot_t *p, diag_t *d)
{
    int64_t n = 0;
    if (!p->program)
        return TESS_OK;
    if (count_of(db, p, "SELECT count(*) FROM runs AS s WHERE " PROGRAM_MATCH, NULL, &n))
        return db_fail(db, p->db_path, "reading runs", d);
    if (n > 0)
        return TESS_OK;
    char list[512] = "";
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT DISTINCT program FROM runs ORDER BY program", -1,
                                &st, NULL);
    while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
                 (const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    return diag_fail(d, TESS_EINPUT, "--program %s: no run of this program (the runs' programs: "
                                     "%s)", p->program, list);
}

/* Lets a statement only read: the --where condition can neither write (the
 * connection is read-only as well) nor attach, pragma or call into the host. */
static int read_only(void *arg, int action, const char *a, const char *b, const char *c,
                     const char *e)
{
    (void)a, (void)b, (void)c, (void)e;
    if (action == SQLITE_SELECT || action == SQLITE_READ || action == SQLITE_FUNCTION ||
        action == SQLITE_RECURSIVE)
        return SQLITE_OK;
    *(bool *)arg = true; /* denied */
    return SQLITE_DENY;
}

/* --where is one SQL expression over run_summary's columns, read-only. */
static int check_where(sqlite3 *db, plot_t *p, diag_t *d)
{
    if (!p->where)
        return TESS_OK;
    if (!*p->where)
        return diag_fail(d, TESS_EUSAGE, "--where: the condition is empty");
    size_t size = strlen(p->where) + 64;
    char *sql = tess_malloc(size);
    if (!sql)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    snprintf(sql, size, "SELECT count(*) FROM run_summary AS s WHERE (\n%s\n)", p->where);
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, &tail);
    bool more = rc == SQLITE_OK && tail && tail[strspn(tail, " \t\n;")] != 0;
    if (rc == SQLITE_OK && !more)
        rc = sqlite3_step(st) == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(db);
    sqlite3_finalize(st);
    tess_free(sql);
    if (more)
        return diag_fail(d, TESS_EINPUT, "--where \"%s\": one condition, not statements",
                         p->where);
    if (rc != SQLITE_OK && p->denied)
        return diag_fail(d, TESS_EINPUT, "--where \"%s\": not authorized (the condition may "
                                         "only read tables and views)", p->where);
    if (rc != SQLITE_OK)
        return diag_fail(d, TESS_EINPUT, "--where \"%s\": %s (a condition on run_summary's "
                                         "columns, e.g. \"banks >= 8 AND bank_map <> 'high'\")",
                         p->where, sqlite3_errmsg(db));
    return TESS_OK;
}

/* p->sel: status ok, and --program and --where where given. */
static int build_selection(plot_t *p, diag_t *d)
{
    size_t size = (p->where ? strlen(p->where) : 0) + strlen(PROGRAM_MATCH) + 64;
    p->sel = tess_malloc(size);
    if (!p->sel)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    snprintf(p->sel, size, "s.status = 'ok'%s%s%s%s", p->program ? " AND " PROGRAM_MATCH : "",
             p->where ? " AND (\n" : "", p->where ? p->where : "", p->where ? "\n)" : "");
    return TESS_OK;
}

static int check_runs(sqlite3 *db, plot_t *p, diag_t *d)
{
    size_t size = strlen(p->sel) + 256;
    char *sql = tess_malloc(size);
    int64_t text = 0, all = 0;
    if (!sql)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    snprintf(sql, size, "SELECT count(*) FROM run_summary AS s WHERE %s", p->sel);
    int rc = count_of(db, p, sql, NULL, &p->ok_runs);
    if (rc == SQLITE_OK)
        rc = count_of(db, p, "SELECT count(*) FROM runs", NULL, &all);
    snprintf(sql, size, "SELECT count(*) FROM run_summary AS s WHERE %s AND typeof(s.\"%s\")"
                        " = 'text'", p->sel, p->y_col);
    if (rc == SQLITE_OK)
        rc = count_of(db, p, sql, NULL, &text);
    tess_free(sql);
    if (rc != SQLITE_OK)
        return db_fail(db, p->db_path, "reading run_summary", d);
    p->other_runs = all - p->ok_runs;
    if (p->ok_runs == 0)
        return diag_fail(d, TESS_EINPUT, "%s: no run with status ok%s to plot", p->db_path,
                         p->program || p->where ? " matches --program/--where" : "");
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
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 32;
        point_t *v = tess_realloc(p->pts, cap * sizeof *v);
        if (!v)
            return diag_fail(d, TESS_ENOMEM, "out of memory");
        p->pts = v, p->cap = cap;
    }
    bool lost = false;
    point_t *pt = &p->pts[p->n++];
    *pt = (point_t){dup_text(st, 0, &lost), dup_text(st, 1, &lost), 0,
                    sqlite3_column_double(st, 2), sqlite3_column_int64(st, 3)};
    if (lost || !pt->x)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    return TESS_OK;
}

static int read_points(sqlite3 *db, plot_t *p, diag_t *d)
{
    char x[128], b[128];
    key_expr(p->x_key, 1, x, sizeof x);
    key_expr(p->by_key, 2, b, sizeof b);
    size_t size = strlen(p->sel) + 1024;
    char *sql = tess_malloc(size);
    if (!sql)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    snprintf(sql, size,
             "SELECT x, b, avg(y), count(*) FROM (SELECT %s AS x, %s AS b, s.\"%s\" AS y"
             " FROM run_summary AS s WHERE %s)"
             " WHERE x IS NOT NULL AND y IS NOT NULL GROUP BY b, x",
             x, b, p->y_col, p->sel);
    sqlite3_stmt *st = NULL;
    int rc = prepare(db, p, sql, p->x_key, &st);
    tess_free(sql);
    int err = TESS_OK;
    while (rc == SQLITE_OK && err == TESS_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        err = add_point(p, st, d);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    if (err != TESS_OK)
        return err;
    if (rc != SQLITE_DONE)
        return db_fail(db, p->db_path, "reading the sweep", d);
    if (p->n == 0)
        return diag_fail(d, TESS_EINPUT, "%s: no run with status ok%s has both %s and %s",
                         p->db_path, p->program || p->where ? " (of --program/--where)" : "",
                         p->x_key, p->y_col);
    return TESS_OK;
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

static int read_sweep(sqlite3 *db, plot_t *p, diag_t *d)
{
    int rc = check_column(db, p, d);
    if (rc == TESS_OK)
        rc = check_key(db, p, "--x", p->x_key, d);
    if (rc == TESS_OK && p->by_key)
        rc = check_key(db, p, "--by", p->by_key, d);
    if (rc == TESS_OK)
        rc = check_program(db, p, d);
    if (rc == TESS_OK) { /* from here on every statement only reads */
        sqlite3_set_authorizer(db, read_only, &p->denied);
        rc = check_where(db, p, d);
    }
    if (rc == TESS_OK)
        rc = build_selection(p, d);
    if (rc == TESS_OK)
        rc = check_runs(db, p, d);
    if (rc == TESS_OK)
        rc = read_points(db, p, d);
    return rc == TESS_OK ? place_points(p, d) : rc;
}

/* --- intervals ------------------------------------------------------------------------ */

static int read_intervals(sqlite3 *db, plot_t *p, diag_t *d)
{
    if (p->opts.run_id == 0 &&
        db_query_int(db, "SELECT coalesce(max(run_id), 0) FROM runs", &p->opts.run_id) != SQLITE_OK)
        return db_fail(db, p->db_path, "reading runs", d);
    static const char *const series[] = {"core_busy_share", "sm_wait_share", "bank_busy_share"};
    static const char *const names[] = {"cores busy", "cores waiting on the SM", "banks busy"};
    for (int k = 0; k < 3; k++) {
        char sql[320];
        snprintf(sql, sizeof sql,
                 "SELECT from_cycles, '%d %s', %s, to_cycles - from_cycles FROM"
                 " utilization_over_time WHERE run_id = %lld AND kind = 'interval'"
                 " AND to_ps > from_ps ORDER BY idx",
                 k, names[k], series[k], (long long)p->opts.run_id);
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
    p->program = dup_opt(opts->program, &lost);
    p->where = dup_opt(opts->where, &lost);
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
    tess_free(p->program), tess_free(p->where), tess_free(p->sel);
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

/* A gnuplot single-quoted string: a quote is doubled. */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
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

static void put_head(const plot_t *p, const char *format, const char *output, FILE *f)
{
    fprintf(f, "# tessera plot: %s against %s", p->y_col, p->x_key);
    if (p->by_key)
        fprintf(f, ", one line per %s", p->by_key);
    fprintf(f, "\n# from %s: the %lld runs with status ok", p->db_path, (long long)p->ok_runs);
    if (p->program)
        fprintf(f, " of program %s", p->program);
    if (p->where) {
        fprintf(f, " where ");
        for (const char *c = p->where; *c; c++) /* the comment stays one line */
            fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
    }
    if (p->other_runs)
        fprintf(f, " (%lld other runs left out)", (long long)p->other_runs);
    fprintf(f, "; a point of several runs is their mean\n");
    put_terminal(format, output, f);
    fprintf(f, "set encoding utf8\nset title '");
    fprintf(f, "%s against %s", p->y_col, p->x_key);
    fputc('\'', f);
    if (p->program) {
        fprintf(f, " . ' (' . ");
        put_quoted(f, p->program);
        fprintf(f, " . ')'");
    }
    fprintf(f, " noenhanced\nset xlabel ");
    put_quoted(f, p->x_key);
    fprintf(f, " noenhanced\nset ylabel ");
    put_quoted(f, p->y_col);
    fprintf(f, " noenhanced\nset grid\nset yrange [0:*]\nset offsets graph 0.03, graph 0.03, "
               "graph 0.05, 0\n");
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
               " noenhanced\nset xlabel 'cycle'\nset ylabel 'share of the 16 units'\n"
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
        fprintf(f, "%.17g %.17g  # %s = %s: %lld run%s\n", p->pts[i].xv, p->pts[i].y,
                p->x_key, p->pts[i].x, (long long)p->pts[i].runs, p->pts[i].runs == 1 ? "" : "s");
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
        series++;
    }
    fprintf(f, "\n");
}

/* report.c — a run's report, or a comparison of runs, read from the analysis
 * views of a statistics database and written as text, CSV or JSON.
 * Invariant: every table of a report is one query over the views, loaded
 * whole (a report's tables are small: at most 64 frames, 16 cores, 16
 * banks, a row per run) and then written; CSV and JSON carry the values
 * exactly as SQLite returned them, text only formats them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/present/report.h"
#include "analysis/store/db.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "analysis/present/escape.h"
#include "tessera_names.h" /* the model's machines and stall reasons (cmake/gen-names.c) */

struct report {
    sqlite3 *db;              /* read-only connection */
    char *path;               /* as given, for messages */
};

/* --- a loaded result ------------------------------------------------------ */

typedef struct cell {
    int type;                 /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_NULL */
    int64_t i;
    double d;
    char *s;                  /* SQLITE_TEXT (blobs are read as text) */
} cell_t;

typedef struct table {
    const char *name;         /* the report's name for it */
    int ncols;
    char **cols;              /* column names */
    cell_t *cells;            /* nrows × ncols, row-major */
    size_t nrows, cap;        /* rows loaded, rows allocated */
} table_t;

static void tbl_free(table_t *t)
{
    for (size_t k = 0; k < t->nrows * (size_t)t->ncols; k++)
        tess_free(t->cells[k].s);
    for (int c = 0; c < t->ncols; c++)
        tess_free(t->cols[c]);
    tess_free(t->cells);
    tess_free(t->cols);
    memset(t, 0, sizeof *t);
}

static int tbl_col(const table_t *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (!strcmp(t->cols[c], name))
            return c;
    return -1;
}

static const cell_t *tbl_at(const table_t *t, size_t row, int col)
{
    return &t->cells[row * (size_t)t->ncols + (size_t)col];
}

static int fail_db(report_t *rep, const char *what, diag_t *d)
{
    int code = sqlite3_errcode(rep->db) == SQLITE_NOMEM ? TESS_ENOMEM : TESS_EDB;
    return diag_fail(d, code, "%s: %s: %s", rep->path, what, sqlite3_errmsg(rep->db));
}

static int set_cell(cell_t *c, sqlite3_stmt *st, int col)
{
    c->type = sqlite3_column_type(st, col);
    if (c->type == SQLITE_INTEGER)
        c->i = sqlite3_column_int64(st, col);
    else if (c->type == SQLITE_FLOAT)
        c->d = sqlite3_column_double(st, col);
    else if (c->type != SQLITE_NULL) {
        const unsigned char *s = sqlite3_column_text(st, col);
        c->type = SQLITE_TEXT;
        c->s = tess_strdup(s ? (const char *)s : "");
        if (!c->s)
            return TESS_ENOMEM;
    }
    return TESS_OK;
}

static int tbl_columns(table_t *t, sqlite3_stmt *st)
{
    t->ncols = sqlite3_column_count(st);
    t->cols = tess_calloc((size_t)t->ncols + 1, sizeof *t->cols);
    if (!t->cols)
        return TESS_ENOMEM;
    for (int c = 0; c < t->ncols; c++)
        if (!(t->cols[c] = tess_strdup(sqlite3_column_name(st, c))))
            return TESS_ENOMEM;
    return TESS_OK;
}

static int tbl_add_row(table_t *t, sqlite3_stmt *st)
{
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        cell_t *cells = tess_realloc(t->cells, cap * (size_t)t->ncols * sizeof *cells + 1);
        if (!cells)
            return TESS_ENOMEM;
        t->cells = cells;
        t->cap = cap;
    }
    cell_t *row = &t->cells[t->nrows * (size_t)t->ncols];
    memset(row, 0, (size_t)t->ncols * sizeof *row);
    t->nrows++;
    for (int c = 0; c < t->ncols; c++)
        if (set_cell(&row[c], st, c) != TESS_OK)
            return TESS_ENOMEM;
    return TESS_OK;
}

/* Runs `st` to the end into t (named `name`); finalizes st. On failure t
 * holds what was loaded (free it with tbl_free). */
static int tbl_load(report_t *rep, table_t *t, const char *name, sqlite3_stmt *st, diag_t *d)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    int rc = tbl_columns(t, st), src = SQLITE_ROW;
    while (rc == TESS_OK && (src = sqlite3_step(st)) == SQLITE_ROW)
        rc = tbl_add_row(t, st);
    if (rc == TESS_OK && src != SQLITE_DONE)
        rc = fail_db(rep, name, d);
    else if (rc != TESS_OK)
        rc = diag_fail(d, rc, "%s: out of memory reading %s", rep->path, name);
    sqlite3_finalize(st);
    return rc;
}

/* --- formatting values ------------------------------------------------------ */

/* The value as text: exact for CSV and JSON (reals round-trip), rounded to
 * four significant digits for text. NULL is "" (CSV, JSON) or "-" (text). */
static const char *fmt_cell(const cell_t *c, bool text, char *buf, size_t size)
{
    switch (c->type) {
    case SQLITE_INTEGER:
        snprintf(buf, size, "%lld", (long long)c->i);
        return buf;
    case SQLITE_FLOAT:
        if (!text)
            snprintf(buf, size, "%.17g", c->d);
        else
            snprintf(buf, size, fabs(c->d) >= 1000 ? "%.1f" : "%.4g", c->d);
        return buf;
    case SQLITE_TEXT:
        return c->s;
    default:
        return text ? "-" : "";
    }
}

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void json_value(FILE *out, const cell_t *c)
{
    char buf[64];
    if (c->type == SQLITE_TEXT)
        esc_json(out, c->s);
    else if (c->type == SQLITE_NULL || (c->type == SQLITE_FLOAT && !isfinite(c->d)))
        fputs("null", out);
    else
        fputs(fmt_cell(c, false, buf, sizeof buf), out);
}

/* --- CSV and JSON ------------------------------------------------------------ */

static void csv_table(FILE *out, const table_t *t, bool titled)
{
    char buf[64];
    if (titled)
        fprintf(out, "# %s\n", t->name);
    for (int c = 0; c < t->ncols; c++) {
        fputs(c ? "," : "", out);
        csv_field(out, t->cols[c]);
    }
    fputc('\n', out);
    for (size_t r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            fputs(c ? "," : "", out);
            csv_field(out, fmt_cell(tbl_at(t, r, c), false, buf, sizeof buf));
        }
        fputc('\n', out);
    }
    if (titled)
        fputc('\n', out);
}

/* "name": [ {…}, … ] — one member of the report's object. */
static void json_table(FILE *out, const table_t *t, bool first)
{
    fprintf(out, "%s\n  ", first ? "" : ",");
    esc_json(out, t->name);
    fputs(": [", out);
    for (size_t r = 0; r < t->nrows; r++) {
        fputs(r ? ",\n    {" : "\n    {", out);
        for (int c = 0; c < t->ncols; c++) {
            fputs(c ? ", " : "", out);
            esc_json(out, t->cols[c]);
            fputs(": ", out);
            json_value(out, tbl_at(t, r, c));
        }
        fputc('}', out);
    }
    fputs(t->nrows ? "\n  ]" : "]", out);
}

/* --- text -------------------------------------------------------------------- */

/* What a text table shows: columns given as "column" or "column:Header"
 * (NULL: every column). */
typedef struct text_spec {
    const char *title;        /* heading */
    const char *const *cols;  /* NULL-terminated, or NULL */
    const char *skip;         /* rows whose column is 0 are left out (NULL: none) */
    const char *needs;        /* record level the table needs ("tasks", "mem"), or NULL */
} text_spec_t;

#define TEXT_MAX_COLS 48

typedef struct text_cols {
    int n;
    int idx[TEXT_MAX_COLS];           /* column of the table */
    char head[TEXT_MAX_COLS][64];     /* header shown */
    size_t width[TEXT_MAX_COLS];
} text_cols_t;

static void text_pick(const table_t *t, const text_spec_t *spec, text_cols_t *tc)
{
    tc->n = 0;
    for (int c = 0; !spec->cols && c < t->ncols && tc->n < TEXT_MAX_COLS; c++) {
        tc->idx[tc->n] = c;
        snprintf(tc->head[tc->n++], sizeof tc->head[0], "%s", t->cols[c]);
    }
    for (const char *const *s = spec->cols; s && *s && tc->n < TEXT_MAX_COLS; s++) {
        const char *colon = strchr(*s, ':');
        char name[64];
        snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - *s) : (int)strlen(*s), *s);
        int c = tbl_col(t, name);
        if (c < 0)
            continue;
        tc->idx[tc->n] = c;
        snprintf(tc->head[tc->n++], sizeof tc->head[0], "%s", colon ? colon + 1 : name);
    }
}

static bool text_skipped(const table_t *t, const text_spec_t *spec, size_t row)
{
    int c = spec->skip ? tbl_col(t, spec->skip) : -1;
    if (c < 0)
        return false;
    const cell_t *v = tbl_at(t, row, c);
    return v->type == SQLITE_INTEGER && v->i == 0;
}

static void text_widths(const table_t *t, const text_spec_t *spec, text_cols_t *tc)
{
    char buf[64];
    for (int k = 0; k < tc->n; k++) {
        tc->width[k] = strlen(tc->head[k]);
        for (size_t r = 0; r < t->nrows; r++) {
            size_t w = strlen(fmt_cell(tbl_at(t, r, tc->idx[k]), true, buf, sizeof buf));
            if (!text_skipped(t, spec, r) && w > tc->width[k])
                tc->width[k] = w;
        }
    }
}

static void text_row(FILE *out, const table_t *t, const text_cols_t *tc, size_t row)
{
    char buf[64];
    fputs(" ", out);
    for (int k = 0; k < tc->n; k++) {
        const cell_t *v = tbl_at(t, row, tc->idx[k]);
        int w = (int)tc->width[k];
        const char *s = fmt_cell(v, true, buf, sizeof buf);
        fprintf(out, v->type == SQLITE_TEXT ? " %-*s" : " %*s", w, s);
    }
    fputc('\n', out);
}

static void text_table(FILE *out, const table_t *t, const text_spec_t *spec, const char *level)
{
    text_cols_t tc;
    text_pick(t, spec, &tc);
    text_widths(t, spec, &tc);
    fprintf(out, "\n%s\n", spec->title);
    size_t shown = 0;
    for (size_t r = 0; r < t->nrows; r++)
        shown += !text_skipped(t, spec, r);
    if (shown == 0) {
        bool unrecorded = spec->needs && level &&
                          db_level_from_name(level) < db_level_from_name(spec->needs);
        fprintf(out, "  (none%s%s%s)\n", unrecorded ? ": needs record.level=" : "",
                unrecorded ? spec->needs : "", unrecorded ? " or more" : "");
        return;
    }
    fputs(" ", out);
    for (int k = 0; k < tc.n; k++) {
        bool left = tbl_at(t, 0, tc.idx[k])->type == SQLITE_TEXT;
        fprintf(out, left ? " %-*s" : " %*s", (int)tc.width[k], tc.head[k]);
    }
    fputc('\n', out);
    for (size_t r = 0; r < t->nrows; r++)
        if (!text_skipped(t, spec, r))
            text_row(out, t, &tc, r);
}

/* --- the text summary -------------------------------------------------------- */

/* Label and template; {column} is replaced by the value, and a line whose
 * every value is NULL is left out. */
static const char *const summary_lines[][2] = {
    {"program", "{program}"},
    {"status", "{status}"},
    {"error", "{error}"},
    {"recorded", "level {level}, started {started_at}"},
    {"end time", "{end_cycles} cycles = {end_ps} ps (clock period {period_ps} ps)"},
    {"tasks", "{tasks} ({core_tasks} core tasks, {frames} frames)"},
    {"instructions", "{instructions}"},
    {"SIMT", "{warp_instructions} warp instructions, SIMT efficiency {simt_efficiency}, "
             "issue utilisation {issue_utilization}"},
    {"SM accesses", "{sm_accesses}, of which {conflicts} waited for their bank"},
    {"cycles lost", "{conflict_cycles} waiting for banks (bank conflicts)"},
    {"waiting", "{waiting_cycles} frame-cycles waiting to be issued (see stalls)"},
    {"parallelism", "{mean_parallelism} cores busy on average"},
    {"wall time", "{wall_s} s, {events} kernel events"},
    {"scheduler", "policy {policy}, window {ts_window}, decode/xfer/ready {ts_decode}/"
                  "{ts_xfer}/{ts_ready} cycles"},
    {"memory", "arbiter {arbiter}, {banks} banks, bank_map {bank_map}, atomics {atomics}, req/bank/resp "
               "{sm_req}/{sm_bank}/{sm_resp} cycles"},
    {"model", "timing {timing}, seed {seed}"},
    {"SIMT unit", "scheduler {simt_scheduler}, issue width {simt_issue_width}, scoreboard "
                  "{simt_scoreboard}, broadcast {simt_broadcast}, reconvergence "
                  "{simt_reconvergence}"},
};

/* Expands one template into buf; returns false when every value was NULL. */
static bool expand(const table_t *t, const char *tpl, char *buf, size_t size)
{
    size_t len = 0;
    bool any = false;
    char val[64];
    buf[0] = 0;
    for (const char *p = tpl; *p && len + 1 < size;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (!close) {
            buf[len++] = *p++;
            buf[len] = 0;
            continue;
        }
        char name[48];
        snprintf(name, sizeof name, "%.*s", (int)(close - p - 1), p + 1);
        int c = tbl_col(t, name);
        const cell_t *v = c >= 0 && t->nrows ? tbl_at(t, 0, c) : NULL;
        any |= v && v->type != SQLITE_NULL;
        len += (size_t)snprintf(buf + len, size - len, "%s",
                                v ? fmt_cell(v, true, val, sizeof val) : "?");
        len = len < size ? len : size - 1;
        p = close + 1;
    }
    return any;
}

static void text_summary(FILE *out, const table_t *t, const char *path)
{
    char line[1024];
    int id = tbl_col(t, "run_id");
    fprintf(out, "Run %lld of %s\n", id >= 0 && t->nrows ? (long long)tbl_at(t, 0, id)->i : 0LL,
            path);
    for (size_t k = 0; k < sizeof summary_lines / sizeof summary_lines[0]; k++)
        if (expand(t, summary_lines[k][1], line, sizeof line))
            fprintf(out, "  %-14s %s\n", summary_lines[k][0], line);
}

/* --- the sections of a run's report ----------------------------------------- */

typedef struct section {
    const char *name;
    const char *sql;          /* ?1 = the run */
    text_spec_t text;
    bool simt;                /* only for core.model = simt runs (unless asked by name) */
    bool groups;              /* only for simt.reconvergence = barrier runs (S14; idem) */
} section_t;

static const char *const tasks_cols[] = {
    "frame", "grp:group", "mask_hex:mask", "fence", "decoding_cycles:decode",
    "waiting_cycles:waiting", "transfer_cycles:transfer", "execution_cycles:execution",
    "total_cycles:total", NULL};
static const char *const totals_cols[] = {
    "tasks", "decoding_cycles:decode", "waiting_cycles:waiting", "transfer_cycles:transfer",
    "execution_cycles:execution", "total_cycles:total", "p50_cycles:p50", "p95_cycles:p95",
    "p99_cycles:p99", NULL};
static const char *const cores_cols[] = {
    "core", "tasks", "busy_cycles:busy", "share", "instructions", "sm_ops:SM ops",
    "sm_wait_cycles:SM wait", "sm_conflict_cycles:of which conflict", NULL};
static const char *const banks_cols[] = {
    "bank", "accesses", "busy_cycles:busy", "share", "conflicts", "wait_cycles:wait",
    "mean_wait_cycles:mean wait", "max_wait_cycles:max wait", NULL};
static const char *const stalls_cols[] = {
    "reason", "stalls", "frames", "total_cycles:cycles", "max_cycles:longest", "share", NULL};
static const char *const waiting_cols[] = {
    "frame", "kind", "fence", "waiting_cycles:waiting", "mask_cycles:mask", "acq_cycles:acq",
    "rel_cycles:rel", "bus_cycles:bus", "order_cycles:order", NULL};
static const char *const simt_cols[] = {
    "warps", "warp_instructions:warp instr", "lane_instructions:lane instr",
    "simt_efficiency:SIMT eff", "lane_utilization:lane util", "issue_width:width",
    "run_cycles:cycles", "issue_utilization:issue util", "divergent_branches:divergent",
    "mem_instructions:ld/st", "replays", NULL};
static const char *const simt_stall_cols[] = {"reason", "cycles", "share", NULL};
/* Over tessera_names.h's stall reasons X(name, 'name'): nothing; a reason's
 * column stall_NAME_cycles headed by its name (or "NAME stall"), or its name
 * as a term of a sum of cycles. */
#define NONE(name, literal)
#define STALL_LABEL(name, literal) "stall_" #name "_cycles:" #name,
#define STALL_LABEL_STALL(name, literal) "stall_" #name "_cycles:" #name " stall",
#define STALL_TERM(name, literal) " + " #name
#define STALL_GROUPS_TERM(name, literal) " (+ " #name ": groups)"
static const char *const warps_cols[] = {
    "frame", "mask_hex:mask", "warp_instructions:warp instr", "lane_instructions:lane instr",
    "simt_efficiency:SIMT eff", "divergent_branches:divergent", "max_stack_depth:stack",
    "resident_cycles:resident", "issued_cycles:issued", GEN_SIMT_STALLS_BY(STALL_LABEL, NONE)
    "replays", NULL};
static const char *const groups_cols[] = {
    "frame", "mask_hex:mask", "divergent_branches:divergent", "max_groups:most groups",
    "barriers", GEN_SIMT_STALLS_BY(NONE, STALL_LABEL_STALL) "resident_cycles:resident", NULL};
static const char *const simt_replay_cols[] = {
    "op", "replays", "instructions", "lanes", "requests", "mean_banks:banks",
    "mean_latency_cycles:mean latency", NULL};
static const char *const smlat_cols[] = {
    "accesses", "min_cycles:min", "p50_cycles:p50", "p95_cycles:p95", "p99_cycles:p99",
    "max_cycles:max", "mean_cycles:mean", NULL};

#define TL_PARTS(f) f "(decoding_ps) AS decoding_ps, " f "(waiting_ps) AS waiting_ps, " \
    f "(transfer_ps) AS transfer_ps, " f "(execution_ps) AS execution_ps, "             \
    f "(total_ps) AS total_ps, " f "(decoding_cycles) AS decoding_cycles, "             \
    f "(waiting_cycles) AS waiting_cycles, " f "(transfer_cycles) AS transfer_cycles, " \
    f "(execution_cycles) AS execution_cycles, " f "(total_cycles) AS total_cycles"
#define PCT(col) "(SELECT " col " FROM task_latency_percentiles WHERE run_id = ?1) AS " col

static const section_t sections[] = {
    {"summary", "SELECT * FROM run_summary WHERE run_id = ?1", {"", NULL, NULL, NULL}, false,
     false},
    {"tasks",
     "SELECT frame, grp, mask, mask_hex, fence, complete, decode_start_ps, decode_ps,"
     " issue_ps, start_ps, complete_ps, decoding_ps, waiting_ps, transfer_ps, execution_ps,"
     " total_ps, decoding_cycles, waiting_cycles, transfer_cycles, execution_cycles,"
     " total_cycles FROM task_latency WHERE run_id = ?1 ORDER BY frame",
     {"Task latency per frame, in cycles: decode + waiting + transfer + execution = total",
      tasks_cols, NULL, "tasks"}, false, false},
    {"task_totals",
     "SELECT count(*) AS tasks, " TL_PARTS("sum") ", " PCT("p50_ps") ", " PCT("p95_ps") ", "
     PCT("p99_ps") ", " PCT("p50_cycles") ", " PCT("p95_cycles") ", " PCT("p99_cycles")
     " FROM task_latency WHERE run_id = ?1 AND complete",
     {"Task latency, all complete tasks (sums; nearest-rank percentiles of the total)",
      totals_cols, "tasks", "tasks"}, false, false},
    {"cores",
     "SELECT core, tasks, busy_ps, busy_cycles, share, instructions, sm_ops, sm_wait_ps,"
     " sm_wait_cycles, sm_conflict_ps, sm_conflict_cycles"
     " FROM core_utilization WHERE run_id = ?1 ORDER BY core",
     {"Cores (busy: from task start to READY sent; share of the run)", cores_cols, "tasks",
      NULL}, false, false},
    {"banks",
     "SELECT u.bank AS bank, u.accesses AS accesses, u.busy_ps AS busy_ps,"
     " u.busy_cycles AS busy_cycles, u.share AS share, u.lock_acquires AS lock_acquires,"
     " c.conflicts AS conflicts, c.conflict_share AS conflict_share, c.wait_ps AS wait_ps,"
     " c.wait_cycles AS wait_cycles, c.mean_wait_ps AS mean_wait_ps,"
     " c.mean_wait_cycles AS mean_wait_cycles,"
     " c.mean_conflict_wait_ps AS mean_conflict_wait_ps, c.max_wait_ps AS max_wait_ps,"
     " c.max_wait_cycles AS max_wait_cycles"
     " FROM bank_utilization AS u JOIN bank_conflicts AS c"
     "  ON c.run_id = u.run_id AND c.bank = u.bank"
     " WHERE u.run_id = ?1 AND c.run_id = ?1 ORDER BY u.bank",
     {"Banks (busy: serving accesses; conflicts: accesses that waited for the bank)",
      banks_cols, "accesses", NULL}, false, false},
    {"stalls",
     "SELECT reason, stalls, frames, total_ps, total_cycles, max_ps, max_cycles, share"
     " FROM fence_stalls WHERE run_id = ?1 ORDER BY total_ps DESC, reason",
     {"Waiting to be issued, by reason (frame-cycles; share of all waiting)", stalls_cols,
      NULL, "tasks"}, false, false},
    {"waiting",
     "SELECT frame, kind, grp, fence, decode_ps, issue_ps, waiting_ps, mask_ps, acq_ps,"
     " rel_ps, bus_ps, order_ps, attributed_ps, unattributed_ps, waiting_cycles,"
     " mask_cycles, acq_cycles, rel_cycles, bus_cycles, order_cycles"
     " FROM frame_stalls WHERE run_id = ?1 ORDER BY frame",
     {"Waiting per frame, attributed to its reasons (cycles; frames that waited)",
      waiting_cols, "waiting_ps", "tasks"}, false, false},
    {"sm_latency",
     "SELECT accesses, min_ps, p50_ps, p95_ps, p99_ps, max_ps, mean_ps, min_cycles,"
     " p50_cycles, p95_cycles, p99_cycles, max_cycles, mean_cycles"
     " FROM sm_latency_percentiles WHERE run_id = ?1",
     {"SM access latency, request to answer (nearest-rank percentiles, cycles)", smlat_cols,
      NULL, "mem"}, false, false},
    {"simt",
     "SELECT * FROM simt_efficiency WHERE run_id = ?1",
     {"SIMT unit: efficiency (lane / (warp instr x lanes)), lane and issue utilisation",
      simt_cols, NULL, NULL}, true, false},
    {"simt_stalls",
     "SELECT reason, cycles, share FROM simt_stalls WHERE run_id = ?1 ORDER BY cycles DESC,"
     " reason",
     {"SIMT warp stalls by reason (warp-cycles; share of resident cycles)", simt_stall_cols,
      NULL, NULL}, true, false},
    {"warps",
     "SELECT * FROM simt_warp_efficiency WHERE run_id = ?1 ORDER BY frame",
     {"SIMT warps (cycles: issued" GEN_SIMT_STALLS_BY(STALL_TERM, STALL_GROUPS_TERM)
      " = resident)",
      warps_cols, NULL, "tasks"}, true, false},
    {"groups",
     "SELECT * FROM simt_warp_efficiency WHERE run_id = ?1 ORDER BY frame",
     {"SIMT thread groups (simt.reconvergence = barrier, S14): the most a warp held at once, "
      "the convergence barriers it created, the cycles it waited at one",
      groups_cols, NULL, "tasks"}, true, true},
    {"simt_replays",
     "SELECT op, replays, instructions, lanes, requests, mean_banks, mean_latency_ps,"
     " mean_latency_cycles"
     " FROM simt_replays WHERE run_id = ?1 ORDER BY op, replays",
     {"SIMT ld/st by bank-conflict replays (the largest number of requests to one bank - 1)",
      simt_replay_cols, NULL, "mem"}, true, false},
};

#define N_SECTIONS (sizeof sections / sizeof sections[0])

bool report_table_known(const char *name, bool compare)
{
    if (compare)
        return name && !strcmp(name, "compare");
    for (size_t k = 0; name && k < N_SECTIONS; k++)
        if (!strcmp(sections[k].name, name))
            return true;
    return false;
}

const char *report_table_list(void)
{
    return "summary, tasks, task_totals, cores, banks, stalls, waiting, sm_latency, simt, "
           "simt_stalls, warps, groups, simt_replays (--compare: compare)";
}

/* --- writing tables in the chosen format ------------------------------------- */

typedef struct writer {
    FILE *out;
    uint8_t format;           /* report_format_t */
    bool titled;              /* CSV: several tables, each after a "# name" line */
    bool first;               /* JSON: no table written yet */
    const char *path;         /* the database, for the text summary */
    const char *level;        /* the run's record level, for text notes */
} writer_t;

static void w_begin(writer_t *w, FILE *out, const report_opts_t *o, const char *path)
{
    *w = (writer_t){.out = out, .format = o->format, .titled = !o->table, .first = true,
                    .path = path};
    if (w->format == REPORT_JSON)
        fputc('{', out);
}

static void w_table(writer_t *w, const table_t *t, const text_spec_t *spec)
{
    if (w->format == REPORT_CSV)
        csv_table(w->out, t, w->titled);
    else if (w->format == REPORT_JSON)
        json_table(w->out, t, w->first);
    else if (!strcmp(t->name, "summary"))
        text_summary(w->out, t, w->path);
    else
        text_table(w->out, t, spec, w->level);
    w->first = false;
}

static int w_end(writer_t *w, diag_t *d)
{
    if (w->format == REPORT_JSON)
        fputs("\n}\n", w->out);
    if (fflush(w->out) != 0 || ferror(w->out))
        return diag_fail(d, TESS_EIO, "writing the report: %s", strerror(errno));
    return TESS_OK;
}

/* --- queries ------------------------------------------------------------------ */

/* Loads `sql` with ?1 bound to `run` (or to the text `list` when not NULL). */
static int query(report_t *rep, const char *name, const char *sql, int64_t run,
                 const char *list, table_t *t, diag_t *d)
{
    sqlite3_stmt *st = NULL;
    memset(t, 0, sizeof *t);
    if (sqlite3_prepare_v2(rep->db, sql, -1, &st, NULL) != SQLITE_OK)
        return fail_db(rep, name, d);
    int rc = sqlite3_bind_parameter_count(st) == 0 ? SQLITE_OK
             : list ? sqlite3_bind_text(st, 1, list, -1, SQLITE_STATIC)
                    : sqlite3_bind_int64(st, 1, run);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(st);
        return fail_db(rep, name, d);
    }
    return tbl_load(rep, t, name, st, d);
}

/* One integer of a one-row query with ?1 bound as in query(); -1 on NULL. */
static int query_int(report_t *rep, const char *sql, int64_t run, const char *list,
                     int64_t *v, diag_t *d)
{
    table_t t;
    int rc = query(rep, "query", sql, run, list, &t, d);
    *v = -1;
    if (rc == TESS_OK && t.nrows && t.ncols && t.cells[0].type == SQLITE_INTEGER)
        *v = t.cells[0].i;
    tbl_free(&t);
    return rc;
}

int report_last_run(report_t *rep, int64_t *run_id, diag_t *d)
{
    int rc = query_int(rep, "SELECT max(run_id) FROM runs", 0, NULL, run_id, d);
    if (rc == TESS_OK && *run_id < 0)
        return diag_fail(d, TESS_EINPUT, "%s: the database holds no run", rep->path);
    return rc;
}

static int check_run(report_t *rep, int64_t run, diag_t *d)
{
    table_t t;
    int rc = query(rep, "runs",
                   "SELECT (SELECT count(*) FROM runs WHERE run_id = ?1), min(run_id),"
                   " max(run_id) FROM runs", run, NULL, &t, d);
    if (rc == TESS_OK && t.cells[0].i == 0) {
        if (t.cells[1].type == SQLITE_NULL)
            rc = diag_fail(d, TESS_EINPUT, "%s: no run %lld: the database holds no run",
                           rep->path, (long long)run);
        else
            rc = diag_fail(d, TESS_EINPUT, "%s: no run %lld (its runs are %lld to %lld)",
                           rep->path, (long long)run, (long long)t.cells[1].i,
                           (long long)t.cells[2].i);
    }
    tbl_free(&t);
    return rc;
}

/* --- a run's report ------------------------------------------------------------- */

int report_run(report_t *rep, int64_t run_id, const report_opts_t *o, FILE *out, diag_t *d)
{
    if (o->table && !report_table_known(o->table, false))
        return diag_fail(d, TESS_EINPUT, "no table '%s' in a run's report (expected %s)",
                         o->table, report_table_list());
    int rc = check_run(rep, run_id, d);
    table_t summary = {0}, t;
    if (rc == TESS_OK)
        rc = query(rep, "summary", sections[0].sql, run_id, NULL, &summary, d);
    if (rc != TESS_OK) {
        tbl_free(&summary);
        return rc;
    }
    writer_t w;
    w_begin(&w, out, o, rep->path);
    int lc = tbl_col(&summary, "level"), mc = tbl_col(&summary, "core_model");
    w.level = lc >= 0 && summary.nrows ? tbl_at(&summary, 0, lc)->s : NULL;
    const cell_t *model = mc >= 0 && summary.nrows ? tbl_at(&summary, 0, mc) : NULL;
    bool simt = model && model->type == SQLITE_TEXT && !strcmp(model->s, GEN_MODEL_SIMT);
    int rcol = tbl_col(&summary, "simt_reconvergence");
    const cell_t *reconv = rcol >= 0 && summary.nrows ? tbl_at(&summary, 0, rcol) : NULL;
    bool groups = simt && reconv && reconv->type == SQLITE_TEXT &&
                  !strcmp(reconv->s, GEN_RECONV_BARRIER);
    for (size_t k = 0; rc == TESS_OK && k < N_SECTIONS; k++) {
        if (o->table ? strcmp(o->table, sections[k].name) != 0
                     : (sections[k].simt && !simt) || (sections[k].groups && !groups))
            continue;
        rc = k ? query(rep, sections[k].name, sections[k].sql, run_id, NULL, &t, d) : TESS_OK;
        if (rc == TESS_OK)
            w_table(&w, k ? &t : &summary, &sections[k].text);
        if (k)
            tbl_free(&t);
    }
    if (rc == TESS_OK)
        rc = w_end(&w, d);
    tbl_free(&summary);
    return rc;
}

/* --- the slot profile -------------------------------------------------------------- */

/* One row per frame and slot: SIMT rows as slot_profile has them, MIMD rows
 * summed over the cores (cores: how many ran it); hot_rank over those rows
 * of the whole run; the stall reasons in the profile's order
 * (tessera_names.h). %s: the frame filter. */
#define SLOT_SUM(name, literal) " sum(stall_" #name "_cycles) AS stall_" #name "_cycles,"
#define SLOTS_SQL                                                                           \
    "SELECT * FROM (SELECT frame, slot, text, count(core) AS cores,"                        \
    " CASE WHEN count(core) THEN " DB_SQL_TEXT(GEN_MODEL_MIMD) " ELSE "                     \
    DB_SQL_TEXT(GEN_MODEL_SIMT) " END AS machine, sum(tasks) AS tasks,"                     \
    " sum(instructions) AS instructions, sum(lane_instructions) AS lane_instructions,"      \
    " sum(cycles) AS cycles, sum(share) AS share,"                                          \
    " rank() OVER (ORDER BY sum(cycles) DESC) AS hot_rank,"                                 \
    " sum(issued_cycles) AS issued_cycles," GEN_SLOT_STALLS(SLOT_SUM, SLOT_SUM)            \
    " sum(execute_cycles) AS execute_cycles, sum(sm_wait_cycles) AS sm_wait_cycles"         \
    " FROM slot_profile WHERE run_id = ?1 GROUP BY frame, slot, text)%s ORDER BY frame, slot"

/* A SIMT run's columns: the stall reasons of every run, and Y's (the thread
 * groups' barrier) for a run under simt.reconvergence = barrier (S14). */
#define SIMT_SLOT_COLS(Y)                                                                   \
    "slot", "text", "instructions:warp", "lane_instructions:lane", "cycles", "share",        \
    "issued_cycles:issued", GEN_SLOT_STALLS(STALL_LABEL, Y) NULL
#define STALL_COL(name, literal) "stall_" #name "_cycles",
static const char *const simt_slot_cols[] = {SIMT_SLOT_COLS(NONE)};
static const char *const barrier_slot_cols[] = {SIMT_SLOT_COLS(STALL_LABEL)};
static const char *const groups_stall_cols[] = {GEN_SIMT_STALLS_BY(NONE, STALL_COL) NULL};
static const char *const mimd_slot_cols[] = {
    "slot", "text", "cores", "instructions", "cycles", "share", "execute_cycles:execute",
    "sm_wait_cycles:SM wait", NULL};

/* The annotated disassembly: per frame a heading, then its slots with the
 * chosen columns, the run's hottest marked "<- #k": ranks 1 to 3 when they
 * are at most three slots, else the slots of rank 1. */
static void text_slots(FILE *out, const table_t *t, int64_t run)
{
    int fc = tbl_col(t, "frame"), mc = tbl_col(t, "machine"), hc = tbl_col(t, "hot_rank");
    int cc = tbl_col(t, "cycles"), tc = tbl_col(t, "tasks"), nc = tbl_col(t, "cores");
    bool simt = t->nrows && !strcmp(tbl_at(t, 0, mc)->s, GEN_MODEL_SIMT);
    bool groups = simt && tbl_at(t, 0, tbl_col(t, groups_stall_cols[0]))->type != SQLITE_NULL;
    text_spec_t spec = {"", groups ? barrier_slot_cols : simt ? simt_slot_cols : mimd_slot_cols,
                        NULL, NULL};
    text_cols_t cols;
    text_pick(t, &spec, &cols);
    text_widths(t, &spec, &cols);
    /* the ranks 1-3 when they are at most three slots, else rank 1 (ties) */
    size_t top3 = 0;
    for (size_t r = 0; r < t->nrows; r++)
        top3 += tbl_at(t, r, hc)->i <= 3;
    int64_t marked = top3 <= 3 ? 3 : 1;
    fprintf(out, "Slot profile of run %lld (%s), in cycles: %s\n", (long long)run,
            simt ? "SIMT" : "MIMD",
            simt ? "each resident cycle of a warp charged to the slot it waits to issue — "
                   "issued, or stalled by reason"
                 : "each busy cycle of a core charged to the slot it executes or waits at — "
                   "execute, or SM wait; summed over the cores");
    for (size_t r = 0; r < t->nrows; r++) {
        int64_t frame = tbl_at(t, r, fc)->i;
        if (r == 0 || tbl_at(t, r - 1, fc)->i != frame) {
            int64_t sum = 0;
            for (size_t q = r; q < t->nrows && tbl_at(t, q, fc)->i == frame; q++)
                sum += tbl_at(t, q, cc)->type == SQLITE_INTEGER ? tbl_at(t, q, cc)->i : 0;
            int64_t tasks = tbl_at(t, r, tc)->i, cores = tbl_at(t, r, nc)->i;
            if (simt)
                fprintf(out, "\nframe %lld: %lld warp%s, %lld cycles\n", (long long)frame,
                        (long long)tasks, tasks == 1 ? "" : "s", (long long)sum);
            else
                fprintf(out, "\nframe %lld: %lld core task%s, %lld core-cycles\n",
                        (long long)frame, (long long)(cores ? tasks / cores : tasks),
                        tasks == cores ? "" : "s (per core)", (long long)sum);
            fputs("  ", out);
            for (int k = 0; k < cols.n; k++) {
                bool left = tbl_at(t, 0, cols.idx[k])->type == SQLITE_TEXT;
                fprintf(out, left ? " %-*s" : " %*s", (int)cols.width[k], cols.head[k]);
            }
            fputc('\n', out);
        }
        int64_t rank = tbl_at(t, r, hc)->i;
        char buf[64];
        fputs("  ", out);
        for (int k = 0; k < cols.n; k++) {
            const cell_t *v = tbl_at(t, r, cols.idx[k]);
            const char *s = fmt_cell(v, true, buf, sizeof buf);
            fprintf(out, v->type == SQLITE_TEXT ? " %-*s" : " %*s", (int)cols.width[k], s);
        }
        if (rank <= marked)
            fprintf(out, "  <- #%lld", (long long)rank);
        fputc('\n', out);
    }
}

int report_slots(report_t *rep, int64_t run_id, int frame, const report_opts_t *o, FILE *out,
                 diag_t *d)
{
    int rc = check_run(rep, run_id, d);
    char filter[48] = "";
    if (frame >= 0)
        snprintf(filter, sizeof filter, " WHERE frame = %d", frame);
    char *sql = sqlite3_mprintf(SLOTS_SQL, filter);
    if (!sql)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    table_t t = {0}, lv = {0};
    if (rc == TESS_OK)
        rc = query(rep, "slots", sql, run_id, NULL, &t, d);
    sqlite3_free(sql);
    if (rc == TESS_OK && t.nrows == 0) {
        rc = query(rep, "runs", "SELECT level FROM runs WHERE run_id = ?1", run_id, NULL, &lv,
                   d);
        const char *level = rc == TESS_OK && lv.nrows && lv.cells[0].type == SQLITE_TEXT
                                ? lv.cells[0].s : "";
        if (rc == TESS_OK && frame >= 0)
            rc = diag_fail(d, TESS_EINPUT, "%s: run %lld has no slot profile of frame %d",
                           rep->path, (long long)run_id, frame);
        else if (rc == TESS_OK)
            rc = diag_fail(d, TESS_EINPUT, "%s: run %lld has no slot profile (recorded at level "
                           "%s: it needs record.level=tasks or more, and a Tessera that "
                           "records it)", rep->path, (long long)run_id, level);
    }
    if (rc == TESS_OK) {
        writer_t w;
        report_opts_t one = *o;
        one.table = "slots";
        w_begin(&w, out, &one, rep->path);
        if (w.format == REPORT_TEXT)
            text_slots(out, &t, run_id);
        else
            w_table(&w, &t, NULL);
        rc = w_end(&w, d);
    }
    tbl_free(&t);
    tbl_free(&lv);
    return rc;
}

/* --- comparing runs --------------------------------------------------------------- */

#define SELECTED "run_id IN (SELECT value FROM json_each(?1))"

/* The runs as a JSON array, "[1,2,3]" (sqlite3_free it); n = 0: every run
 * of the file. TESS_EINPUT when one is missing or the file holds no run. */
static int run_list(report_t *rep, const int64_t *runs, size_t n, char **list, diag_t *d)
{
    table_t t;
    int rc = TESS_OK;
    if (n == 0) {
        rc = query(rep, "runs", "SELECT json_group_array(run_id), count(*) FROM runs", 0, NULL,
                   &t, d);
        if (rc == TESS_OK && t.cells[1].i == 0)
            rc = diag_fail(d, TESS_EINPUT, "%s: the database holds no run", rep->path);
        *list = rc == TESS_OK ? sqlite3_mprintf("%s", t.cells[0].s) : NULL;
        tbl_free(&t);
    } else {
        sqlite3_str *s = sqlite3_str_new(rep->db);
        for (size_t k = 0; k < n; k++)
            sqlite3_str_appendf(s, "%c%lld", k ? ',' : '[', (long long)runs[k]);
        sqlite3_str_appendchar(s, 1, ']');
        *list = sqlite3_str_finish(s);
    }
    if (rc == TESS_OK && !*list)
        rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    int64_t missing = -1;
    if (rc == TESS_OK && n)
        rc = query_int(rep, "SELECT value FROM json_each(?1) WHERE value NOT IN"
                            " (SELECT run_id FROM runs) LIMIT 1", 0, *list, &missing, d);
    if (rc == TESS_OK && missing >= 0)
        rc = check_run(rep, missing, d);
    return rc;
}

/* Appends a column per parameter whose recorded values differ between the
 * runs. A key some runs do not record has no effect on them (a simt.* key
 * in a MIMD run, ts.window under inorder): that alone follows from a key
 * that differs (core.model, ts.policy), shown itself; the column shows
 * nothing in their rows. */
static int add_param_columns(report_t *rep, const char *list, sqlite3_str *s, diag_t *d)
{
    table_t keys;
    int rc = query(rep, "params",
                   "SELECT key FROM params WHERE " SELECTED " GROUP BY key"
                   " HAVING count(DISTINCT value) > 1 ORDER BY min(rowid)", 0, list, &keys, d);
    for (size_t r = 0; rc == TESS_OK && r < keys.nrows; r++) {
        const char *key = keys.cells[r].type == SQLITE_TEXT ? keys.cells[r].s : "";
        sqlite3_str_appendf(s, ", (SELECT value FROM params AS p WHERE p.run_id = s.run_id"
                               " AND p.key = %Q) AS \"%w\"", key, key);
    }
    tbl_free(&keys);
    return rc;
}

/* The comparison's query: the columns depend on what differs. */
static char *compare_sql(report_t *rep, const char *list, int *rc, diag_t *d)
{
    int64_t programs = 0;
    *rc = query_int(rep, "SELECT count(DISTINCT program) > 1 OR count(DISTINCT program_sha256)"
                         " > 1 OR count(DISTINCT data_sha256) > 1 FROM runs WHERE " SELECTED,
                    0, list, &programs, d);
    sqlite3_str *s = sqlite3_str_new(rep->db);
    sqlite3_str_appendall(s, "SELECT s.run_id AS run_id");
    if (programs > 0)
        sqlite3_str_appendall(s, ", s.program AS program");
    sqlite3_str_appendall(s, ", s.status AS status");
    int64_t simt = 0;
    if (*rc == TESS_OK)
        *rc = query_int(rep, "SELECT count(*) FROM run_summary WHERE core_model = "
                             DB_SQL_TEXT(GEN_MODEL_SIMT)
                             " AND " SELECTED, 0, list, &simt, d);
    if (*rc == TESS_OK)
        *rc = add_param_columns(rep, list, s, d);
    sqlite3_str_appendall(s, ", s.end_cycles AS end_cycles, s.tasks AS tasks,"
                             " s.instructions AS instructions");
    if (simt > 0) /* a MIMD and a SIMT run side by side: the SIMT figures too */
        sqlite3_str_appendall(s, ", s.warp_instructions AS warp_instructions,"
                                 " s.simt_efficiency AS simt_efficiency,"
                                 " s.issue_utilization AS issue_utilization");
    sqlite3_str_appendall(s, ", s.sm_accesses AS sm_accesses,"
                             " s.conflicts AS conflicts, s.conflict_cycles AS conflict_cycles,"
                             " s.waiting_cycles AS waiting_cycles,"
                             " s.mean_parallelism AS mean_parallelism, s.wall_s AS wall_s"
                             " FROM run_summary AS s"
                             " WHERE s.run_id IN (SELECT value FROM json_each(?1))"
                             " ORDER BY s.run_id");
    char *sql = sqlite3_str_finish(s);
    if (*rc == TESS_OK && !sql)
        *rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    return sql;
}

int report_compare(report_t *rep, const int64_t *runs, size_t n, const report_opts_t *o,
                   FILE *out, diag_t *d)
{
    if (o->table && !report_table_known(o->table, true))
        return diag_fail(d, TESS_EINPUT, "no table '%s' in a comparison (expected compare)",
                         o->table);
    char *list = NULL, *sql = NULL;
    int rc = run_list(rep, runs, n, &list, d);
    if (rc == TESS_OK)
        sql = compare_sql(rep, list, &rc, d);
    table_t t = {0};
    if (rc == TESS_OK)
        rc = query(rep, "compare", sql, 0, list, &t, d);
    if (rc == TESS_OK) {
        static const text_spec_t spec = {
            "Runs compared: the parameters that differ, then the results", NULL, NULL, NULL};
        writer_t w;
        w_begin(&w, out, o, rep->path);
        w_table(&w, &t, &spec);
        rc = w_end(&w, d);
    }
    tbl_free(&t);
    sqlite3_free(sql);
    sqlite3_free(list);
    return rc;
}

/* --- opening ---------------------------------------------------------------------- */

report_t *report_open(const char *path, diag_t *d)
{
    report_t *rep = tess_calloc(1, sizeof *rep);
    if (!rep || !(rep->path = tess_strdup(path))) {
        tess_free(rep);
        diag_fail(d, TESS_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    rep->db = db_open_read(path, NULL, d);
    if (rep->db)
        return rep;
    report_close(rep);
    return NULL;
}

void report_close(report_t *rep)
{
    if (!rep)
        return;
    sqlite3_close(rep->db);
    tess_free(rep->path);
    tess_free(rep);
}

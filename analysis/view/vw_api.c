/* vw_api.c — the viewer's JSON API (vw_api.h, docs/VISUALS.md). The runs
 * table and a comparison are report_compare()'s JSON (the same columns as
 * `tessera report --compare`); a run is the run reader (run.h); a timeline
 * window is vw_lanes.h. Invariant: a connection per request, read-only;
 * every input is checked before it reaches SQL (numbers only). */
#include "analysis/view/vw_api.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/present/report.h"
#include "analysis/present/slots.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

#define JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(6))
#define TASK_ACCESSES_MAX 2000    /* a task's accesses sent one by one at most */

bool vw_parse_u64(const char *t, uint64_t *out)
{
    uint64_t v = 0;
    size_t n = 0;
    if (!t || !*t)
        return false;
    for (; t[n]; n++) {
        if (t[n] < '0' || t[n] > '9' || n >= 18)
            return false;
        v = v * 10 + (uint64_t)(t[n] - '0');
    }
    *out = v;
    return true;
}

/* --- replies ------------------------------------------------------------------------ */

static void reply_json(vw_reply_t *r, unsigned status, json_t *o)
{
    char *text = o ? json_dumps(o, JSON_FLAGS) : NULL;
    json_decref(o);
    r->status = text ? status : 503;
    r->body = text ? tess_strdup(text) : NULL;
    r->size = r->body ? strlen(r->body) : 0;
    free(text);
    if (!r->body)
        r->status = 503;
}

static void reply_error(vw_reply_t *r, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void reply_error(vw_reply_t *r, unsigned status, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    reply_json(r, status, json_pack("{s:s}", "error", msg));
}

/* The HTTP status of a failure: no such run 404, the database 500. */
static void reply_diag(vw_reply_t *r, const diag_t *d)
{
    unsigned status = d->code == TESS_EINPUT ? 404
                      : d->code == TESS_ENOMEM || d->code == TESS_EINTERRUPTED ? 503 : 500;
    reply_error(r, status, "%s", d->msg[0] ? d->msg : tess_err_name(d->code));
}

/* --- SQL to JSON -------------------------------------------------------------------- */

static json_t *col_json(sqlite3_stmt *st, int i)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER:
        return json_integer(sqlite3_column_int64(st, i));
    case SQLITE_FLOAT:
        return json_real(sqlite3_column_double(st, i));
    case SQLITE_NULL:
        return json_null();
    default:
        return json_string((const char *)sqlite3_column_text(st, i));
    }
}

/* Every row of st as an object {column: value}; NULL (and TESS_EDB in d)
 * when stepping failed. Finalizes st. */
static json_t *rows_json(tl_run_t *run, sqlite3_stmt *st, const char *what, diag_t *d)
{
    json_t *rows = json_array();
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        json_t *o = json_object();
        for (int i = 0; i < sqlite3_column_count(st); i++)
            json_object_set_new(o, sqlite3_column_name(st, i), col_json(st, i));
        json_array_append_new(rows, o);
    }
    if (step != SQLITE_DONE) {
        tl_run_fail(run, what, d);
        json_decref(rows);
        rows = NULL;
    }
    sqlite3_finalize(st);
    return rows;
}

/* report_compare()'s rows (its JSON) for the runs given, n = 0: every run. */
static json_t *compare_rows(const char *db, const int64_t *runs, size_t n, diag_t *d)
{
    report_t *rep = report_open(db, d);
    if (!rep)
        return NULL;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    report_opts_t o = {.format = REPORT_JSON, .table = "compare"};
    int rc = f ? report_compare(rep, runs, n, &o, f, d) : diag_fail(d, TESS_ENOMEM, "out of memory");
    if (f)
        fclose(f);
    report_close(rep);
    json_t *all = rc == TESS_OK ? json_loadb(buf, size, 0, NULL) : NULL;
    free(buf);
    json_t *rows = json_incref(json_object_get(all, "compare"));
    json_decref(all);
    if (rc == TESS_OK && !json_is_array(rows))
        diag_fail(d, TESS_EDB, "%s: the comparison could not be read", db);
    return rows;
}

/* --- /api/runs ---------------------------------------------------------------------- */

/* The columns of the runs table: identity, the parameters that vary (the
 * keys with a dot: section.key), then the figures. */
static json_t *columns_of(json_t *rows)
{
    json_t *params = json_array(), *figures = json_array();
    const char *key;
    json_t *v;
    json_object_foreach(json_array_get(rows, 0), key, v) {
        if (!strcmp(key, "run_id") || !strcmp(key, "status") || !strcmp(key, "program"))
            continue;
        json_array_append_new(strchr(key, '.') ? params : figures, json_string(key));
    }
    return json_pack("{s:o,s:o}", "params", params, "figures", figures);
}

static void api_runs(const vw_ctx_t *ctx, vw_reply_t *r)
{
    diag_t d = {0};
    json_t *rows = compare_rows(ctx->db, NULL, 0, &d);
    if (!rows && d.code == TESS_EINPUT) /* holds no run (yet) */
        rows = json_array();
    if (!rows)
        return reply_diag(r, &d);
    json_t *o = columns_of(rows);
    const char *base = strrchr(ctx->db, '/');
    json_object_set_new(o, "db", json_string(base ? base + 1 : ctx->db));
    json_object_set_new(o, "runs", rows);
    reply_json(r, 200, o);
}

/* --- /api/run/N --------------------------------------------------------------------- */

static json_t *frames_json(tl_run_t *run)
{
    unsigned n;
    const tl_frame_t *f = tl_run_frames(run, &n);
    json_t *a = json_array();
    for (unsigned k = 0; k < n; k++, f++)
        json_array_append_new(a, json_pack(
            "{s:i,s:s,s:s,s:s,s:i,s:s,s:I,s:I,s:I,s:I,s:I}", "frame", (int)f->frame, "kind",
            f->is_if ? "IF" : "CF", "label", f->label, "ordinal", f->ordinal, "mask",
            (int)f->mask, "fence", f->fence, "decode_start_ps", (json_int_t)f->decode_start,
            "decode_ps", (json_int_t)f->decode, "issue_ps", (json_int_t)f->issue, "start_ps",
            (json_int_t)f->start, "complete_ps", (json_int_t)f->complete));
    return a;
}

/* Tasks as rows of "task_fields" (a run has at most ~1000). Times -1: NULL. */
static json_t *tasks_json(tl_run_t *run)
{
    unsigned n;
    const tl_task_t *t = tl_run_tasks(run, &n);
    json_t *a = json_array();
    for (unsigned k = 0; k < n; k++, t++)
        json_array_append_new(a, json_pack("[iiIIIIIIIb]", (int)t->frame, (int)t->core,
                                           (json_int_t)t->start, (json_int_t)t->finish,
                                           (json_int_t)t->ready, (json_int_t)t->instructions,
                                           (json_int_t)t->sm_ops, (json_int_t)t->sm_wait_ps,
                                           (json_int_t)t->sm_conflict_ps, t->complete));
    return a;
}

static json_t *stalls_json(tl_run_t *run)
{
    unsigned n;
    const tl_stall_t *s = tl_run_stalls(run, &n);
    json_t *a = json_array();
    for (unsigned k = 0; k < n; k++, s++)
        json_array_append_new(a, json_pack("{s:i,s:s,s:i,s:I,s:I}", "frame", (int)s->frame,
                                           "reason", s->reason, "blocker", s->blocker,
                                           "from_ps", (json_int_t)s->from, "to_ps",
                                           (json_int_t)s->to));
    return a;
}

/* Per task (as in tasks_json), the slot profile's hottest instruction of
 * its frame on its core — a SIMT run: of its warp — over every task of the
 * frame, as tessera timeline's task bars name it (slots.h): [slot, text,
 * cycles, total cycles, on the SIMT unit], or null (no profile). NULL with
 * diag on failure. */
static json_t *hot_json(tl_run_t *run, diag_t *d)
{
    tl_slots_t *s = tl_slots_load(run, d);
    if (!s)
        return NULL;
    unsigned n;
    const tl_task_t *t = tl_run_tasks(run, &n);
    json_t *a = json_array();
    for (unsigned k = 0; a && k < n; k++, t++) {
        const tl_hot_t *h = tl_slot_hot(s, t->frame, TL_SLOT_SIMT);
        bool warp = h != NULL;
        h = h ? h : tl_slot_hot(s, t->frame, t->core);
        const char *text = h ? tl_slot_text(s, t->frame, (unsigned)h->slot) : NULL;
        json_array_append_new(a, text ? json_pack("[isffb]", h->slot, text, h->cycles, h->total,
                                                  warp)
                                      : json_null());
    }
    tess_free(s);
    if (!a)
        diag_fail(d, TESS_ENOMEM, "out of memory");
    return a;
}

/* Does the file itself have a view or table of this name (not one of the
 * TEMP views db_open_read makes for an older file: issue 21's slot_profile
 * is shown when the file recorded it)? */
static bool file_has(tl_run_t *run, const char *name)
{
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM main.sqlite_master WHERE name = '%s'", name);
    sqlite3_stmt *st = tl_run_prepare(run, sql, NULL);
    bool yes = st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    return yes;
}

static json_t *run_info_json(tl_run_t *run, diag_t *d)
{
    const tl_info_t *i = tl_run_info(run);
    unsigned slots = 0;
    if (tl_run_issue_slots(run, &slots, d) != TESS_OK)
        return NULL;
    sqlite3_stmt *st = tl_run_prepare(run, "SELECT EXISTS (SELECT 1 FROM simt_warps"
                                           " WHERE run_id = ?1)", d);
    bool simt = st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (!st)
        return NULL;
    return json_pack("{s:I,s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:i,s:i,s:i,s:b,s:b,s:b}",
                     "run_id", (json_int_t)i->run_id, "program", i->program, "status", i->status,
                     "started_at", i->started_at, "level", i->level_name, "period_ps",
                     (json_int_t)i->period_ps, "end_ps", (json_int_t)i->end_ps, "rec_from_ps",
                     (json_int_t)i->rec_from_ps, "rec_to_ps", (json_int_t)i->rec_to_ps,
                     "banks", (int)i->banks, "cores", TL_CORES, "issue_slots", (int)slots,
                     "simt", simt, "ordinals", i->ordinals, "slot_profile",
                     file_has(run, "slot_profile"));
}

/* Opens run `id` of the database: NULL after replying 404 / 500. */
static tl_run_t *open_run(const vw_ctx_t *ctx, const char *id, vw_reply_t *r)
{
    uint64_t v;
    if (!vw_parse_u64(id, &v) || v == 0) {
        reply_error(r, 400, "'%.40s' is not a run id (1, 2, ...)", id);
        return NULL;
    }
    diag_t d = {0};
    tl_run_t *run = tl_run_open(ctx->db, (int64_t)v, &d);
    if (!run)
        reply_diag(r, &d);
    return run;
}

static void api_run(const vw_ctx_t *ctx, tl_run_t *run, vw_reply_t *r)
{
    diag_t d = {0};
    const tl_info_t *i = tl_run_info(run);
    json_t *info = run_info_json(run, &d);
    sqlite3_stmt *st = info ? tl_run_prepare(run, "SELECT key, value FROM params"
                                                   " WHERE run_id = ?1 ORDER BY key", &d) : NULL;
    json_t *params = json_object();
    while (st && sqlite3_step(st) == SQLITE_ROW)
        json_object_set_new(params, (const char *)sqlite3_column_text(st, 0), col_json(st, 1));
    sqlite3_finalize(st);
    st = info ? tl_run_prepare(run, "SELECT * FROM simt_warps WHERE run_id = ?1 ORDER BY frame",
                               &d) : NULL;
    json_t *warps = st ? rows_json(run, st, "reading simt_warps", &d) : NULL;
    json_t *hot = warps ? hot_json(run, &d) : NULL;
    int64_t id = i->run_id;
    json_t *figures = hot ? compare_rows(ctx->db, &id, 1, &d) : NULL;
    if (!figures) {
        json_decref(info), json_decref(params), json_decref(warps), json_decref(hot);
        return reply_diag(r, &d);
    }
    json_t *o = json_pack("{s:o,s:O,s:o,s:o,s:[ssssssssss],s:o,s:o,s:o,s:o}", "run", info,
                          "figures", json_array_get(figures, 0), "params", params, "frames",
                          frames_json(run), "task_fields", "frame", "core", "start_ps",
                          "finish_ps", "ready_ps", "instructions", "sm_ops", "sm_wait_ps",
                          "sm_conflict_ps", "complete", "tasks", tasks_json(run), "hot", hot,
                          "stalls", stalls_json(run), "warps", warps);
    json_decref(figures);
    reply_json(r, 200, o);
}

/* --- windows ------------------------------------------------------------------------ */

/* The window of ?from=&to= (cycles, as the page's URL has them) in ps,
 * checked against the run: 0 <= from < to <= the run's end. */
static bool window_of(tl_run_t *run, vw_arg_fn arg, void *user, int64_t *t0, int64_t *t1,
                      vw_reply_t *r)
{
    const tl_info_t *i = tl_run_info(run);
    const char *from = arg(user, "from"), *to = arg(user, "to");
    uint64_t f = 0, t = 0, p = i->period_ps, end = (i->end_ps + p - 1) / p;
    if ((from && !vw_parse_u64(from, &f)) || (to && !vw_parse_u64(to, &t))) {
        reply_error(r, 400, "from and to are whole numbers of cycles (from=%.20s, to=%.20s)",
                    from ? from : "", to ? to : "");
        return false;
    }
    t = to ? t : end;
    if (f >= t || t > end) {
        reply_error(r, 400, "the window [%llu, %llu) cycles is empty or outside run %lld"
                            " (cycles 0 to %llu)", (unsigned long long)f,
                    (unsigned long long)t, (long long)i->run_id, (unsigned long long)end);
        return false;
    }
    *t0 = (int64_t)(f * p), *t1 = (int64_t)(t * p);
    return true;
}

static void api_timeline(const vw_ctx_t *ctx, tl_run_t *run, vw_arg_fn arg, void *user,
                         vw_reply_t *r)
{
    int64_t t0, t1;
    uint64_t cols = 1200;
    const char *c = arg(user, "cols");
    if (c && (!vw_parse_u64(c, &cols) || cols < 1 || cols > VW_COLS_MAX))
        return reply_error(r, 400, "cols is a number of pixel columns, 1 to %d (cols=%.20s)",
                           VW_COLS_MAX, c);
    if (!window_of(run, arg, user, &t0, &t1, r))
        return;
    diag_t d = {0};
    const char *exact = arg(user, "exact");
    if (exact && strcmp(exact, "0") != 0 && strcmp(exact, "1") != 0)
        return reply_error(r, 400, "exact is 0 or 1 (exact=%.20s)", exact);
    json_t *o = vw_timeline(ctx->cache, run, t0, t1, (unsigned)cols, exact && *exact == '1', &d);
    if (!o)
        return reply_diag(r, &d);
    reply_json(r, 200, o);
}

/* --- /api/run/N/task/F/C ------------------------------------------------------------ */

static json_t *task_accesses(tl_run_t *run, int frame, int core, int64_t t0, int64_t t1,
                             diag_t *d)
{
    exp_acc_filter_t f = {.from = (uint64_t)t0, .to = (uint64_t)t1, .frame = frame,
                          .core = core};
    exp_acc_iter_t *it = exp_acc_begin(run, &f, d);
    if (!it)
        return NULL;
    json_t *rows = json_array();
    exp_access_t a;
    int got;
    json_int_t n = 0;
    while ((got = exp_acc_next(it, &a, d)) == 1)
        if (++n <= TASK_ACCESSES_MAX)
            json_array_append_new(rows, json_pack(
                "[Iisiiioooo]", (json_int_t)a.idx, (int)a.sync, a.store ? "st" : "ld",
                (int)a.addr, (int)a.bank, (int)a.value,
                a.request == TL_NONE ? json_null() : json_integer(a.request),
                a.arrive == TL_NONE ? json_null() : json_integer(a.arrive),
                a.grant == TL_NONE ? json_null() : json_integer(a.grant),
                a.done == TL_NONE ? json_null() : json_integer(a.done)));
    exp_acc_end(it);
    if (got < 0) {
        json_decref(rows);
        return NULL;
    }
    return json_pack("{s:[ssssssssss],s:o,s:I,s:i}", "fields", "idx", "sync", "op", "addr",
                     "bank", "value", "request_ps", "arrive_ps", "grant_ps", "done_ps",
                     "rows", rows, "total", n, "limit", TASK_ACCESSES_MAX);
}

/* The task's rows of the slot profile (view slot_profile, docs/SCHEMA.md)
 * when the file has it: every column, filtered on the columns it has
 * (run_id, frame, core; a SIMT run's rows have core NULL: the unit's, one
 * per warp, which every lane of the warp shows), in slot order. */
static json_t *slot_profile(tl_run_t *run, int frame, int core, diag_t *d)
{
    if (!file_has(run, "slot_profile"))
        return json_null();
    bool has_core = false, has_frame = false;
    sqlite3_stmt *st = tl_run_prepare(run, "SELECT name FROM pragma_table_info('slot_profile')",
                                      d);
    while (st && sqlite3_step(st) == SQLITE_ROW) {
        const char *c = (const char *)sqlite3_column_text(st, 0);
        has_core = has_core || (c && !strcmp(c, "core"));
        has_frame = has_frame || (c && !strcmp(c, "frame"));
    }
    sqlite3_finalize(st);
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT * FROM slot_profile WHERE run_id = ?1%s%s ORDER BY slot",
             has_frame ? " AND frame = ?2" : "",
             has_core ? " AND (core = ?3 OR core IS NULL)" : "");
    if (!(st = tl_run_prepare(run, sql, d)))
        return NULL;
    if (has_frame)
        sqlite3_bind_int(st, 2, frame);
    if (has_core)
        sqlite3_bind_int(st, 3, core);
    return rows_json(run, st, "reading slot_profile", d);
}

/* A SIMT task (a warp): its simt_warps row and, per instruction slot, what
 * the file recorded — issues and mean lanes (simt_issue, level events),
 * ld/st, their mean latency and replays (simt_mem, level mem). The slot
 * profile's stand-in where the file has no slot_profile view. NULL (d) on
 * failure; JSON null for a MIMD run. */
static json_t *warp_json(const vw_ctx_t *ctx, tl_run_t *run, int frame, diag_t *d)
{
    sqlite3_stmt *st = tl_run_prepare(run, "SELECT * FROM simt_warps WHERE run_id = ?1"
                                           " AND frame = ?2", d);
    if (!st)
        return NULL;
    sqlite3_bind_int(st, 2, frame);
    json_t *warp = rows_json(run, st, "reading simt_warps", d);
    if (warp && json_array_size(warp) == 0) {
        json_decref(warp);
        return json_null();
    }
    if (!warp)
        return NULL;
    /* from the packs (vw_lanes.h); through the views in a file without them */
    json_t *slots = vw_warp_slots(ctx->cache, run, (unsigned)frame, d);
    if (!slots && d->code != TESS_EINPUT) {
        json_decref(warp);
        return NULL;
    }
    *d = (diag_t){0};
    st = slots ? NULL : tl_run_prepare(run,
        "WITH m AS (SELECT slot, min(op) AS mem_op, count(*) AS mem, avg(done_ps - issue_ps)"
        "  / (SELECT period_ps FROM runs WHERE run_id = ?1) AS mean_latency_cycles,"
        "  sum(replays) AS replays FROM simt_mem WHERE run_id = ?1 AND frame = ?2 GROUP BY slot),"
        " i AS (SELECT slot, min(op) AS op, count(*) AS issues, avg(lanes) AS mean_lanes"
        "  FROM simt_issue WHERE run_id = ?1 AND frame = ?2 GROUP BY slot),"
        " s AS (SELECT slot FROM i UNION SELECT slot FROM m)"
        " SELECT s.slot, coalesce(i.op, m.mem_op) AS op, i.issues, i.mean_lanes, m.mem,"
        " m.mean_latency_cycles, m.replays FROM s LEFT JOIN i USING (slot)"
        " LEFT JOIN m USING (slot) ORDER BY s.slot", d);
    if (st)
        sqlite3_bind_int(st, 2, frame);
    if (st)
        slots = rows_json(run, st, "reading simt_issue and simt_mem", d);
    if (!slots) {
        json_decref(warp);
        return NULL;
    }
    json_t *o = json_pack("{s:O,s:o}", "row", json_array_get(warp, 0), "slots", slots);
    json_decref(warp);
    if (!o)
        diag_fail(d, TESS_ENOMEM, "out of memory");
    return o;
}

static void api_task(const vw_ctx_t *ctx, tl_run_t *run, const char *fr, const char *co, vw_arg_fn arg, void *user,
                     vw_reply_t *r)
{
    uint64_t frame, core;
    if (!vw_parse_u64(fr, &frame) || frame >= TL_MAX_FRAMES || !vw_parse_u64(co, &core) ||
        core >= TL_CORES)
        return reply_error(r, 400, "a task is /task/FRAME/CORE with FRAME 0-63 and CORE 0-15");
    unsigned n;
    const tl_task_t *t = tl_run_tasks(run, &n), *task = NULL;
    for (unsigned k = 0; k < n && !task; k++)
        task = t[k].frame == frame && t[k].core == core ? &t[k] : NULL;
    if (!task)
        return reply_error(r, 404, "run %lld has no task of frame %u on core %u",
                           (long long)tl_run_info(run)->run_id, (unsigned)frame,
                           (unsigned)core);
    int64_t t0, t1;
    if (!window_of(run, arg, user, &t0, &t1, r))
        return;
    diag_t d = {0};
    json_t *acc = task_accesses(run, (int)frame, (int)core, t0, t1, &d);
    json_t *prof = acc ? slot_profile(run, (int)frame, (int)core, &d) : NULL;
    json_t *warp = prof ? warp_json(ctx, run, (int)frame, &d) : NULL;
    if (!warp) {
        json_decref(acc), json_decref(prof);
        return reply_diag(r, &d);
    }
    reply_json(r, 200, json_pack("{s:[iiIIIIIIIb],s:o,s:o,s:o}", "task", (int)task->frame,
                                 (int)task->core, (json_int_t)task->start,
                                 (json_int_t)task->finish, (json_int_t)task->ready,
                                 (json_int_t)task->instructions, (json_int_t)task->sm_ops,
                                 (json_int_t)task->sm_wait_ps, (json_int_t)task->sm_conflict_ps,
                                 task->complete, "accesses", acc, "slot_profile", prof,
                                 "warp", warp));
}

/* --- /api/compare/A/B --------------------------------------------------------------- */

static void api_compare(const vw_ctx_t *ctx, const char *a, const char *b, vw_reply_t *r)
{
    uint64_t ids[2];
    if (!vw_parse_u64(a, &ids[0]) || !vw_parse_u64(b, &ids[1]) || !ids[0] || !ids[1])
        return reply_error(r, 400, "compare two run ids: /api/compare/A/B");
    int64_t runs[2] = {(int64_t)ids[0], (int64_t)ids[1]};
    diag_t d = {0};
    json_t *rows = compare_rows(ctx->db, runs, ids[0] == ids[1] ? 1 : 2, &d);
    if (!rows)
        return reply_diag(r, &d);
    json_t *o = columns_of(rows);
    json_object_set_new(o, "runs", rows);
    reply_json(r, 200, o);
}

/* --- routing ------------------------------------------------------------------------ */

#define PARTS_MAX 6

void vw_api_get(const vw_ctx_t *ctx, const char *path, vw_arg_fn arg, void *user,
                vw_reply_t *r)
{
    char buf[256], *part[PARTS_MAX], *save = NULL;
    int n = 0;
    memset(r, 0, sizeof *r);
    if (strlen(path) >= sizeof buf)
        return reply_error(r, 404, "no such API path");
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save))
        if (n < PARTS_MAX)
            part[n++] = p;
        else
            return reply_error(r, 404, "no such API path");
    /* part[0] is "api" */
    if (n == 2 && !strcmp(part[1], "runs"))
        return api_runs(ctx, r);
    if (n == 4 && !strcmp(part[1], "compare"))
        return api_compare(ctx, part[2], part[3], r);
    if (n < 3 || strcmp(part[1], "run") != 0 ||
        !(n == 3 || (n == 4 && !strcmp(part[3], "timeline")) ||
          (n == 6 && !strcmp(part[3], "task"))))
        return reply_error(r, 404, "no such API path (see docs/VISUALS.md)");
    tl_run_t *run = open_run(ctx, part[2], r);
    if (!run)
        return;
    if (n == 3)
        api_run(ctx, run, r);
    else if (n == 4)
        api_timeline(ctx, run, arg, user, r);
    else
        api_task(ctx, run, part[4], part[5], arg, user, r);
    tl_run_close(run);
}

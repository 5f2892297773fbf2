/* run.c — the run reader shared by the pictures (run.h): one
 * recorded run's runs row and its small relations (frames, core tasks,
 * stalls) read back from the statistics database. Invariant: the database is
 * opened read-only and never modified; SM accesses are not read here but
 * streamed by their readers (export.h). */
#include "analysis/present/run.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/store/db.h"
#include "analysis/store/views.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "tessera_names.h" /* the model's keys and values (cmake/gen-names.c) */

#define FOREVER INT64_MAX

struct tl_run {
    sqlite3 *db;
    int64_t version;          /* the file's schema version */
    char *path;
    tl_info_t info;
    char *program, *status, *started_at, *level_name;
    tl_frame_t frames[TL_MAX_FRAMES];
    unsigned n_frames;
    tl_task_t *tasks;
    unsigned n_tasks;
    tl_stall_t *stalls;
    unsigned n_stalls;
};

/* --- small SQL helpers --------------------------------------------------------- */

int tl_run_issue_slots(tl_run_t *r, unsigned *slots, diag_t *d)
{
    *slots = 0;
    if (r->info.level < REC_EVENTS)
        return TESS_OK;
    /* the configured width (an idle slot is worth seeing), else the slots
       used; since version 10 from the packs' ranges (ord0 + ord_n - 1 is a
       pack's largest ord: sipack.h) instead of decoding every issue */
#define ISSUE_SLOTS(table, max_ord)                                              \
    "SELECT CASE WHEN EXISTS (SELECT 1 FROM " table " WHERE run_id = ?1) THEN"   \
    " max(coalesce((SELECT value FROM params WHERE run_id = ?1 AND key = "       \
    DB_SQL_TEXT(GEN_KEY_SIMT_ISSUE_WIDTH) "), 1), (SELECT max(" max_ord ") + 1 FROM " table \
    " WHERE run_id = ?1)) ELSE 0 END"
    sqlite3_stmt *st = tl_run_prepare(r, r->version >= 10
                                             ? ISSUE_SLOTS("simt_issue_packs", "ord0 + ord_n - 1")
                                             : ISSUE_SLOTS("simt_issue", "ord"), d);
#undef ISSUE_SLOTS
    if (!st)
        return TESS_EDB;
    int step = sqlite3_step(st);
    int64_t n = step == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    *slots = n < 0 ? 0 : n > 16 ? 16 : (unsigned)n;
    return step == SQLITE_ROW ? TESS_OK : tl_run_fail(r, "reading simt_issue", d);
}

int tl_run_fail(tl_run_t *r, const char *what, diag_t *d)
{
    return diag_fail(d, TESS_EDB, "%s: %s: %s", r->path, what, sqlite3_errmsg(r->db));
}

sqlite3_stmt *tl_run_prepare(tl_run_t *r, const char *sql, diag_t *d)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
        tl_run_fail(r, "reading the run", d);
        sqlite3_finalize(st);
        return NULL;
    }
    sqlite3_bind_int64(st, 1, r->info.run_id);
    return st;
}

int tl_run_thread_groups(tl_run_t *r, bool *groups, diag_t *d)
{
    *groups = false;
    sqlite3_stmt *st = tl_run_prepare(r, "SELECT count(*) FROM params WHERE run_id = ?1 AND"
                                         " key = " DB_SQL_TEXT(GEN_KEY_SIMT_RECONVERGENCE)
                                         " AND value = " DB_SQL_TEXT(GEN_RECONV_BARRIER), d);
    if (!st)
        return TESS_EDB;
    int step = sqlite3_step(st);
    *groups = step == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0;
    sqlite3_finalize(st);
    return step == SQLITE_ROW ? TESS_OK : tl_run_fail(r, "reading params", d);
}

int tl_run_waits(tl_run_t *r, int64_t t0, int64_t t1, tl_wait_fn fn, void *arg, diag_t *d)
{
    sqlite3_stmt *st = tl_run_prepare(r, "SELECT frame, slot, lanes, from_ps, to_ps FROM simt_waits"
                                         " WHERE run_id = ?1 AND from_ps < ?3"
                                         " AND (to_ps IS NULL OR to_ps > ?2)"
                                         " ORDER BY from_ps, frame", d);
    if (!st)
        return TESS_EDB;
    sqlite3_bind_int64(st, 2, t0);
    sqlite3_bind_int64(st, 3, t1);
    int step, rc = TESS_OK;
    while (rc == TESS_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        tl_wait_t w = {.frame = (unsigned)sqlite3_column_int(st, 0),
                       .slot = (unsigned)sqlite3_column_int(st, 1),
                       .lanes = (uint16_t)sqlite3_column_int(st, 2),
                       .from = sqlite3_column_int64(st, 3),
                       .to = tl_col_time(st, 4)};
        rc = fn(arg, &w);
    }
    if (rc == TESS_OK && step != SQLITE_DONE)
        rc = tl_run_fail(r, "reading simt_waits", d);
    sqlite3_finalize(st);
    return rc;
}

sqlite3_stmt *tl_run_issue_window(tl_run_t *r, const char *cols, const char *order, int64_t t0,
                                  int64_t t1, diag_t *d)
{
    /* since version 10 the issues are packed: read only the window's packs */
    const char *from = r->version >= 10 ? db_simt_issue_window
                                        : "SELECT * FROM simt_issue WHERE run_id = ?1"
                                          " AND time_ps >= ?2 AND time_ps < ?3";
    char *sql = sqlite3_mprintf("SELECT %s FROM (%s) ORDER BY %s", cols, from, order);
    if (!sql) {
        diag_fail(d, TESS_ENOMEM, "out of memory");
        return NULL;
    }
    sqlite3_stmt *st = tl_run_prepare(r, sql, d);
    sqlite3_free(sql);
    if (st) {
        sqlite3_bind_int64(st, 2, t0);
        sqlite3_bind_int64(st, 3, t1);
    }
    return st;
}

int64_t tl_col_time(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? TL_NONE : sqlite3_column_int64(st, i);
}

static char *col_dup(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return tess_strdup(t ? (const char *)t : "");
}

/* One integer from `sql` (run id bound to ?1); `dflt` when no row or NULL. */
static int64_t query_one(tl_run_t *r, const char *sql, int64_t dflt, diag_t *d, int *rc)
{
    sqlite3_stmt *st = tl_run_prepare(r, sql, d);
    int64_t v = dflt;
    *rc = st ? TESS_OK : TESS_EDB;
    int step = st ? sqlite3_step(st) : SQLITE_ERROR;
    if (step == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        v = sqlite3_column_int64(st, 0);
    else if (st && step != SQLITE_ROW && step != SQLITE_DONE)
        *rc = tl_run_fail(r, "reading the run", d);
    sqlite3_finalize(st);
    return v;
}

/* --- opening -------------------------------------------------------------------- */

static int open_db(tl_run_t *r, const char *path, diag_t *d)
{
    r->db = db_open_read(path, &r->version, d);
    return r->db ? TESS_OK : d && d->code ? d->code : TESS_EDB;
}

static int choose_run(tl_run_t *r, int64_t run_id, diag_t *d)
{
    int rc;
    if (run_id == 0) {
        r->info.run_id = query_one(r, "SELECT max(run_id) FROM runs", 0, d, &rc);
        if (rc == TESS_OK && r->info.run_id == 0)
            return diag_fail(d, TESS_EINPUT, "%s: the database holds no run", r->path);
        return rc;
    }
    r->info.run_id = run_id;
    int64_t n = query_one(r, "SELECT count(*) FROM runs WHERE run_id = ?1", 0, d, &rc);
    if (rc == TESS_OK && n == 0)
        return diag_fail(d, TESS_EINPUT, "%s: no run %lld (see `SELECT run_id FROM runs`)",
                         r->path, (long long)run_id);
    return rc;
}

/* A parameter that is a whole number, or -1. */
static int64_t uint_param(tl_run_t *r, const char *key, diag_t *d)
{
    char sql[160];
    snprintf(sql, sizeof sql,
             "SELECT CAST(value AS INTEGER) FROM params WHERE run_id = ?1 AND key = '%s'"
             " AND value NOT GLOB '*[^0-9]*' AND value <> ''", key);
    int rc;
    return query_one(r, sql, -1, d, &rc);
}

/* sm.bank and sm.resp in picoseconds when they are fixed numbers of cycles. */
static uint64_t fixed_param(tl_run_t *r, const char *key, uint64_t dflt, diag_t *d)
{
    int64_t v = uint_param(r, key, d);
    return v < 0 ? dflt : (uint64_t)v * r->info.period_ps;
}

/* sm.banks (runs recorded before it existed had D13's 16). */
static unsigned banks_param(tl_run_t *r, diag_t *d)
{
    int64_t v = uint_param(r, GEN_KEY_SM_BANKS, d);
    return v >= 1 && v <= TL_BANKS_MAX && !(v & (v - 1)) ? (unsigned)v : 16;
}

static int read_runs_row(tl_run_t *r, diag_t *d)
{
    sqlite3_stmt *st = tl_run_prepare(r,
        "SELECT program, status, started_at, level, period_ps, coalesce(stop_ps, end_ps),"
        " from_ps, to_ps FROM runs WHERE run_id = ?1", d); /* a stopped run ends at its stop */
    if (!st)
        return TESS_EDB;
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return tl_run_fail(r, "reading the runs row", d);
    }
    r->program = col_dup(st, 0), r->status = col_dup(st, 1);
    r->started_at = col_dup(st, 2), r->level_name = col_dup(st, 3);
    int64_t period = tl_col_time(st, 4), end = tl_col_time(st, 5);
    int64_t from = tl_col_time(st, 6), to = tl_col_time(st, 7);
    sqlite3_finalize(st);
    if (!r->program || !r->status || !r->started_at || !r->level_name)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    tl_info_t *i = &r->info;
    i->program = r->program, i->status = r->status, i->started_at = r->started_at;
    i->level_name = r->level_name;
    i->level = db_level_from_name(r->level_name);
    i->period_ps = period > 0 ? (uint64_t)period : 1000;
    i->end_ps = end > 0 ? (uint64_t)end : 0;
    i->rec_from_ps = from > 0 ? (uint64_t)from : 0;
    i->rec_to_ps = to > 0 ? (uint64_t)to : 0;
    i->bank_ps = fixed_param(r, GEN_KEY_SM_BANK, 0, d);
    i->resp_ps = fixed_param(r, GEN_KEY_SM_RESP, UINT64_MAX, d);
    i->banks = banks_param(r, d);
    return TESS_OK;
}

static void label_frames(tl_run_t *r)
{
    bool ordinals = r->n_frames > 0;
    for (unsigned i = 0; i < r->n_frames; i++)
        ordinals = ordinals && r->frames[i].frame == i;
    r->info.ordinals = ordinals;
    int n_if = 0, n_cf = 0;
    for (unsigned i = 0; i < r->n_frames; i++) {
        tl_frame_t *f = &r->frames[i];
        f->number = ordinals ? (f->is_if ? n_if++ : n_cf++) : (int)f->frame;
        snprintf(f->label, sizeof f->label, "F%u", f->frame);
        if (ordinals)
            snprintf(f->ordinal, sizeof f->ordinal, "%s%d", f->is_if ? "IF" : "CF", f->number);
        else
            f->ordinal[0] = 0;
        snprintf(f->title, sizeof f->title, "frame %u%s%s%s", f->frame, ordinals ? " (" : "",
                 f->ordinal, ordinals ? ")" : "");
    }
}

static int read_frames(tl_run_t *r, diag_t *d)
{
    sqlite3_stmt *st = tl_run_prepare(r,
        "SELECT frame, kind, mask, fence, decode_start_ps, decode_ps, issue_ps, start_ps,"
        " complete_ps FROM frames WHERE run_id = ?1 ORDER BY frame", d);
    if (!st)
        return TESS_EDB;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW && r->n_frames < TL_MAX_FRAMES) {
        tl_frame_t *f = &r->frames[r->n_frames++];
        const char *kind = (const char *)sqlite3_column_text(st, 1);
        const char *fence = (const char *)sqlite3_column_text(st, 3);
        f->frame = (unsigned)sqlite3_column_int(st, 0) & 63;
        f->is_if = kind && !strcmp(kind, "IF");
        f->mask = (unsigned)sqlite3_column_int(st, 2) & 0xffff;
        snprintf(f->fence, sizeof f->fence, "%s", fence ? fence : "?");
        f->decode_start = tl_col_time(st, 4), f->decode = tl_col_time(st, 5);
        f->issue = tl_col_time(st, 6), f->start = tl_col_time(st, 7);
        f->complete = tl_col_time(st, 8);
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE && step != SQLITE_ROW)
        return tl_run_fail(r, "reading frames", d);
    label_frames(r);
    return TESS_OK;
}

const tl_frame_t *tl_run_frame(const tl_run_t *r, unsigned frame)
{
    for (unsigned i = 0; i < r->n_frames; i++)
        if (r->frames[i].frame == frame)
            return &r->frames[i];
    return NULL;
}

/* Grows *p (of *cap elements of `size`) to hold n + 1. */
bool tl_grow(void **p, unsigned *cap, unsigned n, size_t size)
{
    if (n < *cap)
        return true;
    unsigned c = *cap ? *cap * 2 : 64;
    void *q = tess_realloc(*p, c * size);
    if (!q)
        return false;
    *p = q, *cap = c;
    return true;
}

static int read_tasks(tl_run_t *r, diag_t *d)
{
    sqlite3_stmt *st = tl_run_prepare(r,
        "SELECT frame, core, start_ps, finish_ps, ready_ps, instructions, sm_ops, sm_wait_ps,"
        " sm_conflict_ps, complete FROM core_tasks WHERE run_id = ?1 AND start_ps IS NOT NULL"
        " ORDER BY core, start_ps, frame", d);
    unsigned cap = 0;
    int step = SQLITE_DONE;
    while (st && (step = sqlite3_step(st)) == SQLITE_ROW) {
        if (!tl_grow((void **)&r->tasks, &cap, r->n_tasks, sizeof *r->tasks))
            break;
        tl_task_t *t = &r->tasks[r->n_tasks++];
        t->frame = (unsigned)sqlite3_column_int(st, 0) & 63;
        t->core = (unsigned)sqlite3_column_int(st, 1) & 15;
        t->start = tl_col_time(st, 2), t->finish = tl_col_time(st, 3);
        t->ready = tl_col_time(st, 4);
        t->instructions = tl_col_time(st, 5), t->sm_ops = tl_col_time(st, 6);
        t->sm_wait_ps = tl_col_time(st, 7), t->sm_conflict_ps = tl_col_time(st, 8);
        t->complete = sqlite3_column_int(st, 9) != 0;
        t->f = tl_run_frame(r, t->frame);
    }
    sqlite3_finalize(st);
    if (step == SQLITE_ROW)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    return st && step == SQLITE_DONE ? TESS_OK : tl_run_fail(r, "reading core_tasks", d);
}

static int read_stalls(tl_run_t *r, diag_t *d)
{
    sqlite3_stmt *st = tl_run_prepare(r,
        "SELECT frame, reason, blocker, from_ps, to_ps FROM stalls WHERE run_id = ?1"
        " AND from_ps IS NOT NULL ORDER BY from_ps, frame", d);
    unsigned cap = 0;
    int step = SQLITE_DONE;
    while (st && (step = sqlite3_step(st)) == SQLITE_ROW) {
        if (!tl_grow((void **)&r->stalls, &cap, r->n_stalls, sizeof *r->stalls))
            break;
        tl_stall_t *s = &r->stalls[r->n_stalls++];
        const char *reason = (const char *)sqlite3_column_text(st, 1);
        s->frame = (unsigned)sqlite3_column_int(st, 0) & 63;
        snprintf(s->reason, sizeof s->reason, "%s", reason ? reason : "?");
        s->blocker = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 2);
        s->from = tl_col_time(st, 3), s->to = tl_col_time(st, 4);
    }
    sqlite3_finalize(st);
    if (step == SQLITE_ROW)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    return st && step == SQLITE_DONE ? TESS_OK : tl_run_fail(r, "reading stalls", d);
}

static void bump(uint64_t *end, int64_t t)
{
    if (t > 0 && (uint64_t)t > *end)
        *end = (uint64_t)t;
}

/* A run ends at its last READY, or later at the last time it recorded: a
 * stopped run (watchdog, interrupted, killed) has work in progress after it. */
static void settle_end(tl_run_t *r)
{
    uint64_t *end = &r->info.end_ps;
    int rc;
    for (unsigned i = 0; i < r->n_tasks; i++) {
        bump(end, r->tasks[i].start), bump(end, r->tasks[i].finish);
        bump(end, r->tasks[i].ready);
    }
    for (unsigned i = 0; i < r->n_frames; i++)
        bump(end, r->frames[i].issue), bump(end, r->frames[i].complete);
    for (unsigned i = 0; i < r->n_stalls; i++)
        bump(end, r->stalls[i].to);
    /* a finished run ('ok') answered every access before its task finished:
       only a stopped one needs the scan of every pack row */
    if (r->info.level >= REC_MEM && strcmp(r->status, db_status_names[DB_STATUS_OK]) != 0)
        bump(end, query_one(r, "SELECT max(end_ps) FROM sm_access_packs WHERE run_id = ?1", 0,
                            NULL, &rc));
    if (*end == 0)
        *end = r->info.period_ps;
}

tl_run_t *tl_run_open(const char *path, int64_t run_id, diag_t *d)
{
    tl_run_t *r = tess_calloc(1, sizeof *r);
    if (!r || !(r->path = tess_strdup(path))) {
        tess_free(r);
        diag_fail(d, TESS_ENOMEM, "out of memory");
        return NULL;
    }
    int rc = open_db(r, path, d);
    if (rc == TESS_OK)
        rc = choose_run(r, run_id, d);
    if (rc == TESS_OK)
        rc = read_runs_row(r, d);
    if (rc == TESS_OK)
        rc = read_frames(r, d);
    if (rc == TESS_OK)
        rc = read_tasks(r, d);
    if (rc == TESS_OK)
        rc = read_stalls(r, d);
    if (rc != TESS_OK) {
        tl_run_close(r);
        return NULL;
    }
    settle_end(r);
    return r;
}

void tl_run_close(tl_run_t *r)
{
    if (!r)
        return;
    sqlite3_close(r->db);
    tess_free(r->path), tess_free(r->program), tess_free(r->status), tess_free(r->started_at);
    tess_free(r->level_name), tess_free(r->tasks), tess_free(r->stalls);
    tess_free(r);
}

const tl_info_t *tl_run_info(const tl_run_t *r) { return &r->info; }

const tl_frame_t *tl_run_frames(const tl_run_t *r, unsigned *n)
{
    *n = r->n_frames;
    return r->frames;
}

const tl_task_t *tl_run_tasks(const tl_run_t *r, unsigned *n)
{
    *n = r->n_tasks;
    return r->tasks;
}

const tl_stall_t *tl_run_stalls(const tl_run_t *r, unsigned *n)
{
    *n = r->n_stalls;
    return r->stalls;
}

int tl_run_need_tasks(const tl_run_t *r, diag_t *d)
{
    if (r->info.level >= REC_TASKS)
        return TESS_OK;
    return diag_fail(d, TESS_EINPUT,
                     "%s: run %lld was recorded at level %s: no frames or core tasks were "
                     "recorded, so there is nothing to draw; run the program again with "
                     "-s record.level=tasks (or mem, the default, for SM accesses too)",
                     r->path, (long long)r->info.run_id, r->info.level_name);
}


int tl_run_window(const tl_run_t *r, uint64_t from, uint64_t to, int64_t *t0, int64_t *t1,
                  diag_t *d)
{
    const tl_info_t *i = &r->info;
    from = from ? from : i->rec_from_ps;
    to = to ? to : i->rec_to_ps && i->rec_to_ps < i->end_ps ? i->rec_to_ps : i->end_ps;
    if (from >= to || to > (uint64_t)INT64_MAX / 2)
        return diag_fail(d, TESS_EINPUT, "the window [%llu, %llu) ps is empty or too large"
                         " (run %lld ends at %llu ps)", (unsigned long long)from,
                         (unsigned long long)to, (long long)i->run_id,
                         (unsigned long long)i->end_ps);
    *t0 = (int64_t)from, *t1 = (int64_t)to;
    return TESS_OK;
}

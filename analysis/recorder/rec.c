/* rec.c — the recorder's API: opening a database, the life of a run (its
 * `runs` and `params` rows, the writer thread, the indexes), closing.
 * Invariant: a run's `runs` row is committed with status 'running' before
 * any of its records is written, and rec_end_run() gives it its final
 * status whatever happened in between; a killed process leaves 'running'. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "analysis/recorder/rec_int.h"
#include "analysis/store/sha256.h"
#include "analysis/store/tables.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

void rec_get_counts(const rec_t *rec, rec_counts_t *out)
{
    *out = rec->counts;
    if (rec->in_run) { /* the current batch's accesses, counted when it is handed over */
        size_t n = (size_t)(rec->sink.next - rec->cur->acc);
        out->accesses += n;
        out->bytes_queued += n * sizeof(gpu_tr_access_t);
    }
}

/* --- opening ---------------------------------------------------------------- */

static int check_opts(const rec_opts_t *o, diag_t *diag)
{
    if (o->level > REC_EVENTS)
        return diag_fail(diag, TESS_EINPUT, "record level %u: expected 0..%d", o->level,
                         REC_EVENTS);
    if (o->to_ps != 0 && o->to_ps <= o->from_ps)
        return diag_fail(diag, TESS_EINPUT, "recording window [%llu, %llu) ps is empty",
                         (unsigned long long)o->from_ps, (unsigned long long)o->to_ps);
    return TESS_OK;
}

rec_t *rec_open(const char *path, const rec_opts_t *opts, diag_t *diag)
{
    rec_opts_t defaults = {.level = REC_MEM};
    if (!opts)
        opts = &defaults;
    if (check_opts(opts, diag) != TESS_OK)
        return NULL;
    rec_t *rec = tess_calloc(1, sizeof *rec);
    if (!rec || !(rec->path = tess_strdup(path))) {
        tess_free(rec);
        diag_fail(diag, TESS_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    rec->opts = *opts;
    rec->windowed = opts->from_ps != 0 || opts->to_ps != 0;
    rec_sink_idle(rec);
    rec->db = schema_open_write(path, diag);
    if (!rec->db)
        goto fail;
    if (rec_writer_init(&rec->w, rec->db, rec->path, diag) != TESS_OK)
        goto fail;
    return rec;
fail:
    sqlite3_close(rec->db);
    tess_free(rec->path);
    tess_free(rec);
    return NULL;
}

/* --- runs and params ---------------------------------------------------------- */

static int prepare(rec_t *rec, const char *sql, sqlite3_stmt **st, diag_t *diag)
{
    if (sqlite3_prepare_v2(rec->db, sql, -1, st, NULL) == SQLITE_OK)
        return TESS_OK;
    return db_fail(rec->db, rec->path, "preparing a statement", diag);
}

/* Steps a statement that returns no row, and resets it. */
static int step_done(rec_t *rec, sqlite3_stmt *st, int bind_rc, const char *what, diag_t *diag)
{
    if (bind_rc != SQLITE_OK) /* a failed bind does not set the connection's message */
        return diag_fail(diag, bind_rc == SQLITE_NOMEM ? TESS_ENOMEM : TESS_EDB, "%s: %s: %s",
                         rec->path, what, sqlite3_errstr(bind_rc));
    int rc = sqlite3_step(st);
    int out = rc == SQLITE_DONE ? TESS_OK : db_fail(rec->db, rec->path, what, diag);
    sqlite3_reset(st);
    return out;
}

static int bind_opt_int(sqlite3_stmt *st, int i, uint64_t v)
{
    if (v == 0 || v > (uint64_t)INT64_MAX)
        return sqlite3_bind_null(st, i);
    return sqlite3_bind_int64(st, i, (sqlite3_int64)v);
}

static int bind_hash(sqlite3_stmt *st, int i, const uint8_t *data, size_t len)
{
    char hex[SHA256_HEX];
    if (!data)
        return sqlite3_bind_null(st, i);
    sha256_hex(data, len, hex);
    return sqlite3_bind_text(st, i, hex, -1, SQLITE_TRANSIENT);
}

#define RUN_UID_HEX 33 /* 128 bits in lowercase hex, and the NUL */

/* A run's identity (runs.uid): 128 bits from the kernel's random source,
 * drawn for each run — not SQLite's randomblob(), whose generator is seeded
 * once per process, so that processes forked from one that used it (a Python
 * multiprocessing pool) would draw the same ids. 0, or -1 with errno. */
static int new_uid(char out[RUN_UID_HEX])
{
    uint8_t b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = getrandom(b + got, sizeof b - got, 0);
        if (n < 0 && errno != EINTR)
            return -1;
        got += n > 0 ? (size_t)n : 0;
    }
    for (size_t i = 0; i < sizeof b; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return 0;
}

/* The parameter numbers of the runs INSERT and UPDATE, from its declaration. */
#define RU(name, type) RU_##name,
enum { RU_run_id = 1, DB_RUNS(RU, DB_NONE) };

/* Now, UTC, to the millisecond ("2026-11-27T16:01:02.345Z", as SQLite's
 * strftime('%Y-%m-%dT%H:%M:%fZ', 'now') prints it). */
static void now_utc(char out[32])
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, 32 - n, ".%03dZ", (int)(ts.tv_nsec / 1000000));
}

static int insert_run(rec_t *rec, const rec_run_info_t *info, diag_t *diag)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare(rec, DB_INSERT_SQL(runs, DB_RUNS), &st, diag);
    if (rc != TESS_OK)
        return rc;
    char uid[RUN_UID_HEX], now[32];
    if (new_uid(uid) != 0) {
        sqlite3_finalize(st);
        return diag_fail(diag, TESS_EIO, "%s: no random bytes for the run's uid: %s", rec->path,
                         strerror(errno));
    }
    now_utc(now);
    int b = sqlite3_bind_text(st, RU_program, info->program, -1, SQLITE_STATIC);
    b |= bind_hash(st, RU_program_sha256, info->tm_image, TM_BYTES);
    b |= bind_hash(st, RU_data_sha256, info->sm_image, SM_BYTES);
    b |= sqlite3_bind_text(st, RU_config, info->config, -1, SQLITE_STATIC);
    b |= sqlite3_bind_text(st, RU_status, db_status_names[DB_STATUS_RUNNING], -1, SQLITE_STATIC);
    b |= sqlite3_bind_text(st, RU_level, db_level_name(rec->opts.level), -1, SQLITE_STATIC);
    b |= bind_opt_int(st, RU_period_ps, info->period_ps);
    b |= sqlite3_bind_int64(st, RU_from_ps, (sqlite3_int64)rec->opts.from_ps);
    b |= bind_opt_int(st, RU_to_ps, rec->opts.to_ps);
    b |= sqlite3_bind_text(st, RU_version, TESSERA_VERSION, -1, SQLITE_STATIC);
    b |= sqlite3_bind_text(st, RU_started_at, now, -1, SQLITE_TRANSIENT);
    b |= sqlite3_bind_text(st, RU_uid, uid, -1, SQLITE_TRANSIENT);
    rc = step_done(rec, st, b, "inserting the run", diag);
    sqlite3_finalize(st);
    rec->run_id = sqlite3_last_insert_rowid(rec->db);
    return rc;
}

/* The parameter numbers of the params INSERT, from its declaration. */
#define PA(name, type) PA_##name,
enum { PA_run_id = 1, DB_PARAMS(PA, DB_NONE) };

static int insert_params(rec_t *rec, const rec_run_info_t *info, diag_t *diag)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare(rec, DB_INSERT_SQL(params, DB_PARAMS), &st, diag);
    for (size_t i = 0; rc == TESS_OK && i < info->n_params; i++) {
        int b = sqlite3_bind_int64(st, PA_run_id, rec->run_id);
        b |= sqlite3_bind_text(st, PA_key, info->param_keys[i], -1, SQLITE_STATIC);
        b |= schema_bind_value(st, PA_value, info->param_values[i]);
        rc = step_done(rec, st, b, "inserting the run's params", diag);
    }
    sqlite3_finalize(st);
    return rc;
}

/* The runs row and its params in one transaction: all or nothing. */
static int insert_run_rows(rec_t *rec, const rec_run_info_t *info, diag_t *diag)
{
    int rc = db_exec(rec->db, rec->path, "BEGIN IMMEDIATE", diag);
    if (rc != TESS_OK)
        return rc;
    rc = insert_run(rec, info, diag);
    if (rc == TESS_OK)
        rc = insert_params(rec, info, diag);
    if (rc == TESS_OK)
        rc = db_exec(rec->db, rec->path, "COMMIT", diag);
    if (rc != TESS_OK)
        sqlite3_exec(rec->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* Gives the run its final status. */
static int update_run(rec_t *rec, const char *status, const char *error,
                      const rec_run_end_t *end, diag_t *diag)
{
    char sql[256];
    snprintf(sql, sizeof sql,
             "UPDATE runs SET status = ?%d, error = ?%d, end_ps = ?%d, events = ?%d,"
             " wall_s = ?%d, stop_ps = ?%d, finished_at = ?%d WHERE run_id = ?%d",
             RU_status, RU_error, RU_end_ps, RU_events, RU_wall_s, RU_stop_ps, RU_finished_at,
             RU_run_id);
    sqlite3_stmt *st = NULL;
    int rc = prepare(rec, sql, &st, diag);
    if (rc != TESS_OK)
        return rc;
    char now[32];
    now_utc(now);
    int b = sqlite3_bind_int64(st, RU_run_id, rec->run_id);
    b |= sqlite3_bind_text(st, RU_status, status, -1, SQLITE_STATIC);
    b |= sqlite3_bind_text(st, RU_error, error, -1, SQLITE_STATIC);
    b |= end->end_ps > (sim_time_t)INT64_MAX
             ? sqlite3_bind_null(st, RU_end_ps)
             : sqlite3_bind_int64(st, RU_end_ps, (sqlite3_int64)end->end_ps);
    b |= sqlite3_bind_int64(st, RU_events, (sqlite3_int64)end->events);
    b |= sqlite3_bind_double(st, RU_wall_s, end->wall_s);
    b |= end->stop_ps > (sim_time_t)INT64_MAX
             ? sqlite3_bind_null(st, RU_stop_ps)
             : sqlite3_bind_int64(st, RU_stop_ps, (sqlite3_int64)end->stop_ps);
    b |= sqlite3_bind_text(st, RU_finished_at, now, -1, SQLITE_TRANSIENT);
    rc = step_done(rec, st, b, "recording the run's end", diag);
    sqlite3_finalize(st);
    return rc;
}

/* The parameter numbers of the races INSERT, from its declaration. */
#define RA(name, type) RA_##name,
enum { RA_run_id = 1, DB_RACES(RA, DB_NONE) };

/* The races the detector found, one row each. */
static int insert_races(rec_t *rec, race_det_t *races, diag_t *diag)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare(rec, DB_INSERT_SQL(races, DB_RACES), &st, diag);
    size_t n = race_count(races);
    for (size_t i = 0; rc == TESS_OK && i < n; i++) {
        const race_pair_t *p = race_get(races, i);
        int b = sqlite3_bind_int64(st, RA_run_id, rec->run_id);
        b |= sqlite3_bind_int(st, RA_addr, p->addr);
        b |= sqlite3_bind_int(st, RA_a_frame, p->a.frame);
        b |= sqlite3_bind_int(st, RA_a_core, p->a.core);
        b |= sqlite3_bind_int(st, RA_a_slot, p->a.slot);
        b |= sqlite3_bind_text(st, RA_a_op, race_op_name(&p->a), -1, SQLITE_STATIC);
        b |= sqlite3_bind_int(st, RA_b_frame, p->b.frame);
        b |= sqlite3_bind_int(st, RA_b_core, p->b.core);
        b |= sqlite3_bind_int(st, RA_b_slot, p->b.slot);
        b |= sqlite3_bind_text(st, RA_b_op, race_op_name(&p->b), -1, SQLITE_STATIC);
        rc = step_done(rec, st, b, "recording the races", diag);
    }
    sqlite3_finalize(st);
    return rc;
}

#define IV(name, type) IV_##name,
enum { IV_run_id = 1, DB_INTERVALS(IV, DB_NONE) };

/* The SIMT unit's rows of an interval (ivl_t.simt), after the banks':
 * 'simt' (its warp instructions) and one per stall reason, 'simt.memory' …
 * (busy_ps: the warps' ps stalled for it). */
/* (the barrier reason, last, only under simt.reconvergence = barrier: as
 * its counter) */
_Static_assert(GPU_SIMT_STALL_BARRIER == GPU_SIMT_STALLS - 1, "the barrier reason is last");
#define SIMT_IVL_ROWS(iv) (1 + ((iv)->groups ? GPU_SIMT_STALLS : GPU_SIMT_STALL_BARRIER))

static int simt_interval_row(rec_t *rec, sqlite3_stmt *st, const ivl_bucket_t *b, unsigned k,
                             diag_t *diag)
{
    char unit[GPU_UNIT_NAME_MAX];
    gpu_unit_name(unit, GPU_UNIT_SIMT, 0, k ? gpu_simt_stall_name(k - 1) : NULL);
    int x = sqlite3_bind_text(st, IV_unit, unit, -1, SQLITE_TRANSIENT);
    x |= k ? sqlite3_bind_int64(st, IV_busy_ps, (sqlite3_int64)b->v[IVL_SIMT_STALL][k - 1])
           : sqlite3_bind_null(st, IV_busy_ps);
    x |= k ? sqlite3_bind_null(st, IV_instructions)
           : sqlite3_bind_int64(st, IV_instructions, (sqlite3_int64)b->v[IVL_SIMT_ISSUED][0]);
    x |= sqlite3_bind_null(st, IV_sm_wait_ps) | sqlite3_bind_null(st, IV_conflicts);
    return step_done(rec, st, x, "recording the intervals", diag);
}

/* One row of the intervals table: unit u (0-15 cores, 16-31 banks, then the
 * SIMT unit's rows) of interval i. */
static int interval_row(rec_t *rec, sqlite3_stmt *st, const ivl_t *iv, const char *kind,
                        size_t i, unsigned u, sim_time_t stop, diag_t *diag)
{
    char unit[GPU_UNIT_NAME_MAX];
    bool core = u < GPU_CORES;
    unsigned k = core ? u : u - GPU_CORES;
    gpu_unit_name(unit, core ? GPU_UNIT_CORE : GPU_UNIT_BANK, k, NULL);
    const ivl_bucket_t *b = ivl_bucket(iv, i);
    bool simt = !core && k >= iv->banks;
    int x = sqlite3_bind_int64(st, IV_run_id, rec->run_id);
    x |= sqlite3_bind_text(st, IV_kind, kind, -1, SQLITE_STATIC);
    x |= sqlite3_bind_int64(st, IV_idx, (sqlite3_int64)i);
    x |= sqlite3_bind_int64(st, IV_from_ps, (sqlite3_int64)ivl_from(iv, i));
    x |= sqlite3_bind_int64(st, IV_to_ps, (sqlite3_int64)ivl_to(iv, i, stop));
    if (simt)
        return x ? step_done(rec, st, x, "recording the intervals", diag)
                 : simt_interval_row(rec, st, b, k - iv->banks, diag);
    x |= sqlite3_bind_text(st, IV_unit, unit, -1, SQLITE_TRANSIENT);
    x |= sqlite3_bind_int64(st, IV_busy_ps,
                            (sqlite3_int64)b->v[core ? IVL_CORE_BUSY : IVL_BANK_BUSY][k]);
    if (core) {
        x |= sqlite3_bind_int64(st, IV_instructions, (sqlite3_int64)b->v[IVL_CORE_INSTR][k]);
        x |= sqlite3_bind_int64(st, IV_sm_wait_ps, (sqlite3_int64)b->v[IVL_CORE_WAIT][k]);
        x |= sqlite3_bind_null(st, IV_conflicts);
    } else {
        x |= sqlite3_bind_null(st, IV_instructions) | sqlite3_bind_null(st, IV_sm_wait_ps);
        x |= sqlite3_bind_int64(st, IV_conflicts, (sqlite3_int64)b->v[IVL_BANK_CONFLICTS][k]);
    }
    return step_done(rec, st, x, "recording the intervals", diag);
}

/* Every interval of `iv` (the window: its one interval, even when empty). */
static int insert_intervals(rec_t *rec, const ivl_t *iv, const char *kind, sim_time_t stop,
                            diag_t *diag)
{
    if (iv->failed)
        return diag_fail(diag, TESS_ENOMEM, "out of memory counting intervals");
    /* the intervals reach the stop (quiet ones at the end are rows of zeros);
     * the window is one row per unit, even when nothing happened in it */
    size_t n = iv->n;
    if (strcmp(kind, "window") == 0)
        n = 1;
    else if (stop != SIM_TIME_NEVER && stop > iv->origin) {
        sim_time_t span = stop - iv->origin; /* ceil(span / len), without overflow */
        sim_time_t reach = span / iv->len + (span % iv->len != 0);
        n = n > reach ? n : (size_t)reach;
    }
    /* one transaction: a commit per row made 100 000 rows take 13 s (issue 26) */
    sqlite3_stmt *st = NULL;
    int rc = db_exec(rec->db, rec->path, "BEGIN IMMEDIATE", diag);
    if (rc == TESS_OK)
        rc = prepare(rec, DB_INSERT_SQL(intervals, DB_INTERVALS), &st, diag);
    for (size_t i = 0; rc == TESS_OK && i < n; i++)
        for (unsigned u = 0; rc == TESS_OK && u < GPU_CORES + iv->banks +
                                                  (iv->simt ? SIMT_IVL_ROWS(iv) : 0); u++)
            rc = interval_row(rec, st, iv, kind, i, u, stop, diag);
    sqlite3_finalize(st);
    if (rc == TESS_OK)
        rc = db_exec(rec->db, rec->path, "COMMIT", diag);
    if (rc != TESS_OK)
        sqlite3_exec(rec->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* --- a run ------------------------------------------------------------------------ */

int rec_begin_run(rec_t *rec, const rec_run_info_t *info, int64_t *run_id, diag_t *diag)
{
    assert(!rec->in_run && "rec_begin_run: a run is in progress");
    static const rec_run_info_t none = {0};
    if (!info)
        info = &none;
    int rc = insert_run_rows(rec, info, diag);
    if (rc != TESS_OK)
        return rc;
    rec->w.banks = info->banks;
    rc = rec_writer_start(&rec->w, rec->run_id, info->period_ps, &rec->cur, diag);
    if (rc != TESS_OK) {
        rec_run_end_t e = {.status = db_status_names[DB_STATUS_ERROR], .end_ps = SIM_TIME_NEVER,
                           .stop_ps = SIM_TIME_NEVER};
        update_run(rec, db_status_names[DB_STATUS_ERROR], "the recorder could not start its writer", &e, NULL);
        return rc;
    }
    memset(&rec->counts, 0, sizeof rec->counts);
    rec_names_clear(&rec->names); /* ids are per run: event_names is keyed by run_id */
    rec->dropping = false;
    rec_sink_start(rec);
    rec->in_run = true;
    if (run_id)
        *run_id = rec->run_id;
    return TESS_OK;
}

gpu_access_sink_t *rec_access_sink(rec_t *rec)
{
    return rec->opts.level >= REC_MEM && !rec->windowed ? &rec->sink : NULL;
}

unsigned rec_attach(rec_t *rec, sim_t *sim)
{
    sim_set_hook(sim, rec_hook, rec);
    if (rec->opts.level >= REC_EVENTS)
        sim_set_event_log(sim, true);
    /* GPU_TRACE_WARPS/ISSUE are ignored by core.model = mimd. */
    if (rec->opts.level >= REC_EVENTS)
        return GPU_TRACE_FRAMES | GPU_TRACE_TASKS | GPU_TRACE_ACCESSES | GPU_TRACE_WARPS |
               GPU_TRACE_ISSUE | GPU_TRACE_SLOTS;
    if (rec->opts.level >= REC_MEM)
        return GPU_TRACE_FRAMES | GPU_TRACE_TASKS | GPU_TRACE_ACCESSES | GPU_TRACE_WARPS |
               GPU_TRACE_SLOTS;
    if (rec->opts.level >= REC_TASKS)
        return GPU_TRACE_FRAMES | GPU_TRACE_TASKS | GPU_TRACE_WARPS | GPU_TRACE_SLOTS;
    return 0;
}

int rec_end_run(rec_t *rec, const rec_run_end_t *end, diag_t *diag)
{
    assert(rec->in_run && "rec_end_run: no run in progress");
    diag_t wd = {0};
    rec_seal(rec);
    int wrc = rec_writer_finish(&rec->w, rec->cur, &wd);
    rec->cur = NULL;
    rec->in_run = false;
    rec_sink_idle(rec);
    const char *status = end && end->status ? end->status : db_status_names[DB_STATUS_ERROR];
    const char *error = end ? end->error : "the run's end was not reported";
    char msg[sizeof wd.msg + 32];
    if (wrc == TESS_OK && rec->names.failed)
        wrc = diag_fail(&wd, TESS_ENOMEM, "%s: out of memory for the event names", rec->path);
    if (wrc != TESS_OK) {
        snprintf(msg, sizeof msg, "recording incomplete: %s", wd.msg);
        status = db_status_names[DB_STATUS_ERROR];
        error = msg;
        diag_fail(diag, wrc, "%s", wd.msg);
    }
    rec_run_end_t none = {.end_ps = SIM_TIME_NEVER, .stop_ps = SIM_TIME_NEVER};
    int rc = end && end->races ? insert_races(rec, end->races, diag) : TESS_OK;
    sim_time_t stop = end ? end->stop_ps : SIM_TIME_NEVER;
    if (rc == TESS_OK && end && end->intervals)
        rc = insert_intervals(rec, end->intervals, "interval", stop, diag);
    if (rc == TESS_OK && end && end->window)
        rc = insert_intervals(rec, end->window, "window", stop, diag);
    /* The indexes before the final status: a run whose end could not be
     * recorded (a full disk while building them) is stored as 'error', never
     * as 'ok' beside a failed command. */
    if (rc == TESS_OK)
        rc = schema_index(rec->db, rec->path, diag);
    if (rc != TESS_OK && wrc == TESS_OK) {
        snprintf(msg, sizeof msg, "recording incomplete: %s", diag ? diag->msg : "");
        status = db_status_names[DB_STATUS_ERROR];
        error = msg;
    }
    int urc = update_run(rec, status, error, end ? end : &none, rc == TESS_OK ? diag : NULL);
    rec_ckpt_stop(&rec->w.ckpt, rec->db);
    return wrc != TESS_OK ? wrc : rc != TESS_OK ? rc : urc;
}

void rec_close(rec_t *rec)
{
    if (!rec)
        return;
    if (rec->in_run) {
        rec_run_end_t e = {.status = db_status_names[DB_STATUS_ERROR],
                           .error = "the recorder was closed before the run ended",
                           .end_ps = SIM_TIME_NEVER, .stop_ps = SIM_TIME_NEVER};
        rec_end_run(rec, &e, NULL);
    }
    rec_writer_destroy(&rec->w);
    rec_names_clear(&rec->names);
    sqlite3_exec(rec->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
    sqlite3_close(rec->db);
    tess_free(rec->path);
    tess_free(rec);
}

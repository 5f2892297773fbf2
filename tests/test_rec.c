/* test_rec.c — the recorder: databases built by feeding hand-made gpu_trace.h
 * records through a real simulation's trace hook (rec_attach + sim_trace),
 * then read back with plain SQL on a second connection. Covers the runs row
 * and its status transitions, params, every table and the sm_accesses view
 * (every field of every access back exactly), pack splitting, levels, the
 * window, appending, refusing foreign files, writer failure, a killed run,
 * SHA-256 vectors, the packer's digit writer and exact division, and the
 * example queries of docs/SCHEMA.md. */
#include <signal.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/recorder/rec.h"
#include "analysis/recorder/rec_int.h"
#include "analysis/store/db.h"
#include "analysis/store/sha256.h"
#include "events/base/err.h"
#include "model/gpu_trace.h"
#include "model/isa.h"
#include "tests/testutil.h"

#define P 1000 /* the clock period of the test runs */

/* --- fixtures ---------------------------------------------------------------- */

typedef struct fx {
    rec_t *rec;
    sim_t *sim;
    const char *path;
    unsigned mask;            /* what rec_attach asked for */
    int64_t run;
} fx_t;

static uint8_t tm_image[TM_BYTES], sm_image[SM_BYTES];
static const char *const keys[] = {"clock.period_ps", "sm.arbiter"};
static const char *const values[] = {"1000", "fixed"};

static const rec_run_info_t info = {
    .program = "examples/t.s", .tm_image = tm_image, .sm_image = sm_image,
    .config = "[clock]\nperiod_ps = 1000\n", .param_keys = keys, .param_values = values,
    .n_params = 2, .period_ps = P,
};

static rec_t *open_at(const char *path, unsigned level, sim_time_t from, sim_time_t to)
{
    diag_t d = {0};
    rec_opts_t o = {.level = (uint8_t)level, .from_ps = from, .to_ps = to};
    rec_t *rec = rec_open(path, &o, &d);
    if (!rec)
        fprintf(stderr, "rec_open: %s\n", d.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    return rec;
}

/* Opens a fresh database `name`, begins a run and attaches it to a sim. */
static void fx_open(fx_t *f, const char *name, unsigned level, sim_time_t from, sim_time_t to)
{
    f->path = test_tmp_path(name);
    unlink(f->path);
    f->rec = open_at(f->path, level, from, to);
    diag_t d = {0};
    CU_ASSERT_EQUAL_FATAL(rec_begin_run(f->rec, &info, &f->run, &d), TESS_OK);
    f->sim = sim_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->sim);
    f->mask = rec_attach(f->rec, f->sim);
}

static int fx_end(fx_t *f, const char *status, const char *error)
{
    diag_t d = {0};
    rec_run_end_t e = {.status = status, .error = error, .end_ps = 123000, .events = 77,
                       .wall_s = 0.5};
    int rc = rec_end_run(f->rec, &e, &d);
    if (rc != TESS_OK)
        fprintf(stderr, "rec_end_run: %s\n", d.msg);
    return rc;
}

static void fx_close(fx_t *f)
{
    rec_close(f->rec);
    sim_destroy(f->sim);
    f->rec = NULL;
    f->sim = NULL;
}

static void fx_done(fx_t *f)
{
    CU_ASSERT_EQUAL(fx_end(f, "ok", NULL), TESS_OK);
    fx_close(f);
}

static void tr(fx_t *f, unsigned kind, const void *record) { sim_trace(f->sim, kind, record); }

static void tr_access(fx_t *f, const gpu_tr_access_t *a) { tr(f, GPU_TR_ACCESS, a); }

static gpu_tr_access_t mk_access(unsigned frame, unsigned core, sim_time_t req, unsigned addr)
{
    gpu_tr_access_t a = {
        .frame = (uint8_t)frame, .core = (uint8_t)core, .is_store = addr & 1,
        .sync = (addr >> 1 & 7) == 0, .bank = (uint8_t)(addr >> 8), .value = (uint8_t)(addr * 7),
        .addr = (uint16_t)addr, .request_ps = req, .arrive_ps = req + P,
        .grant_ps = req + P + (addr % 3) * P, .done_ps = req + P + (addr % 3) * P + 2 * P,
    };
    return a;
}

static void tr_task(fx_t *f, unsigned frame, unsigned core, sim_time_t start, sim_time_t ready)
{
    gpu_tr_core_task_t t = {.frame = (uint8_t)frame, .core = (uint8_t)core, .complete = true,
                            .start_ps = start, .finish_ps = ready - P, .ready_ps = ready,
                            .instructions = 12, .sm_ops = 3, .sm_wait_ps = 9 * P,
                            .sm_conflict_ps = 2 * P};
    tr(f, GPU_TR_CORE_TASK, &t);
}

/* --- reading back -------------------------------------------------------------- */


/* The integer of a one-value query, by a short name (testutil.h). */
#define q_int test_q_int

/* The text of a one-value query, in a static buffer ("<null>" for NULL). */
static const char *q_text(const char *path, const char *sql)
{
    static char buf[4096];
    sqlite3 *db = test_db_open(path);
    sqlite3_stmt *st = test_db_prepare(db, sql);
    snprintf(buf, sizeof buf, "<no row>");
    if (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        snprintf(buf, sizeof buf, "%s", t ? (const char *)t : "<null>");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return buf;
}

/* --- sha256 --------------------------------------------------------------------- */

static void test_sha256_vectors(void)
{
    static const struct {
        const char *msg;
        const char *hex;
    } v[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklm"
         "nopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    };
    char hex[SHA256_HEX];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        sha256_hex(v[i].msg, strlen(v[i].msg), hex);
        CU_ASSERT_STRING_EQUAL(hex, v[i].hex);
    }
}

static void test_sha256_million_a_incremental(void)
{
    char chunk[997];
    memset(chunk, 'a', sizeof chunk);
    struct sha256_ctx s;
    sha256_init(&s);
    size_t left = 1000000;
    while (left) {
        size_t n = left < sizeof chunk ? left : sizeof chunk;
        sha256_update(&s, n, (const uint8_t *)chunk);
        left -= n;
    }
    char hex[SHA256_HEX];
    sha256_hex_digest(&s, hex);
    CU_ASSERT_STRING_EQUAL(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    /* the context is ready again: the empty message */
    sha256_hex_digest(&s, hex);
    CU_ASSERT_STRING_EQUAL(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

/* --- runs and params ---------------------------------------------------------------- */

static void test_runs_row(void)
{
    fx_t f;
    for (unsigned i = 0; i < TM_BYTES; i++)
        tm_image[i] = (uint8_t)(i * 13);
    for (unsigned i = 0; i < SM_BYTES; i++)
        sm_image[i] = (uint8_t)(i ^ 0x5a);
    fx_open(&f, "runs.db", REC_MEM, 0, 0);
    CU_ASSERT_EQUAL(f.run, 1);
    /* committed and visible while the run is in progress */
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT status FROM runs"), "running");
    CU_ASSERT_EQUAL(fx_end(&f, "ok", NULL), TESS_OK);
    char hex[SHA256_HEX];
    sha256_hex(tm_image, TM_BYTES, hex);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT program_sha256 FROM runs"), hex);
    sha256_hex(sm_image, SM_BYTES, hex);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT data_sha256 FROM runs"), hex);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT program FROM runs"), "examples/t.s");
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT config FROM runs"), info.config);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT status FROM runs"), "ok");
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT version FROM runs"), TESSERA_VERSION);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT level FROM runs"), "mem");
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT quote(error) FROM runs"), "NULL");
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT end_ps FROM runs"), 123000);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT events FROM runs"), 77);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT wall_s = 0.5 FROM runs"), 1);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT period_ps FROM runs"), P);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT started_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-"
                                  "[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z' FROM runs"), 1);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT finished_at >= started_at FROM runs"), 1);
    CU_ASSERT_EQUAL(q_int(f.path, "PRAGMA application_id"), DB_APP_ID);
    CU_ASSERT_EQUAL(q_int(f.path, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "PRAGMA journal_mode"), "wal");
    fx_close(&f);
}

static void test_params(void)
{
    fx_t f;
    fx_open(&f, "params.db", REC_SUMMARY, 0, 0);
    fx_done(&f);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM params WHERE run_id = 1"), 2);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT value FROM params WHERE key = 'sm.arbiter'"),
                           "fixed");
    CU_ASSERT_STRING_EQUAL(
        q_text(f.path, "SELECT value FROM params WHERE key = 'clock.period_ps'"), "1000");
}

static void test_status_transitions(void)
{
    fx_t f;
    fx_open(&f, "status.db", REC_TASKS, 0, 0);
    CU_ASSERT_EQUAL(fx_end(&f, "watchdog", "core 3: frame 5: budget exceeded"), TESS_OK);
    diag_t d = {0};
    CU_ASSERT_EQUAL(rec_begin_run(f.rec, &info, &f.run, &d), TESS_OK);
    CU_ASSERT_EQUAL(f.run, 2);
    CU_ASSERT_EQUAL(fx_end(&f, "interrupted", "SIGINT"), TESS_OK);
    CU_ASSERT_EQUAL(rec_begin_run(f.rec, &info, &f.run, &d), TESS_OK);
    fx_close(&f); /* closed before the run ended */
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(status, ',') FROM "
                                          "(SELECT status FROM runs ORDER BY run_id)"),
                           "watchdog,interrupted,error");
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT error FROM runs WHERE run_id = 1"),
                           "core 3: frame 5: budget exceeded");
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT error LIKE '%%closed before%%' FROM runs "
                                  "WHERE run_id = 3"), 1);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT end_ps IS NULL FROM runs WHERE run_id = 3"), 1);
}

/* --- frames, stalls, core tasks ------------------------------------------------------- */

static void test_frames(void)
{
    fx_t f;
    fx_open(&f, "frames.db", REC_TASKS, 0, 0);
    CU_ASSERT_EQUAL(f.mask, GPU_TRACE_FRAMES | GPU_TRACE_TASKS | GPU_TRACE_WARPS | GPU_TRACE_SLOTS);
    gpu_tr_frame_t cf = {.frame = 0, .is_if = 0, .grp = 0, .fence = 1, .mask = 0x00ff,
                         .complete = true, .decode_start_ps = 0, .decode_ps = P,
                         .issue_ps = P, .start_ps = SIM_TIME_NEVER,
                         .complete_ps = SIM_TIME_NEVER};
    gpu_tr_frame_t fi = {.frame = 1, .is_if = 1, .grp = 0, .fence = 1, .mask = 0x00ff,
                         .complete = true, .decode_start_ps = P, .decode_ps = 2 * P,
                         .issue_ps = 2 * P, .start_ps = 6 * P, .complete_ps = 9 * P};
    gpu_tr_frame_t part = {.frame = 2, .is_if = 1, .grp = 0, .fence = 2, .mask = 0xa001,
                           .complete = false, .decode_start_ps = 2 * P, .decode_ps = 3 * P,
                           .issue_ps = SIM_TIME_NEVER, .start_ps = SIM_TIME_NEVER,
                           .complete_ps = SIM_TIME_NEVER};
    tr(&f, GPU_TR_FRAME, &cf);
    tr(&f, GPU_TR_FRAME, &fi);
    tr(&f, GPU_TR_FRAME, &part);
    fx_done(&f);
    const char *p = f.path;
    CU_ASSERT_STRING_EQUAL(q_text(p, "SELECT kind || fence || grp || '/' || mask || '/' || "
                                     "mask_hex FROM frames WHERE frame = 0"), "CFacq0/255/00ff");
    CU_ASSERT_EQUAL(q_int(p, "SELECT start_ps IS NULL AND complete_ps IS NULL AND "
                             "issue_ps = 1000 AND complete = 1 FROM frames WHERE frame = 0"), 1);
    CU_ASSERT_STRING_EQUAL(q_text(p, "SELECT printf('%s %d %d %d %d %d', kind, decode_start_ps,"
                                     " decode_ps, issue_ps, start_ps, complete_ps) FROM frames"
                                     " WHERE frame = 1"), "IF 1000 2000 2000 6000 9000");
    CU_ASSERT_STRING_EQUAL(q_text(p, "SELECT printf('%s %s %d %d', fence, mask_hex, complete,"
                                     " issue_ps IS NULL AND complete_ps IS NULL) FROM frames"
                                     " WHERE frame = 2"), "rel a001 0 1");
}

static void test_stalls(void)
{
    fx_t f;
    fx_open(&f, "stalls.db", REC_TASKS, 0, 0);
    for (unsigned r = 0; r < GPU_STALL_REASONS; r++) {
        gpu_tr_stall_t s = {.frame = 3, .reason = (uint8_t)r, .blocker = r ? (uint8_t)r : 0xff,
                            .from_ps = r * P, .to_ps = (r + 2) * P};
        tr(&f, GPU_TR_STALL, &s);
    }
    fx_done(&f);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(reason, ',') FROM "
                                          "(SELECT reason FROM stalls ORDER BY from_ps)"),
                           "decode,mask,acq,rel,bus,order");
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT blocker IS NULL FROM stalls WHERE reason = 'decode'"),
                    1);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT blocker FROM stalls WHERE reason = 'bus'"), 4);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT to_ps - from_ps FROM stalls WHERE reason = 'rel'"),
                    2 * P);
}

static void test_core_tasks(void)
{
    fx_t f;
    fx_open(&f, "tasks.db", REC_TASKS, 0, 0);
    tr_task(&f, 4, 7, 10 * P, 40 * P);
    gpu_tr_core_task_t part = {.frame = 5, .core = 2, .complete = false, .start_ps = 50 * P,
                               .finish_ps = SIM_TIME_NEVER, .ready_ps = SIM_TIME_NEVER,
                               .instructions = UINT64_C(1) << 40, .sm_ops = 0};
    tr(&f, GPU_TR_CORE_TASK, &part);
    fx_done(&f);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT printf('%d %d %d %d %d %d %d %d %d %d', "
                                          "frame, core, start_ps, finish_ps, ready_ps, "
                                          "instructions, sm_ops, sm_wait_ps, sm_conflict_ps, "
                                          "complete) FROM core_tasks WHERE frame = 4"),
                           "4 7 10000 39000 40000 12 3 9000 2000 1");
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT finish_ps IS NULL AND ready_ps IS NULL AND "
                                  "complete = 0 AND instructions = 1 << 40 "
                                  "FROM core_tasks WHERE frame = 5"), 1);
}

/* --- accesses ---------------------------------------------------------------------------- */

/* Compares sm_accesses (ordered by frame, core, idx) with `want`, which is
 * in that order too. */
static void check_accesses(const char *path, const gpu_tr_access_t *want, size_t n)
{
    sqlite3 *db = test_db_open(path);
    sqlite3_stmt *st =
        test_db_prepare(db, "SELECT frame, core, idx, op, sync, addr, bank, value, request_ps,"
                            " arrive_ps, grant_ps, done_ps, wait_ps FROM sm_accesses"
                            " ORDER BY frame, core, idx");
    size_t i = 0, bad = 0;
    for (; sqlite3_step(st) == SQLITE_ROW; i++) {
        if (i >= n)
            continue;
        const gpu_tr_access_t *a = &want[i];
        int ok = sqlite3_column_int(st, 0) == a->frame && sqlite3_column_int(st, 1) == a->core &&
                 !strcmp((const char *)sqlite3_column_text(st, 3), a->is_store ? "st" : "ld") &&
                 sqlite3_column_int(st, 4) == a->sync && sqlite3_column_int(st, 5) == a->addr &&
                 sqlite3_column_int(st, 6) == a->bank && sqlite3_column_int(st, 7) == a->value;
        const sim_time_t t[4] = {a->request_ps, a->arrive_ps, a->grant_ps, a->done_ps};
        for (int k = 0; k < 4; k++)
            ok &= t[k] == SIM_TIME_NEVER
                      ? sqlite3_column_type(st, 8 + k) == SQLITE_NULL
                      : (sim_time_t)sqlite3_column_int64(st, 8 + k) == t[k];
        if (a->done_ps != SIM_TIME_NEVER)
            ok &= (sim_time_t)sqlite3_column_int64(st, 12) == a->grant_ps - a->arrive_ps;
        if (!ok && bad++ < 5)
            fprintf(stderr, "access %zu differs (addr %u)\n", i, a->addr);
    }
    CU_ASSERT_EQUAL(i, n);
    CU_ASSERT_EQUAL(bad, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

enum { RT_N = 4096 + 300 };

/* The accesses of test_accesses_roundtrip, ordered by frame, core, idx. */
static void roundtrip_stream(gpu_tr_access_t want[RT_N])
{
    size_t n = 0;
    /* frame 1, core 0: every address once, times beyond 2^40 ps */
    sim_time_t t = (UINT64_C(1) << 40) * P;
    for (unsigned addr = 0; addr < SM_BYTES; addr++, t += 5 * P)
        want[n++] = mk_access(1, 0, t, addr);
    /* frame 1, core 9: times near 2^62 ps; some not whole cycles; odd ones */
    t = UINT64_C(1) << 62;
    for (unsigned i = 0; i < 290; i++, t += 4 * P + (i % 50 == 7 ? 333 : 0))
        want[n++] = mk_access(1, 9, t, (i * 37) % SM_BYTES);
    want[n] = mk_access(1, 9, t, 17);
    want[n++].done_ps = SIM_TIME_NEVER; /* unknown: NULL */
    want[n] = mk_access(1, 9, t + 10 * P, 18);
    want[n].arrive_ps = want[n].request_ps - 5; /* out of order: kept as is */
    n++;
    /* frame 2, core 15: a short task */
    for (unsigned i = 0; n < RT_N; i++)
        want[n++] = mk_access(2, 15, 7 * P + 3 * i * P, 4095 - i);
}

static void test_accesses_roundtrip(void)
{
    static gpu_tr_access_t want[RT_N];
    roundtrip_stream(want);
    fx_t f;
    fx_open(&f, "acc.db", REC_MEM, 0, 0);
    CU_ASSERT_EQUAL(f.mask, GPU_TRACE_FRAMES | GPU_TRACE_TASKS | GPU_TRACE_ACCESSES |
                                GPU_TRACE_WARPS | GPU_TRACE_SLOTS);
    for (size_t i = 0; i < 4096; i++) { /* interleaved across cores, as the model would */
        tr_access(&f, &want[i]);
        if (i + 4096 < RT_N)
            tr_access(&f, &want[i + 4096]);
    }
    tr_task(&f, 1, 0, 0, 10 * P);
    fx_done(&f); /* core 9 and 15 packs are flushed at the end of the run */
    check_accesses(f.path, want, RT_N);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(DISTINCT addr) FROM sm_accesses WHERE core = 0"),
                    SM_BYTES);
    /* core 9 falls back to picoseconds at its first time off the cycle grid */
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT n FROM sm_access_packs WHERE core = 9 AND part = 0"), 7);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT scale_ps FROM sm_access_packs WHERE core = 9 AND "
                                  "part = 1"), 1);
    /* the two irregular accesses have packs of their own, times in the offsets */
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(n || ':' || quote(arrive_dt) ||"
                                          " ':' || quote(done_dt), ' ') FROM sm_access_packs"
                                          " WHERE done_dt IS NULL OR arrive_dt < 0"),
                           "1:1000:NULL 1:-5:2000");
}

/* What the model does with an access sink (model/sm.c, gpu_trace.h). */
static void sink_put(gpu_access_sink_t *s, const gpu_tr_access_t *a)
{
    if (s->next == s->end)
        s->full(s);
    CU_ASSERT_FATAL(s->next < s->end);
    *s->next++ = *a;
}

/* The access sink: the model appends its records to the batch itself. The
 * same accesses as through the hook (the irregular ones, the times near
 * 2^62, interleaved cores), in batches that fill (full swaps them), a
 * task's row between accesses cutting its pack where it was recorded, an
 * access of no core dropped, the counts during the run, and records
 * appended outside a run dropped. No sink where a window filters or the
 * level records no accesses. */
static void test_access_sink(void)
{
    enum { N = 3 * REC_BATCH_ACCS + RT_N, BEFORE = 1000 };
    static gpu_tr_access_t want[N];
    roundtrip_stream(want);
    for (size_t i = RT_N; i < N; i++) /* core 4, frames 3 and 4: three batches more */
        want[i] = mk_access(i < RT_N + BEFORE ? 3 : 4, 4, 100 * P + 2 * P * i,
                            (unsigned)(i % SM_BYTES));
    fx_t f;
    fx_open(&f, "sink.db", REC_MEM, 0, 0);
    gpu_access_sink_t *s = rec_access_sink(f.rec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    for (size_t i = 0; i < 4096; i++) {
        sink_put(s, &want[i]);
        if (i + 4096 < RT_N)
            sink_put(s, &want[i + 4096]);
    }
    gpu_tr_access_t nobody = mk_access(3, GPU_CORES, 100 * P, 1);
    sink_put(s, &nobody);
    for (size_t i = RT_N; i < N; i++) {
        sink_put(s, &want[i]);
        if (i == RT_N + BEFORE - 1) /* through the hook, after frame 3's accesses */
            tr_task(&f, 3, 4, 0, 99 * P);
    }
    rec_counts_t k;
    rec_get_counts(f.rec, &k);
    CU_ASSERT_EQUAL(k.accesses, N + 1); /* handed over: the writer drops the one of no core */
    CU_ASSERT_EQUAL(fx_end(&f, "ok", NULL), TESS_OK);
    check_accesses(f.path, want, N);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT sum(n) FROM sm_access_packs WHERE frame = 3"
                                  " AND core = 4"), BEFORE);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT sum(n) FROM sm_access_packs WHERE frame = 4"
                                  " AND core = 4"), N - RT_N - BEFORE);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM core_tasks"), 1);
    /* outside the run: dropped, whatever the number */
    for (size_t i = 0; i < 5 * REC_DISCARD; i++)
        sink_put(s, &want[i]);
    rec_get_counts(f.rec, &k);
    CU_ASSERT_EQUAL(k.accesses, N + 1);
    fx_close(&f);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM sm_accesses"), N);

    rec_t *r = open_at(test_tmp_path("sink-window.db"), REC_MEM, 10 * P, 0);
    CU_ASSERT_PTR_NULL(rec_access_sink(r));
    rec_close(r);
    r = open_at(test_tmp_path("sink-tasks.db"), REC_TASKS, 0, 0);
    CU_ASSERT_PTR_NULL(rec_access_sink(r));
    rec_close(r);
}

static long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* The checkpointer (rec_ckpt.c), at an interval of 4 pages of 64 KiB: the
 * WAL starts over again and again (its file, never shrunk before rec_close,
 * stays near the bound instead of growing with the run's ~12 MB), the
 * database has them by the run's end (SQLite's own checkpoint, every 16 MiB,
 * would not have run), every access arrives, and at the close the WAL is
 * emptied. */
static void test_checkpointer(void)
{
    enum { N = 1 << 20, PAGE = 65536 };
    const char *path = test_tmp_path("ckpt.db");
    char wal[512];
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(path);
    unlink(wal);
    fx_t f = {.path = path};
    f.rec = open_at(path, REC_MEM, 0, 0);
    f.rec->w.ckpt.bytes = 4 * PAGE;
    diag_t d = {0};
    CU_ASSERT_EQUAL_FATAL(rec_begin_run(f.rec, &info, &f.run, &d), TESS_OK);
    f.sim = sim_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f.sim);
    rec_attach(f.rec, f.sim);
    for (unsigned i = 0; i < N; i++) {
        gpu_tr_access_t a = mk_access(1, i % GPU_CORES, (sim_time_t)(i / GPU_CORES) * 3 * P,
                                      (i * 2654435761u) % SM_BYTES);
        tr_access(&f, &a);
    }
    CU_ASSERT_EQUAL(fx_end(&f, "ok", NULL), TESS_OK);
    long long wal_max = file_size(wal), db_size = file_size(path);
    CU_ASSERT(db_size > 8 * 1024 * 1024); /* checkpointed during the run (of ~12 MB) */
    /* four intervals (REC_CKPT_MAX) and a transaction of REC_TXN_BATCHES batches
       (~16 pages each) beyond: ~5.6 MB at most */
    CU_ASSERT(wal_max > 0 && wal_max <= (16 + REC_TXN_BATCHES * 16 + 8) * (long long)(PAGE + 24));
    fx_close(&f);
    CU_ASSERT_EQUAL(file_size(wal) <= 0, 1); /* TRUNCATE at the close */
    CU_ASSERT_EQUAL(q_int(path, "SELECT count(*) FROM sm_accesses"), N);
    CU_ASSERT_EQUAL(q_int(path, "SELECT count(DISTINCT core) FROM sm_accesses"), GPU_CORES);
}

/* A pack holds at most REC_PACK_MAX accesses (here 0.2 cycles apart, so in
 * picoseconds, within the span limit). */
static void test_pack_split_count(void)
{
    enum { N = 2 * REC_PACK_MAX + 5 };
    static gpu_tr_access_t want[N];
    fx_t f;
    fx_open(&f, "split.db", REC_MEM, 0, 0);
    for (unsigned i = 0; i < N; i++) {
        want[i] = mk_access(3, 4, 200 * i, i % SM_BYTES);
        want[i].arrive_ps += 1; /* a request latency of 1001 ps: off the grid */
        want[i].grant_ps += 1;
        want[i].done_ps += 1;
        tr_access(&f, &want[i]);
    }
    tr_task(&f, 3, 4, 0, want[N - 1].done_ps + P);
    fx_done(&f);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(part || ':' || idx0 || ':' || n"
                                          " || ':' || scale_ps, ' ') FROM (SELECT * FROM"
                                          " sm_access_packs ORDER BY part)"),
                           "0:0:4096:1 1:4096:4096:1 2:8192:5:1");
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM sm_accesses WHERE frame = 3 AND "
                                  "core = 4"), N);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT max(idx) FROM sm_accesses"), N - 1);
    check_accesses(f.path, want, N);
}

/* A pack's request times span fewer than REC_SPAN_MAX cycles, so that its
 * relative times stay short. */
static void test_pack_split_span(void)
{
    enum { N = 1000 };
    static gpu_tr_access_t want[N];
    fx_t f;
    fx_open(&f, "span.db", REC_MEM, 0, 0);
    for (unsigned i = 0; i < N; i++) {
        want[i] = mk_access(5, 1, 7 * P * i, (i * 5) % SM_BYTES);
        tr_access(&f, &want[i]);
    }
    fx_done(&f);
    /* 143 requests fit in [base, base + 1000 cycles) at 7 cycles apart */
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM sm_access_packs"), (N + 142) / 143);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT max(n) FROM sm_access_packs"), 143);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM sm_access_packs WHERE idx0 = 143 * part "
                                  "AND arrive_dt = 1 AND done_dt = 2"), (N + 142) / 143);
    check_accesses(f.path, want, N);
}

/* Latencies that vary widen the pack's radices. */
static void test_pack_varying_latency(void)
{
    enum { N = 300 };
    static gpu_tr_access_t want[N];
    fx_t f;
    fx_open(&f, "layout.db", REC_MEM, 0, 0);
    sim_time_t t = 0;
    for (unsigned i = 0; i < N; i++) {
        want[i] = mk_access(2, 6, t, i);
        if (i >= 100) { /* from here on the request latency varies */
            want[i].arrive_ps += (i % 4) * P;
            want[i].grant_ps += (i % 4) * P;
            want[i].done_ps += (i % 4) * P;
        }
        t = want[i].done_ps + P;
        tr_access(&f, &want[i]);
    }
    fx_done(&f);
    /* request latency 1..4 cycles (radix 4), answer 2, wait 0..2, high bank map */
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(printf('%d:%d %d:%d %d:%d %d',"
                                          " arrive_dt, arrive_n, done_dt, done_n, wait_dt,"
                                          " wait_n, bank_shift), ' / ') FROM sm_access_packs"),
                           "1:4 2:1 0:3 8 / 1:4 2:1 0:3 8");
    check_accesses(f.path, want, N);
}

/* Entries that would not fit a 63-bit integer: packs of one access. */
static void test_pack_radix_overflow(void)
{
    enum { N = 40 };
    static gpu_tr_access_t want[N];
    fx_t f;
    fx_open(&f, "overflow.db", REC_MEM, 0, 0);
    for (unsigned i = 0; i < N; i++) {
        gpu_tr_access_t *a = &want[i];
        *a = mk_access(7, 2, (sim_time_t)i * P, i * 3);
        a->bank = (uint8_t)(i * 7 % 16); /* no bank map explains these */
        a->arrive_ps = a->request_ps + (i % 2 ? UINT64_C(1) << 21 : 1) * P;
        a->grant_ps = a->arrive_ps + (i % 3 ? (UINT64_C(1) << 22) - 1 : 0) * P;
        a->done_ps = a->grant_ps + (i % 3 + 1) * P;
        tr_access(&f, a);
    }
    fx_done(&f);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT count(*) || ' ' || max(n) || ' ' ||"
                                          " count(bank_shift) FROM sm_access_packs"),
                           "40 1 0");
    check_accesses(f.path, want, N);
}

/* The bank is implied by the address under either map, or carried in the
 * entry when no map explains it. */
static void test_pack_bank_maps(void)
{
    enum { N = 120 };
    static gpu_tr_access_t want[3 * N];
    fx_t f;
    fx_open(&f, "banks.db", REC_MEM, 0, 0);
    for (unsigned c = 0; c < 3; c++)
        for (unsigned i = 0; i < N; i++) {
            gpu_tr_access_t *a = &want[c * N + i];
            *a = mk_access(4, c, (sim_time_t)i * 5 * P, (i * 181 + c) % SM_BYTES);
            a->bank = (uint8_t)(c == 0 ? a->addr >> 8 : c == 1 ? a->addr & 15 : i * 11 % 16);
            tr_access(&f, a);
        }
    fx_done(&f);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(core || ':' || quote(bank_shift)"
                                          " || ':' || n, ' ') FROM (SELECT *"
                                          " FROM sm_access_packs ORDER BY core)"),
                           "0:8:120 1:0:120 2:NULL:120");
    check_accesses(f.path, want, 3 * N);
}

/* Intervals of 2^32 ps or more do not fit the hook's entries: such an access
 * gets a pack of its own. */
static void test_pack_huge_interval(void)
{
    fx_t f;
    fx_open(&f, "huge.db", REC_MEM, 0, 0);
    gpu_tr_access_t want[3] = {mk_access(1, 3, 0, 5), mk_access(1, 3, 10 * P, 6),
                               mk_access(1, 3, 20 * P, 7)};
    want[1].grant_ps += UINT64_C(1) << 32;
    want[1].done_ps += UINT64_C(1) << 32;
    want[2].request_ps = want[2].arrive_ps = want[1].done_ps + P;
    want[2].grant_ps = want[2].done_ps = want[2].request_ps + 3 * P;
    for (unsigned i = 0; i < 3; i++)
        tr_access(&f, &want[i]);
    fx_done(&f);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(part || ':' || n || ':' ||"
                                          " scale_ps || ':' || wait_dt, ' ') FROM (SELECT *"
                                          " FROM sm_access_packs ORDER BY part)"),
                           "0:1:1000:2 1:1:1:4294967296 2:1:1000:3");
    check_accesses(f.path, want, 3);
}

/* A small stream of every kind (for levels, windows and the doc queries). */
static void feed_all(fx_t *f)
{
    gpu_tr_frame_t cf = {.frame = 0, .grp = 0, .mask = 0x3, .complete = true,
                         .decode_start_ps = 0, .decode_ps = P, .issue_ps = P,
                         .start_ps = SIM_TIME_NEVER, .complete_ps = SIM_TIME_NEVER};
    gpu_tr_frame_t fi = {.frame = 1, .is_if = 1, .grp = 0, .mask = 0x3, .complete = true,
                         .decode_start_ps = P, .decode_ps = 2 * P, .issue_ps = 2 * P,
                         .start_ps = 6 * P, .complete_ps = 40 * P};
    gpu_tr_stall_t st = {1, GPU_STALL_BUS, 0xff, 2 * P, 3 * P};
    for (unsigned c = 0; c < 2; c++) {
        for (unsigned i = 0; i < 5; i++) {
            gpu_tr_access_t a = mk_access(1, c, 6 * P + 6 * P * i, 256 * c + i);
            tr_access(f, &a);
        }
        tr_task(f, 1, c, 6 * P, 39 * P + c * P);
    }
    tr(f, GPU_TR_FRAME, &cf);
    tr(f, GPU_TR_FRAME, &fi);
    tr(f, GPU_TR_STALL, &st);
    for (unsigned i = 0; i < 3; i++) {
        sim_trace_event_t e = {i * 10 * P, i, i ? "core.step" : NULL, 2};
        tr(f, SIM_TRACE_EVENT, &e);
    }
    gpu_tr_counter_t k1 = {"gpu", "instructions", 24}, k2 = {"bank0", "conflicts", 3};
    tr(f, GPU_TR_COUNTER, &k1);
    tr(f, GPU_TR_COUNTER, &k2);
    /* the slot profile: a MIMD slot (a ld: 4 cycles of SM wait) and a SIMT one */
    gpu_tr_slot_t m = {.frame = 1, .core = 3, .slot = 2, .word = 0xB123, .tasks = 2,
                       .instructions = 5, .lane_instructions = 5, .execute_ps = 0,
                       .sm_wait_ps = 4 * P};
    gpu_tr_slot_t w = {.frame = 1, .core = GPU_SLOT_SIMT, .slot = 0, .word = 0x1123,
                       .tasks = 1, .instructions = 3, .lane_instructions = 6,
                       .issued_cycles = 3, .stall_cycles = {1, 2, 3, 4, 5}};
    tr(f, GPU_TR_SLOT, &m);
    tr(f, GPU_TR_SLOT, &w);
}

static const char *row_counts(const char *path)
{
    return q_text(path, "SELECT (SELECT count(*) FROM frames) || ' ' || (SELECT count(*) FROM"
                        " stalls) || ' ' || (SELECT count(*) FROM core_tasks) || ' ' ||"
                        " (SELECT count(*) FROM sm_accesses) || ' ' || (SELECT count(*) FROM"
                        " events) || ' ' || (SELECT count(*) FROM counters) || ' ' ||"
                        " (SELECT count(*) FROM slot_profile)");
}

static void test_levels(void)
{
    static const char *const want[] = {"0 0 0 0 0 2 0", "2 1 2 0 0 2 2", "2 1 2 10 0 2 2",
                                       "2 1 2 10 3 2 2"};
    /* SIMT records: warps from tasks on, the issue port at events only; the
       slot profile from tasks on */
    static const unsigned masks[] = {
        0, GPU_TRACE_FRAMES | GPU_TRACE_TASKS | GPU_TRACE_WARPS | GPU_TRACE_SLOTS,
        GPU_TRACE_FRAMES | GPU_TRACE_TASKS | GPU_TRACE_ACCESSES | GPU_TRACE_WARPS |
            GPU_TRACE_SLOTS,
        GPU_TRACE_FRAMES | GPU_TRACE_TASKS | GPU_TRACE_ACCESSES | GPU_TRACE_WARPS |
            GPU_TRACE_ISSUE | GPU_TRACE_SLOTS};
    for (unsigned l = REC_SUMMARY; l <= REC_EVENTS; l++) {
        char name[32];
        snprintf(name, sizeof name, "level-%s.db", db_level_name(l));
        fx_t f;
        fx_open(&f, name, l, 0, 0);
        CU_ASSERT_EQUAL(f.mask, masks[l]);
        feed_all(&f);
        rec_counts_t k;
        rec_get_counts(f.rec, &k);
        CU_ASSERT_EQUAL(k.accesses, l >= REC_MEM ? 10u : 0u);
        CU_ASSERT_EQUAL(k.counters, 2u);
        fx_done(&f);
        CU_ASSERT_STRING_EQUAL(row_counts(f.path), want[l]);
        CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT level FROM runs"), db_level_name(l));
    }
    /* the slot profile's rows as slot_profile shows them: the text of the
       word, cycles (SIMT: issued + stalls = 18; MIMD: (0 + 4000 ps) / 1000),
       shares of the run's 22 cycles, the hottest ranked 1 */
    CU_ASSERT_STRING_EQUAL(
        q_text(test_tmp_path("level-tasks.db"),
               "SELECT group_concat(frame || ':' || ifnull(core, '-') || ':' || slot || ' ' ||"
               " text || ' ' || op || ' ' || tasks || ' ' || instructions || ' ' ||"
               " lane_instructions || ' ' || cycles || ' ' || printf('%.4f', share) || ' ' ||"
               " hot_rank || ' ' || ifnull(issued_cycles, '-') || ' ' ||"
               " ifnull(stall_memory_cycles, '-') || ifnull(stall_execute_cycles, '-') ||"
               " ifnull(stall_issue_cycles, '-') || ifnull(stall_fetch_cycles, '-') ||"
               " ifnull(stall_collector_cycles, '-') || ' ' || ifnull(execute_cycles, '-') ||"
               " ' ' || ifnull(sm_wait_cycles, '-'), '; ')"
               " FROM (SELECT * FROM slot_profile ORDER BY core)"),
        "1:-:0 add r1, r2, r3 add 1 3 6 18 0.8182 1 3 12345 - -; "
        "1:3:2 ld [r1, r2], r3 ld 2 5 5 4 0.1818 2 - ----- 0 4");
    
    CU_ASSERT_STRING_EQUAL(q_text(test_tmp_path("level-events.db"),
                                  "SELECT group_concat(ifnull(name, '-') || '@' || time_ps, ' ')"
                                  " FROM (SELECT * FROM events ORDER BY seq)"),
                           "-@0 core.step@10000 core.step@20000");
}

static void bump(sim_t *sim, sim_event_t *ev) { (void)sim, (void)ev; }

/* At REC_EVENTS rec_attach turns the kernel's event log on. */
static void test_event_log_from_sim(void)
{
    fx_t f;
    fx_open(&f, "evlog.db", REC_EVENTS, 0, 0);
    sim_event_t ev;
    sim_event_init(&ev, bump, NULL, 3, "test.bump");
    sim_schedule(f.sim, &ev, 5 * P);
    sim_run(f.sim, SIM_TIME_NEVER, 100);
    fx_done(&f);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT name || '@' || time_ps || '/' || prio || '/'"
                                          " || seq FROM events"), "test.bump@5000/3/0");
}

/* The packed event log (schema version 9) reads back through the events
 * view exactly as the one-row-per-event table had it: 10000 events (three
 * packs of at most 4096), several at one time, names from a dictionary (one
 * NULL, one pointer reused with another text: a new id), every priority, a
 * time that is not a whole cycle (a pack in ps), a jump past 2^24 cycles and
 * a gap in seq (each a new pack). Each event's expected row is computed here
 * from what was fed, independently of the packing. */
static void test_event_packs(void)
{
    enum { N = 10000 };
    static sim_time_t time[N];
    static uint64_t seq[N];
    static uint8_t prio[N];
    static char name[N][16];
    static const char *const names[] = {"core.step", "sm.grant", NULL, "ts.decode"};
    char reused[16]; /* one pointer, two texts */
    fx_t f;
    fx_open(&f, "evpacks.db", REC_EVENTS, 0, 0);
    sim_time_t t = 3 * P;
    uint64_t s = 0;
    int64_t unnamed = 0;
    for (unsigned i = 0; i < N; i++) {
        t += (i % 3 == 0) * P;                    /* three events per cycle */
        if (i == 5000)
            t += ((sim_time_t)1 << 24) * P + P;   /* past the span of a pack */
        s += i == 7000 ? 5 : 1;                   /* a gap in seq */
        sim_time_t at = i == 6000 ? t + 1 : t;    /* not a whole cycle */
        const char *nm = names[i % 4];
        if (i % 97 == 0) {
            snprintf(reused, sizeof reused, i < N / 2 ? "first" : "second");
            nm = reused;
        }
        sim_trace_event_t e = {at, s, nm, (uint8_t)(i * 37)};
        tr(&f, SIM_TRACE_EVENT, &e);
        time[i] = at, seq[i] = s, prio[i] = (uint8_t)(i * 37);
        snprintf(name[i], sizeof name[i], "%s", nm ? nm : "-");
        unnamed += !nm;
    }
    fx_done(&f);
    sqlite3 *db = test_db_open(f.path);
    sqlite3_stmt *st =
        test_db_prepare(db, "SELECT seq, time_ps, prio, ifnull(name, '-'), typeof(seq),"
                            " typeof(time_ps), typeof(prio) FROM events ORDER BY seq");
    unsigned n = 0, bad = 0;
    for (; sqlite3_step(st) == SQLITE_ROW && n < N; n++) {
        bad += (uint64_t)sqlite3_column_int64(st, 0) != seq[n] ||
               (sim_time_t)sqlite3_column_int64(st, 1) != time[n] ||
               sqlite3_column_int(st, 2) != prio[n] ||
               strcmp((const char *)sqlite3_column_text(st, 3), name[n]) != 0 ||
               strcmp((const char *)sqlite3_column_text(st, 4), "integer") != 0 ||
               strcmp((const char *)sqlite3_column_text(st, 5), "integer") != 0 ||
               strcmp((const char *)sqlite3_column_text(st, 6), "integer") != 0;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    CU_ASSERT_EQUAL(n, N);
    CU_ASSERT_EQUAL(bad, 0);
    /* NULL names have no dictionary entry; "first" and "second" one each */
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM events WHERE name IS NULL"), unnamed);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM event_names"), 5);
    /* packs: 0-4095 (full), 4096-4999 (then the jump), 5000-5999 (6000 is not a
     * whole cycle after 5000), 6000 alone in ps (6001 is earlier than it),
     * 6001-6999 (then the gap in seq), 7000-9999 */
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT sum(n) FROM event_packs"), N);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT max(n) FROM event_packs"), 4096);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM event_packs"), 6);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM event_packs WHERE scale_ps = 1"), 1);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM events AS e JOIN event_packs AS p"
                                  " ON e.seq = p.seq0"), 6);
}

/* The end of reading a SIMT pack table back through its view (st on db):
 * n rows read, `bad` of them unlike what was fed, of `want`; the packs hold
 * them all, one pack is in picoseconds and the largest holds max_n. */
static void simt_read_back(sqlite3_stmt *st, sqlite3 *db, const fx_t *f, const char *packs,
                           unsigned n, unsigned bad, unsigned want, long long max_n)
{
    sqlite3_finalize(st);
    sqlite3_close(db);
    CU_ASSERT_EQUAL(n, want);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(q_int(f->path, "SELECT sum(n) FROM %s", packs), want);
    CU_ASSERT_EQUAL(q_int(f->path, "SELECT count(*) FROM %s WHERE scale_ps = 1", packs), 1);
    CU_ASSERT_EQUAL(q_int(f->path, "SELECT max(n) FROM %s", packs), max_n);
}

/* The packed SIMT issue port (schema version 10) reads back through the
 * simt_issue view exactly as fed: 5000 issues, a time that is not a whole
 * cycle (a pack in ps), then masks and active lanes that vary widely with
 * times far apart (radices past 62 bits: new packs), and every mnemonic,
 * including one the ISA does not have. */
static void test_simt_issue_packs(void)
{
    enum { N = 5000 };
    static gpu_tr_simt_issue_t in[N];
    fx_t f;
    fx_open(&f, "sipacks.db", REC_EVENTS, 0, 0);
    sim_time_t t = 2 * P;
    for (unsigned i = 0; i < N; i++) {
        t += (i % 2) * P + (i >= 4200) * 5000 * P; /* then far apart: t needs 22 bits */
        gpu_tr_simt_issue_t x = {
            .time_ps = i == 3000 ? t + 7 : t, .frame = (uint8_t)(3 + i % 5),
            .slot = (uint8_t)(i % 16), .op = (uint8_t)(i % 17), .order = (uint8_t)((i + 1) % 2),
            .depth = (uint8_t)(1 + i % 3), .eligible = (uint8_t)(i % 6),
            .active = (uint16_t)(i >= 4200 ? i * 2654435761u : 0xffff),
            .mask = (uint16_t)(i >= 4200 ? i * 40503u | i * 2654435761u : 0xffff)};
        in[i] = x;
        tr(&f, GPU_TR_SIMT_ISSUE, &x);
    }
    fx_done(&f);
    sqlite3 *db = test_db_open(f.path);
    sqlite3_stmt *st =
        test_db_prepare(db, "SELECT time_ps, frame, slot, op, ord, depth, eligible, active,"
                            " mask, lanes FROM simt_issue ORDER BY time_ps, ord, frame, slot");
    unsigned n = 0, bad = 0;
    for (; sqlite3_step(st) == SQLITE_ROW && n < N; n++) {
        const gpu_tr_simt_issue_t *x = &in[n];
        const char *op = (const char *)sqlite3_column_text(st, 3);
        bad += (sim_time_t)sqlite3_column_int64(st, 0) != x->time_ps ||
               sqlite3_column_int(st, 1) != x->frame || sqlite3_column_int(st, 2) != x->slot ||
               !op || strcmp(op, isa_mnemonic((isa_op_t)x->op)) != 0 ||
               sqlite3_column_int(st, 4) != x->order || sqlite3_column_int(st, 5) != x->depth ||
               sqlite3_column_int(st, 6) != x->eligible ||
               sqlite3_column_int(st, 7) != x->active || sqlite3_column_int(st, 8) != x->mask ||
               sqlite3_column_int(st, 9) != __builtin_popcount(x->active);
    }
    /* 0-2999 (the odd time ends it), 3000 on in ps, then several packs of
     * the varied masks */
    simt_read_back(st, db, &f, "simt_issue_packs", n, bad, N, 3000);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM simt_op_names"), 17);
    CU_ASSERT(q_int(f.path, "SELECT count(*) FROM simt_issue_packs") > 5);
}

/* The packed SIMT ld/st (schema version 11) read back through the simt_mem
 * view exactly as fed: 5000 ld/st recorded in completion order (each pair
 * in the reverse of issue order: a pack's base is its earliest issue, not
 * its first), a latency that is not a whole cycle (a pack in ps), then lane
 * masks that vary widely with issues far apart (radices past 62 bits and
 * spans past 2^24 cycles: new packs). */
static sim_time_t mem_issue(unsigned i)
{
    return 3 * P + i * P + (i >= 4200) * (i - 4199) * 5000 * P;
}

static void test_simt_mem_packs(void)
{
    enum { N = 5000 };
    static gpu_tr_simt_mem_t in[N];
    fx_t f;
    fx_open(&f, "smpacks.db", REC_MEM, 0, 0);
    for (unsigned i = 0; i < N; i++) {
        sim_time_t issue = mem_issue(i ^ 1);
        gpu_tr_simt_mem_t x = {
            .frame = (uint8_t)(2 + i % 7), .slot = (uint8_t)(i % 16), .is_store = i % 3 == 0,
            .requests = (uint8_t)(1 + i % 16), .replays = (uint8_t)(i % 4),
            .banks = (uint8_t)(1 + i % 5),
            .lanes = (uint16_t)(i >= 4200 ? i * 2654435761u : 0xffffu >> (i % 9)),
            .issue_ps = issue, .done_ps = issue + (2 + i % 11) * P + (i == 2500) * 3};
        in[i] = x;
        tr(&f, GPU_TR_SIMT_MEM, &x);
    }
    fx_done(&f);
    unsigned n = 0, bad = 0;
    sqlite3 *db = test_db_open(f.path);
    sqlite3_stmt *st =
        test_db_prepare(db, "SELECT * FROM simt_mem ORDER BY issue_ps"); /* as DB_SIMT_MEM */
    while (n < N && sqlite3_step(st) == SQLITE_ROW) {
        const gpu_tr_simt_mem_t *x = &in[n++ ^ 1]; /* issue order */
        const long long want[] = {1, x->frame, x->slot, 0, x->lanes,
                                  __builtin_popcount(x->lanes), x->requests, x->replays,
                                  x->banks, (long long)x->issue_ps, (long long)x->done_ps};
        const char *op = (const char *)sqlite3_column_text(st, 3);
        bad += !op || strcmp(op, x->is_store ? "st" : "ld") != 0;
        for (int c = 1; c < 11; c++) /* run_id and op aside */
            bad += c != 3 && sqlite3_column_int64(st, c) != want[c];
    }
    /* 0-2499 (the odd latency ends it), 2500 on in ps (until the issues
     * span 2^24 ps), then several packs of the varied lanes */
    simt_read_back(st, db, &f, "simt_mem_packs", n, bad, N, 2500);
    CU_ASSERT(q_int(f.path, "SELECT count(*) FROM simt_mem_packs") > 3);
    /* the first pack's base is its earliest issue: record 1's */
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT base_ps FROM simt_mem_packs ORDER BY rowid LIMIT 1"),
                    (long long)mem_issue(0));
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM simt_replays"), 8);
}

static void test_window(void)
{
    fx_t f;
    fx_open(&f, "window.db", REC_EVENTS, 10 * P, 20 * P);
    /* accesses: before, ending at from, inside, starting at to, spanning */
    sim_time_t req[] = {2 * P, 7 * P, 12 * P, 20 * P, 8 * P};
    for (unsigned i = 0; i < 5; i++) {
        gpu_tr_access_t a = mk_access(1, i, req[i], 3 * i); /* lasts 3 cycles */
        if (i == 4)
            a.done_ps = 25 * P;
        tr_access(&f, &a);
    }
    tr_task(&f, 1, 0, 0, 9 * P);       /* before: dropped */
    tr_task(&f, 1, 1, 0, 25 * P);      /* spans: kept */
    tr_task(&f, 1, 2, 20 * P, 30 * P); /* after: dropped */
    gpu_tr_core_task_t open_ended = {.frame = 2, .core = 3, .start_ps = 15 * P,
                                     .finish_ps = SIM_TIME_NEVER, .ready_ps = SIM_TIME_NEVER};
    tr(&f, GPU_TR_CORE_TASK, &open_ended); /* partial, started inside: kept */
    for (unsigned i = 0; i < 4; i++) {
        sim_trace_event_t e = {(5 + 5 * i) * P, i, "e", 0}; /* 5, 10, 15, 20 cycles */
        tr(&f, SIM_TRACE_EVENT, &e);
    }
    gpu_tr_counter_t k = {"gpu", "frames", 2};
    tr(&f, GPU_TR_COUNTER, &k);
    fx_done(&f);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(core, ',') FROM "
                                          "(SELECT core FROM sm_accesses ORDER BY core)"),
                           "2,4");
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(core, ',') FROM "
                                          "(SELECT core FROM core_tasks ORDER BY core)"),
                           "1,3");
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(time_ps, ',') FROM "
                                          "(SELECT time_ps FROM events ORDER BY seq)"),
                           "10000,15000");
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM counters"), 1);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT from_ps FROM runs"), 10 * P);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT to_ps FROM runs"), 20 * P);
}

/* --- files ------------------------------------------------------------------------------ */

static void test_two_runs_and_reopen_append(void)
{
    fx_t f;
    fx_open(&f, "append.db", REC_MEM, 0, 0);
    feed_all(&f);
    CU_ASSERT_EQUAL(fx_end(&f, "ok", NULL), TESS_OK);
    diag_t d = {0};
    int64_t run2 = 0;
    CU_ASSERT_EQUAL(rec_begin_run(f.rec, &info, &run2, &d), TESS_OK);
    CU_ASSERT_EQUAL(run2, 2);
    feed_all(&f);
    fx_done(&f);
    rec_t *rec = open_at(f.path, REC_MEM, 0, 0); /* reopening appends */
    int64_t run3 = 0;
    CU_ASSERT_EQUAL(rec_begin_run(rec, &info, &run3, &d), TESS_OK);
    CU_ASSERT_EQUAL(run3, 3);
    rec_run_end_t e = {.status = "ok", .end_ps = 5};
    CU_ASSERT_EQUAL(rec_end_run(rec, &e, &d), TESS_OK);
    rec_close(rec);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM runs"), 3);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT group_concat(run_id || ':' || n, ' ') FROM "
                                          "(SELECT run_id, count(*) AS n FROM sm_accesses "
                                          "GROUP BY run_id)"), "1:10 2:10");
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM params"), 6);
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' "
                                  "AND name = 'sm_access_packs_run'"), 1);
}

static void check_refused(const char *path, const void *bytes, size_t len)
{
    diag_t d = {0};
    rec_t *rec = rec_open(path, NULL, &d);
    CU_ASSERT_PTR_NULL(rec);
    rec_close(rec);
    CU_ASSERT_EQUAL(d.code, TESS_EDB);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, path));
    size_t n = 0;
    uint8_t *now = test_read_file(path, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(now);
    CU_ASSERT_EQUAL(n, len);
    CU_ASSERT_EQUAL(memcmp(now, bytes, len), 0);
    free(now);
    char wal[1100];
    snprintf(wal, sizeof wal, "%s-wal", path);
    CU_ASSERT_NOT_EQUAL(access(wal, F_OK), 0);
}

static void test_foreign_file_refused(void)
{
    const char *path = test_tmp_path("notes.txt");
    char text[5000];
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = (char)('a' + i % 26);
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, text, sizeof text), 0);
    check_refused(path, text, sizeof text);
    /* a SQLite database that is not Tessera's */
    const char *db_path = test_tmp_path("foreign.db");
    sqlite3 *db = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db_path, &db), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_exec(db, "CREATE TABLE runs(x); INSERT INTO runs VALUES(1)", NULL,
                                 NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    size_t len = 0;
    uint8_t *before = test_read_file(db_path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    check_refused(db_path, before, len);
    free(before);
}

/* A Tessera database of a newer schema version is refused untouched; an
 * empty file is a new database. */
static void test_newer_schema_and_empty_file(void)
{
    const char *path = test_tmp_path("newer.db");
    sqlite3 *db = NULL;
    char sql[128];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d;"
             "CREATE TABLE runs(x);", DB_APP_ID, DB_SCHEMA_VERSION + 1);
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    size_t len = 0;
    uint8_t *before = test_read_file(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    check_refused(path, before, len);
    free(before);
    const char *empty = test_tmp_path("empty.db");
    CU_ASSERT_EQUAL_FATAL(test_write_file(empty, "", 0), 0);
    rec_t *rec = open_at(empty, REC_SUMMARY, 0, 0);
    rec_close(rec);
    CU_ASSERT_EQUAL(q_int(empty, "PRAGMA application_id"), DB_APP_ID);
    CU_ASSERT_EQUAL(q_int(empty, "SELECT count(*) FROM sqlite_master WHERE name = 'runs'"), 1);
}

static void test_unwritable_path(void)
{
    const char *path = "/nonexistent-tessera-dir/sub/stats.db";
    diag_t d = {0};
    rec_t *rec = rec_open(path, NULL, &d);
    CU_ASSERT_PTR_NULL(rec);
    CU_ASSERT(d.code == TESS_EIO || d.code == TESS_EDB);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, path));
    diag_t d2 = {0};
    rec = rec_open(test_tmp_dir(), NULL, &d2); /* a directory */
    CU_ASSERT_PTR_NULL(rec);
    CU_ASSERT(d2.code == TESS_EIO || d2.code == TESS_EDB);
    CU_ASSERT_PTR_NOT_NULL(strstr(d2.msg, test_tmp_dir()));
}

static void test_bad_options(void)
{
    diag_t d = {0};
    rec_opts_t o = {.level = 9};
    CU_ASSERT_PTR_NULL(rec_open(test_tmp_path("bad.db"), &o, &d));
    CU_ASSERT_EQUAL(d.code, TESS_EINPUT);
    diag_t d2 = {0};
    rec_opts_t w = {.level = REC_MEM, .from_ps = 10, .to_ps = 10};
    CU_ASSERT_PTR_NULL(rec_open(test_tmp_path("bad.db"), &w, &d2));
    CU_ASSERT_EQUAL(d2.code, TESS_EINPUT);
    CU_ASSERT_STRING_EQUAL(db_level_name(REC_MEM), "mem");
    CU_ASSERT_STRING_EQUAL(db_level_name(42), "unknown");
    CU_ASSERT_EQUAL(db_level_from_name("events"), REC_EVENTS);
    CU_ASSERT_EQUAL(db_level_from_name("all"), -1);
    CU_ASSERT_EQUAL(db_level_from_name(NULL), -1);
}

/* A writer that fails (the file may not grow): the hook keeps accepting
 * records, rec_end_run reports TESS_EDB and the run is marked 'error'. */
static void test_writer_failure(void)
{
    fx_t f;
    f.path = test_tmp_path("full.db");
    unlink(f.path);
    f.rec = open_at(f.path, REC_MEM, 0, 0);
    int64_t pages = q_int(f.path, "PRAGMA page_count");
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", (long long)pages + 4);
    CU_ASSERT_EQUAL(sqlite3_exec(f.rec->db, sql, NULL, NULL, NULL), SQLITE_OK);
    diag_t d = {0};
    CU_ASSERT_EQUAL_FATAL(rec_begin_run(f.rec, &info, &f.run, &d), TESS_OK);
    f.sim = sim_create();
    rec_attach(f.rec, f.sim);
    for (unsigned i = 0; i < 400000; i++) {
        gpu_tr_access_t a = mk_access(i / 4096 % 64, i % 16, (sim_time_t)i * 9 * P, i % SM_BYTES);
        tr_access(&f, &a);
    }
    rec_run_end_t e = {.status = "ok"};
    CU_ASSERT_EQUAL(rec_end_run(f.rec, &e, &d), TESS_EDB);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, f.path));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "full"));
    fx_close(&f);
    CU_ASSERT_STRING_EQUAL(q_text(f.path, "SELECT status FROM runs"), "error");
    CU_ASSERT_EQUAL(q_int(f.path, "SELECT error LIKE 'recording incomplete: %%full%%' FROM runs"),
                    1);
}

/* A process killed during a run leaves it 'running' and every committed row,
 * earlier runs included, intact. */
static void killed_child(const char *path)
{
    diag_t d = {0};
    rec_opts_t o = {.level = REC_MEM};
    fx_t f = {.path = path, .rec = rec_open(path, &o, &d), .sim = sim_create()};
    if (!f.rec || !f.sim || rec_begin_run(f.rec, &info, &f.run, &d) != TESS_OK)
        _exit(1);
    rec_attach(f.rec, f.sim);
    feed_all(&f);
    rec_run_end_t e = {.status = "ok"};
    if (rec_end_run(f.rec, &e, &d) != TESS_OK || rec_begin_run(f.rec, &info, &f.run, &d))
        _exit(1);
    for (unsigned i = 0; i < 2000000; i++) {
        gpu_tr_access_t a = mk_access(i / 4096 % 64, i % 16, (sim_time_t)i * P, i % 4096);
        tr_access(&f, &a);
    }
    raise(SIGKILL);
    _exit(1);
}

static void test_killed_run(void)
{
    const char *path = test_tmp_path("killed.db");
    unlink(path);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        killed_child(path);
    int st = 0;
    CU_ASSERT_EQUAL_FATAL(waitpid(pid, &st, 0), pid);
    CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    CU_ASSERT_STRING_EQUAL(q_text(path, "PRAGMA integrity_check"), "ok");
    CU_ASSERT_STRING_EQUAL(q_text(path, "SELECT group_concat(status, ',') FROM runs"),
                           "ok,running");
    CU_ASSERT_EQUAL(q_int(path, "SELECT count(*) FROM sm_accesses WHERE run_id = 1"), 10);
    CU_ASSERT(q_int(path, "SELECT count(*) FROM sm_access_packs WHERE run_id = 2") > 0);
    /* a later recorder appends after the killed run */
    rec_t *rec = open_at(path, REC_SUMMARY, 0, 0);
    int64_t run = 0;
    diag_t d = {0};
    CU_ASSERT_EQUAL(rec_begin_run(rec, &info, &run, &d), TESS_OK);
    CU_ASSERT_EQUAL(run, 3);
    rec_close(rec);
}

/* --- docs/SCHEMA.md ------------------------------------------------------------------------ */

/* Runs every statement of one ```sql block; returns the number that failed. */
static int run_block(sqlite3 *db, const char *sql, int line)
{
    int failed = 0;
    while (sql && *sql) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK) {
            fprintf(stderr, "docs/SCHEMA.md:%d: %s\n", line, sqlite3_errmsg(db));
            return failed + 1;
        }
        int rc = SQLITE_ROW;
        while (st && (rc = sqlite3_step(st)) == SQLITE_ROW)
            ;
        if (st && rc != SQLITE_DONE) {
            fprintf(stderr, "docs/SCHEMA.md:%d: %s\n", line, sqlite3_errmsg(db));
            failed++;
        }
        sqlite3_finalize(st);
        sql = tail;
    }
    return failed;
}

static void test_schema_doc_queries(void)
{
    fx_t f;
    fx_open(&f, "doc.db", REC_EVENTS, 0, 0);
    feed_all(&f);
    fx_done(&f);
    char *doc = (char *)test_read_file(test_src_path("docs/SCHEMA.md"), NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    sqlite3 *db = test_db_open(f.path);
    int blocks = 0, failed = 0, line = 1;
    for (char *p = doc; (p = strstr(p, "```sql\n")) != NULL;) {
        char *body = p + 7, *end = strstr(body, "```");
        CU_ASSERT_PTR_NOT_NULL_FATAL(end);
        *end = 0;
        line = 1;
        for (char *c = doc; c < body; c++)
            line += *c == '\n';
        failed += run_block(db, body, line);
        blocks++;
        p = end + 3;
    }
    sqlite3_close(db);
    free(doc);
    CU_ASSERT(blocks >= 6);
    CU_ASSERT_EQUAL(failed, 0);
}

/* --- the packer's arithmetic ---------------------------------------------- */

/* The digit writer (eight digits at a time) against printf: the edges of
 * every digit count and a pseudo-random sweep of every magnitude. */
static void test_put_u64_matches_printf(void)
{
    char got[40], want[40];
    uint64_t x = UINT64_C(88172645463325252), bad = 0;
    for (unsigned i = 0; i < 2000000; i++) {
        uint64_t v;
        if (i < 64 * 3) { /* 10^k - 1, 10^k, 10^k + 1 and their neighbours in 2^k */
            uint64_t p = 1;
            for (unsigned k = 0; k < i / 3 % 20; k++)
                p *= 10;
            v = i < 60 ? p - 1 + i % 3 : (UINT64_C(1) << (i / 3 % 64)) - 1 + i % 3;
        } else {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v = x >> (x % 64);
        }
        char buf[40];
        memset(buf, 'x', sizeof buf);
        char *end = rec_put_u64(buf, v);
        memcpy(got, buf, (size_t)(end - buf));
        got[end - buf] = 0;
        snprintf(want, sizeof want, "%llu", (unsigned long long)v);
        bad += strcmp(got, want) != 0;
    }
    char *end = rec_put_u64(got, UINT64_MAX);
    *end = 0;
    CU_ASSERT_STRING_EQUAL(got, "18446744073709551615");
    CU_ASSERT_EQUAL(bad, 0);
}

/* The packer's exact division: rec_div_rotated is at most max_d exactly for
 * the multiples of the divisor, and then their quotient; rec_div_exact the
 * same for one value. */
static void test_div_rotated_exact(void)
{
    static const uint64_t divisors[] = {1, 2, 3, 625, 1000, 1024, 999, 4096000,
                                        1000000007, UINT64_C(3) << 40, UINT64_C(1) << 63};
    uint64_t x = 1234567, bad = 0;
    for (size_t k = 0; k < sizeof divisors / sizeof divisors[0]; k++) {
        uint64_t p = divisors[k];
        rec_div_t d;
        rec_div_init(&d, p);
        for (unsigned i = 0; i < 200000; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint64_t v = i % 3 == 0 ? x : i % 3 == 1 ? (x % 100000) * p : (x % 100000) * p + x % p;
            uint64_t q = rec_div_rotated(&d, v), q1 = 0;
            bool multiple = v % p == 0, exact = rec_div_exact(&d, v, &q1);
            bad += (q <= d.max_d) != multiple || (multiple && q != v / p);
            bad += exact != multiple || (multiple && q1 != v / p);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
}

int main(void)
{
    static const test_case_t sha[] = {
        TEST(test_sha256_vectors), TEST(test_sha256_million_a_incremental), TEST_END};
    static const test_case_t tables[] = {
        TEST(test_runs_row),           TEST(test_params),
        TEST(test_status_transitions), TEST(test_frames),
        TEST(test_stalls),             TEST(test_core_tasks),
        TEST(test_accesses_roundtrip), TEST(test_access_sink), TEST(test_checkpointer),
        TEST(test_pack_split_count),
        TEST(test_pack_split_span),    TEST(test_pack_varying_latency),
        TEST(test_pack_radix_overflow), TEST(test_pack_huge_interval),
        TEST(test_pack_bank_maps),     TEST(test_levels),
        TEST(test_event_log_from_sim), TEST(test_window),
        TEST(test_event_packs),        TEST(test_simt_issue_packs),
        TEST(test_simt_mem_packs),
        TEST_END};
    static const test_case_t files[] = {
        TEST(test_two_runs_and_reopen_append), TEST(test_foreign_file_refused),
        TEST(test_newer_schema_and_empty_file), TEST(test_unwritable_path),
        TEST(test_bad_options),                TEST(test_writer_failure),
        TEST(test_killed_run),                 TEST(test_schema_doc_queries),
        TEST_END};
    static const test_case_t arith[] = {
        TEST(test_put_u64_matches_printf), TEST(test_div_rotated_exact), TEST_END};
    static const test_suite_t suites[] = {{"sha256", sha},     {"rec_arith", arith},
                                          {"rec_tables", tables}, {"rec_files", files},
                                          {NULL, NULL}};
    return test_run_suites(suites);
}

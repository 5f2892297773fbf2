/* test_packs.c — the three packed relations (store/pack.h, evpack.h,
 * sipack.h) read the same through every reader: random records fed to the
 * recorder (its packers encode them), then decoded by the SQL views
 * (sm_accesses, events, simt_issue, simt_mem) and by the C decoders (the
 * access stream of present/run_acc.c; sipack.h's sipack_field/sipack_t that
 * the viewer's vw_simt.c decodes with; the events' digits taken by
 * EVPACK_DIGITS in C), each compared with what was fed. A layout changed in
 * one reader and not another fails here. Seeded, so every run is the same. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/present/run.h"
#include "analysis/recorder/rec.h"
#include "analysis/store/evpack.h"
#include "analysis/store/sipack.h"
#include "events/base/err.h"
#include "model/gpu_trace.h"
#include "model/isa.h"
#include "tests/testutil.h"

#define P 1000 /* the clock period of the test runs */

static uint64_t rng_state; /* the records' draws, seeded by fx_open */

static uint64_t rnd(void) { return test_rand(&rng_state); }

static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }

/* --- a recorded run of hand-fed records ------------------------------------------------ */

typedef struct fx {
    rec_t *rec;
    sim_t *sim;
    const char *path;
} fx_t;

static uint8_t tm_image[TM_BYTES], sm_image[SM_BYTES];

/* Opens a recorder at level `level` on a fresh file `name` for a run of
 * `banks` banks, and seeds the records' draws with `seed`. */
static void fx_open(fx_t *f, const char *name, unsigned level, unsigned banks, uint64_t seed)
{
    rng_state = seed;
    static char nb[8];
    snprintf(nb, sizeof nb, "%u", banks);
    static const char *keys[] = {"clock.period_ps", "sm.banks"};
    const char *values[] = {"1000", nb};
    rec_run_info_t info = {.program = "t.s", .tm_image = tm_image, .sm_image = sm_image,
                           .config = "[clock]\nperiod_ps = 1000\n", .param_keys = keys,
                           .param_values = values, .n_params = 2, .period_ps = P,
                           .banks = banks};
    f->path = test_tmp_path(name);
    unlink(f->path);
    diag_t d = {0};
    rec_opts_t o = {.level = (uint8_t)level};
    f->rec = rec_open(f->path, &o, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->rec);
    int64_t run;
    CU_ASSERT_EQUAL_FATAL(rec_begin_run(f->rec, &info, &run, &d), TESS_OK);
    f->sim = sim_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->sim);
    rec_attach(f->rec, f->sim);
}

static void fx_done(fx_t *f)
{
    diag_t d = {0};
    rec_run_end_t e = {.status = "ok", .end_ps = 1, .events = 1};
    CU_ASSERT_EQUAL(rec_end_run(f->rec, &e, &d), TESS_OK);
    rec_close(f->rec);
    sim_destroy(f->sim);
}


/* --- SM accesses ------------------------------------------------------------------------ */

enum { TASKS = 48, ACC_MAX = 300 };

/* One core task's accesses, in the order of their index. The banks follow
 * the address's high bits, its low bits, or neither (the bank a digit of
 * its own); the times are whole cycles with latencies in a narrow or a
 * wide range, or now and then an odd picosecond (a pack in ps). */
static unsigned make_task(gpu_tr_access_t *a, unsigned frame, unsigned core, unsigned banks,
                          sim_time_t *t)
{
    unsigned n = 1 + (unsigned)below(ACC_MAX), map = (unsigned)below(3);
    unsigned lb = (unsigned)__builtin_ctz(banks);
    uint64_t wide = below(2) ? 3 : 4000;
    for (unsigned i = 0; i < n; i++) {
        unsigned addr = (unsigned)below(4096);
        unsigned bank = map == 0 ? addr >> (12 - lb) : map == 1 ? addr & (banks - 1)
                                                                : (unsigned)below(banks);
        *t += P * below(4) + (below(50) == 0 ? 1 + below(P - 1) : 0);
        sim_time_t arr = *t + P * below(wide), gr = arr + P * below(wide);
        a[i] = (gpu_tr_access_t){.frame = (uint8_t)frame, .core = (uint8_t)core,
                                 .is_store = (uint8_t)below(2), .sync = (uint8_t)below(2),
                                 .bank = (uint8_t)bank, .value = (uint8_t)below(256),
                                 .addr = (uint16_t)addr, .request_ps = *t, .arrive_ps = arr,
                                 .grant_ps = gr, .done_ps = gr + P * (1 + below(wide))};
    }
    return n;
}

/* The fields of access a in the order the readers below give them. */
static void fields_of(const gpu_tr_access_t *a, unsigned idx, int64_t v[12])
{
    int64_t w[12] = {a->frame, a->core, idx, a->is_store, a->sync, a->addr, a->bank, a->value,
                     (int64_t)a->request_ps, (int64_t)a->arrive_ps, (int64_t)a->grant_ps,
                     (int64_t)a->done_ps};
    memcpy(v, w, sizeof w);
}

static void accesses_agree(unsigned banks, uint64_t seed)
{
    static gpu_tr_access_t in[TASKS][ACC_MAX];
    static unsigned n[TASKS];
    fx_t f;
    char name[32];
    snprintf(name, sizeof name, "acc%u.db", banks);
    fx_open(&f, name, REC_MEM, banks, seed);
    sim_time_t t = 5 * P;
    unsigned total = 0;
    for (unsigned k = 0; k < TASKS; k++) { /* frame k / 16 of core k % 16 */
        n[k] = make_task(in[k], k / 16, k % 16, banks, &t);
        for (unsigned i = 0; i < n[k]; i++)
            sim_trace(f.sim, GPU_TR_ACCESS, &in[k][i]);
        total += n[k];
    }
    fx_done(&f);

    /* the view, in (frame, core, idx) order: task k is frame k / 16, core k % 16 */
    sqlite3 *db = test_db_open(f.path);
    sqlite3_stmt *st =
        test_db_prepare(db, "SELECT frame, core, idx, op = 'st', sync, addr, bank, value,"
                            " request_ps, arrive_ps, grant_ps, done_ps FROM sm_accesses"
                            " ORDER BY frame, core, idx");
    diag_t d = {0};
    tl_run_t *run = tl_run_open(f.path, 0, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(run);
    exp_acc_filter_t flt = {.frame = -1, .core = -1};
    exp_acc_iter_t *it = exp_acc_begin(run, &flt, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(it);
    unsigned rows = 0, bad_view = 0, bad_c = 0;
    for (unsigned k = 0; k < TASKS; k++)
        for (unsigned i = 0; i < n[k]; i++, rows++) {
            int64_t want[12], view[12], c[12];
            fields_of(&in[k][i], i, want);
            CU_ASSERT_EQUAL_FATAL(sqlite3_step(st), SQLITE_ROW);
            for (int j = 0; j < 12; j++)
                view[j] = sqlite3_column_int64(st, j);
            exp_access_t a;
            CU_ASSERT_EQUAL_FATAL(exp_acc_next(it, &a, &d), 1);
            int64_t got[12] = {a.frame, a.core, a.idx, a.store, a.sync, a.addr, a.bank,
                               a.value, a.request, a.arrive, a.grant, a.done};
            memcpy(c, got, sizeof c);
            bad_view += memcmp(view, want, sizeof want) != 0;
            bad_c += memcmp(c, want, sizeof want) != 0;
        }
    CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_DONE);
    exp_access_t a;
    CU_ASSERT_EQUAL(exp_acc_next(it, &a, &d), 0);
    CU_ASSERT_EQUAL(rows, total);
    CU_ASSERT_EQUAL(bad_view, 0);
    CU_ASSERT_EQUAL(bad_c, 0);
    exp_acc_end(it);
    tl_run_close(run);
    sqlite3_finalize(st);
    /* every kind of pack was made: with the bank a digit and without, in
       cycles and in picoseconds, with wide radices */
    st = test_db_prepare(db, "SELECT count(*) FILTER (WHERE bank_shift IS NULL),"
                   " count(*) FILTER (WHERE bank_shift IS NOT NULL),"
                   " count(*) FILTER (WHERE scale_ps = 1), max(done_n) FROM sm_access_packs");
    CU_ASSERT_EQUAL_FATAL(sqlite3_step(st), SQLITE_ROW);
    CU_ASSERT(sqlite3_column_int(st, 0) > 0);
    CU_ASSERT(sqlite3_column_int(st, 1) > 0);
    CU_ASSERT(sqlite3_column_int(st, 2) > 0);
    CU_ASSERT(sqlite3_column_int(st, 3) > 1000);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

static void test_accesses_agree(void)
{
    accesses_agree(16, 1);
    accesses_agree(4, 2);
    accesses_agree(64, 3);
}

/* --- the event log ---------------------------------------------------------------------- */

/* An event's digits taken in C as EVPACK_DIGITS says (the least significant
 * first), over a pack row's columns. */
typedef struct ev_row {
    int64_t base_ps, scale_ps, prio0, prio_n, names_n;
} ev_row_t;
#define EV_COL(A, c) (A)->c
#define EV_DIGIT(A, digit, radix, offset, place)                                 \
    const int64_t d_##digit = (int64_t)(offset) + (int64_t)(q % (uint64_t)(radix));  \
    q /= (uint64_t)(radix);

static void ev_decode(const ev_row_t *r, uint64_t q, int64_t *time, int64_t *prio, int64_t *id)
{
    EVPACK_DIGITS(EV_DIGIT, EV_COL, r)
    *time = r->base_ps + r->scale_ps * (int64_t)q;
    *prio = d_prio;
    *id = d_name_id;
}

static void test_events_agree(void)
{
    enum { N = 20000 };
    static sim_time_t time[N];
    static uint8_t prio[N];
    static const char *name[N];
    static const char *const names[] = {NULL, "a", "bb", "ccc", "dddd", "e", "f", "g"};
    fx_t f;
    fx_open(&f, "ev.db", REC_EVENTS, 16, 4);
    sim_time_t t = P;
    for (unsigned i = 0; i < N; i++) {
        t += P * below(3) + (below(500) == 0) + (below(3000) == 0) * ((sim_time_t)1 << 25) * P;
        time[i] = t, prio[i] = (uint8_t)below(below(2) ? 4 : 256);
        name[i] = names[below(8)];
        sim_trace_event_t e = {t, i, name[i], prio[i]};
        sim_trace(f.sim, SIM_TRACE_EVENT, &e);
    }
    fx_done(&f);
    sqlite3 *db = test_db_open(f.path);
    /* the view */
    sqlite3_stmt *st =
        test_db_prepare(db, "SELECT seq, time_ps, prio, name FROM events ORDER BY seq");
    unsigned n = 0, bad = 0;
    for (; sqlite3_step(st) == SQLITE_ROW && n < N; n++) {
        const char *nm = (const char *)sqlite3_column_text(st, 3);
        bad += sqlite3_column_int64(st, 0) != n ||
               (sim_time_t)sqlite3_column_int64(st, 1) != time[n] ||
               sqlite3_column_int(st, 2) != prio[n] || (!nm) != (!name[n]) ||
               (nm && strcmp(nm, name[n]) != 0);
    }
    sqlite3_finalize(st);
    CU_ASSERT_EQUAL(n, N);
    CU_ASSERT_EQUAL(bad, 0);
    /* the digits in C, from each pack row */
    st = test_db_prepare(db, "SELECT p.seq0 + j.key, p.base_ps, p.scale_ps, p.prio0, p.prio_n,"
                             " p.names_n, j.value FROM event_packs AS p"
                             " JOIN json_each(p.data) AS j ORDER BY 1");
    sqlite3_stmt *nm_st = test_db_prepare(db, "SELECT name FROM event_names WHERE id = ?1");
    n = 0, bad = 0;
    for (; sqlite3_step(st) == SQLITE_ROW && n < N; n++) {
        ev_row_t r = {sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
                      sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4),
                      sqlite3_column_int64(st, 5)};
        int64_t tm, pr, id;
        ev_decode(&r, (uint64_t)sqlite3_column_int64(st, 6), &tm, &pr, &id);
        sqlite3_bind_int64(nm_st, 1, id);
        const char *nm = sqlite3_step(nm_st) == SQLITE_ROW
                             ? (const char *)sqlite3_column_text(nm_st, 0) : NULL;
        bad += sqlite3_column_int64(st, 0) != n || (sim_time_t)tm != time[n] ||
               pr != prio[n] || (!nm) != (!name[n]) || (nm && strcmp(nm, name[n]) != 0);
        sqlite3_reset(nm_st);
    }
    sqlite3_finalize(nm_st);
    sqlite3_finalize(st);
    CU_ASSERT_EQUAL(n, N);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(test_db_int(f.path, "SELECT count(*) FROM event_packs WHERE scale_ps = 1") > 0);
    CU_ASSERT(test_db_int(f.path, "SELECT count(*) FROM event_packs") > 5);
    sqlite3_close(db);
}

/* --- the SIMT packs --------------------------------------------------------------------- */

enum { SIMT_N = 6000, SIMT_COLS = 1 + SIPACK_FIELDS_MAX };

/* Every entry of a SIMT pack table decoded in C by sipack.h (as the
 * viewer's vw_simt.c decodes), in recorded order: v[n][0] its time, then
 * its fields in the table's order, field `duration` (or none: -1) in ps. */
static unsigned simt_c_decode(sqlite3 *db, const char *table, unsigned fields, int duration,
                              int64_t (*v)[SIMT_COLS])
{
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY rowid", table);
    sqlite3_stmt *st = test_db_prepare(db, sql);
    /* columns: run_id, n, base_ps, scale_ps, t_unit, (f0, f_n, f_unit) * fields, data */
    unsigned n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int64_t base = sqlite3_column_int64(st, 2), scale = sqlite3_column_int64(st, 3);
        uint64_t t_unit = (uint64_t)sqlite3_column_int64(st, 4);
        const char *p = (const char *)sqlite3_column_text(st, 5 + 3 * (int)fields);
        while (p && *p && n < SIMT_N) {
            if (*p < '0' || *p > '9') {
                p++;
                continue;
            }
            char *end;
            uint64_t q = strtoull(p, &end, 10);
            p = end;
            v[n][0] = base + scale * (int64_t)sipack_t(q, t_unit);
            for (unsigned k = 0; k < fields; k++) {
                int c = 5 + 3 * (int)k;
                v[n][1 + k] = sipack_field(q, sqlite3_column_int64(st, c),
                                           (uint64_t)sqlite3_column_int64(st, c + 1),
                                           (uint64_t)sqlite3_column_int64(st, c + 2));
            }
            if (duration >= 0)
                v[n][1 + duration] *= scale;
            n++;
        }
    }
    sqlite3_finalize(st);
    return n;
}

/* The views' columns, by sipack.h's lists: each field as its value (an
 * issue's op the id of its mnemonic, a ld/st's 1 for st, its latency in
 * ps). */
#define V_COL(A, f, show) ", " V_##show(f)
#define V_PLAIN(f) #f
#define V_OPNAME(f) "(SELECT o.id FROM simt_op_names AS o WHERE o.name = " #f ")"
#define V_LDST(f) "(" #f " = 'st')"
#define V_LATENCY(f) "done_ps - issue_ps"

/* Rows of `sql` (time, fields) against want; the number unlike it. */
static unsigned simt_view_bad(sqlite3 *db, const char *sql, unsigned fields,
                              int64_t (*want)[SIMT_COLS], unsigned n)
{
    sqlite3_stmt *st = test_db_prepare(db, sql);
    unsigned i = 0, bad = 0;
    for (; sqlite3_step(st) == SQLITE_ROW && i < n; i++)
        for (unsigned k = 0; k <= fields; k++)
            bad += sqlite3_column_int64(st, (int)k) != want[i][k];
    sqlite3_finalize(st);
    return bad + (i != n);
}

/* The entries of pack table `table` of the file at `path` read back through
 * `view_sql` (time, fields in order) and decoded in C are both `want`; the
 * table has several packs, one of them in picoseconds. */
static void simt_agree(const char *path, const char *view_sql, const char *table,
                       unsigned fields, int duration, int64_t (*want)[SIMT_COLS])
{
    static int64_t got[SIMT_N][SIMT_COLS];
    sqlite3 *db = test_db_open(path);
    CU_ASSERT_EQUAL(simt_view_bad(db, view_sql, fields, want, SIMT_N), 0);
    unsigned n = simt_c_decode(db, table, fields, duration, got), bad = n != SIMT_N;
    for (unsigned i = 0; i < SIMT_N && i < n; i++)
        bad += memcmp(got[i], want[i], (1 + fields) * sizeof got[i][0]) != 0;
    CU_ASSERT_EQUAL(bad, 0);
    sqlite3_close(db);
    char sql[120];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE scale_ps = 1", table);
    CU_ASSERT(test_db_int(path, sql) > 0);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    CU_ASSERT(test_db_int(path, sql) > 5);
}

/* Issues in issue order (times increasing, now and then an odd ps or a
 * jump past 2^24 cycles), fields in narrow or wide ranges. */
static void test_simt_issue_agree(void)
{
    static int64_t want[SIMT_N][SIMT_COLS];
    fx_t f;
    fx_open(&f, "si.db", REC_EVENTS, 16, 5);
    sim_time_t t = P;
    for (unsigned i = 0; i < SIMT_N; i++) {
        t += P * (1 + below(2)) + (below(700) == 0) +
             (below(2000) == 0) * ((sim_time_t)1 << 25) * P; /* a jump past 2^24 cycles */
        bool wide = (i / 500) % 2;
        uint16_t active = (uint16_t)(wide ? rnd() : 0xff00u | below(2)), mask = (uint16_t)rnd();
        gpu_tr_simt_issue_t x = {
            .time_ps = t, .frame = (uint8_t)below(wide ? 64 : 3), .slot = (uint8_t)below(16),
            .op = (uint8_t)below(ISA_OPS_COUNT), .order = (uint8_t)below(2),
            .depth = (uint8_t)below(wide ? 16 : 2), .eligible = (uint8_t)below(wide ? 64 : 4),
            .active = active, .mask = mask};
        sim_trace(f.sim, GPU_TR_SIMT_ISSUE, &x);
        int64_t *w = want[i];
        w[0] = (int64_t)t;
        w[1 + SIPACK_I_frame] = x.frame, w[1 + SIPACK_I_slot] = x.slot;
        w[1 + SIPACK_I_op] = x.op, w[1 + SIPACK_I_ord] = x.order;
        w[1 + SIPACK_I_depth] = x.depth, w[1 + SIPACK_I_eligible] = x.eligible;
        w[1 + SIPACK_I_active] = x.active, w[1 + SIPACK_I_mask] = x.mask;
        w[1 + SIPACK_I_lanes] = __builtin_popcount(x.active);
    }
    fx_done(&f);
    simt_agree(f.path, "SELECT time_ps" SIPACK_ISSUE_FIELDS(V_COL, ) " FROM simt_issue"
               " ORDER BY time_ps", "simt_issue_packs", SIPACK_ISSUE_N, -1, want);
}

/* ld/st recorded as they complete, issued in order, latencies whole cycles
 * or now and then an odd ps. */
static void test_simt_mem_agree(void)
{
    static int64_t want[SIMT_N][SIMT_COLS];
    fx_t f;
    fx_open(&f, "sm.db", REC_MEM, 16, 6);
    sim_time_t t = P;
    for (unsigned i = 0; i < SIMT_N; i++) {
        t += P * (1 + below(3)) + (below(2000) == 0) * ((sim_time_t)1 << 25) * P;
        bool wide = (i / 700) % 2;
        uint16_t lanes = (uint16_t)(wide ? rnd() : 0xffffu);
        gpu_tr_simt_mem_t x = {
            .frame = (uint8_t)below(wide ? 64 : 2), .slot = (uint8_t)below(16),
            .is_store = (uint8_t)below(2), .requests = (uint8_t)below(17),
            .replays = (uint8_t)below(wide ? 16 : 2), .banks = (uint8_t)below(17),
            .lanes = lanes, .issue_ps = t,
            .done_ps = t + P * (1 + below(wide ? 5000 : 4)) + (below(900) == 0)};
        sim_trace(f.sim, GPU_TR_SIMT_MEM, &x);
        int64_t *w = want[i];
        w[0] = (int64_t)t;
        w[1 + SIPACK_M_frame] = x.frame, w[1 + SIPACK_M_slot] = x.slot;
        w[1 + SIPACK_M_op] = x.is_store, w[1 + SIPACK_M_lanes] = x.lanes;
        w[1 + SIPACK_M_active] = __builtin_popcount(x.lanes);
        w[1 + SIPACK_M_requests] = x.requests, w[1 + SIPACK_M_replays] = x.replays;
        w[1 + SIPACK_M_banks] = x.banks;
        w[1 + SIPACK_M_latency] = (int64_t)(x.done_ps - x.issue_ps);
    }
    fx_done(&f);
    simt_agree(f.path, "SELECT issue_ps" SIPACK_MEM_FIELDS(V_COL, ) " FROM simt_mem"
               " ORDER BY issue_ps", "simt_mem_packs", SIPACK_MEM_N, SIPACK_M_latency, want);
}

int main(void)
{
    static const test_case_t cases[] = {TEST(test_accesses_agree), TEST(test_events_agree),
                                        TEST(test_simt_issue_agree), TEST(test_simt_mem_agree),
                                        TEST_END};
    static const test_suite_t suites[] = {{"packs", cases}, {NULL, NULL}};
    return test_run_suites(suites);
}

/* vw_simt.c — a SIMT run's issue port and warp states per pixel column
 * (vw_simt.h): the packs of simt_issue_packs and simt_mem_packs decoded in
 * C by the layout of store/sipack.h (f = f0 + q / f_unit % f_n, time =
 * base_ps + scale_ps * (q / t_unit)), folded into columns; resident warps
 * from simt_warps (a row per warp). Invariant: a window's memory is bounded
 * by its columns and its packs; a summary is built by one pass over the
 * run's packs and never changes afterwards. */
#include "analysis/view/vw_simt.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/present/slots.h"
#include "analysis/store/sipack.h"
#include "analysis/view/vw_lanes.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

/* --- the packs, decoded --------------------------------------------------------------- */

/* The fields of each table's entries in their order: sipack.h's lists. */
#define SP_FIELDS SIPACK_FIELDS_MAX
_Static_assert(SIPACK_ISSUE_N == SP_FIELDS && SIPACK_MEM_N == SP_FIELDS,
               "both pack tables have nine fields");

/* A table's packs of run ?1 with rowids in [?2, ?3], in rowid order (the
 * order they were recorded): rowid, base_ps, scale_ps, t_unit, each field's
 * f0, f_n, f_unit, data. */
#define SP_COLS(A, f, show) ", " #f "0, " #f "_n, " #f "_unit"
#define SP_SQL(table, FIELDS)                                                    \
    "SELECT rowid, base_ps, scale_ps, t_unit" FIELDS(SP_COLS, ) ", data FROM " table \
    " WHERE +run_id = ?1 AND rowid BETWEEN ?2 AND ?3 ORDER BY rowid"
enum { T_ISSUE, T_MEM };
static const char *const sp_sql[2] = {SP_SQL("simt_issue_packs", SIPACK_ISSUE_FIELDS),
                                      SP_SQL("simt_mem_packs", SIPACK_MEM_FIELDS)};
static const char *const sp_table[2] = {"simt_issue_packs", "simt_mem_packs"};
enum { C_ROWID, C_BASE, C_SCALE, C_TUNIT, C_F0, C_DATA = C_F0 + 3 * SP_FIELDS };

typedef struct sp_iter {
    sqlite3_stmt *st;
    tl_run_t *run;
    int table;
    const char *p;            /* the next entry of the current pack's data */
    int64_t rowid, base, scale, t_unit;
    int64_t f0[SP_FIELDS], fn[SP_FIELDS], fu[SP_FIELDS];
    bool null_base, null_f[SP_FIELDS];
} sp_iter_t;

typedef struct sp_entry {
    int64_t rowid;            /* its pack */
    int64_t time, scale;      /* an issue's time_ps, a ld/st's issue_ps (TL_NONE: NULL) */
    int64_t v[SP_FIELDS];     /* the fields (TL_NONE: NULL) */
} sp_entry_t;

static int64_t at_least_1(sqlite3_stmt *st, int i)
{
    int64_t v = sqlite3_column_int64(st, i);
    return v > 0 ? v : 1;
}

/* The run's packs of `table` with rowids in [lo, hi]. */
static int sp_begin(sp_iter_t *it, tl_run_t *run, int table, int64_t lo, int64_t hi, diag_t *d)
{
    memset(it, 0, sizeof *it);
    it->run = run, it->table = table;
    if (!(it->st = tl_run_prepare(run, sp_sql[table], d)))
        return d->code ? d->code : TESS_EDB;
    sqlite3_bind_int64(it->st, 2, lo);
    sqlite3_bind_int64(it->st, 3, hi);
    return TESS_OK;
}

static void sp_end(sp_iter_t *it) { sqlite3_finalize(it->st), it->st = NULL; }

/* The next pack: 1, 0 at the end, -1 on failure (in d). */
static int sp_next_pack(sp_iter_t *it, diag_t *d)
{
    sqlite3_stmt *st = it->st;
    int step = sqlite3_step(st);
    if (step != SQLITE_ROW) {
        it->p = NULL;
        if (step == SQLITE_DONE)
            return 0;
        char what[40];
        snprintf(what, sizeof what, "reading %s", sp_table[it->table]);
        tl_run_fail(it->run, what, d);
        return -1;
    }
    it->rowid = sqlite3_column_int64(st, C_ROWID);
    it->null_base = sqlite3_column_type(st, C_BASE) == SQLITE_NULL;
    it->base = sqlite3_column_int64(st, C_BASE);
    it->scale = sqlite3_column_int64(st, C_SCALE);
    it->t_unit = at_least_1(st, C_TUNIT);
    for (int f = 0; f < SP_FIELDS; f++) {
        it->null_f[f] = sqlite3_column_type(st, C_F0 + 3 * f) == SQLITE_NULL;
        it->f0[f] = sqlite3_column_int64(st, C_F0 + 3 * f);
        it->fn[f] = at_least_1(st, C_F0 + 3 * f + 1);
        it->fu[f] = at_least_1(st, C_F0 + 3 * f + 2);
    }
    it->p = (const char *)sqlite3_column_text(st, C_DATA);
    if (it->p && *it->p == '[')
        it->p++;
    return 1;
}

/* The next entry: 1, 0 at the end, -1 on failure (in d). The data is a JSON
 * array of non-negative integers (q < 2^62; a damaged one decodes wrongly,
 * never out of bounds). */
static int sp_next(sp_iter_t *it, sp_entry_t *e, diag_t *d)
{
    for (;;) {
        const char *p = it->p;
        while (p && (*p == ' ' || *p == ',' || *p == '\n' || *p == '\t'))
            p++;
        if (!p || (unsigned)(*p - '0') > 9) {
            int rc = sp_next_pack(it, d);
            if (rc <= 0)
                return rc;
            continue;
        }
        uint64_t q = 0;
        do
            q = q * 10 + (uint64_t)(*p++ - '0');
        while ((unsigned)(*p - '0') <= 9);
        it->p = p;
        e->rowid = it->rowid, e->scale = it->scale;
        e->time = it->null_base ? TL_NONE
                                : it->base + it->scale * (int64_t)sipack_t(q, (uint64_t)it->t_unit);
        for (int f = 0; f < SP_FIELDS; f++)
            e->v[f] = it->null_f[f] ? TL_NONE
                                    : sipack_field(q, it->f0[f], (uint64_t)it->fn[f],
                                                   (uint64_t)it->fu[f]);
        return 1;
    }
}

/* The rowids [*lo, *hi] of the run's packs of `table` (*hi 0: none). */
static int run_rows(tl_run_t *run, int table, int64_t *lo, int64_t *hi, diag_t *d)
{
    char sql[120];
    snprintf(sql, sizeof sql, "SELECT min(rowid), max(rowid) FROM %s WHERE run_id = ?1",
             sp_table[table]);
    sqlite3_stmt *st = tl_run_prepare(run, sql, d);
    if (!st)
        return d->code ? d->code : TESS_EDB;
    int step = sqlite3_step(st);
    *lo = sqlite3_column_int64(st, 0), *hi = sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    return step == SQLITE_ROW ? TESS_OK : tl_run_fail(run, "reading the SIMT packs", d);
}

/* Does the file hold both pack tables (version 11 and later)? */
static bool has_packs(tl_run_t *run)
{
    sqlite3_stmt *st = tl_run_prepare(run, "SELECT count(*) FROM sqlite_master WHERE type ="
                                           " 'table' AND name IN ('simt_issue_packs',"
                                           " 'simt_mem_packs')", NULL);
    bool yes = st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 2;
    sqlite3_finalize(st);
    return yes;
}

/* --- folding into columns ------------------------------------------------------------- */

enum { W_RESIDENT, W_ISSUED, W_ELIGIBLE, W_OUTSTANDING, W_N };
#define FRAMES 64                 /* warps are Task Memory frames */

typedef struct ivl {
    int64_t a, b;
} ivl_t;

/* A warp's instruction slot over the whole run: its issues (simt_issue)
 * and its ld/st (simt_mem), what the task panel shows. */
typedef struct slot_acc {
    int64_t op;               /* the first issue's op id, -1: none */
    int64_t issues, lanes_sum, lanes_n;
    int64_t mem, ld, lat_sum, lat_n, rep_sum, rep_n;
} slot_acc_t;

typedef struct warp_slots {   /* a warp's slots, indexed by slot */
    slot_acc_t *s;
    unsigned n;
} warp_slots_t;

#define SLOTS_MAX 65536           /* instruction slots a warp's table holds at most */

/* What a pass folds into: the warp lanes, the port's issues per slot and
 * column (and the frame of each column's last), the issues one by one
 * while few, the warps' ld/st intervals until merged, the packs' times. */
typedef struct fold {
    cols_t warp;
    unsigned slots;
    int64_t *count;           /* [slot * warp.n + col] */
    int *frame;
    int64_t period;
    json_t *detail;           /* NULL: not kept (a summary) or more than VW_DETAIL_MAX */
    unsigned kept;
    char **ops;               /* simt_op_names: id -> mnemonic */
    tl_slots_t *prof;         /* the slot profile: the instruction each issue names */
    unsigned n_ops;
    ivl_t *mem[FRAMES];       /* each warp's ld/st intervals */
    unsigned n_mem[FRAMES], cap_mem[FRAMES];
    int64_t end;              /* an interval without an end lasts until this */
    warp_slots_t *ws;         /* [FRAMES]: per warp and slot, or NULL: not gathered */
    int only;                 /* gather the slots of this warp only (-1: all) */
} fold_t;

static void ws_free(warp_slots_t *ws)
{
    for (unsigned w = 0; ws && w < FRAMES; w++)
        tess_free(ws[w].s);
    tess_free(ws);
}

/* The accumulator of (frame, slot), NULL when not gathered or no room. */
static slot_acc_t *slot_of(fold_t *f, int64_t frame, int64_t slot)
{
    if (!f->ws || frame < 0 || frame >= FRAMES || slot < 0 || slot >= SLOTS_MAX ||
        (f->only >= 0 && frame != f->only))
        return NULL;
    warp_slots_t *w = &f->ws[frame];
    if ((unsigned)slot >= w->n) {
        unsigned n = (unsigned)slot + 1 > 2 * w->n ? (unsigned)slot + 1 : 2 * w->n;
        slot_acc_t *more = tess_realloc(w->s, n * sizeof *more);
        if (!more)
            return NULL;
        for (unsigned k = w->n; k < n; k++)
            more[k] = (slot_acc_t){.op = -1};
        w->s = more, w->n = n;
    }
    return &w->s[slot];
}

static void slot_issue(fold_t *f, const sp_entry_t *e)
{
    slot_acc_t *a = slot_of(f, e->v[SIPACK_I_frame], e->v[SIPACK_I_slot]);
    if (!a)
        return;
    a->op = a->op < 0 ? e->v[SIPACK_I_op] : a->op;
    a->issues++;
    if (e->v[SIPACK_I_lanes] != TL_NONE)
        a->lanes_sum += e->v[SIPACK_I_lanes], a->lanes_n++;
}

static void slot_mem(fold_t *f, const sp_entry_t *e)
{
    slot_acc_t *a = slot_of(f, e->v[SIPACK_M_frame], e->v[SIPACK_M_slot]);
    if (!a)
        return;
    a->mem++, a->ld += e->v[SIPACK_M_op] == 0;
    if (e->time != TL_NONE && e->v[SIPACK_M_latency] != TL_NONE)
        a->lat_sum += e->scale * e->v[SIPACK_M_latency], a->lat_n++;
    if (e->v[SIPACK_M_replays] != TL_NONE)
        a->rep_sum += e->v[SIPACK_M_replays], a->rep_n++;
}

static unsigned col_of(const cols_t *c, int64_t t)
{
    double k = c->unit > 0 ? (double)((t - c->t0) / c->unit) : (double)(t - c->t0) / c->col_ps;
    return k < 0 ? 0 : k >= c->n ? c->n - 1 : (unsigned)k;
}

static json_int_t or0(int64_t v) { return v == TL_NONE ? 0 : (json_int_t)v; }

static void fold_issue(fold_t *f, const sp_entry_t *e)
{
    cols_t *c = &f->warp;
    int64_t t = e->time;
    if (t == TL_NONE || t < c->t0 || t >= c->t1)
        return;
    cols_add(c, W_ISSUED, t, t + f->period);
    if (e->v[SIPACK_I_ord] == 0 && e->v[SIPACK_I_eligible] > 0)
        cols_add_w(c, W_ELIGIBLE, t, t + f->period, (double)e->v[SIPACK_I_eligible]);
    int64_t ord = e->v[SIPACK_I_ord];
    unsigned slot = ord < 0 ? 0 : ord >= (int64_t)f->slots ? f->slots - 1 : (unsigned)ord;
    size_t at = (size_t)slot * c->n + col_of(c, t);
    f->count[at]++, f->frame[at] = (int)e->v[SIPACK_I_frame];
    if (f->detail && ++f->kept > VW_DETAIL_MAX) {
        json_decref(f->detail), f->detail = NULL;
    } else if (f->detail) {
        const int64_t *v = e->v;
        int64_t op = v[SIPACK_I_op];
        const char *name = tl_slot_text(f->prof, (unsigned)or0(v[SIPACK_I_frame]),
                                        (unsigned)or0(v[SIPACK_I_slot]));
        if (!name) /* no profile: the mnemonic */
            name = op >= 0 && (uint64_t)op < f->n_ops && f->ops[op] ? f->ops[op] : "?";
        json_array_append_new(f->detail,
                              json_pack("[IIIsIIIII]", (json_int_t)t, or0(v[SIPACK_I_frame]),
                                        or0(v[SIPACK_I_slot]), name, or0(ord),
                                        or0(v[SIPACK_I_active]), or0(v[SIPACK_I_mask]),
                                        or0(v[SIPACK_I_eligible]), or0(v[SIPACK_I_depth])));
    }
}

/* A ld/st outstanding over [issue, done) (done NULL: until f->end), kept
 * with its warp's until fold_merge. */
static int fold_mem(fold_t *f, const sp_entry_t *e)
{
    if (e->time == TL_NONE || e->v[SIPACK_M_frame] == TL_NONE)
        return TESS_OK;
    int64_t a = e->time, b = e->v[SIPACK_M_latency] == TL_NONE ? f->end
                                                        : a + e->scale * e->v[SIPACK_M_latency];
    if (a >= f->warp.t1 || b <= f->warp.t0)
        return TESS_OK;
    unsigned w = (unsigned)e->v[SIPACK_M_frame] % FRAMES;
    if (!tl_grow((void **)&f->mem[w], &f->cap_mem[w], f->n_mem[w], sizeof *f->mem[w]))
        return TESS_ENOMEM;
    f->mem[w][f->n_mem[w]++] = (ivl_t){a, b};
    return TESS_OK;
}

static int by_start(const void *x, const void *y)
{
    int64_t a = ((const ivl_t *)x)->a, b = ((const ivl_t *)y)->a;
    return (a > b) - (a < b);
}

/* Each warp's time with a ld/st outstanding: the union of its intervals
 * (they come in completion order, which may differ from issue order). */
static void fold_merge(fold_t *f)
{
    for (unsigned w = 0; w < FRAMES; w++) {
        ivl_t *v = f->mem[w];
        unsigned n = f->n_mem[w];
        bool sorted = true;
        for (unsigned k = 1; sorted && k < n; k++)
            sorted = v[k - 1].a <= v[k].a;
        if (!sorted)
            qsort(v, n, sizeof *v, by_start);
        for (unsigned k = 0; k < n;) {
            int64_t a = v[k].a, b = v[k].b;
            for (k++; k < n && v[k].a <= b; k++)
                b = v[k].b > b ? v[k].b : b;
            cols_add(&f->warp, W_OUTSTANDING, a, b);
        }
        tess_free(f->mem[w]), f->mem[w] = NULL, f->n_mem[w] = f->cap_mem[w] = 0;
    }
}

static void fold_free(fold_t *f)
{
    for (unsigned w = 0; w < FRAMES; w++)
        tess_free(f->mem[w]);
    for (unsigned k = 0; k < f->n_ops; k++)
        tess_free(f->ops[k]);
    tess_free(f->ops), tess_free(f->warp.busy), tess_free(f->count), tess_free(f->frame);
    tess_free(f->prof);
    ws_free(f->ws);
    json_decref(f->detail);
    memset(f, 0, sizeof *f);
}

/* The issue port's arrays for `slots` slots over f->warp's columns. */
static int fold_slots(fold_t *f, unsigned slots)
{
    size_t cells = (size_t)(slots ? slots : 1) * f->warp.n;
    f->slots = slots;
    f->count = tess_calloc(cells, sizeof *f->count);
    f->frame = tess_calloc(cells, sizeof *f->frame);
    return f->count && f->frame ? TESS_OK : TESS_ENOMEM;
}

/* The run's mnemonics by id, and its slot profile's instructions, for the
 * issues' detail. */
static int load_ops(tl_run_t *run, fold_t *f, diag_t *d)
{
    if (!f->prof && !(f->prof = tl_slots_load(run, d)))
        return d->code ? d->code : TESS_EDB;
    sqlite3_stmt *st = tl_run_prepare(run, "SELECT id, name FROM simt_op_names WHERE run_id = ?1"
                                           " AND id >= 0 AND id < 4096", d);
    if (!st)
        return d->code ? d->code : TESS_EDB;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        unsigned id = (unsigned)sqlite3_column_int(st, 0);
        if (id >= f->n_ops) {
            char **more = tess_realloc(f->ops, (id + 1) * sizeof *more);
            if (!more)
                break;
            memset(more + f->n_ops, 0, (id + 1 - f->n_ops) * sizeof *more);
            f->ops = more, f->n_ops = id + 1;
        }
        tess_free(f->ops[id]);
        f->ops[id] = tess_strdup((const char *)sqlite3_column_text(st, 1));
    }
    sqlite3_finalize(st);
    if (step == SQLITE_ROW)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    return step == SQLITE_DONE ? TESS_OK : tl_run_fail(run, "reading simt_op_names", d);
}

/* --- the summary ---------------------------------------------------------------------- */

typedef struct span {         /* a pack row: when its entries lie */
    int64_t rowid, lo, hi;
} span_t;

struct vw_simt_sum {
    int64_t t0, t1, unit;     /* buckets of unit ps from t0, covering [t0, t1) */
    unsigned n, slots;
    double *cum;              /* [(lane - W_ISSUED) * (n + 1) + k]: warp-ps before bucket k */
    int64_t *cnt;             /* [slot * (n + 1) + k]: issues before bucket k */
    int8_t *last;             /* [slot * n + k]: the frame of the bucket's last issue */
    span_t *packs[2];
    unsigned n_packs[2];
    uint64_t entries;
    warp_slots_t *ws;         /* [FRAMES]: each warp's slots */
    char **ops;               /* the mnemonics by id */
    unsigned n_ops;
    int64_t period;
};

void vw_simt_free(vw_simt_sum_t *s)
{
    if (!s)
        return;
    tess_free(s->cum), tess_free(s->cnt), tess_free(s->last), tess_free(s->packs[0]),
        tess_free(s->packs[1]);
    ws_free(s->ws);
    for (unsigned k = 0; k < s->n_ops; k++)
        tess_free(s->ops[k]);
    tess_free(s->ops);
    tess_free(s);
}

uint64_t vw_simt_entries(const vw_simt_sum_t *s) { return s ? s->entries : 0; }

/* Notes entry e's times [a, b) in its pack's span. */
static bool note_span(vw_simt_sum_t *s, int table, unsigned *cap, int64_t rowid, int64_t a,
                      int64_t b)
{
    unsigned n = s->n_packs[table];
    span_t *p = n ? &s->packs[table][n - 1] : NULL;
    if (!p || p->rowid != rowid) {
        if (!tl_grow((void **)&s->packs[table], cap, n, sizeof *p))
            return false;
        p = &s->packs[table][s->n_packs[table]++];
        *p = (span_t){rowid, a, b};
    }
    p->lo = a < p->lo ? a : p->lo, p->hi = b > p->hi ? b : p->hi;
    return true;
}

/* Decodes every pack of one table of the run into f (and s's spans). */
static int pass(tl_run_t *run, int table, fold_t *f, vw_simt_sum_t *s, const atomic_bool *stop,
                diag_t *d)
{
    int64_t lo, hi;
    int rc = run_rows(run, table, &lo, &hi, d);
    if (rc != TESS_OK || hi == 0)
        return rc;
    sp_iter_t it;
    if ((rc = sp_begin(&it, run, table, lo, hi, d)) != TESS_OK)
        return rc;
    sp_entry_t e;
    unsigned cap = 0;
    int got;
    while (rc == TESS_OK && (got = sp_next(&it, &e, d)) == 1) {
        if (!(++s->entries & 0xffff) && stop && atomic_load(stop))
            rc = diag_fail(d, TESS_EINTERRUPTED, "the server is stopping");
        if (e.time == TL_NONE) {
            table == T_ISSUE ? slot_issue(f, &e) : slot_mem(f, &e);
            continue;
        }
        int64_t lat = e.v[SIPACK_M_latency];
        int64_t b = table == T_ISSUE    ? e.time + f->period
                    : lat == TL_NONE ? f->end
                                     : e.time + e.scale * lat;
        if (table == T_ISSUE)
            slot_issue(f, &e);
        else
            slot_mem(f, &e);
        if (rc == TESS_OK && !note_span(s, table, &cap, e.rowid, e.time, b))
            rc = TESS_ENOMEM;
        if (rc == TESS_OK && table == T_ISSUE && f->slots)
            fold_issue(f, &e);
        else if (rc == TESS_OK && table == T_MEM)
            rc = fold_mem(f, &e);
    }
    sp_end(&it);
    if (rc == TESS_OK && got < 0)
        rc = d->code;
    return rc == TESS_ENOMEM ? diag_fail(d, rc, "out of memory") : rc;
}

/* The summary's cumulative sums from f's buckets. */
static int summarise(vw_simt_sum_t *s, const fold_t *f)
{
    size_t n1 = (size_t)s->n + 1;
    s->cum = tess_malloc((W_N - W_ISSUED) * n1 * sizeof *s->cum);
    s->cnt = tess_malloc((size_t)(s->slots ? s->slots : 1) * n1 * sizeof *s->cnt);
    s->last = tess_malloc((size_t)(s->slots ? s->slots : 1) * s->n * sizeof *s->last);
    if (!s->cum || !s->cnt || !s->last)
        return TESS_ENOMEM;
    for (unsigned l = W_ISSUED; l < W_N; l++) {
        double *cum = s->cum + (l - W_ISSUED) * n1, sum = 0;
        cum[0] = 0;
        for (unsigned k = 0; k < s->n; k++)
            cum[k + 1] = sum += cols_row(&f->warp, l)[k];
    }
    for (unsigned sl = 0; sl < s->slots; sl++) {
        int64_t *cnt = s->cnt + sl * n1, sum = 0;
        cnt[0] = 0;
        for (unsigned k = 0; k < s->n; k++) {
            size_t at = (size_t)sl * s->n + k;
            cnt[k + 1] = sum += f->count[at];
            s->last[at] = (int8_t)(f->count[at] ? (int)((unsigned)f->frame[at] % FRAMES) : -1);
        }
    }
    return TESS_OK;
}

int vw_simt_build(tl_run_t *run, int64_t t0, int64_t t1, int64_t unit, unsigned buckets,
                  const atomic_bool *stop, vw_simt_sum_t **out, diag_t *d)
{
    *out = NULL;
    if (!has_packs(run))
        return TESS_OK;
    vw_simt_sum_t *s = tess_calloc(1, sizeof *s);
    fold_t f = {.period = (int64_t)tl_run_info(run)->period_ps, .end = t1, .only = -1,
                .ws = tess_calloc(FRAMES, sizeof *f.ws)};
    if (!s || !f.ws) {
        tess_free(s), tess_free(f.ws);
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    }
    s->t0 = t0, s->t1 = t1, s->unit = unit, s->n = buckets, s->period = f.period;
    int rc = tl_run_issue_slots(run, &s->slots, d);
    if (rc == TESS_OK)
        rc = load_ops(run, &f, d);
    if (rc == TESS_OK)
        rc = cols_init_units(&f.warp, W_N, buckets, t0, t1, unit);
    if (rc == TESS_OK)
        rc = fold_slots(&f, s->slots);
    if (rc == TESS_ENOMEM)
        rc = diag_fail(d, rc, "out of memory");
    if (rc == TESS_OK)
        rc = pass(run, T_ISSUE, &f, s, stop, d);
    if (rc == TESS_OK)
        rc = pass(run, T_MEM, &f, s, stop, d);
    if (rc == TESS_OK)
        fold_merge(&f);
    if (rc == TESS_OK && summarise(s, &f) != TESS_OK)
        rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    s->ws = f.ws, s->ops = f.ops, s->n_ops = f.n_ops;
    f.ws = NULL, f.ops = NULL, f.n_ops = 0;
    fold_free(&f);
    if (rc != TESS_OK || !(s->n_packs[T_ISSUE] + s->n_packs[T_MEM])) {
        vw_simt_free(s);
        return rc;
    }
    *out = s;
    return TESS_OK;
}

/* --- a window ------------------------------------------------------------------------- */

/* The rowids [r[0], r[1]] of the packs of `table` overlapping [t0, t1). */
static void span_rows(const vw_simt_sum_t *s, int table, int64_t t0, int64_t t1, int64_t r[2])
{
    r[0] = INT64_MAX, r[1] = 0;
    for (unsigned k = 0; k < s->n_packs[table]; k++) {
        const span_t *p = &s->packs[table][k];
        if (p->lo < t1 && p->hi > t0) {
            r[0] = p->rowid < r[0] ? p->rowid : r[0];
            r[1] = p->rowid > r[1] ? p->rowid : r[1];
        }
    }
}

int vw_simt_plan(const vw_simt_sum_t *s, int64_t t0, int64_t t1, unsigned cols, bool exact,
                 vw_simt_win_t *w)
{
    memset(w, 0, sizeof *w);
    if (!s)
        return TESS_OK;
    double col_ps = (double)(t1 - t0) / cols;
    if (exact || s->entries <= VW_EXACT_MAX || t0 < s->t0 || t1 > s->t1 ||
        col_ps < 2.0 * (double)s->unit) {
        w->have_rows = true;
        span_rows(s, T_ISSUE, t0, t1, w->rows[T_ISSUE]);
        span_rows(s, T_MEM, t0, t1, w->rows[T_MEM]);
        return TESS_OK;
    }
    /* columns of k whole buckets, from the bucket holding t0 to the one holding t1 - 1 */
    unsigned k = (unsigned)(col_ps / (double)s->unit);
    unsigned b0 = (unsigned)((t0 - s->t0) / s->unit);
    unsigned b1 = (unsigned)((t1 - s->t0 + s->unit - 1) / s->unit);
    b1 = b1 > s->n ? s->n : b1;
    unsigned n = (b1 - b0 + k - 1) / k;
    int64_t c0 = s->t0 + (int64_t)b0 * s->unit, c1 = c0 + (int64_t)n * k * s->unit;
    w->summary = true, w->slots = s->slots;
    if (cols_init_units(&w->warp, W_N, n, c0, c1 < s->t1 ? c1 : s->t1, (int64_t)k * s->unit) !=
            TESS_OK ||
        !(w->count = tess_calloc((size_t)(s->slots ? s->slots : 1) * n, sizeof *w->count)) ||
        !(w->frame = tess_calloc((size_t)(s->slots ? s->slots : 1) * n, sizeof *w->frame)))
        return TESS_ENOMEM;
    size_t n1 = (size_t)s->n + 1;
    for (unsigned j = 0; j < n; j++) {
        unsigned a = b0 + j * k, b = a + k > s->n ? s->n : a + k;
        for (unsigned l = W_ISSUED; l < W_N; l++) {
            const double *cum = s->cum + (l - W_ISSUED) * n1;
            cols_row(&w->warp, l)[j] = cum[b] - cum[a];
        }
        for (unsigned sl = 0; sl < s->slots; sl++) {
            const int64_t *cnt = s->cnt + sl * n1;
            w->count[sl * n + j] = (int)(cnt[b] - cnt[a]);
            unsigned z = b;
            while (z > a && s->last[(size_t)sl * s->n + z - 1] < 0)
                z--;
            w->frame[sl * n + j] = z > a ? s->last[(size_t)sl * s->n + z - 1] : 0;
        }
    }
    return TESS_OK;
}

/* Decodes the packs w names (all the run's when it names none) into f. */
static int decode_packs(tl_run_t *run, const vw_simt_win_t *w, fold_t *f, diag_t *d)
{
    for (int table = T_ISSUE; table <= T_MEM; table++) {
        int64_t lo = w->rows[table][0], hi = w->rows[table][1];
        int rc = w->have_rows ? TESS_OK : run_rows(run, table, &lo, &hi, d);
        if (rc != TESS_OK)
            return rc;
        if (hi == 0 || (table == T_ISSUE && !f->slots && !f->ws))
            continue;
        sp_iter_t it;
        if ((rc = sp_begin(&it, run, table, lo, hi, d)) != TESS_OK)
            return rc;
        sp_entry_t e;
        int got;
        while (rc == TESS_OK && (got = sp_next(&it, &e, d)) == 1) {
            if (f->ws) /* a warp's slots: nothing else */
                table == T_ISSUE ? slot_issue(f, &e) : slot_mem(f, &e);
            else if (table == T_ISSUE)
                fold_issue(f, &e);
            else
                rc = fold_mem(f, &e);
        }
        sp_end(&it);
        if (rc != TESS_OK)
            return diag_fail(d, rc, "out of memory");
        if (got < 0)
            return d->code;
    }
    fold_merge(f);
    return TESS_OK;
}

/* A file older than version 11: the issues and ld/st through the views. */
static int decode_views(tl_run_t *run, fold_t *f, diag_t *d)
{
    cols_t *c = &f->warp;
    sqlite3_stmt *st = f->slots ? tl_run_issue_window(run, "time_ps, frame, slot, ord, eligible,"
                                                           " active, mask, depth, op",
                                                      "time_ps, ord", c->t0, c->t1, d) : NULL;
    if (f->slots && !st)
        return d->code ? d->code : TESS_EDB;
    int step = SQLITE_DONE;
    while (st && (step = sqlite3_step(st)) == SQLITE_ROW) {
        sp_entry_t e = {.time = sqlite3_column_int64(st, 0)};
        static const int field[] = {SIPACK_I_frame,  SIPACK_I_slot, SIPACK_I_ord,
                                    SIPACK_I_eligible, SIPACK_I_active, SIPACK_I_mask,
                                    SIPACK_I_depth};
        for (int k = 0; k < 7; k++)
            e.v[field[k]] = tl_col_time(st, k + 1);
        const unsigned char *op = sqlite3_column_text(st, 8);
        char *one[1] = {(char *)(op ? op : (const unsigned char *)"?")};
        e.v[SIPACK_I_op] = 0, f->ops = one, f->n_ops = 1;
        fold_issue(f, &e);
        f->ops = NULL, f->n_ops = 0;
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE)
        return tl_run_fail(run, "reading simt_issue", d);
    st = tl_run_prepare(run, "SELECT frame, issue_ps, done_ps FROM simt_mem WHERE run_id = ?1"
                             " AND issue_ps < ?3 AND coalesce(done_ps, ?3) > ?2", d);
    if (!st)
        return d->code ? d->code : TESS_EDB;
    sqlite3_bind_int64(st, 2, c->t0), sqlite3_bind_int64(st, 3, c->t1);
    int rc = TESS_OK;
    while (rc == TESS_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t done = tl_col_time(st, 2);
        sp_entry_t e = {.time = sqlite3_column_int64(st, 1), .scale = 1};
        e.v[SIPACK_M_frame] = sqlite3_column_int64(st, 0);
        e.v[SIPACK_M_latency] = done == TL_NONE ? TL_NONE : done - e.time;
        rc = fold_mem(f, &e);
    }
    sqlite3_finalize(st);
    if (rc != TESS_OK)
        return diag_fail(d, rc, "out of memory");
    if (step != SQLITE_DONE)
        return tl_run_fail(run, "reading simt_mem", d);
    fold_merge(f);
    return TESS_OK;
}

/* Resident warps: each simt_warps row from its start to its end. */
static int fold_resident(tl_run_t *run, cols_t *c, diag_t *d)
{
    sqlite3_stmt *st = tl_run_prepare(run, "SELECT start_ps, end_ps FROM simt_warps"
                                           " WHERE run_id = ?1 AND start_ps IS NOT NULL", d);
    int step = SQLITE_ERROR;
    while (st && (step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t e = tl_col_time(st, 1);
        cols_add(c, W_RESIDENT, sqlite3_column_int64(st, 0), e == TL_NONE ? c->t1 : e);
    }
    sqlite3_finalize(st);
    return st && step == SQLITE_DONE ? TESS_OK : tl_run_fail(run, "reading simt_warps", d);
}

static json_t *int_rows(const int *v, unsigned rows, unsigned n)
{
    json_t *all = json_array();
    for (unsigned r = 0; r < rows; r++) {
        json_t *row = json_array();
        for (unsigned k = 0; k < n; k++)
            json_array_append_new(row, json_integer(v[r * n + k]));
        json_array_append_new(all, row);
    }
    return all;
}

/* Per column, the average number of warps in each state: issued, eligible
 * but not chosen (issue), not eligible with a ld/st outstanding (memory),
 * the other resident ones (execute); without issue records (below level
 * events) only memory and other. */
static json_t *warp_states(const cols_t *c, bool issues)
{
    json_t *o = json_pack("{s:[ssss],s:o,s:o}", "states", issues ? "issued" : "memory",
                          issues ? "issue" : "other", issues ? "memory" : "",
                          issues ? "execute" : "", "c0_ps", ps_json(c->c0), "col_ps",
                          ps_json(c->col_ps));
    json_t *rows[4] = {json_array(), json_array(), json_array(), json_array()};
    for (unsigned k = 0; k < c->n; k++) {
        double w[W_N];
        for (unsigned l = 0; l < W_N; l++)
            w[l] = cols_row(c, l)[k] / c->col_ps;
        double waiting = w[W_RESIDENT] - (issues ? w[W_ELIGIBLE] : 0);
        waiting = waiting < 0 ? 0 : waiting;
        double mem = w[W_OUTSTANDING] < waiting ? w[W_OUTSTANDING] : waiting;
        double v[4] = {w[W_ISSUED], w[W_ELIGIBLE] - w[W_ISSUED], mem, waiting - mem};
        if (!issues)
            v[0] = mem, v[1] = waiting - mem, v[2] = v[3] = 0;
        for (int s = 0; s < 4; s++)
            json_array_append_new(rows[s], json_real(v[s] < 0 ? 0 : v[s]));
    }
    json_object_set_new(o, "cols", json_pack("[oooo]", rows[0], rows[1], rows[2], rows[3]));
    return o;
}

static bool is_simt(tl_run_t *run)
{
    sqlite3_stmt *st = tl_run_prepare(run, "SELECT EXISTS (SELECT 1 FROM simt_warps"
                                           " WHERE run_id = ?1)", NULL);
    bool yes = st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return yes;
}

void vw_simt_win_free(vw_simt_win_t *w)
{
    tess_free(w->warp.busy), tess_free(w->count), tess_free(w->frame);
    memset(w, 0, sizeof *w);
}

/* The window decoded from the packs (or the views) into w's arrays. */
static int decode_window(tl_run_t *run, vw_simt_win_t *w, int64_t t0, int64_t t1, unsigned cols,
                         json_t **detail, diag_t *d)
{
    fold_t f = {.period = (int64_t)tl_run_info(run)->period_ps, .end = t1};
    int rc = tl_run_issue_slots(run, &f.slots, d);
    if (rc == TESS_OK && cols_init(&f.warp, W_N, cols, t0, t1) != TESS_OK)
        rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    if (rc == TESS_OK && fold_slots(&f, f.slots) != TESS_OK)
        rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    bool packs = has_packs(run);
    if (rc == TESS_OK && f.slots && packs)
        rc = load_ops(run, &f, d);
    if (rc == TESS_OK && f.slots && !(f.detail = json_array()))
        rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    if (rc == TESS_OK)
        rc = packs ? decode_packs(run, w, &f, d) : decode_views(run, &f, d);
    if (rc == TESS_OK) {
        size_t cells = (size_t)(f.slots ? f.slots : 1) * cols;
        w->count = tess_calloc(cells, sizeof *w->count);
        w->frame = tess_calloc(cells, sizeof *w->frame);
        for (size_t k = 0; w->count && w->frame && k < (size_t)f.slots * cols; k++)
            w->count[k] = (int)f.count[k], w->frame[k] = f.frame[k];
        if (!w->count || !w->frame)
            rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    }
    if (rc == TESS_OK) {
        w->warp = f.warp, f.warp.busy = NULL;
        w->slots = f.slots;
        *detail = f.detail, f.detail = NULL;
    }
    fold_free(&f);
    return rc;
}

int vw_simt_part(tl_run_t *run, vw_simt_win_t *w, int64_t t0, int64_t t1, unsigned cols,
                 json_t *out, diag_t *d)
{
    if (!is_simt(run)) {
        vw_simt_win_free(w);
        return TESS_OK;
    }
    json_t *detail = NULL;
    int rc = w->summary ? TESS_OK : decode_window(run, w, t0, t1, cols, &detail, d);
    if (rc == TESS_OK)
        rc = fold_resident(run, &w->warp, d);
    if (rc == TESS_OK && w->slots)
        json_object_set_new(out, "issue",
                            json_pack("{s:i,s:o,s:o,s:o,s:o,s:o}", "slots", (int)w->slots, "count",
                                      int_rows(w->count, w->slots, w->warp.n), "frame",
                                      int_rows(w->frame, w->slots, w->warp.n), "detail",
                                      detail ? json_incref(detail) : json_null(), "c0_ps",
                                      ps_json(w->warp.c0), "col_ps", ps_json(w->warp.col_ps)));
    json_t *states = rc == TESS_OK ? warp_states(&w->warp, w->slots > 0) : NULL;
    if (states)
        json_object_set_new(states, "source", json_string(w->summary ? "summary" : "packs"));
    if (rc == TESS_OK)
        json_object_set_new(out, "warps", states);
    json_decref(detail);
    vw_simt_win_free(w);
    return rc;
}

/* --- a warp's slots -------------------------------------------------------------------- */

/* Per slot of warp `frame` (in slot order): slot, op, issues, mean_lanes,
 * mem, mean_latency_cycles, replays — NULL where the file has none, as
 * the SQL aggregates over simt_issue and simt_mem give them. */
static json_t *slots_json(const warp_slots_t *ws, unsigned frame, char *const *ops,
                          unsigned n_ops, int64_t period)
{
    json_t *all = json_array();
    const warp_slots_t *w = &ws[frame % FRAMES];
    for (unsigned k = 0; all && k < w->n; k++) {
        const slot_acc_t *a = &w->s[k];
        if (!a->issues && !a->mem)
            continue;
        const char *op = a->issues ? (a->op >= 0 && (uint64_t)a->op < n_ops && ops[a->op]
                                          ? ops[a->op] : NULL)
                                   : a->ld ? "ld" : "st";
        json_t *o = json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o}", "slot", (int)k, "op",
            op ? json_string(op) : json_null(),
            "issues", a->issues ? json_integer(a->issues) : json_null(),
            "mean_lanes", a->lanes_n ? json_real((double)a->lanes_sum / (double)a->lanes_n)
                                     : json_null(),
            "mem", a->mem ? json_integer(a->mem) : json_null(),
            "mean_latency_cycles", a->lat_n ? json_real((double)a->lat_sum / (double)a->lat_n /
                                                        (double)period) : json_null(),
            "replays", a->rep_n ? json_integer(a->rep_sum) : json_null());
        json_array_append_new(all, o);
    }
    return all;
}

json_t *vw_simt_slots(const vw_simt_sum_t *s, unsigned frame)
{
    return slots_json(s->ws, frame, s->ops, s->n_ops, s->period);
}

json_t *vw_simt_slots_decode(tl_run_t *run, unsigned frame, diag_t *d)
{
    if (!has_packs(run)) {
        diag_fail(d, TESS_EINPUT, "no SIMT packs");
        return NULL;
    }
    fold_t f = {.period = (int64_t)tl_run_info(run)->period_ps, .only = (int)(frame % FRAMES),
                .ws = tess_calloc(FRAMES, sizeof *f.ws)};
    vw_simt_win_t all = {0};
    int rc = f.ws ? load_ops(run, &f, d) : diag_fail(d, TESS_ENOMEM, "out of memory");
    if (rc == TESS_OK)
        rc = decode_packs(run, &all, &f, d);
    json_t *o = rc == TESS_OK ? slots_json(f.ws, frame, f.ops, f.n_ops, f.period) : NULL;
    fold_free(&f);
    return o;
}

/* vw_lanes.c — the run page's timeline per pixel column (vw_lanes.h): bank
 * and wait lanes from the SM access packs (exp_acc_begin), the SIMT issue
 * port from its packs (tl_run_issue_window), warp states from simt_warps,
 * simt_mem and the issues. Invariant: memory is bounded by the columns (and
 * VW_DETAIL_MAX rows), never by the run; the summaries in the cache are
 * immutable once built and read under the cache's lock. */
#include "analysis/view/vw_lanes.h"

#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/store/db.h"
#include "analysis/view/vw_cols.h"
#include "analysis/view/vw_simt.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

/* --- the per-run summary ---------------------------------------------------------- */

typedef struct pack {         /* a row of sm_access_packs: when its accesses were */
    int64_t rowid, base, end; /* base INT64_MIN, end INT64_MAX when unknown */
} pack_t;

typedef struct summary {
    int64_t run_id;
    char started[40];         /* runs.started_at: a file made anew has other runs */
    int64_t t0, t1;           /* what it covers: the run's window */
    double bucket_ps;
    unsigned lanes;           /* banks, then TL_CORES cores' waits */
    unsigned banks;
    double *cum;              /* [lane * (VW_BUCKETS + 1) + k]: busy ps before bucket k */
    uint64_t accesses, used;  /* accesses folded in; last use (LRU) */
    pack_t *packs;            /* the run's pack rows: which to read for a window */
    unsigned n_packs;
    vw_simt_sum_t *simt;      /* a SIMT run's issue port and warp states, or NULL */
} summary_t;

struct vw_cache {
    pthread_mutex_t lock;     /* the table */
    pthread_mutex_t build;    /* one build at a time (each is a whole run's pass) */
    summary_t **s;
    unsigned n, max;
    uint64_t clock;
    atomic_bool stop;         /* vw_cache_cancel: builds give up */
    char *db;                 /* the database: a build's second thread opens it too */
};

void vw_cache_cancel(vw_cache_t *c)
{
    if (c)
        atomic_store(&c->stop, true);
}

vw_cache_t *vw_cache_create(const char *db, unsigned runs)
{
    vw_cache_t *c = tess_calloc(1, sizeof *c);
    if (!c || !(c->s = tess_calloc(runs ? runs : 1, sizeof *c->s)) ||
        !(c->db = tess_strdup(db))) {
        if (c)
            tess_free(c->s);
        tess_free(c);
        return NULL;
    }
    c->max = runs ? runs : 1;
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->build, NULL);
    return c;
}

static void summary_free(summary_t *s)
{
    if (s)
        tess_free(s->cum), tess_free(s->packs), vw_simt_free(s->simt);
    tess_free(s);
}

/* The rowids of the run's packs, in order: from the index on run_id, not
 * the packs' rows (their times come with their data, in the pass). */
static int read_rowids(tl_run_t *run, int64_t **ids, unsigned *n, diag_t *d)
{
    sqlite3_stmt *st = tl_run_prepare(run, "SELECT rowid FROM sm_access_packs"
                                           " WHERE run_id = ?1 ORDER BY rowid", d);
    unsigned cap = 0;
    int step = SQLITE_ERROR;
    *ids = NULL, *n = 0;
    while (st && (step = sqlite3_step(st)) == SQLITE_ROW) {
        if (!tl_grow((void **)ids, &cap, *n, sizeof **ids))
            break;
        (*ids)[(*n)++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (step == SQLITE_ROW)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    return step == SQLITE_DONE ? TESS_OK : tl_run_fail(run, "reading sm_access_packs", d);
}

typedef struct packs {        /* pack rows met by a pass (exp_acc_filter_t.on_pack) */
    pack_t *p;
    unsigned n, cap;
} packs_t;

static bool keep_pack(void *arg, int64_t rowid, int64_t base, int64_t end)
{
    packs_t *k = arg;
    if (!tl_grow((void **)&k->p, &k->cap, k->n, sizeof *k->p))
        return false;
    k->p[k->n++] = (pack_t){.rowid = rowid, .base = base, .end = end};
    return true;
}

/* The rowids [*lo, *hi] of the packs overlapping [t0, t1); false: none. */
static bool pack_range(const summary_t *s, int64_t t0, int64_t t1, int64_t *lo, int64_t *hi)
{
    *lo = INT64_MAX, *hi = 0;
    for (unsigned k = 0; k < s->n_packs; k++) {
        const pack_t *p = &s->packs[k];
        if (p->base < t1 && p->end > t0) {
            *lo = p->rowid < *lo ? p->rowid : *lo;
            *hi = p->rowid > *hi ? p->rowid : *hi;
        }
    }
    return *hi > 0;
}

void vw_cache_destroy(vw_cache_t *c)
{
    if (!c)
        return;
    for (unsigned i = 0; i < c->n; i++)
        summary_free(c->s[i]);
    pthread_mutex_destroy(&c->lock);
    pthread_mutex_destroy(&c->build);
    tess_free(c->s);
    tess_free(c->db);
    tess_free(c);
}

/* Folds every access of the packs of rowids [lo, hi] (0, 0: all the run's)
 * into wait (lanes banks..) and bank lanes, keeping the packs' times in
 * `keep`; TESS_EINTERRUPTED when the cache is cancelled meanwhile. */
static int fold_accesses(vw_cache_t *cache, tl_run_t *run, cols_t *c, unsigned banks,
                         int64_t lo, int64_t hi, packs_t *keep, uint64_t *n, diag_t *d)
{
    /* every pack of the rowids (no window: where each lies is kept), the
       accesses clipped to the columns */
    exp_acc_filter_t f = {.frame = -1, .core = -1, .row_lo = lo, .row_hi = hi,
                          .on_pack = keep_pack, .pack_arg = keep};
    exp_acc_iter_t *it = exp_acc_begin(run, &f, d);
    if (!it)
        return d->code;
    exp_access_t a;
    int got;
    while ((got = exp_acc_next(it, &a, d)) == 1) {
        if (!(++*n & 0xffff) && atomic_load(&cache->stop)) {
            exp_acc_end(it);
            return diag_fail(d, TESS_EINTERRUPTED, "the server is stopping");
        }
        cols_add(c, banks + a.core, a.request, a.done != TL_NONE ? a.done : c->t1);
        int64_t free_at = exp_bank_free(run, &a);
        if (free_at != TL_NONE)
            cols_add(c, a.bank, a.grant, free_at);
    }
    exp_acc_end(it);
    return got < 0 ? d->code : TESS_OK;
}

/* Half of a summary's pass: the packs of rowids [lo, hi], on a connection
 * of its own (run.h's reader is one connection: one thread). */
typedef struct half {
    vw_cache_t *cache;
    int64_t run_id, lo, hi;
    cols_t c;
    unsigned banks;
    packs_t packs;
    uint64_t n;
    int rc;
    diag_t d;
} half_t;

static void *fold_half(void *arg)
{
    half_t *h = arg;
    tl_run_t *run = tl_run_open(h->cache->db, h->run_id, &h->d);
    h->rc = run ? fold_accesses(h->cache, run, &h->c, h->banks, h->lo, h->hi, &h->packs, &h->n,
                                &h->d)
                : h->d.code;
    tl_run_close(run);
    return NULL;
}

/* Folds every access of the run into c and keeps where its packs lie (s's
 * packs): the packs in two halves by rowid, the second on a thread of its
 * own (two cores: about half the time). */
static int fold_run(vw_cache_t *cache, tl_run_t *run, summary_t *s, cols_t *c, diag_t *d)
{
    int64_t *ids;
    unsigned n;
    packs_t mine = {0};
    int rc = read_rowids(run, &ids, &n, d);
    if (rc != TESS_OK || n < 2) {
        tess_free(ids);
        if (rc == TESS_OK)
            rc = fold_accesses(cache, run, c, s->banks, 0, 0, &mine, &s->accesses, d);
        s->packs = mine.p, s->n_packs = mine.n;
        return rc;
    }
    half_t h = {.cache = cache, .run_id = s->run_id, .banks = s->banks, .lo = ids[n / 2],
                .hi = ids[n - 1]};
    int64_t first = ids[0];
    tess_free(ids);
    rc = cols_init_units(&h.c, c->lanes, c->n, c->t0, c->t1, c->unit);
    pthread_t t;
    bool threaded = rc == TESS_OK && pthread_create(&t, NULL, fold_half, &h) == 0;
    if (rc == TESS_OK)
        rc = fold_accesses(cache, run, c, s->banks, first, h.lo - 1, &mine, &s->accesses, d);
    if (threaded)
        pthread_join(t, NULL);
    else if (h.c.busy)
        fold_half(&h);
    if (rc == TESS_OK && h.rc != TESS_OK)
        rc = diag_fail(d, h.rc, "%s", h.d.msg);
    for (size_t k = 0; rc == TESS_OK && k < c->lanes * c->stride; k++)
        c->busy[k] += h.c.busy[k];
    s->accesses += h.n;
    tess_free(h.c.busy);
    pack_t *all = rc == TESS_OK ? tess_realloc(mine.p, ((size_t)mine.n + h.packs.n + 1) *
                                                           sizeof *all)
                                : NULL;
    if (all) {
        memcpy(all + mine.n, h.packs.p, h.packs.n * sizeof *all);
        mine.p = all, mine.n += h.packs.n;
    } else if (rc == TESS_OK) {
        rc = TESS_ENOMEM;
    }
    tess_free(h.packs.p);
    s->packs = mine.p, s->n_packs = mine.n;
    return rc == TESS_OK || rc != TESS_ENOMEM ? rc : diag_fail(d, rc, "out of memory");
}

/* A SIMT run's part of the summary (vw_simt_build), on a thread and a
 * connection of its own while the accesses are folded. */
typedef struct simt_job {
    vw_cache_t *cache;
    int64_t run_id, t0, t1, unit;
    vw_simt_sum_t *sum;
    int rc;
    diag_t d;
} simt_job_t;

static void *simt_pass(void *arg)
{
    simt_job_t *j = arg;
    tl_run_t *run = tl_run_open(j->cache->db, j->run_id, &j->d);
    j->rc = run ? vw_simt_build(run, j->t0, j->t1, j->unit, VW_BUCKETS, &j->cache->stop, &j->sum,
                                &j->d)
                : j->d.code;
    tl_run_close(run);
    return NULL;
}

static summary_t *summary_build(vw_cache_t *cache, tl_run_t *run, diag_t *d)
{
    const tl_info_t *i = tl_run_info(run);
    int64_t t0, t1;
    if (tl_run_window(run, 0, 0, &t0, &t1, d) != TESS_OK)
        return NULL;
    summary_t *s = tess_calloc(1, sizeof *s);
    cols_t c = {0};
    int64_t unit = (t1 - t0 + VW_BUCKETS - 1) / VW_BUCKETS; /* whole ps: exact sums */
    if (!s || cols_init_units(&c, i->banks + TL_CORES, VW_BUCKETS, t0, t1, unit) != TESS_OK) {
        tess_free(s);
        diag_fail(d, TESS_ENOMEM, "out of memory");
        return NULL;
    }
    s->run_id = i->run_id, s->t0 = t0, s->t1 = t1, s->bucket_ps = c.col_ps;
    s->lanes = c.lanes, s->banks = i->banks;
    snprintf(s->started, sizeof s->started, "%s", i->started_at);
    simt_job_t j = {.cache = cache, .run_id = s->run_id, .t0 = t0, .t1 = t1, .unit = unit};
    pthread_t t;
    bool threaded = pthread_create(&t, NULL, simt_pass, &j) == 0;
    int rc = fold_run(cache, run, s, &c, d);
    if (threaded)
        pthread_join(t, NULL);
    else
        j.rc = vw_simt_build(run, t0, t1, unit, VW_BUCKETS, &cache->stop, &j.sum, &j.d);
    s->simt = j.sum;
    if (rc == TESS_OK && j.rc != TESS_OK)
        rc = diag_fail(d, j.rc, "%s", j.d.msg);
    if (rc == TESS_OK &&
        !(s->cum = tess_malloc((size_t)s->lanes * (VW_BUCKETS + 1) * sizeof *s->cum)))
        rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    if (rc != TESS_OK) {
        tess_free(c.busy);
        summary_free(s);
        return NULL;
    }
    for (unsigned l = 0; l < s->lanes; l++) {
        double *cum = s->cum + (size_t)l * (VW_BUCKETS + 1), sum = 0;
        cum[0] = 0;
        for (unsigned k = 0; k < VW_BUCKETS; k++)
            cum[k + 1] = sum += cols_row(&c, l)[k];
    }
    tess_free(c.busy);
    return s;
}

static summary_t *cache_find(vw_cache_t *c, const tl_info_t *i)
{
    for (unsigned k = 0; k < c->n; k++)
        if (c->s[k]->run_id == i->run_id && !strcmp(c->s[k]->started, i->started_at)) {
            c->s[k]->used = ++c->clock;
            return c->s[k];
        }
    return NULL;
}

static void cache_put(vw_cache_t *c, summary_t *s)
{
    s->used = ++c->clock;
    if (c->n < c->max) {
        c->s[c->n++] = s;
        return;
    }
    unsigned old = 0;
    for (unsigned k = 1; k < c->n; k++)
        old = c->s[k]->used < c->s[old]->used ? k : old;
    summary_free(c->s[old]);
    c->s[old] = s;
}

/* The columns of c from the summary: each a whole number k >= 2 of its
 * buckets (so each value is exact), the first one starting at the bucket
 * that holds t0, as many as reach t1 (c->n, c0 and col_ps change). */
static bool summary_cols(const summary_t *s, cols_t *c)
{
    unsigned k = (unsigned)(c->col_ps / s->bucket_ps);
    unsigned b0 = (unsigned)((double)(c->t0 - s->t0) / s->bucket_ps);
    b0 = b0 >= VW_BUCKETS ? VW_BUCKETS - 1 : b0;
    unsigned b1 = (unsigned)ceil((double)(c->t1 - s->t0) / s->bucket_ps);
    b1 = b1 > VW_BUCKETS ? VW_BUCKETS : b1;
    unsigned n = (b1 - b0 + k - 1) / k;
    double *busy = tess_calloc((size_t)n * c->lanes, sizeof *busy);
    if (!busy)
        return false;
    for (unsigned l = 0; l < c->lanes && l < s->lanes; l++) {
        const double *cum = s->cum + (size_t)l * (VW_BUCKETS + 1);
        for (unsigned j = 0; j < n; j++) {
            unsigned a = b0 + j * k, b = a + k > VW_BUCKETS ? VW_BUCKETS : a + k;
            busy[(size_t)l * n + j] = cum[b] - cum[a];
        }
    }
    tess_free(c->busy);
    c->busy = busy, c->n = n, c->stride = n;
    c->col_ps = k * s->bucket_ps, c->c0 = (double)s->t0 + b0 * s->bucket_ps;
    return true;
}

/* What the run's summary (built here if need be) gives for c's window:
 * the columns themselves (*done) when the run has many accesses and the
 * columns are wider than two buckets, else the rowids [f->row_lo, row_hi]
 * of the packs to decode (*none: no pack overlaps). Nothing (a decode of
 * every pack) for a run that may still change. */
static int from_summary(vw_cache_t *cache, tl_run_t *run, bool exact, cols_t *c, bool *done,
                        bool *none, exp_acc_filter_t *f, vw_simt_win_t *sw, diag_t *d)
{
    const tl_info_t *i = tl_run_info(run);
    int rc = TESS_OK;
    *done = *none = false;
    if (!cache || !strcmp(i->status, DB_STATUS_RUNNING_NAME))
        return TESS_OK;
    pthread_mutex_lock(&cache->lock);
    summary_t *s = cache_find(cache, i);
    pthread_mutex_unlock(&cache->lock);
    if (!s) {
        pthread_mutex_lock(&cache->build);
        pthread_mutex_lock(&cache->lock);
        s = cache_find(cache, i);
        pthread_mutex_unlock(&cache->lock);
        if (!s && (s = summary_build(cache, run, d)) != NULL) {
            pthread_mutex_lock(&cache->lock);
            cache_put(cache, s);
            pthread_mutex_unlock(&cache->lock);
        }
        pthread_mutex_unlock(&cache->build);
        if (!s)
            return d->code;
    }
    pthread_mutex_lock(&cache->lock); /* s stays in the table while we hold it */
    if ((s = cache_find(cache, i)) != NULL && sw &&
        vw_simt_plan(s->simt, c->t0, c->t1, c->n, exact, sw) != TESS_OK)
        rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    if (s && rc == TESS_OK) {
        *done = !exact && s->accesses > VW_EXACT_MAX && c->t0 >= s->t0 && c->t1 <= s->t1 &&
                c->col_ps >= 2.0 * s->bucket_ps;
        if (*done && !summary_cols(s, c))
            rc = diag_fail(d, TESS_ENOMEM, "out of memory");
        *none = !*done && !pack_range(s, c->t0, c->t1, &f->row_lo, &f->row_hi);
    }
    pthread_mutex_unlock(&cache->lock);
    return rc;
}

json_t *vw_warp_slots(vw_cache_t *cache, tl_run_t *run, unsigned frame, diag_t *d)
{
    const tl_info_t *i = tl_run_info(run);
    json_t *o = NULL;
    if (cache) {
        pthread_mutex_lock(&cache->lock);
        summary_t *s = strcmp(i->status, DB_STATUS_RUNNING_NAME) ? cache_find(cache, i) : NULL;
        if (s && s->simt && !(o = vw_simt_slots(s->simt, frame)))
            diag_fail(d, TESS_ENOMEM, "out of memory");
        pthread_mutex_unlock(&cache->lock);
        if (s && s->simt)
            return o;
    }
    return vw_simt_slots_decode(run, frame, d);
}

/* The ids of the newest `n` finished runs recorded at level mem or above. */
static unsigned newest_runs(const char *db, int64_t *ids, unsigned n, diag_t *d)
{
    sqlite3 *h = db_open_read(db, NULL, d);
    sqlite3_stmt *st = NULL;
    unsigned k = 0;
    if (h && sqlite3_prepare_v2(h, "SELECT run_id, level FROM runs WHERE status <> "
                                   DB_SQL_TEXT(DB_STATUS_RUNNING_NAME) " ORDER BY run_id DESC",
                                -1, &st, NULL) == SQLITE_OK)
        while (k < n && sqlite3_step(st) == SQLITE_ROW) {
            const char *level = (const char *)sqlite3_column_text(st, 1);
            if (level && db_level_from_name(level) >= REC_MEM)
                ids[k++] = sqlite3_column_int64(st, 0);
        }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return k;
}

int vw_cache_warm(vw_cache_t *c, const char *db, diag_t *d)
{
    int64_t ids[16];
    unsigned n = newest_runs(db, ids, c->max / 2 > 16 ? 16 : c->max / 2, d);
    /* the newest first: the run a study's viewer most likely opens first is
       ready soonest (then each is touched again, oldest first, so that the
       cache keeps the newest longest) */
    for (unsigned k = 0; k < n && !atomic_load(&c->stop); k++) {
        tl_run_t *run = tl_run_open(db, ids[k], d);
        if (!run)
            return d->code;
        cols_t cols = {0};
        bool done, none;
        exp_acc_filter_t f = {.frame = -1, .core = -1};
        int64_t t0, t1;
        int rc = tl_run_window(run, 0, 0, &t0, &t1, d);
        if (rc == TESS_OK)
            rc = cols_init(&cols, 1, 1, t0, t1);
        if (rc == TESS_OK)
            rc = from_summary(c, run, false, &cols, &done, &none, &f, NULL, d);
        tess_free(cols.busy);
        tl_run_close(run);
        if (rc != TESS_OK)
            return rc;
    }
    pthread_mutex_lock(&c->lock);
    for (unsigned k = n; k-- > 0;)
        for (unsigned j = 0; j < c->n; j++)
            c->s[j]->used = c->s[j]->run_id == ids[k] ? ++c->clock : c->s[j]->used;
    pthread_mutex_unlock(&c->lock);
    return TESS_OK;
}

/* --- the window decoded ------------------------------------------------------------ */

static json_t *time_or_null(int64_t t) { return t == TL_NONE ? json_null() : json_integer(t); }

static json_t *access_row(tl_run_t *run, const exp_access_t *a)
{
    return json_pack("[iiiisiiiooooo]", (json_int_t)a->frame, (json_int_t)a->core,
                     (json_int_t)a->idx, (json_int_t)a->sync, a->store ? "st" : "ld",
                     (json_int_t)a->addr, (json_int_t)a->bank, (json_int_t)a->value,
                     time_or_null(a->request), time_or_null(a->arrive), time_or_null(a->grant),
                     time_or_null(a->done), time_or_null(exp_bank_free(run, a)));
}

/* Folds the window's accesses into c and keeps them one by one in `rows`
 * while there are at most VW_DETAIL_MAX (then rows becomes JSON null). */
static int decode_window(tl_run_t *run, cols_t *c, unsigned banks, exp_acc_filter_t *f,
                         json_t *out, diag_t *d)
{
    exp_acc_iter_t *it = exp_acc_begin(run, f, d);
    if (!it)
        return d->code;
    json_t *rows = json_array();
    exp_access_t a;
    int got;
    uint64_t n = 0;
    while ((got = exp_acc_next(it, &a, d)) == 1) {
        n++;
        cols_add(c, banks + a.core, a.request, a.done != TL_NONE ? a.done : c->t1);
        int64_t free_at = exp_bank_free(run, &a);
        if (free_at != TL_NONE)
            cols_add(c, a.bank, a.grant, free_at);
        if (rows && n > VW_DETAIL_MAX)
            json_decref(rows), rows = NULL;
        else if (rows)
            json_array_append_new(rows, access_row(run, &a));
    }
    exp_acc_end(it);
    json_object_set_new(out, "accesses", json_integer((json_int_t)n));
    json_object_set_new(out, "detail", rows ? rows : json_null());
    return got < 0 ? d->code : TESS_OK;
}

/* --- waits at convergence barriers ---------------------------------------------------- */

typedef struct barrier_fold {
    cols_t c;                 /* a row per lane: its waiting ps per column */
    json_t *rows;             /* the waits one by one, or NULL past VW_DETAIL_MAX */
    uint64_t n;
} barrier_fold_t;

static int fold_wait(void *arg, const tl_wait_t *w)
{
    barrier_fold_t *f = arg;
    int64_t to = w->to == TL_NONE ? f->c.t1 : w->to;
    for (unsigned m = w->lanes; m; m &= m - 1)
        cols_add(&f->c, (unsigned)__builtin_ctz(m), w->from, to);
    if (f->rows && ++f->n > VW_DETAIL_MAX)
        json_decref(f->rows), f->rows = NULL;
    else if (f->rows && json_array_append_new(f->rows, json_pack("[iiiIo]", (int)w->frame,
                                                                  (int)w->slot, (int)w->lanes,
                                                                  (json_int_t)w->from,
                                                                  time_or_null(w->to))) != 0)
        return TESS_ENOMEM;
    return TESS_OK;
}

/* A barrier run's (simt.reconvergence = barrier, level events) waits of
 * thread groups at convergence barriers in the window (simt_waits, S14), as
 * "barrier": {c0_ps, col_ps, cols, shares: each lane's share of each column
 * spent waiting, detail: [frame, slot, lanes, from_ps, to_ps or null] per
 * wait while there are at most VW_DETAIL_MAX, else null}; nothing for
 * other runs. */
static int barrier_part(tl_run_t *run, int64_t t0, int64_t t1, unsigned cols, json_t *out,
                        diag_t *d)
{
    bool groups = false;
    int rc = tl_run_info(run)->level >= REC_EVENTS ? tl_run_thread_groups(run, &groups, d)
                                                   : TESS_OK;
    if (rc != TESS_OK || !groups)
        return rc;
    barrier_fold_t f = {.rows = json_array()};
    rc = f.rows ? cols_init(&f.c, TL_CORES, cols, t0, t1) : TESS_ENOMEM;
    if (rc == TESS_OK)
        rc = tl_run_waits(run, t0, t1, fold_wait, &f, d);
    json_t *b = rc == TESS_OK ? json_pack("{s:o,s:o,s:i,s:o,s:o}", "c0_ps", ps_json(f.c.c0),
                                          "col_ps", ps_json(f.c.col_ps), "cols", (int)f.c.n,
                                          "shares", cols_json(&f.c, 0, TL_CORES), "detail",
                                          f.rows ? json_incref(f.rows) : json_null())
                              : NULL;
    if (rc == TESS_OK && (!b || json_object_set_new(out, "barrier", b) != 0))
        rc = TESS_ENOMEM;
    json_decref(f.rows);
    tess_free(f.c.busy);
    return rc;
}

/* --- the answer --------------------------------------------------------------------- */

json_t *vw_timeline(vw_cache_t *cache, tl_run_t *run, int64_t t0, int64_t t1, unsigned cols,
                    bool exact, diag_t *d)
{
    const tl_info_t *i = tl_run_info(run);
    json_t *out = json_pack("{s:I,s:I,s:i,s:f}", "from_ps", (json_int_t)t0, "to_ps",
                            (json_int_t)t1, "cols", (int)cols, "col_ps",
                            (double)(t1 - t0) / cols);
    cols_t c = {0};
    vw_simt_win_t sw = {0};
    int rc = out ? cols_init(&c, i->banks + TL_CORES, cols, t0, t1) : TESS_ENOMEM;
    if (rc == TESS_OK && i->level >= REC_MEM) {
        bool done, none;
        exp_acc_filter_t f = {.from = (uint64_t)t0, .to = (uint64_t)t1, .frame = -1, .core = -1};
        rc = from_summary(cache, run, exact, &c, &done, &none, &f, &sw, d);
        if (rc == TESS_OK && done) {
            json_object_set_new(out, "source", json_string("summary"));
            json_object_set_new(out, "detail", json_null());
        } else if (rc == TESS_OK && none) {
            json_object_set_new(out, "source", json_string("packs"));
            json_object_set_new(out, "accesses", json_integer(0));
            json_object_set_new(out, "detail", json_array());
        } else if (rc == TESS_OK) {
            json_object_set_new(out, "source", json_string("packs"));
            rc = decode_window(run, &c, i->banks, &f, out, d);
        }
        if (rc == TESS_OK) {
            json_object_set_new(out, "lanes", json_pack("{s:o,s:o,s:i}", "c0_ps", ps_json(c.c0),
                                                         "col_ps", ps_json(c.col_ps), "cols",
                                                         (int)c.n));
            json_object_set_new(out, "banks", cols_json(&c, 0, i->banks));
            json_object_set_new(out, "waits", cols_json(&c, i->banks, TL_CORES));
        }
    }
    if (rc == TESS_OK)
        rc = vw_simt_part(run, &sw, t0, t1, cols, out, d);
    else
        vw_simt_win_free(&sw);
    if (rc == TESS_OK)
        rc = barrier_part(run, t0, t1, cols, out, d);
    tess_free(c.busy);
    if (rc != TESS_OK) {
        if (rc == TESS_ENOMEM)
            diag_fail(d, TESS_ENOMEM, "out of memory");
        json_decref(out);
        return NULL;
    }
    return out;
}

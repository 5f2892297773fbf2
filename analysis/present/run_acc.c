/* run_acc.c — a recorded run's SM accesses decoded from their packs
 * (docs/SCHEMA.md) as a stream, and the cut that bounds how many a trace
 * keeps (run.h).
 * Invariant: one pack is held per open stream, never the whole run. */
#include "analysis/present/run.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/store/db.h"
#include "analysis/store/pack.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

#define FOREVER INT64_MAX

struct exp_acc_iter {
    sqlite3_stmt *st;         /* the packs */
    tl_run_t *run;
    exp_acc_filter_t f;
    int64_t end;              /* keep requests before this */
    const char *p, *p_end;    /* the next element of the current pack's data, its end */
    unsigned frame, core;     /* the current pack… */
    int64_t idx, base, scale, shift;
    uint64_t bank_n, wait_n, arrive_n, done_n; /* the radices (store/pack.h) */
    int64_t wait_dt, arrive_dt, done_dt;       /* the offsets (0 when NULL) */
    bool null_a, null_w, null_d;
    unsigned banks, bank_mask; /* the run's banks; banks - 1 when a power of two, else 0 */
};

int64_t exp_bank_free(const tl_run_t *r, const exp_access_t *a)
{
    const tl_info_t *info = tl_run_info(r);
    if (a->grant == TL_NONE)
        return TL_NONE;
    if (info->bank_ps > 0)
        return a->grant + (int64_t)info->bank_ps;
    if (info->resp_ps != UINT64_MAX && a->done != TL_NONE &&
        a->done - (int64_t)info->resp_ps > a->grant)
        return a->done - (int64_t)info->resp_ps;
    return a->grant + (int64_t)info->period_ps;
}

/* --- streaming accesses ----------------------------------------------------------- */

/* Accesses are decoded from sm_access_packs in C by the formula of
 * docs/SCHEMA.md: the sm_accesses view computes the same columns, but at
 * several seconds per million accesses, and a test checks that both agree.
 * Packs come in index order (frame, core, part), so the accesses of one core
 * task come in program order. */
static int64_t window_end(uint64_t to) { return to ? (int64_t)to : FOREVER; }

exp_acc_iter_t *exp_acc_begin(tl_run_t *r, const exp_acc_filter_t *f, diag_t *d)
{
    bool one = f->frame >= 0 && f->core >= 0, rows = f->row_hi > 0;
    char sql[600];
    /* with a rowid range, the rows in rowid order (+run_id: not through the
       run's index, which would visit every pack of the run; no sort of the
       packs' data); a core task's packs were written in order of part */
    snprintf(sql, sizeof sql,
             "SELECT frame, core, idx0, base_ps, scale_ps, bank_shift, arrive_dt, arrive_n,"
             " wait_dt, wait_n, done_dt, done_n, data, rowid, end_ps FROM sm_access_packs"
             " WHERE %s = ?1"
             " AND (base_ps IS NULL OR base_ps < ?3) AND (end_ps IS NULL OR end_ps > ?2)%s%s"
             " ORDER BY %s", rows ? "+run_id" : "run_id",
             one ? " AND frame = ?4 AND core = ?5" : "",
             rows ? " AND rowid BETWEEN ?6 AND ?7" : "", rows ? "rowid" : "frame, core, part");
    exp_acc_iter_t *it = tess_calloc(1, sizeof *it);
    if (!it) {
        diag_fail(d, TESS_ENOMEM, "out of memory");
        return NULL;
    }
    it->run = r, it->f = *f;
    it->banks = tl_run_info(r)->banks;
    it->bank_mask = it->banks && !(it->banks & (it->banks - 1)) ? it->banks - 1 : 0;
    it->end = window_end(f->to);
    if (f->cut && (int64_t)f->cut < it->end)
        it->end = (int64_t)f->cut;
    if (!(it->st = tl_run_prepare(r, sql, d))) {
        tess_free(it);
        return NULL;
    }
    sqlite3_bind_int64(it->st, 2, (int64_t)f->from);
    sqlite3_bind_int64(it->st, 3, it->end);
    if (one)
        sqlite3_bind_int(it->st, 4, f->frame), sqlite3_bind_int(it->st, 5, f->core);
    if (rows)
        sqlite3_bind_int64(it->st, 6, f->row_lo), sqlite3_bind_int64(it->st, 7, f->row_hi);
    return it;
}

static int64_t radix(sqlite3_stmt *st, int i)
{
    int64_t v = sqlite3_column_int64(st, i);
    return v > 0 ? v : 1;
}

/* Moves to the next pack: 1, 0 at the end, -1 on failure. */
static int next_pack(exp_acc_iter_t *it, diag_t *d)
{
    int step = sqlite3_step(it->st);
    if (step != SQLITE_ROW) {
        it->p = NULL;
        return step == SQLITE_DONE ? 0 : (tl_run_fail(it->run, "reading sm_access_packs", d), -1);
    }
    sqlite3_stmt *st = it->st;
    it->frame = (unsigned)sqlite3_column_int(st, 0) & 63;
    it->core = (unsigned)sqlite3_column_int(st, 1) & 15;
    it->idx = sqlite3_column_int64(st, 2);
    it->base = tl_col_time(st, 3), it->scale = sqlite3_column_int64(st, 4);
    it->shift = tl_col_time(st, 5);
    it->bank_n = it->shift == TL_NONE ? it->banks : 1;
    it->arrive_dt = sqlite3_column_int64(st, 6), it->arrive_n = (uint64_t)radix(st, 7);
    it->wait_dt = sqlite3_column_int64(st, 8), it->wait_n = (uint64_t)radix(st, 9);
    it->done_dt = sqlite3_column_int64(st, 10), it->done_n = (uint64_t)radix(st, 11);
    it->null_a = sqlite3_column_type(st, 6) == SQLITE_NULL;
    it->null_w = sqlite3_column_type(st, 8) == SQLITE_NULL;
    it->null_d = sqlite3_column_type(st, 10) == SQLITE_NULL;
    it->p = (const char *)sqlite3_column_text(st, 12);
    it->p_end = it->p ? it->p + sqlite3_column_bytes(st, 12) : NULL;
    if (it->p && *it->p == '[')
        it->p++;
    if (it->f.on_pack &&
        !it->f.on_pack(it->f.pack_arg, sqlite3_column_int64(st, 13),
                       it->base == TL_NONE ? INT64_MIN : it->base,
                       sqlite3_column_type(st, 14) == SQLITE_NULL ? INT64_MAX
                                                                 : sqlite3_column_int64(st, 14))) {
        it->p = NULL;
        diag_fail(d, TESS_ENOMEM, "out of memory");
        return -1;
    }
    return 1;
}

/* The value of the 8 ASCII digits at p (read as a little-endian word
 * whatever the host), or -1 when they are not all digits: three multiplies
 * instead of eight dependent ones. */
static int64_t eight_digits(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    uint64_t x = (uint64_t)u[0] | (uint64_t)u[1] << 8 | (uint64_t)u[2] << 16 |
                 (uint64_t)u[3] << 24 | (uint64_t)u[4] << 32 | (uint64_t)u[5] << 40 |
                 (uint64_t)u[6] << 48 | (uint64_t)u[7] << 56; /* one load on most hosts */
    if ((((x & 0xf0f0f0f0f0f0f0f0u) | (((x + 0x0606060606060606u) & 0xf0f0f0f0f0f0f0f0u) >> 4)))
        != 0x3333333333333333u)
        return -1;
    x -= 0x3030303030303030u;
    x = x * 10 + (x >> 8);            /* pairs of digits in bytes 0, 2, 4, 6 */
    x = ((x & 0x000000ff000000ffu) * (100 + (1000000ull << 32)) +
         ((x >> 16) & 0x000000ff000000ffu) * (1 + (10000ull << 32))) >> 32;
    return (int64_t)(uint32_t)x;
}

/* The next integer of the pack's JSON array; false at its end. Digits are
 * read here, eight at a time while there are eight, not by strtoull (a
 * fifth of a whole run's pass went to its generality); q < 2^62 in a pack,
 * a longer number (a damaged file) wraps, as any other wrong digit gives a
 * wrong access, never a crash. */
static bool next_value(exp_acc_iter_t *it, uint64_t *q)
{
    const char *p = it->p;
    while (p && (*p == ' ' || *p == ',' || *p == '\n' || *p == '\t'))
        p++;
    if (!p || (unsigned)(*p - '0') > 9)
        return false;
    uint64_t v = 0;
    int64_t e;
    while (it->p_end - p >= 8 && (e = eight_digits(p)) >= 0)
        v = v * 100000000u + (uint64_t)e, p += 8;
    while ((unsigned)(*p - '0') <= 9)
        v = v * 10 + (uint64_t)(*p++ - '0');
    *q = v;
    it->p = p;
    return true;
}

/* Access q of the current pack, its digits taken as store/pack.h's
 * PACK_DIGITS say, the least significant first; a digit of radix 1 (the
 * times of most packs) costs no division. */
#define ACC_COL(A, c) (A)->c
#define ACC_DIGIT(A, digit, radix, offset, place)                                \
    int64_t digit = (int64_t)(offset);                                           \
    if ((radix) != 1)                                                            \
        digit += (int64_t)(q % (uint64_t)(radix)), q /= (uint64_t)(radix);

static void decode(const exp_acc_iter_t *it, uint64_t q, exp_access_t *a)
{
    PACK_DIGITS(ACC_DIGIT, ACC_COL, it)
    const int64_t t = (int64_t)q;
    a->frame = it->frame, a->core = it->core, a->idx = it->idx;
    a->store = (flags & PACK_FLAG_STORE) != 0, a->sync = (flags & PACK_FLAG_SYNC) != 0;
    a->value = (unsigned)value, a->addr = (unsigned)addr;
    unsigned from_addr = a->addr >> (it->shift & 15);
    a->bank = it->shift == TL_NONE ? (unsigned)bank
              : it->bank_mask       ? from_addr & it->bank_mask
                                    : from_addr % it->banks;
    bool known = it->base != TL_NONE;
    a->request = known ? it->base + it->scale * t : TL_NONE;
    known = known && !it->null_a;
    a->arrive = known ? it->base + it->scale * (t + arrive) : TL_NONE;
    known = known && !it->null_w;
    a->grant = known ? it->base + it->scale * (t + arrive + wait) : TL_NONE;
    known = known && !it->null_d;
    a->done = known ? it->base + it->scale * (t + arrive + wait + done) : TL_NONE;
}

int exp_acc_next(exp_acc_iter_t *it, exp_access_t *a, diag_t *d)
{
    for (;;) {
        uint64_t q;
        if (!next_value(it, &q)) {
            int rc = next_pack(it, d);
            if (rc <= 0)
                return rc;
            continue;
        }
        decode(it, q, a);
        it->idx++;
        if (a->request != TL_NONE && a->request < it->end &&
            (a->done == TL_NONE || a->done > (int64_t)it->f.from))
            return 1;
    }
}

void exp_acc_end(exp_acc_iter_t *it)
{
    if (it)
        sqlite3_finalize(it->st);
    tess_free(it);
}

/* Pass 1, over the pack rows only: the accesses overlapping the window in
 * all, and the earliest pack end by which more than `max` of them have been
 * answered (so requested); FOREVER when they all fit. */
static int pack_bound(tl_run_t *r, uint64_t from, uint64_t to, uint64_t max, int64_t *bound,
                      uint64_t *total, diag_t *d)
{
    sqlite3_stmt *st = tl_run_prepare(r,
        "SELECT coalesce(end_ps, ?3), n FROM sm_access_packs WHERE run_id = ?1"
        " AND (base_ps IS NULL OR base_ps < ?3) AND (end_ps IS NULL OR end_ps > ?2)"
        " ORDER BY 1", d);
    if (!st)
        return TESS_EDB;
    sqlite3_bind_int64(st, 2, (int64_t)from);
    sqlite3_bind_int64(st, 3, window_end(to));
    *bound = FOREVER, *total = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        *total += (uint64_t)sqlite3_column_int64(st, 1);
        if (*bound == FOREVER && *total > max)
            *bound = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return step == SQLITE_DONE ? TESS_OK : tl_run_fail(r, "reading sm_access_packs", d);
}

/* Keeps the k smallest values seen in a max-heap h[0..*n). */
static void keep_smallest(int64_t *h, uint64_t *n, uint64_t k, int64_t v)
{
    uint64_t i;
    if (*n < k) {
        for (i = (*n)++; i > 0 && h[(i - 1) / 2] < v; i = (i - 1) / 2)
            h[i] = h[(i - 1) / 2];
        h[i] = v;
        return;
    }
    if (v >= h[0])
        return;
    for (i = 0;;) {
        uint64_t c = 2 * i + 1;
        if (c >= *n)
            break;
        c += c + 1 < *n && h[c + 1] > h[c];
        if (h[c] <= v)
            break;
        h[i] = h[c], i = c;
    }
    h[i] = v;
}

/* Pass 2: the (max + 1)-th smallest request time, over the accesses
 * requested before `bound` (more than max of them). */
static int nth_request(tl_run_t *r, uint64_t from, uint64_t to, uint64_t max, int64_t bound,
                       uint64_t *cut, diag_t *d)
{
    uint64_t k = max + 1, n = 0;
    int64_t *h = tess_malloc(k * sizeof *h);
    exp_acc_filter_t f = {.from = from, .to = to, .cut = (uint64_t)bound, .frame = -1,
                          .core = -1};
    exp_acc_iter_t *it = h ? exp_acc_begin(r, &f, d) : NULL;
    if (!it) {
        tess_free(h);
        return h ? d->code : diag_fail(d, TESS_ENOMEM, "out of memory (--max-accesses %llu)",
                                       (unsigned long long)max);
    }
    exp_access_t a;
    int got;
    while ((got = exp_acc_next(it, &a, d)) == 1)
        keep_smallest(h, &n, k, a.request);
    exp_acc_end(it);
    *cut = n == k ? (uint64_t)h[0] : 0;
    tess_free(h);
    return got < 0 ? d->code : TESS_OK;
}

int exp_acc_cut(tl_run_t *r, uint64_t from, uint64_t to, uint64_t max, exp_acc_cut_t *c,
                diag_t *d)
{
    int64_t bound;
    memset(c, 0, sizeof *c);
    int rc = pack_bound(r, from, to, max, &bound, &c->total, d);
    if (rc != TESS_OK || bound == FOREVER) {
        c->kept = c->total;
        return rc;
    }
    rc = nth_request(r, from, to, max, bound, &c->cut, d);
    c->kept = c->cut ? max : c->total;
    return rc;
}

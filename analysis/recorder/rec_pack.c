/* rec_pack.c — SM access packing, on the writer thread: the accesses of one
 * core task become sm_access_packs rows of at most REC_PACK_MAX accesses
 * whose requests span fewer than REC_SPAN_MAX cycles, each access one
 * integer of a JSON array that the sm_accesses view expands again with
 * json_each and integer arithmetic (the layout: store/pack.h). Invariant:
 * packs[c] holds only accesses of core c's current task (task_frame), in
 * arrival order, every time a whole multiple of row.scale_ps; an access that
 * fits no pack (irregular times, never seen from the model) is a pack alone.
 *
 * Why this design (measured with bench_rec and `tessera run
 * examples/bench.s`, 12.6 M accesses; figures in docs/PERFORMANCE-HISTORY.md):
 * - One INSERT per access: ~0.4-1.8 us and ~44 bytes per access in the
 *   file even prepared, batched and journal-less — level mem would cost
 *   many times the simulation.
 * - Packs of JSON arrays [t,a,g,d,addr,k,value] per access (the first
 *   version): ~25 bytes per access, 3.1x the summary level on the real model.
 *   On this kind of host the writer's cost is per byte (WAL write, the
 *   checkpoint's read and write, fsync under synchronous=NORMAL), so the
 *   format had to be dense: one integer per access in a mixed radix sized per
 *   pack (latencies and the bank map hoisted into the row) is ~10.5 bytes of
 *   text and ~11.5 in the file; 2.2x the summary level.
 * - The view decodes integers with arithmetic: 10x faster to query than
 *   json_extract on small arrays; and it is one SELECT (a UNION ALL view is
 *   run as a co-routine computing every column: 20 s instead of 2 s for a
 *   sum over 12.6 M accesses).
 * - A BLOB of varints is smaller still (~7 bytes) and cheaper to make, but
 *   plain SQL cannot expand it: the view would need a loadable extension and
 *   the stock sqlite3 shell could not read the file.
 * - The model (simulation thread) only appends its 48-byte trace record to
 *   the batch (the access sink, rec_hook.c); the checks, packing and text are
 *   made here, on the writer thread, so that the two threads' loads balance.
 * - Per access the packer does as little as it can (193 -> 84 host
 *   instructions, callgrind on bench.s): a fast path for an access that
 *   joins its core's open pack (append_fast: the times divided by the period
 *   with a multiply and a rotate each, the four checked at once), entries
 *   stored as they come, and the ranges and bank map found once, when the
 *   pack closes, over its whole arrays. */
#include <stdlib.h>
#include <string.h>

#include "analysis/recorder/rec_int.h"
#include "analysis/store/pack.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

/* Why an access does not fit the open pack. */
enum {
    FIT_OK = 0,
    FIT_SCALE,      /* a time is not a multiple of the pack's scale */
    FIT_SPAN,       /* the request is before base_ps or REC_SPAN_MAX cycles after */
};

static void pack_open(rec_pack_t *p, unsigned frame, unsigned core, sim_time_t base,
                      uint64_t scale)
{
    p->row.frame = (uint8_t)frame;
    p->row.core = (uint8_t)core;
    p->row.part = p->next_part;
    p->row.idx0 = p->task_n;
    p->row.n = 0;
    p->row.base_ps = base;
    p->row.scale_ps = scale;
    p->row.end_ps = 0;
}

/* Stores an access that fits the open pack (t, da, dg, dd in its scale;
 * done its done time). The fields are stored one by one, and read back only
 * when the pack closes, long after. */
static inline void store(rec_pack_t *p, uint32_t n, const gpu_tr_access_t *a, uint64_t t,
                         uint64_t da,
                         uint64_t dg, uint64_t dd, sim_time_t done)
{
    uint64_t low = REC_LOW(a->bank, a->addr, a->value, rec_acc_flags(a)); /* before the
        stores, which could alias *a as far as the compiler knows */
    rec_times_t *e = &p->times[n];
    e->t = (uint32_t)t;
    e->a = (uint32_t)da;
    e->g = (uint32_t)dg;
    e->d = (uint32_t)dd;
    p->low[n] = low;
    p->row.end_ps = done > p->row.end_ps ? done : p->row.end_ps;
    p->row.n = n + 1;
}

/* Adds `a` (rec_acc_regular) to the open pack, or says why it does not fit
 * (nothing added). */
static int append(const rec_writer_t *w, rec_pack_t *p, const gpu_tr_access_t *a)
{
    uint64_t t = a->request_ps - p->row.base_ps, da = a->arrive_ps - a->request_ps;
    uint64_t dg = a->grant_ps - a->arrive_ps, dd = a->done_ps - a->grant_ps;
    if (a->request_ps < p->row.base_ps || t >= w->span_ps)
        return FIT_SPAN;
    if (p->row.scale_ps != 1) {
        const rec_div_t *d = &w->period_div;
        if (!((int)rec_div_exact(d, t, &t) & (int)rec_div_exact(d, da, &da) &
              (int)rec_div_exact(d, dg, &dg) & (int)rec_div_exact(d, dd, &dd)))
            return FIT_SCALE;
    }
    store(p, p->row.n, a, t, da, dg, dd, a->done_ps);
    return FIT_OK;
}

/* The common case, what rec_pack_access does when the access is regular
 * (rec_acc_regular: the three intervals below 2^32, done below 2^63; the
 * request then is too, as it is within the span of a pack's base) and
 * belongs to its core's open pack, within its span, every time a multiple
 * of its scale: the four quotients checked at once (or'ed below the bound
 * of one, a sufficient test; anything else takes the exact path). d and
 * span are the writer's, copied to locals by the caller (stores to the pack
 * could alias them). false: nothing done. */
static inline bool append_fast(rec_writer_t *w, const gpu_tr_access_t *a, const rec_div_t *d,
                               uint64_t span)
{
    unsigned core = a->core;
    if (core >= GPU_CORES)
        return false;
    rec_pack_t *p = &w->packs[core];
    uint32_t n = p->row.n;
    sim_time_t req = a->request_ps, arr = a->arrive_ps, grant = a->grant_ps, done = a->done_ps;
    uint64_t t = req - p->row.base_ps, da = arr - req, dg = grant - arr, dd = done - grant;
    if (!n || p->task_frame != (int)a->frame || t >= span || n >= REC_PACK_MAX - 1 ||
        ((da | dg | dd) >> 32 | done >> 63))
        return false;
    if (p->row.scale_ps != 1) {
        t = rec_div_rotated(d, t);
        da = rec_div_rotated(d, da);
        dg = rec_div_rotated(d, dg);
        dd = rec_div_rotated(d, dd);
        if ((t | da | dg | dd) > d->max_d)
            return false;
    }
    store(p, n, a, t, da, dg, dd, done);
    return true;
}

/* The ranges of a pack's times: lo and hi get the lane-wise minima and
 * maxima of the n entries (t, a, g, d). Four lanes at once (GCC and Clang
 * vector extensions): ~3x fewer instructions than tracking seven minima and
 * maxima per access. One portable path, the same on every host (an SSE4.1
 * variant chosen at run time saved ~6 of ~450 host instructions per access
 * and left this path untested where SSE4.1 exists). */
typedef uint32_t v4u_t __attribute__((vector_size(16)));

static void ranges(const rec_times_t *e, uint32_t n, v4u_t *lo_out, v4u_t *hi_out)
{
    v4u_t lo = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX}, hi = {0, 0, 0, 0};
    for (uint32_t i = 0; i < n; i++) {
        v4u_t v;
        memcpy(&v, &e[i], sizeof v);
        v4u_t below = (v4u_t)(v < lo), above = (v4u_t)(v > hi);
        lo = (v & below) | (lo & ~below);
        hi = (v & above) | (hi & ~above);
    }
    *lo_out = lo;
    *hi_out = hi;
}


/* Chooses the pack's radices from the ranges of its entries; false when
 * its largest entry would not fit in a 63-bit integer. */
static bool plan_radix(const rec_writer_t *w, rec_pack_t *p)
{
    rec_pack_row_t *r = &p->row;
    v4u_t lo, hi;
    ranges(p->times, r->n, &lo, &hi);
    /* the bank map: every bank the high bits of its address, or the low */
    uint64_t off_hi = 0, off_lo = 0;
    unsigned sh = w->bank_hi_shift, mask = w->banks - 1;
    for (uint32_t i = 0; i < r->n; i++) {
        uint64_t bank = p->low[i] >> 32, addr = (uint32_t)p->low[i] / PACK_ADDR_UNIT;
        off_hi |= bank ^ (addr >> sh);
        off_lo |= bank ^ (addr & mask);
    }
    r->banks = (uint8_t)w->banks;
    r->bank_shift = !off_hi ? (int8_t)w->bank_hi_shift : !off_lo ? 0 : -1;
    r->unknown = 0;
    r->arrive_dt = lo[1];
    r->arrive_n = hi[1] - lo[1] + 1;
    r->wait_dt = lo[2];
    r->wait_n = hi[2] - lo[2] + 1;
    r->done_dt = lo[3];
    r->done_n = hi[3] - lo[3] + 1;
    const uint64_t rx_bank_n = r->bank_shift < 0 ? r->banks : 1, rx_wait_n = r->wait_n;
    const uint64_t rx_arrive_n = r->arrive_n, rx_done_n = r->done_n;
#define PLAN_COL(A, c) rx_##c
#define PLAN_RADIX(A, digit, radix, offset, place) (radix),
    const uint64_t radix[] = {PACK_DIGITS(PLAN_RADIX, PLAN_COL, )}; /* t's place, with t */
    uint64_t m = 1;
    for (unsigned i = 0; i < sizeof radix / sizeof radix[0]; i++) {
        if (m > (uint64_t)INT64_MAX / radix[i])
            return false;
        m *= radix[i];
    }
    return hi[0] < (uint64_t)INT64_MAX / m;
}

/* Writes a pack of one access whose times are all in `row`. */
static bool put_one(rec_writer_t *w, rec_pack_t *p, rec_pack_row_t *row, unsigned bank,
                    unsigned addr, unsigned value, unsigned flags)
{
    row->part = p->next_part++;
    row->idx0 = p->task_n++;
    row->n = 1;
    row->bank_shift = -1;
    row->banks = (uint8_t)w->banks;
    row->arrive_n = row->wait_n = row->done_n = 1;
    size_t len = rec_encode_one(w->banks, bank, addr, value, flags, w->text);
    return rec_writer_put_pack(w, row, w->text, len);
}

/* A pack whose entries would not fit a 63-bit integer (pathologically wide
 * ranges of latencies) is written as packs of one access. */
static bool put_singles(rec_writer_t *w, rec_pack_t *p)
{
    bool ok = true;
    for (uint32_t i = 0; i < p->row.n && ok; i++) {
        const rec_times_t *e = &p->times[i];
        uint64_t low = p->low[i];
        unsigned lo = (uint32_t)low;
        rec_pack_row_t one = p->row;
        one.base_ps = p->row.base_ps + (sim_time_t)e->t * p->row.scale_ps;
        one.end_ps = one.base_ps + ((sim_time_t)e->a + e->g + e->d) * p->row.scale_ps;
        one.unknown = 0;
        one.arrive_dt = e->a;
        one.wait_dt = e->g;
        one.done_dt = e->d;
        ok = put_one(w, p, &one, (unsigned)(low >> 32), lo / PACK_ADDR_UNIT,
                     lo % PACK_ADDR_UNIT / PACK_FLAGS_N, lo % PACK_FLAGS_N);
    }
    return ok;
}

/* Writes the open pack as a row. */
static bool pack_close(rec_writer_t *w, rec_pack_t *p)
{
    bool ok;
    if (plan_radix(w, p)) {
        size_t len = rec_encode_pack(&p->row, p->times, p->low, w->text);
        ok = rec_writer_put_pack(w, &p->row, w->text, len);
        p->task_n += p->row.n;
        p->next_part++;
    } else {
        ok = put_singles(w, p);
    }
    p->row.n = 0;
    return ok;
}

/* The core's pack for `frame`: a new task restarts the numbering. */
static rec_pack_t *pack_of(rec_writer_t *w, unsigned core, unsigned frame, bool *ok)
{
    rec_pack_t *p = &w->packs[core];
    *ok = true;
    if (p->task_frame != (int)frame) { /* a task we were not told had ended */
        if (p->row.n)
            *ok = pack_close(w, p);
        p->task_frame = (int)frame;
        p->next_part = 0;
        p->task_n = 0;
    }
    return p;
}

bool rec_pack_access(rec_writer_t *w, const gpu_tr_access_t *a)
{
    if (a->core >= GPU_CORES) /* no core's: nothing to pack it with (the hook dropped these) */
        return true;
    if (!rec_acc_regular(a))
        return rec_pack_odd(w, a);
    bool ok;
    rec_pack_t *p = pack_of(w, a->core, a->frame, &ok);
    if (!p->row.n)
        pack_open(p, a->frame, a->core, a->request_ps, w->period_ps);
    int why = append(w, p, a);
    while (why != FIT_OK) { /* at most twice: a fresh pack in ps always fits */
        if (p->row.n)
            ok &= pack_close(w, p);
        uint64_t scale = why == FIT_SCALE ? 1 : w->period_ps;
        pack_open(p, a->frame, a->core, a->request_ps, scale);
        why = append(w, p, a);
    }
    if (p->row.n == REC_PACK_MAX)
        ok &= pack_close(w, p);
    return ok;
}

/* The exact path out of line, so that the fast loop keeps its values in
 * registers (inlined, it cost ~100 host instructions an access in spills). */
static __attribute__((noinline)) bool pack_slow(rec_writer_t *w, const gpu_tr_access_t *a)
{
    return rec_pack_access(w, a);
}

/* Without SLP vectorisation: GCC would gather the four times into a vector
 * for one store (seven instructions instead of four). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-slp-vectorize")))
#endif
bool rec_pack_accesses(rec_writer_t *w, const gpu_tr_access_t *a, size_t n)
{
    const rec_div_t d = w->period_div;
    const uint64_t span = w->span_ps;
    for (size_t i = 0; i < n; i++)
        if (!append_fast(w, &a[i], &d, span) && !pack_slow(w, &a[i]))
            return false;
    return true;
}

/* t - ref in picoseconds; false (unknown) when either is. */
static bool delta(sim_time_t t, sim_time_t ref, int64_t *out)
{
    if (t > (sim_time_t)INT64_MAX || ref > (sim_time_t)INT64_MAX)
        return false;
    *out = (int64_t)(t - ref);
    return true;
}

bool rec_pack_odd(rec_writer_t *w, const gpu_tr_access_t *a)
{
    bool ok;
    rec_pack_t *p = pack_of(w, a->core, a->frame, &ok);
    if (p->row.n)
        ok &= pack_close(w, p);
    rec_pack_row_t one = {.frame = a->frame, .core = a->core, .base_ps = a->request_ps,
                          .scale_ps = 1, .end_ps = a->done_ps};
    one.unknown |= delta(a->arrive_ps, a->request_ps, &one.arrive_dt) ? 0 : REC_DT_ARRIVE;
    one.unknown |= delta(a->grant_ps, a->arrive_ps, &one.wait_dt) ? 0 : REC_DT_WAIT;
    one.unknown |= delta(a->done_ps, a->grant_ps, &one.done_dt) ? 0 : REC_DT_DONE;
    unsigned flags = (a->is_store & 1u) | (a->sync & 1u) << 1;
    return put_one(w, p, &one, a->bank, a->addr, a->value, flags) && ok;
}

bool rec_pack_end_task(rec_writer_t *w, unsigned core, unsigned frame)
{
    if (core >= GPU_CORES || w->packs[core].task_frame != (int)frame)
        return true;
    rec_pack_t *p = &w->packs[core];
    bool ok = p->row.n ? pack_close(w, p) : true;
    p->task_frame = -1;
    return ok;
}

bool rec_pack_flush(rec_writer_t *w)
{
    bool ok = true;
    for (unsigned c = 0; c < GPU_CORES; c++) {
        rec_pack_t *p = &w->packs[c];
        if (p->row.n && ok)
            ok = pack_close(w, p);
        p->row.n = 0;
        p->task_frame = -1;
    }
    return ok;
}

int rec_pack_reset(rec_writer_t *w, uint64_t period_ps)
{
    w->period_ps = period_ps ? period_ps : 1;
    if (!w->banks || w->banks > PACK_BANK_MAX || (w->banks & (w->banks - 1)))
        w->banks = PACK_BANK_N; /* D13 */
    w->bank_hi_shift = 12 - (unsigned)__builtin_ctz(w->banks);
    rec_div_init(&w->period_div, w->period_ps);
    w->span_ps = w->period_ps > UINT32_MAX / REC_SPAN_MAX ? UINT32_MAX
                                                         : REC_SPAN_MAX * w->period_ps;
    if (!w->text &&
        !(w->text = tess_malloc((size_t)REC_PACK_MAX * REC_RADIX_MAX + 2 + REC_TEXT_SLACK)))
        return TESS_ENOMEM;
    for (unsigned c = 0; c < GPU_CORES; c++) {
        rec_pack_t *p = &w->packs[c];
        if (!p->times && !(p->times = tess_malloc(REC_PACK_MAX * sizeof *p->times)))
            return TESS_ENOMEM;
        if (!p->low && !(p->low = tess_malloc(REC_PACK_MAX * sizeof *p->low)))
            return TESS_ENOMEM;
        p->row.n = 0;
        p->task_frame = -1;
        p->next_part = 0;
        p->task_n = 0;
    }
    return TESS_OK;
}

void rec_pack_free(rec_writer_t *w)
{
    tess_free(w->text);
    w->text = NULL;
    for (unsigned c = 0; c < GPU_CORES; c++) {
        tess_free(w->packs[c].times);
        tess_free(w->packs[c].low);
        w->packs[c].times = NULL;
        w->packs[c].low = NULL;
    }
}

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
 * examples/bench.s`, 12.6 M accesses; figures in docs/PERFORMANCE.md):
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
 * - The hook (simulation thread) only appends a 32-byte rec_acc_t to the
 *   batch (~6-15 ns); packing and text are made here, on the writer thread,
 *   so that the two threads' loads balance. */
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
    p->tmax = p->gmax = p->amax = p->dmax = 0;
    p->gmin = p->amin = p->dmin = UINT32_MAX;
    p->bank_hi = p->bank_lo = true;
}

/* Adds `a` to the open pack, or says why it does not fit (nothing added).
 * Scalars, not an array: a vector load of values just stored one by one
 * stalls store forwarding (a fifth of this function's time, measured). */
static inline int append(const rec_writer_t *w, rec_pack_t *p, const rec_acc_t *a)
{
    uint64_t t = a->request_ps - p->row.base_ps, da = a->arrive_dt, dg = a->grant_dt;
    uint64_t dd = a->done_dt;
    if (a->request_ps < p->row.base_ps || t >= w->span_ps)
        return FIT_SPAN;
    if (p->row.scale_ps != 1) {
        const rec_div_t *d = &w->period_div;
        if (!((int)rec_div_exact(d, t, &t) & (int)rec_div_exact(d, da, &da) &
              (int)rec_div_exact(d, dg, &dg) & (int)rec_div_exact(d, dd, &dd)))
            return FIT_SCALE;
    }
    const rec_raw_t r = {(uint32_t)t, (uint32_t)da, (uint32_t)dg, (uint32_t)dd,
                         a->addr, a->bank, a->value, a->flags};
    p->raw[p->row.n++] = r;
    p->tmax = r.t > p->tmax ? r.t : p->tmax;
    p->gmin = r.g < p->gmin ? r.g : p->gmin;
    p->gmax = r.g > p->gmax ? r.g : p->gmax;
    p->amin = r.a < p->amin ? r.a : p->amin;
    p->amax = r.a > p->amax ? r.a : p->amax;
    p->dmin = r.d < p->dmin ? r.d : p->dmin;
    p->dmax = r.d > p->dmax ? r.d : p->dmax;
    p->bank_hi &= r.bank == r.addr >> w->bank_hi_shift;
    p->bank_lo &= r.bank == (r.addr & (w->banks - 1));
    sim_time_t done = a->request_ps + a->arrive_dt + a->grant_dt + a->done_dt;
    p->row.end_ps = done > p->row.end_ps ? done : p->row.end_ps;
    return FIT_OK;
}

/* Chooses the pack's radices from the ranges of its entries; false when
 * its largest entry would not fit in a 63-bit integer. */
static bool plan_radix(const rec_writer_t *w, rec_pack_t *p)
{
    rec_pack_row_t *r = &p->row;
    r->banks = (uint8_t)w->banks;
    r->bank_shift = p->bank_hi ? (int8_t)w->bank_hi_shift : p->bank_lo ? 0 : -1;
    r->unknown = 0;
    r->arrive_dt = p->amin;
    r->arrive_n = p->amax - p->amin + 1;
    r->wait_dt = p->gmin;
    r->wait_n = p->gmax - p->gmin + 1;
    r->done_dt = p->dmin;
    r->done_n = p->dmax - p->dmin + 1;
    const uint64_t radix[] = {PACK_BANK_UNIT, r->bank_shift < 0 ? r->banks : 1, r->wait_n,
                              r->arrive_n, r->done_n};
    uint64_t m = 1;
    for (unsigned i = 0; i < sizeof radix / sizeof radix[0]; i++) {
        if (m > (uint64_t)INT64_MAX / radix[i])
            return false;
        m *= radix[i];
    }
    return p->tmax < (uint64_t)INT64_MAX / m;
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
        const rec_raw_t *e = &p->raw[i];
        rec_pack_row_t one = p->row;
        one.base_ps = p->row.base_ps + (sim_time_t)e->t * p->row.scale_ps;
        one.end_ps = one.base_ps + ((sim_time_t)e->a + e->g + e->d) * p->row.scale_ps;
        one.unknown = 0;
        one.arrive_dt = e->a;
        one.wait_dt = e->g;
        one.done_dt = e->d;
        ok = put_one(w, p, &one, e->bank, e->addr, e->value, e->flags);
    }
    return ok;
}

/* Writes the open pack as a row. */
static bool pack_close(rec_writer_t *w, rec_pack_t *p)
{
    bool ok;
    if (plan_radix(w, p)) {
        size_t len = rec_encode_pack(&p->row, p->raw, w->text);
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

bool rec_pack_access(rec_writer_t *w, const rec_acc_t *a)
{
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
    if (!w->text && !(w->text = tess_malloc((size_t)REC_PACK_MAX * REC_RADIX_MAX + 2)))
        return TESS_ENOMEM;
    for (unsigned c = 0; c < GPU_CORES; c++) {
        rec_pack_t *p = &w->packs[c];
        if (!p->raw && !(p->raw = tess_malloc(REC_PACK_MAX * sizeof *p->raw)))
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
        tess_free(w->packs[c].raw);
        w->packs[c].raw = NULL;
    }
}

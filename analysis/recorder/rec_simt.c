/* rec_simt.c — packing the SIMT unit's issue port, on the writer thread:
 * issued warp instructions become simt_issue_packs rows of at most
 * SIPACK_MAX issues, each one integer of a JSON array that the simt_issue
 * view expands again (the layout: store/sipack.h), and each mnemonic met a
 * row of the run's simt_op_names. Invariant: the open pack's entries are in
 * issue order, each at or after base_ps and a whole number of scale_ps after
 * it, and the radices of its fields need at most SIPACK_BITS bits together;
 * an issue that does not fit starts a new pack.
 *
 * Why (measured on examples/bench.s with core.model = simt, 3.15 M issues;
 * docs/PERFORMANCE.md): one INSERT per issue was ~3.7 s of the 6.3 s of a
 * run at level events. As with the accesses and the events the writer's
 * cost is per row and per byte; within a pack most fields take few values
 * (one warp's lanes, a handful of mnemonics, small stack depths), so the
 * radices are per pack, from each field's range. */
#include <string.h>

#include "analysis/recorder/rec_int.h"
#include "analysis/store/sipack.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/isa.h"

enum { FIT_OK = 0, FIT_NEW, FIT_SCALE };

/* Bits of a radix r: ceil(log2 r). */
static inline unsigned radix_bits(uint64_t r)
{
    return r <= 1 ? 0 : 64u - (unsigned)__builtin_clzll(r - 1);
}

static void fields_of(const gpu_tr_simt_issue_t *i, uint16_t f[REC_SI_FIELDS])
{
    f[0] = i->frame, f[1] = i->slot, f[2] = i->op, f[3] = i->order;
    f[4] = i->depth, f[5] = i->eligible, f[6] = i->active, f[7] = i->mask;
    f[8] = (uint16_t)__builtin_popcount(i->active);
}

static int fit(const rec_writer_t *w, const rec_sipack_t *p, sim_time_t time,
               const uint16_t f[REC_SI_FIELDS], uint64_t *t)
{
    if (time < p->base_ps)
        return FIT_NEW;
    uint64_t dt = time - p->base_ps;
    if (p->scale_ps != 1 && !rec_div_exact(&w->period_div, dt, &dt))
        return FIT_SCALE;
    if (dt >> SIPACK_T_BITS)
        return FIT_NEW;
    unsigned bits = radix_bits((dt > p->tmax ? dt : p->tmax) + 1);
    for (unsigned k = 0; k < REC_SI_FIELDS; k++) {
        unsigned lo = f[k] < p->lo[k] ? f[k] : p->lo[k];
        unsigned hi = f[k] > p->hi[k] ? f[k] : p->hi[k];
        bits += radix_bits(hi - lo + 1u);
    }
    if (bits > SIPACK_BITS)
        return FIT_NEW;
    *t = dt;
    return FIT_OK;
}

static void open_pack(rec_sipack_t *p, sim_time_t time, const uint16_t f[REC_SI_FIELDS],
                      uint64_t scale)
{
    p->n = 0;
    p->base_ps = time;
    p->scale_ps = scale;
    p->tmax = 0;
    memcpy(p->lo, f, sizeof p->lo);
    memcpy(p->hi, f, sizeof p->hi);
}

/* The place values: unit[k] of field k, unit[REC_SI_FIELDS] of t. */
static void units(const rec_sipack_t *p, uint64_t unit[REC_SI_FIELDS + 1])
{
    uint64_t u = 1;
    for (unsigned k = REC_SI_FIELDS; k-- > 0;) {
        unit[k] = u;
        u *= (uint64_t)(p->hi[k] - p->lo[k]) + 1;
    }
    unit[REC_SI_FIELDS] = u;
}

static bool close_pack(rec_writer_t *w, rec_sipack_t *p)
{
    uint64_t unit[REC_SI_FIELDS + 1];
    units(p, unit);
    char *o = w->text;
    *o++ = '[';
    for (uint32_t i = 0; i < p->n; i++) {
        const rec_si_raw_t *e = &p->raw[i];
        uint64_t q = (uint64_t)e->t * unit[REC_SI_FIELDS];
        for (unsigned k = 0; k < REC_SI_FIELDS; k++)
            q += (uint64_t)(e->f[k] - p->lo[k]) * unit[k];
        o = rec_put_u64(o, q);
        *o++ = ',';
    }
    o[-1] = ']';
    bool ok = rec_writer_put_issues(w, p, unit, w->text, (size_t)(o - w->text));
    p->n = 0;
    return ok;
}

bool rec_simt_issue_put(rec_writer_t *w, const gpu_tr_simt_issue_t *i)
{
    rec_sipack_t *p = &w->sip;
    bool ok = true;
    if (!p->op_seen[i->op]) {
        ok = rec_writer_put_op(w, i->op, isa_mnemonic((isa_op_t)i->op));
        p->op_seen[i->op] = true;
    }
    uint16_t f[REC_SI_FIELDS];
    fields_of(i, f);
    uint64_t t = 0;
    int why = p->n ? fit(w, p, i->time_ps, f, &t) : FIT_NEW;
    if (why != FIT_OK) {
        if (p->n)
            ok &= close_pack(w, p);
        open_pack(p, i->time_ps, f, why == FIT_SCALE ? 1 : w->period_ps);
        t = 0;
    }
    rec_si_raw_t *e = &p->raw[p->n++];
    e->t = (uint32_t)t;
    memcpy(e->f, f, sizeof e->f);
    p->tmax = t > p->tmax ? (uint32_t)t : p->tmax;
    for (unsigned k = 0; k < REC_SI_FIELDS; k++) {
        p->lo[k] = f[k] < p->lo[k] ? f[k] : p->lo[k];
        p->hi[k] = f[k] > p->hi[k] ? f[k] : p->hi[k];
    }
    if (p->n == SIPACK_MAX)
        ok &= close_pack(w, p);
    return ok;
}

bool rec_simt_flush(rec_writer_t *w)
{
    return w->sip.n ? close_pack(w, &w->sip) : true;
}

int rec_simt_reset(rec_writer_t *w)
{
    w->sip.n = 0;
    memset(w->sip.op_seen, 0, sizeof w->sip.op_seen);
    if (!w->sip.raw && !(w->sip.raw = tess_malloc(SIPACK_MAX * sizeof *w->sip.raw)))
        return TESS_ENOMEM;
    return TESS_OK;
}

void rec_simt_free(rec_writer_t *w)
{
    tess_free(w->sip.raw);
    w->sip.raw = NULL;
}

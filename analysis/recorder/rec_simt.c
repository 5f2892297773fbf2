/* rec_simt.c — packing the SIMT unit's records, on the writer thread:
 * issued warp instructions become simt_issue_packs rows and warp ld/st
 * simt_mem_packs rows of at most SIPACK_MAX entries, each entry one integer
 * of a JSON array that the simt_issue and simt_mem views expand again (the
 * one layout of both: store/sipack.h), and each mnemonic met a row of the
 * run's simt_op_names. Both kinds share one packer (rec_rpack_t): a time
 * and a few small fields per entry. Invariant: the open pack's entries are
 * in record order, each a whole number of scale_ps from the first one's
 * time (so from the earliest's too) with durations in whole scale_ps, the
 * times span less than 2^SIPACK_T_BITS units and the radices of t and the
 * fields need at most SIPACK_BITS bits together; an entry that does not fit
 * starts a new pack.
 *
 * Why (measured on examples/bench.s with core.model = simt, 3.15 M issues
 * and 786 K warp ld/st; docs/PERFORMANCE-HISTORY.md): one INSERT per issue was
 * ~3.7 s of the 6.3 s of a run at level events, one per ld/st ~1 us each at
 * level mem. As with the accesses and the events the writer's cost is per
 * row and per byte; within a pack most fields take few values (one warp's
 * lanes, a handful of mnemonics, small stack depths, a few latencies), so
 * the radices are per pack, from each field's range. The base is the
 * earliest time, not the first: ld/st are recorded as they complete, not in
 * issue order. */
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

/* v in units of the pack's scale: false when it is not a whole number. */
static bool scaled(const rec_writer_t *w, uint64_t scale, uint64_t v, uint64_t *q)
{
    if (scale == 1) {
        *q = v;
        return true;
    }
    return rec_div_exact(&w->period_div, v, q);
}

/* The entry's durations in units of `scale`, in place; false when one is
 * not a whole number of them. */
static bool scale_durations(const rec_writer_t *w, const rec_rpack_t *p, uint64_t scale,
                            uint64_t f[REC_RP_FIELDS])
{
    for (unsigned m = p->durations; m; m &= m - 1) {
        unsigned k = (unsigned)__builtin_ctz(m);
        if (!scaled(w, scale, f[k], &f[k]))
            return false;
    }
    return true;
}

/* Does the entry at `time` with fields f (durations already in the pack's
 * units) fit the open pack? Then *t is its time digit before the base. */
static int fit(const rec_writer_t *w, const rec_rpack_t *p, sim_time_t time,
               const uint64_t f[REC_RP_FIELDS], int32_t *t)
{
    bool later = time >= p->first_ps;
    uint64_t d;
    if (!scaled(w, p->scale_ps, later ? time - p->first_ps : p->first_ps - time, &d))
        return FIT_SCALE;
    if (d >> SIPACK_T_BITS)
        return FIT_NEW;
    int32_t dt = later ? (int32_t)d : -(int32_t)d;
    int32_t tmin = dt < p->tmin ? dt : p->tmin, tmax = dt > p->tmax ? dt : p->tmax;
    if ((uint32_t)(tmax - tmin) >> SIPACK_T_BITS)
        return FIT_NEW;
    unsigned bits = radix_bits((uint64_t)(tmax - tmin) + 1);
    for (unsigned k = 0; k < p->fields; k++) {
        uint64_t lo = f[k] < p->lo[k] ? f[k] : p->lo[k];
        uint64_t hi = f[k] > p->hi[k] ? f[k] : p->hi[k];
        if (hi - lo >= UINT64_C(1) << SIPACK_BITS)
            return FIT_NEW;
        bits += radix_bits(hi - lo + 1u);
    }
    if (bits > SIPACK_BITS)
        return FIT_NEW;
    *t = dt;
    return FIT_OK;
}

static void open_pack(rec_rpack_t *p, sim_time_t time, const uint64_t f[REC_RP_FIELDS],
                      uint64_t scale)
{
    p->n = 0;
    p->first_ps = time;
    p->scale_ps = scale;
    p->tmin = p->tmax = 0;
    memcpy(p->lo, f, sizeof p->lo);
    memcpy(p->hi, f, sizeof p->hi);
}

/* The radices r[k] of the fields and their place values: unit[k] of field
 * k, unit[fields] of t (sipack.h). */
static void units(const rec_rpack_t *p, uint64_t r[REC_RP_FIELDS],
                  uint64_t unit[REC_RP_FIELDS + 1])
{
    for (unsigned k = 0; k < p->fields; k++)
        r[k] = p->hi[k] - p->lo[k] + 1;
    sipack_units(p->fields, r, unit);
}

static bool close_pack(rec_writer_t *w, rec_rpack_t *p)
{
    uint64_t unit[REC_RP_FIELDS + 1];
    uint64_t r[REC_RP_FIELDS];
    units(p, r, unit);
    bool full = p->fields == SIPACK_FIELDS_MAX; /* both kinds: a loop the compiler unrolls */
    char *o = w->text;
    *o++ = '[';
    for (uint32_t i = 0; i < p->n; i++) {
        const rec_rp_raw_t *e = &p->raw[i];
        uint64_t t = (uint32_t)(e->t - p->tmin);
        o = rec_put_u64(o, full ? sipack_encode(SIPACK_FIELDS_MAX, r, t, e->f, p->lo)
                                : sipack_encode(p->fields, r, t, e->f, p->lo));
        *o++ = ',';
    }
    o[-1] = ']';
    sim_time_t base = p->tmin < 0 ? p->first_ps - (uint64_t)-(int64_t)p->tmin * p->scale_ps
                                  : p->first_ps;
    bool ok = rec_writer_put_rpack(w, p, base, unit, w->text, (size_t)(o - w->text));
    p->n = 0;
    return ok;
}

/* Adds an entry at `time` with fields f (durations in ps) to pack p. */
static bool put(rec_writer_t *w, rec_rpack_t *p, sim_time_t time, uint64_t f[REC_RP_FIELDS])
{
    bool ok = true;
    uint64_t g[REC_RP_FIELDS];
    memcpy(g, f, sizeof g);
    int32_t t = 0;
    int why = p->n && scale_durations(w, p, p->scale_ps, g) ? fit(w, p, time, g, &t)
              : p->n                                        ? FIT_SCALE
                                                            : FIT_NEW;
    if (why != FIT_OK) {
        if (p->n)
            ok = close_pack(w, p);
        uint64_t scale = why == FIT_SCALE ? 1 : w->period_ps;
        memcpy(g, f, sizeof g);
        if (!scale_durations(w, p, scale, g))
            scale_durations(w, p, scale = 1, g);
        open_pack(p, time, g, scale);
        t = 0;
    }
    rec_rp_raw_t *e = &p->raw[p->n++];
    e->t = t;
    memcpy(e->f, g, sizeof e->f);
    p->tmin = t < p->tmin ? t : p->tmin;
    p->tmax = t > p->tmax ? t : p->tmax;
    for (unsigned k = 0; k < p->fields; k++) {
        p->lo[k] = g[k] < p->lo[k] ? g[k] : p->lo[k];
        p->hi[k] = g[k] > p->hi[k] ? g[k] : p->hi[k];
    }
    if (p->n == SIPACK_MAX)
        ok &= close_pack(w, p);
    return ok;
}

/* An issue's fields (sipack.h's SIPACK_ISSUE_FIELDS). */
bool rec_simt_issue_put(rec_writer_t *w, const gpu_tr_simt_issue_t *i)
{
    bool ok = true;
    if (!w->sip.op_seen[i->op]) {
        ok = rec_writer_put_op(w, i->op, isa_mnemonic((isa_op_t)i->op));
        w->sip.op_seen[i->op] = true;
    }
    uint64_t f[REC_RP_FIELDS] = {
        [SIPACK_I_frame] = i->frame,       [SIPACK_I_slot] = i->slot,
        [SIPACK_I_op] = i->op,             [SIPACK_I_ord] = i->order,
        [SIPACK_I_depth] = i->depth,       [SIPACK_I_eligible] = i->eligible,
        [SIPACK_I_active] = i->active,     [SIPACK_I_mask] = i->mask,
        [SIPACK_I_lanes] = (uint64_t)__builtin_popcount(i->active)};
    return put(w, &w->sip.issue, i->time_ps, f) && ok;
}

/* A ld/st's fields (SIPACK_MEM_FIELDS): op 0 ld, 1 st; latency done_ps -
 * issue_ps, a duration; the time is issue_ps. The model's done_ps is never
 * before issue_ps. */
bool rec_simt_mem_put(rec_writer_t *w, const gpu_tr_simt_mem_t *m)
{
    uint64_t f[REC_RP_FIELDS] = {
        [SIPACK_M_frame] = m->frame,       [SIPACK_M_slot] = m->slot,
        [SIPACK_M_op] = m->is_store != 0,  [SIPACK_M_lanes] = m->lanes,
        [SIPACK_M_active] = (uint64_t)__builtin_popcount(m->lanes),
        [SIPACK_M_requests] = m->requests, [SIPACK_M_replays] = m->replays,
        [SIPACK_M_banks] = m->banks,       [SIPACK_M_latency] = m->done_ps - m->issue_ps};
    return put(w, &w->sip.mem, m->issue_ps, f);
}

bool rec_simt_flush(rec_writer_t *w)
{
    bool ok = w->sip.issue.n ? close_pack(w, &w->sip.issue) : true;
    return ok && (w->sip.mem.n ? close_pack(w, &w->sip.mem) : true);
}

static int reset(rec_rpack_t *p, rec_table_t table, unsigned fields, unsigned durations,
                 const char *what)
{
    p->n = 0;
    p->table = table;
    p->fields = fields;
    p->durations = durations;
    p->what = what;
    if (!p->raw && !(p->raw = tess_malloc(SIPACK_MAX * sizeof *p->raw)))
        return TESS_ENOMEM;
    return TESS_OK;
}

int rec_simt_reset(rec_writer_t *w)
{
    memset(w->sip.op_seen, 0, sizeof w->sip.op_seen);
    int rc = reset(&w->sip.issue, REC_T_SIMT_ISSUE_PACKS, SIPACK_ISSUE_N, 0,
                   "writing the SIMT issue port");
    return rc == TESS_OK ? reset(&w->sip.mem, REC_T_SIMT_MEM_PACKS, SIPACK_MEM_N,
                                 1u << SIPACK_M_latency, "writing the SIMT ld/st")
                         : rc;
}

void rec_simt_free(rec_writer_t *w)
{
    tess_free(w->sip.issue.raw);
    tess_free(w->sip.mem.raw);
    w->sip.issue.raw = w->sip.mem.raw = NULL;
}

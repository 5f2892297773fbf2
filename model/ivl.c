/* ivl.c — interval statistics (see ivl.h). Invariant: every amount added is
 * kept whole — a span is cut only at interval boundaries and at the counted
 * range's ends — so the intervals of a unit sum to what the unit counted in
 * that range, also when intervals are merged pairwise (at most
 * IVL_MAX_INTERVALS are kept: memory and rows stay bounded however long the
 * run). */
#include "model/ivl.h"

#include <string.h>

#include "events/base/alloc.h"

void ivl_init_intervals(ivl_t *iv, sim_time_t len)
{
    memset(iv, 0, sizeof *iv);
    iv->len = len, iv->lo = 0, iv->hi = SIM_TIME_NEVER;
    iv->asked = len;
}

void ivl_init_window(ivl_t *iv, sim_time_t from, sim_time_t to)
{
    memset(iv, 0, sizeof *iv);
    iv->origin = iv->lo = from;
    iv->hi = to ? to : SIM_TIME_NEVER;
    iv->len = iv->hi - from;
}

void ivl_free(ivl_t *iv)
{
    tess_free(iv->b);
    iv->b = NULL, iv->n = iv->cap = 0;
}

/* Halves the number of intervals: each pair becomes one of twice the
 * length, its figures the pair's sums (so every sum stays exact). */
static void coarsen(ivl_t *iv)
{
    for (size_t i = 0; i < iv->n; i += 2) {
        ivl_bucket_t *to = &iv->b[i / 2];
        if (to != &iv->b[i])
            *to = iv->b[i];
        if (i + 1 < iv->n)
            for (unsigned f = 0; f < IVL_FIELDS; f++)
                for (unsigned u = 0; u < sizeof to->v[f] / sizeof to->v[f][0]; u++)
                    to->v[f][u] += iv->b[i + 1].v[f][u];
    }
    size_t n = (iv->n + 1) / 2;
    memset(iv->b + n, 0, (iv->n - n) * sizeof *iv->b);
    iv->n = n;
    iv->len *= 2;
    iv->coarsened++;
    iv->last = NULL;
}

/* The interval holding moment `at` (coarsened first when it would be the
 * IVL_MAX_INTERVALS-th or later), grown (zeroed) on demand, and its end
 * (SIM_TIME_NEVER when past 2^64); NULL when memory runs out. */
static ivl_bucket_t *bucket_at(ivl_t *iv, sim_time_t at, sim_time_t *end)
{
    size_t k;
    while ((k = (size_t)((at - iv->origin) / iv->len)) >= IVL_MAX_INTERVALS)
        coarsen(iv);
    sim_time_t room = SIM_TIME_NEVER - iv->origin;
    *end = iv->len > room / (k + 1) ? SIM_TIME_NEVER : iv->origin + (sim_time_t)(k + 1) * iv->len;
    if (k >= iv->cap) {
        size_t cap = iv->cap ? iv->cap : 16;
        while (cap <= k)
            cap *= 2;
        ivl_bucket_t *b = tess_realloc(iv->b, cap * sizeof *b);
        if (!b) {
            iv->failed = true;
            return NULL;
        }
        memset(b + iv->cap, 0, (cap - iv->cap) * sizeof *b);
        iv->b = b, iv->cap = cap;
        iv->last = NULL; /* the buckets moved */
    }
    if (k >= iv->n)
        iv->n = k + 1;
    return &iv->b[k];
}

void ivl_add(ivl_t *iv, ivl_field_t field, unsigned unit, sim_time_t at, uint64_t n)
{
    if (at < iv->lo || at >= iv->hi || n == 0)
        return;
    /* the interval of the last count (most counts fall in it): no division */
    if (at >= iv->last_from && at < iv->last_end && iv->last) {
        iv->last->v[field][unit] += n;
        return;
    }
    sim_time_t end;
    ivl_bucket_t *b = bucket_at(iv, at, &end);
    if (!b)
        return;
    b->v[field][unit] += n;
    iv->last = b, iv->last_end = end, iv->last_from = end - iv->len;
}

void ivl_span(ivl_t *iv, ivl_field_t field, unsigned unit, sim_time_t from, sim_time_t to)
{
    from = from < iv->lo ? iv->lo : from;
    to = to > iv->hi ? iv->hi : to;
    while (from < to) {
        sim_time_t end;
        ivl_bucket_t *b = bucket_at(iv, from, &end);
        if (!b)
            return;
        sim_time_t cut = end < to ? end : to;
        b->v[field][unit] += cut - from;
        from = cut;
    }
}

void ivl_reach(ivl_t *iv, sim_time_t stop)
{
    while (iv->hi == SIM_TIME_NEVER && stop != SIM_TIME_NEVER && stop > iv->origin &&
           (stop - iv->origin - 1) / iv->len >= IVL_MAX_INTERVALS)
        coarsen(iv);
}

const ivl_bucket_t *ivl_bucket(const ivl_t *iv, size_t i)
{
    static const ivl_bucket_t zero;
    return i < iv->n ? &iv->b[i] : &zero;
}

sim_time_t ivl_from(const ivl_t *iv, size_t i) { return iv->origin + (sim_time_t)i * iv->len; }

sim_time_t ivl_to(const ivl_t *iv, size_t i, sim_time_t stop)
{
    sim_time_t end = ivl_from(iv, i + 1); /* a window: its own end (hi) */
    return end > stop && stop >= ivl_from(iv, i) ? stop : end;
}

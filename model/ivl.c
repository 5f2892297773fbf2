/* ivl.c — interval statistics (see ivl.h). Invariant: every amount added is
 * kept whole — a span is cut only at interval boundaries and at the counted
 * range's ends — so the intervals of a unit sum to what the unit counted in
 * that range. */
#include "model/ivl.h"

#include <string.h>

#include "events/base/alloc.h"

void ivl_init_intervals(ivl_t *iv, sim_time_t len)
{
    memset(iv, 0, sizeof *iv);
    iv->len = len, iv->lo = 0, iv->hi = SIM_TIME_NEVER;
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

/* Interval k, grown (zeroed) on demand; NULL when memory runs out. */
static ivl_bucket_t *bucket(ivl_t *iv, size_t k)
{
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
    }
    if (k >= iv->n)
        iv->n = k + 1;
    return &iv->b[k];
}

void ivl_add(ivl_t *iv, ivl_field_t field, unsigned unit, sim_time_t at, uint64_t n)
{
    if (at < iv->lo || at >= iv->hi || n == 0)
        return;
    ivl_bucket_t *b = bucket(iv, (size_t)((at - iv->origin) / iv->len));
    if (b)
        b->v[field][unit] += n;
}

void ivl_span(ivl_t *iv, ivl_field_t field, unsigned unit, sim_time_t from, sim_time_t to)
{
    from = from < iv->lo ? iv->lo : from;
    to = to > iv->hi ? iv->hi : to;
    while (from < to) {
        size_t k = (size_t)((from - iv->origin) / iv->len);
        sim_time_t end = iv->origin + (sim_time_t)(k + 1) * iv->len;
        sim_time_t cut = end < to ? end : to;
        ivl_bucket_t *b = bucket(iv, k);
        if (!b)
            return;
        b->v[field][unit] += cut - from;
        from = cut;
    }
}

sim_time_t ivl_from(const ivl_t *iv, size_t i) { return iv->origin + (sim_time_t)i * iv->len; }

sim_time_t ivl_to(const ivl_t *iv, size_t i, sim_time_t stop)
{
    sim_time_t end = ivl_from(iv, i + 1); /* a window: its own end (hi) */
    return end > stop && stop >= ivl_from(iv, i) ? stop : end;
}

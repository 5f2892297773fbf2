/* race.c — the race detector (see race.h). Invariant: every distinct access
 * site of a byte is kept once, and a race is found when its second site is
 * first seen, so each race is reported once whatever the number of dynamic
 * accesses. The order between tasks is a 64x64 bit matrix closed transitively. */
#include "model/race.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"

/* A site packed into one integer: frame, core, slot, store, sync (sort order). */
#define SITE(f, c, s, st, sy) \
    ((uint32_t)(f) << 10 | (uint32_t)(c) << 6 | (uint32_t)(s) << 2 | (uint32_t)(st) << 1 | (sy))
#define SITE_FRAME(x) ((x) >> 10 & 63u)
#define SITE_CORE(x) ((x) >> 6 & 15u)
#define SITE_STORE(x) ((x) >> 1 & 1u)
#define SITE_SYNC(x) ((x)&1u)

typedef struct byte_sites {
    uint32_t *v;              /* the distinct sites seen on this byte */
    uint32_t n, cap;
} byte_sites_t;

struct race_det {
    uint64_t before[TM_FRAMES];   /* bit a of before[b]: task a precedes task b */
    byte_sites_t bytes[SM_BYTES];
    race_pair_t *races;
    size_t n_races, cap_races;
    bool sorted;
    int status;
};

/* The direct rules of race.h, then the transitive closure. */
static void build_order(race_det_t *r, const tm_program_t *tm)
{
    for (unsigned b = 0; b < tm->n_frames; b++) {
        if (tm_is_cf(tm, b))
            continue;
        const tm_group_t *gb = &tm->groups[tm->group_of[b]];
        for (unsigned a = 0; a < b; a++) {
            if (tm_is_cf(tm, a))
                continue;
            const tm_group_t *ga = &tm->groups[tm->group_of[a]];
            if ((ga->cores & gb->cores) || ga->fence == TM_FENCE_ACQ ||
                (gb->fence == TM_FENCE_REL && ga != gb))
                r->before[b] |= UINT64_C(1) << a;
        }
    }
    /* frames are in program order: closing b over its predecessors, in order, suffices */
    for (unsigned b = 0; b < TM_FRAMES; b++)
        for (unsigned a = 0; a < b; a++)
            if (r->before[b] >> a & 1u)
                r->before[b] |= r->before[a];
}

race_det_t *race_create(const tm_program_t *tm)
{
    race_det_t *r = tess_calloc(1, sizeof *r);
    if (r)
        build_order(r, tm);
    return r;
}

void race_destroy(race_det_t *r)
{
    if (!r)
        return;
    for (unsigned i = 0; i < SM_BYTES; i++)
        tess_free(r->bytes[i].v);
    tess_free(r->races);
    tess_free(r);
}

bool race_ordered(const race_det_t *r, unsigned a, unsigned b)
{
    if (a == b)
        return false;
    return a < b ? (r->before[b] >> a & 1u) : (r->before[a] >> b & 1u);
}

static race_site_t unpack(uint32_t x)
{
    return (race_site_t){(uint8_t)SITE_FRAME(x), (uint8_t)SITE_CORE(x), (uint8_t)(x >> 2 & 15u),
                         SITE_STORE(x) != 0, SITE_SYNC(x) != 0};
}

static bool conflict(const race_det_t *r, uint32_t x, uint32_t y)
{
    if (SITE_CORE(x) == SITE_CORE(y) || !(SITE_STORE(x) | SITE_STORE(y)))
        return false;
    if (SITE_SYNC(x) && SITE_SYNC(y))
        return false;
    return !race_ordered(r, SITE_FRAME(x), SITE_FRAME(y));
}

static void add_race(race_det_t *r, unsigned addr, uint32_t x, uint32_t y)
{
    race_pair_t *v = tess_grow(r->races, &r->cap_races, r->n_races, sizeof *v, 16);
    if (!v) {
        r->status = TESS_ENOMEM;
        return;
    }
    r->races = v;
    uint32_t lo = x < y ? x : y, hi = x < y ? y : x;
    r->races[r->n_races++] = (race_pair_t){(uint16_t)addr, unpack(lo), unpack(hi)};
    r->sorted = false;
}

void race_access(race_det_t *r, unsigned frame, unsigned core, unsigned slot, bool is_store,
                 bool sync, unsigned addr)
{
    byte_sites_t *b = &r->bytes[addr % SM_BYTES];
    uint32_t x = SITE(frame, core, slot, is_store, sync);
    for (uint32_t i = b->n; i-- > 0;) /* newest first: loops repeat the last sites */
        if (b->v[i] == x)
            return;
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? 2 * b->cap : 4;
        uint32_t *v = tess_realloc(b->v, cap * sizeof *v);
        if (!v) {
            r->status = TESS_ENOMEM;
            return;
        }
        b->v = v, b->cap = cap;
    }
    for (uint32_t i = 0; i < b->n; i++)
        if (conflict(r, b->v[i], x))
            add_race(r, addr % SM_BYTES, b->v[i], x);
    b->v[b->n++] = x;
}

int race_status(const race_det_t *r) { return r->status; }

static uint32_t key(const race_site_t *s)
{
    return SITE(s->frame, s->core, s->slot, s->is_store, s->sync);
}

static int cmp_pair(const void *pa, const void *pb)
{
    const race_pair_t *a = pa, *b = pb;
    uint64_t ka = (uint64_t)a->addr << 40 | (uint64_t)key(&a->a) << 20 | key(&a->b);
    uint64_t kb = (uint64_t)b->addr << 40 | (uint64_t)key(&b->a) << 20 | key(&b->b);
    return (ka > kb) - (ka < kb);
}

size_t race_count(race_det_t *r)
{
    if (!r->sorted && r->n_races > 1)
        qsort(r->races, r->n_races, sizeof *r->races, cmp_pair);
    r->sorted = true;
    return r->n_races;
}

const race_pair_t *race_get(race_det_t *r, size_t i)
{
    return i < race_count(r) ? &r->races[i] : NULL;
}

const char *race_op_name(const race_site_t *s)
{
    return s->is_store ? (s->sync ? "st_sync" : "st") : (s->sync ? "ld_sync" : "ld");
}

void race_format(const race_pair_t *p, char *buf, size_t size)
{
    snprintf(buf, size, "0x%03x: frame %u core %u slot %u %s / frame %u core %u slot %u %s",
             p->addr, p->a.frame, p->a.core, p->a.slot, race_op_name(&p->a), p->b.frame, p->b.core,
             p->b.slot, race_op_name(&p->b));
}

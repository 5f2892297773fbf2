/* front.c — the SIMT unit's front end (SIMT-SPEC S11): a per-warp I-buffer
 * of at most simt.ibuffer slots in program order, filled by one fetch port
 * that serves at most one warp per cycle, round-robin in age order. A fetch
 * brings up to simt.fetch_width consecutive slots, never past a bnz, a
 * `ready` or slot 15, which enter the I-buffer simt.fetch_latency cycles
 * later. Invariant: a warp's fetched sequence (its I-buffer, then its fetch
 * in flight) is consecutive slots, empty or beginning with the warp's next
 * slot (simt_front_check drops it otherwise). */
#include "model/simt/unit.h"

/* Fetch stops after slot p (S11): it holds a bnz or a `ready`, or is slot 15. */
static bool stops_after(const simt_warp_t *w, unsigned p)
{
    return p == ISA_SLOTS - 1 || w->code[p].op == ISA_BNZ || w->code[p].op == ISA_READY;
}

void simt_front_arrive_warp(simt_warp_t *w, sim_time_t now)
{
    if (w->fetch_at > now)
        return;
    assert(!w->ib_n || w->fetch_first == w->ib_head + w->ib_n);
    if (!w->ib_n)
        w->ib_head = w->fetch_first;
    w->ib_n = (uint8_t)(w->ib_n + w->fetch_n);
    w->fetch_n = 0;
    w->fetch_at = NEVER;
}

void simt_front_arrive(simt_t *u, sim_time_t now)
{
    for (uint16_t m = u->live; m; m &= m - 1)
        simt_front_arrive_warp(&u->w[__builtin_ctz(m)], now);
}

/* The warp's fetch slot at `now`, or -1 when it is unknown (S11). Called
 * only without a fetch in flight: the fetched sequence is the I-buffer. */
static int fetch_slot(const simt_warp_t *w, sim_time_t now)
{
    if (w->ib_n) {
        unsigned last = w->ib_head + w->ib_n - 1u;
        return stops_after(w, last) ? -1 : (int)last + 1;
    }
    if (!simt_has_next(w) || w->bnz_done > now)
        return -1;
    return simt_stack_top(&w->st)->pc;
}

/* Fetch-ready (S11): resident, no fetch in flight, a free entry, a known
 * fetch slot (returned; -1 when not fetch-ready). */
static int fetch_ready(const simt_t *u, const simt_warp_t *w, sim_time_t now)
{
    if (!w->lanes || w->fetch_at != NEVER || w->ib_n >= u->ibuffer)
        return -1;
    return fetch_slot(w, now);
}

bool simt_front_ready(const simt_t *u, const simt_warp_t *w, sim_time_t now)
{
    return fetch_ready(u, w, now) >= 0;
}

/* The fetch at `now` of warp w from slot s. */
static void fetch(simt_t *u, simt_warp_t *w, unsigned s, sim_time_t now)
{
    unsigned room = u->ibuffer - w->ib_n;
    unsigned n = room < u->fetch_width ? room : u->fetch_width;
    w->fetch_first = (uint8_t)s;
    w->fetch_n = 0;
    for (unsigned p = s; w->fetch_n < n; p++) {
        w->fetch_n++;
        if (stops_after(w, p))
            break;
    }
    w->fetch_at = now + u->fetch_lat;
    u->fetched = true;
    u->fetch_last = w->age;
}

void simt_front_fetch(simt_t *u, sim_time_t now)
{
    /* round-robin in age order from the first warp younger than the last
       served (a retired warp keeps its place: only its age is compared) */
    simt_warp_t *first = NULL, *after = NULL;
    int first_s = -1, after_s = -1;
    for (uint16_t m = u->live; m; m &= m - 1) {
        simt_warp_t *w = &u->w[__builtin_ctz(m)];
        int s = fetch_ready(u, w, now);
        if (s < 0)
            continue;
        if (!first || w->age < first->age)
            first = w, first_s = s;
        if (u->fetched && w->age > u->fetch_last && (!after || w->age < after->age))
            after = w, after_s = s;
    }
    if (after)
        fetch(u, after, (unsigned)after_s, now);
    else if (first)
        fetch(u, first, (unsigned)first_s, now);
}

void simt_front_fetch_warp(simt_t *u, simt_warp_t *w, sim_time_t now)
{
    int s = fetch_ready(u, w, now); /* the ring's first and next warp, if fetch-ready */
    if (s >= 0)
        fetch(u, w, (unsigned)s, now);
}

void simt_front_check(simt_warp_t *w)
{
    int first = w->ib_n ? w->ib_head : w->fetch_n ? w->fetch_first : -1;
    if (first < 0)
        return;
    if (simt_has_next(w) && simt_stack_top(&w->st)->pc == (unsigned)first)
        return;
    w->ib_n = 0; /* S11: emptied, and the fetch in flight cancelled */
    w->fetch_n = 0;
    w->fetch_at = NEVER;
}

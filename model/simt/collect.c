/* collect.c — the SIMT unit's operand collector (SIMT-SPEC S12): an
 * instruction issued under simt.collectors >= 1 holds a collector unit
 * while its source registers are read from simt.rf_banks banks, one read
 * per bank per cycle, the earliest-issued instruction first and then the
 * lowest register; it is dispatched in the cycle of its last read and its
 * collector is free for an issue in the next cycle. Without collectors the
 * held instruction reads nothing and is dispatched in its issue cycle.
 * Invariant: held_n = the collectors taken = the held instructions (with
 * collectors). */
#include "model/simt/unit.h"

void simt_collect(simt_t *u, sim_time_t now)
{
    simt_warp_t *held[SIMT_WARPS_MAX];
    unsigned n = 0;
    for (uint16_t m = u->live; m; m &= m - 1) { /* in issue order (insertion sort) */
        simt_warp_t *w = &u->w[__builtin_ctz(m)];
        if (!w->held.busy)
            continue;
        unsigned j = n++;
        for (; j > 0 && held[j - 1]->held.seq > w->held.seq; j--)
            held[j] = held[j - 1];
        held[j] = w;
    }
    uint32_t banks_used = 0;
    for (unsigned i = 0; i < n; i++) /* in issue order: S13 takes units in dispatch order */
        simt_collect_warp(u, held[i], &banks_used, now);
}

void simt_collect_warp(simt_t *u, simt_warp_t *w, uint32_t *banks_used, sim_time_t now)
{
    for (uint16_t r = w->held.reads; r; r &= r - 1) {
        unsigned reg = (unsigned)__builtin_ctz(r);
        uint32_t bank = 1u << ((reg + w->rf_base) % u->rf_banks);
        if (*banks_used & bank)
            continue;
        *banks_used |= bank;
        w->held.reads &= (uint16_t)~(1u << reg);
    }
    if (!w->held.reads)
        simt_dispatch(u, w, now);
}

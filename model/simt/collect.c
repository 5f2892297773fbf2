/* collect.c — the SIMT unit's operand collector (SIMT-SPEC S12): an
 * instruction issued under simt.collectors >= 1 holds a collector unit
 * while its source registers are read from simt.rf_banks banks, one read
 * per bank per cycle, the earliest-issued instruction first and then the
 * lowest register (simt.rf_arbiter = oldest; rr serves the collectors
 * round-robin per bank, one function each, chosen by a switch over
 * SIMT_RF_ARBITERS); it is dispatched in the cycle of its last read and its
 * collector is free for an issue in the next cycle. Without collectors the
 * held instruction reads nothing and is dispatched in its issue cycle.
 * Invariant: the bits of coll_busy = the held instructions' collectors
 * (with collectors). */
#include "model/simt/unit.h"

const char *const simt_rf_arbiter_names[] = {SIMT_RF_ARBITERS(XENUM_NAME)[SIMT_RF_COUNT] = NULL};

/* oldest: in issue order, each instruction's reads lowest register first,
 * each bank serving the first read that reaches it. */
static void oldest(simt_t *u, simt_rf_req_t *req, unsigned n)
{
    uint32_t banks_used = 0;
    for (unsigned i = 0; i < n; i++)
        for (uint16_t r = req[i].reads; r; r &= r - 1) {
            unsigned reg = (unsigned)__builtin_ctz(r);
            uint32_t bank = 1u << ((reg + req[i].base) % u->rf_banks);
            if (banks_used & bank)
                continue;
            banks_used |= bank;
            req[i].reads &= (uint16_t)~(1u << reg);
        }
}

/* rr: each bank serves the first collector after the one it served last
 * (wrapping) that has a pending read in it, that read being its lowest
 * register there. */
static void rr(simt_t *u, simt_rf_req_t *req, unsigned n)
{
    simt_rf_req_t *in[GPU_CORES] = {NULL}; /* by collector: one instruction each */
    for (unsigned i = 0; i < n; i++)
        in[req[i].coll] = &req[i];
    for (unsigned b = 0; b < u->rf_banks; b++)
        for (unsigned k = 1; k <= u->collectors; k++) {
            unsigned c = (u->rf_last[b] + k) % u->collectors;
            if (!in[c])
                continue;
            uint16_t here = 0;
            for (uint16_t r = in[c]->reads; r; r &= r - 1)
                if (((unsigned)__builtin_ctz(r) + in[c]->base) % u->rf_banks == b)
                    here |= (uint16_t)(r & -r);
            if (!here)
                continue;
            in[c]->reads &= (uint16_t)~(here & -here);
            u->rf_last[b] = (uint8_t)c;
            break;
        }
}

/* The arbiter chosen, inlined into simt_collect (the stack's every cycle). */
static inline __attribute__((always_inline)) void serve(simt_t *u, simt_rf_req_t *req,
                                                        unsigned n)
{
    switch ((simt_rf_arbiter_t)u->rf_arbiter) {
    case SIMT_RF_OLDEST: oldest(u, req, n); return;
    case SIMT_RF_RR: rr(u, req, n); return;
    case SIMT_RF_COUNT: break;
    }
    assert(!"simt_rf_serve: not an arbiter"); /* gpu_desc_check keeps it in range */
}

void simt_rf_serve(simt_t *u, simt_rf_req_t *req, unsigned n) { serve(u, req, n); }

void simt_collect(simt_t *u, sim_time_t now)
{
    simt_warp_t *held[SIMT_WARPS_MAX];
    simt_rf_req_t req[SIMT_WARPS_MAX];
    unsigned n = 0;
    for (uint16_t m = u->live; m; m &= m - 1) { /* in issue order (insertion sort) */
        simt_warp_t *w = &u->w[__builtin_ctz(m)];
        if (!w->held.busy)
            continue;
        unsigned j = n++;
        for (; j > 0 && held[j - 1]->held.seq > w->held.seq; j--) {
            held[j] = held[j - 1];
            req[j] = req[j - 1];
        }
        held[j] = w;
        req[j] = (simt_rf_req_t){w->held.reads, w->rf_base, w->held.coll};
    }
    serve(u, req, n);
    for (unsigned i = 0; i < n; i++)
        if (!(held[i]->held.reads = req[i].reads))
            simt_dispatch(u, held[i], now); /* in issue order: S13 takes units in dispatch order */
}

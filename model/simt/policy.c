/* policy.c — the simt.scheduler plugin (api/tessera_policy.h, model/policy.h):
 * what it is told of an issuing cycle with a choice, and the check of its
 * answer. Only a run whose scheduler is a plugin gets here (issue.c's
 * decide asks it instead of sched.c). Invariant: the order handed back is a
 * permutation of the eligible warps, whatever the plugin answered. */
#include <stdio.h>
#include <string.h>

#include "model/gpu_impl.h"
#include "model/simt/unit.h"

/* What the plugin sees of warp w at `now`. */
static tessera_warp_t describe(const simt_t *u, const simt_warp_t *w, unsigned slot,
                               sim_time_t now)
{
    const simt_entry_t *top = simt_stack_top(&w->st);
    unsigned op = w->code[top->pc].op;
    bool issued = w->rec.warp_instructions > 0;
    return (tessera_warp_t){
        .slot = (uint8_t)slot, .frame = w->frame, .lanes = top->mask, .ip = (uint8_t)top->pc,
        .opcode = (uint8_t)op, .is_mem = simt_is_mem(op),
        /* an answer may be known before its time (decoupled mode): done > now counts */
        .mem_pending = w->mem_wait != 0 || w->mem_done > now,
        .age_ps = w->age, .last_issue_ps = issued ? w->next_ok - u->period : w->age,
        .issued = w->rec.warp_instructions,
    };
}

/* Whether order[0..n) is a permutation of 0..n-1. */
static bool permutation(const uint8_t *order, unsigned n)
{
    uint32_t seen = 0;
    for (unsigned i = 0; i < n; i++) {
        if (order[i] >= n || (seen >> order[i] & 1))
            return false;
        seen |= 1u << order[i];
    }
    return true;
}

/* The slots of the last issuing cycle's warps still resident, in order. */
static unsigned last_slots(const simt_t *u, uint8_t *out)
{
    unsigned k = 0;
    for (unsigned j = 0; j < u->last.n; j++)
        for (uint16_t m = u->live; m; m &= m - 1)
            if (u->w[__builtin_ctz(m)].age == u->last.age[j])
                out[k++] = (uint8_t)__builtin_ctz(m);
    return k;
}

void simt_order_by_plugin(simt_t *u, sim_time_t now, uint16_t eligible, const uint64_t *age,
                          unsigned n, uint8_t *order)
{
    policy_run_t *p = u->sched_run;
    tessera_warp_t warp[SIMT_WARPS_MAX], waiting[SIMT_WARPS_MAX];
    uint8_t last[SIMT_WARPS_MAX];
    unsigned ne = 0, nw = 0;
    for (uint16_t m = u->live; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        const simt_warp_t *w = &u->w[i];
        if (eligible >> i & 1)
            warp[ne++] = describe(u, w, i, now);
        else if (simt_has_next(w))
            waiting[nw++] = describe(u, w, i, now);
    }
    uint64_t cycle = now / u->period;
    tessera_sched_call_t call = {
        .now_ps = now, .cycle = cycle, .width = u->width, .n = ne, .warp = warp,
        .n_waiting = nw, .waiting = waiting, .n_last = last_slots(u, last), .last = last,
    };
    memset(order, 0xff, n);
    int rc = policy_schedule(p, &call, order);
    if (rc == 0 && ne == n && permutation(order, n) && !policy_failed(p))
        return;
    char what[96];
    if (rc != 0)
        snprintf(what, sizeof what, "returned %d (the oldest warps stand in)", rc);
    else
        snprintf(what, sizeof what, "the order of the %u eligible warps is not a permutation of "
                 "0..%u (the oldest stand in)", n, n - 1);
    gpu_policy_error(u->gpu, p, "schedule", cycle, what);
    simt_last_t none = {0};
    simt_sched_order(SIMT_SCHED_OLDEST, age, n, &none, order);
}

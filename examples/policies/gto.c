/* gto.c — the built-in warp scheduler `gto` (S6) as a plugin: greedy then
 * oldest — the warps that issued in the last issuing cycle first, in their
 * order, then the others oldest first. Rows identical to
 * `-s simt.scheduler=gto` (tests/test_policy.c). */
#include "api/tessera_policy.h"

static int schedule(void *state, const tessera_sched_call_t *call, uint8_t *order)
{
    (void)state;
    unsigned k = 0;
    uint32_t used = 0;
    for (unsigned j = 0; j < call->n_last; j++) /* greedy: last time's warps */
        for (unsigned i = 0; i < call->n; i++)
            if (call->warp[i].slot == call->last[j] && !(used >> i & 1)) {
                used |= 1u << i;
                order[k++] = (uint8_t)i;
            }
    while (k < call->n) { /* then oldest first */
        unsigned best = call->n;
        for (unsigned i = 0; i < call->n; i++)
            if (!(used >> i & 1) && (best == call->n || call->warp[i].age_ps < call->warp[best].age_ps))
                best = i;
        used |= 1u << best;
        order[k++] = (uint8_t)best;
    }
    return 0;
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_SCHEDULER,
    .name = "gto",
    .schedule = schedule,
};

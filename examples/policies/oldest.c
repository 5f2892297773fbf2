/* oldest.c — the built-in warp scheduler `oldest` (S6) as a plugin: the
 * eligible warps oldest first. Rows identical to `-s simt.scheduler=oldest`
 * (tests/test_policy.c). */
#include "api/tessera_policy.h"

static int schedule(void *state, const tessera_sched_call_t *call, uint8_t *order)
{
    (void)state;
    for (unsigned i = 0; i < call->n; i++) { /* insertion sort by age */
        unsigned j = i;
        for (; j > 0 && call->warp[order[j - 1]].age_ps > call->warp[i].age_ps; j--)
            order[j] = order[j - 1];
        order[j] = (uint8_t)i;
    }
    return 0;
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_SCHEDULER,
    .name = "oldest",
    .schedule = schedule,
};

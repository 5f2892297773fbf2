/* bad_order.c — a warp scheduler whose order is not a permutation (every
 * entry 0): tests/test_policy.c, the run ends with status error. */
#include "api/tessera_policy.h"

static int schedule(void *state, const tessera_sched_call_t *call, uint8_t *order)
{
    (void)state;
    for (unsigned i = 0; i < call->n; i++)
        order[i] = 0;
    return 0;
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_SCHEDULER,
    .name = "bad_order",
    .schedule = schedule,
};

/* fifo.c — the built-in arbiter `fifo` (T8) as a plugin: the earliest
 * arrival at the bank, ties to the lowest requester id. Rows identical to
 * `-s sm.arbiter=fifo` (tests/test_policy.c). */
#include "api/tessera_policy.h"

static int arbitrate(void *state, const tessera_arb_call_t *call)
{
    (void)state;
    unsigned best = 0;
    for (unsigned i = 1; i < call->n; i++) /* by requester: a strict < keeps the lowest id */
        if (call->req[i].arrive_ps < call->req[best].arrive_ps)
            best = i;
    return call->req[best].requester;
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_ARBITER,
    .name = "fifo",
    .arbitrate = arbitrate,
};

/* fixed.c — the built-in arbiter `fixed` (T8) as a plugin: the lowest
 * requester id among the requests waiting. Rows identical to
 * `-s sm.arbiter=fixed` (tests/test_policy.c). */
#include "api/tessera_policy.h"

static int arbitrate(void *state, const tessera_arb_call_t *call)
{
    (void)state;
    return call->req[0].requester; /* req[] is by requester */
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_ARBITER,
    .name = "fixed",
    .arbitrate = arbitrate,
};

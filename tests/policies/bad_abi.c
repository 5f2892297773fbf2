/* bad_abi.c — a plugin built for another policy ABI (tests/test_policy.c:
 * loading it is refused before the run). */
#include "api/tessera_policy.h"

static int arbitrate(void *state, const tessera_arb_call_t *call)
{
    (void)state;
    return call->req[0].requester;
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI + 1,
    .kind = TESSERA_POLICY_ARBITER,
    .name = "bad_abi",
    .arbitrate = arbitrate,
};

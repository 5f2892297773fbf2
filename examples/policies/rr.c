/* rr.c — the built-in arbiter `rr` (T8) as a plugin: round-robin from the
 * requester after the one this bank granted last (requester 0 before its
 * first grant). Rows identical to `-s sm.arbiter=rr` (tests/test_policy.c). */
#include "api/tessera_policy.h"

static int arbitrate(void *state, const tessera_arb_call_t *call)
{
    (void)state;
    unsigned start = (unsigned)(call->last + 1) & 15, best = 0, best_dist = 16;
    for (unsigned i = 0; i < call->n; i++) {
        unsigned dist = (call->req[i].requester - start) & 15; /* its turn after `start` */
        if (dist < best_dist)
            best = i, best_dist = dist;
    }
    return call->req[best].requester;
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_ARBITER,
    .name = "rr",
    .arbitrate = arbitrate,
};

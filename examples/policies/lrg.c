/* lrg.c — a least-recently-granted arbiter, as the matrix arbiter of Dally
 * and Towles implements it ("Principles and Practices of Interconnection
 * Networks", Morgan Kaufmann 2004, section 18.5, "Matrix Arbiter"): each bank
 * grants the waiting requester it granted least recently, one never granted
 * before one granted, and among those never granted the lowest id (the
 * matrix's initial state). Unlike round-robin (`rr`), which rotates from the
 * requester after the last one granted whatever the history before it, a
 * requester granted long ago keeps its priority over one granted since.
 * Not a Tessera built-in; its timeline is checked by hand in
 * tests/test_policy.c. */
#include <stdint.h>
#include <stdlib.h>

#include "api/tessera_policy.h"

typedef struct lrg {
    unsigned banks;
    uint64_t grants;          /* grants so far, over all banks */
    uint64_t stamp[];         /* [bank * 16 + requester]: the grant count after its last
                                 grant at that bank, 0 = never granted there */
} lrg_t;

static int create(const tessera_host_t *host, void **state)
{
    lrg_t *s = calloc(1, sizeof *s + (size_t)host->banks * 16 * sizeof s->stamp[0]);
    if (!s) {
        host->fail(host, "out of memory");
        return 1;
    }
    s->banks = host->banks;
    *state = s;
    return 0;
}

static void destroy(void *state) { free(state); }

static int arbitrate(void *state, const tessera_arb_call_t *call)
{
    lrg_t *s = state;
    uint64_t *stamp = &s->stamp[call->bank * 16];
    unsigned best = 0;
    for (unsigned i = 1; i < call->n; i++) /* by requester: a strict < keeps the lowest id */
        if (stamp[call->req[i].requester] < stamp[call->req[best].requester])
            best = i;
    unsigned c = call->req[best].requester;
    stamp[c] = ++s->grants;
    return (int)c;
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_ARBITER,
    .name = "lrg",
    .create = create,
    .destroy = destroy,
    .arbitrate = arbitrate,
};

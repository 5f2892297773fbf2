/* wrong_answer.c — an arbiter that answers like `fixed` for its first
 * plugin.wrong_answer.after grants (default 0), then with a requester that
 * is not waiting (tests/test_policy.c: the run ends with status error, and
 * what it recorded before stays). */
#include <stdlib.h>

#include "api/tessera_policy.h"

static const char *const params[] = {"after", NULL};

typedef struct state {
    unsigned long left;
} state_t;

static int create(const tessera_host_t *host, void **state)
{
    const char *after = host->param(host, "after");
    state_t *s = malloc(sizeof *s);
    if (!s)
        return 1;
    s->left = after ? strtoul(after, NULL, 10) : 0;
    *state = s;
    return 0;
}

static void destroy(void *state) { free(state); }

static int arbitrate(void *state, const tessera_arb_call_t *call)
{
    state_t *s = state;
    if (s->left) {
        s->left--;
        return call->req[0].requester;
    }
    return 99;
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_ARBITER,
    .name = "wrong_answer",
    .params = params,
    .create = create,
    .destroy = destroy,
    .arbitrate = arbitrate,
};

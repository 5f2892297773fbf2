/* create_fail.c — an arbiter whose create() refuses its parameter
 * plugin.create_fail.level unless it is "ok" (tests/test_policy.c: the run
 * does not start, and the message is the plugin's). */
#include <string.h>

#include "api/tessera_policy.h"

static const char *const params[] = {"level", NULL};

static int create(const tessera_host_t *host, void **state)
{
    const char *level = host->param(host, "level");
    (void)state;
    if (level && !strcmp(level, "ok"))
        return 0;
    host->fail(host, "plugin.create_fail.level must be ok");
    return 1;
}

static int arbitrate(void *state, const tessera_arb_call_t *call)
{
    (void)state;
    return call->req[0].requester;
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_ARBITER,
    .name = "create_fail",
    .params = params,
    .create = create,
    .arbitrate = arbitrate,
};

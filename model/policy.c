/* policy.c — a plugin's run (policy.h): its host (parameters, random stream,
 * failure message), create and destroy, and the run's end on a wrong answer.
 * The decision calls themselves are made, and their answers checked, where
 * the decision is (sm.c, simt.c). */
#include "model/policy.h"

#include <stdio.h>
#include <string.h>

#include "events/base/err.h"
#include "model/gpu_impl.h"
#include "model/gpu_keys.h"

#define POINT_KIND(id, kind, row) [GPU_POINT_##id] = kind,
#define POINT_KEY(id, kind, row) [GPU_POINT_##id] = GPU_KEY_TEXT(row),
const uint32_t gpu_point_kind[GPU_POINT_COUNT] = {GPU_POINTS(POINT_KIND)};
const char *const gpu_point_key[GPU_POINT_COUNT] = {GPU_POINTS(POINT_KEY)};

static policy_run_t *run_of(const tessera_host_t *h) { return h->impl; }

/* "NAME.KEY" of this plugin's parameter `key`, or NULL when not set. */
static const char *host_param(const tessera_host_t *h, const char *key)
{
    const policy_run_t *p = run_of(h);
    size_t len = strlen(p->impl->name);
    for (unsigned i = 0; i < p->sel->n_params; i++) {
        const char *k = p->sel->param[i].key;
        if (!strncmp(k, p->impl->name, len) && k[len] == '.' && !strcmp(k + len + 1, key))
            return p->sel->param[i].value;
    }
    return NULL;
}

static uint64_t host_random(const tessera_host_t *h) { return rng_next(&run_of(h)->rng); }

static uint64_t host_random_below(const tessera_host_t *h, uint64_t n)
{
    return n ? rng_below(&run_of(h)->rng, n) : 0;
}

static void host_fail(const tessera_host_t *h, const char *message)
{
    policy_run_t *p = run_of(h);
    snprintf(p->fail, sizeof p->fail, "%s", message ? message : "");
}

/* Whether `key` ("KEY" after "NAME.") is one the plugin lists. */
static bool listed(const tessera_policy_t *impl, const char *key)
{
    for (const char *const *k = impl->params; k && *k; k++)
        if (!strcmp(*k, key))
            return true;
    return false;
}

/* Every plugin.NAME.KEY of this plugin's NAME is one it reads. */
static int check_params(const policy_run_t *p, diag_t *diag)
{
    size_t len = strlen(p->impl->name);
    for (unsigned i = 0; i < p->sel->n_params; i++) {
        const char *k = p->sel->param[i].key;
        if (strncmp(k, p->impl->name, len) || k[len] != '.' || listed(p->impl, k + len + 1))
            continue;
        char keys[160] = "";
        size_t at = 0;
        for (const char *const *l = p->impl->params; l && *l && at < sizeof keys; l++) {
            int w = snprintf(keys + at, sizeof keys - at, "%s%s", at ? ", " : "", *l);
            at += w > 0 ? (size_t)w : 0;
        }
        return diag_fail(diag, TESS_EINPUT, "plugin.%s: %s reads no such parameter (it reads: %s)",
                         k, p->label, keys[0] ? keys : "none");
    }
    return TESS_OK;
}

int policy_open(policy_run_t *p, struct gpu *g, const gpu_policies_t *sel, unsigned point,
                diag_t *diag)
{
    memset(p, 0, sizeof *p);
    p->point = point;
    p->sel = sel;
    p->impl = sel->impl[point];
    if (!p->impl)
        return TESS_OK;
    snprintf(p->label, sizeof p->label, "plugin %s (%s)", p->impl->name, gpu_point_key[point]);
    int rc = check_params(p, diag);
    if (rc != TESS_OK)
        return rc;
    rng_seed(&p->rng, g->desc.seed, RNG_STREAM_POLICY(point));
    p->host = (tessera_host_t){
        .abi = TESSERA_POLICY_ABI,
        .banks = g->desc.banks,
        .period_ps = g->desc.period_ps,
        .seed = g->desc.seed,
        .param = host_param,
        .random = host_random,
        .random_below = host_random_below,
        .fail = host_fail,
        .impl = p,
    };
    if (p->impl->create && p->impl->create(&p->host, &p->state) != 0)
        return diag_fail(diag, TESS_EINPUT, "%s: create failed%s%s", p->label,
                         p->fail[0] ? ": " : "", p->fail);
    p->open = true;
    return TESS_OK;
}

void policy_close(policy_run_t *p)
{
    if (p->open && p->impl->destroy)
        p->impl->destroy(p->state);
    p->open = false;
    p->state = NULL;
}

void gpu_policy_error(struct gpu *g, const policy_run_t *p, const char *call, uint64_t cycle,
                      const char *what)
{
    if (g->outcome == GPU_POLICY_ERROR)
        return;
    g->outcome = GPU_POLICY_ERROR;
    snprintf(g->errmsg, sizeof g->errmsg, "%s: %s at cycle %llu: %s", p->label, call,
             (unsigned long long)cycle, p->fail[0] ? p->fail : what);
    sim_stop(g->sim, SIM_END_STOPPED);
}

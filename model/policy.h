/* policy.h — policies of the user's own (api/tessera_policy.h) as the model
 * sees them: which decision points a run hands to a plugin (gpu_policies_t,
 * part of gpu_desc_t, filled by config/ from `-s KEY=plugin:PATH` and
 * `-s plugin.NAME.KEY=VALUE`), and per run the plugin's state, host and
 * random stream (policy_run_t). The model never sees a file: config/ has
 * loaded the plugin and gives its descriptor. Invariant: a policy_run_t is
 * open (create() succeeded) exactly while its state may be passed to the
 * plugin's callbacks; every answer is checked by the caller, which reports
 * a wrong one with gpu_policy_error. */
#ifndef TESSERA_POLICY_MODEL_H
#define TESSERA_POLICY_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/tessera_policy.h"
#include "events/base/diag.h"
#include "model/rng.h"

struct gpu;

/* The decision points a plugin may take over, X(ID, the kind of plugin it
 * takes, its key's row of model/gpu_keys.h, which a user of the row
 * includes): gpu_point_t, gpu_point_kind, gpu_point_key and the binding's
 * kinds (cmake/gen-pycodes.c) come from it. */
#define GPU_POINTS(X)                                                            \
    X(ARBITER, TESSERA_POLICY_ARBITER, GPU_KEY_ARBITER)                          \
    X(BANK_MAP, TESSERA_POLICY_BANK_MAP, GPU_KEY_BANK_MAP)                       \
    X(SCHEDULER, TESSERA_POLICY_SCHEDULER, GPU_KEY_SIMT_SCHEDULER)
#define GPU_POINT_ID(id, kind, row) GPU_POINT_##id,
typedef enum gpu_point { GPU_POINTS(GPU_POINT_ID) GPU_POINT_COUNT } gpu_point_t;

#define GPU_POLICY_PATH_MAX 512   /* "plugin:" and an absolute path, or "python:LABEL" */
#define GPU_POLICY_NAME_MAX 32    /* a plugin's name, with its NUL */
#define GPU_POLICY_PARAMS_MAX 32  /* plugin.NAME.KEY settings per run */
#define GPU_POLICY_PKEY_MAX 64    /* "NAME.KEY", with its NUL */
#define GPU_POLICY_PVALUE_MAX 160 /* a parameter's value, with its NUL */
#define GPU_SHA256_HEX 65         /* 64 hex digits and a NUL */

/* The kind of plugin each point takes (TESSERA_POLICY_*), and its key. */
extern const uint32_t gpu_point_kind[GPU_POINT_COUNT];
extern const char *const gpu_point_key[GPU_POINT_COUNT];

/* Which points a run hands to a plugin, and the plugins' parameters. Plain
 * data (copied with the description); unused bytes are zero, so that two
 * equal selections compare equal byte for byte. */
typedef struct gpu_policies {
    const tessera_policy_t *impl[GPU_POINT_COUNT]; /* NULL: the key's built-in choice */
    char value[GPU_POINT_COUNT][GPU_POLICY_PATH_MAX]; /* the key's text: "plugin:/abs/x.so",
                                                        "python:LABEL"; "" when built-in */
    char sha256[GPU_POINT_COUNT][GPU_SHA256_HEX]; /* of the plugin's file; "" for Python */
    uint8_t n_params;         /* entries of param, sorted by key, keys distinct */
    struct {
        char key[GPU_POLICY_PKEY_MAX];     /* "NAME.KEY" */
        char value[GPU_POLICY_PVALUE_MAX];
    } param[GPU_POLICY_PARAMS_MAX];
} gpu_policies_t;

/* One plugin during one run. */
typedef struct policy_run {
    const tessera_policy_t *impl; /* ro: NULL when the point is built in */
    void *state;              /* what create() made */
    tessera_host_t host;      /* what the plugin gets (host.impl points here) */
    const gpu_policies_t *sel;/* ro: the parameters */
    rng_t rng;                /* the plugin's own stream */
    char fail[160];           /* what host->fail said */
    char label[96];           /* "plugin NAME (KEY)", for messages */
    bool open;                /* create() succeeded: destroy() is due */
    unsigned point;           /* gpu_point_t */
} policy_run_t;

/* Opens point `point` of `sel` for one run on GPU g: checks the plugin's
 * parameters (every plugin.NAME.KEY of its NAME is one it lists), seeds its
 * stream and calls create(). A built-in point is left closed with impl
 * NULL. Returns TESS_OK, or TESS_EINPUT naming the plugin (create failed,
 * an unknown parameter); on failure nothing is left open. */
int policy_open(policy_run_t *p, struct gpu *g, const gpu_policies_t *sel, unsigned point,
                diag_t *diag);

/* Calls destroy() when open. Idempotent. */
void policy_close(policy_run_t *p);

/* The point is a plugin's (else the description's built-in decides). */
static inline bool policy_plugged(const policy_run_t *p) { return p->impl != NULL; }

/* The plugin's decisions, for the block that asks them (sm.c, simt/policy.c;
 * an open run of the point's kind only): each forgets what the plugin said
 * through host->fail before calling it, so that policy_failed tells whether
 * this answer came with a complaint. The caller checks the answer. */
static inline unsigned policy_bank_of(policy_run_t *p, unsigned addr, unsigned banks)
{
    p->fail[0] = 0;
    return p->impl->bank_of(p->state, addr, banks);
}
static inline int policy_arbitrate(policy_run_t *p, const tessera_arb_call_t *call)
{
    p->fail[0] = 0;
    return p->impl->arbitrate(p->state, call);
}
static inline int policy_schedule(policy_run_t *p, const tessera_sched_call_t *call,
                                  uint8_t *order)
{
    p->fail[0] = 0;
    return p->impl->schedule(p->state, call, order);
}
/* The plugin called host->fail during the last decision. */
static inline bool policy_failed(const policy_run_t *p) { return p->fail[0] != 0; }

/* Ends the run with status error: "policy: plugin NAME (KEY): CALL at cycle
 * C: WHAT", WHAT being what the plugin said through host->fail during the
 * last decision when it said something, else `what` (the caller's finding).
 * The first error only; the model goes on consistently until the
 * simulation stops after the current event. */
void gpu_policy_error(struct gpu *g, const policy_run_t *p, const char *call, uint64_t cycle,
                      const char *what);

#endif

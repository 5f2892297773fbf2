/* cfg_plugin.c — the policy keys' `plugin:PATH` values and the plugins'
 * `plugin.NAME.KEY` parameters (api/tessera_policy.h, model/policy.h).
 * A plugin file is loaded once per process: the registry below keeps each
 * one opened (dlopen, never closed) with the SHA-256 of its file, so that
 * every run of the process uses the same code, and a file that changed on
 * disk since is refused rather than silently run under the old code. The
 * registry is the one process-wide state of the configuration, as the
 * dynamic loader's own is: guarded by a mutex. Invariant: an entry's
 * descriptor passed every check (symbol, ABI, kind, name, callbacks). */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/cfg_int.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "events/base/infile.h"
#include "model/gpu_keys.h"

#define PLUGIN_FILE_MAX (256u << 20) /* a shared object is far smaller */
#define REGISTRY_MAX 64

typedef struct entry {
    char path[PATH_MAX];      /* realpath of the file */
    char sha256[GPU_SHA256_HEX];
    const tessera_policy_t *impl;
} entry_t;

/* The registry: process-wide mutable state, because a plugin is dlopen'ed
 * once per process (the dynamic loader's state is process-wide too) and
 * every run of the process must get the same code; guarded by `lock`, so
 * that runs configured on different threads of one process share it safely. */
static struct {
    pthread_mutex_t lock;
    entry_t e[REGISTRY_MAX];
    unsigned n;
} registry = {.lock = PTHREAD_MUTEX_INITIALIZER};

static const char *const kind_names[] = {
    [TESSERA_POLICY_ARBITER] = "an arbiter (" GPU_KEY_TEXT(GPU_KEY_ARBITER) ")",
    [TESSERA_POLICY_BANK_MAP] = "a bank mapping (" GPU_KEY_TEXT(GPU_KEY_BANK_MAP) ")",
    [TESSERA_POLICY_SCHEDULER] = "a warp scheduler (" GPU_KEY_TEXT(GPU_KEY_SIMT_SCHEDULER) ")",
};

static const char *kind_name(uint32_t kind)
{
    return kind >= 1 && kind <= TESSERA_POLICY_SCHEDULER ? kind_names[kind] : "of no known kind";
}

/* The SHA-256 of the file at `path` in lowercase hex (nettle). */
static int hash_file(const char *key, const char *path, char out[GPU_SHA256_HEX], diag_t *d)
{
    char *buf = NULL;
    size_t len = 0;
    diag_t why = {0};
    if (infile_read(path, PLUGIN_FILE_MAX, "the limit for a plugin", &buf, &len, &why) != TESS_OK)
        return diag_fail(d, TESS_EUSAGE, "%s: plugin: %s", key, why.msg);
    struct sha256_ctx ctx;
    uint8_t dig[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, (const uint8_t *)buf);
    sha256_digest(&ctx, sizeof dig, dig);
    tess_free(buf);
    for (unsigned i = 0; i < sizeof dig; i++)
        snprintf(out + 2 * i, 3, "%02x", dig[i]);
    return TESS_OK;
}

static bool valid_name(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n >= GPU_POLICY_NAME_MAX)
        return false;
    return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

/* The checks of a descriptor for `point`: ABI, kind, name, callbacks. */
int cfg_policy_check(const char *key, const char *what, const tessera_policy_t *impl,
                     unsigned point, diag_t *d)
{
    uint32_t kind = gpu_point_kind[point];
    if (impl->abi != TESSERA_POLICY_ABI)
        return diag_fail(d, TESS_EUSAGE, "%s: plugin %s: built for policy ABI %u, this Tessera "
                         "has ABI %u: rebuild it against this tessera_policy.h",
                         key, what, impl->abi, TESSERA_POLICY_ABI);
    if (impl->kind != kind)
        return diag_fail(d, TESS_EUSAGE, "%s: plugin %s is %s, not %s", key, what,
                         kind_name(impl->kind), kind_name(kind));
    if (!valid_name(impl->name))
        return diag_fail(d, TESS_EUSAGE, "%s: plugin %s: its name '%s' is not 1..%d characters "
                         "of a-z, 0-9 and _", key, what, impl->name ? impl->name : "(null)",
                         GPU_POLICY_NAME_MAX - 1);
    bool has = kind == TESSERA_POLICY_ARBITER    ? impl->arbitrate != NULL
               : kind == TESSERA_POLICY_BANK_MAP ? impl->bank_of != NULL
                                                 : impl->schedule != NULL;
    if (!has)
        return diag_fail(d, TESS_EUSAGE, "%s: plugin %s: its %s callback is NULL", key, what,
                         kind == TESSERA_POLICY_ARBITER    ? "arbitrate"
                         : kind == TESSERA_POLICY_BANK_MAP ? "bank_of"
                                                           : "schedule");
    return TESS_OK;
}

/* Opens the file and finds its descriptor (registry lock held). */
static int open_plugin(const char *key, const char *real, const tessera_policy_t **impl,
                       diag_t *d)
{
    void *h = dlopen(real, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        return diag_fail(d, TESS_EUSAGE, "%s: plugin %s: cannot load it: %s", key, real,
                         why ? why : "dlopen failed");
    }
    dlerror();
    *impl = dlsym(h, TESSERA_POLICY_SYMBOL);
    if (!*impl) {
        dlclose(h);
        return diag_fail(d, TESS_EUSAGE, "%s: plugin %s: no symbol '%s' (a plugin defines "
                         "TESSERA_POLICY_EXPORT = {...}: api/tessera_policy.h)",
                         key, real, TESSERA_POLICY_SYMBOL);
    }
    return TESS_OK;
}

/* The registry's entry for file `real` hashed `sha`, loaded when new. */
static int lookup(const char *key, const char *real, const char *sha, const entry_t **out,
                  diag_t *d)
{
    for (unsigned i = 0; i < registry.n; i++) {
        entry_t *e = &registry.e[i];
        if (strcmp(e->path, real))
            continue;
        if (strcmp(e->sha256, sha))
            return diag_fail(d, TESS_EUSAGE, "%s: plugin %s changed on disk since this process "
                             "loaded it (sha256 %.12s..., now %.12s...): a process runs one "
                             "version of a plugin; start a new one", key, real, e->sha256, sha);
        *out = e;
        return TESS_OK;
    }
    if (registry.n == REGISTRY_MAX)
        return diag_fail(d, TESS_EUSAGE, "%s: plugin %s: more than %d plugin files in one "
                         "process", key, real, REGISTRY_MAX);
    const tessera_policy_t *impl;
    int rc = open_plugin(key, real, &impl, d);
    if (rc != TESS_OK)
        return rc;
    entry_t *e = &registry.e[registry.n++];
    snprintf(e->path, sizeof e->path, "%s", real);
    snprintf(e->sha256, sizeof e->sha256, "%s", sha);
    e->impl = impl;
    *out = e;
    return TESS_OK;
}

/* Loads `path` for `point` (key `key`): fills value, sha256 and impl of
 * sel's point. TESS_EUSAGE naming the key and the plugin: a missing or
 * unreadable file, no symbol, another ABI or kind, a bad descriptor. */
static int load(gpu_policies_t *sel, unsigned point, const char *key, const char *path,
                diag_t *d)
{
    char real[PATH_MAX], sha[GPU_SHA256_HEX];
    if (!*path)
        return diag_fail(d, TESS_EUSAGE, "%s: 'plugin:' names no file (plugin:PATH.so)", key);
    if (!realpath(path, real))
        return diag_fail(d, TESS_EUSAGE, "%s: plugin %s: %s", key, path, strerror(errno));
    if (strlen(real) + sizeof "plugin:" > GPU_POLICY_PATH_MAX)
        return diag_fail(d, TESS_EUSAGE, "%s: plugin %s: path longer than %d characters", key,
                         real, GPU_POLICY_PATH_MAX - 8);
    int rc = hash_file(key, real, sha, d);
    if (rc != TESS_OK)
        return rc;
    const entry_t *e = NULL;
    pthread_mutex_lock(&registry.lock);
    rc = lookup(key, real, sha, &e, d);
    pthread_mutex_unlock(&registry.lock);
    if (rc == TESS_OK)
        rc = cfg_policy_check(key, real, e->impl, point, d);
    if (rc != TESS_OK)
        return rc;
    memset(sel->value[point], 0, sizeof sel->value[point]);
    snprintf(sel->value[point], sizeof sel->value[point], "plugin:%.*s",
             (int)(sizeof sel->value[point] - sizeof "plugin:"), real); /* fits: checked above */
    memcpy(sel->sha256[point], sha, sizeof sel->sha256[point]);
    sel->impl[point] = e->impl;
    return TESS_OK;
}

/* --- the policy keys -------------------------------------------------------- */

bool cfg_policy_parse(const cfg_key_t *k, cfg_t *cfg, const char *text, int *rc, diag_t *d)
{
    gpu_policies_t *sel = &cfg->gpu.policies;
    unsigned point = k->point;
    if (strncasecmp(text, "plugin:", 7)) {
        /* a built-in name: the enumeration parses it; the plugin goes */
        return false;
    }
    gpu_policies_t tmp = *sel;
    *rc = load(&tmp, point, k->info.key, text + 7, d);
    if (*rc == TESS_OK)
        *sel = tmp;
    return true;
}

void cfg_policy_clear(cfg_t *cfg, unsigned point)
{
    gpu_policies_t *sel = &cfg->gpu.policies;
    sel->impl[point] = NULL;
    memset(sel->value[point], 0, sizeof sel->value[point]);
    memset(sel->sha256[point], 0, sizeof sel->sha256[point]);
}

const char *cfg_policy_value(const cfg_t *cfg, unsigned point)
{
    const gpu_policies_t *sel = &cfg->gpu.policies;
    return sel->impl[point] ? sel->value[point] : NULL;
}

int cfg_set_policy(cfg_t *cfg, const char *key, const tessera_policy_t *impl,
                   const char *label, diag_t *d)
{
    const cfg_key_t *k = NULL;
    for (size_t i = 0; i < cfg_key_count() && !k; i++)
        if (!strcmp(cfg_key_at(i)->info.key, key))
            k = cfg_key_at(i);
    if (!k || k->type != CFG_T_POLICY)
        return diag_fail(d, TESS_EINPUT, "%s: not a policy key (sm.arbiter, sm.bank_map)", key);
    const char *colon = label ? strchr(label, ':') : NULL;
    if (!colon || colon == label || !strncmp(label, "plugin:", 7) ||
        strlen(label) >= GPU_POLICY_PATH_MAX)
        return diag_fail(d, TESS_EINPUT, "%s: label '%s' is not SCHEME:NAME (python:NAME; "
                         "plugin: is for files)", key, label ? label : "(null)");
    int rc = cfg_policy_check(key, label, impl, k->point, d);
    if (rc != TESS_OK)
        return rc;
    gpu_policies_t *sel = &cfg->gpu.policies;
    cfg_policy_clear(cfg, k->point);
    snprintf(sel->value[k->point], sizeof sel->value[k->point], "%s", label);
    sel->impl[k->point] = impl;
    return TESS_OK;
}

/* --- plugin.NAME.KEY ----------------------------------------------------------- */

int cfg_plugin_param(cfg_t *cfg, const char *name, const char *value, diag_t *d)
{
    gpu_policies_t *sel = &cfg->gpu.policies;
    const char *dot = strchr(name, '.');
    size_t plen = dot ? (size_t)(dot - name) : 0;
    char plugin[GPU_POLICY_NAME_MAX];
    snprintf(plugin, sizeof plugin, "%.*s", (int)(plen < sizeof plugin ? plen : 0), name);
    if (!dot || !valid_name(plugin) || !dot[1] || strchr(dot + 1, '.') ||
        strlen(name) >= GPU_POLICY_PKEY_MAX)
        return diag_fail(d, TESS_EINPUT, "plugin.%s: expected plugin.NAME.KEY (NAME the "
                         "plugin's name, a-z0-9_; at most %d characters together)", name,
                         GPU_POLICY_PKEY_MAX - 1);
    if (strlen(value) >= GPU_POLICY_PVALUE_MAX)
        return diag_fail(d, TESS_EINPUT, "plugin.%s: value longer than %d characters", name,
                         GPU_POLICY_PVALUE_MAX - 1);
    unsigned i = 0;
    while (i < sel->n_params && strcmp(sel->param[i].key, name) < 0)
        i++;
    if (i == sel->n_params || strcmp(sel->param[i].key, name)) {
        if (sel->n_params == GPU_POLICY_PARAMS_MAX)
            return diag_fail(d, TESS_EINPUT, "plugin.%s: more than %d plugin parameters", name,
                             GPU_POLICY_PARAMS_MAX);
        memmove(&sel->param[i + 1], &sel->param[i], (sel->n_params - i) * sizeof sel->param[0]);
        sel->n_params++;
        memset(&sel->param[i], 0, sizeof sel->param[i]);
        snprintf(sel->param[i].key, sizeof sel->param[i].key, "%s", name);
    }
    memset(sel->param[i].value, 0, sizeof sel->param[i].value);
    snprintf(sel->param[i].value, sizeof sel->param[i].value, "%s", value);
    return TESS_OK;
}

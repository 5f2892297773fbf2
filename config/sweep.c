/* sweep.c — the plan of a parameter sweep (sweep.h): value lists into axes,
 * the cartesian product, and every point checked as a run would apply it.
 * The latency syntax stays in cfg_lat.c: a list only asks it which form
 * keeps its commas (cfg_lat_takes_list). */
#include "config/sweep.h"

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/cfg.h"
#include "config/cfg_int.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/gpu.h"
#include "model/rng.h"
#include "tessera_names.h" /* generated: GEN_KEY_SIM_SEED */

/* --- value lists ------------------------------------------------------------- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
    return s;
}

/* Appends "key=value" to the axis; false when out of memory. A policy of
 * one's own, plugin:PATH, gets its absolute path when the file exists, so
 * that every point names the same file wherever it runs (--emit, Slurm);
 * a missing one stays as given, for the point's check to report. */
static bool axis_add(sweep_axis_t *ax, const char *value)
{
    char real[PATH_MAX + 8];
    if (!strncasecmp(value, "plugin:", 7) && value[7] != '/' && value[7]) {
        char *abs = realpath(value + 7, NULL);
        if (abs && strlen(abs) < PATH_MAX)
            snprintf(real, sizeof real, "plugin:%s", abs), value = real;
        free(abs);
    }
    size_t len = strlen(ax->key) + strlen(value) + 2;
    char **grown = tess_realloc(ax->assign, (ax->n + 1) * sizeof *grown);
    if (!grown)
        return false;
    ax->assign = grown;
    if (!(grown[ax->n] = tess_malloc(len)))
        return false;
    snprintf(grown[ax->n++], len, "%s=%s", ax->key, value);
    return true;
}

/* Does the piece carry a form of its own (`uniform:…`, `choice:…`)? */
static bool has_form(const char *piece) { return strchr(piece, ':') != NULL; }

/* Splits `list` (modified) by the rule of sweep_plan_parse into the axis's
 * values. Returns TESS_OK, TESS_EINPUT for an empty value, TESS_ENOMEM. */
static int split_values(sweep_axis_t *ax, char *list, diag_t *d)
{
    const char *sep = strchr(list, ';') ? ";" : ",";
    char *item = NULL, *save = NULL, *piece;
    bool in_list = false;
    for (char *p = list;; p = NULL) {
        piece = strtok_r(p, sep, &save);
        bool joins = piece && *sep == ',' && in_list && !has_form(piece);
        if (joins) {               /* `choice:1` + `,8`: one value, in place */
            piece[-1] = ',';
            continue;
        }
        if (item && !*trim(item))
            return diag_fail(d, TESS_EINPUT, "sweep -s '%s': empty value", ax->arg);
        if (item && !axis_add(ax, trim(item)))
            return diag_fail(d, TESS_ENOMEM, "out of memory");
        if (!piece)
            break;
        item = piece;
        in_list = cfg_lat_takes_list(piece);
    }
    return TESS_OK;
}

/* Parses one -s argument into an axis. */
static int parse_axis(sweep_axis_t *ax, const char *arg, diag_t *d)
{
    ax->arg = arg;
    char *text = tess_strdup(arg);
    if (!text)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    char *eq = strchr(text, '=');
    int rc = TESS_OK;
    if (!eq || eq == text) {
        rc = diag_fail(d, TESS_EINPUT, "sweep -s '%s': expected section.key=v1,v2,...",
                       arg);
    } else {
        *eq = 0;
        ax->key = tess_strdup(trim(text));
        size_t len = strlen(eq + 1);
        /* strtok_r skips empty pieces: catch ",," and a leading or trailing separator */
        if (!ax->key)
            rc = diag_fail(d, TESS_ENOMEM, "out of memory");
        else if (!len || strstr(eq + 1, ",,") || strstr(eq + 1, ";;") ||
                 strchr(",;", eq[1]) || strchr(",;", eq[len]))
            rc = diag_fail(d, TESS_EINPUT, "sweep -s '%s': empty value", arg);
        else
            rc = split_values(ax, eq + 1, d);
    }
    tess_free(text);
    return rc;
}

int sweep_plan_parse(sweep_plan_t *p, char *const *args, size_t n, diag_t *d)
{
    p->n_axes = 0;
    p->pick = NULL;
    p->n_pick = 0;
    if (!(p->axes = tess_calloc(n ? n : 1, sizeof *p->axes)))
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        sweep_axis_t *ax = &p->axes[p->n_axes++];
        ax->group = i;
        int rc = parse_axis(ax, args[i], d);
        if (rc != TESS_OK)
            return rc;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(p->axes[j].key, ax->key))
                return diag_fail(d, TESS_EINPUT, "sweep -s '%s': %s is already set by -s '%s'",
                                 ax->arg, ax->key, p->axes[j].arg);
    }
    return TESS_OK;
}

void sweep_plan_free(sweep_plan_t *p)
{
    for (size_t i = 0; p->axes && i < p->n_axes; i++) {
        for (size_t j = 0; j < p->axes[i].n; j++)
            tess_free(p->axes[i].assign[j]);
        tess_free(p->axes[i].assign);
        tess_free(p->axes[i].key);
    }
    tess_free(p->axes);
    tess_free(p->pick);
    p->axes = NULL;
    p->pick = NULL;
    p->n_axes = 0;
    p->n_pick = 0;
}

int sweep_plan_zip(sweep_plan_t *p, const char *keys, diag_t *d)
{
    char *text = tess_strdup(keys), *save = NULL;
    if (!text)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    size_t first = SIZE_MAX, count = 0;
    int rc = TESS_OK;
    for (char *k = strtok_r(text, ",", &save); k && rc == TESS_OK; k = strtok_r(NULL, ",", &save)) {
        k = trim(k);
        size_t i = 0;
        while (i < p->n_axes && strcmp(p->axes[i].key, k))
            i++;
        if (i == p->n_axes)
            rc = diag_fail(d, TESS_EINPUT, "sweep --zip '%s': %s is not an axis (give it with -s)",
                           keys, k);
        else if (p->axes[i].group != i || (first != SIZE_MAX && i == first))
            rc = diag_fail(d, TESS_EINPUT, "sweep --zip '%s': %s is zipped already", keys, k);
        else if (first != SIZE_MAX && p->axes[i].n != p->axes[first].n)
            rc = diag_fail(d, TESS_EINPUT,
                           "sweep --zip '%s': %s has %zu values, %s %zu (zipped axes vary "
                           "together: give them as many values)",
                           keys, k, p->axes[i].n, p->axes[first].key, p->axes[first].n);
        else if (first == SIZE_MAX)
            first = i;
        else if (i < first) /* the group is named after its first axis */
            rc = diag_fail(d, TESS_EINPUT, "sweep --zip '%s': list the keys in -s order", keys);
        else
            p->axes[i].group = first;
        count++;
    }
    tess_free(text);
    if (rc == TESS_OK && count < 2)
        rc = diag_fail(d, TESS_EINPUT, "sweep --zip '%s': expected two keys or more", keys);
    return rc;
}

/* Is x among the n ascending values of a? Where it goes in *at. */
static bool find_sorted(const uint64_t *a, uint64_t n, uint64_t x, uint64_t *at)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    *at = lo;
    return lo < n && a[lo] == x;
}

int sweep_plan_sample(sweep_plan_t *p, uint64_t n, uint64_t seed, diag_t *d)
{
    uint64_t total = sweep_plan_product(p);
    if (n == 0 || (total && n > total))
        return diag_fail(d, TESS_EINPUT, "sweep --sample %llu: expected 1..%llu (the points of "
                         "the product)", (unsigned long long)n, (unsigned long long)total);
    if (!(p->pick = tess_calloc(n, sizeof *p->pick)))
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    rng_t r;
    rng_seed(&r, seed, 0x500);
    uint64_t top = total ? total : UINT64_MAX, at;
    for (uint64_t j = top - n; j < top; j++) { /* Floyd: n distinct of [0, top) */
        uint64_t t = rng_below(&r, j + 1);
        if (find_sorted(p->pick, p->n_pick, t, &at))
            t = j; /* j is new: every value so far is below it */
        find_sorted(p->pick, p->n_pick, t, &at);
        memmove(p->pick + at + 1, p->pick + at, (size_t)(p->n_pick - at) * sizeof *p->pick);
        p->pick[at] = t;
        p->n_pick++;
    }
    return TESS_OK;
}

/* --- points --------------------------------------------------------------------- */

uint64_t sweep_plan_product(const sweep_plan_t *p)
{
    uint64_t n = 1;
    for (size_t i = 0; i < p->n_axes; i++) {
        if (p->axes[i].group != i)
            continue; /* zipped: counted with its group's first axis */
        if (p->axes[i].n && n > UINT64_MAX / p->axes[i].n)
            return 0;
        n *= p->axes[i].n;
    }
    return n;
}

uint64_t sweep_plan_points(const sweep_plan_t *p)
{
    return p->pick ? p->n_pick : sweep_plan_product(p);
}

void sweep_plan_point(const sweep_plan_t *p, uint64_t k, char **out)
{
    size_t idx[p->n_axes ? p->n_axes : 1];
    if (p->pick)
        k = p->pick[k];
    for (size_t i = p->n_axes; i-- > 0;) {
        if (p->axes[i].group != i)
            continue;
        idx[i] = k % p->axes[i].n;
        k /= p->axes[i].n;
    }
    for (size_t i = 0; i < p->n_axes; i++)
        out[i] = p->axes[i].assign[idx[p->axes[i].group]];
}

void sweep_plan_label(const sweep_plan_t *p, uint64_t k, char *buf, size_t size)
{
    char *as[p->n_axes ? p->n_axes : 1];
    size_t len = 0;
    sweep_plan_point(p, k, as);
    buf[0] = 0;
    for (size_t i = 0; i < p->n_axes && len < size; i++)
        if (p->axes[i].n > 1)
            len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "", as[i]);
    if (!buf[0])
        snprintf(buf, size, "fixed settings");
}

/* Replaces d's message by "PREFIX: message" (same code). */
static int prefixed(diag_t *d, int rc, const char *prefix)
{
    char msg[sizeof d->msg];
    snprintf(msg, sizeof msg, "%s", d->msg);
    diag_reset(d);
    return diag_fail(d, rc, "%s: %s", prefix, msg);
}

int sweep_plan_check(const sweep_plan_t *p, const char *config_path, uint64_t n, diag_t *d)
{
    cfg_t base, c;
    char prefix[512];
    cfg_default(&base);
    int rc = config_path ? cfg_load_file(&base, config_path, d) : TESS_OK;
    for (size_t i = 0; i < p->n_axes && rc == TESS_OK; i++)
        for (size_t j = 0; j < p->axes[i].n && rc == TESS_OK; j++) {
            c = base;
            if ((rc = cfg_set(&c, p->axes[i].assign[j], d)) != TESS_OK) {
                snprintf(prefix, sizeof prefix, "sweep -s '%s'", p->axes[i].arg);
                return prefixed(d, rc, prefix);
            }
        }
    char *as[p->n_axes ? p->n_axes : 1];
    for (uint64_t k = 0; k < n && rc == TESS_OK; k++) {
        c = base;
        sweep_plan_point(p, k, as);
        rc = cfg_apply_cli(&c, NULL, as, (int)p->n_axes, d);
        if (rc == TESS_OK)
            rc = gpu_desc_check(&c.gpu, d);
        if (rc != TESS_OK) {
            char label[256];
            sweep_plan_label(p, k, label, sizeof label);
            snprintf(prefix, sizeof prefix, "sweep point %llu (%s)", (unsigned long long)k + 1,
                     label);
            return prefixed(d, rc, prefix);
        }
    }
    return rc;
}

/* --- keys with no effect ----------------------------------------------------------- */

typedef struct inert_count {
    uint64_t points;          /* points where the axis's key has no effect */
    uint64_t first;           /* the first of them */
    const char *why, *fix;    /* its reason and remedy (cfg_key_inert) */
} inert_count_t;

int sweep_plan_inert(const sweep_plan_t *p, const char *config_path, uint64_t n, bool allowed,
                     diag_t *d)
{
    cfg_t base, c;
    cfg_default(&base);
    diag_t quiet = {0}; /* the file's own warnings were printed by sweep_plan_check */
    if (config_path && cfg_load_file(&base, config_path, &quiet) != TESS_OK)
        return diag_fail(d, quiet.code, "%s", quiet.msg);
    inert_count_t cnt[p->n_axes ? p->n_axes : 1];
    memset(cnt, 0, sizeof cnt);
    char *as[p->n_axes ? p->n_axes : 1];
    for (uint64_t k = 0; k < n; k++) {
        c = base;
        sweep_plan_point(p, k, as);
        if (cfg_apply_cli(&c, NULL, as, (int)p->n_axes, &quiet) != TESS_OK)
            continue; /* sweep_plan_check reports it */
        for (size_t i = 0; i < p->n_axes; i++) {
            const char *fix, *why = cfg_key_inert(&c, cfg_key_index(p->axes[i].key), &fix);
            if (why && cnt[i].points++ == 0)
                cnt[i].first = k, cnt[i].why = why, cnt[i].fix = fix;
        }
    }
    int rc = TESS_OK;
    for (size_t i = 0; i < p->n_axes; i++) {
        if (!cnt[i].points)
            continue;
        char label[256];
        sweep_plan_label(p, cnt[i].first, label, sizeof label);
        bool swept = p->axes[i].n > 1;
        if (swept && !allowed && rc == TESS_OK)
            rc = diag_fail(d, TESS_EUSAGE,
                           "sweep -s '%s': %s has no effect in %llu of %llu points (first: "
                           "point %llu, %s): %s. Its values would label runs of one machine; "
                           "add %s, or --allow-inert if this is intended",
                           p->axes[i].arg, p->axes[i].key, (unsigned long long)cnt[i].points,
                           (unsigned long long)n, (unsigned long long)cnt[i].first + 1, label,
                           cnt[i].why, cnt[i].fix ? cnt[i].fix : "the key it needs");
        else if (rc == TESS_OK && !(p->pick && !strcmp(p->axes[i].key, GEN_KEY_SIM_SEED)))
            /* (one --seed with --sample may seed the sample: not said to do nothing) */
            diag_warn(d, "sweep -s '%s': %s has no effect in %llu of %llu points (%s; %s "
                         "gives it one): %s",
                      p->axes[i].arg, p->axes[i].key, (unsigned long long)cnt[i].points,
                      (unsigned long long)n, cnt[i].why, cnt[i].fix ? cnt[i].fix : "nothing",
                      swept ? "allowed by --allow-inert; those points run the same machine"
                            : "it is not recorded in their params");
    }
    /* a --config key off its default and not an axis, without effect in point 1 */
    cfg_t def, first = base;
    cfg_default(&def);
    if (n > 0)
        sweep_plan_point(p, 0, as);
    bool have_first = rc == TESS_OK && n > 0 &&
                      cfg_apply_cli(&first, NULL, as, (int)p->n_axes, &quiet) == TESS_OK;
    for (size_t j = 0; have_first && j < cfg_key_count(); j++) {
        const cfg_key_t *k = cfg_key_at(j);
        char v[CFG_VALUE_MAX], dv[CFG_VALUE_MAX];
        bool axis = false;
        for (size_t i = 0; i < p->n_axes && !axis; i++)
            axis = cfg_key_index(p->axes[i].key) == j;
        cfg_value_format(k, &base, v, sizeof v);
        cfg_value_format(k, &def, dv, sizeof dv);
        const char *fix, *why = axis || !strcmp(v, dv) ? NULL : cfg_key_inert(&first, j, &fix);
        if (why)
            diag_warn(d, "sweep --config %s: %s = %s has no effect (%s; %s gives it one)",
                      config_path, k->info.key, v, why, fix ? fix : "nothing");
    }
    return rc;
}

/* sweep.c — the plan of a parameter sweep (sweep.h): value lists into axes,
 * the cartesian product, and every point checked as a run would apply it.
 * The latency syntax stays in cfg_lat.c: a list only asks it which form
 * keeps its commas (cfg_lat_takes_list). */
#include "config/sweep.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "config/cfg.h"
#include "config/cfg_int.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/gpu.h"

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

/* Appends "key=value" to the axis; false when out of memory. */
static bool axis_add(sweep_axis_t *ax, const char *value)
{
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
    if (!(p->axes = tess_calloc(n ? n : 1, sizeof *p->axes)))
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        sweep_axis_t *ax = &p->axes[p->n_axes++];
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
    p->axes = NULL;
    p->n_axes = 0;
}

/* --- points --------------------------------------------------------------------- */

uint64_t sweep_plan_points(const sweep_plan_t *p)
{
    uint64_t n = 1;
    for (size_t i = 0; i < p->n_axes; i++) {
        if (p->axes[i].n && n > UINT64_MAX / p->axes[i].n)
            return 0;
        n *= p->axes[i].n;
    }
    return n;
}

void sweep_plan_point(const sweep_plan_t *p, uint64_t k, char **out)
{
    for (size_t i = p->n_axes; i-- > 0;) {
        out[i] = p->axes[i].assign[k % p->axes[i].n];
        k /= p->axes[i].n;
    }
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

/* cfg_value.c — parsing and printing one configuration value, driven by its
 * key's entry in the table (type, field, bounds, names). Invariant: a value
 * is stored only after it parsed completely and passed its bounds, so a
 * failed parse leaves the cfg_t as it was. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/cfg_int.h"
#include "events/base/err.h"

static void *field(cfg_t *cfg, const cfg_key_t *k) { return (char *)cfg + k->off; }

static const void *cfield(const cfg_t *cfg, const cfg_key_t *k)
{
    return (const char *)cfg + k->off;
}

static void store_uint(void *p, uint8_t size, uint64_t v)
{
    uint8_t v8 = (uint8_t)v;
    uint32_t v32 = (uint32_t)v;
    if (size == 1)
        memcpy(p, &v8, 1);
    else if (size == 4)
        memcpy(p, &v32, 4);
    else
        memcpy(p, &v, 8);
}

static uint64_t load_uint(const void *p, uint8_t size)
{
    uint8_t v8;
    uint32_t v32;
    uint64_t v64;
    switch (size) {
    case 1: memcpy(&v8, p, 1); return v8;
    case 4: memcpy(&v32, p, 4); return v32;
    default: memcpy(&v64, p, 8); return v64;
    }
}

/* " cycles", " cycle" (for 1), " ps", "" (no unit). */
static const char *unit_for(const cfg_key_t *k, uint64_t n, char *buf, size_t size)
{
    const char *u = k->info.unit;
    size_t len = strlen(u);
    bool one_word = !strchr(u, ' ');
    if (len == 0)
        return "";
    if (n == 1 && one_word && len > 2 && u[len - 1] == 's')
        len--;
    snprintf(buf, size, " %.*s", (int)len, u);
    return buf;
}

/* --- unsigned integers ---------------------------------------------------- */

/* Decimal or 0x hex, nothing else; saturates at UINT64_MAX (*over set). */
static bool parse_u64(const char *s, uint64_t *v, bool *over)
{
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    if (!*s)
        return false;
    uint64_t x = 0;
    *over = false;
    for (; *s; s++) {
        if (!isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
            return false;
        unsigned d = isdigit((unsigned char)*s) ? (unsigned)(*s - '0')
                                                : (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
        if (x > (UINT64_MAX - d) / base)
            *over = true;
        x = x * base + d;
    }
    *v = *over ? UINT64_MAX : x;
    return true;
}

static int uint_parse(const cfg_key_t *k, cfg_t *cfg, const char *text, diag_t *d)
{
    uint64_t v;
    bool over;
    char u[64];
    if (!parse_u64(text, &v, &over))
        return diag_fail(d, TESS_EINPUT,
                         "%s: '%s' is not valid (expected an integer %" PRIu64 "..%" PRIu64
                         "%s, decimal or 0x hex)",
                         k->info.key, text, k->min, k->max, unit_for(k, 2, u, sizeof u));
    if (over || v > k->max)
        return diag_fail(d, TESS_EINPUT, "%s: %s is above the maximum %" PRIu64 "%s",
                         k->info.key, text, k->max, unit_for(k, k->max, u, sizeof u));
    if (v < k->min)
        return diag_fail(d, TESS_EINPUT, "%s: %s is below the minimum %" PRIu64 "%s",
                         k->info.key, text, k->min, unit_for(k, k->min, u, sizeof u));
    store_uint(field(cfg, k), k->size, v);
    return TESS_OK;
}

/* --- decimal numbers ------------------------------------------------------ */

/* The shortest %g text that reads back as exactly v. */
static void real_format(double v, char *buf, size_t n)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

static int real_parse(const cfg_key_t *k, cfg_t *cfg, const char *text, diag_t *d)
{
    char u[64], lo[32], hi[32];
    char *end = NULL;
    double v = 0;
    bool ok = *text && strspn(text, "0123456789.eE+-") == strlen(text);
    if (ok)
        v = strtod(text, &end);
    real_format(k->rmin, lo, sizeof lo);
    real_format(k->rmax, hi, sizeof hi);
    unit_for(k, 2, u, sizeof u);
    if (!ok || end == text || *end)
        return diag_fail(d, TESS_EINPUT, "%s: '%s' is not valid (expected a number %s..%s%s)",
                         k->info.key, text, lo, hi, u);
    if (ok && v == 0 && strcspn(text, "123456789") < strcspn(text, "eE"))
        return diag_fail(d, TESS_EINPUT, "%s: %s is too small for a double: it would read as 0 "
                         "(the smallest positive value is about 4.9e-324)", k->info.key, text);
    if (!isfinite(v) || v > k->rmax)
        return diag_fail(d, TESS_EINPUT, "%s: %s is above the maximum %s%s", k->info.key, text,
                         hi, u);
    if (v < k->rmin)
        return diag_fail(d, TESS_EINPUT, "%s: %s is below the minimum %s%s", k->info.key, text,
                         lo, u);
    v = v == 0 ? 0 : v; /* no -0 */
    memcpy(field(cfg, k), &v, sizeof v);
    return TESS_OK;
}

/* --- choices ---------------------------------------------------------------- */

/* "a, b or c" */
/* "a, b or c" of names[] and, when `last` is not NULL, "a, b, c or LAST". */
static void names_list(const char *const *names, const char *last, char *buf, size_t n)
{
    size_t at = 0, count = 0;
    while (names[count])
        count++;
    size_t total = count + (last != NULL);
    buf[0] = 0;
    for (size_t i = 0; i < total && at < n; i++) {
        const char *sep = i == 0 ? "" : i + 1 == total ? " or " : ", ";
        int w = snprintf(buf + at, n - at, "%s%s", sep, i < count ? names[i] : last);
        at += w > 0 ? (size_t)w : 0;
    }
}

static int enum_value(const cfg_key_t *k, size_t i) { return k->vals ? k->vals[i] : (int)i; }

static int enum_parse(const cfg_key_t *k, cfg_t *cfg, const char *text, diag_t *d)
{
    char list[CFG_VALUE_MAX];
    for (size_t i = 0; k->names[i]; i++) {
        if (strcasecmp(text, k->names[i]))
            continue;
        int v = enum_value(k, i);
        if (k->size == 1)
            store_uint(field(cfg, k), 1, (uint64_t)v);
        else
            memcpy(field(cfg, k), &v, sizeof v);
        return TESS_OK;
    }
    names_list(k->names, k->type == CFG_T_POLICY ? "plugin:PATH" : NULL, list, sizeof list);
    return diag_fail(d, TESS_EINPUT, "%s: '%s' is not valid (expected %s)", k->info.key, text,
                     list);
}

/* A built-in name, or plugin:PATH (cfg_plugin.c). */
static int policy_parse(const cfg_key_t *k, cfg_t *cfg, const char *text, diag_t *d)
{
    int rc;
    if (cfg_policy_parse(k, cfg, text, &rc, d))
        return rc;
    rc = enum_parse(k, cfg, text, d);
    if (rc == TESS_OK)
        cfg_policy_clear(cfg, k->point);
    return rc;
}

static const char *enum_format(const cfg_key_t *k, const cfg_t *cfg)
{
    int v;
    if (k->size == 1)
        v = (int)load_uint(cfield(cfg, k), 1);
    else
        memcpy(&v, cfield(cfg, k), sizeof v);
    for (size_t i = 0; k->names[i]; i++)
        if (enum_value(k, i) == v)
            return k->names[i];
    return "?";
}

static int bool_parse(const cfg_key_t *k, cfg_t *cfg, const char *text, diag_t *d)
{
    static const char *const yes[] = {"on", "true", "yes", "1"};
    static const char *const no[] = {"off", "false", "no", "0"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        bool v = !strcasecmp(text, yes[i]);
        if (v || !strcasecmp(text, no[i])) {
            memcpy(field(cfg, k), &v, sizeof v);
            return TESS_OK;
        }
    }
    return diag_fail(d, TESS_EINPUT,
                     "%s: '%s' is not valid (expected on or off; also true/false, yes/no, 1/0)",
                     k->info.key, text);
}

/* --- latencies -------------------------------------------------------------- */

static int lat_parse(const cfg_key_t *k, cfg_t *cfg, const char *text, diag_t *d)
{
    char why[CFG_VALUE_MAX], u[64];
    lat_t l;
    switch (cfg_lat_parse(text, &l, why, sizeof why)) {
    case CFG_LAT_OK:
        break;
    case CFG_LAT_RANGE:
        return diag_fail(d, TESS_EINPUT, "%s: %s", k->info.key, why);
    case CFG_LAT_SYNTAX:
        return diag_fail(d, TESS_EINPUT, "%s: '%s' is not valid (%s)", k->info.key, text,
                         why[0] ? why
                                : "expected a latency in cycles: N, uniform:A..B, "
                                  "geometric:M or choice:A,B,...");
    }
    uint32_t lo = lat_min(&l);
    if (lo < k->min && l.kind == LAT_FIXED)
        return diag_fail(d, TESS_EINPUT, "%s: %u is below the minimum %" PRIu64 "%s",
                         k->info.key, lo, k->min, unit_for(k, k->min, u, sizeof u));
    if (lo < k->min)
        return diag_fail(d, TESS_EINPUT, "%s: '%s' can take %u, below the minimum %" PRIu64 "%s",
                         k->info.key, text, lo, k->min, unit_for(k, k->min, u, sizeof u));
    memcpy(field(cfg, k), &l, sizeof l);
    return TESS_OK;
}

/* --- dispatch --------------------------------------------------------------- */

int cfg_value_parse(const cfg_key_t *k, cfg_t *cfg, const char *text, diag_t *d)
{
    switch ((cfg_type_t)k->type) {
    case CFG_T_UINT: return uint_parse(k, cfg, text, d);
    case CFG_T_REAL: return real_parse(k, cfg, text, d);
    case CFG_T_ENUM: return enum_parse(k, cfg, text, d);
    case CFG_T_BOOL: return bool_parse(k, cfg, text, d);
    case CFG_T_LAT: return lat_parse(k, cfg, text, d);
    case CFG_T_POLICY: return policy_parse(k, cfg, text, d);
    }
    return diag_fail(d, TESS_EINPUT, "%s: the key table gives it no type", k->info.key);
}

void cfg_value_format(const cfg_key_t *k, const cfg_t *cfg, char *buf, size_t n)
{
    double r;
    bool b;
    if (n)
        buf[0] = 0;
    switch ((cfg_type_t)k->type) {
    case CFG_T_UINT:
        snprintf(buf, n, "%" PRIu64, load_uint(cfield(cfg, k), k->size));
        break;
    case CFG_T_REAL:
        memcpy(&r, cfield(cfg, k), sizeof r);
        real_format(r, buf, n);
        break;
    case CFG_T_ENUM:
        snprintf(buf, n, "%s", enum_format(k, cfg));
        break;
    case CFG_T_BOOL:
        memcpy(&b, cfield(cfg, k), sizeof b);
        snprintf(buf, n, "%s", b ? "on" : "off");
        break;
    case CFG_T_LAT:
        cfg_lat_format((const lat_t *)cfield(cfg, k), buf, n);
        break;
    case CFG_T_POLICY: {
        const char *plugin = cfg_policy_value(cfg, k->point);
        snprintf(buf, n, "%s", plugin ? plugin : enum_format(k, cfg));
        break;
    }
    }
}

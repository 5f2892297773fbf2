/* cfg_lat.c — the latency syntax of configuration values (`N`,
 * `uniform:A..B`, `geometric:M`, `choice:A,B,...`): parsing into lat_t and
 * canonical printing. Integer arithmetic only: a geometric mean is kept as
 * the exact fraction of its decimal text and its threshold is computed from
 * that fraction, so every host draws the same latencies. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "config/cfg_int.h"

#define GEO_MAX_MEAN 1000u  /* largest geometric mean */
#define GEO_MAX_DECIMALS 6  /* digits after the point (keeps num < 2^32) */

typedef struct lat_cur {
    const char *p;            /* the next character to read */
    const char *text;         /* the whole value, for messages */
    char *why;                /* OUT: what is wrong */
    size_t n;                 /* size of why */
} lat_cur_t;

static void skip_ws(lat_cur_t *c)
{
    while (*c->p == ' ' || *c->p == '\t')
        c->p++;
}

static bool eat(lat_cur_t *c, const char *tok)
{
    skip_ws(c);
    size_t len = strlen(tok);
    if (strncmp(c->p, tok, len) != 0)
        return false;
    c->p += len;
    return true;
}

static bool at_end(lat_cur_t *c)
{
    skip_ws(c);
    return *c->p == 0;
}

static cfg_lat_status_t fail(lat_cur_t *c, cfg_lat_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static cfg_lat_status_t fail(lat_cur_t *c, cfg_lat_status_t st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, c->n, fmt, ap);
    va_end(ap);
    return st;
}

/* Reads a decimal integer, saturating at UINT64_MAX; false if no digit. */
static bool read_digits(lat_cur_t *c, uint64_t *v)
{
    skip_ws(c);
    if (!isdigit((unsigned char)*c->p))
        return false;
    uint64_t x = 0;
    for (; isdigit((unsigned char)*c->p); c->p++) {
        unsigned d = (unsigned)(*c->p - '0');
        x = x > (UINT64_MAX - d) / 10 ? UINT64_MAX : x * 10 + d;
    }
    *v = x;
    return true;
}

/* Reads one cycle count (0..LAT_MAX_CYCLES). `whole` tells whether the value
 * is the number alone (for the wording of a range error). */
static cfg_lat_status_t read_cycles(lat_cur_t *c, bool whole, uint32_t *out)
{
    uint64_t v;
    skip_ws(c);
    const char *start = c->p;
    if (!read_digits(c, &v))
        return CFG_LAT_SYNTAX;
    if (v <= LAT_MAX_CYCLES) {
        *out = (uint32_t)v;
        return CFG_LAT_OK;
    }
    int len = (int)(c->p - start);
    if (whole)
        return fail(c, CFG_LAT_RANGE, "%.*s is above the maximum %u cycles", len, start,
                    LAT_MAX_CYCLES);
    return fail(c, CFG_LAT_RANGE, "'%s' can take %.*s, above the maximum %u cycles", c->text,
                len, start, LAT_MAX_CYCLES);
}

static cfg_lat_status_t parse_fixed(lat_cur_t *c, lat_t *l)
{
    cfg_lat_status_t st = read_cycles(c, true, &l->lo);
    if (st != CFG_LAT_OK)
        return st;
    if (!at_end(c))
        return CFG_LAT_SYNTAX;
    l->kind = LAT_FIXED;
    l->hi = l->lo;
    return CFG_LAT_OK;
}

static cfg_lat_status_t parse_uniform(lat_cur_t *c, lat_t *l)
{
    cfg_lat_status_t st = read_cycles(c, false, &l->lo);
    if (st != CFG_LAT_OK)
        return st;
    if (!eat(c, ".."))
        return CFG_LAT_SYNTAX;
    st = read_cycles(c, false, &l->hi);
    if (st != CFG_LAT_OK)
        return st;
    if (!at_end(c))
        return CFG_LAT_SYNTAX;
    if (l->lo > l->hi)
        return fail(c, CFG_LAT_SYNTAX, "uniform:A..B needs A <= B");
    l->kind = LAT_UNIFORM;
    return CFG_LAT_OK;
}

static cfg_lat_status_t parse_choice(lat_cur_t *c, lat_t *l)
{
    do {
        if (l->n == LAT_MAX_CHOICES)
            return fail(c, CFG_LAT_SYNTAX, "choice takes 1 to %d values", LAT_MAX_CHOICES);
        cfg_lat_status_t st = read_cycles(c, false, &l->choices[l->n]);
        if (st != CFG_LAT_OK)
            return st;
        l->n++;
    } while (eat(c, ","));
    if (!at_end(c))
        return CFG_LAT_SYNTAX;
    l->kind = LAT_CHOICE;
    l->lo = l->hi = l->choices[0]; /* lat_min() starts from lo */
    for (unsigned i = 1; i < l->n; i++) {
        l->lo = l->choices[i] < l->lo ? l->choices[i] : l->lo;
        l->hi = l->choices[i] > l->hi ? l->choices[i] : l->hi;
    }
    return CFG_LAT_OK;
}

/* Reads the digits after a decimal point into frac / 10^*k, ignoring
 * trailing zeros; false when there are more than GEO_MAX_DECIMALS. */
static bool read_fraction(lat_cur_t *c, uint64_t *frac, unsigned *k)
{
    unsigned zeros = 0;
    for (; isdigit((unsigned char)*c->p); c->p++) {
        if (*c->p == '0') {
            zeros++;
            continue;
        }
        if (*k + zeros + 1 > GEO_MAX_DECIMALS)
            return false;
        for (; zeros > 0; zeros--, (*k)++)
            *frac *= 10;
        *frac = *frac * 10 + (uint64_t)(*c->p - '0');
        (*k)++;
    }
    return true;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Sets the mean num/den (reduced) and the success threshold
 * floor(2^64 * den / num) — UINT64_MAX for a mean of 1. */
static void set_geometric(lat_t *l, uint64_t num, uint64_t den)
{
    uint64_t g = gcd(num, den);
    num /= g, den /= g;
    l->kind = LAT_GEOMETRIC;
    l->lo = 1;
    l->hi = LAT_MAX_CYCLES;
    l->mean_num = (uint32_t)num;
    l->mean_den = (uint32_t)den;
    if (num == den)
        l->p_threshold = UINT64_MAX;
    else
        l->p_threshold = (uint64_t)((((unsigned __int128)1 << 64) * den) / num);
}

static cfg_lat_status_t parse_geometric(lat_cur_t *c, lat_t *l)
{
    uint64_t ip, frac = 0, den = 1;
    unsigned k = 0;
    if (!read_digits(c, &ip))
        return CFG_LAT_SYNTAX;
    if (*c->p == '.') {
        c->p++;
        if (!isdigit((unsigned char)*c->p))
            return CFG_LAT_SYNTAX;
        if (!read_fraction(c, &frac, &k))
            return fail(c, CFG_LAT_SYNTAX, "geometric:M takes at most %d decimals",
                        GEO_MAX_DECIMALS);
    }
    if (!at_end(c))
        return CFG_LAT_SYNTAX;
    for (unsigned i = 0; i < k; i++)
        den *= 10;
    if (ip > GEO_MAX_MEAN || ip == 0 || (ip == GEO_MAX_MEAN && frac))
        return fail(c, CFG_LAT_SYNTAX, "geometric:M needs 1 <= M <= %u", GEO_MAX_MEAN);
    set_geometric(l, ip * den + frac, den);
    return CFG_LAT_OK;
}

/* The prefix of each kind's syntax ("NAME:"; "" for a plain number). */
static const char *const kind_names[] = {LAT_KINDS(XENUM_NAME)};

/* The parser of each kind, by the prefix of its syntax. */
static cfg_lat_status_t parse_kind(lat_cur_t *c, lat_t *l)
{
    static cfg_lat_status_t (*const parse[])(lat_cur_t *, lat_t *) = {
        [LAT_FIXED] = parse_fixed,
        [LAT_UNIFORM] = parse_uniform,
        [LAT_GEOMETRIC] = parse_geometric,
        [LAT_CHOICE] = parse_choice,
    };
    _Static_assert(sizeof parse / sizeof parse[0] == LAT_KIND_COUNT, "a parser per kind");
    skip_ws(c);
    for (unsigned k = 0; k < LAT_KIND_COUNT; k++) {
        size_t n = strlen(kind_names[k]);
        if (n && !strncmp(c->p, kind_names[k], n) && c->p[n] == ':') {
            c->p += n + 1;
            return parse[k](c, l);
        }
    }
    return parse_fixed(c, l);
}

cfg_lat_status_t cfg_lat_parse(const char *text, lat_t *out, char *why, size_t n)
{
    lat_cur_t c = {text, text, why, n};
    lat_t l;
    memset(&l, 0, sizeof l);
    if (n)
        why[0] = 0;
    cfg_lat_status_t st = parse_kind(&c, &l);
    if (st == CFG_LAT_OK)
        memcpy(out, &l, sizeof l); /* padding included: configurations compare with memcmp */
    return st;
}

bool cfg_lat_takes_list(const char *text)
{
    const char *name = kind_names[LAT_CHOICE]; /* the one form whose values are a comma list */
    size_t n = strlen(name);
    text += strspn(text, " \t");
    return !strncmp(text, name, n) && text[n] == ':';
}

/* Appends to buf[0..n) at *at, never overflowing; keeps buf terminated. */
static void put(char *buf, size_t n, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t n, size_t *at, const char *fmt, ...)
{
    if (*at >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *at, n - *at, fmt, ap);
    va_end(ap);
    if (w > 0)
        *at += (size_t)w;
}

/* num/den as a terminating decimal (den divides 10^GEO_MAX_DECIMALS). */
static void put_mean(char *buf, size_t n, size_t *at, uint32_t num, uint32_t den)
{
    put(buf, n, at, "%u", num / den);
    uint64_t rem = num % den;
    if (rem)
        put(buf, n, at, ".");
    for (unsigned i = 0; rem && i < 20; i++) {
        rem *= 10;
        put(buf, n, at, "%u", (unsigned)(rem / den));
        rem %= den;
    }
}

void cfg_lat_format(const lat_t *l, char *buf, size_t n)
{
    size_t at = 0;
    if (n)
        buf[0] = 0;
    switch ((lat_kind_t)l->kind) {
    case LAT_FIXED:
    case LAT_KIND_COUNT: /* not a kind: printed as its lo, like a fixed latency */
        put(buf, n, &at, "%u", l->lo);
        break;
    case LAT_UNIFORM:
        put(buf, n, &at, "%s:%u..%u", kind_names[LAT_UNIFORM], l->lo, l->hi);
        break;
    case LAT_GEOMETRIC:
        put(buf, n, &at, "%s:", kind_names[LAT_GEOMETRIC]);
        put_mean(buf, n, &at, l->mean_num, l->mean_den);
        break;
    case LAT_CHOICE:
        put(buf, n, &at, "%s:", kind_names[LAT_CHOICE]);
        for (unsigned i = 0; i < l->n; i++)
            put(buf, n, &at, i ? ",%u" : "%u", l->choices[i]);
        break;
    }
}

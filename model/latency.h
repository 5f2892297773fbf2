/* latency.h — a latency in clock cycles: a fixed number or a distribution
 * (for robustness what-ifs), drawn from a component's rng_t. Sampling uses
 * integer arithmetic only, so draws are identical on every host. */
#ifndef TESSERA_LATENCY_H
#define TESSERA_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/rng.h"
#include "model/xenum.h"

#define LAT_MAX_CHOICES 16
#define LAT_MAX_CYCLES 1000000u /* the largest latency a key accepts */

/* The kinds of latency, one list (xenum.h): X(PREFIX, ID, "name", "syntax:
 * meaning"); the name is the prefix of the configuration syntax ("" for a
 * plain number). */
#define LAT_KINDS(X)                                                                        \
    X(LAT_, FIXED, "", "N: always N cycles (`lo`)")                                           \
    X(LAT_, UNIFORM, "uniform", "uniform:A..B: uniform in A..B inclusive")                    \
    X(LAT_, GEOMETRIC, "geometric",                                                         \
      "geometric:M: trials until the first success, mean M = mean_num/mean_den >= 1")        \
    X(LAT_, CHOICE, "choice",                                                               \
      "choice:A,B,...: one of choices[0..n), equally likely (repeat a value to weight it)")

typedef enum lat_kind { LAT_KINDS(XENUM_ID) LAT_KIND_COUNT } lat_kind_t;

typedef struct lat {
    uint8_t kind;                      /* lat_kind_t */
    uint8_t n;                         /* LAT_CHOICE: number of choices */
    uint32_t lo, hi;                   /* LAT_FIXED: lo; LAT_UNIFORM: lo..hi */
    uint64_t p_threshold;              /* LAT_GEOMETRIC: success iff draw < threshold
                                          (floor(2^64 / mean); UINT64_MAX for mean 1) */
    uint32_t mean_num, mean_den;       /* LAT_GEOMETRIC: the mean as a fraction (for printing) */
    uint32_t choices[LAT_MAX_CHOICES]; /* LAT_CHOICE */
} lat_t;

static inline lat_t lat_fixed(uint32_t cycles)
{
    lat_t l = {0};
    l.kind = LAT_FIXED;
    l.lo = l.hi = cycles;
    return l;
}

static inline bool lat_is_fixed(const lat_t *l) { return l->kind == LAT_FIXED; }

/* Geometric on {1, 2, …} with mean num/den (>= 1): trials until the first
 * success with p = den/num. The loop is capped at LAT_MAX_CYCLES. */
static inline uint32_t lat_geometric(const lat_t *l, rng_t *r)
{
    uint32_t k = 1;
    while (k < LAT_MAX_CYCLES && rng_next(r) >= l->p_threshold)
        k++;
    return k;
}

/* Draws one latency in cycles. Fixed latencies draw nothing. */
static inline uint32_t lat_sample(const lat_t *l, rng_t *r)
{
    switch ((lat_kind_t)l->kind) {
    case LAT_UNIFORM: return l->lo + (uint32_t)rng_below(r, (uint64_t)l->hi - l->lo + 1);
    case LAT_GEOMETRIC: return l->p_threshold == UINT64_MAX ? 1 : lat_geometric(l, r);
    case LAT_CHOICE: return l->choices[rng_below(r, l->n)];
    case LAT_FIXED:
    case LAT_KIND_COUNT: /* not a kind: every lat_t comes from lat_fixed or cfg_lat_parse */
        break;
    }
    return l->lo;
}

/* The smallest value the latency can take (used to check lower bounds). */
static inline uint32_t lat_min(const lat_t *l)
{
    uint32_t m = l->lo;
    if (l->kind == LAT_GEOMETRIC)
        m = 1;
    if (l->kind == LAT_CHOICE)
        for (unsigned i = 0; i < l->n; i++)
            m = l->choices[i] < m ? l->choices[i] : m;
    return m;
}

/* The largest value the latency can take (a geometric one is capped). */
static inline uint32_t lat_max(const lat_t *l)
{
    uint32_t m = l->kind == LAT_UNIFORM ? l->hi : l->lo;
    if (l->kind == LAT_GEOMETRIC)
        m = l->p_threshold == UINT64_MAX ? 1 : LAT_MAX_CYCLES;
    if (l->kind == LAT_CHOICE)
        for (unsigned i = 0; i < l->n; i++)
            m = l->choices[i] > m ? l->choices[i] : m;
    return m;
}

#endif

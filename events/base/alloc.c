/* alloc.c — allocation with fault injection (see alloc.h). */
#include "events/base/alloc.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fault plan: process-wide mutable state, justified as a test facility
 * (docs/ROBUSTNESS.md) that must reach every allocation of every layer
 * without a parameter through each; off (fail_from 0) unless a test or
 * TESSERA_FAIL_ALLOC asks, atomic because the recorder's threads allocate. */
static _Atomic uint64_t attempts;     /* allocations attempted */
static _Atomic uint64_t fail_from;    /* the first one to fail; 0: none */
static _Atomic bool fail_persist;     /* every one after it fails too */

static bool injected_failure(void)
{
    uint64_t n = atomic_fetch_add_explicit(&attempts, 1, memory_order_relaxed) + 1;
    uint64_t f = atomic_load_explicit(&fail_from, memory_order_relaxed);
    return f && (n == f || (n > f && atomic_load(&fail_persist)));
}

void *tess_malloc(size_t n) { return injected_failure() ? NULL : malloc(n ? n : 1); }

void *tess_calloc(size_t n, size_t size)
{
    return injected_failure() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *tess_realloc(void *p, size_t n) { return injected_failure() ? NULL : realloc(p, n ? n : 1); }

void *tess_grow(void *v, size_t *cap, size_t n, size_t size, size_t first)
{
    if (n < *cap)
        return v;
    size_t c = *cap ? 2 * *cap : first;
    if (c < *cap || c > SIZE_MAX / size)
        return NULL;
    void *g = tess_realloc(v, c * size);
    if (g)
        *cap = c;
    return g;
}

char *tess_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = tess_malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

void tess_free(void *p) { free(p); }

void tess_alloc_fail_at(uint64_t n, bool persist)
{
    atomic_store(&fail_persist, persist);
    atomic_store(&fail_from, n);
}

uint64_t tess_alloc_count(void) { return atomic_load(&attempts); }

static void print_stats(void)
{
    fprintf(stderr, "tessera: allocations: %llu\n", (unsigned long long)tess_alloc_count());
}

bool tess_alloc_from_env(void)
{
    bool on = false;
    if (getenv("TESSERA_ALLOC_STATS")) {
        atexit(print_stats);
        on = true;
    }
    const char *plan = getenv("TESSERA_FAIL_ALLOC");
    if (plan && *plan) {
        char *end;
        unsigned long long n = strtoull(plan, &end, 10);
        tess_alloc_fail_at(n, strcmp(end, ",persist") == 0);
        on |= n > 0;
    }
    return on;
}

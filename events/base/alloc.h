/* alloc.h — every allocation Tessera makes goes through these functions, so
 * that a test can make the Nth one fail and check that the failure gives an
 * error and a clean exit (SQLite's fault-simulation idea). The fault plan is
 * the one process-wide mutable state of the project: a test facility, off
 * unless a test or $TESSERA_FAIL_ALLOC turns it on; thread-safe. With no plan
 * the functions are malloc, calloc, realloc, strdup and free. */
#ifndef TESSERA_ALLOC_H
#define TESSERA_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *tess_malloc(size_t n);
void *tess_calloc(size_t n, size_t size);
void *tess_realloc(void *p, size_t n);   /* on failure p is left as it was */
/* Room for element n of the array v (*cap elements of `size` bytes): v
 * itself while n < *cap, else v grown to twice *cap (to `first` elements
 * when empty) with *cap updated. NULL when out of memory: v and *cap are
 * left as they were. One tess_realloc when it grows, none otherwise. */
void *tess_grow(void *v, size_t *cap, size_t n, size_t size, size_t first);
char *tess_strdup(const char *s);
void tess_free(void *p);

/* Makes allocation number `n` fail (counting from the start of the process,
 * from 1), and every later one too when `persist`; n = 0 turns it off. */
void tess_alloc_fail_at(uint64_t n, bool persist);

/* Allocations attempted since the process started (failed ones included). */
uint64_t tess_alloc_count(void);

/* Reads $TESSERA_FAIL_ALLOC ("N" or "N,persist") and applies it; with
 * $TESSERA_ALLOC_STATS set, the number of allocations is printed on stderr at
 * exit ("tessera: allocations: N"). Returns true when either is set, so the
 * caller can route SQLite's allocations here too (db_use_tess_alloc).
 * libev's are not: libev aborts when an allocation fails, by design. */
bool tess_alloc_from_env(void);

#endif

/* db_alloc.c — routes SQLite's allocations through events/base/alloc.h, so that
 * fault injection reaches SQLite's own memory too. Must run before SQLite is
 * first used (sqlite3_config's rule). */
#include <malloc.h>
#include <sqlite3.h>

#include "analysis/store/db.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

static void *x_malloc(int n) { return n > 0 ? tess_malloc((size_t)n) : NULL; }
static void x_free(void *p) { tess_free(p); }
static void *x_realloc(void *p, int n) { return n > 0 ? tess_realloc(p, (size_t)n) : NULL; }
static int x_size(void *p) { return p ? (int)malloc_usable_size(p) : 0; }
static int x_roundup(int n) { return (n + 7) & ~7; }
static int x_init(void *unused) { (void)unused; return SQLITE_OK; }
static void x_shutdown(void *unused) { (void)unused; }

int db_use_tess_alloc(void)
{
    static const sqlite3_mem_methods methods = {x_malloc, x_free,  x_realloc, x_size,
                                                x_roundup, x_init, x_shutdown, NULL};
    return sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) == SQLITE_OK ? TESS_OK : TESS_EDB;
}

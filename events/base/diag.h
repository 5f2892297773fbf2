/* diag.h — diagnostics for input checking: the first error, and warnings.
 * Loaders, the assembler and the configuration parser report through a
 * diag_t owned by the caller; the first error is kept (later ones are
 * dropped), every warning is counted and passed to an optional sink. */
#ifndef TESSERA_DIAG_H
#define TESSERA_DIAG_H

#include <stdarg.h>

typedef void (*diag_warn_fn)(void *user, const char *msg);

typedef struct diag {
    int code;                 /* ro: TESS_OK, or the code of the first error */
    char msg[512];            /* ro: the first error, "where: what" */
    unsigned warnings;        /* ro: warnings reported so far */
    char last_warning[512];   /* ro: the most recent warning */
    diag_warn_fn warn;        /* rw: optional sink for warnings (NULL: kept only) */
    void *warn_user;          /* rw: passed to warn */
} diag_t;

/* Resets to "no error, no warning"; keeps the sink. */
void diag_reset(diag_t *d);

/* Records an error unless one is already recorded; returns `code` so callers
 * can write `return diag_fail(d, TESS_EINPUT, "...")`. d may be NULL. */
int diag_fail(diag_t *d, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int diag_vfail(diag_t *d, int code, const char *fmt, va_list ap);

/* Records a warning and passes it to the sink. d may be NULL. */
void diag_warn(diag_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A sink that prints "warning: MSG" on stderr (user ignored). */
void diag_warn_stderr(void *user, const char *msg);

#endif

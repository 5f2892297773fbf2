/* diag.c — first-error and warning bookkeeping (see diag.h). */
#include "events/base/diag.h"

#include <stdio.h>
#include <string.h>

#include "events/base/err.h"

void diag_reset(diag_t *d)
{
    d->code = TESS_OK;
    d->msg[0] = 0;
    d->warnings = 0;
    d->last_warning[0] = 0;
}

int diag_vfail(diag_t *d, int code, const char *fmt, va_list ap)
{
    if (d && d->code == TESS_OK) {
        d->code = code;
        vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    }
    return code;
}

int diag_fail(diag_t *d, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vfail(d, code, fmt, ap);
    va_end(ap);
    return code;
}

void diag_warn(diag_t *d, const char *fmt, ...)
{
    if (!d)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->last_warning, sizeof d->last_warning, fmt, ap);
    va_end(ap);
    d->warnings++;
    if (d->warn)
        d->warn(d->warn_user, d->last_warning);
}

void diag_warn_stderr(void *user, const char *msg)
{
    (void)user;
    fprintf(stderr, "warning: %s\n", msg);
}

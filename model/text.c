/* text.c — a growing text written printf-style (text.h). Invariant: s[n]
 * is the NUL once s is allocated, and n + 1 <= cap. */
#include "model/text.h"

#include <stdarg.h>
#include <stdio.h>

#include "events/base/alloc.h"

/* Room for `more` bytes after the text and its NUL; false when out of
 * memory (t->failed set, t as it was). */
static bool room(text_t *t, size_t more)
{
    if (t->n + more + 1 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap : 4096;
    while (t->n + more + 1 > cap)
        cap *= 2;
    char *s = tess_realloc(t->s, cap);
    if (!s) {
        t->failed = true;
        return false;
    }
    t->s = s;
    t->cap = cap;
    return true;
}

void text_printf(text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->failed || k < 0 || !room(t, (size_t)k))
        return;
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    t->n += (size_t)k;
}

char *text_take(text_t *t)
{
    if (!t->failed)
        return t->s;
    tess_free(t->s);
    return NULL;
}

/* text.h — a growing text written printf-style, for the texts the model
 * makes whole (the disassembly, the assembler's listing): one allocation,
 * doubled as it fills; an allocation that fails sticks, and the text is
 * then given up rather than returned incomplete. */
#ifndef TESSERA_TEXT_H
#define TESSERA_TEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct text {
    char *s;     /* the text, NUL-terminated; NULL before the first write */
    size_t n;    /* its length */
    size_t cap;  /* bytes allocated at s */
    bool failed; /* an allocation failed: later writes do nothing */
} text_t;

/* Appends printf(fmt, …) to t (zero-initialised before its first write).
 * Cannot fail: when it cannot grow t, t->failed is set and t keeps what it
 * had. */
void text_printf(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The text t holds, for the caller to free with tess_free; NULL (t's memory
 * freed) when an allocation failed or nothing was written. */
char *text_take(text_t *t);

#endif

/* asm_pp.h — where the assembler's lines come from: the source file, the
 * files it .includes, macro expansions, .rept/.irp/.irpc iterations, and the
 * .if/.else/.endif conditions that decide which lines are assembled. GNU as's
 * conventions: `.macro NAME ARG, ARG=DEFAULT, ARG:req, ARG:vararg` ... `.endm`,
 * `\ARG` substitutes an argument (or the .irp symbol), `\@` the number of the
 * expansion, `\+` the iteration (from 0), `\()` nothing; `.exitm`; `.purgem`.
 * Every line handed out keeps its origin (file, line, the expansions around
 * it) and its text until asm_pp_close, so labels and messages may point at it.
 * Invariant: the bytes expanded, the lines expanded, the expansions and the
 * nesting never exceed ASM_PP_* below: a runaway .rept or a recursive macro
 * is an error naming the limit, never a hang or an out-of-memory. */
#ifndef TESSERA_ASM_PP_H
#define TESSERA_ASM_PP_H

#include <stdbool.h>
#include <stddef.h>

#include "model/asm_lex.h"

#define ASM_PP_BYTES_MAX (64u << 20)  /* text made by expansions and .include */
#define ASM_PP_LINES_MAX 1000000u     /* lines produced by expansions */
#define ASM_PP_EXPANSIONS_MAX 100000u /* macro calls plus .rept/.irp iterations */
#define ASM_PP_DEPTH_MAX 100u         /* macros, repetitions and files inside each other */
#define ASM_PP_INCLUDE_MAX 16u        /* files inside each other */
#define ASM_PP_COND_MAX 100u          /* .if inside .if */

/* One line to assemble. */
typedef struct asm_line {
    const char *text;      /* not NUL-terminated, no '\n' */
    size_t len;
    const char *file;      /* where it was written */
    unsigned line;
    const asm_ctx_t *ctx;  /* the expansion it came from (NULL: read from a file as is) */
} asm_line_t;

typedef struct asm_pp asm_pp_t;

/* A line source over `len` bytes of `src` named `file` (NULL: "<asm>");
 * the text must outlive it; with no_include, .include is an error. NULL when
 * out of memory. */
asm_pp_t *asm_pp_open(const char *src, size_t len, const char *file, bool no_include);

/* Releases everything, the lines handed out included. NULL is fine. */
void asm_pp_close(asm_pp_t *pp);

/* The next line into *out; *got is false at the end. Fails (an error in
 * `lx`'s diag, at lx's current line) past a limit, on a missing .endif, or
 * when out of memory. */
int asm_pp_next(asm_pp_t *pp, asm_lex_t *lx, asm_line_t *out /* OUT */, bool *got /* OUT */);

/* Whether lines are being assembled (false inside a false .if branch). */
bool asm_pp_active(const asm_pp_t *pp);

/* How many expansions (not .include) the current line is inside. */
unsigned asm_pp_depth(const asm_ctx_t *ctx);

/* A directive of this module — macro, endm, exitm, purgem, rept, irp, irpc,
 * endr, include, if, ifdef, ifndef, ifb, ifnb, elseif, else, endif — named
 * (s, n); the cursor is after the name, `at` on its '.'. *handled is false
 * for any other name (nothing consumed). Inactive lines (asm_pp_active false)
 * must still come here: the .if family keeps count. */
int asm_pp_directive(asm_pp_t *pp, asm_lex_t *lx, const char *s, size_t n, size_t at,
                     bool *handled /* OUT */);

/* When (s, n) names a macro, expands it with the arguments at the cursor
 * (the rest of the line) and sets *called. */
int asm_pp_call(asm_pp_t *pp, asm_lex_t *lx, const char *s, size_t n, size_t at,
                bool *called /* OUT */);

#endif

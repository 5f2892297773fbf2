/* asm_expr.h — the assembler's integer expressions and its symbols: `.equ
 * NAME, EXPR` / `NAME = EXPR` constants, and expressions wherever a number is
 * accepted, with C's operators and precedence (unary - + ~ !; * / %; + -;
 * << >>; < <= > >=; == !=; &; ^; |; &&; ||; parentheses), evaluated in 64-bit
 * signed arithmetic. Private to model/asm*.
 * Invariant: a symbol's name is not a register name nor `id`; its value is
 * the last one given to it. */
#ifndef TESSERA_ASM_EXPR_H
#define TESSERA_ASM_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/asm_lex.h"

/* One symbol; `name` points into text that outlives the table. */
typedef struct asm_sym {
    const char *name;
    size_t len;
    int64_t value;
    const char *file; /* where it was (last) defined */
    unsigned line;
} asm_sym_t;

struct asm_syms {
    asm_sym_t *v;      /* malloc'd */
    size_t n, cap;
    uint32_t *index;   /* malloc'd hash by name: symbol i + 1, 0 empty; a power of two */
    size_t index_cap;
};

/* Releases the table's memory (the names are not its own). */
void asm_syms_free(asm_syms_t *t);

/* The symbol (s, n), or NULL. */
const asm_sym_t *asm_syms_get(const asm_syms_t *t, const char *s, size_t n);

/* Defines or redefines (s, n) = value; TESS_ENOMEM only. */
int asm_syms_set(asm_syms_t *t, const char *s, size_t n, int64_t value, const char *file,
                 unsigned line);

/* True when (s, n) may not name a symbol: r0..r15 (any rN) or `id`. */
bool asm_expr_reserved(const char *s, size_t n);

/* Reads an expression at the cursor (lx->syms gives the symbols) into *v;
 * `what` names the operand in messages ("expected shift amount (a number),
 * found 'r2'", "undefined symbol 'N' in shift amount"). Division by zero,
 * a shift outside 0..63 and nesting deeper than 64 are errors. */
int asm_expr_eval(asm_lex_t *lx, int64_t *v /* OUT */, const char *what);

/* True when the next token can start an expression (a digit, '(', a unary
 * operator, or a name that is a defined symbol). */
bool asm_expr_starts(asm_lex_t *lx);

#endif

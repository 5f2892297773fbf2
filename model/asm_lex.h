/* asm_lex.h — the assembler's line cursor (spec §5): one source line at a
 * time, tokens read by hand, every error and warning prefixed
 * "file:line:column: " (columns count bytes from 1).
 * Invariant: line_start <= pos <= line_end <= len; nothing reads past line_end,
 * so any byte string (NULs, junk) is safe to scan. Private to model/asm*. */
#ifndef TESSERA_ASM_LEX_H
#define TESSERA_ASM_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/base/diag.h"

/* Where a line came from when an expansion produced it (model/asm_pp.c): the
 * macro call, .rept/.irp iteration or .include, and the one around it.
 * Kept until the assembly ends (lines and labels point at it). */
typedef struct asm_ctx {
    const struct asm_ctx *up; /* the enclosing expansion, NULL at the top */
    char kind;                /* 'm' macro, 'r' .rept, 'i' .irp, 'f' .include */
    const char *name;         /* the macro's name, or the .irp symbol */
    size_t name_len;
    const char *value;        /* .irp: the symbol's value in this iteration */
    size_t value_len;
    unsigned iter, count;     /* .rept/.irp: this iteration (from 1) of count */
    const char *file;         /* where the expansion was asked for */
    unsigned line;
} asm_ctx_t;

typedef struct asm_syms asm_syms_t; /* the .equ symbols (asm_expr.h) */

typedef struct asm_lex {
    const char *src;   /* the whole source text (not NUL-terminated) */
    size_t len;        /* its length */
    size_t pos;        /* the cursor, within the current line */
    size_t line_start; /* offset of the current line's first byte */
    size_t line_end;   /* offset of its '\n' (or len) */
    unsigned line;     /* 1-based number of the current line; 0 before the first */
    const char *file;  /* name used in messages */
    diag_t *diag;      /* where errors and warnings go */
    const asm_ctx_t *ctx;    /* the expansion the line came from (NULL: none) */
    const asm_syms_t *syms;  /* symbols names in expressions may use (NULL: none) */
} asm_lex_t;

/* Starts before the first line of `src` (NULL is an empty source; a
 * leading UTF-8 byte order mark is skipped); `file`
 * (NULL: "<asm>") and `diag` must outlive the cursor. Never fails. */
void asm_lex_init(asm_lex_t *lx, const char *src, size_t len, const char *file, diag_t *diag);

/* Moves to the next line; false at the end of the source. */
bool asm_lex_next_line(asm_lex_t *lx);

/* Makes (text, len) the current line: `line` of `file`, from expansion `ctx`
 * (text, file and ctx must outlive their use in messages). */
void asm_lex_set_line(asm_lex_t *lx, const char *text, size_t len, const char *file,
                      unsigned line, const asm_ctx_t *ctx);

/* Writes " (in macro 'm' called at f.s:3, ...)" for ctx into buf ("" for NULL). */
const char *asm_lex_context(const asm_ctx_t *ctx, char *buf, size_t size);

/* Skips blanks; returns the next byte, or -1 at the end of the line or at a ';' comment. */
int asm_lex_peek(asm_lex_t *lx);

/* Skips blanks; consumes `c` when it is next. */
bool asm_lex_accept(asm_lex_t *lx, char c);

/* Skips blanks; reads an identifier [A-Za-z_][A-Za-z0-9_]*. Returns its length
 * (0 and nothing consumed when there is none) and its start in *s. */
size_t asm_lex_ident(asm_lex_t *lx, const char **s);

/* Case-insensitive comparison of the token (s, n) with `lit`. */
bool asm_lex_word_is(const char *s, size_t n, const char *lit);

/* Reads a number (decimal, 0x hex, 0b binary) or an expression over numbers
 * and symbols (asm_expr.h) no less than 0 and no greater than `max`; `what`
 * names it in messages ("shift amount 16 out of range (expected 0..15)"). */
int asm_lex_number(asm_lex_t *lx, uint32_t *v, uint32_t max, const char *what);

/* Reads a literal number (a word starting with a digit) into *v, saturating
 * above 2^32; fails with "bad number" when the word is not one. */
int asm_lex_literal(asm_lex_t *lx, uint64_t *v, const char *what);

/* Reads a register r0..r15 (case-insensitive). */
int asm_lex_register(asm_lex_t *lx, unsigned *r);

/* Reads 0x followed by an even number of hex digits, at most 2*max: bytes in
 * order, the first two digits being out[0]. *n gets the byte count. */
int asm_lex_hex_bytes(asm_lex_t *lx, uint8_t *out, size_t max, size_t *n, const char *what);

/* Skips blanks and consumes `c`, or fails with "expected 'c' after WHAT". */
int asm_lex_expect(asm_lex_t *lx, char c, const char *after);

/* Fails unless only blanks or a comment remain ("unexpected 'x' after WHAT"). */
int asm_lex_end(asm_lex_t *lx, const char *after);

/* Writes a printable quotation of the token at `at` of the current line
 * ("'r16'", "end of line") into buf. */
const char *asm_lex_found(const asm_lex_t *lx, size_t at, char *buf, size_t size);

/* Records "file:line:col: MSG" as a TESS_EINPUT error, the column being that of
 * offset `at` in the current line; returns TESS_EINPUT. */
int asm_lex_fail(asm_lex_t *lx, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same for an earlier place (line, column). */
int asm_lex_fail_at(asm_lex_t *lx, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Records "file:line:col: MSG" as a warning. */
void asm_lex_warn(asm_lex_t *lx, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The assembler's character classes, one home for the lexer and the line
 * source (asm_pp.c, asm_mac.c, asm_expr.c). */
static inline bool asm_is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
static inline bool asm_is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static inline bool asm_is_digit(int c) { return c >= '0' && c <= '9'; }
static inline bool asm_is_word(int c) { return asm_is_alpha(c) || asm_is_digit(c); }

/* Length of the identifier (a letter or _, then letters, digits, _) at
 * text[i..len); 0 when none starts there. */
static inline size_t asm_ident_len(const char *text, size_t len, size_t i)
{
    size_t n = 0;
    while (i + n < len && (n ? asm_is_word : asm_is_alpha)((unsigned char)text[i + n]))
        n++;
    return n;
}

/* Column (1-based) of offset `at` of the current line. */
static inline unsigned asm_lex_col(const asm_lex_t *lx, size_t at)
{
    return (unsigned)(at - lx->line_start + 1);
}

#endif

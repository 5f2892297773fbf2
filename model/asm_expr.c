/* asm_expr.c — the assembler's expressions and symbols (see asm_expr.h):
 * precedence climbing over the line cursor, values in int64_t computed with
 * wrapping unsigned arithmetic (no overflow is undefined), symbols in an open
 * addressing hash.
 * Invariant: the index is at most half full; nesting is bounded (64), so no
 * input recurses deeper than that. */
#include "model/asm_expr.h"

#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"

/* ---- symbols --------------------------------------------------------- */

void asm_syms_free(asm_syms_t *t)
{
    tess_free(t->v);
    tess_free(t->index);
    memset(t, 0, sizeof *t);
}

static uint32_t sym_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The index entry of (s, n), or the empty one where it would go. */
static uint32_t *sym_slot(const asm_syms_t *t, const char *s, size_t n)
{
    size_t mask = t->index_cap - 1, i = sym_hash(s, n) & mask;
    for (;; i = (i + 1) & mask) {
        uint32_t e = t->index[i];
        if (!e || (t->v[e - 1].len == n && memcmp(t->v[e - 1].name, s, n) == 0))
            return &t->index[i];
    }
}

const asm_sym_t *asm_syms_get(const asm_syms_t *t, const char *s, size_t n)
{
    if (!t || t->index_cap == 0)
        return NULL;
    uint32_t e = *sym_slot(t, s, n);
    return e ? &t->v[e - 1] : NULL;
}

static int sym_grow(asm_syms_t *t)
{
    asm_sym_t *v = tess_grow(t->v, &t->cap, t->n, sizeof *v, 32);
    if (!v)
        return TESS_ENOMEM;
    t->v = v;
    if (2 * (t->n + 1) <= t->index_cap)
        return TESS_OK;
    size_t cap = t->index_cap ? 2 * t->index_cap : 64;
    uint32_t *index = tess_calloc(cap, sizeof *index);
    if (!index)
        return TESS_ENOMEM;
    tess_free(t->index);
    t->index = index;
    t->index_cap = cap;
    for (size_t i = 0; i < t->n; i++)
        *sym_slot(t, t->v[i].name, t->v[i].len) = (uint32_t)i + 1;
    return TESS_OK;
}

int asm_syms_set(asm_syms_t *t, const char *s, size_t n, int64_t value, const char *file,
                 unsigned line)
{
    asm_sym_t *old = (asm_sym_t *)asm_syms_get(t, s, n);
    if (old) {
        *old = (asm_sym_t){s, n, value, file, line};
        return TESS_OK;
    }
    if (sym_grow(t) != TESS_OK)
        return TESS_ENOMEM;
    t->v[t->n] = (asm_sym_t){s, n, value, file, line};
    *sym_slot(t, s, n) = (uint32_t)++t->n;
    return TESS_OK;
}

bool asm_expr_reserved(const char *s, size_t n)
{
    if (asm_lex_word_is(s, n, "id"))
        return true;
    if (n < 2 || (s[0] != 'r' && s[0] != 'R'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* ---- expressions ----------------------------------------------------- */

enum { MAX_NEST = 64 };

typedef struct expr {
    asm_lex_t *lx;
    const char *what;
    unsigned nest;
} expr_t;

/* Binary operators, longest first; prec is C's (higher binds tighter). */
static const struct {
    const char *op;
    int prec;
} binops[] = {
    {"<<", 8}, {">>", 8}, {"<=", 7}, {">=", 7}, {"==", 6}, {"!=", 6}, {"&&", 2}, {"||", 1},
    {"*", 10}, {"/", 10}, {"%", 10}, {"+", 9},  {"-", 9},  {"<", 7},  {">", 7},  {"&", 5},
    {"^", 4},  {"|", 3},
};

/* The binary operator at the cursor (index into binops), or -1. */
static int peek_binop(asm_lex_t *lx)
{
    if (asm_lex_peek(lx) < 0)
        return -1;
    const char *p = lx->src + lx->pos;
    size_t room = lx->line_end - lx->pos;
    for (int i = 0; i < (int)(sizeof binops / sizeof binops[0]); i++) {
        size_t n = strlen(binops[i].op);
        if (n <= room && memcmp(p, binops[i].op, n) == 0)
            return i;
    }
    return -1;
}

static int binary(expr_t *e, int min_prec, int64_t *v);

static int name_value(expr_t *e, int64_t *v)
{
    asm_lex_t *lx = e->lx;
    char found[48];
    const char *s;
    size_t at = lx->pos, n = asm_lex_ident(lx, &s);
    const asm_sym_t *sym = asm_expr_reserved(s, n) ? NULL : asm_syms_get(lx->syms, s, n);
    if (sym) {
        *v = sym->value;
        return TESS_OK;
    }
    if (asm_expr_reserved(s, n))
        return asm_lex_fail(lx, at, "expected %s (a number), found %s", e->what,
                            asm_lex_found(lx, at, found, sizeof found));
    return asm_lex_fail(lx, at, "undefined symbol '%.*s' in %s (expected a number or a name "
                        "given by .equ)", (int)(n > 32 ? 32 : n), s, e->what);
}

static int primary(expr_t *e, int64_t *v)
{
    asm_lex_t *lx = e->lx;
    int c = asm_lex_peek(lx);
    size_t at = lx->pos;
    if (++e->nest > MAX_NEST)
        return asm_lex_fail(lx, at, "expression nested more than %d deep", MAX_NEST);
    int rc;
    if (c == '(') {
        lx->pos++;
        rc = binary(e, 1, v);
        if (rc == TESS_OK)
            rc = asm_lex_expect(lx, ')', "the parenthesised expression");
    } else if (c == '-' || c == '+' || c == '~' || c == '!') {
        lx->pos++;
        rc = primary(e, v);
        uint64_t u = (uint64_t)*v;
        *v = c == '-' ? (int64_t)(0 - u) : c == '~' ? (int64_t)~u : c == '!' ? !*v : *v;
    } else if (asm_is_alpha(c)) {
        rc = name_value(e, v);
    } else {
        uint64_t u = 0;
        rc = asm_lex_literal(lx, &u, e->what);
        *v = (int64_t)u;
    }
    e->nest--;
    return rc;
}

static int apply(expr_t *e, const char *op, size_t at, int64_t a, int64_t b, int64_t *v)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op[0]) {
    case '*': *v = (int64_t)(ua * ub); return TESS_OK;
    case '/':
    case '%':
        if (b == 0)
            return asm_lex_fail(e->lx, at, "division by zero in %s", e->what);
        if (b == -1) /* INT64_MIN / -1 overflows */
            *v = op[0] == '/' ? (int64_t)(0 - ua) : 0;
        else
            *v = op[0] == '/' ? a / b : a % b;
        return TESS_OK;
    case '+': *v = (int64_t)(ua + ub); return TESS_OK;
    case '-': *v = (int64_t)(ua - ub); return TESS_OK;
    case '^': *v = a ^ b; return TESS_OK;
    case '=': *v = a == b; return TESS_OK;
    case '!': *v = a != b; return TESS_OK;
    default: break;
    }
    if (op[1] == op[0] && (op[0] == '<' || op[0] == '>')) {
        if (b < 0 || b > 63)
            return asm_lex_fail(e->lx, at, "shift by %lld in %s (expected 0..63)", (long long)b,
                                e->what);
        *v = op[0] == '<' ? (int64_t)(ua << b) : a >> b; /* >> of a negative: arithmetic (GCC) */
        return TESS_OK;
    }
    if (op[1] == op[0]) { /* && || */
        *v = op[0] == '&' ? (a && b) : (a || b);
        return TESS_OK;
    }
    if (op[0] == '&' || op[0] == '|') {
        *v = op[0] == '&' ? a & b : a | b;
        return TESS_OK;
    }
    bool eq = op[1] == '=';
    *v = op[0] == '<' ? (eq ? a <= b : a < b) : (eq ? a >= b : a > b);
    return TESS_OK;
}

static int binary(expr_t *e, int min_prec, int64_t *v)
{
    int rc = primary(e, v);
    for (;;) {
        int i = rc == TESS_OK ? peek_binop(e->lx) : -1;
        if (i < 0 || binops[i].prec < min_prec)
            return rc;
        size_t at = e->lx->pos;
        e->lx->pos += strlen(binops[i].op);
        if (++e->nest > MAX_NEST)
            return asm_lex_fail(e->lx, at, "expression nested more than %d deep", MAX_NEST);
        int64_t r = 0;
        rc = binary(e, binops[i].prec + 1, &r);
        e->nest--;
        if (rc == TESS_OK)
            rc = apply(e, binops[i].op, at, *v, r, v);
    }
}

int asm_expr_eval(asm_lex_t *lx, int64_t *v, const char *what)
{
    expr_t e = {lx, what, 0};
    *v = 0;
    return binary(&e, 1, v);
}

bool asm_expr_starts(asm_lex_t *lx)
{
    int c = asm_lex_peek(lx);
    if (c < 0)
        return false;
    if ((c >= '0' && c <= '9') || c == '(' || c == '-' || c == '+' || c == '~' || c == '!')
        return true;
    size_t at = lx->pos;
    const char *s;
    size_t n = asm_lex_ident(lx, &s);
    lx->pos = at;
    return n > 0 && !asm_expr_reserved(s, n) && asm_syms_get(lx->syms, s, n) != NULL;
}

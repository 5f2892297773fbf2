/* asm_mac.c — macros and repetitions of the assembler (see asm_pp.h):
 * `.macro NAME PARAMS` ... `.endm` definitions, their calls, `.exitm`,
 * `.purgem`, `.rept COUNT` / `.irp SYM, V, ...` / `.irpc SYM, CHARS` ...
 * `.endr`, and the readers that play a body back.
 * Invariant: a body is collected whole (nested definitions and repetitions
 * counted) before anything of it is assembled; a macro's body and parameters
 * live until asm_pp_close, a repetition's until its reader is popped. */
#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/asm_pp_int.h"

static int nomem(asm_lex_t *lx)
{
    return diag_fail(lx->diag, TESS_ENOMEM, "%s: out of memory", lx->file);
}


static int body_add(asm_body_t *b, const asm_line_t *l)
{
    asm_line_t *v = tess_grow(b->v, &b->cap, b->n, sizeof *v, 16);
    if (!v)
        return TESS_ENOMEM;
    b->v = v;
    b->v[b->n++] = *l;
    return TESS_OK;
}

/* Reads the body of the .macro (macro true) or .rept/.irp/.irpc on lx's line
 * from the top reader, up to its matching .endm/.endr, into *b. */
static int collect(asm_pp_t *pp, asm_lex_t *lx, size_t at, bool macro, asm_body_t *b)
{
    unsigned depth = 1;
    for (;;) {
        asm_line_t l;
        bool got = false;
        int rc = asm_pp_raw(pp, lx, &l, &got);
        if (rc != TESS_OK)
            return rc;
        if (!got)
            return asm_lex_fail(lx, at, "missing %s for this %s (the end of the %s came first)",
                                macro ? ".endm" : ".endr", macro ? ".macro" : "repetition",
                                pp->readers[pp->depth - 1].kind == 'f' ? "file" : "expansion");
        const char *s = NULL;
        size_t n = asm_pp_line_directive(&l, &s);
        if (macro && asm_lex_word_is(s, n, "macro"))
            depth++;
        else if (macro && asm_lex_word_is(s, n, "endm"))
            depth--;
        else if (!macro && (asm_lex_word_is(s, n, "rept") || asm_lex_word_is(s, n, "irp") ||
                            asm_lex_word_is(s, n, "irpc")))
            depth++;
        else if (!macro && asm_lex_word_is(s, n, "endr"))
            depth--;
        if (depth == 0)
            return TESS_OK;
        if (body_add(b, &l) != TESS_OK)
            return nomem(lx);
    }
}

/* ---- .macro ---------------------------------------------------------- */

/* A value at the cursor: "quoted", or up to a blank/','/';' (stop_blank) or
 * up to a top-level ',' or ';' (trailing blanks dropped). */
static int value(asm_lex_t *lx, bool stop_blank, asm_str_t *v)
{
    int c = asm_lex_peek(lx);
    size_t at = lx->pos, end = at;
    if (c == '"') {
        while (++end < lx->line_end && lx->src[end] != '"') {}
        if (end == lx->line_end)
            return asm_lex_fail(lx, at, "missing '\"' after the quoted argument");
        *v = (asm_str_t){lx->src + at + 1, end - at - 1};
        lx->pos = end + 1;
        return TESS_OK;
    }
    int nest = 0;
    for (; end < lx->line_end; end++) {
        char ch = lx->src[end];
        if (ch == ';' || (nest == 0 && (ch == ',' || (stop_blank && asm_is_blank(ch)))))
            break;
        nest += (ch == '(' || ch == '[' || ch == '{') - (ch == ')' || ch == ']' || ch == '}');
    }
    lx->pos = end;
    while (end > at && asm_is_blank((unsigned char)lx->src[end - 1]))
        end--;
    *v = (asm_str_t){lx->src + at, end - at};
    return TESS_OK;
}

/* One parameter: NAME, NAME=DEFAULT, NAME:req, NAME:vararg. */
static int param(asm_lex_t *lx, asm_macro_t *m)
{
    char found[48];
    const char *s;
    size_t at = lx->pos, n = asm_lex_ident(lx, &s);
    if (n == 0)
        return asm_lex_fail(lx, at, "expected a parameter name, found %s",
                            asm_lex_found(lx, at, found, sizeof found));
    for (unsigned i = 0; i < m->n_params; i++)
        if (m->names[i].len == n && memcmp(m->names[i].s, s, n) == 0)
            return asm_lex_fail(lx, at, "duplicate parameter '%.*s'", (int)n, s);
    if (m->n_params > 0 && m->params[m->n_params - 1].vararg)
        return asm_lex_fail(lx, at, "parameter '%.*s' after the :vararg one", (int)n, s);
    asm_param_t p = {{s, n}, {"", 0}, false, false};
    int rc = TESS_OK;
    if (lx->pos < lx->line_end && lx->src[lx->pos] == '=') {
        lx->pos++;
        rc = value(lx, true, &p.def);
    } else if (lx->pos < lx->line_end && lx->src[lx->pos] == ':') {
        const char *q;
        size_t qat = ++lx->pos, k = asm_lex_ident(lx, &q);
        p.req = asm_lex_word_is(q, k, "req");
        p.vararg = asm_lex_word_is(q, k, "vararg");
        if (!p.req && !p.vararg)
            rc = asm_lex_fail(lx, qat, "expected 'req' or 'vararg' after '%.*s:'", (int)n, s);
    }
    m->names[m->n_params] = p.name;
    m->params[m->n_params++] = p;
    return rc;
}

static int define(asm_pp_t *pp, asm_lex_t *lx, size_t at, asm_macro_t *m)
{
    char found[48];
    const char *s;
    asm_lex_peek(lx);
    size_t name_at = lx->pos, n = asm_lex_ident(lx, &s);
    if (n == 0 || asm_expr_reserved(s, n))
        return asm_lex_fail(lx, name_at, "expected a macro name after .macro, found %s",
                            asm_lex_found(lx, name_at, found, sizeof found));
    const asm_sym_t *old = asm_syms_get(&pp->macro_index, s, n);
    if (old && old->value >= 0)
        return asm_lex_fail(lx, name_at, "macro '%.*s' is already defined (at %s:%u; .purgem "
                            "removes it)", (int)n, s, old->file, old->line);
    *m = (asm_macro_t){.name = {s, n}, .file = lx->file, .line = lx->line};
    size_t room = lx->line_end - lx->pos + 1;
    m->names = tess_calloc(room, sizeof *m->names);
    m->params = tess_calloc(room, sizeof *m->params);
    if (!m->names || !m->params)
        return nomem(lx);
    int rc = TESS_OK;
    while (rc == TESS_OK && asm_lex_peek(lx) >= 0) {
        rc = param(lx, m);
        if (rc == TESS_OK)
            asm_lex_accept(lx, ',');
    }
    return rc == TESS_OK ? collect(pp, lx, at, true, &m->body) : rc;
}

static void macro_free(asm_macro_t *m)
{
    tess_free(m->names);
    tess_free(m->params);
    tess_free(m->body.v);
}

static int dir_macro(asm_pp_t *pp, asm_lex_t *lx, size_t at)
{
    asm_macro_t m;
    memset(&m, 0, sizeof m);
    int rc = define(pp, lx, at, &m);
    if (rc == TESS_OK) {
        asm_macro_t *v = tess_grow(pp->macros, &pp->cap_macros, pp->n_macros, sizeof *v, 16);
        if (v)
            pp->macros = v;
        else
            rc = nomem(lx);
    }
    if (rc == TESS_OK &&
        asm_syms_set(&pp->macro_index, m.name.s, m.name.len, (int64_t)pp->n_macros, m.file,
                     m.line) != TESS_OK)
        rc = nomem(lx);
    if (rc != TESS_OK) {
        macro_free(&m);
        return rc;
    }
    pp->macros[pp->n_macros++] = m;
    return TESS_OK;
}

static int dir_purgem(asm_pp_t *pp, asm_lex_t *lx)
{
    char found[48];
    const char *s;
    asm_lex_peek(lx);
    size_t at = lx->pos, n = asm_lex_ident(lx, &s);
    const asm_sym_t *m = n ? asm_syms_get(&pp->macro_index, s, n) : NULL;
    if (!m || m->value < 0)
        return asm_lex_fail(lx, at, ".purgem: no macro named %s",
                            asm_lex_found(lx, at, found, sizeof found));
    int rc = asm_syms_set(&pp->macro_index, s, n, -1, lx->file, lx->line);
    if (rc != TESS_OK)
        return nomem(lx);
    return asm_lex_end(lx, "the macro name");
}

static int dir_exitm(asm_pp_t *pp, asm_lex_t *lx, size_t at)
{
    int rc = asm_lex_end(lx, ".exitm");
    for (unsigned i = pp->depth; rc == TESS_OK && i-- > 0;) {
        char kind = pp->readers[i].kind;
        if (kind == 'm') {
            asm_pp_unwind(pp, i);
            return TESS_OK;
        }
        if (kind == 'f')
            break;
    }
    return rc == TESS_OK ? asm_lex_fail(lx, at, ".exitm outside a macro") : rc;
}

/* ---- calls ----------------------------------------------------------- */

/* The parameter named by `NAME=` at the cursor (consumed), or -1. */
static int keyword(asm_lex_t *lx, const asm_macro_t *m)
{
    const char *s;
    size_t at = lx->pos, n = asm_lex_ident(lx, &s);
    if (n > 0 && lx->pos < lx->line_end && lx->src[lx->pos] == '=' &&
        (lx->pos + 1 == lx->line_end || lx->src[lx->pos + 1] != '=')) {
        for (unsigned i = 0; i < m->n_params; i++) {
            if (m->names[i].len == n && memcmp(m->names[i].s, s, n) == 0) {
                lx->pos++;
                return (int)i;
            }
        }
    }
    lx->pos = at;
    return -1;
}

/* The arguments at the cursor into vals (s NULL: not given). */
static int call_args(asm_lex_t *lx, const asm_macro_t *m, asm_str_t *vals)
{
    char found[48];
    unsigned pos = 0;
    while (asm_lex_peek(lx) >= 0) {
        size_t at = lx->pos;
        int k = keyword(lx, m);
        unsigned i = k >= 0 ? (unsigned)k : pos++;
        if (i >= m->n_params)
            return asm_lex_fail(lx, at, "macro '%.*s' takes %u argument%s; extra argument %s",
                                (int)m->name.len, m->name.s, m->n_params,
                                m->n_params == 1 ? "" : "s", asm_lex_found(lx, at, found, sizeof found));
        if (vals[i].s)
            return asm_lex_fail(lx, at, "argument '%.*s' of macro '%.*s' given twice",
                                (int)m->names[i].len, m->names[i].s, (int)m->name.len, m->name.s);
        int rc = TESS_OK;
        if (m->params[i].vararg) { /* the rest of the line */
            asm_lex_peek(lx);
            size_t end = lx->pos;
            while (end < lx->line_end && lx->src[end] != ';')
                end++;
            while (end > lx->pos && asm_is_blank((unsigned char)lx->src[end - 1]))
                end--;
            vals[i] = (asm_str_t){lx->src + lx->pos, end - lx->pos};
            lx->pos = end;
        } else {
            rc = value(lx, false, &vals[i]);
        }
        if (rc != TESS_OK)
            return rc;
        if (!asm_lex_accept(lx, ',') && (rc = asm_lex_end(lx, "the macro argument")) != TESS_OK)
            return rc;
    }
    return TESS_OK;
}

static int call_defaults(asm_lex_t *lx, size_t at, const asm_macro_t *m, asm_str_t *vals)
{
    for (unsigned i = 0; i < m->n_params; i++) {
        if (vals[i].s && (vals[i].len > 0 || !m->params[i].def.len))
            continue;
        if (m->params[i].req && !vals[i].s)
            return asm_lex_fail(lx, at, "macro '%.*s': missing value for required argument "
                                "'%.*s'", (int)m->name.len, m->name.s, (int)m->names[i].len,
                                m->names[i].s);
        vals[i] = m->params[i].def;
    }
    return TESS_OK;
}

int asm_pp_call(asm_pp_t *pp, asm_lex_t *lx, const char *s, size_t n, size_t at, bool *called)
{
    const asm_sym_t *sym = asm_syms_get(&pp->macro_index, s, n);
    *called = sym && sym->value >= 0;
    if (!*called)
        return TESS_OK;
    asm_macro_t *m = &pp->macros[sym->value];
    asm_str_t *vals = tess_calloc(m->n_params + 1u, sizeof *vals);
    if (!vals)
        return nomem(lx);
    int rc = call_args(lx, m, vals);
    if (rc == TESS_OK)
        rc = call_defaults(lx, at, m, vals);
    if (rc == TESS_OK)
        rc = asm_pp_count_expansion(pp, lx, at);
    asm_ctx_t *ctx = rc == TESS_OK ? asm_pp_alloc(pp, lx, sizeof *ctx, &rc) : NULL;
    asm_reader_t *r = NULL;
    if (rc == TESS_OK)
        rc = asm_pp_push(pp, lx, at, &r);
    if (rc != TESS_OK) {
        tess_free(vals);
        return rc;
    }
    *ctx = (asm_ctx_t){lx->ctx, 'm', m->name.s, m->name.len, NULL, 0, 0, 0, lx->file, lx->line};
    r->kind = 'm';
    r->body = m->body;
    r->names = m->names;
    r->vals = vals;
    r->n_names = m->n_params;
    r->uniq = pp->counter - 1;
    r->iter = r->count = ++m->calls; /* \+: the calls of this macro before this one */
    r->ctx = ctx;
    return TESS_OK;
}

/* ---- .rept, .irp, .irpc ---------------------------------------------- */

int asm_mac_iteration(asm_pp_t *pp, asm_lex_t *lx, asm_reader_t *r)
{
    int rc = asm_pp_count_expansion(pp, lx, lx->line_start);
    asm_ctx_t *ctx = rc == TESS_OK ? asm_pp_alloc(pp, lx, sizeof *ctx, &rc) : NULL;
    if (!ctx)
        return rc;
    r->iter++;
    r->next = 0;
    r->nest = 0;
    r->uniq = pp->counter - 1;
    *ctx = r->proto;
    ctx->iter = r->iter;
    if (r->kind == 'i') {
        r->vals[0] = r->items[r->iter - 1];
        ctx->value = r->vals[0].s;
        ctx->value_len = r->vals[0].len;
    }
    r->ctx = ctx;
    return TESS_OK;
}

/* .irp SYM, V, V, ... (no value: one pass with SYM empty) or .irpc SYM, CHARS. */
static int irp_items(asm_lex_t *lx, bool chars, asm_str_t *items, unsigned *n)
{
    int rc = TESS_OK;
    *n = 0;
    if (!asm_lex_accept(lx, ',') && asm_lex_peek(lx) < 0) {
        items[(*n)++] = (asm_str_t){"", 0};
        return TESS_OK;
    }
    if (chars) {
        asm_str_t v;
        rc = value(lx, true, &v);
        for (size_t i = 0; rc == TESS_OK && i < v.len; i++)
            items[(*n)++] = (asm_str_t){v.s + i, 1};
        if (*n == 0)
            items[(*n)++] = (asm_str_t){"", 0};
        return rc == TESS_OK ? asm_lex_end(lx, ".irpc's characters") : rc;
    }
    do {
        rc = value(lx, false, &items[(*n)++]);
    } while (rc == TESS_OK && asm_lex_accept(lx, ','));
    return rc == TESS_OK ? asm_lex_end(lx, ".irp's values") : rc;
}

static int dir_repeat(asm_pp_t *pp, asm_lex_t *lx, size_t at, char kind, bool chars)
{
    asm_ctx_t proto = {lx->ctx, kind, NULL, 0, NULL, 0, 0, 0, lx->file, lx->line};
    asm_str_t *vals = NULL;
    unsigned count = 0;
    int rc = TESS_OK;
    if (kind == 'r') {
        int64_t v = 0;
        asm_lex_peek(lx);
        size_t cat = lx->pos;
        rc = asm_expr_eval(lx, &v, ".rept count");
        if (rc == TESS_OK && (v < 0 || v > ASM_PP_EXPANSIONS_MAX))
            rc = asm_lex_fail(lx, cat, ".rept count %lld out of range (expected 0..%u)",
                              (long long)v, ASM_PP_EXPANSIONS_MAX);
        if (rc == TESS_OK)
            rc = asm_lex_end(lx, "the .rept count");
        count = (unsigned)v;
    } else {
        char found[48];
        const char *s;
        asm_lex_peek(lx);
        size_t sat = lx->pos, n = asm_lex_ident(lx, &s);
        if (n == 0)
            return asm_lex_fail(lx, sat, "expected a symbol after .%s, found %s",
                                chars ? "irpc" : "irp", asm_lex_found(lx, sat, found, sizeof found));
        proto.name = s;
        proto.name_len = n;
        vals = tess_calloc(lx->line_end - lx->pos + 3, sizeof *vals);
        if (!vals)
            return nomem(lx);
        rc = irp_items(lx, chars, vals + 1, &count);
    }
    asm_body_t body = {0};
    if (rc == TESS_OK)
        rc = collect(pp, lx, at, false, &body);
    asm_reader_t *r = NULL;
    if (rc == TESS_OK && count > 0 && body.n > 0)
        rc = asm_pp_push(pp, lx, at, &r);
    if (rc != TESS_OK || !r) {
        tess_free(vals);
        tess_free(body.v);
        return rc;
    }
    proto.count = count;
    *r = (asm_reader_t){.kind = kind, .body = body, .own_body = true, .count = count,
                        .vals = vals, .items = vals ? vals + 1 : NULL, .n_names = vals ? 1 : 0,
                        .proto = proto, .cond_base = r->cond_base};
    r->sym = (asm_str_t){proto.name, proto.name_len};
    r->names = &r->sym;
    return asm_mac_iteration(pp, lx, r);
}

/* ---- files ----------------------------------------------------------- */

int asm_mac_push_file(asm_pp_t *pp, asm_lex_t *lx, size_t at, const char *path,
                      const char *text, size_t len, char *real)
{
    int rc = TESS_OK;
    asm_ctx_t *ctx = asm_pp_alloc(pp, lx, sizeof *ctx, &rc);
    asm_reader_t *r = NULL;
    if (rc == TESS_OK)
        rc = asm_pp_push(pp, lx, at, &r);
    if (rc != TESS_OK) {
        free(real);
        return rc;
    }
    *ctx = (asm_ctx_t){lx->ctx, 'f', NULL, 0, NULL, 0, 0, 0, lx->file, lx->line};
    r->kind = 'f';
    r->text = text;
    r->len = len;
    r->file = path;
    r->real = real;
    r->ctx = ctx;
    return TESS_OK;
}

void asm_mac_free_all(asm_pp_t *pp)
{
    for (size_t i = 0; i < pp->n_macros; i++)
        macro_free(&pp->macros[i]);
    tess_free(pp->macros);
    asm_syms_free(&pp->macro_index);
}

int asm_mac_directive(asm_pp_t *pp, asm_lex_t *lx, const char *s, size_t n, size_t at,
                      bool *handled)
{
    *handled = true;
    if (asm_lex_word_is(s, n, "macro"))
        return dir_macro(pp, lx, at);
    if (asm_lex_word_is(s, n, "rept"))
        return dir_repeat(pp, lx, at, 'r', false);
    if (asm_lex_word_is(s, n, "irp"))
        return dir_repeat(pp, lx, at, 'i', false);
    if (asm_lex_word_is(s, n, "irpc"))
        return dir_repeat(pp, lx, at, 'i', true);
    if (asm_lex_word_is(s, n, "exitm"))
        return dir_exitm(pp, lx, at);
    if (asm_lex_word_is(s, n, "purgem"))
        return dir_purgem(pp, lx);
    if (asm_lex_word_is(s, n, "endm") || asm_lex_word_is(s, n, "endr"))
        return asm_lex_fail(lx, at, ".%.*s without %s", (int)n, s,
                            asm_lex_word_is(s, n, "endm") ? ".macro" : ".rept or .irp");
    *handled = false;
    return TESS_OK;
}

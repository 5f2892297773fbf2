/* asm_pp.c — the assembler's line source (see asm_pp.h): a stack of readers
 * (the file, included files, macro calls, .rept/.irp/.irpc iterations), the
 * arena that keeps every expanded line, argument substitution, the limits, and
 * the .if stack. Definitions and calls of macros and repetitions are in
 * asm_mac.c.
 * Invariant: the reader on top gives the next line; a body reader's lines are
 * its body's, substituted when they hold a '\'; nothing handed out is freed
 * before asm_pp_close. */
#include "model/asm_pp_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"
#include "events/base/infile.h"
#include "model/asm.h"
#include "model/asm_expr.h"

/* ---- the arena ------------------------------------------------------- */

typedef struct block {
    struct block *next;
    size_t used, cap;
    char data[];
} block_t;

void *asm_pp_alloc(asm_pp_t *pp, asm_lex_t *lx, size_t n, int *rc)
{
    n = (n + 7) & ~(size_t)7;
    if (n > ASM_PP_BYTES_MAX - pp->bytes) {
        *rc = asm_lex_fail(lx, lx->line_start, "expansion limit: more than %u bytes of text "
                           "made by macros, repetitions and .include (runaway expansion?)",
                           ASM_PP_BYTES_MAX);
        return NULL;
    }
    block_t *b = pp->blocks;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        b = tess_malloc(sizeof *b + cap);
        if (!b) {
            *rc = diag_fail(lx->diag, TESS_ENOMEM, "%s: out of memory", lx->file);
            return NULL;
        }
        b->used = 0;
        b->cap = cap;
        b->next = pp->blocks;
        pp->blocks = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    pp->bytes += n;
    return p;
}

/* ---- readers --------------------------------------------------------- */

/* A UTF-8 byte order mark (editors on Windows write one) is not part of a
 * file's text; line 1's columns count after it. */
static const char *skip_bom(const char *text, size_t *len)
{
    if (text && *len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        *len -= 3;
        return text + 3;
    }
    return text;
}

asm_pp_t *asm_pp_open(const char *src, size_t len, const char *file, bool no_include)
{
    asm_pp_t *pp = tess_calloc(1, sizeof *pp);
    if (!pp)
        return NULL;
    pp->no_include = no_include;
    asm_reader_t *r = &pp->readers[pp->depth++];
    src = skip_bom(src, &len);
    r->kind = 'f';
    r->text = src ? src : "";
    r->len = src ? len : 0;
    r->file = file ? file : "<asm>";
    r->real = file ? realpath(file, NULL) : NULL; /* the cycle guard's first file */
    return pp;
}

static void reader_free(asm_reader_t *r)
{
    if (r->own_body)
        tess_free(r->body.v);
    tess_free(r->vals);
    free(r->real); /* realpath's */
    memset(r, 0, sizeof *r);
}

void asm_pp_close(asm_pp_t *pp)
{
    if (!pp)
        return;
    while (pp->depth > 0)
        reader_free(&pp->readers[--pp->depth]);
    for (block_t *b = pp->blocks, *next; b; b = next) {
        next = b->next;
        tess_free(b);
    }
    for (size_t i = 0; i < pp->n_texts; i++)
        tess_free(pp->texts[i]);
    tess_free(pp->texts);
    asm_mac_free_all(pp);
    tess_free(pp);
}

int asm_pp_push(asm_pp_t *pp, asm_lex_t *lx, size_t at, asm_reader_t **r)
{
    if (pp->depth > ASM_PP_DEPTH_MAX)
        return asm_lex_fail(lx, at, "expansion limit: macros, repetitions and files nested "
                            "more than %u deep (a macro that calls itself without end?)",
                            ASM_PP_DEPTH_MAX);
    *r = &pp->readers[pp->depth++];
    memset(*r, 0, sizeof **r);
    (*r)->cond_base = pp->n_cond;
    return TESS_OK;
}

int asm_pp_count_expansion(asm_pp_t *pp, asm_lex_t *lx, size_t at)
{
    if (++pp->expansions > ASM_PP_EXPANSIONS_MAX)
        return asm_lex_fail(lx, at, "expansion limit: more than %u macro calls and .rept/.irp "
                            "iterations (runaway expansion?)", ASM_PP_EXPANSIONS_MAX);
    pp->counter++;
    return TESS_OK;
}

/* The next raw line of a file reader; false at its end. */
static bool file_line(asm_reader_t *r, asm_line_t *out)
{
    if (r->off >= r->len)
        return false;
    size_t end = r->off;
    while (end < r->len && r->text[end] != '\n')
        end++;
    *out = (asm_line_t){r->text + r->off, end - r->off, r->file, ++r->line, r->ctx};
    r->off = end + 1;
    return true;
}


size_t asm_pp_line_directive(const asm_line_t *l, const char **s)
{
    size_t i = 0;
    for (;;) {
        while (i < l->len && asm_is_blank((unsigned char)l->text[i]))
            i++;
        size_t k = asm_ident_len(l->text, l->len, i);
        if (k == 0 || i + k >= l->len || l->text[i + k] != ':')
            break;
        i += k + 1;
    }
    if (i >= l->len || l->text[i] != '.')
        return 0;
    *s = l->text + i + 1;
    return asm_ident_len(l->text, l->len, i + 1);
}

/* What `\NAME` stands for in reader r, or false when nothing. */
static bool lookup_arg(const asm_reader_t *r, const char *s, size_t n, asm_str_t *v)
{
    for (unsigned i = 0; i < r->n_names; i++) {
        if (r->names[i].len == n && memcmp(r->names[i].s, s, n) == 0) {
            *v = r->vals[i];
            return true;
        }
    }
    return false;
}

/* Copies or measures the substitution of `in` (out NULL: measure only). */
static size_t substitute(const asm_reader_t *r, const asm_line_t *in, char *out)
{
    char num[24];
    size_t n = 0;
    for (size_t i = 0; i < in->len;) {
        const char *t = in->text + i;
        size_t k = i + 1 < in->len && t[0] == '\\' ? asm_ident_len(in->text, in->len, i + 1) : 0;
        asm_str_t v = {t, 1};
        size_t used = 1;
        if (t[0] == '\\' && i + 1 < in->len && (t[1] == '@' || t[1] == '+') && r->nest == 0) {
            snprintf(num, sizeof num, "%u", t[1] == '@' ? r->uniq : r->iter - 1);
            v = (asm_str_t){num, strlen(num)};
            used = 2;
        } else if (t[0] == '\\' && i + 2 < in->len && t[1] == '(' && t[2] == ')') {
            v.len = 0;
            used = 3;
        } else if (k > 0 && lookup_arg(r, t + 1, k, &v)) {
            used = k + 1;
        } else if (k > 0) {
            v.len = used = k + 1; /* not ours: kept for an inner .irp */
        }
        if (out)
            memcpy(out + n, v.s, v.len);
        n += v.len;
        if (n > ASM_PP_BYTES_MAX) /* measured before anything is written */
            return SIZE_MAX;
        i += used;
    }
    return n;
}

/* The next line of body reader r in this pass; false at the end of the pass. */
static bool body_line(asm_pp_t *pp, asm_lex_t *lx, asm_reader_t *r, asm_line_t *out, int *rc)
{
    if (r->next >= r->body.n)
        return false;
    asm_line_t in = r->body.v[r->next++];
    if (++pp->lines > ASM_PP_LINES_MAX) {
        *rc = asm_lex_fail(lx, lx->line_start, "expansion limit: more than %u lines made by "
                           "macros and repetitions (runaway expansion?)", ASM_PP_LINES_MAX);
        return false;
    }
    *out = (asm_line_t){in.text, in.len, in.file, in.line, r->ctx};
    const char *d = NULL;
    size_t dn = asm_pp_line_directive(&in, &d);
    if (asm_lex_word_is(d, dn, "endr") && r->nest > 0)
        r->nest--;
    bool opens = asm_lex_word_is(d, dn, "rept") || asm_lex_word_is(d, dn, "irp") ||
                 asm_lex_word_is(d, dn, "irpc");
    if (!memchr(in.text, '\\', in.len)) {
        r->nest += opens;
        return true;
    }
    size_t n = substitute(r, &in, NULL);
    if (n == SIZE_MAX)
        n = ASM_PP_BYTES_MAX + 1u; /* too long: asm_pp_alloc says so */
    char *text = asm_pp_alloc(pp, lx, n + 1, rc);
    if (!text)
        return false;
    substitute(r, &in, text);
    out->text = text;
    out->len = n;
    r->nest += opens;
    return true;
}

/* Starts the next iteration of a .rept/.irp reader; false after the last. */
static bool next_iteration(asm_pp_t *pp, asm_lex_t *lx, asm_reader_t *r, int *rc)
{
    if (r->kind == 'f' || r->kind == 'm' || r->iter >= r->count)
        return false;
    r->next = 0;
    *rc = asm_mac_iteration(pp, lx, r);
    return *rc == TESS_OK;
}

/* Leaves the top reader; its .if must have been closed. */
static int pop(asm_pp_t *pp, asm_lex_t *lx)
{
    asm_reader_t *r = &pp->readers[pp->depth - 1];
    int rc = TESS_OK;
    if (pp->n_cond > r->cond_base) {
        const asm_cond_t *c = &pp->cond[pp->n_cond - 1];
        char where[300];
        rc = diag_fail(lx->diag, TESS_EINPUT, "%s:%u:1: .if without .endif before the end of "
                       "%s%s", c->file, c->line, r->kind == 'f' ? "the file" :
                       r->kind == 'm' ? "the macro" : "the repetition",
                       asm_lex_context(c->ctx, where, sizeof where));
    }
    reader_free(r);
    pp->depth--;
    return rc;
}

int asm_pp_next(asm_pp_t *pp, asm_lex_t *lx, asm_line_t *out, bool *got)
{
    int rc = TESS_OK;
    *got = false;
    while (pp->depth > 0 && rc == TESS_OK) {
        asm_reader_t *r = &pp->readers[pp->depth - 1];
        if (r->kind == 'f' ? file_line(r, out) : body_line(pp, lx, r, out, &rc)) {
            *got = true;
            return TESS_OK;
        }
        if (rc == TESS_OK && !next_iteration(pp, lx, r, &rc) && rc == TESS_OK)
            rc = pop(pp, lx);
    }
    return rc;
}

int asm_pp_raw(asm_pp_t *pp, asm_lex_t *lx, asm_line_t *out, bool *got)
{
    int rc = TESS_OK;
    asm_reader_t *r = &pp->readers[pp->depth - 1];
    *got = r->kind == 'f' ? file_line(r, out) : body_line(pp, lx, r, out, &rc);
    return rc;
}

void asm_pp_unwind(asm_pp_t *pp, unsigned depth)
{
    while (pp->depth > depth) {
        asm_reader_t *r = &pp->readers[--pp->depth];
        if (pp->n_cond > r->cond_base)
            pp->n_cond = r->cond_base;
        reader_free(r);
    }
}

unsigned asm_pp_depth(const asm_ctx_t *ctx)
{
    unsigned n = 0;
    for (; ctx; ctx = ctx->up)
        n += ctx->kind != 'f';
    return n;
}

/* ---- .include -------------------------------------------------------- */

/* "FILE" at the cursor into (s, n). */
static int quoted(asm_lex_t *lx, const char **s, size_t *n, const char *what)
{
    char found[48];
    if (asm_lex_peek(lx) != '"')
        return asm_lex_fail(lx, lx->pos, "expected %s in double quotes, found %s", what,
                            asm_lex_found(lx, lx->pos, found, sizeof found));
    size_t at = lx->pos++, end = lx->pos;
    while (end < lx->line_end && lx->src[end] != '"')
        end++;
    if (end == lx->line_end)
        return asm_lex_fail(lx, at, "missing '\"' after %s", what);
    *s = lx->src + lx->pos;
    *n = end - lx->pos;
    lx->pos = end + 1;
    return TESS_OK;
}

/* The path of FILE named in `from`: relative to from's directory. */
static char *include_path(const char *from, const char *s, size_t n)
{
    const char *slash = strrchr(from, '/');
    size_t dir = s[0] == '/' || !slash ? 0 : (size_t)(slash - from + 1);
    char *path = tess_malloc(dir + n + 1);
    if (path) {
        memcpy(path, from, dir);
        memcpy(path + dir, s, n);
        path[dir + n] = 0;
    }
    return path;
}

static int keep_text(asm_pp_t *pp, char *text)
{
    char **v = tess_grow(pp->texts, &pp->cap_texts, pp->n_texts, sizeof *v, 8);
    if (!v)
        return TESS_ENOMEM;
    pp->texts = v;
    pp->texts[pp->n_texts++] = text;
    return TESS_OK;
}

/* The cycle and depth guards: `real` must not be open already. */
static int include_check(asm_pp_t *pp, asm_lex_t *lx, size_t at, const char *path,
                         const char *real)
{
    unsigned files = 0;
    for (unsigned i = 0; i < pp->depth; i++) {
        const asm_reader_t *r = &pp->readers[i];
        if (r->kind != 'f')
            continue;
        files++;
        if (real && r->real && strcmp(real, r->real) == 0)
            return asm_lex_fail(lx, at, ".include \"%s\": the file includes itself (it is "
                                "already open as %s)", path, r->file);
    }
    if (files > ASM_PP_INCLUDE_MAX)
        return asm_lex_fail(lx, at, ".include \"%s\": files included more than %u deep", path,
                            ASM_PP_INCLUDE_MAX);
    return TESS_OK;
}

static int dir_include(asm_pp_t *pp, asm_lex_t *lx, size_t at)
{
    const char *s = NULL;
    size_t n = 0;
    int rc = quoted(lx, &s, &n, "the file name");
    if (rc == TESS_OK)
        rc = asm_lex_end(lx, ".include");
    if (rc == TESS_OK && (n == 0 || memchr(s, 0, n)))
        rc = asm_lex_fail(lx, at, ".include: bad file name");
    if (rc == TESS_OK && pp->no_include)
        rc = asm_lex_fail(lx, at, ".include is not allowed here (the source is assembled on "
                          "its own)");
    if (rc != TESS_OK)
        return rc;
    char *path = include_path(lx->file, s, n), *text = NULL, *real = NULL;
    if (!path || keep_text(pp, path) != TESS_OK) {
        tess_free(path);
        return diag_fail(lx->diag, TESS_ENOMEM, "%s: out of memory", lx->file);
    }
    real = realpath(path, NULL);
    size_t len = 0;
    rc = include_check(pp, lx, at, path, real);
    if (rc == TESS_OK) {
        diag_t d = {0};
        rc = infile_read(path, ASM_SOURCE_MAX, "the limit for an assembly source", &text, &len, &d);
        if (rc != TESS_OK)
            rc = asm_lex_fail(lx, at, ".include: %s", d.msg);
    }
    if (rc == TESS_OK && len > ASM_PP_BYTES_MAX - pp->bytes)
        rc = asm_lex_fail(lx, at, "expansion limit: more than %u bytes of text made by macros, "
                          "repetitions and .include (runaway expansion?)", ASM_PP_BYTES_MAX);
    if (rc == TESS_OK && keep_text(pp, text) != TESS_OK) {
        tess_free(text);
        text = NULL;
        rc = diag_fail(lx->diag, TESS_ENOMEM, "%s: out of memory", lx->file);
    }
    if (rc != TESS_OK) { /* text, when kept, is freed at close */
        free(real);
        return rc;
    }
    pp->bytes += len;
    const char *start = skip_bom(text, &len);
    return asm_mac_push_file(pp, lx, at, path, start, len, real);
}

/* ---- .if ------------------------------------------------------------- */

bool asm_pp_active(const asm_pp_t *pp)
{
    return pp->n_cond == 0 || pp->cond[pp->n_cond - 1].active;
}

/* Whether the rest of the line is blank (for .ifb / .ifnb). */
static bool rest_blank(asm_lex_t *lx)
{
    bool blank = asm_lex_peek(lx) < 0;
    lx->pos = lx->line_end;
    return blank;
}

/* The condition of .if/.elseif/.ifdef/... at the cursor. */
static int condition(asm_lex_t *lx, const char *s, size_t n, bool *yes)
{
    if (asm_lex_word_is(s, n, "ifb") || asm_lex_word_is(s, n, "ifnb")) {
        *yes = rest_blank(lx) == (n == 3);
        return TESS_OK;
    }
    if (asm_lex_word_is(s, n, "ifdef") || asm_lex_word_is(s, n, "ifndef")) {
        const char *name;
        char found[48];
        asm_lex_peek(lx);
        size_t at = lx->pos, k = asm_lex_ident(lx, &name);
        if (k == 0)
            return asm_lex_fail(lx, at, "expected a symbol after .%.*s, found %s", (int)n, s,
                                asm_lex_found(lx, at, found, sizeof found));
        *yes = (asm_syms_get(lx->syms, name, k) != NULL) == (n == 5);
        return asm_lex_end(lx, "the symbol");
    }
    int64_t v = 0;
    int rc = asm_expr_eval(lx, &v, ".if condition");
    *yes = v != 0;
    return rc == TESS_OK ? asm_lex_end(lx, "the .if condition") : rc;
}

static int dir_if(asm_pp_t *pp, asm_lex_t *lx, const char *s, size_t n, size_t at)
{
    if (pp->n_cond == ASM_PP_COND_MAX)
        return asm_lex_fail(lx, at, ".if nested more than %u deep", ASM_PP_COND_MAX);
    bool outer = asm_pp_active(pp), yes = false;
    int rc = outer ? condition(lx, s, n, &yes) : TESS_OK;
    if (!outer)
        lx->pos = lx->line_end; /* not evaluated: its symbols may be undefined */
    if (rc == TESS_OK)
        pp->cond[pp->n_cond++] = (asm_cond_t){outer, outer && yes, outer && yes, false,
                                              lx->file, lx->line, lx->ctx};
    return rc;
}

/* .elseif, .else, .endif */
static int dir_else(asm_pp_t *pp, asm_lex_t *lx, const char *s, size_t n, size_t at)
{
    asm_reader_t *r = &pp->readers[pp->depth - 1];
    if (pp->n_cond <= r->cond_base)
        return asm_lex_fail(lx, at, ".%.*s without .if", (int)n, s);
    asm_cond_t *c = &pp->cond[pp->n_cond - 1];
    if (asm_lex_word_is(s, n, "endif")) {
        pp->n_cond--;
        return asm_lex_end(lx, ".endif");
    }
    if (c->in_else)
        return asm_lex_fail(lx, at, ".%.*s after .else (the .if is at line %u)", (int)n, s,
                            c->line);
    bool yes = !c->taken;
    int rc = TESS_OK;
    if (asm_lex_word_is(s, n, "else"))
        c->in_else = true, rc = asm_lex_end(lx, ".else");
    else if (c->outer && !c->taken)
        rc = condition(lx, "if", 2, &yes);
    else
        lx->pos = lx->line_end;
    c->active = c->outer && yes;
    c->taken = c->taken || c->active;
    return rc;
}

static bool is_if(const char *s, size_t n)
{
    static const char *const ifs[] = {"if", "ifdef", "ifndef", "ifb", "ifnb"};
    for (size_t i = 0; i < sizeof ifs / sizeof ifs[0]; i++)
        if (asm_lex_word_is(s, n, ifs[i]))
            return true;
    return false;
}

int asm_pp_directive(asm_pp_t *pp, asm_lex_t *lx, const char *s, size_t n, size_t at,
                     bool *handled)
{
    *handled = true;
    if (is_if(s, n))
        return dir_if(pp, lx, s, n, at);
    if (asm_lex_word_is(s, n, "else") || asm_lex_word_is(s, n, "elseif") ||
        asm_lex_word_is(s, n, "endif"))
        return dir_else(pp, lx, s, n, at);
    if (!asm_pp_active(pp)) {
        lx->pos = lx->line_end; /* skipped */
        return TESS_OK;
    }
    if (asm_lex_word_is(s, n, "include"))
        return dir_include(pp, lx, at);
    return asm_mac_directive(pp, lx, s, n, at, handled);
}

/* asm_lex.c — the assembler's line cursor and token readers (see asm_lex.h).
 * Invariant: every read is bounded by line_end; messages quote at most a short,
 * printable excerpt of the source. */
#include "model/asm_lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "events/base/err.h"
#include "model/asm_expr.h"

void asm_lex_init(asm_lex_t *lx, const char *src, size_t len, const char *file, diag_t *diag)
{
    /* A UTF-8 byte order mark (editors on Windows write one) is not part of
     * the program, as in a configuration file; line 1's columns count after it. */
    if (src && len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0)
        src += 3, len -= 3;
    lx->src = src;
    lx->len = src ? len : 0;
    lx->pos = lx->line_start = lx->line_end = 0;
    lx->line = 0;
    lx->file = file ? file : "<asm>";
    lx->diag = diag;
    lx->ctx = NULL;
    lx->syms = NULL;
}

void asm_lex_set_line(asm_lex_t *lx, const char *text, size_t len, const char *file,
                      unsigned line, const asm_ctx_t *ctx)
{
    lx->src = text;
    lx->len = len;
    lx->pos = lx->line_start = 0;
    lx->line_end = len;
    lx->line = line;
    lx->file = file;
    lx->ctx = ctx;
}

/* One level of the context: "macro 'm' called at f.s:3". */
static int context_one(const asm_ctx_t *c, char *buf, size_t size)
{
    int nl = (int)(c->name_len > 32 ? 32 : c->name_len), vl = (int)(c->value_len > 32 ? 32 : c->value_len);
    switch (c->kind) {
    case 'm':
        return snprintf(buf, size, "in macro '%.*s' called at %s:%u", nl, c->name, c->file, c->line);
    case 'r':
        return snprintf(buf, size, "in .rept iteration %u of %u at %s:%u", c->iter, c->count,
                        c->file, c->line);
    case 'i':
        return snprintf(buf, size, "in .irp %.*s=%.*s (%u of %u) at %s:%u", nl, c->name, vl,
                        c->value, c->iter, c->count, c->file, c->line);
    default:
        return snprintf(buf, size, "included from %s:%u", c->file, c->line);
    }
}

const char *asm_lex_context(const asm_ctx_t *ctx, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (unsigned lvl = 0; ctx && n + 8 < size; ctx = ctx->up, lvl++) {
        if (lvl == 4) { /* enough to find it; deep recursion would fill the message */
            snprintf(buf + n, size - n, ", ...");
            n = strlen(buf);
            break;
        }
        snprintf(buf + n, size - n, "%s", lvl ? ", " : " (");
        n = strlen(buf);
        context_one(ctx, buf + n, size - n);
        n = strlen(buf);
    }
    if (buf[0] && n + 1 < size)
        snprintf(buf + n, size - n, ")");
    return buf;
}

bool asm_lex_next_line(asm_lex_t *lx)
{
    size_t start = lx->line == 0 ? 0 : lx->line_end + 1;
    if (start >= lx->len)
        return false;
    size_t end = start;
    while (end < lx->len && lx->src[end] != '\n')
        end++;
    lx->line++;
    lx->line_start = lx->pos = start;
    lx->line_end = end;
    return true;
}


/* The byte at `at` of the current line, or -1 past its end. */
static int at_byte(const asm_lex_t *lx, size_t at)
{
    return at < lx->line_end ? (unsigned char)lx->src[at] : -1;
}

int asm_lex_peek(asm_lex_t *lx)
{
    while (asm_is_blank(at_byte(lx, lx->pos)))
        lx->pos++;
    int c = at_byte(lx, lx->pos);
    return c == ';' ? -1 : c;
}

bool asm_lex_accept(asm_lex_t *lx, char c)
{
    if (asm_lex_peek(lx) != (unsigned char)c)
        return false;
    lx->pos++;
    return true;
}

/* Length of the run of identifier/number characters at `at`. */
static size_t word_len(const asm_lex_t *lx, size_t at)
{
    size_t n = 0;
    while (asm_is_word(at_byte(lx, at + n)))
        n++;
    return n;
}

size_t asm_lex_ident(asm_lex_t *lx, const char **s)
{
    if (!asm_is_alpha(asm_lex_peek(lx)))
        return 0;
    size_t n = word_len(lx, lx->pos);
    *s = lx->src + lx->pos;
    lx->pos += n;
    return n;
}

bool asm_lex_word_is(const char *s, size_t n, const char *lit)
{
    size_t i = 0;
    for (; i < n && lit[i]; i++) {
        int a = (unsigned char)s[i], b = (unsigned char)lit[i];
        if (a >= 'A' && a <= 'Z')
            a += 'a' - 'A';
        if (a != b)
            return false;
    }
    return i == n && lit[i] == 0;
}

const char *asm_lex_found(const asm_lex_t *lx, size_t at, char *buf, size_t size)
{
    int c = at_byte(lx, at);
    size_t n = word_len(lx, at);
    if (c < 0 || c == ';')
        snprintf(buf, size, "end of line");
    else if (n > 0)
        snprintf(buf, size, "'%.*s%s'", (int)(n > 24 ? 24 : n), lx->src + at, n > 24 ? "..." : "");
    else if (c >= 0x20 && c < 0x7f)
        snprintf(buf, size, "'%c'", c);
    else
        snprintf(buf, size, "byte 0x%02x", (unsigned)c);
    return buf;
}

static int vfail_at(asm_lex_t *lx, unsigned line, unsigned col, const char *fmt, va_list ap)
{
    char msg[400], where[300];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return diag_fail(lx->diag, TESS_EINPUT, "%s:%u:%u: %s%s", lx->file, line, col, msg,
                     asm_lex_context(lx->ctx, where, sizeof where));
}

int asm_lex_fail(asm_lex_t *lx, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail_at(lx, lx->line, asm_lex_col(lx, at), fmt, ap);
    va_end(ap);
    return rc;
}

int asm_lex_fail_at(asm_lex_t *lx, unsigned line, unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail_at(lx, line, col, fmt, ap);
    va_end(ap);
    return rc;
}

void asm_lex_warn(asm_lex_t *lx, size_t at, const char *fmt, ...)
{
    char msg[400], where[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_warn(lx->diag, "%s:%u:%u: %s%s", lx->file, lx->line, asm_lex_col(lx, at), msg,
              asm_lex_context(lx->ctx, where, sizeof where));
}

static int digit_value(int c)
{
    if (asm_is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* Converts the word (s, n) as a number; false when it is not one. Saturates. */
static bool convert(const char *s, size_t n, uint64_t *v)
{
    unsigned base = 10;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2, n -= 2;
    else if (n > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2, n -= 2;
    *v = 0;
    for (size_t i = 0; i < n; i++) {
        int d = digit_value((unsigned char)s[i]);
        if (d >= (int)base)
            return false;
        *v = *v > 0xffffffffu ? *v : *v * base + (unsigned)d;
    }
    return true;
}

int asm_lex_literal(asm_lex_t *lx, uint64_t *v, const char *what)
{
    char found[48];
    int c = asm_lex_peek(lx);
    size_t at = lx->pos, n = word_len(lx, at);
    if (!asm_is_digit(c))
        return asm_lex_fail(lx, at, "expected %s (a number), found %s", what,
                            asm_lex_found(lx, at, found, sizeof found));
    if (!convert(lx->src + at, n, v))
        return asm_lex_fail(lx, at, "bad number %s for %s (expected decimal, 0x hex or 0b binary)",
                            asm_lex_found(lx, at, found, sizeof found), what);
    lx->pos += n;
    return TESS_OK;
}

int asm_lex_number(asm_lex_t *lx, uint32_t *v, uint32_t max, const char *what)
{
    int64_t val = 0;
    asm_lex_peek(lx);
    size_t at = lx->pos;
    int rc = asm_expr_eval(lx, &val, what);
    if (rc != TESS_OK)
        return rc;
    if (val < 0 || val > (int64_t)max) {
        size_t n = lx->pos - at;
        while (n > 0 && (lx->src[at + n - 1] == ' ' || lx->src[at + n - 1] == '\t'))
            n--;
        bool literal = word_len(lx, at) == n;
        char value[32] = "";
        if (!literal)
            snprintf(value, sizeof value, " = %lld", (long long)val);
        return asm_lex_fail(lx, at, "%s %.*s%s out of range (expected 0..%lu)", what,
                            (int)(n > 40 ? 40 : n), lx->src + at, value, (unsigned long)max);
    }
    *v = (uint32_t)val;
    return TESS_OK;
}

int asm_lex_register(asm_lex_t *lx, unsigned *r)
{
    char found[48];
    const char *s;
    asm_lex_peek(lx);
    size_t at = lx->pos, n = asm_lex_ident(lx, &s);
    bool rform = n >= 2 && (s[0] == 'r' || s[0] == 'R');
    for (size_t i = 1; rform && i < n; i++)
        rform = asm_is_digit((unsigned char)s[i]);
    if (!rform)
        return asm_lex_fail(lx, at, "expected a register r0..r15, found %s",
                            asm_lex_found(lx, at, found, sizeof found));
    uint64_t v = 0;
    convert(s + 1, n - 1, &v);
    if (v > 15 || (n > 2 && s[1] == '0'))
        return asm_lex_fail(lx, at, "bad register %s (expected r0..r15)",
                            asm_lex_found(lx, at, found, sizeof found));
    *r = (unsigned)v;
    return TESS_OK;
}

int asm_lex_hex_bytes(asm_lex_t *lx, uint8_t *out, size_t max, size_t *n, const char *what)
{
    char found[48];
    asm_lex_peek(lx);
    size_t at = lx->pos, len = word_len(lx, at), digits = len >= 2 ? len - 2 : 0;
    bool ok = len > 2 && lx->src[at] == '0' && (lx->src[at + 1] | 0x20) == 'x' &&
              digits % 2 == 0 && digits <= 2 * max;
    for (size_t i = 0; ok && i < digits; i++)
        ok = digit_value((unsigned char)lx->src[at + 2 + i]) < 16;
    if (!ok)
        return asm_lex_fail(lx, at, "expected %s as 0x and an even number of hex digits "
                            "(at most %zu bytes, first byte first), found %s", what, max,
                            asm_lex_found(lx, at, found, sizeof found));
    for (size_t i = 0; i < digits / 2; i++)
        out[i] = (uint8_t)(digit_value((unsigned char)lx->src[at + 2 + 2 * i]) << 4 |
                           digit_value((unsigned char)lx->src[at + 3 + 2 * i]));
    *n = digits / 2;
    lx->pos += len;
    return TESS_OK;
}

int asm_lex_expect(asm_lex_t *lx, char c, const char *after)
{
    char found[48];
    if (asm_lex_accept(lx, c))
        return TESS_OK;
    return asm_lex_fail(lx, lx->pos, "expected '%c' after %s, found %s", c, after,
                        asm_lex_found(lx, lx->pos, found, sizeof found));
}

int asm_lex_end(asm_lex_t *lx, const char *after)
{
    char found[48];
    if (asm_lex_peek(lx) < 0)
        return TESS_OK;
    return asm_lex_fail(lx, lx->pos, "unexpected %s after %s (expected end of line)",
                        asm_lex_found(lx, lx->pos, found, sizeof found), after);
}

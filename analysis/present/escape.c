/* escape.c — JSON, XML and VCD text that is always valid UTF-8 (see escape.h).
 * One decoder; each writer maps code points to its format's escapes. */
#include "analysis/present/escape.h"

#include <stdbool.h>
#include <string.h>

size_t esc_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char b = s[0];
    size_t len;
    uint32_t c, lo = 0x80, hi = 0xBF; /* bounds of the second byte (table 3-7) */
    *cp = ESC_REPLACEMENT;
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    if (b >= 0xC2 && b <= 0xDF)
        len = 2, c = b & 0x1Fu;
    else if (b >= 0xE0 && b <= 0xEF)
        len = 3, c = b & 0x0Fu, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4)
        len = 4, c = b & 0x07u, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;             /* 80..C1 (continuation, overlong lead), F5..FF */
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if (i > 1 && (s[i] < 0x80 || s[i] > 0xBF))
            return 0;
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    *cp = c;
    return len;
}

/* The UTF-8 encoding of code point c into b; its length. */
static size_t utf8_bytes(uint32_t c, unsigned char b[4])
{
    if (c < 0x80)
        return b[0] = (unsigned char)c, 1;
    if (c < 0x800) {
        b[0] = (unsigned char)(0xC0 | (c >> 6));
        b[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        b[0] = (unsigned char)(0xE0 | (c >> 12));
        b[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    b[0] = (unsigned char)(0xF0 | (c >> 18));
    b[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    b[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    b[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

static void put_utf8(FILE *f, uint32_t c)
{
    unsigned char b[4];
    fwrite(b, 1, utf8_bytes(c, b), f);
}

typedef void (*put_fn)(FILE *f, uint32_t c);

/* Decodes s and hands every code point (U+FFFD for an invalid byte) to put. */
static void each_code_point(FILE *f, const char *s, put_fn put)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = 0;
    while (p[n])
        n++;
    while (n) {
        uint32_t c;
        size_t len = esc_utf8_decode(p, n, &c);
        put(f, c);
        len = len ? len : 1;
        p += len, n -= len;
    }
}

/* The JSON text of code point c into out; its length. */
static size_t json_bytes(uint32_t c, char out[8])
{
    static const char named[] = "btn\0fr"; /* \b \t \n (\v has none) \f \r */
    if (c == '"' || c == '\\')
        return out[0] = '\\', out[1] = (char)c, 2;
    if (c >= 0x08 && c <= 0x0D && named[c - 8])
        return out[0] = '\\', out[1] = named[c - 8], 2;
    if (c < 0x20)
        return (size_t)snprintf(out, 8, "\\u%04x", (unsigned)c);
    return utf8_bytes(c, (unsigned char *)out);
}

static void put_json(FILE *f, uint32_t c)
{
    char b[8];
    fwrite(b, 1, json_bytes(c, b), f);
}

const char *esc_json_buf(char *buf, size_t size, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t o = 0, n = strlen((const char *)p);
    buf[o++] = '"';
    while (n) {
        uint32_t c;
        char b[8];
        size_t len = esc_utf8_decode(p, n, &c), k = json_bytes(c, b);
        if (o + k + 2 > size)
            break;
        memcpy(buf + o, b, k);
        o += k;
        len = len ? len : 1;
        p += len, n -= len;
    }
    buf[o++] = '"';
    buf[o] = 0;
    return buf;
}

void esc_json(FILE *f, const char *s)
{
    fputc('"', f);
    if (s)
        each_code_point(f, s, put_json);
    fputc('"', f);
}

static bool xml_char(uint32_t c)
{
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
           (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

static void put_xml(FILE *f, uint32_t c)
{
    switch (c) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default: put_utf8(f, xml_char(c) ? c : ESC_REPLACEMENT);
    }
}

void esc_xml(FILE *f, const char *s)
{
    if (s)
        each_code_point(f, s, put_xml);
}

static void put_vcd(FILE *f, uint32_t c)
{
    put_utf8(f, c == '$' ? '_' : c < 0x20 || c == 0x7F ? ' ' : c);
}

void esc_vcd_comment(FILE *f, const char *s)
{
    if (s)
        each_code_point(f, s, put_vcd);
}

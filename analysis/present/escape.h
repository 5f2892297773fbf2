/* escape.h — text written into the project's output formats: the one JSON
 * string escaper, XML (SVG) text, and VCD comments. Whatever the bytes (a
 * program path in Latin-1, a truncated sequence, a NUL-free binary name), the
 * output is valid UTF-8: every byte that is not part of a well-formed UTF-8
 * sequence (Unicode 15, table 3-7: no overlong forms, no surrogates, nothing
 * above U+10FFFF) is written as U+FFFD REPLACEMENT CHARACTER, one per byte.
 * Streaming: nothing is allocated; the functions write as they read. */
#ifndef TESSERA_ESCAPE_H
#define TESSERA_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ESC_REPLACEMENT 0xFFFDu

/* Decodes the UTF-8 sequence at s (n > 0 bytes available): returns its
 * length (1..4) and its code point in *cp, or 0 when s[0] does not start a
 * well-formed sequence within n bytes (then *cp is ESC_REPLACEMENT and the
 * caller skips one byte). */
size_t esc_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp /* OUT */);

/* Writes `s` as a JSON string literal, quotes included: `"` and `\` escaped,
 * control characters U+0000..U+001F as \b \f \n \r \t or \u00XX, invalid bytes
 * as U+FFFD. NULL is written as "". Cannot fail (errors stay on f). */
void esc_json(FILE *f, const char *s);

/* The same literal into buf[size] (size >= 3), NUL-terminated, cut short at a
 * character boundary (the closing quote always written) rather than overflow.
 * Returns buf. */
const char *esc_json_buf(char *buf, size_t size, const char *s);

/* Writes `s` as XML 1.0 character data or attribute text: & < > " ' as
 * entities; characters XML 1.0 forbids (controls other than tab, newline and
 * carriage return; U+FFFE, U+FFFF) and invalid bytes as U+FFFD. */
void esc_xml(FILE *f, const char *s);

/* Writes `s` inside a VCD $comment: `$` (which would end it) becomes `_`,
 * control characters become spaces, invalid bytes U+FFFD. */
void esc_vcd_comment(FILE *f, const char *s);

#endif

/* fuzz_checks.c — the properties of the assembler, the Task Memory loader and
 * the configuration parser, checked on one arbitrary input (see fuzz_checks.h).
 * Invariant: a check allocates its large buffers per call and frees them before
 * it returns, whatever the verdict, so the fuzzers' leak detection sees only
 * the library's own leaks. */
#include "tests/fuzz/fuzz_checks.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/cfg.h"
#include "events/base/err.h"
#include "model/asm.h"
#include "model/tm.h"

static fuzz_verdict_t fail(char *why, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static fuzz_verdict_t fail(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return FUZZ_VIOLATED;
}

/* A rejection must carry TESS_EINPUT and a message that names the input; a
 * policy plugin that cannot be loaded (plugin:PATH) is TESS_EUSAGE by its
 * contract (docs/STUDY-POLICIES.md: exit 1, the plugin named). */
static fuzz_verdict_t rejected(const diag_t *d, int rc, const char *prefix, char *why, size_t n)
{
    if (rc != TESS_EINPUT && !(rc == TESS_EUSAGE && strstr(d->msg, ": plugin ")))
        return fail(why, n, "rejected with code %d (expected TESS_EINPUT): %s", rc, d->msg);
    if (d->code != rc)
        return fail(why, n, "returned %d but the diag holds code %d", rc, d->code);
    if (strncmp(d->msg, prefix, strlen(prefix)) != 0)
        return fail(why, n, "the message does not start with '%s': '%s'", prefix, d->msg);
    return FUZZ_REJECTED;
}

static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t len)
{
    size_t i = 0;
    while (i < len && a[i] == b[i])
        i++;
    return i;
}

/* Names the first field in which two program structures differ. */
static const char *prog_diff(const tm_program_t *a, const tm_program_t *b, char *buf, size_t n)
{
    if (a->n_frames != b->n_frames || a->n_groups != b->n_groups) {
        snprintf(buf, n, "n_frames %u/%u, n_groups %u/%u", a->n_frames, b->n_frames,
                 a->n_groups, b->n_groups);
        return buf;
    }
    for (unsigned i = 0; i < TM_FRAMES; i++) {
        if (memcmp(&a->groups[i], &b->groups[i], sizeof a->groups[i]) == 0)
            continue;
        snprintf(buf, n, "groups[%u] (cf %u/%u, if_num %u/%u, cores 0x%04x/0x%04x, "
                 "init_vect 0x%04x/0x%04x)", i, a->groups[i].cf, b->groups[i].cf,
                 a->groups[i].if_num, b->groups[i].if_num, a->groups[i].cores,
                 b->groups[i].cores, a->groups[i].init_vect, b->groups[i].init_vect);
        return buf;
    }
    for (unsigned f = 0; f < TM_FRAMES; f++) {
        if (a->group_of[f] != b->group_of[f]) {
            snprintf(buf, n, "group_of[%u] %u/%u", f, a->group_of[f], b->group_of[f]);
            return buf;
        }
        size_t s = first_diff((const uint8_t *)a->code[f], (const uint8_t *)b->code[f],
                              sizeof a->code[f]) / 2;
        if (s < TM_SLOTS) {
            snprintf(buf, n, "code[%u][%zu] 0x%04x/0x%04x", f, s, a->code[f][s], b->code[f][s]);
            return buf;
        }
    }
    size_t t = first_diff(a->tail, b->tail, sizeof a->tail);
    if (a->has_end_marker != b->has_end_marker || t < sizeof a->tail)
        snprintf(buf, n, "has_end_marker %d/%d, tail from byte %zu", a->has_end_marker,
                 b->has_end_marker, t);
    else
        snprintf(buf, n, "padding bytes only");
    return buf;
}

/* disasm(prog, sm) must assemble to `prog` again, to `image` (tm_encode(prog))
 * and to the SM bytes `sm` (NULL: none). `again` is scratch room. */
static fuzz_verdict_t reassemble(const tm_program_t *prog, const uint8_t *sm,
                                 const uint8_t *image, asm_output_t *again, char *why, size_t n)
{
    char *text = asm_disassemble(prog, sm), what[160];
    uint8_t image2[TM_BYTES];
    diag_t d = {0};
    if (!text)
        return fail(why, n, "asm_disassemble returned NULL");
    fuzz_verdict_t v = FUZZ_ACCEPTED;
    size_t at;
    if (asm_assemble(again, text, strlen(text), "dis.s", &d) != TESS_OK) {
        v = fail(why, n, "the disassembly does not assemble: %s\n--- disassembly ---\n%s", d.msg,
                 text);
        goto out;
    }
    tm_encode(&again->prog, image2);
    if ((at = first_diff(image, image2, TM_BYTES)) < TM_BYTES) {
        v = fail(why, n, "re-assembled image differs at byte %zu (frame %zu): 0x%02x, was 0x%02x"
                 "\n--- disassembly ---\n%s", at, at / TM_FRAME_BYTES, image2[at], image[at], text);
        goto out;
    }
    if (memcmp(&again->prog, prog, sizeof *prog) != 0) {
        v = fail(why, n, "re-assembled structure differs: %s",
                 prog_diff(prog, &again->prog, what, sizeof what));
        goto out;
    }
    for (at = 0; at < SM_BYTES; at++)
        if (again->sm[at] != (sm ? sm[at] : 0))
            break;
    if (at < SM_BYTES)
        v = fail(why, n, "re-assembled SM differs at 0x%03zx: 0x%02x, was 0x%02x", at,
                 again->sm[at], sm ? sm[at] : 0);
out:
    free(text);
    return v;
}

/* ---- the assembler ------------------------------------------------------- */

typedef struct asm_ws {
    asm_output_t first;   /* the input assembled */
    asm_output_t again;   /* its disassembly re-assembled */
    tm_program_t loaded;  /* its image parsed back */
    uint8_t image[TM_BYTES];
} asm_ws_t;

static fuzz_verdict_t asm_accepted(asm_ws_t *w, const diag_t *d, char *why, size_t n)
{
    char what[160];
    diag_t d2 = {0};
    if (d->code != TESS_OK)
        return fail(why, n, "accepted with an error in the diag: %s", d->msg);
    tm_encode(&w->first.prog, w->image);
    if (tm_parse(&w->loaded, w->image, TM_BYTES, "fuzz.tm", &d2) != TESS_OK)
        return fail(why, n, "the assembled image does not load: %s", d2.msg);
    if (memcmp(&w->loaded, &w->first.prog, sizeof w->loaded) != 0)
        return fail(why, n, "tm_parse(tm_encode(p)) differs from the assembled p: %s",
                    prog_diff(&w->first.prog, &w->loaded, what, sizeof what));
    return reassemble(&w->loaded, w->first.sm, w->image, &w->again, why, n);
}

fuzz_verdict_t fuzz_check_asm(const uint8_t *data, size_t size, char *why, size_t n)
{
    asm_ws_t *w = malloc(sizeof *w);
    diag_t d = {0};
    if (!w)
        return fail(why, n, "out of memory (harness)");
    asm_opts_t opts = {.no_include = true}; /* reads no file: .include "/dev/stdin" would wait */
    int rc = asm_assemble_ex(&w->first, (const char *)data, size, "fuzz.s", &opts, &d);
    fuzz_verdict_t v = rc == TESS_OK ? asm_accepted(w, &d, why, n)
                                     : rejected(&d, rc, "fuzz.s:", why, n);
    free(w);
    return v;
}

/* ---- Task Memory and SM images ------------------------------------------- */

typedef struct tm_ws {
    tm_program_t prog;        /* the input parsed */
    asm_output_t again;       /* its disassembly re-assembled */
    uint8_t padded[TM_BYTES]; /* the input zero-padded */
    uint8_t image[TM_BYTES];  /* tm_encode(prog) */
    uint8_t sm[SM_BYTES];     /* the input as an SM image */
} tm_ws_t;

static fuzz_verdict_t sm_check(tm_ws_t *w, const uint8_t *data, size_t size, char *why, size_t n)
{
    diag_t d = {0};
    int rc = sm_image_parse(w->sm, data, size, "fuzz.mem", &d);
    size_t at;
    if (size > SM_BYTES) {
        if (rc == TESS_OK)
            return fail(why, n, "sm_image_parse accepted %zu bytes", size);
        for (at = 0; at < SM_BYTES && !w->sm[at]; at++)
            ;
        if (at < SM_BYTES)
            return fail(why, n, "sm_image_parse left byte 0x%03zx set after an error", at);
        return rejected(&d, rc, "fuzz.mem:", why, n);
    }
    if (rc != TESS_OK)
        return fail(why, n, "sm_image_parse rejected %zu bytes: %s", size, d.msg);
    for (at = 0; at < SM_BYTES; at++)
        if (w->sm[at] != (at < size ? data[at] : 0))
            return fail(why, n, "sm_image_parse: byte 0x%03zx differs from the input", at);
    return FUZZ_ACCEPTED;
}

static fuzz_verdict_t tm_accepted(tm_ws_t *w, const uint8_t *data, size_t size, char *why,
                                  size_t n)
{
    diag_t d = {0};
    if (size > TM_BYTES)
        return fail(why, n, "tm_parse accepted %zu bytes", size);
    memset(w->padded, 0, sizeof w->padded);
    if (size)
        memcpy(w->padded, data, size);
    tm_encode(&w->prog, w->image);
    size_t at = first_diff(w->padded, w->image, TM_BYTES);
    if (at < TM_BYTES)
        return fail(why, n, "tm_encode(tm_parse(x)) differs from x at byte %zu (frame %zu): "
                    "0x%02x, was 0x%02x", at, at / TM_FRAME_BYTES, w->image[at], w->padded[at]);
    if (tm_validate(&w->prog, "fuzz.tm", &d) != TESS_OK)
        return fail(why, n, "tm_validate rejects what tm_parse accepted: %s", d.msg);
    return reassemble(&w->prog, w->sm, w->padded, &w->again, why, n);
}

fuzz_verdict_t fuzz_check_tm(const uint8_t *data, size_t size, char *why, size_t n)
{
    tm_ws_t *w = malloc(sizeof *w);
    diag_t d = {0};
    if (!w)
        return fail(why, n, "out of memory (harness)");
    fuzz_verdict_t v = sm_check(w, data, size, why, n);
    if (v != FUZZ_VIOLATED) {
        int rc = tm_parse(&w->prog, data, size, "fuzz.tm", &d);
        v = rc == TESS_OK ? tm_accepted(w, data, size, why, n)
                          : rejected(&d, rc, "fuzz.tm:", why, n);
    }
    free(w);
    return v;
}

/* ---- the configuration --------------------------------------------------- */

/* Differs from the defaults in every key, in every latency form. */
static const char other_ini[] =
    "[clock]\nperiod_ps = 7\n"
    "[ts]\ndecode = uniform:2..5\nxfer = geometric:2.5\nready = choice:1,3,3\n"
    "policy = lookahead\nwindow = 3\n"
    "[core]\nalu = 3\nmul = 5\ndiv = 9\nbranch = 2\nready = 4\nbudget = 12345\n"
    "timing = stepped\n"
    "[sm]\nreq = 0\nbank = 3\nresp = 2\narbiter = random\nbank_map = interleaved\n"
    "atomics = on\n"
    "[sim]\nseed = 0xdeadbeef\ntime_limit = 99\nwall_limit = 1.5\npace = 2\nprogress = off\n"
    "[record]\nlevel = events\nfrom_ps = 5\nto_ps = 10\n";

/* Names the first key whose canonical text differs between a and b. */
static const char *cfg_diff(const cfg_t *a, const cfg_t *b, char *buf, size_t n)
{
    char va[512], vb[512];
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const char *key = cfg_key_info(i)->key;
        cfg_get(a, key, va, sizeof va);
        cfg_get(b, key, vb, sizeof vb);
        if (strcmp(va, vb) != 0) {
            snprintf(buf, n, "%s = %.200s, was %.200s", key, vb, va);
            return buf;
        }
    }
    snprintf(buf, n, "bytes that no key prints (padding or a field beyond its canonical text)");
    return buf;
}

static bool known_section(const char *name, size_t len)
{
    char buf[64];
    if (len >= sizeof buf)
        return false;
    memcpy(buf, name, len);
    buf[len] = 0;
    /* the sections of the key table, and [plugin] (plugin.NAME.KEY parameters) */
    return cfg_section_doc(buf)[0] != 0 || strcmp(buf, CFG_PLUGIN_SECTION) == 0;
}

/* What cfg_load_string promises to accept ("'…' is not [section], key = value
 * or a comment"): every line, blanks (isspace) around it ignored, is empty, a
 * ';' or '#' comment, a [section] of a known section with nothing but a
 * comment after it, or has a '=' (inih also takes ':'). Lines end at "\n",
 * "\r\n" or a lone "\r". A line taken as inih's continuation of the previous
 * value breaks this. */
static fuzz_verdict_t cfg_lines(const char *text, char *why, size_t n)
{
    static const char blanks[] = " \t\r\v\f";
    unsigned line = 1;
    for (const char *p = text; *p; line++) {
        size_t len = strcspn(p, "\r\n"), skip = strspn(p, " \t\v\f");
        if (line == 1 && skip + 3 <= len && strncmp(p + skip, "\xef\xbb\xbf", 3) == 0)
            skip += 3 + strspn(p + skip + 3, " \t\v\f"); /* a UTF-8 byte order mark: inih skips it */
        const char *start = p + (skip < len ? skip : len);
        size_t rest = len - (size_t)(start - p);
        while (rest && strchr(blanks, start[rest - 1]))
            rest--;
        const char *close = rest && *start == '[' ? memchr(start, ']', rest) : NULL;
        size_t after = close ? (size_t)(close + 1 - start) : 0;
        while (close && after < rest && strchr(blanks, start[after]))
            after++;
        bool section = close && (after == rest || start[after] == ';' || start[after] == '#');
        bool ok = rest == 0 || *start == ';' || *start == '#' || section ||
                  (!close && (memchr(start, '=', rest) || memchr(start, ':', rest)));
        if (!ok)
            return fail(why, n, "cfg_load_string accepted line %u, which is not [section], "
                        "key = value or a comment: '%.*s'", line, (int)(rest > 80 ? 80 : rest),
                        start);
        if (close && !known_section(start + 1, (size_t)(close - start - 1)))
            return fail(why, n, "cfg_load_string accepted line %u, an unknown section: '%.*s'",
                        line, (int)(rest > 80 ? 80 : rest), start);
        p += p[len] == '\r' && p[len + 1] == '\n' ? len + 2 : p[len] ? len + 1 : len;
    }
    return FUZZ_ACCEPTED;
}

/* cfg_format(a) loaded onto `base` must give back a, and print the same. */
static fuzz_verdict_t cfg_reload(const cfg_t *a, const char *text, const cfg_t *base,
                                 const char *base_name, char *why, size_t n)
{
    cfg_t b;
    char what[600];
    diag_t d = {0};
    memcpy(&b, base, sizeof b);
    if (cfg_load_string(&b, text, "format.ini", &d) != TESS_OK)
        return fail(why, n, "cfg_format's text does not load onto %s: %s\n--- text ---\n%s",
                    base_name, d.msg, text);
    if (memcmp(&b, a, sizeof b) != 0)
        return fail(why, n, "cfg_format's text loaded onto %s differs: %s", base_name,
                    cfg_diff(a, &b, what, sizeof what));
    char *again = cfg_format(&b);
    if (!again)
        return fail(why, n, "cfg_format returned NULL");
    fuzz_verdict_t v = FUZZ_ACCEPTED;
    if (strcmp(again, text) != 0)
        v = fail(why, n, "cfg_format differs after the round trip onto %s", base_name);
    free(again);
    return v;
}

/* cfg_foreach's plugin.NAME.KEY parameters of one configuration, set as -s
 * arguments onto another (they are not keys of the table). */
typedef struct {
    cfg_t *onto;
    int failed;
    char msg[256];
} param_copy_t;

static void copy_param(void *user, const char *key, const char *value)
{
    param_copy_t *pc = user;
    char arg[700];
    diag_t d = {0};
    if (pc->failed || strncmp(key, CFG_PLUGIN_SECTION ".", sizeof CFG_PLUGIN_SECTION) != 0)
        return;
    snprintf(arg, sizeof arg, "%.300s=%.300s", key, value);
    if (cfg_set(pc->onto, arg, &d) != TESS_OK) {
        pc->failed = 1;
        snprintf(pc->msg, sizeof pc->msg, "%.250s", d.msg);
    }
}

/* Every key's canonical text as a -s argument, and every plugin parameter,
 * applied onto `base`, gives a. */
static fuzz_verdict_t cfg_reset(const cfg_t *a, const cfg_t *base, char *why, size_t n)
{
    cfg_t c;
    char val[512], arg[600], what[600];
    memcpy(&c, base, sizeof c);
    for (size_t i = 0; i < cfg_key_count(); i++) {
        diag_t d = {0};
        const char *key = cfg_key_info(i)->key;
        cfg_get(a, key, val, sizeof val);
        snprintf(arg, sizeof arg, "%s=%.300s", key, val);
        if (cfg_set(&c, arg, &d) != TESS_OK)
            return fail(why, n, "cfg_set of a canonical value fails: %s", d.msg);
    }
    param_copy_t pc = {.onto = &c};
    cfg_foreach(a, copy_param, &pc);
    if (pc.failed)
        return fail(why, n, "cfg_set of a plugin parameter fails: %s", pc.msg);
    if (memcmp(&c, a, sizeof c) != 0)
        return fail(why, n, "-s of every key's canonical text differs: %s",
                    cfg_diff(a, &c, what, sizeof what));
    return FUZZ_ACCEPTED;
}

typedef struct cfg_ws {
    cfg_t def, other, a;
} cfg_ws_t;

static fuzz_verdict_t cfg_accepted(cfg_ws_t *w, char *why, size_t n)
{
    const cfg_t *a = &w->a, *def = &w->def, *other = &w->other;
    diag_t d = {0};
    cfg_check(a, &d); /* may fail (a later -s could fix it); must not crash */
    memcpy(&w->other, def, sizeof w->other);
    diag_reset(&d);
    if (cfg_load_string(&w->other, other_ini, "other.ini", &d) != TESS_OK)
        return fail(why, n, "harness: other.ini does not load: %s", d.msg);
    char *text = cfg_format(a);
    if (!text)
        return fail(why, n, "cfg_format returned NULL");
    fuzz_verdict_t v = cfg_reload(a, text, def, "the defaults", why, n);
    if (v != FUZZ_VIOLATED)
        v = cfg_reload(a, text, other, "another configuration", why, n);
    if (v != FUZZ_VIOLATED)
        v = cfg_reset(a, other, why, n);
    free(text);
    return v;
}

/* The whole text as one -s argument: on failure nothing may change. */
static fuzz_verdict_t cfg_set_check(const char *text, const cfg_t *def, char *why, size_t n)
{
    cfg_t e;
    diag_t d = {0};
    memcpy(&e, def, sizeof e);
    int rc = cfg_set(&e, text, &d);
    if (rc == TESS_OK)
        return FUZZ_ACCEPTED;
    if (memcmp(&e, def, sizeof e) != 0)
        return fail(why, n, "a failed cfg_set changed the cfg_t: %s", d.msg);
    return rejected(&d, rc, "-s '", why, n);
}

static fuzz_verdict_t cfg_run(cfg_ws_t *w, const char *text, char *why, size_t n)
{
    diag_t d = {0};
    cfg_default(&w->def);
    if (cfg_set_check(text, &w->def, why, n) == FUZZ_VIOLATED)
        return FUZZ_VIOLATED;
    memcpy(&w->a, &w->def, sizeof w->a);
    int rc = cfg_load_string(&w->a, text, "fuzz.ini", &d);
    if (rc == TESS_OK)
        return cfg_lines(text, why, n) == FUZZ_VIOLATED ? FUZZ_VIOLATED
                                                         : cfg_accepted(w, why, n);
    if (memcmp(&w->a, &w->def, sizeof w->a) != 0)
        return fail(why, n, "a failed cfg_load_string changed the cfg_t: %s", d.msg);
    return rejected(&d, rc, "fuzz.ini:", why, n);
}

/* Whether the bytes name a policy plugin or its parameters ("plugin", any
 * case). Such inputs are not fuzzed: a plugin:PATH value would dlopen
 * whatever file the fuzzer spells, and cfg_format does not print the
 * plugin.NAME.KEY parameters (its round trip covers the key table only);
 * test_policy covers plugin configurations. */
static bool names_a_plugin(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i + 6 <= size; i++)
        if (strncasecmp((const char *)data + i, "plugin", 6) == 0)
            return true;
    return false;
}

fuzz_verdict_t fuzz_check_config(const uint8_t *data, size_t size, char *why, size_t n)
{
    if (names_a_plugin(data, size))
        return FUZZ_ACCEPTED;
    char *text = malloc(size + 1);
    cfg_ws_t *w = malloc(sizeof *w);
    fuzz_verdict_t v = FUZZ_VIOLATED;
    if (!text || !w)
        fail(why, n, "out of memory (harness)");
    else {
        if (size)
            memcpy(text, data, size);
        text[size] = 0;
        v = cfg_run(w, text, why, n);
    }
    free(w);
    free(text);
    return v;
}

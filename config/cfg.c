/* cfg.c — configuration files (INI, read with inih), -s overrides, the
 * cross-key checks and printing the effective configuration (see cfg.h).
 * Invariant: every entry point works on a copy or stores one checked value,
 * so a failure leaves the caller's cfg_t as it was. */
#include <assert.h>
#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/cfg_int.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "events/base/infile.h"

#define CFG_FILE_MAX (1u << 20) /* a configuration file is small text */
#define SECTION_MAX 64          /* longer section names are unknown anyway */

void cfg_default(cfg_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const cfg_key_t *k = cfg_key_at(i);
        int rc = cfg_value_parse(k, cfg, k->info.def, NULL);
        assert(rc == TESS_OK && "every default in the key table parses");
        (void)rc;
    }
}

/* One "name = value" of `section`; in section "" the name must be
 * "section.key". */
static int apply_key(cfg_t *cfg, const char *section, const char *name, const char *value,
                     diag_t *d)
{
    char sec[SECTION_MAX];
    if (!*section) {
        const char *dot = strchr(name, '.');
        size_t len = dot ? (size_t)(dot - name) : 0;
        if (len == 0 || len >= sizeof sec)
            return diag_fail(d, TESS_EINPUT,
                             "%s: key outside a section (put it under [section] or write "
                             "section.key)",
                             name);
        memcpy(sec, name, len);
        sec[len] = 0;
        section = sec;
        name = dot + 1;
    }
    if (!strcmp(section, CFG_PLUGIN_SECTION))
        return cfg_plugin_param(cfg, name, value, d);
    const cfg_key_t *k = cfg_key_lookup(section, name, d);
    return k ? cfg_value_parse(k, cfg, value, d) : TESS_EINPUT;
}

/* --- files ------------------------------------------------------------------ */

typedef struct load {
    cfg_t *cfg;               /* the copy being filled */
    const char *name;         /* the file, for messages */
    const char *next;         /* the next line to hand to inih */
    unsigned line;            /* the number of the line inih is on */
    unsigned err_line;        /* line of the first error found here; 0 = none */
    diag_t err;               /* that error, without its "NAME:LINE: " */
    diag_t *out;              /* the caller's: warnings */
    unsigned *set_at;         /* per key (cfg_key_at order): the line that set it, 0 = none */
} load_t;

static void line_error(load_t *ld, const diag_t *d)
{
    if (ld->err_line)
        return;
    ld->err_line = ld->line;
    ld->err = *d;
}

/* A "[name]" line (inih does not report sections that hold no key). Like
 * inih, skips a UTF-8 byte order mark and the blanks after it on line 1. */
static void check_section(load_t *ld, const char *p, size_t len)
{
    char name[SECTION_MAX];
    diag_t d = {0};
    if (ld->line == 1 && len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
        size_t skip = 3 + strspn(p + 3, " \t\r\v\f");
        skip = skip < len ? skip : len;
        p += skip;
        len -= skip;
    }
    const char *end = len ? memchr(p, ']', len) : NULL;
    if (!len || p[0] != '[' || !end)
        return; /* not a section line, or inih's syntax error */
    snprintf(name, sizeof name, "%.*s", (int)(end - p - 1), p + 1);
    if (cfg_section_check(name, &d) != TESS_OK)
        line_error(ld, &d);
    /* inih ignores whatever follows the ']': only blanks or a comment may */
    size_t rest = (size_t)(end + 1 - p), blank = rest + strspn(end + 1, " \t\r\v\f");
    if (blank < len && p[blank] != ';' && p[blank] != '#') {
        diag_fail(&d, TESS_EINPUT, "'%.*s' after [%s] would be ignored: put it on a line of "
                  "its own", (int)(len - blank > 60 ? 60 : len - blank), p + blank, name);
        line_error(ld, &d);
    }
}

/* The length of the line at p and where the next one starts: a line ends at
 * "\n", "\r\n" or a lone "\r" (old Mac files), never silently joined. */
static size_t line_len(const char *p, const char **next)
{
    size_t len = strcspn(p, "\r\n");
    const char *q = p + len;
    if (*q == '\r' && q[1] == '\n')
        q += 2;
    else if (*q)
        q++;
    *next = q;
    return len;
}

/* inih's fgets: hands over one line of the text, counting lines. Leading
 * blanks (every byte inih's isspace() skips) are dropped so that an indented
 * line is never taken for inih's multi-line continuation of the previous
 * value. */
static char *next_line(char *str, int num, void *stream)
{
    load_t *ld = stream;
    const char *p = ld->next;
    if (!*p)
        return NULL;
    size_t len = line_len(p, &ld->next);
    ld->line++;
    for (; len && strchr(" \t\r\v\f", *p); p++) /* len > 0: *p is not the NUL */
        len--;
    if (len && (*p == ';' || *p == '#'))
        len = 0; /* a comment, whatever its length: inih need not see it */
    if (len + 3 > (size_t)num) {
        diag_t d = {0};
        diag_fail(&d, TESS_EINPUT, "line too long (at most %d characters after the indentation; "
                  "comment lines have no limit)", num - 3);
        line_error(ld, &d);
        len = 0;
    }
    check_section(ld, p, len);
    memcpy(str, p, len);
    str[len] = '\n';
    str[len + 1] = 0;
    return str;
}

/* A key set twice in one file: the later line wins, with a warning. */
static void note_set(load_t *ld, const char *section, const char *name)
{
    char sec[SECTION_MAX];
    const char *dot = *section ? NULL : strchr(name, '.');
    if (dot && (size_t)(dot - name) < sizeof sec)
        snprintf(sec, sizeof sec, "%.*s", (int)(dot - name), name), section = sec, name = dot + 1;
    const cfg_key_t *k = cfg_key_lookup(section, name, NULL);
    if (!k || !ld->set_at)
        return;
    size_t i = 0;
    while (cfg_key_at(i) != k)
        i++;
    if (ld->set_at[i])
        diag_warn(ld->out, "%s:%u: %s is set again: this value replaces the one of line %u",
                  ld->name, ld->line, k->info.key, ld->set_at[i]);
    ld->set_at[i] = ld->line;
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
    load_t *ld = user;
    diag_t d = {0};
    if (apply_key(ld->cfg, section, name, value, &d) == TESS_OK) {
        note_set(ld, section, name);
        return 1;
    }
    line_error(ld, &d);
    return 0;
}

/* inih rejected line `line` itself (no '=', no closing ']'). */
static int syntax_error(const char *text, const char *name, int line, diag_t *diag)
{
    const char *p = text;
    for (int i = 1; i < line && *p; i++)
        line_len(p, &p);
    p += strspn(p, " \t\r\v\f"); /* the blanks next_line drops */
    int len = (int)strcspn(p, "\r\n");
    return diag_fail(diag, TESS_EINPUT, "%s:%d: '%.*s' is not [section], key = value or a comment",
                     name, line, len > 80 ? 80 : len, p);
}

int cfg_load_string(cfg_t *cfg, const char *text, const char *name, diag_t *diag)
{
    cfg_t tmp;
    memcpy(&tmp, cfg, sizeof tmp);
    load_t ld = {.cfg = &tmp, .name = name, .next = text, .out = diag,
                 .set_at = tess_calloc(cfg_key_count(), sizeof *ld.set_at)};
    if (!ld.set_at)
        return diag_fail(diag, TESS_ENOMEM, "%s: out of memory", name);
    int r = ini_parse_stream(next_line, &ld, on_key, &ld);
    tess_free(ld.set_at);
    if (r == -2)
        return diag_fail(diag, TESS_ENOMEM, "%s: out of memory", name);
    if (r > 0 && (ld.err_line == 0 || (unsigned)r < ld.err_line))
        return syntax_error(text, name, r, diag);
    if (ld.err_line)
        return diag_fail(diag, ld.err.code, "%s:%u: %s", name, ld.err_line, ld.err.msg);
    memcpy(cfg, &tmp, sizeof tmp);
    return TESS_OK;
}

/* Reads all of `path` into a malloc'd NUL-terminated *out (at most
 * CFG_FILE_MAX bytes, infile.h). */
static int read_text(const char *path, char **out, diag_t *d)
{
    size_t len;
    int rc = infile_read(path, CFG_FILE_MAX, "the limit for a configuration file", out, &len, d);
    if (rc == TESS_OK && memchr(*out, 0, len)) {
        tess_free(*out);
        *out = NULL;
        rc = diag_fail(d, TESS_EINPUT, "%s: contains a NUL byte: not a text file", path);
    }
    return rc;
}

int cfg_load_file(cfg_t *cfg, const char *path, diag_t *diag)
{
    char *text = NULL;
    int rc = read_text(path, &text, diag);
    if (rc != TESS_OK)
        return rc;
    rc = cfg_load_string(cfg, text, path, diag);
    tess_free(text);
    return rc;
}

/* --- overrides and the command line ------------------------------------------- */

static char *trim(char *s)
{
    s += strspn(s, " \t");
    size_t len = strlen(s);
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        s[--len] = 0;
    return s;
}

int cfg_set(cfg_t *cfg, const char *assignment, diag_t *diag)
{
    char *dup = tess_strdup(assignment);
    if (!dup)
        return diag_fail(diag, TESS_ENOMEM, "-s '%s': out of memory", assignment);
    char *eq = strchr(dup, '=');
    int rc = TESS_EINPUT;
    diag_t d = {0};
    if (eq) {
        *eq = 0;
        char *key = trim(dup);
        if (strchr(key, '.'))
            rc = apply_key(cfg, "", key, trim(eq + 1), &d);
    }
    tess_free(dup);
    if (rc == TESS_OK)
        return TESS_OK;
    if (!d.msg[0])
        return diag_fail(diag, rc, "-s '%s': expected section.key=value", assignment);
    return diag_fail(diag, rc, "-s '%s': %s", assignment, d.msg);
}

int cfg_check(const cfg_t *cfg, diag_t *diag)
{
    uint64_t from = cfg->record.from_ps, to = cfg->record.to_ps;
    uint64_t period = cfg->gpu.period_ps;
    if (to != 0 && to <= from)
        return diag_fail(diag, TESS_EINPUT,
                         "record.to_ps: %" PRIu64 " is not above record.from_ps = %" PRIu64
                         " (0 records until the end)",
                         to, from);
    if (period && cfg->record.interval > UINT64_MAX / period)
        return diag_fail(diag, TESS_EINPUT,
                         "record.interval: %" PRIu64 " cycles of %" PRIu64
                         " ps do not fit in 64-bit picoseconds", cfg->record.interval, period);
    if (period && cfg->sim.time_limit > UINT64_MAX / period)
        return diag_fail(diag, TESS_EINPUT,
                         "sim.time_limit: %" PRIu64 " cycles of %" PRIu64
                         " ps do not fit in 64-bit picoseconds (at most %" PRIu64 " cycles)",
                         cfg->sim.time_limit, period, UINT64_MAX / period);
    return TESS_OK;
}

int cfg_apply_cli(cfg_t *cfg, const char *config_path, char *const *overrides, int n,
                  diag_t *diag)
{
    cfg_t tmp;
    memcpy(&tmp, cfg, sizeof tmp);
    int rc = config_path ? cfg_load_file(&tmp, config_path, diag) : TESS_OK;
    for (int i = 0; i < n && rc == TESS_OK; i++)
        rc = cfg_set(&tmp, overrides[i], diag);
    if (rc == TESS_OK)
        rc = cfg_check(&tmp, diag);
    if (rc == TESS_OK)
        memcpy(cfg, &tmp, sizeof tmp);
    return rc;
}

/* --- printing ------------------------------------------------------------------ */

/* What a run records of its plugins beside their keys: per plugin point
 * KEY.plugin (its name) and KEY.sha256 (of its file, when it has one), then
 * every plugin.NAME.KEY. */
static void foreach_plugin(const cfg_t *cfg, void (*fn)(void *user, const char *key,
                                                        const char *value), void *user)
{
    const gpu_policies_t *sel = &cfg->gpu.policies;
    char key[GPU_POLICY_PKEY_MAX + 16];
    for (unsigned p = 0; p < GPU_POINT_COUNT; p++) {
        if (!sel->impl[p] || cfg_key_inert(cfg, cfg_key_index(gpu_point_key[p]), NULL))
            continue;
        snprintf(key, sizeof key, "%s.plugin", gpu_point_key[p]);
        fn(user, key, sel->impl[p]->name);
        snprintf(key, sizeof key, "%s.sha256", gpu_point_key[p]);
        if (sel->sha256[p][0])
            fn(user, key, sel->sha256[p]);
    }
    for (unsigned i = 0; i < sel->n_params; i++) {
        snprintf(key, sizeof key, CFG_PLUGIN_SECTION ".%s", sel->param[i].key);
        fn(user, key, sel->param[i].value);
    }
}

/* --- keys that apply ------------------------------------------------------------ */

size_t cfg_key_index(const char *key)
{
    for (size_t i = 0; i < cfg_key_count(); i++)
        if (!strcmp(cfg_key_at(i)->info.key, key))
            return i;
    return SIZE_MAX;
}

size_t cfg_assignment_key(const char *assignment)
{
    char key[128];
    assignment += strspn(assignment, " \t");
    size_t len = strcspn(assignment, "=");
    while (len && (assignment[len - 1] == ' ' || assignment[len - 1] == '\t'))
        len--;
    if (len >= sizeof key)
        return SIZE_MAX;
    memcpy(key, assignment, len);
    key[len] = 0;
    return cfg_key_index(key);
}

static unsigned machines(const cfg_key_t *k) { return k->on ? k->on : CFG_ON_MIMD | CFG_ON_SIMT; }

const char *cfg_key_inert(const cfg_t *cfg, size_t i, const char **fix)
{
    const cfg_key_t *k = cfg_key_at(i);
    const char *ignored;
    fix = fix ? fix : &ignored;
    *fix = NULL;
    if (!k)
        return NULL;
    bool simt = cfg->gpu.model == GPU_MODEL_SIMT;
    if (!(machines(k) & (simt ? CFG_ON_SIMT : CFG_ON_MIMD))) {
        *fix = simt ? "-s core.model=mimd" : "-s core.model=simt";
        return simt ? "core.model is simt: the key applies only to core.model = mimd"
                    : "core.model is mimd: the simt.* keys apply only to core.model = simt";
    }
    return k->needs ? cfg_need_unmet(k->needs, cfg, fix) : NULL;
}

bool cfg_key_for_iss(size_t i)
{
    const cfg_key_t *k = cfg_key_at(i);
    return k && (machines(k) & CFG_ON_ISS);
}

bool cfg_key_replicate(size_t i)
{
    const cfg_key_t *k = cfg_key_at(i);
    return k && k->replicate;
}

const char *cfg_key_applies(size_t i, char *buf, size_t n)
{
    const cfg_key_t *k = cfg_key_at(i);
    if (!k || !n)
        return "";
    static const char *const names[] = {"mimd", "simt", "iss"};
    size_t at = 0;
    buf[0] = 0;
    for (unsigned m = 0; m < 3 && at < n; m++)
        if (machines(k) >> m & 1) {
            int w = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", names[m]);
            at += w > 0 ? (size_t)w : 0;
        }
    if (k->needs && at < n)
        snprintf(buf + at, n - at, "; %s", cfg_need_text(k->needs));
    return buf;
}

void cfg_warn_inert(const cfg_t *cfg, const bool *named, diag_t *diag)
{
    char value[CFG_VALUE_MAX];
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const cfg_key_t *k = cfg_key_at(i);
        cfg_value_format(k, cfg, value, sizeof value);
        if (!(named && named[i]) && !strcmp(value, k->info.def))
            continue;
        const char *fix, *why = cfg_key_inert(cfg, i, &fix);
        if (why)
            diag_warn(diag, "%s = %s has no effect on this run (%s; %s gives it one): it is "
                            "not recorded in params",
                      k->info.key, value, why, fix ? fix : "nothing");
    }
}

size_t cfg_param_count(const cfg_t *cfg)
{
    const gpu_policies_t *sel = &cfg->gpu.policies;
    size_t n = cfg_key_count() + sel->n_params;
    for (unsigned p = 0; p < GPU_POINT_COUNT; p++)
        n += sel->impl[p] ? 2 : 0;
    return n;
}

void cfg_foreach(const cfg_t *cfg, void (*fn)(void *user, const char *key, const char *value),
                 void *user)
{
    char buf[CFG_VALUE_MAX];
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const cfg_key_t *k = cfg_key_at(i);
        if (cfg_key_inert(cfg, i, NULL))
            continue; /* no effect on this run: not a parameter of it */
        cfg_value_format(k, cfg, buf, sizeof buf);
        fn(user, k->info.key, buf);
    }
    foreach_plugin(cfg, fn, user);
}

int cfg_get(const cfg_t *cfg, const char *key, char *buf, size_t n)
{
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const cfg_key_t *k = cfg_key_at(i);
        if (!strcmp(k->info.key, key)) {
            cfg_value_format(k, cfg, buf, n);
            return TESS_OK;
        }
    }
    if (n)
        buf[0] = 0;
    return TESS_EINPUT;
}

/* After a policy key set to a plugin: a comment with the plugin's name and
 * the SHA-256 of its file, so that the configuration text (runs.config, the
 * run key: analysis/store/runkey.h) tells two versions of a plugin apart. */
static void format_plugin(FILE *f, const cfg_t *cfg, const cfg_key_t *k)
{
    const gpu_policies_t *sel = &cfg->gpu.policies;
    if (k->type != CFG_T_POLICY || !sel->impl[k->point])
        return;
    fprintf(f, "; %s: plugin %s, sha256 %s\n", k->name, sel->impl[k->point]->name,
            sel->sha256[k->point][0] ? sel->sha256[k->point] : "(none: not a file)");
}

char *cfg_format(const cfg_t *cfg)
{
    char *out = NULL, buf[CFG_VALUE_MAX];
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return NULL;
    const char *section = NULL;
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const cfg_key_t *k = cfg_key_at(i);
        if (!section || strcmp(section, k->section))
            fprintf(f, "%s[%s]\n", section ? "\n" : "", k->section);
        section = k->section;
        cfg_value_format(k, cfg, buf, sizeof buf);
        fprintf(f, "%s = %s\n", k->name, buf);
        format_plugin(f, cfg, k);
    }
    const gpu_policies_t *sel = &cfg->gpu.policies;
    if (sel->n_params)
        fprintf(f, "\n[%s]\n", CFG_PLUGIN_SECTION);
    for (unsigned i = 0; i < sel->n_params; i++)
        fprintf(f, "%s = %s\n", sel->param[i].key, sel->param[i].value);
    if (fclose(f) != 0) {
        tess_free(out);
        return NULL;
    }
    return out;
}

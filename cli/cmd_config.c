/* cmd_config.c — `tessera config`: prints the effective configuration
 * (defaults, then --config FILE, then each -s in order), or the key table as
 * text or as the Markdown of docs/CONFIG.md. Nothing is simulated; the key
 * table of config/ is the only source of what is printed about keys. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "config/cfg.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/latency.h"

typedef struct config_opts {
    const char *config;       /* --config FILE, or NULL */
    char **sets;              /* the -s arguments in order (argc entries) */
    int nsets;                /* how many */
    bool keys;                /* --keys */
    bool markdown;            /* --markdown */
    bool help;                /* --help */
} config_opts_t;

static const char usage_line[] =
    "usage: tessera config [--config FILE] [-s section.key=value]...\n"
    "       tessera config --keys [--markdown]\n";

static void help(void)
{
    fputs(usage_line, stdout);
    fputs("\n"
          "Prints the effective configuration -- the defaults (the reference timing model\n"
          "of spec section 6), then FILE, then each -s in order -- as an INI file that\n"
          "--config reads back to the same values. Nothing is simulated.\n"
          "\n"
          "  --config FILE          an INI configuration file (presets: config/*.ini)\n"
          "  -s section.key=value   set one key after the file (repeatable; the last wins)\n"
          "  --keys                 list every key: default, unit, valid values, meaning\n"
          "  --markdown             with --keys: print docs/CONFIG.md\n"
          "  -h, --help             this text\n"
          "\n"
          "exit codes: 0 ok, 1 usage error, 2 rejected configuration, 5 unreadable file\n",
          stdout);
}

static int usage_error(const char *what, const char *arg)
{
    if (arg)
        cli_error("config: %s '%s'", what, arg);
    else
        cli_error("config: %s", what);
    fputs(usage_line, stderr);
    return TESS_EUSAGE;
}

/* The value of an option taking one: "--config F" or "--config=F" (and "-sK=V"). */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t len = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, len) != 0)
        return NULL;
    if (a[len] == '=' && name[1] == '-')
        return a + len + 1;
    if (a[len] && name[1] != '-')
        return a + len;
    if (a[len] || *i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static int parse_args(int argc, char **argv, config_opts_t *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            o->help = true;
        else if (!strcmp(a, "--keys"))
            o->keys = true;
        else if (!strcmp(a, "--markdown"))
            o->markdown = true;
        else if (!strncmp(a, "--config", 8) && (a[8] == 0 || a[8] == '=')) {
            if (!(v = opt_value(argc, argv, &i, "--config")) || !*v)
                return usage_error("--config needs a file", NULL);
            if (o->config)
                return usage_error("--config given twice", NULL);
            o->config = v;
        } else if (!strncmp(a, "-s", 2)) {
            if (!(v = opt_value(argc, argv, &i, "-s")))
                return usage_error("-s needs section.key=value", NULL);
            o->sets[o->nsets++] = (char *)v;
        } else
            return usage_error(a[0] == '-' ? "unknown option" : "unexpected argument", a);
    }
    if (o->markdown && !o->keys)
        return usage_error("--markdown goes with --keys", NULL);
    if (o->keys && (o->config || o->nsets))
        return usage_error("--keys prints the key table; it takes no --config or -s", NULL);
    return TESS_OK;
}

/* --- the key table as text ----------------------------------------------------- */

/* Prints `text` wrapped at 78 columns, each line indented by `indent`. */
static void wrap(FILE *f, const char *text, int indent)
{
    const int width = 78 - indent;
    while (*text) {
        int len = (int)strlen(text);
        if (len > width) {
            len = width;
            while (len > 0 && text[len] != ' ')
                len--;
            if (len == 0)
                len = (int)strcspn(text, " ");
        }
        fprintf(f, "%*s%.*s\n", indent, "", len, text);
        text += len;
        text += strspn(text, " ");
    }
}

/* The section of key i ("sm" for "sm.bank") into buf. */
static const char *section_of(size_t i, char *buf, size_t n)
{
    const char *key = cfg_key_info(i)->key;
    snprintf(buf, n, "%.*s", (int)strcspn(key, "."), key);
    return buf;
}

/* True when key i starts a new section. */
static bool new_section(size_t i)
{
    char a[64], b[64];
    return i == 0 || strcmp(section_of(i - 1, a, sizeof a), section_of(i, b, sizeof b)) != 0;
}

static void print_keys_text(FILE *f)
{
    char sec[64];
    fprintf(f, "Configuration keys (defaults: the reference timing model, spec section 6).\n"
               "Latencies: N, uniform:A..B, geometric:M (mean, 1..1000), choice:A,B,...\n"
               "(1 to %d values); every value 0..%u cycles.\n",
            LAT_MAX_CHOICES, LAT_MAX_CYCLES);
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const cfg_key_info_t *k = cfg_key_info(i);
        if (new_section(i)) {
            section_of(i, sec, sizeof sec);
            fprintf(f, "\n[%s]  %s\n", sec, cfg_section_doc(sec));
        }
        fprintf(f, "\n  %s = %s\n", k->key, k->def);
        if (k->unit[0])
            fprintf(f, "      unit: %s; values: %s\n", k->unit, k->values);
        else
            fprintf(f, "      values: %s\n", k->values);
        wrap(f, k->doc, 6);
    }
}

/* --- the key table as Markdown (docs/CONFIG.md) ---------------------------------- */

static const char md_intro[] =
    "<!-- Generated by `tessera config --keys --markdown`; do not edit.\n"
    "     tests/test_config.c regenerates it and fails when this file differs. -->\n"
    "\n"
    "# Configuration\n"
    "\n"
    "Every number of the reference timing model (spec section 6) and every policy is a\n"
    "configuration key, with that model as its default. `tessera run` and `tessera config`\n"
    "start from the defaults, apply an INI file (`--config FILE`), then each\n"
    "`-s section.key=value` in order: the last assignment of a key wins. `tessera config`\n"
    "prints the effective configuration as an INI file that reads back to the same values.\n"
    "`config/baseline.ini` spells out every default; the other files in `config/` are\n"
    "presets for what-if studies.\n"
    "\n"
    "## Files\n"
    "\n"
    "- `[section]` lines, then `key = value` lines; before any section, `section.key = value`.\n"
    "- Comments: lines starting with `;` or `#`; a `;` after a blank starts a comment that\n"
    "  runs to the end of the line.\n"
    "- Blanks around names and values are ignored; indentation has no meaning.\n"
    "- A key repeated in one file takes its last value.\n"
    "- Section and key names are written as listed below (lower case); named values (`on`,\n"
    "  `fifo`, ...) may be in any case and print in lower case.\n"
    "- Integer keys take decimal or `0x` hex; latencies take decimal; seconds and `sim.pace`\n"
    "  take decimal numbers (`0.5`, `1e9`).\n"
    "- The first error stops the command before anything is simulated. It names the file and\n"
    "  line (or the `-s` argument), the key, the value and what was expected, e.g.\n"
    "  `cfg/bad.ini:7: sm.arbiter: 'lifo' is not valid (expected fixed, rr, fifo or random)`\n"
    "  (exit code 2); a file that cannot be read exits with code 5.\n"
    "- After everything is applied: `record.to_ps` must be 0 or above `record.from_ps`, and\n"
    "  `sim.time_limit` cycles must fit in 64-bit picoseconds.\n"
    "\n"
    "## Latencies\n"
    "\n"
    "A latency is a whole number of clock cycles, fixed or drawn from a distribution for\n"
    "robustness studies:\n"
    "\n"
    "| form | meaning |\n"
    "| --- | --- |\n"
    "| `N` | always N cycles |\n"
    "| `uniform:A..B` | uniform in A..B inclusive (A <= B) |\n"
    "| `geometric:M` | geometric on 1, 2, ... with mean M, 1 <= M <= 1000, at most 6 decimals; "
    "kept as an exact fraction (2.5 = 5/2) |\n"
    "| `choice:A,B,...` | one of the values, equally likely; repeat a value to weight it "
    "(`choice:1,1,8`) |\n"
    "\n";

static void md_cell(FILE *f, const char *s, bool code)
{
    fputs(code ? "| `" : "| ", f);
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputs(code ? "` " : " ", f);
}

static void print_keys_markdown(FILE *f)
{
    char sec[64];
    fputs(md_intro, f);
    fprintf(f,
            "Every value a latency can take is at most %u cycles and at least the key's minimum\n"
            "(0 or 1); `choice` takes 1 to %d values. Draws come from streams seeded by\n"
            "`sim.seed`, with integer arithmetic only: a run is the same on every host.\n",
            LAT_MAX_CYCLES, LAT_MAX_CHOICES);
    for (size_t i = 0; i < cfg_key_count(); i++) {
        const cfg_key_info_t *k = cfg_key_info(i);
        if (new_section(i)) {
            section_of(i, sec, sizeof sec);
            fprintf(f, "\n## [%s]\n\n%s\n\n", sec, cfg_section_doc(sec));
            fputs("| key | default | unit | valid values | meaning |\n"
                  "| --- | --- | --- | --- | --- |\n",
                  f);
        }
        md_cell(f, k->key, true);
        md_cell(f, k->def, true);
        md_cell(f, k->unit, false);
        md_cell(f, k->values, false);
        md_cell(f, k->doc, false);
        fputs("|\n", f);
    }
}

/* --- the effective configuration ------------------------------------------------- */

static int print_effective(const config_opts_t *o)
{
    cfg_t cfg;
    diag_t diag = {0};
    cfg_default(&cfg);
    int rc = cfg_apply_cli(&cfg, o->config, o->sets, o->nsets, &diag);
    if (rc != TESS_OK) {
        cli_error("%s", diag.msg);
        return rc;
    }
    char *text = cfg_format(&cfg);
    if (!text) {
        cli_error("out of memory");
        return cli_nomem();
    }
    fputs(text, stdout);
    tess_free(text);
    return TESS_OK;
}

int cmd_config(int argc, char **argv)
{
    config_opts_t o = {0};
    o.sets = tess_calloc((size_t)argc, sizeof *o.sets);
    if (!o.sets) {
        cli_error("out of memory");
        return cli_nomem();
    }
    int rc = parse_args(argc, argv, &o);
    if (rc == TESS_OK && o.help)
        help();
    else if (rc == TESS_OK && o.keys && o.markdown)
        print_keys_markdown(stdout);
    else if (rc == TESS_OK && o.keys)
        print_keys_text(stdout);
    else if (rc == TESS_OK)
        rc = print_effective(&o);
    tess_free(o.sets);
    if (rc == TESS_OK && (fflush(stdout) != 0 || ferror(stdout))) {
        cli_error("cannot write the output");
        return TESS_EIO;
    }
    return rc;
}

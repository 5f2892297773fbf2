/* cli_opt.c — the option parser and the help printer of every command
 * (see cli_opt.h): getopt_long over the command's list of options, and
 * --help printed from that same list and the one exit-code table. */
#include "cli/cli_opt.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/store/db.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "tessera_names.h" /* generated: GEN_KEY_SIM_SEED */

typedef struct opt_def {
    const char *name;
    char short_name;
    const char *arg;
    const char *help;
} opt_def_t;

static const opt_def_t defs[CLI_OPT_COUNT] = {
    [CLI_NONE] = {"", 0, NULL, ""},
#define X(id, name, short_name, arg, help) [CLI_##id] = {name, short_name, arg, help},
    CLI_OPTIONS(X)
#undef X
};

/* The exit codes of `tessera` (events/base/err.h's TESS_ERRORS): a word for
 * a command's one-line list, a sentence for `tessera --help`. */
static const struct {
    int code;
    const char *word, *meaning;
} exit_table[] = {
#define EXIT_ROW(id, value, name, word, meaning) {TESS_##id, word, meaning},
    TESS_ERRORS(EXIT_ROW)
#undef EXIT_ROW
};

#define N_EXITS (sizeof exit_table / sizeof exit_table[0])

const char *cli_opt_name(cli_opt_id_t opt) { return defs[opt].name; }
char cli_opt_short(cli_opt_id_t opt) { return defs[opt].short_name; }
bool cli_opt_takes_value(cli_opt_id_t opt) { return defs[opt].arg != NULL; }

/* --- help ------------------------------------------------------------------------ */

#define GLUE '\x01' /* a blank where a line never breaks */

void cli_wrap(FILE *f, const char *text, int col, int indent)
{
    while (*text) {
        int width = 78 - col, len = (int)strlen(text);
        if (len > width) {
            len = width;
            while (len > 0 && text[len] != ' ')
                len--;
            if (len == 0)
                len = (int)strcspn(text, " ");
        }
        for (int i = 0; i < len; i++)
            fputc(text[i] == GLUE ? ' ' : text[i], f);
        fputc('\n', f);
        text += len;
        text += strspn(text, " ");
        if (*text)
            fprintf(f, "%*s", indent, "");
        col = indent;
    }
}

static void print_usage(const cli_spec_t *spec, FILE *f)
{
    fprintf(f, "usage: tessera %s %s\n", spec->name, spec->usage);
}

/* "  -s, --set KEY=VALUE   help" */
static void print_option(FILE *f, cli_opt_id_t opt, const char *arg, const char *help)
{
    char left[64];
    const opt_def_t *d = &defs[opt];
    int n = d->short_name ? snprintf(left, sizeof left, "  -%c, --%s", d->short_name, d->name)
                          : snprintf(left, sizeof left, "  --%s", d->name);
    if (arg)
        snprintf(left + n, sizeof left - (size_t)n, " %s", arg);
    enum { COL = 26 };
    if ((int)strlen(left) >= COL - 1)
        fprintf(f, "%s\n%*s", left, COL, "");
    else
        fprintf(f, "%-*s", COL, left);
    cli_wrap(f, help, COL, COL);
}

static void print_exits(const cli_spec_t *spec, FILE *f)
{
    char line[1024];
    size_t len = (size_t)snprintf(line, sizeof line, "Exit codes:");
    for (const cli_exit_t *e = spec->exits; e && e->code >= 0; e++) {
        const char *what = e->what;
        for (size_t i = 0; !what && i < N_EXITS; i++)
            if (exit_table[i].code == e->code)
                what = exit_table[i].word;
        if (len < sizeof line)
            len += (size_t)snprintf(line + len, sizeof line - len, "%s %d\x01%s",
                                    e == spec->exits ? "" : ",", e->code, what ? what : "?");
    }
    if (len < sizeof line)
        snprintf(line + len, sizeof line - len, ". `tessera --help` explains each code.");
    cli_wrap(f, line, 0, 0);
}

void cli_print_help(const cli_spec_t *spec, FILE *f)
{
    print_usage(spec, f);
    fputs(spec->about, f);
    fputs("\nOptions:\n", f);
    for (const cli_use_t *u = spec->opts; u->opt != CLI_NONE; u++)
        print_option(f, u->opt, u->arg ? u->arg : defs[u->opt].arg,
                     u->help ? u->help : defs[u->opt].help);
    print_option(f, CLI_HELP, NULL, defs[CLI_HELP].help);
    fputc('\n', f);
    print_exits(spec, f);
}

void cli_print_exit_table(FILE *f)
{
    for (size_t i = 0; i < N_EXITS; i++)
        fprintf(f, "  %d  %s\n", exit_table[i].code, exit_table[i].meaning);
}

int cli_usage_error(const cli_spec_t *spec, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tessera: %s: ", spec->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    print_usage(spec, stderr);
    fprintf(stderr, "`tessera %s --help` lists every option.\n", spec->name);
    return TESS_EUSAGE;
}

/* --- parsing --------------------------------------------------------------------- */

/* getopt_long's value of an option: its short letter, else 256 + id. */
static int opt_val(cli_opt_id_t opt)
{
    return defs[opt].short_name ? defs[opt].short_name : 256 + (int)opt;
}

/* The option of the command with getopt value `val`, or CLI_NONE. */
static cli_opt_id_t opt_of(const cli_spec_t *spec, int val)
{
    if (val == 'h' || val == 256 + CLI_HELP)
        return CLI_HELP;
    for (const cli_use_t *u = spec->opts; u->opt != CLI_NONE; u++)
        if (opt_val(u->opt) == val)
            return u->opt;
    return CLI_NONE;
}

/* The getopt_long tables of the command (longs ends with a zero entry). */
static void build_tables(const cli_spec_t *spec, struct option *longs, char *shorts)
{
    size_t n = 0, s = 0;
    shorts[s++] = ':'; /* a missing value returns ':' */
    for (const cli_use_t *u = spec->opts;; u++) {
        cli_opt_id_t opt = u->opt != CLI_NONE ? u->opt : CLI_HELP;
        const opt_def_t *d = &defs[opt];
        longs[n++] = (struct option){d->name, d->arg ? required_argument : no_argument, NULL,
                                     opt_val(opt)};
        if (d->short_name) {
            shorts[s++] = d->short_name;
            if (d->arg)
                shorts[s++] = ':';
        }
        if (u->opt == CLI_NONE)
            break;
    }
    longs[n] = (struct option){0, 0, 0, 0};
    shorts[s] = 0;
}

/* "--db" or "-s" as the user may have written it, for messages. */
static void spelled(cli_opt_id_t opt, char *buf, size_t size)
{
    snprintf(buf, size, "--%s", defs[opt].name);
}

/* The usage error of getopt's '?' or ':' answer. */
static int bad_option(const cli_spec_t *spec, int ret, char **argv)
{
    char name[64];
    const char *arg = argv[optind - 1];
    cli_opt_id_t opt = optopt ? opt_of(spec, optopt) : CLI_NONE;
    if (ret == ':' && opt != CLI_NONE) {
        spelled(opt, name, sizeof name);
        return cli_usage_error(spec, "%s needs a value (%s)", name, defs[opt].arg);
    }
    if (opt != CLI_NONE && !strncmp(arg, "--", 2)) {
        spelled(opt, name, sizeof name);
        return cli_usage_error(spec, "%s takes no value", name);
    }
    if (optopt && optopt < 256 && strncmp(arg, "--", 2) != 0)
        return cli_usage_error(spec, "unknown option '-%c'", optopt);
    return cli_usage_error(spec, "unknown option '%.*s'", (int)strcspn(arg, "="), arg);
}

/* --seed N becomes "sim.seed=N" in the sets (the key from model/gpu_keys.h). */
static int add_set(cli_args_t *a, cli_opt_id_t opt, const char *value)
{
    if (opt == CLI_SET) {
        a->sets[a->n_sets++] = (char *)value;
        return TESS_OK;
    }
    size_t n = strlen(GEN_KEY_SIM_SEED "=") + strlen(value) + 1;
    char *s = tess_malloc(n);
    if (!s)
        return cli_nomem();
    snprintf(s, n, GEN_KEY_SIM_SEED "=%s", value);
    a->owned[a->n_owned++] = s;
    a->sets[a->n_sets++] = s;
    return TESS_OK;
}

/* --db names a file SQLite keeps (not "" nor ":memory:", db_check_name)
 * and is not given with --no-db, in either order: options that contradict
 * each other are an error, not a silent choice. */
static int check_db_options(const cli_spec_t *spec, const cli_args_t *a)
{
    if (cli_count(a, CLI_DB) && cli_count(a, CLI_NO_DB))
        return cli_usage_error(spec, "--db and --no-db contradict each other: give one");
    for (int i = 0; i < a->n_items; i++) {
        diag_t d = {0};
        if (a->items[i].opt == CLI_DB && db_check_name(a->items[i].value, "--db", &d) != TESS_OK)
            return cli_usage_error(spec, "%s", d.msg);
    }
    return TESS_OK;
}

static int collect(const cli_spec_t *spec, int argc, char **argv, cli_args_t *out,
                   struct option *longs, const char *shorts)
{
    int ret;
    opterr = 0;
    optind = 0; /* GNU: start afresh */
    while ((ret = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        cli_opt_id_t opt = ret == '?' || ret == ':' ? CLI_NONE : opt_of(spec, ret);
        if (opt == CLI_NONE)
            return bad_option(spec, ret, argv);
        if (opt == CLI_HELP) {
            cli_print_help(spec, stdout);
            return CLI_HELP_PRINTED;
        }
        out->items[out->n_items++] = (cli_item_t){opt, optarg};
        if ((opt == CLI_SET || opt == CLI_SEED) && add_set(out, opt, optarg) != TESS_OK)
            return TESS_ENOMEM;
    }
    for (int i = optind; i < argc; i++)
        out->pos[out->n_pos++] = argv[i];
    int rc = check_db_options(spec, out);
    if (rc != TESS_OK)
        return rc;
    if (spec->max_pos >= 0 && out->n_pos > spec->max_pos)
        return cli_usage_error(spec, "unexpected argument '%s'", out->pos[spec->max_pos]);
    if (out->n_pos < spec->min_pos)
        return cli_usage_error(spec, "%s", spec->missing);
    return TESS_OK;
}

int cli_parse(const cli_spec_t *spec, int argc, char **argv, cli_args_t *out)
{
    struct option longs[CLI_OPT_COUNT + 1];
    char shorts[2 * CLI_OPT_COUNT + 2];
    size_t cap = argc > 0 ? (size_t)argc : 1;
    memset(out, 0, sizeof *out);
    /* one block: the items, then the positional, set and owned pointers */
    out->items = tess_calloc(cap, sizeof *out->items + 3 * sizeof(char *));
    if (!out->items)
        return cli_nomem();
    out->pos = (char **)(out->items + cap);
    out->sets = out->pos + cap;
    out->owned = out->sets + cap;
    build_tables(spec, longs, shorts);
    return collect(spec, argc, argv, out, longs, shorts);
}

void cli_args_free(cli_args_t *a)
{
    for (int i = 0; i < a->n_owned; i++)
        tess_free(a->owned[i]);
    tess_free(a->items);
    memset(a, 0, sizeof *a);
}

const char *cli_value(const cli_args_t *a, cli_opt_id_t opt)
{
    for (int i = a->n_items; i-- > 0;)
        if (a->items[i].opt == opt)
            return a->items[i].value;
    return NULL;
}

int cli_count(const cli_args_t *a, cli_opt_id_t opt)
{
    int n = 0;
    for (int i = 0; i < a->n_items; i++)
        n += a->items[i].opt == opt;
    return n;
}

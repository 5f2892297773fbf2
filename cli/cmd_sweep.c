/* cmd_sweep.c — `tessera sweep`: the command line, the plan of the points
 * (config/sweep.h: value lists, cartesian product, every point checked) and
 * either the runner (sweep_run.c: child processes, shards merged in point
 * order) or, with --emit, one command per point for GNU parallel or a Slurm
 * array. Invariant: every point's configuration and the program are checked
 * before anything runs; a point that fails never stops the others. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/sweep_run.h"
#include "analysis/store/runkey.h"
#include "analysis/store/sha256.h"
#include "config/cfg.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/program.h"


static const cli_use_t sweep_opts[] = {
    {CLI_SET, "KEY=V1,V2,...", "an axis: a key and its values (a single value is a fixed "
                               "setting); repeatable, the first -s varies slowest"},
    {CLI_SEED, "N1,N2,...", "the same as -s sim.seed=N1,N2,... (the model's random streams); "
                            "one number also seeds --sample unless --sample-seed"},
    {CLI_CONFIG, NULL, "an INI configuration file under every point"},
    {CLI_MEM, NULL, NULL},
    {CLI_JOBS, NULL, NULL},
    {CLI_DB, "OUT.db", "the database the points are merged into (required)"},
    {CLI_EMIT, NULL, "print one self-contained `tessera run ... --db DIR/STEM-shard-K.db` "
                     "command per point (absolute paths, shell-quoted) and run nothing"},
    {CLI_FORCE, NULL, "allow more than 10000 points to run"},
    {CLI_RERUN, NULL, "run every point, also those OUT.db already holds with status ok"},
    {CLI_ALLOW_INERT, NULL, NULL},
    {CLI_ZIP, NULL, NULL},
    {CLI_SAMPLE, NULL, NULL},
    {CLI_SAMPLE_SEED, NULL, NULL},
    {CLI_PROGRESS, NULL, NULL},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t sweep_exits[] = {
    {TESS_OK, "every point ok"}, {TESS_EUSAGE, NULL},
    {TESS_EINPUT, "a -s value, the configuration or the program is rejected (nothing run)"},
    {TESS_EINTERRUPTED, NULL},
    {TESS_ECRASH, "a point was killed by a signal other than SIGINT/SIGTERM"},
    {TESS_EIO, "OUT.db or a shard could not be written or merged (that shard is kept)"},
    {TESS_EDB, "the same for the database"},
    {-1, NULL},
};

const cli_spec_t cli_spec_sweep = {
    .name = "sweep",
    .usage = "PROG -s key=v1,v2,... [-s key=v ...] [--config F] [--mem F]\n"
             "                     [--zip K1,K2 ...] [--sample N [--sample-seed S]]\n"
             "                     [--jobs N] --db OUT.db [--emit] [--force] [--rerun]\n"
             "                     [--allow-inert] [--progress]",
    .about =
        "Runs PROG once per point of the cartesian product of the -s lists, N points at a\n"
        "time, each as `tessera run PROG ... --db SHARD` into a shard in a temporary\n"
        "directory next to OUT.db, and merges the shards into OUT.db in point order\n"
        "(created when missing, appended to otherwise; see `tessera merge`).\n"
        "Lists: values are separated by commas, but a `choice:` latency keeps the\n"
        "commas that follow it up to the next value with a `form:` of its own\n"
        "(`1,choice:1,1,8,uniform:1..4` is 3 values). A list that contains a `;` is\n"
        "split on `;` only (`choice:1,8;4` is 2 values). Quote it for the shell.\n"
        "With --emit, merge the shards with `tessera merge OUT.db DIR/STEM-shard-*.db`.\n"
        "--zip K1,K2: the axes K1 and K2 (same number of values) take their i-th values\n"
        "together. --sample N: N points of the product, drawn without repetition with\n"
        "--sample-seed S (default: --seed when it is one number, else 1), run in\n"
        "product order. More than 10000 points need --force.\n"
        "A -s list whose key has no effect in some point (simt.* without\n"
        "core.model=simt, ts.window without ts.policy=lookahead, sim.seed with nothing\n"
        "random: `tessera config --keys` says where each key applies) is refused\n"
        "(exit 1, naming what to add) unless --allow-inert.\n"
        "Resume: a point of which OUT.db already holds a run with status ok (same\n"
        "program, data and effective configuration: every key, defaults and --config\n"
        "included) is not run again, nor emitted by --emit; --rerun runs it all the\n"
        "same. How many points are already ok and how many run is printed first.\n"
        "SIGINT/SIGTERM: no new point starts, running points record their run as\n"
        "interrupted, what finished is merged; a second signal kills the running points\n"
        "(their runs stay 'running'). A failed point gives the exit code of the first\n"
        "failed point in point order (3 watchdog, 8 deadlock, ...; 4 if it was stopped\n"
        "by SIGINT/SIGTERM, 9 if it crashed: killed by any other signal).\n",
    .opts = sweep_opts,
    .exits = sweep_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "PROG is missing",
};

/* --- the command line --------------------------------------------------------- */

static bool parse_jobs(const char *text, unsigned *jobs)
{
    uint64_t v;
    if (!cli_parse_u64(text, &v) || v == 0 || v > SWEEP_MAX_JOBS) {
        cli_usage_error(&cli_spec_sweep, "--jobs '%s': expected 1..%u", text, SWEEP_MAX_JOBS);
        return false;
    }
    *jobs = (unsigned)v;
    return true;
}

/* The seed --sample draws its points with: --sample-seed S; else --seed
 * when it is one number (it stays sim.seed as well); else 1. */
static int take_sample_seed(const cli_args_t *c, sweep_args_t *a)
{
    const char *v = cli_value(c, CLI_SAMPLE_SEED), *seed = cli_value(c, CLI_SEED);
    uint64_t s = 1;
    a->sample_seed = 1;
    if (v && !a->sample)
        return cli_usage_error(&cli_spec_sweep, "--sample-seed needs --sample N");
    if (v && !cli_parse_u64(v, &a->sample_seed))
        return cli_usage_error(&cli_spec_sweep, "--sample-seed '%s': expected a number", v);
    if (!v && seed && cli_parse_u64(seed, &s))
        a->sample_seed = s;
    return TESS_OK;
}

/* Returns TESS_OK, TESS_EUSAGE, or CLI_HELP_PRINTED. The -s arguments are
 * only collected here; check_all() plans them. */
static int parse(int argc, char **argv, cli_args_t *c, sweep_args_t *a)
{
    int rc = cli_parse(&cli_spec_sweep, argc, argv, c);
    if (rc != TESS_OK)
        return rc;
    a->sets = c->sets;
    a->n_sets = (size_t)c->n_sets;
    a->prog = c->pos[0];
    a->mem = cli_value(c, CLI_MEM);
    a->config = cli_value(c, CLI_CONFIG);
    a->db = cli_value(c, CLI_DB);
    a->emit = cli_count(c, CLI_EMIT) > 0;
    a->force = cli_count(c, CLI_FORCE) > 0;
    a->rerun = cli_count(c, CLI_RERUN) > 0;
    a->allow_inert = cli_count(c, CLI_ALLOW_INERT) > 0;
    a->progress = cli_count(c, CLI_PROGRESS) > 0;
    a->sample = cli_value(c, CLI_SAMPLE);
    size_t n_zips = 0;
    for (int i = 0; i < c->n_items; i++)
        n_zips += c->items[i].opt == CLI_ZIP;
    char **zips = n_zips ? tess_malloc(n_zips * sizeof *zips) : NULL;
    if (n_zips && !zips) {
        cli_error("out of memory");
        return TESS_ENOMEM;
    }
    for (int i = 0; i < c->n_items; i++)
        if (c->items[i].opt == CLI_ZIP)
            zips[a->n_zips++] = (char *)c->items[i].value;
    a->zips = zips;
    if (take_sample_seed(c, a) != TESS_OK)
        return TESS_EUSAGE;
    if (!a->db)
        return cli_usage_error(&cli_spec_sweep, "--db OUT.db is missing");
    const char *jobs = cli_value(c, CLI_JOBS);
    return jobs && !parse_jobs(jobs, &a->jobs) ? TESS_EUSAGE : TESS_OK;
}

/* Assembles or loads the program (and --mem) once, as the children will,
 * into *out (the caller frees it). */
static int load_program(sweep_args_t *a, program_t **out, diag_t *d)
{
    program_t *p = tess_malloc(sizeof *p);
    if (!p)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    int rc = program_load(p, a->prog, a->mem, d);
    if (rc != TESS_OK)
        tess_free(p), p = NULL;
    if (p) { /* what every point's run must record (sweep_run.c checks each shard) */
        sha256_hex(p->image, TM_BYTES, a->prog_sha);
        sha256_hex(p->sm, SM_BYTES, a->data_sha);
    }
    *out = p;
    return rc;
}

/* --- resume ---------------------------------------------------------------------------- */

/* Point k's effective configuration (base: the defaults and --config) as
 * INI text, what its run records in runs.config; NULL with diag set. */
static char *point_config(const sweep_args_t *a, const cfg_t *base, uint64_t k, diag_t *d)
{
    cfg_t c = *base;
    char *as[a->plan.n_axes ? a->plan.n_axes : 1];
    sweep_plan_point(&a->plan, k, as);
    if (cfg_apply_cli(&c, NULL, as, (int)a->plan.n_axes, d) != TESS_OK)
        return NULL;
    char *text = cfg_format(&c);
    if (!text)
        diag_fail(d, TESS_ENOMEM, "out of memory");
    return text;
}

typedef struct keyed {
    runkey_t key;             /* the point's run key */
    uint64_t k;               /* the point */
} keyed_t;

static int cmp_keyed(const void *pa, const void *pb)
{
    const keyed_t *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->k > b->k) - (a->k < b->k);
}

/* Every point's run key into keys[k] (program, data, effective
 * configuration, version: what its run would record). */
static int point_keys(const sweep_args_t *a, const program_t *p, uint64_t n, keyed_t *keys,
                      diag_t *d)
{
    cfg_t base;
    cfg_default(&base);
    diag_t again = {0}; /* its warnings were printed by check_all */
    if (a->config && cfg_load_file(&base, a->config, &again))
        return diag_fail(d, again.code, "%s", again.msg);
    for (uint64_t k = 0; k < n; k++) {
        char *text = point_config(a, &base, k, d);
        if (!text)
            return d->code;
        runkey_of(p->image, TM_BYTES, p->sm, SM_BYTES, text, keys[k].key);
        keys[k].k = k;
        tess_free(text);
    }
    return TESS_OK;
}

/* Marks in dup[] each point whose key an earlier point has (values equal
 * after normalisation: SIMT and simt, 1 and 01, a value given twice), with
 * the earlier point in first_of[]; returns how many. */
static uint64_t mark_dups(keyed_t *keys, uint64_t n, uint64_t *first_of, bool *dup)
{
    qsort(keys, n, sizeof *keys, cmp_keyed);
    uint64_t dups = 0;
    for (uint64_t i = 1; i < n; i++)
        if (strcmp(keys[i].key, keys[i - 1].key) == 0) {
            dup[keys[i].k] = true;
            first_of[keys[i].k] = dup[keys[i - 1].k] ? first_of[keys[i - 1].k] : keys[i - 1].k;
            dups++;
        }
    return dups;
}

/* "sweep: 2 points dropped, equal to others after normalisation: 2 = 1, 3 = 1" */
static void print_dups(const sweep_args_t *a, uint64_t n, const bool *dup, const uint64_t *first)
{
    FILE *f = a->emit ? stderr : stdout;
    unsigned shown = 0;
    fprintf(f, "sweep: %llu point%s dropped, equal to %s after normalisation (run once):",
            (unsigned long long)a->n_dups, a->n_dups == 1 ? "" : "s",
            a->n_dups == 1 ? "another" : "others");
    for (uint64_t k = 0; k < n && shown < 8; k++)
        if (dup[k])
            fprintf(f, "%s point %llu = point %llu", shown++ ? "," : "", (unsigned long long)k + 1,
                    (unsigned long long)first[k] + 1);
    fprintf(f, "%s\n", a->n_dups > shown ? ", ..." : "");
}

/* The points to run, ascending, into a->todo and a->n_todo: one per run
 * key (analysis/store/runkey.h: program, data, effective configuration,
 * version) — a point equal to an earlier one is dropped and named — and,
 * but with --rerun, none whose key OUT.db holds with status 'ok'. Only
 * reads OUT.db. */
static int plan_resume(sweep_args_t *a, const program_t *p, uint64_t n, diag_t *d)
{
    runkey_set_t ok = {0};
    keyed_t *keys = tess_calloc(n, sizeof *keys);
    uint64_t *first = tess_calloc(n, sizeof *first);
    bool *dup = tess_calloc(n, sizeof *dup);
    a->todo = tess_calloc(n, sizeof *a->todo);
    int rc = keys && first && dup && a->todo ? TESS_OK : diag_fail(d, TESS_ENOMEM, "out of memory");
    if (rc == TESS_OK)
        rc = a->rerun ? TESS_OK : runkey_load_ok(a->db, &ok, d);
    if (rc == TESS_OK)
        rc = point_keys(a, p, n, keys, d);
    runkey_t *key_of = NULL;
    if (rc == TESS_OK && !(key_of = tess_malloc(n * sizeof *key_of)))
        rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    for (uint64_t i = 0; rc == TESS_OK && i < n; i++)
        memcpy(key_of[keys[i].k], keys[i].key, sizeof(runkey_t));
    if (rc == TESS_OK)
        a->n_dups = mark_dups(keys, n, first, dup);
    for (uint64_t k = 0; rc == TESS_OK && k < n; k++)
        if (!dup[k] && !runkey_set_has(&ok, key_of[k]))
            a->todo[a->n_todo++] = k;
    if (rc == TESS_OK && a->n_dups)
        print_dups(a, n, dup, first);
    tess_free(key_of);
    tess_free(keys), tess_free(first), tess_free(dup);
    runkey_set_free(&ok);
    return rc;
}

/* "sweep: 12 points (12 in the product): 7 already ok in runs.db, running 5"
 * (the short "sweep: 12 points to run (12 in the product)" when none is);
 * on stderr with --emit, where stdout is the commands. */
static void print_plan(const sweep_args_t *a, uint64_t n)
{
    FILE *f = a->emit ? stderr : stdout;
    unsigned long long points = n - a->n_dups, product = sweep_plan_product(&a->plan);
    if (a->n_todo == points && !a->emit)
        fprintf(f, "sweep: %llu point%s to run (%llu in the product)\n", points,
                points == 1 ? "" : "s", product);
    else if (a->n_todo < points)
        fprintf(f, "sweep: %llu point%s (%llu in the product): %llu already ok in %s, %s %llu\n",
                points, points == 1 ? "" : "s", product,
                (unsigned long long)(points - a->n_todo), a->db,
                a->emit ? "emitting" : "running", (unsigned long long)a->n_todo);
    fflush(f);
}

/* --- command lines ----------------------------------------------------------------- */

/* Writes `s` for /bin/sh: as is when made of safe characters, else in
 * single quotes (a quote inside becomes '\''). */
static void put_quoted(FILE *f, const char *s)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789_@%+=:,./-";
    if (*s && strspn(s, safe) == strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        *s == '\'' ? fputs("'\\''", f) : fputc(*s, f);
    fputc('\'', f);
}

/* "DIR/STEM" of OUT.db with DIR absolute and STEM its name without ".db". */
static char *emit_prefix(const char *db)
{
    char *copy = tess_strdup(db), *dir = NULL, *res = NULL;
    if (!copy)
        return NULL;
    char *slash = strrchr(copy, '/');
    const char *name = slash ? slash + 1 : copy;
    if (slash)
        *slash = 0;
    dir = realpath(slash ? (*copy ? copy : "/") : ".", NULL);
    size_t len = strlen(name);
    if (dir && (res = tess_malloc(strlen(dir) + len + 2))) {
        sprintf(res, "%s/%s", strcmp(dir, "/") ? dir : "", name);
        len = strlen(res);
        if (len > 3 && !strcmp(res + len - 3, ".db"))
            res[len - 3] = 0;
    }
    tess_free(dir);
    tess_free(copy);
    return res;
}

/* --emit: one command per point, nothing run. */
static int emit_commands(const sweep_args_t *a, const char *exe, uint64_t n)
{
    char *prefix = emit_prefix(a->db);
    char *abs[3] = {realpath(a->prog, NULL), a->mem ? realpath(a->mem, NULL) : NULL,
                    a->config ? realpath(a->config, NULL) : NULL};
    int rc = TESS_OK;
    if (!prefix || !abs[0] || (a->mem && !abs[1]) || (a->config && !abs[2])) {
        cli_error("sweep: cannot resolve the absolute paths: %s", strerror(errno));
        rc = TESS_EIO;
    }
    const char *files[4] = {exe, abs[0], abs[1], abs[2]};
    size_t size = prefix ? strlen(prefix) + 48 : 0;
    char *shard = tess_malloc(size + 1);
    if (!shard && rc == TESS_OK)
        rc = TESS_ENOMEM;
    for (uint64_t t = 0; t < a->n_todo && rc == TESS_OK; t++) {
        uint64_t k = a->todo[t];
        snprintf(shard, size, "%s-shard-%0*llu.db", prefix, sweep_digits(n),
                 (unsigned long long)k + 1);
        char **v = sweep_point_argv(a, files, k, shard, false);
        if (!v) {
            rc = TESS_ENOMEM;
            break;
        }
        for (size_t i = 0; v[i]; i++) {
            if (i)
                putchar(' ');
            put_quoted(stdout, v[i]);
        }
        putchar('\n');
        tess_free(v);
    }
    tess_free(shard); /* a failed write to stdout: main() reports it (exit 5) */
    tess_free(prefix);
    for (int i = 0; i < 3; i++)
        tess_free(abs[i]);
    return rc;
}

/* --- the command ---------------------------------------------------------------------- */

/* OUT.db is not the program, --mem or --config (it is written even with
 * --emit: by the merge the emitted commands are followed by). */
static int check_files(const sweep_args_t *a, diag_t *d)
{
    outfile_role_t out = {a->db, "--db", true};
    outfile_role_t ins[3] = {{a->prog, "the program", false}, {a->mem, "--mem", false},
                             {a->config, "--config", false}};
    return outfile_check(&out, 1, ins, 3, d);
}

/* Everything that can be rejected, before anything runs or is written; the
 * program loaded into *prog. */
static int check_all(sweep_args_t *a, uint64_t *n, program_t **prog, diag_t *d)
{
    int rc = sweep_plan_parse(&a->plan, a->sets, a->n_sets, d);
    for (size_t i = 0; i < a->n_zips && rc == TESS_OK; i++)
        rc = sweep_plan_zip(&a->plan, a->zips[i], d);
    uint64_t sample = 0;
    if (rc == TESS_OK && a->sample && (!cli_parse_u64(a->sample, &sample) || sample == 0))
        rc = diag_fail(d, TESS_EINPUT, "sweep --sample '%s': expected a number of points >= 1",
                       a->sample);
    if (rc == TESS_OK && a->sample)
        rc = sweep_plan_sample(&a->plan, sample, a->sample_seed, d);
    if (rc != TESS_OK)
        return rc;
    *n = sweep_plan_points(&a->plan);
    if (*n == 0 || (*n > SWEEP_MAX_POINTS && !a->force))
        return diag_fail(d, TESS_EINPUT,
                         "sweep of %s%llu points refused: the limit is %u points; raise it "
                         "with --force, or run fewer points with --zip or --sample N",
                         *n ? "" : "more than ", (unsigned long long)(*n ? *n : UINT64_MAX),
                         SWEEP_MAX_POINTS);
    rc = sweep_plan_check(&a->plan, a->config, *n, d);
    if (rc == TESS_OK)
        rc = sweep_plan_inert(&a->plan, a->config, *n, a->allow_inert, d);
    return rc == TESS_OK ? load_program(a, prog, d) : rc;
}

int cmd_sweep(int argc, char **argv)
{
    sweep_args_t a = {0};
    cli_args_t c;
    int rc = parse(argc, argv, &c, &a);
    diag_t d = {.warn = diag_warn_stderr};
    uint64_t n = 0;
    program_t *prog = NULL;
    char exe[PATH_MAX];
    ssize_t len = rc == TESS_OK ? readlink("/proc/self/exe", exe, sizeof exe - 1) : 0;
    if (len < 0)
        rc = diag_fail(&d, TESS_EIO, "cannot find this program: %s", strerror(errno));
    exe[len > 0 ? len : 0] = 0;
    if (rc == TESS_OK)
        rc = check_files(&a, &d);
    if (rc == TESS_OK)
        rc = check_all(&a, &n, &prog, &d);
    if (rc == TESS_OK)
        rc = plan_resume(&a, prog, n, &d);
    if (rc == TESS_OK)
        print_plan(&a, n);
    if (rc == TESS_OK && a.emit) {
        rc = emit_commands(&a, exe, n);
    } else if (rc == TESS_OK && a.n_todo > 0) {
        merge_t *m = merge_open(a.db, &d);
        rc = m ? sweep_run(&a, exe, n, m) : d.code;
        merge_close(m);
    }
    if (d.code != TESS_OK)
        cli_error("%s", d.msg);
    sweep_plan_free(&a.plan);
    tess_free(a.todo);
    tess_free((void *)a.zips);
    tess_free(prog);
    cli_args_free(&c);
    return rc == CLI_HELP_PRINTED ? TESS_OK : rc;
}

/* cmd_plot.c — `tessera plot`: a sweep or a run's intervals drawn by gnuplot
 * (analysis/present/plot.h). The picture goes through the one output writer
 * (cli/outfile.h): OUT is never left half-written. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/present/plot.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "config/cfg.h"
#include "events/base/err.h"
#include "cli/outfile.h"

static const cli_use_t plot_opts[] = {
    {CLI_X_KEY, NULL, NULL},
    {CLI_Y_COLUMN, NULL, NULL},
    {CLI_BY, NULL, "one line per value of this parameter (e.g. sm.arbiter), or program"},
    {CLI_PROGRAM, NULL, NULL},
    {CLI_WHERE, NULL, NULL},
    {CLI_RUN, NULL, "with --intervals: the run id (default: the latest run)"},
    {CLI_INTERVALS, NULL, NULL},
    {CLI_OUTPUT, "OUT.svg|OUT.png", "the picture to write (its extension gives the format)"},
    {CLI_SCRIPT, NULL, NULL},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t plot_exits[] = {
    {TESS_OK, NULL}, {TESS_EUSAGE, NULL},
    {TESS_EINPUT, "nothing to draw (unknown key or column, no run ok, no intervals)"},
    {TESS_EIO, "I/O (DB missing, OUT not writable, gnuplot missing or failing)"},
    {TESS_EDB, NULL}, {TESS_ENOMEM, NULL}, {-1, NULL},
};

const cli_spec_t cli_spec_plot = {
    .name = "plot",
    .usage = "DB --x KEY --y COLUMN [--by KEY] [--program NAME] [--where COND]\n"
             "                        -o OUT.svg|OUT.png [--script]\n"
             "                        DB --intervals [--run N] -o OUT.svg|OUT.png [--script]",
    .about = "Draws with gnuplot (Debian's gnuplot-nox). A sweep: the run_summary column\n"
             "COLUMN of every run with status ok against the parameter KEY, one line per\n"
             "value of the --by parameter (runs at one point are averaged); --program and\n"
             "--where keep only some runs (a database holding several programs or studies);\n"
             "--x and --by take `program` too (the runs' programs as categories).\n"
             "--intervals: run N's utilisation over time (cores busy, SM waiting, banks\n"
             "busy) from the intervals recorded with record.interval. --script prints the\n"
             "gnuplot script (data inline) instead of drawing: edit it and run\n"
             "`gnuplot script.gp`.\n",
    .opts = plot_opts,
    .exits = plot_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "which database? (DB)",
};

typedef struct plot_args {
    const char *db, *out;
    plot_opts_t opts;
    bool script;
} plot_args_t;

static int check_args(plot_args_t *a)
{
    const plot_opts_t *o = &a->opts;
    if (o->intervals && (o->x_key || o->y_col || o->by_key || o->program || o->where))
        return cli_usage_error(&cli_spec_plot, "--intervals draws one run: no --x, --y, --by, "
                                               "--program, --where");
    if (!o->intervals && (!o->x_key || !o->y_col))
        return cli_usage_error(&cli_spec_plot, "a sweep plot needs --x KEY and --y COLUMN "
                                               "(or --intervals)");
    if (!o->intervals && o->run_id)
        return cli_usage_error(&cli_spec_plot, "--run goes with --intervals");
    if (!a->out && !a->script)
        return cli_usage_error(&cli_spec_plot, "-o OUT.svg|OUT.png is required");
    if (a->out && !plot_format(a->out))
        return cli_usage_error(&cli_spec_plot, "-o %s: the name must end in .svg or .png",
                               a->out);
    return TESS_OK;
}

static int parse(int argc, char **argv, plot_args_t *a)
{
    cli_args_t c;
    int rc = cli_parse(&cli_spec_plot, argc, argv, &c);
    if (rc == TESS_OK) {
        a->db = c.pos[0];
        a->out = cli_value(&c, CLI_OUTPUT);
        a->opts.x_key = cli_value(&c, CLI_X_KEY);
        a->opts.y_col = cli_value(&c, CLI_Y_COLUMN);
        a->opts.by_key = cli_value(&c, CLI_BY);
        a->opts.program = cli_value(&c, CLI_PROGRAM);
        a->opts.where = cli_value(&c, CLI_WHERE);
        a->opts.intervals = cli_count(&c, CLI_INTERVALS) > 0;
        a->script = cli_count(&c, CLI_SCRIPT) > 0;
        const char *run = cli_value(&c, CLI_RUN);
        uint64_t v = 0;
        if (run && (!cli_parse_u64(run, &v) || v == 0 || v > INT64_MAX))
            rc = cli_usage_error(&cli_spec_plot, "--run '%s' is not a run id", run);
        a->opts.run_id = (int64_t)v;
    }
    if (rc == TESS_OK)
        rc = check_args(a);
    cli_args_free(&c);
    return rc;
}

/* Runs gnuplot with `p`'s script on its standard input and its standard
 * output into `out`. TESS_EIO naming what failed. */
static int run_gnuplot(const plot_t *p, const char *format, FILE *out, diag_t *d)
{
    int in[2];
    fflush(out);
    if (pipe(in) != 0)
        return diag_fail(d, TESS_EIO, "pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]), close(in[1]);
        return diag_fail(d, TESS_EIO, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(fileno(out), STDOUT_FILENO);
        close(in[0]), close(in[1]);
        execlp("gnuplot", "gnuplot", (char *)NULL);
        fprintf(stderr, "tessera: plot: cannot run gnuplot: %s (install Debian's gnuplot-nox; "
                        "scripts/setup.sh does; or print the script with --script)\n",
                strerror(errno));
        _exit(127);
    }
    close(in[0]);
    void (*old)(int) = signal(SIGPIPE, SIG_IGN); /* gnuplot may exit before reading it all */
    FILE *f = fdopen(in[1], "w");
    if (f) {
        plot_write_script(p, format, NULL, f);
        fclose(f);
    } else {
        close(in[1]);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    signal(SIGPIPE, old);
    if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
        return diag_fail(d, TESS_EIO, "gnuplot could not be run");
    if (WEXITSTATUS(status) != 0)
        return diag_fail(d, TESS_EIO, "gnuplot failed (exit %d); see its message above, and "
                                      "the script with --script", WEXITSTATUS(status));
    return TESS_OK;
}

/* The key table's keys, and those a point may average over without a warning
 * (cfg_key_replicate: sim.seed, keys that never change a result). */
static void table_keys(const char **known, const char **replicate)
{
    size_t r = 0, n = cfg_key_count();
    for (size_t i = 0; i < n; i++) {
        known[i] = cfg_key_info(i)->key;
        if (cfg_key_replicate(i))
            replicate[r++] = known[i];
    }
    known[n] = replicate[r] = NULL;
}

int cmd_plot(int argc, char **argv)
{
    plot_args_t a = {0};
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? TESS_OK : rc;
    outfile_role_t out_role = {a.script ? NULL : a.out, "-o", false};
    outfile_role_t db_role = {a.db, "the database", true};
    if ((rc = cli_check_files(&out_role, 1, &db_role, 1)) != TESS_OK)
        return rc;
    diag_t d = {.warn = diag_warn_stderr};
    const char *known[cfg_key_count() + 1], *replicate[cfg_key_count() + 1];
    table_keys(known, replicate);
    a.opts.known_keys = known, a.opts.replicate_keys = replicate;
    plot_t *p = plot_open(a.db, &a.opts, &d);
    rc = p ? TESS_OK : d.code;
    const char *format = a.out ? plot_format(a.out) : "svg";
    if (rc == TESS_OK && a.script) {
        plot_write_script(p, format, a.out, stdout);
        rc = fflush(stdout) == 0 ? TESS_OK : diag_fail(&d, TESS_EIO, "standard output");
    } else if (rc == TESS_OK) {
        outfile_t out; /* gnuplot writes its picture to our temporary file */
        rc = outfile_open(&out, a.out, &d);
        if (rc == TESS_OK) {
            rc = run_gnuplot(p, format, out.f, &d);
            int crc = outfile_close(&out, rc == TESS_OK, &d);
            rc = rc != TESS_OK ? rc : crc;
        }
    }
    if (rc != TESS_OK)
        cli_error("plot: %s", d.msg);
    plot_close(p);
    return rc;
}

/* cmd_run.c — `tessera run`: a program through the timed model into the
 * statistics database, with a short summary. A thin shell over the run API
 * (api/tessera.h), which checks configuration, program and database before
 * anything is simulated. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "analysis/store/db.h"
#include "api/tessera.h"
#include "cli/cli_trace.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/err.h"

static const cli_use_t run_opts[] = {
    {CLI_MEM, NULL, NULL},
    {CLI_CONFIG, NULL, NULL},
    {CLI_SET, NULL, NULL},
    {CLI_SEED, NULL, NULL},
    {CLI_DB, NULL, "append the run to the SQLite database FILE (default tessera.db)"},
    {CLI_NO_DB, NULL, NULL},
    {CLI_DUMP_MEM, NULL, NULL},
    {CLI_DUMP_REGS, NULL, NULL},
    {CLI_QUIET, NULL, NULL},
    {CLI_RACES, NULL, NULL},
    {CLI_PROGRESS, NULL, NULL},
    {CLI_TRACE, NULL, NULL},
    {CLI_TRACE_FROM, NULL, NULL},
    {CLI_TRACE_TO, NULL, NULL},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t run_exits[] = {
    {TESS_OK, NULL},  {TESS_EUSAGE, NULL}, {TESS_EINPUT, NULL}, {TESS_EWATCHDOG, NULL},
    {TESS_EINTERRUPTED, "interrupted or a limit (time, wall, record.max_mb)"}, {TESS_EIO, NULL}, {TESS_EDB, NULL},
    {TESS_ENOMEM, NULL}, {TESS_EDEADLOCK, NULL}, {-1, NULL},
};

const cli_spec_t cli_spec_run = {
    .name = "run",
    .usage = "PROG [--mem F.mem] [--config F.ini] [-s section.key=value]... [--seed N]\n"
             "                        [--db FILE | --no-db] [--dump-mem F] [--dump-regs F] "
             "[--quiet] [--races] [--progress]\n"
             "                        [--trace FILE [--trace-from C] [--trace-to C]]",
    .about = "Runs PROG (.s or .tm) through the timed model and appends the run to the\n"
             "SQLite database FILE (default tessera.db) at the level record.level.\n"
             "The configuration is the defaults, then --config, then each -s and --seed in\n"
             "order (`tessera config --keys` lists the keys). A run that does not finish\n"
             "still commits what it recorded, with its status and where it stopped.\n",
    .opts = run_opts,
    .exits = run_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "PROG is missing",
};

typedef struct run_args {
    const char *prog, *mem, *config, *db, *dump_mem, *dump_regs;
    char **overrides;
    int n_overrides;
    bool no_db, quiet, races, progress;
    const cli_args_t *cli;    /* the parsed options (--trace) */
} run_args_t;

static void from_args(const cli_args_t *c, run_args_t *a)
{
    a->prog = c->pos[0];
    a->mem = cli_value(c, CLI_MEM);
    a->config = cli_value(c, CLI_CONFIG);
    a->db = cli_value(c, CLI_DB) ? cli_value(c, CLI_DB) : "tessera.db";
    a->dump_mem = cli_value(c, CLI_DUMP_MEM);
    a->dump_regs = cli_value(c, CLI_DUMP_REGS);
    a->overrides = c->sets;
    a->n_overrides = c->n_sets;
    a->no_db = cli_count(c, CLI_NO_DB) > 0;
    a->quiet = cli_count(c, CLI_QUIET) > 0;
    a->races = cli_count(c, CLI_RACES) > 0;
    a->progress = cli_count(c, CLI_PROGRESS) > 0;
    a->cli = c;
}

static void print_summary(const tessera_t *t, const run_args_t *a)
{
    tessera_counters_t c;
    tessera_counters(t, &c);
    double period = (double)c.period_ps, wall = c.wall_s > 0 ? c.wall_s : 1e-9;
    printf("%s: %s\n", a->prog, tessera_status(t));
    if (strcmp(tessera_status(t), db_status_names[DB_STATUS_OK]) == 0) {
        printf("  simulated time    %llu ps (%.0f cycles)\n", (unsigned long long)c.end_ps,
               (double)c.end_ps / period);
    } else { /* stopped: where (runs.stop_ps), and the last READY before it, if any */
        printf("  stopped at        %llu ps (%.0f cycles)\n", (unsigned long long)c.stop_ps,
               (double)c.stop_ps / period);
        if (c.end_ps)
            printf("  last READY        %llu ps (%.0f cycles)\n", (unsigned long long)c.end_ps,
                   (double)c.end_ps / period);
    }
    printf("  tasks             %llu (%llu core-tasks, %llu frames)\n",
           (unsigned long long)c.tasks, (unsigned long long)c.core_tasks,
           (unsigned long long)c.frames);
    printf("  instructions      %llu\n", (unsigned long long)c.instructions);
    printf("  SM accesses       %llu\n", (unsigned long long)c.sm_accesses);
    printf("  bank conflicts    accesses that waited for their bank: %llu; total wait: %.0f"
           " cycles\n", (unsigned long long)c.sm_conflicts, (double)c.sm_conflict_ps / period);
    printf("  wall time         %.3f s (%.3g events/s, %.3g instructions/s)\n", c.wall_s,
           (double)c.events / wall, (double)c.instructions / wall);
    if (c.run_id)
        printf("  database          %s, run %lld (level %s)\n", a->db, (long long)c.run_id,
               cfg_rec_level_names[tessera_config(t)->record.level]);
    if (tessera_outcome_msg(t)[0])
        printf("  %s\n", tessera_outcome_msg(t));
}

/* SIGINT and SIGTERM while the run is loaded or committed (outside the event
 * loop, where the driver handles them) are remembered, never fatal: one that
 * arrives before the first event skips the simulation and the run is recorded
 * as interrupted; one during the commit lets the commit finish. The run is
 * the one mutable global a signal handler needs. */
static tessera_t *volatile current;

static void remember_signal(int sig)
{
    if (current)
        tessera_stop(current, sig);
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remember_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Configuration, program and database, then the run; the exit code. */
static int run(tessera_t *t, const run_args_t *a)
{
    outfile_role_t outs[4] = {{a->dump_mem, "--dump-mem", false},
                              {a->dump_regs, "--dump-regs", false},
                              {a->no_db ? NULL : a->db, "--db", true},
                              {cli_value(a->cli, CLI_TRACE), "--trace", false}};
    outfile_role_t ins[3] = {{a->prog, "the program", false}, {a->mem, "--mem", false},
                             {a->config, "--config", false}};
    int rc = cli_check_files(outs, 4, ins, 3);
    if (rc != TESS_OK)
        return rc;
    rc = tessera_config_cli(t, a->config, a->overrides, a->n_overrides);
    if (rc == TESS_OK)
        rc = tessera_load(t, a->prog, a->mem);
    if (rc == TESS_OK && !a->no_db)
        rc = tessera_record(t, a->db);
    if (rc == TESS_OK && a->races)
        rc = tessera_detect_races(t);
    cli_trace_t trace = {0};
    if (rc == TESS_OK)
        rc = cli_trace_open(&trace, a->cli, a->prog, tessera_config(t)->gpu.period_ps);
    if (rc == TESS_OK && trace.f)
        rc = tessera_itrace(t, cli_trace_write, &trace);
    if (rc != TESS_OK) {
        cli_trace_close(&trace);
        return rc;
    }
    rc = tessera_run(t, TESSERA_SIGNALS | (a->progress ? TESSERA_PROGRESS : 0));
    int trc = cli_trace_close(&trace);
    if (!tessera_status(t)[0])
        return rc; /* nothing simulated */
    rc = rc != TESS_OK ? rc : trc;
    if (!a->quiet)
        print_summary(t, a);
    if (rc != TESS_OK && tessera_outcome_msg(t)[0])
        cli_error("%s", tessera_outcome_msg(t));
    int race_rc = tessera_races(t) ? cli_print_races(tessera_races(t)) : TESS_OK;
    rc = rc != TESS_OK ? rc : race_rc;
    arch_state_t arch;
    tessera_state(t, &arch);
    int wrc = cli_dump_state(&arch, a->dump_mem, a->dump_regs);
    return rc != TESS_OK ? rc : wrc;
}

int cmd_run(int argc, char **argv)
{
    cli_args_t c;
    run_args_t a = {0};
    int rc = cli_parse(&cli_spec_run, argc, argv, &c);
    if (rc != TESS_OK) {
        cli_args_free(&c);
        return rc == CLI_HELP_PRINTED ? TESS_OK : rc;
    }
    from_args(&c, &a);
    tessera_t *t = tessera_new();
    if (!t) {
        cli_args_free(&c);
        return cli_nomem();
    }
    current = t;
    catch_signals();
    rc = run(t, &a);
    if (tessera_errmsg(t)[0])
        cli_error("%s", tessera_errmsg(t));
    /* A signal from now on finds the run judged and committed: it is ignored
     * (the handler stays until the process exits), so the exit code always
     * matches the status that was stored, even while tessera_free closes the
     * database and SQLite checkpoints its WAL, which can take tens of ms. */
    current = NULL;
    tessera_free(t);
    cli_args_free(&c);
    return rc;
}

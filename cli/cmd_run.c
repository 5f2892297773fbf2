/* cmd_run.c — `tessera run`: a program through the timed model into the
 * statistics database, with a short summary. Configuration, program and
 * database are all checked before anything is simulated. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recorder/rec.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "config/cfg.h"
#include "events/base/alloc.h"
#include "events/driver.h"
#include "events/base/err.h"
#include "model/gpu.h"
#include "model/program.h"

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
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t run_exits[] = {
    {TESS_OK, NULL},  {TESS_EUSAGE, NULL}, {TESS_EINPUT, NULL}, {TESS_EWATCHDOG, NULL},
    {TESS_EINTERRUPTED, "interrupted or a time limit"}, {TESS_EIO, NULL}, {TESS_EDB, NULL},
    {TESS_ENOMEM, NULL}, {TESS_EDEADLOCK, NULL}, {-1, NULL},
};

const cli_spec_t cli_spec_run = {
    .name = "run",
    .usage = "PROG [--mem F.mem] [--config F.ini] [-s section.key=value]... [--seed N]\n"
             "                        [--db FILE | --no-db] [--dump-mem F] [--dump-regs F] "
             "[--quiet]",
    .about = "Runs PROG (.s or .tm) through the timed model and appends the run to the\n"
             "SQLite database FILE (default tessera.db) at the level record.level.\n"
             "The configuration is the defaults, then --config, then each -s and --seed in\n"
             "order (`tessera config --keys` lists the keys). An interrupted or watchdog run\n"
             "still commits what it recorded, with its status.\n",
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
    bool no_db, quiet;
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
}

/* Everything one run holds; released by session_close. */
typedef struct session {
    cfg_t cfg;
    program_t *prog;
    sim_t *sim;
    gpu_t *gpu;
    rec_t *rec;
    int64_t run_id;
    char **keys, **values;
    size_t n_params;
    bool params_lost;         /* a copy failed (out of memory) */
} session_t;

static void collect_param(void *user, const char *key, const char *value)
{
    session_t *s = user;
    s->keys[s->n_params] = tess_strdup(key);
    s->values[s->n_params] = tess_strdup(value);
    s->params_lost |= !s->keys[s->n_params] || !s->values[s->n_params];
    s->n_params++;
}

static int begin_recording(session_t *s, const run_args_t *a, diag_t *d)
{
    rec_opts_t ro = {s->cfg.record.level, s->cfg.record.from_ps, s->cfg.record.to_ps};
    s->rec = rec_open(a->db, &ro, d);
    if (!s->rec)
        return d->code;
    size_t n = cfg_key_count();
    s->keys = tess_calloc(n, sizeof *s->keys);
    s->values = tess_calloc(n, sizeof *s->values);
    char *config = cfg_format(&s->cfg);
    if (!s->keys || !s->values || !config) {
        tess_free(config);
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    }
    cfg_foreach(&s->cfg, collect_param, s);
    if (s->params_lost) {
        tess_free(config);
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    }
    rec_run_info_t info = {
        .program = a->prog,
        .tm_image = s->prog->image,
        .sm_image = s->prog->sm,
        .config = config,
        .param_keys = (const char *const *)s->keys,
        .param_values = (const char *const *)s->values,
        .n_params = s->n_params,
        .period_ps = s->cfg.gpu.period_ps,
    };
    int rc = rec_begin_run(s->rec, &info, &s->run_id, d);
    tess_free(config);
    if (rc == TESS_OK)
        gpu_set_trace(s->gpu, rec_attach(s->rec, s->sim));
    return rc;
}

/* Configuration, program, model and database: everything that can be
 * rejected is checked here, before the first event. */
static int session_open(session_t *s, const run_args_t *a, diag_t *d)
{
    outfile_role_t outs[3] = {{a->dump_mem, "--dump-mem", false},
                              {a->dump_regs, "--dump-regs", false},
                              {a->no_db ? NULL : a->db, "--db", true}};
    outfile_role_t ins[3] = {{a->prog, "the program", false}, {a->mem, "--mem", false},
                             {a->config, "--config", false}};
    int crc = outfile_check(outs, 3, ins, 3, d);
    if (crc != TESS_OK)
        return crc;
    cfg_default(&s->cfg);
    int rc = cfg_apply_cli(&s->cfg, a->config, a->overrides, a->n_overrides, d);
    if (rc != TESS_OK)
        return rc;
    s->prog = tess_malloc(sizeof *s->prog);
    if (!s->prog)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    rc = program_load(s->prog, a->prog, a->mem, d);
    if (rc != TESS_OK)
        return rc;
    s->sim = sim_create();
    if (!s->sim)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    s->gpu = gpu_create(s->sim, &s->cfg.gpu, s->prog, d);
    if (!s->gpu)
        return d->code;
    return a->no_db ? TESS_OK : begin_recording(s, a, d);
}

static void session_close(session_t *s)
{
    if (s->sim)
        sim_set_hook(s->sim, NULL, NULL); /* the recorder goes first */
    rec_close(s->rec);
    gpu_destroy(s->gpu);
    sim_destroy(s->sim);
    tess_free(s->prog);
    for (size_t i = 0; i < s->n_params; i++)
        tess_free(s->keys[i]), tess_free(s->values[i]);
    tess_free(s->keys);
    tess_free(s->values);
}

static void progress_extra(void *user, char *buf, size_t size)
{
    gpu_stats_t st;
    gpu_stats(user, &st);
    snprintf(buf, size, "frames %llu, instructions %llu", (unsigned long long)st.frames,
             (unsigned long long)st.instructions);
}

/* How the run ended, as a runs.status, a message and an exit code. */
typedef struct verdict {
    const char *status;
    char error[320];
    int code;
} verdict_t;

static void judge(const session_t *s, const sim_drive_result_t *r, verdict_t *v)
{
    gpu_outcome_t o = gpu_outcome(s->gpu);
    v->status = "interrupted";
    v->code = TESS_EINTERRUPTED;
    v->error[0] = 0;
    if (o == GPU_WATCHDOG) {
        v->status = "watchdog", v->code = TESS_EWATCHDOG;
        snprintf(v->error, sizeof v->error, "%s", gpu_errmsg(s->gpu));
    } else if (r->end == SIM_END_ERROR) {
        v->status = "error", v->code = TESS_ENOMEM;
        snprintf(v->error, sizeof v->error, "%s%s", sim_errmsg(s->sim), gpu_errmsg(s->gpu));
    } else if (o == GPU_DONE) {
        v->status = "ok", v->code = TESS_OK;
    } else if (r->end == SIM_END_INTERRUPTED) {
        snprintf(v->error, sizeof v->error, "interrupted by signal %d", r->signal);
    } else if (r->end == SIM_END_WALL_LIMIT) {
        snprintf(v->error, sizeof v->error, "wall-clock limit of %g s reached (sim.wall_limit)",
                 s->cfg.sim.wall_limit_s);
    } else if (r->end == SIM_END_TIME_LIMIT) {
        snprintf(v->error, sizeof v->error,
                 "simulated-time limit of %llu cycles reached (sim.time_limit)",
                 (unsigned long long)s->cfg.sim.time_limit);
    } else if (o == GPU_STUCK) {
        v->status = "error", v->code = TESS_EDEADLOCK;
        snprintf(v->error, sizeof v->error, "%s", gpu_errmsg(s->gpu));
    }
}

static void print_summary(const session_t *s, const run_args_t *a, const verdict_t *v,
                          const sim_drive_result_t *r)
{
    gpu_stats_t st;
    gpu_stats(s->gpu, &st);
    double period = (double)s->cfg.gpu.period_ps, wall = r->wall_s > 0 ? r->wall_s : 1e-9;
    printf("%s: %s\n", a->prog, v->status);
    printf("  simulated time    %llu ps (%.0f cycles)\n", (unsigned long long)st.end_ps,
           (double)st.end_ps / period);
    if (st.now_ps > st.end_ps) /* stopped: say how far it got, not only the last READY */
        printf("  stopped at        %llu ps (%.0f cycles)\n", (unsigned long long)st.now_ps,
               (double)st.now_ps / period);
    printf("  tasks             %llu (%llu core-tasks, %llu frames)\n",
           (unsigned long long)st.tasks, (unsigned long long)st.core_tasks,
           (unsigned long long)st.frames);
    printf("  instructions      %llu\n", (unsigned long long)st.instructions);
    printf("  SM accesses       %llu (%llu waited for their bank)\n",
           (unsigned long long)st.sm_accesses, (unsigned long long)st.sm_conflicts);
    printf("  bank conflicts    %.0f cycles lost waiting\n", (double)st.sm_conflict_ps / period);
    printf("  wall time         %.3f s (%.3g events/s, %.3g instructions/s)\n", r->wall_s,
           (double)r->events / wall, (double)st.instructions / wall);
    if (s->rec)
        printf("  database          %s, run %lld (level %s)\n", a->db, (long long)s->run_id,
               rec_level_name(s->cfg.record.level));
    if (v->error[0])
        printf("  %s\n", v->error);
}

/* SIGINT and SIGTERM while the run is loaded or committed (outside the event
 * loop, where the driver handles them) are remembered, never fatal: one that
 * arrives before the first event skips the simulation and the run is recorded
 * as interrupted; one during the commit lets the commit finish. The flag is
 * the one mutable global a signal handler needs. */
static volatile sig_atomic_t early_signal;

static void remember_signal(int sig) { early_signal = sig; }

static void catch_signals(struct sigaction old[2])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remember_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old[0]);
    sigaction(SIGTERM, &sa, &old[1]);
}

static void restore_signals(const struct sigaction old[2])
{
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGTERM, &old[1], NULL);
}

static int simulate(session_t *s, const run_args_t *a, diag_t *d)
{
    sim_drive_desc_t dd = {
        .until = s->cfg.sim.time_limit * s->cfg.gpu.period_ps,
        .wall_limit_s = s->cfg.sim.wall_limit_s,
        .pace = s->cfg.sim.pace,
        .progress = s->cfg.sim.progress,
        .catch_signals = true,
        .progress_extra = progress_extra,
        .progress_user = s->gpu,
    };
    sim_drive_result_t r = {0};
    gpu_start(s->gpu);
    if (early_signal) {
        r.end = SIM_END_INTERRUPTED, r.signal = early_signal;
    } else if (sim_drive(s->sim, &dd, &r) != TESS_OK) {
        return diag_fail(d, TESS_ENOMEM, "cannot start the event loop");
    }
    gpu_finish(s->gpu);
    verdict_t v;
    judge(s, &r, &v);
    gpu_stats_t st;
    gpu_stats(s->gpu, &st);
    /* runs.end_ps: the last READY; NULL when none arrived (a READY needs >= 1 cycle) */
    rec_run_end_t end = {v.status, v.error[0] ? v.error : NULL,
                         st.end_ps ? st.end_ps : SIM_TIME_NEVER, r.events, r.wall_s};
    int rc = s->rec ? rec_end_run(s->rec, &end, d) : TESS_OK;
    if (!a->quiet)
        print_summary(s, a, &v, &r);
    if (v.code != TESS_OK && v.error[0])
        cli_error("%s", v.error);
    arch_state_t arch;
    gpu_arch_state(s->gpu, &arch);
    int wrc = cli_dump_state(&arch, a->dump_mem, a->dump_regs);
    return v.code != TESS_OK ? v.code : rc != TESS_OK ? rc : wrc;
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
    session_t s = {0};
    diag_t d = {.warn = diag_warn_stderr};
    struct sigaction old[2];
    catch_signals(old);
    rc = session_open(&s, &a, &d);
    if (rc == TESS_OK)
        rc = simulate(&s, &a, &d);
    if (d.code != TESS_OK)
        cli_error("%s", d.msg);
    session_close(&s);
    restore_signals(old);
    cli_args_free(&c);
    return rc;
}

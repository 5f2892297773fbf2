/* cmd_iss.c — `tessera iss`: the untimed reference executor on a program,
 * optionally with the race detector and the instruction trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/store/db.h"
#include "cli/cli_trace.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "config/cfg.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/iss.h"
#include "model/program.h"
#include "model/race.h"

static const cli_use_t iss_opts[] = {
    {CLI_MEM, NULL, NULL},
    {CLI_BUDGET, NULL, NULL},
    {CLI_DUMP_MEM, NULL, NULL},
    {CLI_DUMP_REGS, NULL, NULL},
    {CLI_RACES, NULL, NULL},
    {CLI_ATOMICS, NULL, NULL},
    {CLI_SET, NULL,
     "set a configuration key; only sm.banks and sm.bank_map apply (the trace's bank "
     "column)"},
    {CLI_TRACE, NULL, NULL},
    {CLI_TRACE_FROM, "N", "trace only from the N-th instruction executed (from 0)"},
    {CLI_TRACE_TO, "N", "trace only instructions before the N-th"},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t iss_exits[] = {
    {TESS_OK, NULL}, {TESS_EUSAGE, NULL}, {TESS_EINPUT, NULL}, {TESS_EWATCHDOG, "watchdog (dumps still written)"},
    {TESS_EIO, NULL}, {TESS_ENOMEM, NULL}, {-1, NULL},
};

const cli_spec_t cli_spec_iss = {
    .name = "iss",
    .usage = "PROG [--mem F.mem] [--budget N] [--dump-mem F] [--dump-regs F] [--races [--atomics]]\n"
             "                        [-s sm.banks=N] [-s sm.bank_map=M]\n"
             "                        [--trace FILE [--trace-from N] [--trace-to N]]",
    .about = "Runs PROG (.s or .tm) untimed: program order, one task at a time, the cores\n"
             "of a task in core order.\n",
    .opts = iss_opts,
    .exits = iss_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "PROG is missing",
};

typedef struct iss_args {
    const char *prog, *mem, *dump_mem, *dump_regs, *budget;
    bool races, atomics;
} iss_args_t;

/* The -s settings: the mapping that names the trace's banks. */
static int bank_settings(const cli_args_t *c, iss_desc_t *desc)
{
    cfg_t cfg;
    cfg_default(&cfg);
    diag_t d = {0};
    for (int i = 0; i < c->n_sets; i++) { /* a key it does not read is refused, not ignored */
        size_t k = cfg_assignment_key(c->sets[i]);
        const char *set = c->sets[i] + strspn(c->sets[i], " \t");
        if (k == SIZE_MAX && strncmp(set, CFG_PLUGIN_SECTION ".", sizeof CFG_PLUGIN_SECTION) == 0) {
            cli_error("iss: -s '%s': a plugin parameter does not apply to iss (it runs no policy)",
                      c->sets[i]);
            return TESS_EUSAGE;
        }
        if (k != SIZE_MAX && !cfg_key_for_iss(k)) {
            char only[256] = "";
            for (size_t j = 0, at = 0; j < cfg_key_count() && at < sizeof only; j++)
                if (cfg_key_for_iss(j)) {
                    int w = snprintf(only + at, sizeof only - at, "%s%s", at ? " and " : "",
                                     cfg_key_info(j)->key);
                    at += w > 0 ? (size_t)w : 0;
                }
            cli_error("iss: -s '%s': %s does not apply to iss, the untimed executor (only %s "
                      "do: the bank of its trace); use tessera run for the timed machines",
                      c->sets[i], cfg_key_info(k)->key, only);
            return TESS_EUSAGE;
        }
    }
    if (cfg_apply_cli(&cfg, NULL, c->sets, c->n_sets, &d) != TESS_OK) {
        cli_error("%s", d.msg);
        return d.code;
    }
    desc->banks = cfg.gpu.banks;
    desc->bank_map = cfg.gpu.bank_map;
    return TESS_OK;
}

/* Loads and runs the program; prints the summary, the races, the dumps. */
static int execute(const iss_args_t *a, iss_desc_t *desc)
{
    diag_t d = {.warn = diag_warn_stderr};
    program_t *p = tess_malloc(sizeof *p);
    arch_state_t *st = tess_malloc(sizeof *st);
    if (!p || !st) {
        tess_free(p), tess_free(st);
        return cli_nomem();
    }
    int rc = program_load(p, a->prog, a->mem, &d);
    if (rc == TESS_OK) {
        arch_reset(st, p->sm);
        if (a->races && !(desc->races = race_create(&p->tm)))
            rc = diag_fail(&d, TESS_ENOMEM, "out of memory");
    }
    if (rc == TESS_OK) {
        iss_stats_t s;
        rc = iss_run(&p->tm, st, desc, &s, &d);
        printf("%s: %s: %llu tasks, %llu core-tasks, %llu instructions, %llu ld, %llu st, "
               "%llu div by zero\n",
               a->prog, db_status_names[rc == TESS_OK ? DB_STATUS_OK : DB_STATUS_WATCHDOG],
               (unsigned long long)s.tasks,
               (unsigned long long)s.core_tasks, (unsigned long long)s.instructions,
               (unsigned long long)s.loads, (unsigned long long)s.stores,
               (unsigned long long)s.div_by_zero);
        int wrc = desc->races ? cli_print_races(desc->races) : TESS_OK;
        wrc = wrc != TESS_OK ? wrc : cli_dump_state(st, a->dump_mem, a->dump_regs);
        rc = rc != TESS_OK ? rc : wrc;
    }
    if (d.code != TESS_OK)
        fprintf(stderr, "%s\n", d.msg);
    race_destroy(desc->races);
    desc->races = NULL;
    tess_free(p);
    tess_free(st);
    return rc;
}

static int run_iss(const cli_args_t *c, const iss_args_t *a)
{
    outfile_role_t outs[3] = {{a->dump_mem, "--dump-mem", false},
                              {a->dump_regs, "--dump-regs", false},
                              {cli_value(c, CLI_TRACE), "--trace", false}};
    outfile_role_t ins[2] = {{a->prog, "the program", false}, {a->mem, "--mem", false}};
    int rc = cli_check_files(outs, 3, ins, 2);
    if (rc != TESS_OK)
        return rc;
    iss_desc_t desc = {.atomics = a->atomics};
    if (a->budget && (!cli_parse_u64(a->budget, &desc.budget) || desc.budget == 0)) {
        cli_error("iss: --budget '%s' is not a positive number", a->budget);
        return TESS_EUSAGE;
    }
    if ((rc = bank_settings(c, &desc)) != TESS_OK)
        return rc;
    cli_trace_t trace;
    if ((rc = cli_trace_open(&trace, c, a->prog, 0)) != TESS_OK)
        return rc;
    if (trace.f)
        desc.itrace = cli_trace_write, desc.itrace_user = &trace;
    rc = execute(a, &desc);
    int trc = cli_trace_close(&trace);
    return rc != TESS_OK ? rc : trc;
}

int cmd_iss(int argc, char **argv)
{
    cli_args_t c;
    int rc = cli_parse(&cli_spec_iss, argc, argv, &c);
    if (rc == TESS_OK) {
        iss_args_t a = {c.pos[0], cli_value(&c, CLI_MEM), cli_value(&c, CLI_DUMP_MEM),
                        cli_value(&c, CLI_DUMP_REGS), cli_value(&c, CLI_BUDGET),
                        cli_count(&c, CLI_RACES) > 0, cli_count(&c, CLI_ATOMICS) > 0};
        rc = run_iss(&c, &a);
    }
    cli_args_free(&c);
    return rc == CLI_HELP_PRINTED ? TESS_OK : rc;
}

/* cmd_iss.c — `tessera iss`: the untimed reference executor on a program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/iss.h"
#include "model/program.h"

static const char iss_help[] =
    "usage: tessera iss PROG [--mem F.mem] [--budget N] [--dump-mem F] [--dump-regs F]\n"
    "Runs PROG (.s or .tm) untimed: program order, one task at a time, the cores\n"
    "of a task in core order. --mem initialises the SM before the .data lines;\n"
    "--budget is the D12 watchdog (instructions per core per task, default 2^26);\n"
    "--dump-mem writes the final 4096-byte SM, --dump-regs 256 bytes: core 0's\n"
    "R0..R15, then core 1's, ... core 15's. Exit 3 on watchdog (dumps still written).\n";

typedef struct iss_args {
    const char *prog, *mem, *dump_mem, *dump_regs, *budget;
} iss_args_t;

static int parse(int argc, char **argv, iss_args_t *a)
{
    bool bad = false;
    for (int i = 1; i < argc && !bad; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(iss_help, stdout);
            return -1;
        }
        if (cli_option(argc, argv, &i, "--mem", &a->mem, &bad) ||
            cli_option(argc, argv, &i, "--dump-mem", &a->dump_mem, &bad) ||
            cli_option(argc, argv, &i, "--dump-regs", &a->dump_regs, &bad) ||
            cli_option(argc, argv, &i, "--budget", &a->budget, &bad))
            continue;
        if (argv[i][0] == '-' || a->prog) {
            cli_error("iss: unexpected argument '%s'", argv[i]);
            bad = true;
        }
        a->prog = argv[i];
    }
    if (bad || !a->prog) {
        fputs(iss_help, stderr);
        return TESS_EUSAGE;
    }
    return TESS_OK;
}

int cmd_iss(int argc, char **argv)
{
    iss_args_t a = {0};
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? TESS_OK : rc;
    if (cli_check_output(a.dump_mem) != TESS_OK || cli_check_output(a.dump_regs) != TESS_OK)
        return TESS_EIO;
    iss_desc_t desc = {0};
    if (a.budget && (!cli_parse_u64(a.budget, &desc.budget) || desc.budget == 0)) {
        cli_error("iss: --budget '%s' is not a positive number", a.budget);
        return TESS_EUSAGE;
    }
    diag_t d = {.warn = diag_warn_stderr};
    program_t *p = tess_malloc(sizeof *p);
    arch_state_t *st = tess_malloc(sizeof *st);
    if (!p || !st) {
        tess_free(p), tess_free(st);
        return cli_nomem();
    }
    rc = program_load(p, a.prog, a.mem, &d);
    if (rc == TESS_OK) {
        iss_stats_t s;
        arch_reset(st, p->sm);
        rc = iss_run(&p->tm, st, &desc, &s, &d);
        printf("%s: %s: %llu tasks, %llu core-tasks, %llu instructions, %llu ld, %llu st, "
               "%llu div by zero\n",
               a.prog, rc == TESS_OK ? "ok" : "watchdog", (unsigned long long)s.tasks,
               (unsigned long long)s.core_tasks, (unsigned long long)s.instructions,
               (unsigned long long)s.loads, (unsigned long long)s.stores,
               (unsigned long long)s.div_by_zero);
        int wrc = cli_dump_state(st, a.dump_mem, a.dump_regs);
        rc = rc != TESS_OK ? rc : wrc;
    }
    if (d.code != TESS_OK)
        fprintf(stderr, "%s\n", d.msg);
    tess_free(p);
    tess_free(st);
    return rc;
}

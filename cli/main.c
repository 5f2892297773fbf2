/* main.c — `tessera`: dispatches to the subcommands of commands.h.
 * Nothing but argument dispatch lives here. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/recorder/rec.h"
#include "cli/commands.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

static const cli_command_t commands[] = {
    {"run", cmd_run, "run PROG [--mem F] [--config F] [-s k=v]... [--db FILE] [--dump-mem F] [--dump-regs F]"},
    {"iss", cmd_iss, "iss PROG [--mem F] [--budget N] [--dump-mem F] [--dump-regs F]"},
    {"asm", cmd_asm, "asm IN.s -o OUT.tm [--mem-out OUT.mem]"},
    {"disasm", cmd_disasm, "disasm IN.tm [--mem F]"},
    {"config", cmd_config, "config [--config F] [-s k=v]... [--keys [--markdown]]"},
    {"report", cmd_report, "report DB [--run N[,N...]|--last] [--compare] [--format text|csv|json] [--table T]"},
    {"timeline", cmd_timeline, "timeline DB [--run N] -o OUT.svg [--from-ps T --to-ps T] [--width PX]"},
    {"export", cmd_export, "export DB [--run N] [--perfetto F.json] [--vcd F.vcd] [--max-accesses N|all]"},
    {"sweep", cmd_sweep, "sweep PROG -s key=v1,v2,... [-s ...] [--jobs N] --db OUT.db [--emit]"},
    {"merge", cmd_merge, "merge OUT.db SHARD.db..."},
};

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tessera: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: tessera COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  tessera %s\n", commands[i].synopsis);
    fprintf(f,
            "\nPROG is an assembly file (.s) or a Task Memory image (.tm); F.mem is a raw\n"
            "4096-byte Shared Memory image. `tessera COMMAND --help` describes a command.\n"
            "\nexit codes:\n"
            "  0  ok\n"
            "  1  usage error (bad command line)\n"
            "  2  rejected input (malformed program, image or configuration; nothing simulated)\n"
            "  3  watchdog: a task exceeded its instruction budget (D12)\n"
            "  4  interrupted (SIGINT/SIGTERM) or a wall-clock limit; what was recorded is kept\n"
            "  5  I/O error (a file could not be read or written)\n"
            "  6  database error\n"
            "  7  out of memory\n"
            "  8  the model stopped with work left (deadlock, e.g. a lock never released)\n");
}

int main(int argc, char **argv)
{
    if (tess_alloc_from_env()) /* fault injection and allocation counts, for tests */
        rec_use_tess_alloc();
    if (argc < 2) {
        usage(stderr);
        return TESS_EUSAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return TESS_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("tessera %s\n", TESSERA_VERSION);
        return TESS_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    cli_error("unknown command '%s' (see `tessera --help`)", argv[1]);
    usage(stderr);
    return TESS_EUSAGE;
}

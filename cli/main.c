/* main.c — `tessera`: dispatches to the subcommands of commands.h.
 * Nothing but argument dispatch and the final check of standard output. */
#include <stdio.h>
#include <string.h>

#include "analysis/store/db.h"
#include "cli/commands.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "cli/outfile.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: tessera COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < cli_command_count; i++) {
        const cli_spec_t *s = cli_commands[i].spec;
        fprintf(f, "  tessera %s %.*s\n", s->name, (int)strcspn(s->usage, "\n"), s->usage);
    }
    fprintf(f,
            "\nPROG is an assembly file (.s) or a Task Memory image (.tm); F.mem is a raw\n"
            "4096-byte Shared Memory image. `tessera COMMAND --help` describes a command.\n"
            "\nexit codes:\n");
    cli_print_exit_table(f);
}

static int dispatch(int argc, char **argv)
{
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
    for (size_t i = 0; i < cli_command_count; i++)
        if (!strcmp(argv[1], cli_commands[i].spec->name))
            return cli_commands[i].run(argc - 1, argv + 1);
    cli_error("unknown command '%s' (see `tessera --help`)", argv[1]);
    usage(stderr);
    return TESS_EUSAGE;
}

/* Every command's standard output is checked at exit: a write that failed
 * (a full disk, /dev/full, a file-size limit) is exit 5 with a message, unless
 * the command already failed with an I/O error (it said why). */
int main(int argc, char **argv)
{
    if (tess_alloc_from_env()) /* fault injection and allocation counts, for tests */
        db_use_tess_alloc();
    outfile_init();
    int rc = dispatch(argc, argv);
    diag_t d = {0};
    if (outfile_close_stdout(&d) != TESS_OK && rc != TESS_EIO) {
        cli_error("%s", d.msg);
        rc = rc == TESS_OK ? TESS_EIO : rc;
    }
    return rc;
}

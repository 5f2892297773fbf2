/* commands.h — the subcommands of `tessera`, one file each (cli/cmd_*.c).
 * Each takes the arguments after its name (argv[0] is the subcommand) and
 * returns the process exit code: a tess_err_t value (0 ok, 1 usage,
 * 2 rejected input, 3 watchdog, 4 interrupted, 5 I/O, 6 database, …).
 * Each also defines its cli_spec_t: the options it accepts and its --help. */
#ifndef TESSERA_CLI_COMMANDS_H
#define TESSERA_CLI_COMMANDS_H

#include <stddef.h>

#include "cli/cli_opt.h"

typedef struct cli_command {
    const cli_spec_t *spec;
    int (*run)(int argc, char **argv);
} cli_command_t;

/* Every command, in the order of `tessera --help`. */
extern const cli_command_t cli_commands[];
extern const size_t cli_command_count;

#define CLI_COMMAND(name)                                                                     \
    int cmd_##name(int argc, char **argv);                                                    \
    extern const cli_spec_t cli_spec_##name;
CLI_COMMAND(run)
CLI_COMMAND(iss)
CLI_COMMAND(asm)
CLI_COMMAND(disasm)
CLI_COMMAND(config)
CLI_COMMAND(report)
CLI_COMMAND(timeline)
CLI_COMMAND(export)
CLI_COMMAND(sweep)
CLI_COMMAND(merge)
CLI_COMMAND(plot)
CLI_COMMAND(view)
#undef CLI_COMMAND

/* Prints "tessera: " + the formatted message + newline on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

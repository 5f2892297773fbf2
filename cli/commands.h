/* commands.h — the subcommands of `tessera`, one file each (cli/cmd_*.c).
 * Each takes the arguments after its name (argv[0] is the subcommand) and
 * returns the process exit code: a tess_err_t value (0 ok, 1 usage,
 * 2 rejected input, 3 watchdog, 4 interrupted, 5 I/O, 6 database, …). */
#ifndef TESSERA_CLI_COMMANDS_H
#define TESSERA_CLI_COMMANDS_H

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis;   /* one line for `tessera --help` */
} cli_command_t;

int cmd_asm(int argc, char **argv);
int cmd_disasm(int argc, char **argv);
int cmd_iss(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* Prints "tessera: " + the formatted message + newline on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

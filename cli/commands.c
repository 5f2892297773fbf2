/* commands.c — the table of `tessera`'s commands (name, options and help in
 * each command's cli_spec_t), shared by main.c and the tests. */
#include "cli/commands.h"

#include <stdarg.h>
#include <stdio.h>

const cli_command_t cli_commands[] = {
    {&cli_spec_run, cmd_run},           {&cli_spec_iss, cmd_iss},
    {&cli_spec_asm, cmd_asm},           {&cli_spec_disasm, cmd_disasm},
    {&cli_spec_config, cmd_config},     {&cli_spec_report, cmd_report},
    {&cli_spec_timeline, cmd_timeline}, {&cli_spec_export, cmd_export},
    {&cli_spec_sweep, cmd_sweep},       {&cli_spec_merge, cmd_merge},
    {&cli_spec_plot, cmd_plot},         {&cli_spec_view, cmd_view},
};

const size_t cli_command_count = sizeof cli_commands / sizeof cli_commands[0];

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tessera: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

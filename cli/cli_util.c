/* cli_util.c — helpers shared by the subcommands (see cli_util.h). */
#include "cli/cli_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "events/base/err.h"

int cli_nomem(void)
{
    cli_error("out of memory");
    return TESS_ENOMEM;
}

int cli_write_file(const char *path, const void *data, size_t len)
{
    diag_t d = {0};
    int rc = outfile_write(path, data, len, &d);
    if (rc != TESS_OK)
        cli_error("%s", d.msg);
    return rc;
}

int cli_check_files(const outfile_role_t *outputs, size_t n_out, const outfile_role_t *inputs,
                    size_t n_in)
{
    diag_t d = {0};
    int rc = outfile_check(outputs, n_out, inputs, n_in, &d);
    if (rc != TESS_OK)
        cli_error("%s", d.msg);
    return rc;
}

int cli_dump_state(const arch_state_t *s, const char *mem_path, const char *regs_path)
{
    int rc = mem_path ? cli_write_file(mem_path, s->sm, sizeof s->sm) : TESS_OK;
    if (rc == TESS_OK && regs_path)
        rc = cli_write_file(regs_path, s->regs, sizeof s->regs);
    return rc;
}

bool cli_parse_u64(const char *text, uint64_t *out)
{
    if (!text || !*text || *text == '-' || *text == '+')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

int cli_print_races(race_det_t *r)
{
    size_t n = race_count(r);
    if (n == 0)
        printf("races: none\n");
    else
        printf("races: %zu (accesses to one byte from different cores, one a store, in tasks "
               "the program does not order)\n", n);
    for (size_t i = 0; i < n; i++) {
        char line[128];
        race_format(race_get(r, i), line, sizeof line);
        printf("  %s\n", line);
    }
    if (race_status(r) != TESS_OK) {
        cli_error("races: out of memory; the list may be incomplete");
        return TESS_ENOMEM;
    }
    return TESS_OK;
}

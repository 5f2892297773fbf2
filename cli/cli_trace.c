/* cli_trace.c — the instruction trace file (cli_trace.h). */
#include "cli/cli_trace.h"

#include <errno.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/err.h"

static int window_value(const cli_args_t *c, int id, const char *name, uint64_t *out)
{
    const char *v = cli_value(c, id);
    if (v && !cli_parse_u64(v, out)) {
        cli_error("--%s '%s' is not a number of cycles", name, v);
        return TESS_EUSAGE;
    }
    return TESS_OK;
}

int cli_trace_open(cli_trace_t *t, const cli_args_t *c, const char *prog, uint64_t period_ps)
{
    memset(t, 0, sizeof *t);
    t->path = cli_value(c, CLI_TRACE);
    t->period_ps = period_ps;
    if (window_value(c, CLI_TRACE_FROM, "trace-from", &t->from) ||
        window_value(c, CLI_TRACE_TO, "trace-to", &t->to))
        return TESS_EUSAGE;
    if (!t->path) {
        if (cli_value(c, CLI_TRACE_FROM) || cli_value(c, CLI_TRACE_TO)) {
            cli_error("--trace-from and --trace-to need --trace FILE");
            return TESS_EUSAGE;
        }
        return TESS_OK;
    }
    if (t->to && t->to <= t->from) {
        cli_error("--trace-to %llu is not after --trace-from %llu", (unsigned long long)t->to,
                  (unsigned long long)t->from);
        return TESS_EUSAGE;
    }
    if (!strcmp(t->path, "-")) {
        t->f = stdout;
    } else if (!(t->f = fopen(t->path, "w"))) {
        cli_error("cannot write '%s': %s", t->path, strerror(errno));
        return TESS_EIO;
    }
    fprintf(t->f, "# tessera trace 1: %s, when = %s\n", prog,
            period_ps ? "cycles" : "ordinal");
    return TESS_OK;
}

void cli_trace_write(void *trace, const itrace_rec_t *rec)
{
    cli_trace_t *t = trace;
    uint64_t when = t->period_ps ? rec->when / t->period_ps : rec->when;
    if (when < t->from || (t->to && when >= t->to) || t->failed)
        return;
    char line[ITRACE_LINE_MAX];
    itrace_format(rec, t->period_ps, line, sizeof line);
    if (fprintf(t->f, "%s\n", line) < 0)
        t->failed = errno ? errno : EIO;
    t->lines++;
}

int cli_trace_close(cli_trace_t *t)
{
    if (!t->f)
        return TESS_OK;
    int bad = t->failed || ferror(t->f);
    if (t->f == stdout)
        bad |= fflush(stdout) != 0;
    else
        bad |= fclose(t->f) != 0;
    t->f = NULL;
    if (bad) {
        cli_error("writing the trace '%s' failed: %s", t->path,
                  strerror(t->failed ? t->failed : EIO));
        return TESS_EIO;
    }
    return TESS_OK;
}

/* cli_trace.h — --trace FILE for `run` and `iss`: the instruction trace of
 * model/itrace.h written as text, one line per instruction within the
 * window --trace-from .. --trace-to, after a header comment. */
#ifndef TESSERA_CLI_TRACE_H
#define TESSERA_CLI_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "cli/cli_opt.h"
#include "model/itrace.h"

typedef struct cli_trace {
    FILE *f;                  /* NULL: no trace */
    const char *path;
    uint64_t period_ps;       /* `when` in ps, printed as cycles; 0: ordinals (iss) */
    uint64_t from, to;        /* the window, in cycles (iss: ordinals); to = 0: the end */
    uint64_t lines;
    int failed;               /* errno of a failed write, 0 */
} cli_trace_t;

/* Reads --trace, --trace-from and --trace-to from `c` and opens the file
 * ('-': stdout; the command has checked it with its other files,
 * cli_check_files), writing the header line "# tessera trace 1: PROG, when =
 * cycles|ordinal". Returns TESS_OK (t->f NULL without --trace) or
 * TESS_EUSAGE / TESS_EIO with the message printed. */
int cli_trace_open(cli_trace_t *t, const cli_args_t *c, const char *prog, uint64_t period_ps);

/* The itrace_fn: writes `rec` when it lies in the window. */
void cli_trace_write(void *trace, const itrace_rec_t *rec);

/* Closes the file; TESS_EIO (printed) when a write failed. */
int cli_trace_close(cli_trace_t *t);

#endif

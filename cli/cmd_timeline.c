/* cmd_timeline.c — `tessera timeline`: the SVG Gantt chart of one recorded
 * run (analysis/timeline.h, docs/VISUALS.md). Reads the database only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/present/export.h"
#include "analysis/present/timeline.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/err.h"

static const char timeline_help[] =
    "usage: tessera timeline DB [--run N] -o OUT.svg [--from-ps T] [--to-ps T] [--width PX]\n"
    "Draws run N of the statistics database DB (default: the latest run) as an SVG\n"
    "Gantt chart: one row per core with a bar per task (IFk, as in the spec's\n"
    "figures 2 and 3), the time each core waited on the Shared Memory, a marker per\n"
    "control frame (CFk and its fence), the code bus, a lane per SM bank with its\n"
    "occupancy, and a time axis in cycles. --from-ps/--to-ps draw a window of the\n"
    "run (picoseconds), --width sets the picture's width (480..100000, default 1200).\n"
    "OUT.svg '-' writes to standard output. See docs/VISUALS.md.\n"
    "The run needs record.level tasks or above (mem, the default, for SM accesses).\n"
    "Exit codes: 0 ok, 1 usage, 2 nothing to draw (no such run, level summary, an\n"
    "empty window), 5 I/O (DB missing, OUT not writable), 6 database (not a Tessera\n"
    "database), 7 out of memory.\n";

typedef struct tl_args {
    const char *db, *out;
    int64_t run;
    tl_svg_opts_t opts;
} tl_args_t;

static bool number(const char *name, const char *text, uint64_t *v, bool *bad)
{
    if (!text)
        return false;
    if (!cli_parse_u64(text, v)) {
        cli_error("timeline: %s '%s' is not a number", name, text);
        *bad = true;
    }
    return true;
}

static bool numeric_option(int argc, char **argv, int *i, tl_args_t *a, bool *bad)
{
    const char *names[] = {"--run", "--from-ps", "--to-ps", "--width"};
    for (unsigned k = 0; k < 4; k++) {
        const char *text = NULL;
        uint64_t v = 0;
        if (!cli_option(argc, argv, i, names[k], &text, bad))
            continue;
        if (!number(names[k], text, &v, bad))
            return true;
        if (k == 0)
            a->run = (int64_t)v, *bad |= v == 0 || v > INT64_MAX;
        else if (k == 1)
            a->opts.from_ps = v;
        else if (k == 2)
            a->opts.to_ps = v, *bad |= v == 0;
        else
            a->opts.width = (unsigned)v, *bad |= v < 480 || v > 100000;
        if (*bad)
            cli_error("timeline: %s %s is out of range (see --help)", names[k], text);
        return true;
    }
    return false;
}

static int parse(int argc, char **argv, tl_args_t *a)
{
    bool bad = false;
    for (int i = 1; i < argc && !bad; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(timeline_help, stdout);
            return -1;
        }
        if (cli_option(argc, argv, &i, "-o", &a->out, &bad) ||
            numeric_option(argc, argv, &i, a, &bad))
            continue;
        if (argv[i][0] == '-' || a->db) {
            cli_error("timeline: unexpected argument '%s'", argv[i]);
            bad = true;
        }
        a->db = argv[i];
    }
    if (!bad && (!a->db || !a->out))
        cli_error("timeline: %s", !a->db ? "which database? (DB)" : "-o OUT.svg is required");
    if (bad || !a->db || !a->out) {
        fputs(timeline_help, stderr);
        return TESS_EUSAGE;
    }
    return TESS_OK;
}

int cmd_timeline(int argc, char **argv)
{
    tl_args_t a = {0};
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? TESS_OK : rc;
    diag_t d = {0};
    tl_run_t *run = tl_run_open(a.db, a.run, &d);
    rc = run ? tl_run_need_tasks(run, &d) : d.code;
    exp_out_t out;
    if (rc == TESS_OK)
        rc = exp_out_open(&out, a.out, &d);
    if (rc == TESS_OK) {
        rc = tl_svg_write(run, &a.opts, out.f, &d);
        int crc = exp_out_close(&out, rc == TESS_OK, &d);
        rc = rc != TESS_OK ? rc : crc;
    }
    if (rc != TESS_OK)
        cli_error("timeline: %s", d.msg);
    tl_run_close(run);
    return rc;
}

/* cmd_timeline.c — `tessera timeline`: the SVG Gantt chart of one recorded
 * run (analysis/timeline.h, docs/VISUALS.md). Reads the database only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/present/export.h"
#include "analysis/present/timeline.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/err.h"

static const cli_use_t timeline_opts[] = {
    {CLI_RUN, NULL, NULL},
    {CLI_OUTPUT, "OUT.svg", "the SVG file to write ('-': stdout; required)"},
    {CLI_FROM_PS, NULL, NULL},
    {CLI_TO_PS, NULL, NULL},
    {CLI_WIDTH, NULL, NULL},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t timeline_exits[] = {
    {TESS_OK, NULL}, {TESS_EUSAGE, NULL},
    {TESS_EINPUT, "nothing to draw (no such run, level summary, an empty window)"},
    {TESS_EIO, "I/O (DB missing, OUT not writable)"},
    {TESS_EDB, "database (not a Tessera database)"}, {TESS_ENOMEM, NULL}, {-1, NULL},
};

const cli_spec_t cli_spec_timeline = {
    .name = "timeline",
    .usage = "DB [--run N] -o OUT.svg [--from-ps T --to-ps T] [--width PX]",
    .about = "Draws run N of the statistics database DB (default: the latest run) as an SVG\n"
             "Gantt chart: one row per core with a bar per task (IFk, as in the spec's\n"
             "figures 2 and 3), the time each core waited on the Shared Memory, a marker per\n"
             "control frame (CFk and its fence), the code bus, a lane per SM bank with its\n"
             "occupancy, and a time axis in cycles. See docs/VISUALS.md.\n"
             "The run needs record.level tasks or above (mem, the default, for SM accesses).\n",
    .opts = timeline_opts,
    .exits = timeline_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "which database? (DB)",
};

typedef struct tl_args {
    const char *db, *out;
    int64_t run;
    tl_svg_opts_t opts;
} tl_args_t;

/* --run, --from-ps, --to-ps, --width; false when malformed (printed). */
static bool numeric_option(const cli_item_t *it, tl_args_t *a)
{
    uint64_t v = 0;
    const char *name = cli_opt_name(it->opt);
    if (!cli_parse_u64(it->value, &v)) {
        cli_usage_error(&cli_spec_timeline, "--%s '%s' is not a number", name, it->value);
        return false;
    }
    bool bad = false;
    if (it->opt == CLI_RUN)
        a->run = (int64_t)v, bad = v == 0 || v > INT64_MAX;
    else if (it->opt == CLI_FROM_PS)
        a->opts.from_ps = v;
    else if (it->opt == CLI_TO_PS)
        a->opts.to_ps = v, bad = v == 0;
    else
        a->opts.width = (unsigned)v, bad = v < 480 || v > 100000;
    if (bad)
        cli_usage_error(&cli_spec_timeline, "--%s %s is out of range", name, it->value);
    return !bad;
}

static int parse(int argc, char **argv, tl_args_t *a)
{
    cli_args_t c;
    int rc = cli_parse(&cli_spec_timeline, argc, argv, &c);
    for (int i = 0; rc == TESS_OK && i < c.n_items; i++) {
        if (c.items[i].opt == CLI_OUTPUT)
            a->out = c.items[i].value;
        else if (!numeric_option(&c.items[i], a))
            rc = TESS_EUSAGE;
    }
    if (rc == TESS_OK) {
        a->db = c.pos[0];
        if (!a->out)
            rc = cli_usage_error(&cli_spec_timeline, "-o OUT.svg is required");
    }
    cli_args_free(&c);
    return rc;
}

int cmd_timeline(int argc, char **argv)
{
    tl_args_t a = {0};
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? TESS_OK : rc;
    outfile_role_t out_role = {a.out, "-o", false}, db_role = {a.db, "the database", true};
    if ((rc = cli_check_files(&out_role, 1, &db_role, 1)) != TESS_OK)
        return rc;
    diag_t d = {0};
    tl_run_t *run = tl_run_open(a.db, a.run, &d);
    rc = run ? tl_run_need_tasks(run, &d) : d.code;
    outfile_t out;
    if (rc == TESS_OK)
        rc = outfile_open(&out, a.out, &d);
    if (rc == TESS_OK) {
        errno = 0;
        rc = tl_svg_write(run, &a.opts, out.f, &d);
        int err = errno;
        if (rc == TESS_EIO && out.f != stdout && ferror(out.f)) { /* name the file */
            diag_reset(&d);
            rc = outfile_fail(&out, err, &d);
        } else {
            int crc = outfile_close(&out, rc == TESS_OK, &d);
            rc = rc != TESS_OK ? rc : crc;
        }
    }
    if (rc != TESS_OK)
        cli_error("timeline: %s", d.msg);
    tl_run_close(run);
    return rc;
}

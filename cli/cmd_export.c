/* cmd_export.c — `tessera export`: one recorded run as a Perfetto/Chrome
 * trace (JSON) and/or a VCD waveform (analysis/export.h, docs/VISUALS.md).
 * Reads the database only; each output appears whole or not at all. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/present/export.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/err.h"

#define DEFAULT_MAX_ACCESSES 1000000

static const cli_use_t export_opts[] = {
    {CLI_RUN, NULL, NULL},
    {CLI_PERFETTO, NULL, "write a Chrome/Perfetto trace-event JSON ('-': stdout): tracks for "
                         "the TS, each core and each bank (ui.perfetto.dev, chrome://tracing)"},
    {CLI_VCD, NULL, "write a VCD waveform for GTKWave ('-': stdout): coreK_busy, coreK_task, "
                    "coreK_smwait, bankK_busy, exec_mask and one ifK_exec_mask per task"},
    {CLI_FROM_PS, NULL, NULL},
    {CLI_TO_PS, NULL, NULL},
    {CLI_MAX_ACCESSES, NULL, "SM accesses (level mem) exported at most (default 1000000; 'all' "
                             "for every one, 0 for none): beyond it the trace stops at a cut "
                             "time, which is printed and marked in the output"},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t export_exits[] = {
    {TESS_OK, NULL}, {TESS_EUSAGE, NULL},
    {TESS_EINPUT, "nothing to export (no such run, level summary, an empty window)"},
    {TESS_EIO, "I/O (DB missing, OUT not writable)"},
    {TESS_EDB, "database (not a Tessera database)"}, {TESS_ENOMEM, NULL}, {-1, NULL},
};

const cli_spec_t cli_spec_export = {
    .name = "export",
    .usage = "DB [--run N] [--perfetto OUT.json] [--vcd OUT.vcd]\n"
             "                         [--from-ps T] [--to-ps T] [--max-accesses N|all]",
    .about = "Writes run N of the statistics database DB (default: the latest run) as a\n"
             "Perfetto trace and/or a VCD waveform: at least one of them. See\n"
             "docs/VISUALS.md. The run needs record.level tasks or above.\n",
    .opts = export_opts,
    .exits = export_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "which database? (DB)",
};

typedef struct exp_args {
    const char *db, *perfetto, *vcd;
    int64_t run;
    exp_opts_t opts;
} exp_args_t;

/* --run, --from-ps, --to-ps, --max-accesses; false when malformed (printed). */
static bool numeric_option(const cli_item_t *it, exp_args_t *a)
{
    uint64_t v = 0;
    const char *text = it->value;
    bool all = it->opt == CLI_MAX_ACCESSES && !strcmp(text, "all");
    if (all)
        v = EXP_ALL_ACCESSES;
    else if (!cli_parse_u64(text, &v) || (it->opt == CLI_RUN && (v == 0 || v > INT64_MAX)) ||
             (it->opt == CLI_TO_PS && v == 0)) {
        cli_usage_error(&cli_spec_export, "--%s '%s' is not valid", cli_opt_name(it->opt),
                        text);
        return false;
    }
    if (it->opt == CLI_RUN)
        a->run = (int64_t)v;
    else if (it->opt == CLI_FROM_PS)
        a->opts.from_ps = v;
    else if (it->opt == CLI_TO_PS)
        a->opts.to_ps = v;
    else
        a->opts.max_accesses = v;
    return true;
}

static int parse(int argc, char **argv, exp_args_t *a)
{
    cli_args_t c;
    a->opts.max_accesses = DEFAULT_MAX_ACCESSES;
    int rc = cli_parse(&cli_spec_export, argc, argv, &c);
    for (int i = 0; rc == TESS_OK && i < c.n_items; i++) {
        const cli_item_t *it = &c.items[i];
        if (it->opt == CLI_PERFETTO)
            a->perfetto = it->value;
        else if (it->opt == CLI_VCD)
            a->vcd = it->value;
        else if (!numeric_option(it, a))
            rc = TESS_EUSAGE;
    }
    if (rc == TESS_OK) {
        a->db = c.pos[0];
        if (!a->perfetto && !a->vcd)
            rc = cli_usage_error(&cli_spec_export,
                                 "nothing to write: give --perfetto and/or --vcd");
    }
    cli_args_free(&c);
    return rc;
}

typedef int (*writer_fn)(tl_run_t *, const exp_opts_t *, FILE *, exp_stats_t *, diag_t *);

static int write_one(tl_run_t *run, const exp_args_t *a, const char *path, writer_fn fn,
                     diag_t *d)
{
    outfile_t out;
    exp_stats_t st;
    int rc = outfile_open(&out, path, d);
    if (rc != TESS_OK)
        return rc;
    errno = 0;
    rc = fn(run, &a->opts, out.f, &st, d);
    if (rc == TESS_EIO && out.f != stdout && ferror(out.f)) { /* name the file, not the stream */
        int err = errno;
        diag_reset(d);
        return outfile_fail(&out, err, d);
    }
    int crc = outfile_close(&out, rc == TESS_OK, d);
    rc = rc != TESS_OK ? rc : crc;
    if (rc == TESS_OK && st.cut_ps)
        fprintf(stderr, "tessera: export: %s: %" PRIu64 " of about %" PRIu64 " SM accesses"
                " exported, none requested from %" PRIu64 " ps (cycle %" PRIu64 ") on; see"
                " --max-accesses\n", path, st.accesses, st.accesses_total, st.cut_ps,
                st.cut_ps / tl_run_info(run)->period_ps);
    return rc;
}

int cmd_export(int argc, char **argv)
{
    exp_args_t a = {0};
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? TESS_OK : rc;
    outfile_role_t outs[2] = {{a.perfetto, "--perfetto", false}, {a.vcd, "--vcd", false}};
    outfile_role_t db_role = {a.db, "the database", true};
    if ((rc = cli_check_files(outs, 2, &db_role, 1)) != TESS_OK)
        return rc;
    diag_t d = {0};
    tl_run_t *run = tl_run_open(a.db, a.run, &d);
    rc = run ? tl_run_need_tasks(run, &d) : d.code;
    if (rc == TESS_OK && a.perfetto)
        rc = write_one(run, &a, a.perfetto, exp_perfetto_write, &d);
    if (rc == TESS_OK && a.vcd)
        rc = write_one(run, &a, a.vcd, exp_vcd_write, &d);
    if (rc != TESS_OK)
        cli_error("export: %s", d.msg);
    tl_run_close(run);
    return rc;
}

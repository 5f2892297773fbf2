/* cmd_export.c — `tessera export`: one recorded run as a Perfetto/Chrome
 * trace (JSON) and/or a VCD waveform (analysis/export.h, docs/VISUALS.md).
 * Reads the database only; each output appears whole or not at all. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/present/export.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/err.h"

#define DEFAULT_MAX_ACCESSES 1000000

static const char export_help[] =
    "usage: tessera export DB [--run N] [--perfetto OUT.json] [--vcd OUT.vcd]\n"
    "                         [--from-ps T] [--to-ps T] [--max-accesses N|all]\n"
    "Writes run N of the statistics database DB (default: the latest run) as\n"
    "  --perfetto  Chrome/Perfetto trace-event JSON (open it in ui.perfetto.dev or\n"
    "              chrome://tracing): tracks for the TS, each core and each bank;\n"
    "  --vcd       a VCD waveform for GTKWave: coreK_busy, coreK_task, coreK_smwait,\n"
    "              bankK_busy, exec_mask and one ifK_exec_mask per task.\n"
    "At least one of them; '-' writes to standard output. --from-ps/--to-ps export a\n"
    "window of the run (picoseconds). SM accesses (level mem) are exported up to\n"
    "--max-accesses (default 1000000; 'all' for every one, 0 for none): beyond it,\n"
    "the trace stops at a cut time, which is printed and marked in the output.\n"
    "See docs/VISUALS.md. The run needs record.level tasks or above.\n"
    "Exit codes: 0 ok, 1 usage, 2 nothing to export (no such run, level summary,\n"
    "an empty window), 5 I/O (DB missing, OUT not writable), 6 database (not a\n"
    "Tessera database), 7 out of memory.\n";

typedef struct exp_args {
    const char *db, *perfetto, *vcd;
    int64_t run;
    exp_opts_t opts;
} exp_args_t;

static bool numeric_option(int argc, char **argv, int *i, exp_args_t *a, bool *bad)
{
    const char *names[] = {"--run", "--from-ps", "--to-ps", "--max-accesses"};
    for (unsigned k = 0; k < 4; k++) {
        const char *text = NULL;
        uint64_t v = 0;
        if (!cli_option(argc, argv, i, names[k], &text, bad))
            continue;
        if (!text)
            return true;
        if (k == 3 && !strcmp(text, "all"))
            v = EXP_ALL_ACCESSES;
        else if (!cli_parse_u64(text, &v) || (k == 0 && (v == 0 || v > INT64_MAX)) ||
                 (k == 2 && v == 0)) {
            cli_error("export: %s '%s' is not valid (see --help)", names[k], text);
            *bad = true;
            return true;
        }
        if (k == 0)
            a->run = (int64_t)v;
        else if (k == 1)
            a->opts.from_ps = v;
        else if (k == 2)
            a->opts.to_ps = v;
        else
            a->opts.max_accesses = v;
        return true;
    }
    return false;
}

static int parse(int argc, char **argv, exp_args_t *a)
{
    bool bad = false;
    a->opts.max_accesses = DEFAULT_MAX_ACCESSES;
    for (int i = 1; i < argc && !bad; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(export_help, stdout);
            return -1;
        }
        if (cli_option(argc, argv, &i, "--perfetto", &a->perfetto, &bad) ||
            cli_option(argc, argv, &i, "--vcd", &a->vcd, &bad) ||
            numeric_option(argc, argv, &i, a, &bad))
            continue;
        if (argv[i][0] == '-' || a->db) {
            cli_error("export: unexpected argument '%s'", argv[i]);
            bad = true;
        }
        a->db = argv[i];
    }
    if (!bad && (!a->db || (!a->perfetto && !a->vcd)))
        cli_error("export: %s", !a->db ? "which database? (DB)"
                                       : "nothing to write: give --perfetto and/or --vcd");
    if (bad || !a->db || (!a->perfetto && !a->vcd)) {
        fputs(export_help, stderr);
        return TESS_EUSAGE;
    }
    return TESS_OK;
}

typedef int (*writer_fn)(tl_run_t *, const exp_opts_t *, FILE *, exp_stats_t *, diag_t *);

static int write_one(tl_run_t *run, const exp_args_t *a, const char *path, writer_fn fn,
                     diag_t *d)
{
    exp_out_t out;
    exp_stats_t st;
    int rc = exp_out_open(&out, path, d);
    if (rc != TESS_OK)
        return rc;
    rc = fn(run, &a->opts, out.f, &st, d);
    int crc = exp_out_close(&out, rc == TESS_OK, d);
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

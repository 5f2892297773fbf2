/* cmd_report.c — `tessera report`: a run's report, or a comparison of runs,
 * read from the statistics database (analysis/report.h). The database is
 * opened read-only: a missing file is an error, never created. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/present/report.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

static const cli_use_t report_opts[] = {
    {CLI_RUN, "N[,N...]", "the run to report (default: the latest); with --compare, the runs "
                          "to compare (repeatable)"},
    {CLI_LAST, NULL, NULL},
    {CLI_COMPARE, NULL, "one row per run (every run of DB, or those given with --run) with "
                        "the parameters that differ between them and the key results"},
    {CLI_FORMAT, NULL, "text (default), csv (each table after a '# name' line) or json (one "
                       "object, a member per table)"},
    {CLI_TABLE, NULL, "print one table: summary, tasks, task_totals, cores, banks, stalls, "
                      "waiting, sm_latency, simt, simt_stalls, warps, simt_replays, or compare"},
    {CLI_SLOTS, NULL, "print the run's slot profile instead (view slot_profile, record.level "
                      "tasks or more): per frame, each instruction beside how often it ran and "
                      "the cycles charged to it (SIMT: issued and stalled by reason; MIMD: "
                      "execute and SM wait, summed over the cores), the three hottest marked"},
    {CLI_FRAME, NULL, "with --slots: only frame F"},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t report_exits[] = {
    {TESS_OK, NULL}, {TESS_EUSAGE, NULL}, {TESS_EINPUT, "no such run (or no run at all)"},
    {TESS_EIO, "DB missing or unreadable"},
    {TESS_EDB, "not a Tessera database (or a newer schema, or a query failed)"},
    {TESS_ENOMEM, NULL}, {-1, NULL},
};

const cli_spec_t cli_spec_report = {
    .name = "report",
    .usage = "DB [--run N[,N...]]... | [--last] [--compare]\n"
             "                         [--format text|csv|json] [--table NAME]\n"
             "       tessera report DB --slots [--run N] [--frame F] [--format text|csv|json]",
    .about = "Reads the statistics database DB (never the simulator) through its analysis\n"
             "views (docs/SCHEMA.md) and prints the report of one run: the summary, each\n"
             "task's latency (by frame) and their totals, core and bank utilisation, bank\n"
             "conflicts, why frames waited (every waiting cycle attributed to a reason) and\n"
             "SM access latency percentiles, all in cycles; or, with --compare, a comparison\n"
             "of runs.\n",
    .opts = report_opts,
    .exits = report_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "which database? (tessera report DB)",
};

typedef struct report_args {
    const char *db, *format, *table;
    int64_t *runs;            /* --run values, in order */
    size_t n_runs;
    bool last, compare, slots;
    int frame;                /* --frame, -1: every frame */
} report_args_t;

/* Appends the comma-separated run ids of `text`; false when one is malformed. */
static bool add_runs(report_args_t *a, const char *text)
{
    char buf[32];
    for (const char *p = text;; p++) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        uint64_t v = 0;
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), p);
        if (len >= sizeof buf || !cli_parse_u64(buf, &v) || v > INT64_MAX) {
            cli_error("report: --run '%s': expected run ids like 3 or 1,2,5", text);
            return false;
        }
        a->runs[a->n_runs++] = (int64_t)v;
        if (!comma)
            return true;
        p = comma;
    }
}

/* Checks the combination of options; prints why it is wrong. */
static bool consistent(const report_args_t *a)
{
    if (a->format && strcmp(a->format, "text") && strcmp(a->format, "csv") &&
             strcmp(a->format, "json"))
        cli_error("report: --format '%s': expected text, csv or json", a->format);
    else if (a->last && (a->n_runs || a->compare))
        cli_error("report: --last goes alone (--compare takes its runs from --run)");
    else if (!a->compare && a->n_runs > 1)
        cli_error("report: several runs given: compare them with --compare");
    else if (a->slots && (a->compare || a->table))
        cli_error("report: --slots goes without --compare and --table");
    else if (a->frame >= 0 && !a->slots)
        cli_error("report: --frame goes with --slots");
    else if (a->table && !report_table_known(a->table, a->compare))
        cli_error("report: --table '%s': expected %s", a->table,
                  a->compare ? "compare" : report_table_list());
    else
        return true;
    fprintf(stderr, "usage: tessera report %s\n", cli_spec_report.usage);
    return false;
}

/* 0 ok, CLI_HELP_PRINTED (printed), TESS_EUSAGE, TESS_ENOMEM. */
static int parse(int argc, char **argv, report_args_t *a)
{
    /* every id takes at least two characters of an argument ("1,") */
    size_t cap = 1;
    for (int i = 1; i < argc; i++)
        cap += strlen(argv[i]) / 2 + 1;
    a->runs = tess_calloc(cap, sizeof *a->runs);
    if (!a->runs)
        return TESS_ENOMEM;
    cli_args_t c;
    int rc = cli_parse(&cli_spec_report, argc, argv, &c);
    for (int i = 0; rc == TESS_OK && i < c.n_items; i++)
        if (c.items[i].opt == CLI_RUN && !add_runs(a, c.items[i].value))
            rc = TESS_EUSAGE;
    if (rc == TESS_OK) {
        a->db = c.pos[0];
        a->format = cli_value(&c, CLI_FORMAT);
        a->table = cli_value(&c, CLI_TABLE);
        a->last = cli_count(&c, CLI_LAST) > 0;
        a->compare = cli_count(&c, CLI_COMPARE) > 0;
        a->slots = cli_count(&c, CLI_SLOTS) > 0;
        a->frame = -1;
        const char *f = cli_value(&c, CLI_FRAME);
        uint64_t v = 0;
        if (f && (!cli_parse_u64(f, &v) || v >= 64)) {
            cli_error("report: --frame '%s': expected a frame index 0..63", f);
            fprintf(stderr, "usage: tessera report %s\n", cli_spec_report.usage);
            rc = TESS_EUSAGE;
        } else if (f) {
            a->frame = (int)v;
        }
        if (rc == TESS_OK && !consistent(a))
            rc = TESS_EUSAGE;
    }
    cli_args_free(&c);
    return rc;
}

static int report(const report_args_t *a, diag_t *d)
{
    report_opts_t o = {.format = REPORT_TEXT, .table = a->table};
    if (a->format)
        o.format = !strcmp(a->format, "csv") ? REPORT_CSV
                   : !strcmp(a->format, "json") ? REPORT_JSON : REPORT_TEXT;
    report_t *rep = report_open(a->db, d);
    if (!rep)
        return d->code;
    int rc;
    if (a->compare) {
        rc = report_compare(rep, a->runs, a->n_runs, &o, stdout, d);
    } else {
        int64_t run = a->n_runs ? a->runs[0] : 0;
        rc = a->n_runs ? TESS_OK : report_last_run(rep, &run, d);
        if (rc == TESS_OK)
            rc = a->slots ? report_slots(rep, run, a->frame, &o, stdout, d)
                          : report_run(rep, run, &o, stdout, d);
    }
    report_close(rep);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    report_args_t a = {0};
    int rc = parse(argc, argv, &a);
    if (rc == TESS_ENOMEM)
        cli_error("report: out of memory");
    if (rc == TESS_OK) {
        diag_t d = {0};
        rc = report(&a, &d);
        if (rc != TESS_OK)
            cli_error("%s", d.msg[0] ? d.msg : tess_err_name(rc));
    }
    tess_free(a.runs);
    return rc == CLI_HELP_PRINTED ? TESS_OK : rc;
}

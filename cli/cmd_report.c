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

static const char report_help[] =
    "usage: tessera report DB [--run N[,N...]]... | [--last] [--compare]\n"
    "                         [--format text|csv|json] [--table NAME]\n"
    "Reads the statistics database DB (never the simulator) through its analysis\n"
    "views (docs/SCHEMA.md) and prints the report of one run: the summary, the task\n"
    "latency per IF and its totals, core and bank utilisation, bank conflicts, why\n"
    "frames waited (every waiting cycle attributed to a reason) and SM access\n"
    "latency percentiles. Default: the last run (--last); --run N picks another.\n"
    "--compare prints one row per run (every run of DB, or those given with --run)\n"
    "with the parameters that differ between them and the key results.\n"
    "--format csv|json gives the same tables machine-readable (CSV: each table after\n"
    "a '# name' line; JSON: one object, a member per table); --table NAME prints one\n"
    "table: summary, tasks, task_totals, cores, banks, stalls, waiting, sm_latency,\n"
    "or compare.\n"
    "Exit codes: 0 ok, 1 usage, 2 no such run (or no run at all), 5 DB missing or\n"
    "unreadable, 6 not a Tessera database (or a newer schema, or a query failed),\n"
    "7 out of memory.\n";

typedef struct report_args {
    const char *db, *format, *table;
    int64_t *runs;            /* --run values, in order */
    size_t n_runs;
    bool last, compare;
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

static bool parse_option(int argc, char **argv, int *i, report_args_t *a, bool *bad)
{
    const char *runs = NULL;
    if (cli_option(argc, argv, i, "--run", &runs, bad)) {
        if (runs && !add_runs(a, runs))
            *bad = true;
        return true;
    }
    if (cli_option(argc, argv, i, "--format", &a->format, bad) ||
        cli_option(argc, argv, i, "--table", &a->table, bad))
        return true;
    if (!strcmp(argv[*i], "--last") || !strcmp(argv[*i], "--compare")) {
        *(argv[*i][2] == 'l' ? &a->last : &a->compare) = true;
        return true;
    }
    return false;
}

/* Checks the combination of options; prints why it is wrong. */
static bool consistent(const report_args_t *a)
{
    if (!a->db)
        cli_error("report: which database? (tessera report DB)");
    else if (a->format && strcmp(a->format, "text") && strcmp(a->format, "csv") &&
             strcmp(a->format, "json"))
        cli_error("report: --format '%s': expected text, csv or json", a->format);
    else if (a->last && (a->n_runs || a->compare))
        cli_error("report: --last goes alone (--compare takes its runs from --run)");
    else if (!a->compare && a->n_runs > 1)
        cli_error("report: several runs given: compare them with --compare");
    else if (a->table && !report_table_known(a->table, a->compare))
        cli_error("report: --table '%s': expected %s", a->table,
                  a->compare ? "compare" : report_table_list());
    else
        return true;
    return false;
}

/* 0 ok, -1 --help (printed), TESS_EUSAGE, TESS_ENOMEM. */
static int parse(int argc, char **argv, report_args_t *a)
{
    bool bad = false;
    /* every id takes at least two characters of an argument ("1,") */
    size_t cap = 1;
    for (int i = 1; i < argc; i++)
        cap += strlen(argv[i]) / 2 + 1;
    a->runs = tess_calloc(cap, sizeof *a->runs);
    if (!a->runs)
        return TESS_ENOMEM;
    for (int i = 1; i < argc && !bad; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(report_help, stdout);
            return -1;
        }
        if (parse_option(argc, argv, &i, a, &bad))
            continue;
        if (argv[i][0] == '-' || a->db) {
            cli_error("report: unexpected argument '%s'", argv[i]);
            bad = true;
        }
        a->db = argv[i];
    }
    if (bad || !consistent(a)) {
        fputs(report_help, stderr);
        return TESS_EUSAGE;
    }
    return TESS_OK;
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
            rc = report_run(rep, run, &o, stdout, d);
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
    return rc < 0 ? TESS_OK : rc;
}

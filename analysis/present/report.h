/* report.h — `tessera report` as a library: reads a statistics database
 * (never the simulator) through its analysis views (store/views.h) and writes
 * a run's report, or a comparison of runs, as text, CSV or JSON. The file is
 * opened read-only (db_open_read) and is never created or modified; a file of
 * an older version gets the current views as TEMP views of the connection.
 * Every number of a report is a value of a view, unchanged (CSV and JSON)
 * or formatted (text). */
#ifndef TESSERA_REPORT_H
#define TESSERA_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "events/base/diag.h"

typedef enum report_format {
    REPORT_TEXT = 0,          /* aligned tables for a terminal */
    REPORT_CSV,               /* RFC 4180; each table: "# name", header, rows, blank line */
    REPORT_JSON,              /* one object: {"name": [ {column: value, …}, … ], …} */
} report_format_t;

typedef struct report_opts {
    uint8_t format;           /* report_format_t */
    const char *table;        /* write only this table (see report_table_known); NULL: all */
} report_opts_t;

typedef struct report report_t;

/* Opens the database at `path` read-only (db_open_read: works on a file or
 * file system it cannot write). Returns NULL with the reason in diag:
 * TESS_EIO when the file is missing, unreadable or not a regular file
 * (nothing is created), TESS_EDB when it is not a Tessera database, is of a
 * newer schema version, or cannot be queried; TESS_ENOMEM. */
report_t *report_open(const char *path, diag_t *diag);

/* Closes the connection. NULL is fine. */
void report_close(report_t *rep);

/* The largest run_id of the file. TESS_EINPUT when it holds no run,
 * TESS_EDB when the query failed. */
int report_last_run(report_t *rep, int64_t *run_id /* OUT */, diag_t *diag);

/* Writes the report of one run: tables summary, tasks, task_totals, cores,
 * banks, stalls, waiting, sm_latency. TESS_EINPUT: no such run or unknown
 * table; TESS_EDB: a query failed; TESS_EIO: writing `out` failed;
 * TESS_ENOMEM. What was written before a failure stays written. */
int report_run(report_t *rep, int64_t run_id, const report_opts_t *opts, FILE *out,
               diag_t *diag);

/* Writes the slot profile of one run (view slot_profile; table `slots`):
 * per frame (only `frame` when >= 0), each instruction slot's text beside
 * its counts and the cycles charged to it — SIMT: issued and stall cycles
 * by reason; MIMD: execute and SM wait, summed over the cores — the three
 * hottest slots of the run marked. Errors as report_run; TESS_EINPUT also
 * for a frame the run has no profile of. */
int report_slots(report_t *rep, int64_t run_id, int frame, const report_opts_t *opts, FILE *out,
                 diag_t *diag);

/* Writes the table `compare`: one row per run (`runs`, n of them, in the
 * order of their ids; n = 0: every run of the file) with the parameters
 * whose values differ between those runs (and the program, when it
 * differs) and the key results side by side. Errors as report_run. */
int report_compare(report_t *rep, const int64_t *runs, size_t n, const report_opts_t *opts,
                   FILE *out, diag_t *diag);

/* True when `name` is a table of a run's report (compare = false) or of a
 * comparison (compare = true). */
bool report_table_known(const char *name, bool compare);

/* "summary, tasks, …": the table names of a run's report, for messages. */
const char *report_table_list(void);

#endif

/* schema.h — creating and evolving the schema of a statistics database, for
 * the code that writes one (the recorder, merge): the tables the recorder
 * inserts into, their INSERTs, the indexes. Private to analysis/store/,
 * analysis/recorder/: readers use db.h only.
 * Invariant: a database is written only once it is known to be a Tessera
 * database (application_id DB_APP_ID) or a new, empty one. */
#ifndef TESSERA_SCHEMA_H
#define TESSERA_SCHEMA_H

#include "analysis/store/db.h"

/* The tables the recorder's writer inserts into (one prepared INSERT each). */
typedef enum rec_table {
    REC_T_FRAMES = 0,
    REC_T_STALLS,
    REC_T_TASKS,
    REC_T_PACKS,
    REC_T_COUNTERS,
    REC_T_EVENT_PACKS,
    REC_T_EVENT_NAMES,
    REC_T_SIMT_WARPS,
    REC_T_SIMT_MEM_PACKS,
    REC_T_SIMT_ISSUE_PACKS,
    REC_T_SIMT_OP_NAMES,
    REC_T_SLOT_COUNTS,
    REC_T_SIMT_WAITS,
    REC_TABLES
} rec_table_t;

/* Checks (db_identity), creates or migrates the schema of a database opened
 * for writing (the busy timeout already set): an older version is migrated
 * forward and gets every view anew (docs/SCHEMA.md, "Schema evolution"), in
 * one transaction that other processes creating or migrating the same file
 * wait for. Returns TESS_OK, or TESS_EDB/TESS_EIO with diag naming the
 * path; on failure a file that was not a Tessera database of a known
 * version and shape is left untouched. */
int schema_open(sqlite3 *db, const char *path, diag_t *diag);

/* Opens (creating it when it does not exist) the database at `path` for
 * writing: checks the path (db_check_path), sets the busy timeout before
 * anything else, then schema_open(). NULL with the reason in diag. The
 * connection is for one thread at a time (no mutex). */
sqlite3 *schema_open_write(const char *path, diag_t *diag);

/* The SQL that turns the tables of a file of version `version` into those
 * of version + 1 (NULL: that step changed only views, or no such step), as
 * schema_open runs it within its transaction. For the tests that prove an
 * old step still does what it did (tests/test_views.c). */
const char *schema_migration(int64_t version);

/* The generic step of a new stall reason (tables.h, "Adding a stall
 * reason"): adds to simt_warps and slot_counts each of `columns` (NULL-
 * terminated; NULL: schema_new_stalls) they lack, as INTEGER, 0 in the SIMT
 * rows already there (issued_cycles set), NULL in the others. The migration
 * runs it after every step to version 14 and later, within its transaction.
 * TESS_OK, or TESS_EDB/TESS_ENOMEM with diag naming the path. */
int schema_add_stalls(sqlite3 *db, const char *path, const char *const *columns, diag_t *diag);
/* The columns of the stall reasons newer than version 14, NULL-terminated. */
extern const char *const schema_new_stalls[];

/* Builds the indexes (after a run, after a merge). */
int schema_index(sqlite3 *db, const char *path, diag_t *diag);

/* Gives the connection every view of the current version as a TEMP view
 * (for a read-only connection to a file of an older `version`; the file is
 * not changed), and, before version 3, TEMP views that show its tables as
 * version 3 has them (typed params, runs.stop_ps, an empty races). */
int schema_temp_views(sqlite3 *db, const char *path, int64_t version, diag_t *diag);

/* Binds a parameter's canonical text as it is stored in params.value: an
 * INTEGER for a 64-bit integer written canonically, a REAL for another decimal
 * number, else the text (SQLITE_STATIC: it must outlive the statement's step).
 * Returns the SQLite code of the bind. */
int schema_bind_value(sqlite3_stmt *st, int idx, const char *value);

/* The INSERT text for a table, with run_id as parameter 1. */
const char *schema_insert(rec_table_t table);

#endif

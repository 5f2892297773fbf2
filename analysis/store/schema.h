/* schema.h — creating and evolving the schema of a statistics database, for
 * the code that writes one (the recorder, merge): the tables the recorder
 * inserts into, their INSERTs, the indexes. Readers use db.h only.
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
    REC_T_EVENTS,
    REC_TABLES
} rec_table_t;

/* Checks, creates or migrates the schema of an open database. Returns
 * TESS_OK, or TESS_EDB/TESS_EIO with diag naming the path; on failure a file
 * that was not a Tessera database is left untouched. */
int schema_open(sqlite3 *db, const char *path, diag_t *diag);

/* Builds the indexes (after a run, after a merge). */
int schema_index(sqlite3 *db, const char *path, diag_t *diag);

/* The INSERT text for a table, with run_id as parameter 1. */
const char *schema_insert(rec_table_t table);

#endif

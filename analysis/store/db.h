/* db.h — the statistics database as every part of Tessera opens it: its
 * identity (SQLite application_id and user_version, docs/SCHEMA.md) and the
 * few calls that report a connection's errors. The one place that says what
 * makes a file a Tessera database of this version. */
#ifndef TESSERA_DB_H
#define TESSERA_DB_H

#include <sqlite3.h>

#include "events/base/diag.h"

#define DB_APP_ID 0x54455353      /* PRAGMA application_id: "TESS" */
#define DB_SCHEMA_VERSION 2       /* PRAGMA user_version written by this code */

/* Reports the connection's last error as "path: what: errmsg", TESS_EIO
 * when the file could not be opened, TESS_ENOMEM, else TESS_EDB. */
int db_fail(sqlite3 *db, const char *path, const char *what, diag_t *diag);

/* Runs SQL without results; TESS_OK or db_fail(). */
int db_exec(sqlite3 *db, const char *path, const char *sql, diag_t *diag);

#endif

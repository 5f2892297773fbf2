/* db.c — what every connection to a statistics database shares (db.h):
 * reporting a connection's errors with the path and what was being done. */
#include "analysis/store/db.h"

#include <stdio.h>
#include <string.h>

#include "events/base/err.h"

int db_fail(sqlite3 *db, const char *path, const char *what, diag_t *diag)
{
    int err = sqlite3_errcode(db);
    int code = err == SQLITE_CANTOPEN ? TESS_EIO : err == SQLITE_NOMEM ? TESS_ENOMEM : TESS_EDB;
    return diag_fail(diag, code, "%s: %s: %s", path, what, sqlite3_errmsg(db));
}

int db_exec(sqlite3 *db, const char *path, const char *sql, diag_t *diag)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
        return TESS_OK;
    char what[64];
    snprintf(what, sizeof what, "%.40s%s", sql, strlen(sql) > 40 ? "…" : "");
    return db_fail(db, path, what, diag);
}

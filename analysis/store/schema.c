/* schema.c — the database's SQL: the schema (tables.h declares the tables,
 * views.c the views; docs/SCHEMA.md is the public description), its
 * evolution (docs/SCHEMA.md, "Schema evolution"), the INSERTs the writer runs
 * and the indexes built after a run. Invariant: a database is written only
 * once it is known to be a Tessera database of a known version and shape
 * (db_identity) or a new, empty one; user_version is the version it holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/store/schema.h"
#include "analysis/store/tables.h"
#include "analysis/store/views.h"
#include "events/base/err.h"

/* The tables (tables.h), as one CREATE TABLE each (a new file gets them all
 * at once, at the current version). Times are integer
 * picoseconds; NULL = not reached. */
#define COL_DEF(name, type) ", " #name " " type
#define CREATE_TABLE(table, LIST, key)                                           \
    "CREATE TABLE IF NOT EXISTS " #table "(run_id " key LIST(COL_DEF, COL_DEF) ");"
static const char tables_sql[] = DB_TABLES(CREATE_TABLE);

/* migrations[v] changes the tables of a version-v file into those of
 * version v + 1 (NULL: the tables did not change). The views are not
 * migrated: after any migration every view is dropped and re-created from
 * the one list (views.c). Version 2 added the analysis views only. */
static const char *const migrations[DB_SCHEMA_VERSION] = {[1] = NULL};

/* Built after a run, not before: appending to unindexed tables is cheaper,
 * and later runs append at the right edge of these (run_id first). */
static const char index_sql[] =
    "CREATE INDEX IF NOT EXISTS params_run ON params(run_id, key);"
    "CREATE INDEX IF NOT EXISTS counters_run ON counters(run_id, component, name);"
    "CREATE INDEX IF NOT EXISTS frames_run ON frames(run_id, frame);"
    "CREATE INDEX IF NOT EXISTS stalls_run ON stalls(run_id, frame);"
    "CREATE INDEX IF NOT EXISTS core_tasks_run ON core_tasks(run_id, frame, core);"
    "CREATE INDEX IF NOT EXISTS sm_access_packs_run"
    " ON sm_access_packs(run_id, frame, core, part);"
    "CREATE INDEX IF NOT EXISTS events_run ON events(run_id, seq);";

static const char *const insert_sql[REC_TABLES] = {
    [REC_T_FRAMES] = DB_INSERT_SQL(frames, DB_FRAMES),
    [REC_T_STALLS] = DB_INSERT_SQL(stalls, DB_STALLS),
    [REC_T_TASKS] = DB_INSERT_SQL(core_tasks, DB_CORE_TASKS),
    [REC_T_PACKS] = DB_INSERT_SQL(sm_access_packs, DB_SM_ACCESS_PACKS),
    [REC_T_COUNTERS] = DB_INSERT_SQL(counters, DB_COUNTERS),
    [REC_T_EVENTS] = DB_INSERT_SQL(events, DB_EVENTS),
};

const char *schema_insert(rec_table_t table) { return insert_sql[table]; }


/* PRAGMA journal_mode=WAL needs the file to itself for a moment, and
 * SQLite answers SQLITE_BUSY at once, without the busy handler, when
 * another process is setting it up too (two runs creating one file): it is
 * retried for up to DB_BUSY_MS. */
static int set_wal(sqlite3 *db, const char *path, diag_t *diag)
{
    for (int waited = 0;; waited += 20) {
        int rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            return TESS_OK;
        if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
            break;
        if (waited >= DB_BUSY_MS)
            break;
        sqlite3_sleep(20);
    }
    return db_fail(db, path, "PRAGMA journal_mode=WAL", diag);
}

static int set_pragmas(sqlite3 *db, const char *path, diag_t *diag)
{
    /* WAL + synchronous=NORMAL: a commit needs no fsync, readers may query
     * while a run writes, and a killed run never damages what earlier runs
     * committed. 64 KiB pages (new files only): the ~2 KiB pack rows fill
     * them to ~98% (4 KiB pages hold one such row: 20 instead of 11.5 bytes
     * per access), and fewer, larger writes cost less. The WAL is
     * checkpointed every 16 MiB; the page cache is 16 MiB. */
    int64_t page = 0;
    int rc = db_exec(db, path, "PRAGMA page_size=65536", diag);
    if (rc == TESS_OK)
        rc = set_wal(db, path, diag);
    if (rc == TESS_OK)
        rc = db_exec(db, path, "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-16384;", diag);
    if (rc != TESS_OK)
        return rc;
    if (db_query_int(db, "PRAGMA page_size", &page) != SQLITE_OK || page <= 0)
        return db_fail(db, path, "reading the page size", diag);
    if (sqlite3_wal_autocheckpoint(db, (int)((16 << 20) / page)) != SQLITE_OK)
        return db_fail(db, path, "setting the checkpoint interval", diag);
    return TESS_OK;
}

/* Runs `fmt` (with the view's name, then its SELECT) for every view of the
 * list, in order. */
static int each_view(sqlite3 *db, const char *path, const char *fmt, diag_t *diag)
{
    int rc = TESS_OK;
    for (const db_view_t *v = db_views; v->name && rc == TESS_OK; v++) {
        char *sql = sqlite3_mprintf(fmt, v->name, v->select);
        rc = sql ? db_exec(db, path, sql, diag)
                 : diag_fail(diag, TESS_ENOMEM, "%s: out of memory", path);
        sqlite3_free(sql);
    }
    return rc;
}

/* Drops the views of the list that exist and creates every view of it. */
static int renew_views(sqlite3 *db, const char *path, diag_t *diag)
{
    int rc = each_view(db, path, "DROP VIEW IF EXISTS main.\"%w\"", diag);
    return rc == TESS_OK ? each_view(db, path, "CREATE VIEW main.\"%w\" AS %s", diag) : rc;
}

/* Inside the write transaction: the file is as `version` says (0: new);
 * makes it DB_SCHEMA_VERSION. */
static int evolve(sqlite3 *db, const char *path, int64_t version, diag_t *diag)
{
    int rc = TESS_OK;
    if (version == 0)
        rc = db_exec(db, path, tables_sql, diag);
    for (int64_t v = version; version > 0 && rc == TESS_OK && v < DB_SCHEMA_VERSION; v++)
        if (migrations[v])
            rc = db_exec(db, path, migrations[v], diag);
    if (rc == TESS_OK)
        rc = renew_views(db, path, diag);
    char stamp[96];
    snprintf(stamp, sizeof stamp, "PRAGMA application_id=%d; PRAGMA user_version=%d;",
             DB_APP_ID, DB_SCHEMA_VERSION);
    return rc == TESS_OK ? db_exec(db, path, stamp, diag) : rc;
}

/* Brings the schema to DB_SCHEMA_VERSION in one write transaction. Several
 * processes may create or migrate one file at once: BEGIN IMMEDIATE makes
 * them take turns, and each looks again at what the file is once it holds
 * the write lock — the one before it may have done the work. */
static int upgrade(sqlite3 *db, const char *path, diag_t *diag)
{
    int64_t version = 0;
    int rc = db_exec(db, path, "BEGIN IMMEDIATE", diag);
    if (rc == TESS_OK)
        rc = db_identity(db, "main", path, true, &version, diag);
    if (rc == TESS_OK && version < DB_SCHEMA_VERSION)
        rc = evolve(db, path, version, diag);
    if (rc == TESS_OK)
        rc = db_exec(db, path, "COMMIT", diag);
    if (rc != TESS_OK)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int schema_open(sqlite3 *db, const char *path, diag_t *diag)
{
    int64_t version = 0;
    int rc = db_identity(db, "main", path, true, &version, diag);
    if (rc != TESS_OK)
        return rc;
    if (sqlite3_db_readonly(db, "main") == 1)
        return diag_fail(diag, TESS_EIO, "%s: the database is read-only", path);
    rc = set_pragmas(db, path, diag);
    if (rc == TESS_OK && version < DB_SCHEMA_VERSION)
        rc = upgrade(db, path, diag);
    return rc;
}

int schema_temp_views(sqlite3 *db, const char *path, diag_t *diag)
{
    return each_view(db, path, "CREATE TEMP VIEW IF NOT EXISTS \"%w\" AS %s", diag);
}

int schema_index(sqlite3 *db, const char *path, diag_t *diag)
{
    return db_exec(db, path, index_sql, diag);
}

sqlite3 *schema_open_write(const char *path, diag_t *diag)
{
    if (db_check_path(path, true, diag) != TESS_OK)
        return NULL;
    /* URI names are on (merge ATTACHes 'file:…' shards); a path that looks
     * like a URI itself is prefixed so that it stays a path. A file that
     * exists is opened without CREATE, so that probing it reads only. */
    struct stat st;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
    if (stat(path, &st) != 0)
        flags |= SQLITE_OPEN_CREATE;
    char *name = sqlite3_mprintf("%s%s", strncmp(path, "file:", 5) ? "" : "./", path);
    sqlite3 *db = NULL;
    int rc = name ? sqlite3_open_v2(name, &db, flags, NULL) : SQLITE_NOMEM;
    sqlite3_free(name);
    if (!db)
        diag_fail(diag, TESS_ENOMEM, "%s: out of memory opening the database", path);
    else if (rc != SQLITE_OK)
        db_fail(db, path, "cannot open the database", diag);
    else if (sqlite3_busy_timeout(db, DB_BUSY_MS) != SQLITE_OK)
        db_fail(db, path, "busy timeout", diag);
    else if (schema_open(db, path, diag) == TESS_OK)
        return db;
    sqlite3_close(db);
    return NULL;
}

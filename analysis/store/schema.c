/* schema.c — the database's SQL: the schema (docs/SCHEMA.md is its public
 * description), its versioning and migration, the INSERTs the writer runs and
 * the indexes built after a run. Invariant: a database is written only once
 * it is known to be a Tessera database (application_id DB_APP_ID) or a new,
 * empty one; user_version is the schema version it holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/store/schema.h"
#include "analysis/store/views.h"
#include "events/base/err.h"

/* Version 1. Times are integer picoseconds; NULL = not reached. */
static const char schema_v1[] =
    "CREATE TABLE IF NOT EXISTS runs("
    " run_id INTEGER PRIMARY KEY, program TEXT, program_sha256 TEXT, config TEXT,"
    " status TEXT NOT NULL, end_ps INTEGER, events INTEGER, wall_s REAL,"
    " version TEXT NOT NULL, started_at TEXT NOT NULL, data_sha256 TEXT, error TEXT,"
    " level TEXT NOT NULL, period_ps INTEGER, finished_at TEXT,"
    " from_ps INTEGER, to_ps INTEGER);"
    "CREATE TABLE IF NOT EXISTS params("
    " run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,"
    " key TEXT NOT NULL, value TEXT);"
    "CREATE TABLE IF NOT EXISTS counters("
    " run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,"
    " component TEXT NOT NULL, name TEXT NOT NULL, value INTEGER);"
    "CREATE TABLE IF NOT EXISTS frames("
    " run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,"
    " frame INTEGER NOT NULL, kind TEXT NOT NULL, grp INTEGER, mask INTEGER,"
    " fence TEXT, decode_ps INTEGER, issue_ps INTEGER, start_ps INTEGER,"
    " complete_ps INTEGER, decode_start_ps INTEGER, complete INTEGER NOT NULL,"
    " mask_hex TEXT GENERATED ALWAYS AS (printf('%04x', mask)) VIRTUAL);"
    "CREATE TABLE IF NOT EXISTS stalls("
    " run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,"
    " frame INTEGER NOT NULL, reason TEXT NOT NULL, blocker INTEGER,"
    " from_ps INTEGER, to_ps INTEGER);"
    "CREATE TABLE IF NOT EXISTS core_tasks("
    " run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,"
    " frame INTEGER NOT NULL, core INTEGER NOT NULL, start_ps INTEGER,"
    " finish_ps INTEGER, ready_ps INTEGER, instructions INTEGER, sm_ops INTEGER,"
    " sm_wait_ps INTEGER, sm_conflict_ps INTEGER, complete INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sm_access_packs("
    " run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,"
    " frame INTEGER NOT NULL, core INTEGER NOT NULL, part INTEGER NOT NULL,"
    " idx0 INTEGER NOT NULL, n INTEGER NOT NULL, base_ps INTEGER,"
    " scale_ps INTEGER NOT NULL, end_ps INTEGER, bank_shift INTEGER,"
    " arrive_dt INTEGER, arrive_n INTEGER NOT NULL, wait_dt INTEGER,"
    " wait_n INTEGER NOT NULL, done_dt INTEGER, done_n INTEGER NOT NULL,"
    " data TEXT NOT NULL);"
    /* One integer per access (rec_int.h), decoded with integer arithmetic.
     * A single SELECT, not a UNION: SQLite then computes only the columns a
     * query uses (a compound view computes every column of every row). */
    "CREATE VIEW IF NOT EXISTS sm_accesses AS"
    " SELECT run_id, frame, core, idx,"
    "  CASE q % 2 WHEN 0 THEN 'ld' ELSE 'st' END AS op, q / 2 % 2 AS sync,"
    "  q / 1024 % 4096 AS addr,"
    "  CASE WHEN bank_shift IS NULL THEN r % 16"
    "   ELSE (q / 1024 % 4096) >> bank_shift & 15 END AS bank,"
    "  q / 4 % 256 AS value,"
    "  base_ps + scale_ps * t AS request_ps,"
    "  base_ps + scale_ps * (t + a) AS arrive_ps,"
    "  base_ps + scale_ps * (t + a + g) AS grant_ps,"
    "  base_ps + scale_ps * (t + a + g + d) AS done_ps,"
    "  scale_ps * g AS wait_ps"
    " FROM (SELECT *, wait_dt + rg % wait_n AS g,"
    "   arrive_dt + rg / wait_n % arrive_n AS a,"
    "   done_dt + rg / wait_n / arrive_n % done_n AS d,"
    "   rg / wait_n / arrive_n / done_n AS t"
    "  FROM (SELECT p.run_id AS run_id, p.frame AS frame, p.core AS core,"
    "    p.idx0 + j.key AS idx, j.value AS q, p.base_ps AS base_ps, p.scale_ps AS scale_ps,"
    "    p.bank_shift AS bank_shift, p.arrive_dt AS arrive_dt, p.arrive_n AS arrive_n,"
    "    p.wait_dt AS wait_dt, p.wait_n AS wait_n, p.done_dt AS done_dt, p.done_n AS done_n,"
    "    j.value / 4194304 AS r,"
    "    j.value / 4194304 / CASE WHEN p.bank_shift IS NULL THEN 16 ELSE 1 END AS rg"
    "   FROM sm_access_packs AS p, json_each(p.data) AS j));"
    "CREATE TABLE IF NOT EXISTS events("
    " run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,"
    " seq INTEGER NOT NULL, time_ps INTEGER NOT NULL, prio INTEGER, name TEXT);";

/* migrations[v] takes a database from version v to v + 1. Version 2 adds
 * the analysis views (views.c). */
static const char *const migrations[DB_SCHEMA_VERSION] = {schema_v1, rec_views_sql};

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
    [REC_T_FRAMES] = "INSERT INTO frames(run_id, frame, kind, grp, mask, fence, decode_ps,"
                      " issue_ps, start_ps, complete_ps, decode_start_ps, complete)"
                      " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    [REC_T_STALLS] = "INSERT INTO stalls(run_id, frame, reason, blocker, from_ps, to_ps)"
                      " VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
    [REC_T_TASKS] = "INSERT INTO core_tasks(run_id, frame, core, start_ps, finish_ps,"
                     " ready_ps, instructions, sm_ops, sm_wait_ps, sm_conflict_ps, complete)"
                     " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    [REC_T_PACKS] = "INSERT INTO sm_access_packs(run_id, frame, core, part, idx0, n,"
                    " base_ps, scale_ps, end_ps, bank_shift, arrive_dt, arrive_n, wait_dt,"
                    " wait_n, done_dt, done_n, data) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
                    " ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
    [REC_T_COUNTERS] = "INSERT INTO counters(run_id, component, name, value)"
                        " VALUES(?1, ?2, ?3, ?4)",
    [REC_T_EVENTS] = "INSERT INTO events(run_id, seq, time_ps, prio, name)"
                      " VALUES(?1, ?2, ?3, ?4, ?5)",
};

const char *schema_insert(rec_table_t table) { return insert_sql[table]; }

/* One integer from a one-row query; -1 and the SQLite code in *rc on error. */
static int64_t query_int(sqlite3 *db, const char *sql, int *rc)
{
    sqlite3_stmt *st = NULL;
    int64_t v = -1;
    *rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (*rc == SQLITE_OK) {
        *rc = sqlite3_step(st);
        if (*rc == SQLITE_ROW) {
            v = sqlite3_column_int64(st, 0);
            *rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return v;
}

typedef struct probe {
    int64_t app_id, version, objects;
} probe_t;

/* Reads what the file is without writing anything. */
static int probe(sqlite3 *db, const char *path, probe_t *p, diag_t *diag)
{
    int rc;
    p->app_id = query_int(db, "PRAGMA application_id", &rc);
    if (rc == SQLITE_OK)
        p->version = query_int(db, "PRAGMA user_version", &rc);
    if (rc == SQLITE_OK)
        p->objects = query_int(db, "SELECT count(*) FROM sqlite_master", &rc);
    if (rc != SQLITE_OK)
        return db_fail(db, path, "not a usable SQLite database", diag);
    return TESS_OK;
}

/* Accepts a Tessera database of this or an older version, or an empty one. */
static int check_identity(const probe_t *p, const char *path, diag_t *diag)
{
    if (p->app_id == 0 && p->objects == 0)
        return TESS_OK;
    if (p->app_id != DB_APP_ID)
        return diag_fail(diag, TESS_EDB,
                         "%s: not a Tessera database (SQLite application_id 0x%llx, "
                         "%lld schema objects); refusing to modify it",
                         path, (unsigned long long)p->app_id, (long long)p->objects);
    if (p->version > DB_SCHEMA_VERSION || p->version < 0)
        return diag_fail(diag, TESS_EDB,
                         "%s: schema version %lld is not one this Tessera knows (up to %d)",
                         path, (long long)p->version, DB_SCHEMA_VERSION);
    return TESS_OK;
}

static int set_pragmas(sqlite3 *db, const char *path, diag_t *diag)
{
    /* WAL + synchronous=NORMAL: a commit needs no fsync, readers may query
     * while a run writes, and a killed run never damages what earlier runs
     * committed. 64 KiB pages (new files only): the ~2 KiB pack rows fill
     * them to ~98% (4 KiB pages hold one such row: 20 instead of 11.5 bytes
     * per access), and fewer, larger writes cost less. The WAL is
     * checkpointed every 16 MiB; the page cache is 16 MiB. */
    static const char sql[] = "PRAGMA page_size=65536; PRAGMA journal_mode=WAL;"
                              "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-16384;";
    if (sqlite3_busy_timeout(db, 10000) != SQLITE_OK)
        return db_fail(db, path, "busy timeout", diag);
    int rc = db_exec(db, path, sql, diag), qrc;
    if (rc != TESS_OK)
        return rc;
    int64_t page = query_int(db, "PRAGMA page_size", &qrc);
    if (qrc != SQLITE_OK || page <= 0)
        return db_fail(db, path, "reading the page size", diag);
    if (sqlite3_wal_autocheckpoint(db, (int)((16 << 20) / page)) != SQLITE_OK)
        return db_fail(db, path, "setting the checkpoint interval", diag);
    return TESS_OK;
}

/* Brings the schema from `from` to DB_SCHEMA_VERSION in one transaction. */
static int migrate(sqlite3 *db, const char *path, int64_t from, diag_t *diag)
{
    char stamp[96];
    int rc = db_exec(db, path, "BEGIN IMMEDIATE", diag);
    for (int64_t v = from; rc == TESS_OK && v < DB_SCHEMA_VERSION; v++)
        rc = db_exec(db, path, migrations[v], diag);
    snprintf(stamp, sizeof stamp, "PRAGMA application_id=%d; PRAGMA user_version=%d;",
             DB_APP_ID, DB_SCHEMA_VERSION);
    if (rc == TESS_OK)
        rc = db_exec(db, path, stamp, diag);
    if (rc == TESS_OK)
        rc = db_exec(db, path, "COMMIT", diag);
    if (rc != TESS_OK)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int schema_open(sqlite3 *db, const char *path, diag_t *diag)
{
    probe_t p = {0, 0, 0};
    int rc = probe(db, path, &p, diag);
    if (rc == TESS_OK)
        rc = check_identity(&p, path, diag);
    if (rc != TESS_OK)
        return rc;
    if (sqlite3_db_readonly(db, "main") == 1)
        return diag_fail(diag, TESS_EIO, "%s: the database is read-only", path);
    rc = set_pragmas(db, path, diag);
    if (rc == TESS_OK && (p.version < DB_SCHEMA_VERSION || p.app_id == 0))
        rc = migrate(db, path, p.app_id == 0 ? 0 : p.version, diag);
    return rc;
}

int schema_index(sqlite3 *db, const char *path, diag_t *diag)
{
    return db_exec(db, path, index_sql, diag);
}

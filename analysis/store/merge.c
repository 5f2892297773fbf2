/* merge.c — folding shard databases into one (see merge.h). The output is
 * created and validated by the store's own code (schema_open_write), so its
 * schema, views and version are exactly those of a `tessera run` database;
 * the shards are ATTACHed read-only (db_read_uri) and copied with INSERT …
 * SELECT. Invariant: everything a shard
 * adds — runs, rows, merged_runs, the in-memory set of known fingerprints —
 * is written in one transaction, and rolled back together. */
#include "analysis/store/merge.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/store/schema.h"
#include "analysis/store/runkey.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

#define MERGE_MAX_TABLES 32   /* run-keyed tables besides `runs` */

/* A run is known by its uid (runs.uid, drawn when it began: merge.h), so
 * that a run merged while in progress and again once finished is one run,
 * and two runs are two whenever they began. merged_runs.fingerprint keeps
 * the fingerprint earlier versions knew runs by (runkey.h, MERGE_FP_V11). */
#define FP_EXPR MERGE_FP_V11

#define NOW_UTC "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

struct merge {
    sqlite3 *db;              /* the output, with the shard attached while merging */
    char *path;               /* the output's path, for messages */
    char *runs_sql;           /* copies the mapped runs' `runs` rows */
    char *copy_sql[MERGE_MAX_TABLES]; /* copies the mapped runs' rows of one table */
    char *drop_sql[MERGE_MAX_TABLES]; /* deletes the replaced runs' rows of that table */
    size_t n_copy;
    bool seeded;              /* temp.merge_seen holds every run up to last_max */
    merge_skip_fn skip;       /* told of each run not copied, or NULL */
    void *skip_user;
    int64_t last_max;         /* the output's largest run_id seen */
};

/* The per-connection scratch tables: merge_seen (the uids in the output),
 * merge_fp (the shard's runs), merge_map (the shard's new runs and their
 * ids in the output). The output's bookkeeping table, merged_runs, is
 * created by the first shard that adds a run (merged_sql), so that a merge
 * that merges nothing leaves the output as it was. */
static const char setup_sql[] =
    "CREATE TEMP TABLE merge_seen(uid TEXT PRIMARY KEY, run_id INTEGER, status TEXT)"
    " WITHOUT ROWID;"
    "CREATE TEMP TABLE merge_fp(old_id INTEGER PRIMARY KEY, uid TEXT NOT NULL, status TEXT);"
    "CREATE TEMP TABLE merge_map(old_id INTEGER PRIMARY KEY, new_id INTEGER NOT NULL,"
    " uid TEXT NOT NULL, status TEXT, replaces INTEGER NOT NULL);";

static const char merged_sql[] =
    "CREATE TABLE IF NOT EXISTS main.merged_runs("
    " run_id INTEGER PRIMARY KEY REFERENCES runs ON DELETE CASCADE,"
    " fingerprint TEXT NOT NULL, shard TEXT, shard_run_id INTEGER, merged_at TEXT);";

/* --- small SQL helpers --------------------------------------------------------- */

/* One integer from a one-row query; SQLITE_OK or the error. */
static int query_int(sqlite3 *db, const char *sql, int64_t *out)
{
    int rc = db_query_int(db, sql, out);
    return rc == SQLITE_DONE ? SQLITE_ERROR : rc;
}

/* Runs `sql` with ?1 bound to `text`; adds the rows it changed to *changes. */
static int exec_bound(sqlite3 *db, const char *sql, const char *text, uint64_t *changes)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK && text)
        rc = sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
    if (rc == SQLITE_OK && changes)
        *changes += (uint64_t)sqlite3_changes64(db);
    sqlite3_finalize(st);
    return rc;
}

/* --- opening: the output and its tables ---------------------------------------- */

/* `, PREFIX"c1", PREFIX"c2", …`: the stored columns of main.`table` but run_id (hidden and
 * generated columns cannot be inserted). *has_run_id tells whether it has
 * one. Returns an sqlite3_malloc'd string or NULL (SQLite error or memory). */
static char *column_list(sqlite3 *db, const char *table, const char *prefix,
                         bool *has_run_id)
{
    sqlite3_stmt *st = NULL;
    *has_run_id = false;
    int rc = sqlite3_prepare_v2(db, "SELECT name, hidden FROM pragma_table_xinfo(?1, 'main')",
                                -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    sqlite3_str *s = sqlite3_str_new(db);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        const char *name = (const char *)sqlite3_column_text(st, 0);
        if (!name || sqlite3_column_int(st, 1) != 0)
            continue;
        if (!strcmp(name, "run_id"))
            *has_run_id = true;
        else
            sqlite3_str_appendf(s, ", %s\"%w\"", prefix, name);
    }
    sqlite3_finalize(st);
    char *cols = sqlite3_str_finish(s);
    if (rc != SQLITE_DONE) {
        sqlite3_free(cols);
        return NULL;
    }
    return cols ? cols : sqlite3_mprintf("%s", "");
}

/* The INSERT … SELECT that copies the mapped runs' rows of `table`; the
 * shard's table is scanned in storage order, each row's run looked up in
 * merge_map (CROSS JOIN fixes that order: a sequential read). NULL when
 * `table` has no run_id column or on error (*failed set). */
static char *make_copy_sql(sqlite3 *db, const char *table, bool *failed)
{
    bool keyed = false;
    char *cols = column_list(db, table, "", &keyed);
    char *sel = column_list(db, table, "t.", &keyed);
    char *sql = NULL;
    if (cols && sel && keyed)
        sql = sqlite3_mprintf("INSERT INTO main.\"%w\"(run_id%s) SELECT m.new_id%s"
                              " FROM shard.\"%w\" AS t CROSS JOIN temp.merge_map AS m"
                              " ON m.old_id = t.run_id",
                              table, cols, sel, table);
    *failed = !cols || !sel || (keyed && !sql);
    sqlite3_free(cols);
    sqlite3_free(sel);
    return sql;
}

/* Builds a copy statement per table of the output that has a run_id. */
static int build_copies(merge_t *m, diag_t *diag)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(m->db,
                                "SELECT name FROM main.sqlite_master WHERE type = 'table'"
                                " AND name NOT LIKE 'sqlite_%' AND name <> 'merged_runs'",
                                -1, &st, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *table = (const char *)sqlite3_column_text(st, 0);
        bool failed = false;
        char *sql = make_copy_sql(m->db, table, &failed);
        rc = failed ? SQLITE_NOMEM : SQLITE_OK;
        if (!sql)
            continue;
        if (!strcmp(table, "runs")) {
            m->runs_sql = sql;
        } else if (m->n_copy < MERGE_MAX_TABLES) {
            m->drop_sql[m->n_copy] = sqlite3_mprintf(
                "DELETE FROM main.\"%w\" WHERE run_id IN"
                " (SELECT new_id FROM temp.merge_map WHERE replaces)", table);
            m->copy_sql[m->n_copy++] = sql;
            rc = m->drop_sql[m->n_copy - 1] ? SQLITE_OK : SQLITE_NOMEM;
        } else {
            sqlite3_free(sql), rc = SQLITE_FULL;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(m->db, m->path, "reading the schema", diag);
    if (!m->runs_sql)
        return diag_fail(diag, TESS_EDB, "%s: no runs table", m->path);
    return TESS_OK;
}

/* Creates or migrates the output and prepares the copies: at the first
 * shard that has runs to add. */
static int open_output(merge_t *m, diag_t *diag)
{
    if (m->db)
        return TESS_OK;
    m->db = schema_open_write(m->path, diag);
    if (!m->db)
        return diag->code ? diag->code : TESS_EDB;
    sqlite3_busy_timeout(m->db, DB_MERGE_BUSY_MS);
    int rc = runkey_register(m->db);
    if (rc != SQLITE_OK)
        return db_fail(m->db, m->path, "registering tess_fp", diag);
    rc = db_exec(m->db, m->path,
                 "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536;"
                 " PRAGMA temp_store=MEMORY;", diag);
    if (rc == TESS_OK)
        rc = db_exec(m->db, m->path, setup_sql, diag);
    return rc == TESS_OK ? build_copies(m, diag) : rc;
}

/* The output as it is before anything is merged: a name SQLite keeps, and
 * missing, empty (a new file, or one another merge or run is creating this
 * moment), or a Tessera database (read only, db_read_uri). */
static int check_output(const char *path, diag_t *diag)
{
    struct stat st;
    int rc = db_check_path(path, true, diag);
    if (rc != TESS_OK || stat(path, &st) != 0 || st.st_size == 0)
        return rc;
    bool rw = false;
    char *uri = db_read_uri(path, false, &rw);
    if (!uri)
        return diag_fail(diag, TESS_ENOMEM, "%s: out of memory", path);
    sqlite3 *db = NULL;
    int64_t version = 0;
    rc = sqlite3_open_v2(uri, &db, (rw ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) |
                                       SQLITE_OPEN_URI, NULL);
    sqlite3_free(uri);
    if (!db)
        rc = diag_fail(diag, TESS_ENOMEM, "%s: out of memory", path);
    else if (rc != SQLITE_OK || sqlite3_busy_timeout(db, DB_MERGE_BUSY_MS) != SQLITE_OK)
        rc = db_fail(db, path, "cannot open the database", diag);
    else
        rc = db_identity(db, "main", path, true, &version, diag);
    sqlite3_close(db);
    return rc;
}

merge_t *merge_open(const char *out_path, diag_t *diag)
{
    merge_t *m = tess_calloc(1, sizeof *m);
    if (!m || !(m->path = tess_strdup(out_path))) {
        tess_free(m);
        diag_fail(diag, TESS_ENOMEM, "%s: out of memory", out_path);
        return NULL;
    }
    if (check_output(out_path, diag) != TESS_OK) {
        merge_close(m);
        return NULL;
    }
    return m;
}

void merge_set_skip(merge_t *m, merge_skip_fn fn, void *user)
{
    m->skip = fn;
    m->skip_user = user;
}

void merge_close(merge_t *m)
{
    if (!m)
        return;
    sqlite3_free(m->runs_sql);
    for (size_t i = 0; i < m->n_copy; i++)
        sqlite3_free(m->copy_sql[i]), sqlite3_free(m->drop_sql[i]);
    sqlite3_close(m->db);
    tess_free(m->path);
    tess_free(m);
}

/* --- one shard -------------------------------------------------------------------- */

/* The shard, opened on its own (db_open_read: path, identity, shape), is of
 * this schema version. Reads only. */
static int check_version(int64_t version, const char *shard, diag_t *diag)
{
    if (version != DB_SCHEMA_VERSION)
        return diag_fail(diag, TESS_EDB,
                         "%s: schema version %lld, but this Tessera merges version %d "
                         "(append a run to the shard with this Tessera to migrate it)",
                         shard, (long long)version, DB_SCHEMA_VERSION);
    return TESS_OK;
}

/* ATTACHes the shard read-only: mode=ro, or immutable when nobody can be
 * writing it (db_read_uri). */
static int attach(merge_t *m, const char *shard, diag_t *diag)
{
    char *uri = db_read_uri(shard, true, NULL);
    if (!uri)
        return diag_fail(diag, TESS_ENOMEM, "%s: out of memory", shard);
    int rc = exec_bound(m->db, "ATTACH ?1 AS shard", uri, NULL);
    sqlite3_free(uri);
    if (rc != SQLITE_OK)
        return db_fail(m->db, shard, "cannot open as a Tessera database", diag);
    return TESS_OK;
}

/* Adds to merge_seen the fingerprints of the output's runs not seen yet
 * (all of them the first time; later, those another process appended). */
static int update_seen(merge_t *m, const char *shard, diag_t *diag)
{
    char *sql = sqlite3_mprintf("INSERT OR IGNORE INTO temp.merge_seen SELECT uid,"
                                " run_id, status FROM main.runs WHERE run_id > %lld",
                                (long long)(m->seeded ? m->last_max : INT64_MIN));
    if (!sql)
        return diag_fail(diag, TESS_ENOMEM, "%s: out of memory", shard);
    int rc = db_exec(m->db, m->path, sql, diag);
    sqlite3_free(sql);
    if (rc == TESS_OK &&
        query_int(m->db, "SELECT coalesce(max(run_id), 0) FROM main.runs", &m->last_max))
        rc = db_fail(m->db, m->path, "reading runs", diag);
    m->seeded = rc == TESS_OK;
    return rc;
}

/* Tells m->skip about each run of the shard that is not copied, and why. */
static int report_skipped(merge_t *m, const char *shard, diag_t *diag)
{
    static const char sql[] =
        "SELECT f.old_id, s.run_id, f.status, s.status,"
        " (SELECT count(*) FROM temp.merge_fp AS g WHERE g.uid = f.uid AND g.old_id < f.old_id)"
        " FROM temp.merge_fp AS f LEFT JOIN temp.merge_seen AS s USING (uid)"
        " WHERE f.old_id NOT IN (SELECT old_id FROM temp.merge_map) ORDER BY f.old_id";
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(m->db, sql, -1, &st, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        merge_skip_t k = {sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                          (const char *)sqlite3_column_text(st, 2),
                          (const char *)sqlite3_column_text(st, 3),
                          sqlite3_column_int64(st, 4) > 0};
        m->skip(m->skip_user, shard, &k);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? TESS_OK : db_fail(m->db, shard, "listing skipped runs", diag);
}

/* Fills merge_map with the shard's runs the output lacks (one per uid),
 * numbered after the output's last run in shard order, and those that
 * finished since the output got them in progress ('running' there, not in
 * the shard), which replace that copy under its run_id. The shard's other
 * runs are skipped: each is reported to m->skip with the reason. */
#define RUNNING DB_SQL_TEXT(DB_STATUS_RUNNING_NAME)
#define OK DB_SQL_TEXT(DB_STATUS_OK_NAME)
static int map_runs(merge_t *m, const char *shard, merge_result_t *res, diag_t *diag)
{
    static const char sql[] =
        "DELETE FROM temp.merge_fp; DELETE FROM temp.merge_map;"
        "INSERT INTO temp.merge_fp SELECT run_id, uid, status FROM shard.runs;"
        "INSERT INTO temp.merge_map SELECT old_id,"
        " (SELECT coalesce(max(run_id), 0) FROM main.runs)"
        "  + row_number() OVER (ORDER BY old_id), uid, status, 0"
        " FROM (SELECT min(old_id) AS old_id, uid, status FROM temp.merge_fp"
        "  WHERE uid NOT IN (SELECT uid FROM temp.merge_seen) GROUP BY uid);"
        "INSERT INTO temp.merge_map SELECT f.old_id, s.run_id, f.uid, f.status, 1"
        " FROM temp.merge_fp AS f JOIN temp.merge_seen AS s USING (uid)"
        " WHERE s.status = " RUNNING " AND f.status <> " RUNNING
        "  AND f.old_id = (SELECT max(old_id) FROM temp.merge_fp AS g"
        "   WHERE g.uid = f.uid AND g.status <> " RUNNING ");";
    int64_t all = 0, added = 0, running = 0, first = 0, replaced = 0, ok = 0;
    int rc = db_exec(m->db, shard, sql, diag);
    if (rc != TESS_OK)
        return rc;
    if (query_int(m->db, "SELECT count(*) FROM temp.merge_fp", &all) ||
        query_int(m->db, "SELECT count(*) FROM temp.merge_map", &added) ||
        query_int(m->db, "SELECT count(*) FROM temp.merge_map WHERE status = " RUNNING,
                  &running) ||
        query_int(m->db, "SELECT count(*) FROM temp.merge_map WHERE replaces", &replaced) ||
        query_int(m->db, "SELECT count(*) FROM temp.merge_map WHERE status = " OK, &ok) ||
        query_int(m->db, "SELECT coalesce(min(new_id), 0) FROM temp.merge_map WHERE NOT replaces",
                  &first))
        return db_fail(m->db, shard, "mapping runs", diag);
    res->runs = (uint64_t)(added - replaced);
    res->replaced = (uint64_t)replaced;
    res->skipped = (uint64_t)(all - added);
    res->running = (uint64_t)running;
    res->ok = (uint64_t)ok;
    res->first_id = first;
    return res->skipped && m->skip ? report_skipped(m, shard, diag) : TESS_OK;
}

/* Copies the mapped runs, their rows, their provenance and fingerprints. */
static int copy_runs(merge_t *m, const char *shard, merge_result_t *res, diag_t *diag)
{
    static const char provenance[] =
        "INSERT INTO main.merged_runs(run_id, fingerprint, shard, shard_run_id, merged_at)"
        " SELECT m.new_id, " FP_EXPR ", ?1, m.old_id, " NOW_UTC
        " FROM temp.merge_map AS m JOIN shard.runs AS r ON r.run_id = m.old_id";
    if (exec_bound(m->db, merged_sql, NULL, NULL) != SQLITE_OK)
        return db_fail(m->db, shard, "creating merged_runs", diag);
    for (size_t i = 0; i < m->n_copy; i++)
        if (exec_bound(m->db, m->drop_sql[i], NULL, NULL) != SQLITE_OK)
            return db_fail(m->db, shard, "removing the in-progress copy of a run", diag);
    if (exec_bound(m->db, "DELETE FROM main.merged_runs WHERE run_id IN"
                   " (SELECT new_id FROM temp.merge_map WHERE replaces);"
                   , NULL, NULL) != SQLITE_OK ||
        exec_bound(m->db, "DELETE FROM main.runs WHERE run_id IN"
                   " (SELECT new_id FROM temp.merge_map WHERE replaces)", NULL, NULL) != SQLITE_OK)
        return db_fail(m->db, shard, "removing the in-progress copy of a run", diag);
    if (exec_bound(m->db, m->runs_sql, NULL, NULL) != SQLITE_OK)
        return db_fail(m->db, shard, "copying runs", diag);
    for (size_t i = 0; i < m->n_copy; i++)
        if (exec_bound(m->db, m->copy_sql[i], NULL, &res->rows) != SQLITE_OK)
            return db_fail(m->db, shard, "copying rows", diag);
    if (exec_bound(m->db, provenance, shard, NULL) != SQLITE_OK)
        return db_fail(m->db, shard, "recording merged_runs", diag);
    int rc = db_exec(m->db, shard,
                      "INSERT OR REPLACE INTO temp.merge_seen SELECT uid, new_id, status"
                      " FROM temp.merge_map",
                      diag);
    if (rc == TESS_OK &&
        query_int(m->db, "SELECT coalesce(max(run_id), 0) FROM main.runs", &m->last_max))
        rc = db_fail(m->db, m->path, "reading runs", diag);
    return rc == TESS_OK ? schema_index(m->db, m->path, diag) : rc;
}

/* The transaction of one attached shard. */
static int merge_attached(merge_t *m, const char *shard, merge_result_t *res, diag_t *diag)
{
    bool seeded = m->seeded;
    int64_t last_max = m->last_max;
    int rc = db_exec(m->db, m->path, "BEGIN IMMEDIATE", diag);
    if (rc != TESS_OK)
        return rc;
    rc = update_seen(m, shard, diag);
    if (rc == TESS_OK)
        rc = map_runs(m, shard, res, diag);
    if (rc == TESS_OK && res->runs + res->replaced > 0)
        rc = copy_runs(m, shard, res, diag);
    if (rc == TESS_OK)
        rc = db_exec(m->db, m->path, "COMMIT", diag);
    if (rc != TESS_OK) {
        sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
        m->seeded = seeded, m->last_max = last_max;
        memset(res, 0, sizeof *res);
    }
    return rc;
}

/* True when the shard is a regular file that SQLite reads as an empty
 * database — no application id, no schema object: a run creating it has not
 * committed its schema yet (a new file is empty, then its first transaction
 * writes the schema and the id together). Anything else, Tessera's or not,
 * is for db_open_read to judge. */
static bool being_created(const char *shard)
{
    diag_t quiet = {0};
    if (db_check_path(shard, false, &quiet) != TESS_OK || access(shard, R_OK) != 0)
        return false;
    char *uri = db_read_uri(shard, true, NULL); /* mode=ro: creates nothing */
    sqlite3 *db = NULL;
    int64_t version = -1;
    if (uri && sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) ==
                   SQLITE_OK &&
        sqlite3_busy_timeout(db, DB_BUSY_MS) == SQLITE_OK &&
        db_identity(db, "main", shard, true, &version, &quiet) != TESS_OK)
        version = -1;
    sqlite3_close(db);
    sqlite3_free(uri);
    return version == 0;
}

int merge_shard(merge_t *m, const char *shard, merge_result_t *res, diag_t *diag)
{
    memset(res, 0, sizeof *res);
    struct stat a, b;
    if (stat(shard, &a) == 0 && stat(m->path, &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
        return diag_fail(diag, TESS_EDB, "%s: is the output database itself", shard);
    /* This connection stays open until the shard is detached: closing last,
     * it removes the -wal/-shm that reading made (none when it could not
     * write there: then the shard is read through what exists, or as
     * immutable). */
    if (being_created(shard)) { /* nothing to merge yet: the output is not touched */
        res->empty = true;
        return TESS_OK;
    }
    int64_t version = 0;
    sqlite3 *own = db_open_read(shard, &version, diag);
    if (!own)
        return diag->code ? diag->code : TESS_EDB;
    int rc = check_version(version, shard, diag);
    int64_t runs = 0;
    if (rc == TESS_OK && db_query_int(own, "SELECT count(*) FROM runs", &runs) != SQLITE_OK)
        rc = db_fail(own, shard, "reading runs", diag);
    if (rc == TESS_OK && runs == 0) { /* nothing to merge: the output is not touched */
        sqlite3_close(own);
        return TESS_OK;
    }
    if (rc == TESS_OK)
        rc = open_output(m, diag);
    if (rc == TESS_OK)
        rc = attach(m, shard, diag);
    if (rc == TESS_OK)
        rc = merge_attached(m, shard, res, diag);
    if (m->db)
        sqlite3_exec(m->db, "DETACH shard", NULL, NULL, NULL);
    sqlite3_close(own);
    return rc;
}

/* schema.c — the database's SQL: the schema (tables.h declares the tables,
 * views.c the views; docs/SCHEMA.md is the public description), its
 * evolution (docs/SCHEMA.md, "Schema evolution"), the INSERTs the writer runs
 * and the indexes built after a run. Invariant: a database is written only
 * once it is known to be a Tessera database of a known version and shape
 * (db_identity) or a new, empty one; user_version is the version it holds. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/store/db.h"
#include "analysis/store/runkey.h"
#include "analysis/store/schema.h"
#include "analysis/store/tables.h"
#include "analysis/store/views.h"
#include "events/base/err.h"

/* The tables (tables.h), as one CREATE TABLE each (a new file gets them all
 * at once, at the current version). Times are integer
 * picoseconds; NULL = not reached. */
#define COL_DEF(name, type) ", " #name " " type
#define COMPAT_COL(name, type) ", NULL AS " #name
#define CREATE_TABLE(table, LIST, key)                                           \
    "CREATE TABLE IF NOT EXISTS " #table "(run_id " key LIST(COL_DEF, COL_DEF) ");"
static const char tables_sql[] = DB_TABLES(CREATE_TABLE);

/* A params value as version 3 stores it (schema_bind_value): an INTEGER when
 * the text is a canonical 64-bit integer, a REAL when it is a decimal number,
 * else the text itself. */
#define TYPED_VALUE(v)                                                           \
    "CASE WHEN typeof(" v ") <> 'text' THEN " v                                   \
    " WHEN " v " GLOB '[0-9]*' OR " v " GLOB '-[0-9]*' THEN"                      \
    " CASE WHEN CAST(CAST(" v " AS INTEGER) AS TEXT) = " v " THEN CAST(" v " AS INTEGER)" \
    " WHEN " v " NOT GLOB '*[^0-9.eE+-]*' AND " v " NOT GLOB '*.*.*'"             \
    " THEN CAST(" v " AS REAL) ELSE " v " END ELSE " v " END"

/* Version 3: params.value typed (the column loses its TEXT affinity, so the
 * table is rebuilt), runs.stop_ps (known for runs that finished: end_ps), the
 * races table. */
static const char migrate_v3[] =
    "ALTER TABLE runs ADD COLUMN stop_ps INTEGER;"
    "UPDATE runs SET stop_ps = end_ps WHERE status = " DB_SQL_TEXT(DB_STATUS_OK_NAME) ";"
    "CREATE TEMP TABLE params_v2 AS SELECT * FROM main.params;"
    "DROP TABLE main.params;"
    CREATE_TABLE(params, DB_PARAMS, DB_RUN_FK)
    "INSERT INTO main.params(run_id, key, value)"
    " SELECT run_id, key, " TYPED_VALUE("value") " FROM temp.params_v2;"
    "DROP TABLE temp.params_v2;"
    "CREATE INDEX IF NOT EXISTS params_run ON params(run_id, key);"
    CREATE_TABLE(races, DB_RACES, DB_RUN_FK);

/* Version 5: interval statistics. */
static const char migrate_v5[] = CREATE_TABLE(intervals, DB_INTERVALS, DB_RUN_FK);
/* Version 6: the SIMT tables (core.model = simt). */
static const char migrate_v6[] = CREATE_TABLE(simt_warps, DB_SIMT_WARPS_V6, DB_RUN_FK)
    CREATE_TABLE(simt_mem, DB_SIMT_MEM, DB_RUN_FK) CREATE_TABLE(simt_issue, DB_SIMT_ISSUE, DB_RUN_FK);

/* Version 9: the kernel's event log packed (store/evpack.h); the `events`
 * view shows the same rows as the table did. Each row of the old table becomes
 * a pack of one event (t = 0, prio_n = 1: the integer is its name's id), its
 * name an entry of its run's dictionary. */
static const char migrate_v9[] =
    CREATE_TABLE(event_packs, DB_EVENT_PACKS, DB_RUN_FK)
    CREATE_TABLE(event_names, DB_EVENT_NAMES, DB_RUN_FK)
    "INSERT INTO event_names(run_id, id, name)"
    " SELECT run_id, row_number() OVER (PARTITION BY run_id ORDER BY name), name"
    " FROM (SELECT DISTINCT run_id, name FROM main.events WHERE name IS NOT NULL);"
    "INSERT INTO event_packs(run_id, seq0, n, base_ps, scale_ps, prio0, prio_n, names_n, data)"
    " SELECT e.run_id, e.seq, 1, e.time_ps, 1, e.prio, 1, coalesce(nm.id, 0) + 1,"
    " json_array(coalesce(nm.id, 0)) FROM main.events AS e"
    " LEFT JOIN event_names AS nm ON nm.run_id = e.run_id AND nm.name = e.name;"
    "DROP TABLE main.events;";

/* Version 10: the SIMT issue port packed (store/sipack.h, in version 10's
 * layout: the frozen _V10 lists, whatever the current one); the simt_issue
 * view shows the same rows as the table did. Each old row becomes a pack of
 * one issue (every radix 1: its values are the packs' field minima), its
 * mnemonic an entry of its run's dictionary. */
#define MIGRATED_FIELD(f) ", " f ", 1, 1"
#define MIGRATED_ISSUE(A, f, show) MIGRATED_FIELD(MIGRATED_I_##show(f))
#define MIGRATED_I_PLAIN(f) "s." #f
#define MIGRATED_I_OPNAME(f) "coalesce(o.id, 0)"
static const char migrate_v10[] =
    CREATE_TABLE(simt_issue_packs, DB_SIMT_ISSUE_PACKS_V10, DB_RUN_FK)
    CREATE_TABLE(simt_op_names, DB_SIMT_OP_NAMES, DB_RUN_FK)
    "INSERT INTO simt_op_names(run_id, id, name)"
    " SELECT run_id, row_number() OVER (PARTITION BY run_id ORDER BY op), op"
    " FROM (SELECT DISTINCT run_id, op FROM main.simt_issue WHERE op IS NOT NULL);"
    "INSERT INTO simt_issue_packs(run_id" DB_SIMT_ISSUE_PACKS_V10(DB_COL_NAME, DB_NONE) ")"
    " SELECT s.run_id, 1, s.time_ps, 1, 1" SIPACK_ISSUE_FIELDS_V10(MIGRATED_ISSUE, ) ", '[0]'"
    " FROM main.simt_issue AS s"
    " LEFT JOIN simt_op_names AS o ON o.run_id = s.run_id AND o.name = s.op;"
    "DROP TABLE main.simt_issue;";

/* Version 11: the SIMT unit's warp ld/st packed in the same layout
 * (store/sipack.h, version 11's: the frozen _V11 list); the simt_mem view shows the same rows as the table did.
 * Each old row becomes a pack of one ld/st (every radix 1, scale_ps 1: its
 * values are the pack's field minima, its latency done_ps - issue_ps), in
 * the table's order. */
#define MIGRATED_MEM(A, f, show) MIGRATED_FIELD(MIGRATED_M_##show(f))
#define MIGRATED_M_PLAIN(f) #f
#define MIGRATED_M_LDST(f) "CASE op WHEN 'st' THEN 1 ELSE 0 END"
#define MIGRATED_M_LATENCY(f) "done_ps - issue_ps"
static const char migrate_v11[] =
    CREATE_TABLE(simt_mem_packs, DB_SIMT_MEM_PACKS_V11, DB_RUN_FK)
    "INSERT INTO simt_mem_packs(run_id" DB_SIMT_MEM_PACKS_V11(DB_COL_NAME, DB_NONE) ")"
    " SELECT run_id, 1, issue_ps, 1, 1" SIPACK_MEM_FIELDS_V11(MIGRATED_MEM, ) ", '[0]'"
    " FROM main.simt_mem ORDER BY rowid;"
    "DROP TABLE main.simt_mem;";

/* Version 12: every run has a unique identity, runs.uid — 128 random bits
 * (32 lowercase hex digits) drawn when the run begins (rec.c), by which
 * `tessera merge` knows a run. A migrated file's runs get the first 32
 * digits of the fingerprint merge knew them by until version 11
 * (MERGE_FP_V11: when and from which path they began, their run key), so
 * that two copies of one older file, migrated apart, still hold one run,
 * and a shard merged before is still known to its output. */
static const char migrate_v12[] =
    "ALTER TABLE runs ADD COLUMN uid TEXT;"
    "UPDATE runs SET uid = substr(" MERGE_FP_V11 ", 1, 32);";

/* Version 13: stack-less reconvergence (SIMT-SPEC S14): a barrier run's
 * warps record the most thread groups held at once, the convergence
 * barriers created and the cycles stalled for a barrier. Older runs have no
 * groups: NULL. */
static const char migrate_v13[] =
    "ALTER TABLE simt_warps ADD COLUMN max_groups INTEGER;"
    "ALTER TABLE simt_warps ADD COLUMN barriers INTEGER;"
    "ALTER TABLE simt_warps ADD COLUMN stall_barrier_cycles INTEGER;";

/* Version 14: the slot profile (slot_counts, the slot_profile view, as
 * version 14 made it: the frozen _V14 list), and the SIMT pipeline's stall
 * reasons in simt_warps (0 in the rows of runs before it: their warps had no
 * front end and no collectors). A reason newer than 14 is the generic
 * step's (schema_add_stalls). */
static const char migrate_v14[] =
    "ALTER TABLE simt_warps ADD COLUMN stall_fetch_cycles INTEGER;"
    "ALTER TABLE simt_warps ADD COLUMN stall_collector_cycles INTEGER;"
    "UPDATE simt_warps SET stall_fetch_cycles = 0, stall_collector_cycles = 0;"
    CREATE_TABLE(slot_counts, DB_SLOT_COUNTS_V14, DB_RUN_FK);

/* Version 15: the thread groups' waits at convergence barriers (S14), at
 * level events. Older runs have none. */
static const char migrate_v15[] = CREATE_TABLE(simt_waits, DB_SIMT_WAITS, DB_RUN_FK);

/* migrations[v] changes the tables of a version-v file into those of
 * version v + 1 (NULL: the tables did not change). The views are not
 * migrated: after any migration every view is dropped and re-created from
 * the one list (views.c). Version 2 added the analysis views only; version
 * 4 (sm.banks) only views: the packs' bank digit decoded with the run's
 * bank count, run_summary.banks; version 5 the intervals table; version 6
 * the SIMT tables; version 7 only a view: latest_ok_runs (sweep resume);
 * version 8 only views: mean latencies in cycles beside their _ps columns;
 * version 9 the packed event log; version 10 the packed SIMT issue port;
 * version 11 the packed SIMT ld/st; version 12 runs.uid; version 13 the
 * thread groups of simt_warps; version 14 the slot profile and simt_warps'
 * pipeline stalls; version 15 simt_waits. After each step to version 14 and
 * later, the generic step of the stall reasons newer than 14
 * (schema_add_stalls): a new reason's version has no step of its own. */
static const char *const migrations[DB_SCHEMA_VERSION] = {[1] = NULL, [2] = migrate_v3,
                                                           [3] = NULL, [4] = migrate_v5,
                                                           [5] = migrate_v6, [6] = NULL,
                                                           [7] = NULL, [8] = migrate_v9,
                                                           [9] = migrate_v10,
                                                           [10] = migrate_v11,
                                                           [11] = migrate_v12,
                                                           [12] = migrate_v13,
                                                           [13] = migrate_v14,
                                                           [14] = migrate_v15};

const char *schema_migration(int64_t version)
{
    return version >= 1 && version < DB_SCHEMA_VERSION ? migrations[version] : NULL;
}

/* The stall reasons newer than version 14 (tables.h, "Adding a stall
 * reason"), and what an older file's rows hold in their columns: 0 in a
 * SIMT row (its warps never stalled for a reason that did not exist yet),
 * NULL in a MIMD row of slot_counts (issued_cycles NULL), as a run writes. */
#define NEW_STALL(name, type) #name,
const char *const schema_new_stalls[] = {DB_STALLS_SINCE_V14(NEW_STALL) NULL};
#undef NEW_STALL
#define NEW_STALL_VALUE "CASE WHEN issued_cycles IS NOT NULL THEN 0 END"
static const char *const stall_tables[] = {"simt_warps", "slot_counts"};

int schema_add_stalls(sqlite3 *db, const char *path, const char *const *columns, diag_t *diag)
{
    int rc = TESS_OK;
    for (size_t t = 0; t < sizeof stall_tables / sizeof stall_tables[0]; t++)
        for (const char *const *c = columns ? columns : schema_new_stalls; *c && rc == TESS_OK;
             c++) {
            bool has = false;
            if (db_has_column(db, "main", stall_tables[t], *c, &has) != SQLITE_OK)
                return db_fail(db, path, "reading the schema", diag);
            if (has)
                continue;
            char *sql = sqlite3_mprintf("ALTER TABLE main.\"%w\" ADD COLUMN \"%w\" INTEGER;"
                                        " UPDATE main.\"%w\" SET \"%w\" = " NEW_STALL_VALUE ";",
                                        stall_tables[t], *c, stall_tables[t], *c);
            rc = sql ? db_exec(db, path, sql, diag)
                     : diag_fail(diag, TESS_ENOMEM, "%s: out of memory", path);
            sqlite3_free(sql);
        }
    return rc;
}

/* A reader of a file older than version 3 that it may not migrate sees its
 * tables as version 3 shapes them, through TEMP views of the same names
 * (unqualified names find TEMP objects first). */
static const char compat_v3[] =
    "CREATE TEMP VIEW IF NOT EXISTS runs AS"
    " SELECT *, CASE WHEN status = " DB_SQL_TEXT(DB_STATUS_OK_NAME) " THEN end_ps END AS stop_ps"
    " FROM main.runs;"
    "CREATE TEMP VIEW IF NOT EXISTS params AS"
    " SELECT run_id, key, " TYPED_VALUE("value") " AS value FROM main.params;"
    "CREATE TEMP VIEW IF NOT EXISTS races AS SELECT 0 AS run_id" DB_RACES(COMPAT_COL, COMPAT_COL)
    " WHERE 0;";

/* … and before version 5, an empty intervals. */
static const char compat_v5[] =
    "CREATE TEMP VIEW IF NOT EXISTS intervals AS SELECT 0 AS run_id"
    DB_INTERVALS(COMPAT_COL, COMPAT_COL) " WHERE 0;";
/* A reader of a file older than version 6: the SIMT tables, empty. */
static const char compat_v6[] =
    "CREATE TEMP VIEW IF NOT EXISTS simt_warps AS SELECT 0 AS run_id"
    DB_SIMT_WARPS(COMPAT_COL, COMPAT_COL) " WHERE 0;"
    "CREATE TEMP VIEW IF NOT EXISTS simt_mem AS SELECT 0 AS run_id"
    DB_SIMT_MEM(COMPAT_COL, COMPAT_COL) " WHERE 0;"
    "CREATE TEMP VIEW IF NOT EXISTS simt_issue AS SELECT 0 AS run_id"
    DB_SIMT_ISSUE(COMPAT_COL, COMPAT_COL) " WHERE 0;";
/* … older than version 14: no slot profile. */
static const char compat_v14[] =
    "CREATE TEMP VIEW IF NOT EXISTS slot_counts AS SELECT 0 AS run_id"
    DB_SLOT_COUNTS(COMPAT_COL, COMPAT_COL) " WHERE 0;";

/* … before version 15, no barrier waits. */
static const char compat_v15[] =
    "CREATE TEMP VIEW IF NOT EXISTS simt_waits AS SELECT 0 AS run_id"
    DB_SIMT_WAITS(COMPAT_COL, COMPAT_COL) " WHERE 0;";

/* A column a table of an older file may lack, and what its rows read. */
typedef struct compat_col {
    const char *column, *value;
} compat_col_t;

/* simt_warps' columns added after version 6 up to 14: no thread groups
 * before version 13 (NULL: the stack's), no pipeline stalls before version
 * 14 (0: there was no pipeline). */
static const compat_col_t warps_added[] = {{"max_groups", "NULL"},
                                           {"barriers", "NULL"},
                                           {"stall_barrier_cycles", "NULL"},
                                           {"stall_fetch_cycles", "0"},
                                           {"stall_collector_cycles", "0"}};

/* Appends ", value AS column" to `s` when the file's `table` lacks column. */
static int compat_add(sqlite3 *db, const char *table, const char *column, const char *value,
                      sqlite3_str *s)
{
    bool has = false;
    int rc = db_has_column(db, "main", table, column, &has);
    if (rc == SQLITE_OK && !has)
        sqlite3_str_appendf(s, ", %s AS \"%w\"", value, column);
    return rc;
}

/* An older file's `table` (simt_warps, slot_counts) as a TEMP view with the
 * columns it lacks — of `cols` (n of them) and of the stall reasons newer
 * than version 14 (schema_add_stalls' values) — and only those: a file
 * stamped older than its tables keeps them; no view when it lacks none. */
static int compat_columns(sqlite3 *db, const char *path, const char *table,
                          const compat_col_t *cols, size_t n, diag_t *diag)
{
    sqlite3_str *s = sqlite3_str_new(db);
    int rc = SQLITE_OK;
    for (size_t i = 0; i < n && rc == SQLITE_OK; i++)
        rc = compat_add(db, table, cols[i].column, cols[i].value, s);
    for (const char *const *c = schema_new_stalls; *c && rc == SQLITE_OK; c++)
        rc = compat_add(db, table, *c, NEW_STALL_VALUE, s);
    bool none = sqlite3_str_length(s) == 0, nomem = sqlite3_str_errcode(s) != SQLITE_OK;
    char *added = sqlite3_str_finish(s);
    char *sql = added ? sqlite3_mprintf("CREATE TEMP VIEW IF NOT EXISTS \"%w\" AS"
                                        " SELECT *%s FROM main.\"%w\";", table, added, table)
                      : NULL;
    if (rc != SQLITE_OK)
        rc = db_fail(db, path, "reading the schema", diag);
    else if (nomem)
        rc = diag_fail(diag, TESS_ENOMEM, "%s: out of memory", path);
    else if (none)
        rc = TESS_OK;
    else
        rc = sql ? db_exec(db, path, sql, diag)
                 : diag_fail(diag, TESS_ENOMEM, "%s: out of memory", path);
    sqlite3_free(added);
    sqlite3_free(sql);
    return rc;
}

int schema_bind_value(sqlite3_stmt *st, int idx, const char *v)
{
    char *end = NULL;
    errno = 0;
    long long i = v && *v ? strtoll(v, &end, 10) : 0;
    char canon[32];
    if (end && !*end && errno == 0) {
        snprintf(canon, sizeof canon, "%lld", i);
        if (strcmp(canon, v) == 0)
            return sqlite3_bind_int64(st, idx, i);
    }
    if (v && (isdigit((unsigned char)v[0]) || (v[0] == '-' && isdigit((unsigned char)v[1]))) &&
        strspn(v, "0123456789.eE+-") == strlen(v)) {
        double d = strtod(v, &end);
        if (!*end && isfinite(d))
            return sqlite3_bind_double(st, idx, d);
    }
    return sqlite3_bind_text(st, idx, v, -1, SQLITE_STATIC);
}

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
    "CREATE INDEX IF NOT EXISTS event_packs_run ON event_packs(run_id, seq0);"
    "CREATE INDEX IF NOT EXISTS event_names_run ON event_names(run_id, id);"
    "CREATE INDEX IF NOT EXISTS intervals_run ON intervals(run_id, kind, idx);"

    "CREATE INDEX IF NOT EXISTS simt_warps_run ON simt_warps(run_id, frame);"
    "CREATE INDEX IF NOT EXISTS simt_mem_packs_run ON simt_mem_packs(run_id, base_ps);"
    "CREATE INDEX IF NOT EXISTS simt_issue_packs_run ON simt_issue_packs(run_id, base_ps);"
    "CREATE INDEX IF NOT EXISTS simt_op_names_run ON simt_op_names(run_id, id);"
    "CREATE INDEX IF NOT EXISTS slot_counts_run ON slot_counts(run_id, frame, core, slot);"
    "CREATE INDEX IF NOT EXISTS simt_waits_run ON simt_waits(run_id, frame, from_ps);";

static const char *const insert_sql[REC_TABLES] = {
    [REC_T_FRAMES] = DB_INSERT_SQL(frames, DB_FRAMES),
    [REC_T_STALLS] = DB_INSERT_SQL(stalls, DB_STALLS),
    [REC_T_TASKS] = DB_INSERT_SQL(core_tasks, DB_CORE_TASKS),
    [REC_T_PACKS] = DB_INSERT_SQL(sm_access_packs, DB_SM_ACCESS_PACKS),
    [REC_T_COUNTERS] = DB_INSERT_SQL(counters, DB_COUNTERS),
    [REC_T_EVENT_PACKS] = DB_INSERT_SQL(event_packs, DB_EVENT_PACKS),
    [REC_T_EVENT_NAMES] = DB_INSERT_SQL(event_names, DB_EVENT_NAMES),
    [REC_T_SIMT_WARPS] = DB_INSERT_SQL(simt_warps, DB_SIMT_WARPS),
    [REC_T_SIMT_MEM_PACKS] = DB_INSERT_SQL(simt_mem_packs, DB_SIMT_MEM_PACKS),
    [REC_T_SIMT_ISSUE_PACKS] = DB_INSERT_SQL(simt_issue_packs, DB_SIMT_ISSUE_PACKS),
    [REC_T_SIMT_OP_NAMES] = DB_INSERT_SQL(simt_op_names, DB_SIMT_OP_NAMES),
    [REC_T_SLOT_COUNTS] = DB_INSERT_SQL(slot_counts, DB_SLOT_COUNTS),
    [REC_T_SIMT_WAITS] = DB_INSERT_SQL(simt_waits, DB_SIMT_WAITS),
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
     * checkpointed every 16 MiB (64 MiB measured the same; during a run the
     * recorder's checkpointer thread does it instead, rec_ckpt.c); the page
     * cache is 16 MiB. */
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

/* Is `name` a table of the file (main)? An older file's `events` is. */
static bool is_table(sqlite3 *db, const char *name)
{
    char *sql = sqlite3_mprintf("SELECT count(*) FROM main.sqlite_master"
                                " WHERE type = 'table' AND name = %Q", name);
    int64_t n = 0;
    bool found = sql && db_query_int(db, sql, &n) == SQLITE_OK && n > 0;
    sqlite3_free(sql);
    return found;
}

/* Runs `fmt` (with the view's name, then its SELECT) for every view of the
 * list, in order; with `skip_tables`, not for a view whose name is a table
 * of the file (a reader of a file older than version 9 reads its events
 * table itself: same columns, same rows). */
static int each_view(sqlite3 *db, const char *path, const char *fmt, bool skip_tables,
                     diag_t *diag)
{
    int rc = TESS_OK;
    for (const db_view_t *v = db_views; v->name && rc == TESS_OK; v++) {
        if (skip_tables && is_table(db, v->name))
            continue;
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
    int rc = each_view(db, path, "DROP VIEW IF EXISTS main.\"%w\"", false, diag);
    return rc == TESS_OK ? each_view(db, path, "CREATE VIEW main.\"%w\" AS %s", false, diag)
                         : rc;
}

/* Inside the write transaction: the file is as `version` says (0: new);
 * makes it DB_SCHEMA_VERSION. */
static int evolve(sqlite3 *db, const char *path, int64_t version, diag_t *diag)
{
    int rc = TESS_OK;
    if (version == 0)
        rc = db_exec(db, path, tables_sql, diag);
    for (int64_t v = version; version > 0 && rc == TESS_OK && v < DB_SCHEMA_VERSION; v++) {
        if (migrations[v])
            rc = db_exec(db, path, migrations[v], diag);
        if (rc == TESS_OK && v + 1 >= 14)
            rc = schema_add_stalls(db, path, NULL, diag);
    }
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
    if (runkey_register(db) != SQLITE_OK) /* tess_fp, for migrate_v12 */
        return db_fail(db, path, "registering tess_fp", diag);
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

int schema_temp_views(sqlite3 *db, const char *path, int64_t version, diag_t *diag)
{
    int rc = version < 3 ? db_exec(db, path, compat_v3, diag) : TESS_OK;
    if (rc == TESS_OK && version < 5)
        rc = db_exec(db, path, compat_v5, diag);
    if (rc == TESS_OK && version < 6)
        rc = db_exec(db, path, compat_v6, diag);
    /* (only what the file lacks: a file stamped older than its tables keeps them) */
    if (rc == TESS_OK && version < 14 && !is_table(db, "slot_counts"))
        rc = db_exec(db, path, compat_v14, diag);
    if (rc == TESS_OK && version >= 6)
        rc = compat_columns(db, path, "simt_warps", warps_added,
                            sizeof warps_added / sizeof warps_added[0], diag);
    if (rc == TESS_OK && is_table(db, "slot_counts"))
        rc = compat_columns(db, path, "slot_counts", NULL, 0, diag);
    /* (likewise) */
    if (rc == TESS_OK && version < 15 && !is_table(db, "simt_waits"))
        rc = db_exec(db, path, compat_v15, diag);
    return rc == TESS_OK ? each_view(db, path, "CREATE TEMP VIEW IF NOT EXISTS \"%w\" AS %s",
                                     true, diag)
                         : rc;
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

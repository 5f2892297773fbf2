/* db.c — what every connection to a statistics database shares (db.h): its
 * errors, the identity check, the checks on a path, and the read-only
 * connection of the readers. Invariant: nothing here writes to a file;
 * db_open_read() leaves a file, and the side files beside it, as it found
 * them (but for removing a -wal/-shm it made itself). */
#include "analysis/store/db.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/store/schema.h"
#include "analysis/store/tables.h"
#include "events/base/err.h"

#define DB_STATUS_NAME(id, name, meaning) [DB_STATUS_##id] = name,
const char *const db_status_names[DB_STATUS_COUNT] = {DB_STATUSES(DB_STATUS_NAME)};
#undef DB_STATUS_NAME

#define LEVEL_NAME(P, id, name, doc) [P##id] = name,
static const char *const level_names[REC_LEVEL_COUNT] = {REC_LEVELS(LEVEL_NAME)};
#undef LEVEL_NAME

const char *db_level_name(unsigned level)
{
    return level < REC_LEVEL_COUNT ? level_names[level] : "unknown";
}

int db_level_from_name(const char *name)
{
    for (int l = 0; l < REC_LEVEL_COUNT; l++)
        if (name && !strcmp(name, level_names[l]))
            return l;
    return -1;
}

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

int db_query_int(sqlite3 *db, const char *sql, int64_t *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *out = sqlite3_column_int64(st, 0);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/* db_fail(), but for a code that may not be the connection's (an
 * sqlite3_mprintf() that found no memory). */
static int fail_rc(sqlite3 *db, const char *path, const char *what, int rc, diag_t *diag)
{
    if (rc == SQLITE_NOMEM)
        return diag_fail(diag, TESS_ENOMEM, "%s: %s: out of memory", path, what);
    return db_fail(db, path, what, diag);
}

/* --- paths ------------------------------------------------------------------------ */

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

int db_check_name(const char *path, const char *what, diag_t *diag)
{
    if (!path[0])
        return diag_fail(diag, TESS_EUSAGE,
                         "%s: an empty path: SQLite would record into a temporary database "
                         "deleted at exit; name a file", what);
    if (!strcmp(path, ":memory:"))
        return diag_fail(diag, TESS_EUSAGE,
                         "%s ':memory:': SQLite's in-memory database, discarded at exit; name "
                         "a file (./:memory: for a file of that name)", what);
    return TESS_OK;
}

/* A writer needs its directory: SQLite creates the -wal and -shm beside the
 * file (and a new file itself). Said as what it is — SQLite's own words
 * were "cannot read the database: attempt to write a readonly database". */
static bool dir_writable(const char *path, diag_t *diag)
{
    char *copy = strdup(path);
    const char *dir = copy ? dirname(copy) : ".";
    bool ok = access(dir, W_OK) == 0 || errno == ENOENT || errno == ENOTDIR;
    if (!ok)
        diag_fail(diag, TESS_EIO,
                  "%s: cannot write the database: its directory '%s' is not writable (%s), and "
                  "SQLite keeps the database's -wal and -shm files beside it",
                  path, dir, strerror(errno));
    free(copy);
    return ok || !diag; /* without diag there is no code to return: let SQLite say it */
}

int db_check_path(const char *path, bool may_create, diag_t *diag)
{
    struct stat st;
    int named = may_create ? db_check_name(path, "the database", diag) : TESS_OK;
    if (named != TESS_OK)
        return named;
    if (may_create && !dir_writable(path, diag))
        return diag->code;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT && may_create)
            return TESS_OK;
        return diag_fail(diag, TESS_EIO, "%s: cannot open the database: %s", path,
                         strerror(errno));
    }
    if (S_ISDIR(st.st_mode))
        return diag_fail(diag, TESS_EIO, "%s: is a directory, not a database", path);
    if (!S_ISREG(st.st_mode))
        return diag_fail(diag, TESS_EIO,
                         "%s: is %s, not a database: a database must be a regular file",
                         path, kind_of(st.st_mode));
    /* SQLite names its -wal and -shm after the path it was given (a symlink
     * is followed, a hard link cannot be): writers through two names of one
     * file would keep two logs, and commits of one would be lost. */
    if (may_create && st.st_nlink > 1)
        return diag_fail(diag, TESS_EIO,
                         "%s: has %llu hard links: SQLite keeps a database's write-ahead log "
                         "beside the name it is opened by, so writers through two names would "
                         "lose runs; write through one name only (copy the file, or remove the "
                         "other links)",
                         path, (unsigned long long)st.st_nlink);
    return TESS_OK;
}

/* --- identity --------------------------------------------------------------------- */

/* Every table and its columns (run_id first), from tables.h. */
#define COL_NAME_ENTRY(name, type) #name,
#define SHAPE(table, LIST, key) {#table, {"run_id", LIST(COL_NAME_ENTRY, COL_NAME_ENTRY) NULL}},
static const struct shape {
    const char *table;
    const char *cols[40];
} shapes[] = {DB_TABLES(SHAPE)};

/* Does `schema`.`table` have `col`? SQLITE_OK, or the error. */
static int has_column(sqlite3 *db, const char *schema, const char *table, const char *col,
                      bool *has)
{
    char *sql = sqlite3_mprintf("SELECT count(*) FROM pragma_table_xinfo(%Q, %Q) WHERE name = %Q",
                                table, schema, col);
    int64_t n = 0;
    int rc = sql ? db_query_int(db, sql, &n) : SQLITE_NOMEM;
    sqlite3_free(sql);
    *has = n > 0;
    return rc;
}

/* What later versions added (a NULL column: the whole table): a file of an
 * older version has not got it yet. */
static const struct added {
    const char *table, *col;
    int64_t since;
} added[] = {{"runs", "stop_ps", 3},   {"races", NULL, 3},     {"intervals", NULL, 5},
                {"simt_warps", NULL, 6}, {"simt_mem", NULL, 6}, {"simt_issue", NULL, 6},
                {"event_packs", NULL, 9}, {"event_names", NULL, 9},
                {"simt_issue_packs", NULL, 10}, {"simt_op_names", NULL, 10},
                {"simt_mem_packs", NULL, 11}, {"runs", "uid", 12},
                {"simt_warps", "max_groups", 13}, {"simt_warps", "barriers", 13},
                {"simt_warps", "stall_barrier_cycles", 13},
                {"simt_warps", "stall_fetch_cycles", 14},
                {"simt_warps", "stall_collector_cycles", 14}, {"slot_counts", NULL, 14},
                {"simt_waits", NULL, 15}};

static bool not_yet(const char *table, const char *col, int64_t version)
{
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++)
        if (version < added[i].since && strcmp(added[i].table, table) == 0 &&
            (!added[i].col || strcmp(added[i].col, col) == 0))
            return true;
    return false;
}

/* The tables have every column declared for their version. */
static int check_shape(sqlite3 *db, const char *schema, const char *path, int64_t version,
                       diag_t *diag)
{
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++)
        for (const char *const *c = shapes[t].cols; *c; c++) {
            if (not_yet(shapes[t].table, *c, version))
                continue;
            bool has = false;
            int rc = has_column(db, schema, shapes[t].table, *c, &has);
            if (rc != SQLITE_OK)
                return fail_rc(db, path, "reading the schema", rc, diag);
            if (!has)
                return diag_fail(diag, TESS_EDB,
                                 "%s: carries Tessera's application id and schema version "
                                 "%lld, but its table %s has no column %s: not a Tessera "
                                 "schema; refusing to use it",
                                 path, (long long)version, shapes[t].table, *c);
        }
    return TESS_OK;
}

static int pragma_int(sqlite3 *db, const char *schema, const char *pragma, int64_t *out)
{
    char *sql = sqlite3_mprintf("PRAGMA \"%w\".%s", schema, pragma);
    int rc = sql ? db_query_int(db, sql, out) : SQLITE_NOMEM;
    sqlite3_free(sql);
    return rc;
}

/* db_identity() inside a read transaction (the caller's, or its own). */
static int identity(sqlite3 *db, const char *schema, const char *path, bool empty_ok,
                    int64_t *version, diag_t *diag)
{
    int64_t app = 0, ver = 0, objects = 0;
    char *count = sqlite3_mprintf("SELECT count(*) FROM \"%w\".sqlite_master", schema);
    int rc = pragma_int(db, schema, "application_id", &app);
    if (rc == SQLITE_OK)
        rc = pragma_int(db, schema, "user_version", &ver);
    if (rc == SQLITE_OK)
        rc = count ? db_query_int(db, count, &objects) : SQLITE_NOMEM;
    sqlite3_free(count);
    if (rc != SQLITE_OK)
        return fail_rc(db, path,
                       rc == SQLITE_NOTADB ? "not a Tessera database" : "cannot read the database",
                       rc, diag);
    *version = ver;
    if (app == 0 && objects == 0 && empty_ok) {
        *version = 0;
        return TESS_OK;
    }
    if (app != DB_APP_ID)
        return diag_fail(diag, TESS_EDB,
                         "%s: not a Tessera database (SQLite application_id 0x%llx, "
                         "%lld schema objects); refusing to use it",
                         path, (unsigned long long)app, (long long)objects);
    if (ver > DB_SCHEMA_VERSION)
        return diag_fail(diag, TESS_EDB,
                         "%s: schema version %lld is newer than this Tessera's (%d): "
                         "use a newer Tessera",
                         path, (long long)ver, DB_SCHEMA_VERSION);
    if (ver < 1)
        return diag_fail(diag, TESS_EDB,
                         "%s: schema version %lld is not one Tessera ever wrote (this "
                         "Tessera's is %d)",
                         path, (long long)ver, DB_SCHEMA_VERSION);
    return check_shape(db, schema, path, ver, diag);
}

int db_identity(sqlite3 *db, const char *schema, const char *path, bool empty_ok,
                int64_t *version, diag_t *diag)
{
    /* One snapshot: a process creating the file commits its tables and its
     * application id together, so separate reads could see one and not the
     * other. */
    bool own = sqlite3_get_autocommit(db) != 0;
    if (own && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return db_fail(db, path, "cannot read the database", diag);
    int rc = identity(db, schema, path, empty_ok, version, diag);
    if (own && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        if (rc == TESS_OK)
            rc = db_fail(db, path, "cannot read the database", diag);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
    return rc;
}

/* --- readers ------------------------------------------------------------------------ */

/* Can this process write `path` and its directory, and grow the -wal and
 * -shm it would create there? Under a file-size limit (ulimit -f,
 * RLIMIT_FSIZE) SQLite could not map its -shm (32 KiB at least) and would
 * fail with a disk I/O error: such a process reads as if it could not write. */
static bool writable(const char *path)
{
    struct rlimit fsize;
    if (getrlimit(RLIMIT_FSIZE, &fsize) == 0 && fsize.rlim_cur != RLIM_INFINITY)
        return false;
    if (access(path, W_OK) != 0)
        return false;
    char *copy = strdup(path);
    bool ok = copy && access(dirname(copy), W_OK) == 0;
    free(copy);
    return ok;
}

/* The size of "PATH-SUFFIX", -1 when it does not exist. */
static long long sidecar_size(const char *path, const char *suffix)
{
    char *name = sqlite3_mprintf("%s%s", path, suffix);
    struct stat st;
    long long size = name && stat(name, &st) == 0 ? (long long)st.st_size : -1;
    sqlite3_free(name);
    return size;
}

/* A writer is at work, or one was killed with commits in its -wal. */
static bool wal_in_use(const char *path)
{
    return sidecar_size(path, "-wal") > 0 || sidecar_size(path, "-shm") >= 0;
}

char *db_read_uri(const char *path, bool attach, bool *rw)
{
    bool w = writable(path);
    const char *query = w                  ? (attach ? "?mode=ro" : "?mode=rw")
                        : wal_in_use(path) ? "?mode=ro"
                                           : "?mode=ro&immutable=1";
    if (rw)
        *rw = w;
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendall(s, "file:");
    if (path[0] == '/' && path[1] == '/')
        sqlite3_str_appendall(s, "///");   /* an empty authority, then the path */
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#' || *p <= ' ' || *p >= 0x7f)
            sqlite3_str_appendf(s, "%%%02X", *p);
        else
            sqlite3_str_appendchar(s, 1, (char)*p);
    }
    sqlite3_str_appendall(s, query);
    return sqlite3_str_finish(s);
}

sqlite3 *db_open_read(const char *path, int64_t *version, diag_t *diag)
{
    if (db_check_path(path, false, diag) != TESS_OK)
        return NULL;
    if (access(path, R_OK) != 0) {
        diag_fail(diag, TESS_EIO, "%s: cannot read the database: %s", path, strerror(errno));
        return NULL;
    }
    bool rw = false;
    char *uri = db_read_uri(path, false, &rw);
    if (!uri) {
        diag_fail(diag, TESS_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    sqlite3 *db = NULL;
    int flags = (rw ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_URI;
    int rc = sqlite3_open_v2(uri, &db, flags, NULL);
    sqlite3_free(uri);
    int64_t v = 0;
    if (rc != SQLITE_OK || !db) {
        if (db)
            db_fail(db, path, "cannot open the database", diag);
        else
            diag_fail(diag, TESS_ENOMEM, "%s: out of memory", path);
    } else if (sqlite3_busy_timeout(db, DB_BUSY_MS) != SQLITE_OK) {
        db_fail(db, path, "cannot open the database", diag);
    } else if (!rw && sidecar_size(path, "-wal") > 0 && sidecar_size(path, "-shm") < 0 &&
               db_query_int(db, "PRAGMA schema_version", &v) == SQLITE_CANTOPEN) {
        diag_fail(diag, TESS_EIO,
                  "%s: cannot read it here: its write-ahead log (%s-wal) holds commits, and "
                  "SQLite reads those only with the -shm file beside it or with write "
                  "access to the directory (open it once where it is writable, or copy the "
                  "file and its -wal elsewhere)",
                  path, path);
    } else if (db_identity(db, "main", path, false, &v, diag) == TESS_OK &&
               (v == DB_SCHEMA_VERSION || schema_temp_views(db, path, v, diag) == TESS_OK)) {
        /* after the TEMP views, which query_only would refuse */
        if (!rw || sqlite3_exec(db, "PRAGMA query_only=1", NULL, NULL, NULL) == SQLITE_OK) {
            if (version)
                *version = v;
            return db;
        }
        db_fail(db, path, "cannot open the database", diag);
    }
    sqlite3_close(db);
    return NULL;
}

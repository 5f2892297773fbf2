/* db.h — the statistics database as every part of Tessera opens it: its
 * identity (SQLite application_id, user_version and the shape of its tables,
 * docs/SCHEMA.md), the busy timeout, the checks on a path before SQLite sees
 * it, and the read-only connection every reader uses (report, timeline,
 * export, merge's shards). The one place that says what makes a file a
 * Tessera database of this version. */
#ifndef TESSERA_DB_H
#define TESSERA_DB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/store/rec_level.h"
#include "events/base/diag.h"

#define DB_APP_ID 0x54455353      /* PRAGMA application_id: "TESS" */

/* The two statuses that SQL text selects on, as literals (the list below
 * names them by these): WHERE status = " DB_SQL_TEXT(DB_STATUS_OK_NAME) ". */
#define DB_STATUS_RUNNING_NAME "running"
#define DB_STATUS_OK_NAME "ok"
#define DB_SQL_TEXT(literal) "'" literal "'"

/* The values of runs.status, one list (docs/SCHEMA.md): X(ID, "name",
 * "meaning"). The run API decides them (api/tessera.c), the recorder writes
 * them (analysis/recorder/rec.c), readers select on them, and the Python
 * binding gets them in its generated module (cmake/gen-pycodes.c). */
#define DB_STATUSES(X)                                                                      \
    X(RUNNING, DB_STATUS_RUNNING_NAME, "the run is under way, or its process was killed")  \
    X(OK, DB_STATUS_OK_NAME, "every frame finished")                                        \
    X(WATCHDOG, "watchdog", "a task exceeded core.budget (D12)")                           \
    X(INTERRUPTED, "interrupted", "SIGINT, SIGTERM or tessera_stop")                       \
    X(TIME_LIMIT, "time_limit", "sim.time_limit reached")                                  \
    X(WALL_LIMIT, "wall_limit", "sim.wall_limit reached")                                  \
    X(RECORD_LIMIT, "record_limit", "record.max_mb reached: the run's database grew past it") \
    X(TIME_OVERFLOW, "time_overflow", "an event would lie past the end of simulated time")  \
    X(DEADLOCK, "deadlock", "work left and nothing scheduled (a D16 lock never released)") \
    X(ERROR, "error", "out of memory, a policy's wrong answer, a recording failure")

#define DB_STATUS_ENUM(id, name, meaning) DB_STATUS_##id,
typedef enum db_status { DB_STATUSES(DB_STATUS_ENUM) DB_STATUS_COUNT } db_status_t;
#undef DB_STATUS_ENUM

/* runs.status's text of a status. */
extern const char *const db_status_names[DB_STATUS_COUNT];

/* The values of runs.level: the record levels (REC_LEVELS, rec_level.h),
 * each recording what the one before it does and more, so that a reader
 * asks `db_level_from_name(level) >= REC_MEM` whether a run has its SM
 * accesses. The level's name ("summary", "tasks", "mem", "events"), or
 * "unknown"; the level called `name` (may be NULL), or -1 when none is. */
const char *db_level_name(unsigned level);
int db_level_from_name(const char *name);
#define DB_SCHEMA_VERSION 15      /* PRAGMA user_version written by this code */

/* How long a connection waits for another's lock before giving up: a
 * writer holds it for one batch (milliseconds) or one schema creation; a
 * merge holds the output's for a whole shard, so waits for it are longer. */
#define DB_BUSY_MS 10000
#define DB_MERGE_BUSY_MS 30000

/* Routes SQLite's allocations through events/base/alloc.h (fault injection),
 * for every command, writer or reader. Call before SQLite is first used;
 * returns TESS_OK or TESS_EDB (db_alloc.c). */
int db_use_tess_alloc(void);

/* Reports the connection's last error as "path: what: errmsg", TESS_EIO
 * when the file could not be opened, TESS_ENOMEM, else TESS_EDB. */
int db_fail(sqlite3 *db, const char *path, const char *what, diag_t *diag);

/* Runs SQL without results; TESS_OK or db_fail(). */
int db_exec(sqlite3 *db, const char *path, const char *sql, diag_t *diag);

/* The first column of the first row of `sql` as an integer (NULL: 0).
 * SQLITE_OK, SQLITE_DONE when there is no row, or the error. */
int db_query_int(sqlite3 *db, const char *sql, int64_t *out /* OUT */);

/* A name SQLite would not take as a file: "" (a temporary database,
 * deleted when closed) or ":memory:" (one in memory). Everything recorded
 * into either is lost at exit, so a database is never written there:
 * TESS_EUSAGE naming `what` (an option, "the database") and why; TESS_OK
 * for any other name. */
int db_check_name(const char *path, const char *what, diag_t *diag);

/* A path a database may live at: an existing regular file, or (when
 * `may_create`) a name that does not exist yet. TESS_EIO naming the path
 * and what it is otherwise — a directory, a device, a FIFO, a socket — so
 * that SQLite never opens (nor puts a -journal beside) such a thing; with
 * `may_create` (a writer), TESS_EUSAGE for a name db_check_name() refuses
 * and TESS_EIO for a file with more than one hard link (SQLite's -wal is
 * named after the path: writers through two names would lose commits). */
int db_check_path(const char *path, bool may_create, diag_t *diag);

/* Checks that the database `schema` ("main", or an attached name) of `db`
 * is a Tessera database whose version this code reads or migrates (1 to
 * DB_SCHEMA_VERSION) and whose tables have every column tables.h declares;
 * *version is its version. A new, empty file is accepted as version 0 when
 * `empty_ok`. Reads only. TESS_EDB with a message naming the path (and both
 * versions when the version is the problem); TESS_EIO when it cannot be
 * read at all. */
int db_identity(sqlite3 *db, const char *schema, const char *path, bool empty_ok,
                int64_t *version /* OUT */, diag_t *diag);

/* The URI a reader opens `path` with ("file:…?mode=…"; sqlite3_free it),
 * chosen so that reading works on a file or file system this process
 * cannot write and leaves no -wal/-shm behind that were not there:
 *   - file and directory writable: mode=rw (the caller must only read:
 *     db_open_read sets query_only); closing removes the -wal and -shm. To
 *     ATTACH (`attach`), mode=ro: the caller then keeps a db_open_read()
 *     connection open until after DETACH, which removes them on closing;
 *   - else, a -wal beside the file (a writer is, or was, at work): mode=ro,
 *     which SQLite can read through the existing -wal/-shm;
 *   - else: immutable=1 — nobody this process knows of can change the
 *     file, and everything committed is in it.
 * *writable (may be NULL) tells which of the first case. NULL: no memory. */
char *db_read_uri(const char *path, bool attach, bool *writable /* OUT */);

/* Opens the database at `path` for reading: checks the path (nothing is
 * created), opens it through db_read_uri(), sets the busy timeout before
 * anything else, checks its identity (db_identity) and, for a file of an
 * older version, gives the connection the current views as TEMP views (the
 * file is not changed). *version (may be NULL) is the file's version.
 * Returns NULL with the reason in diag: TESS_EIO (missing, a directory or
 * other non-file, unreadable), TESS_EDB (not a Tessera database, another
 * version or shape, SQLite failure), TESS_ENOMEM. Never modifies the file. */
sqlite3 *db_open_read(const char *path, int64_t *version /* OUT */, diag_t *diag);

#endif

/* rec_ckpt.c — the checkpointer: during a run, a thread with its own
 * connection to the file copies the WAL into the database (a PASSIVE
 * checkpoint, with the syncs synchronous=NORMAL asks for), so that the
 * writer thread does not wait for them. SQLite's automatic checkpoint runs
 * on the committing thread: with level mem's ~11.5 bytes per access the
 * writer waited for a checkpoint every 16 MiB (two fdatasyncs and the copy,
 * ~15-25 ms each, ~0.15-0.3 s a run on bench.s) while the simulation filled
 * its batches; the writer is the slower of the two threads.
 *
 * A passive checkpoint alone never lets the WAL restart (the writer appends
 * while it copies, so the WAL is never fully copied; measured: it grew to
 * 120 MB): so after the checkpointer's copy the writer copies what came
 * since itself (a batch or two: short syncs), and the next transaction
 * starts the WAL over. Invariants: the WAL holds at most REC_CKPT_MAX
 * checkpoint intervals (the writer waits for the checkpointer beyond);
 * crash safety is SQLite's own (WAL, synchronous=NORMAL: every checkpoint
 * syncs the WAL before writing the database and the database after); when
 * the checkpointer cannot start, SQLite's automatic checkpoint stays. */
#include <string.h>

#include "analysis/recorder/rec_int.h"
#include "analysis/store/db.h"

/* Checkpoint intervals the WAL may hold before the writer waits. */
#define REC_CKPT_MAX 4
/* What the writer copies itself: at most this fraction of an interval. */
#define REC_CKPT_REST 8

static void *ckpt_main(void *arg)
{
    rec_ckpt_t *c = arg;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (!c->want && !c->stop)
            pthread_cond_wait(&c->cv, &c->mu);
        if (c->stop) /* rec_close copies what is left */
            break;
        c->want = false;
        c->busy = true;
        pthread_mutex_unlock(&c->mu);
        /* failures are harmless: the writer copies the rest, and the WAL
           stays correct whatever was copied */
        int copied = 0;
        if (sqlite3_wal_checkpoint_v2(c->db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, &copied) !=
            SQLITE_OK)
            copied = 0;
        pthread_mutex_lock(&c->mu);
        c->busy = false;
        c->copied = copied > 0 ? copied : 0;
        pthread_cond_broadcast(&c->cv);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* The writer's connection committed; the WAL has `frames` pages (the
 * writer's thread, SQLite's WAL hook). From interval pages on, the
 * checkpointer copies in passes, each what came before it started; once
 * what remains is short (REC_CKPT_REST of an interval), the writer copies
 * it itself and the next transaction starts the WAL over. */
static int on_commit(void *arg, sqlite3 *db, const char *name, int frames)
{
    rec_ckpt_t *c = arg;
    (void)name;
    pthread_mutex_lock(&c->mu);
    if (frames < c->interval) { /* the WAL started over: what was copied is of the old one */
        if (!c->busy)
            c->copied = 0;
        pthread_mutex_unlock(&c->mu);
        return SQLITE_OK;
    }
    while (c->busy && frames >= REC_CKPT_MAX * c->interval)
        pthread_cond_wait(&c->cv, &c->mu);
    bool copy_rest = false;
    if (!c->busy) {
        if ((c->copied && frames - c->copied <= c->interval / REC_CKPT_REST) ||
            frames >= REC_CKPT_MAX * c->interval) { /* short, or the passes do not catch up */
            copy_rest = true;
            c->copied = 0;
        } else {
            c->want = true; /* a first pass, or another for what came during the last */
            pthread_cond_broadcast(&c->cv);
        }
    }
    pthread_mutex_unlock(&c->mu);
    if (copy_rest)
        sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    return SQLITE_OK;
}

/* The checkpointer's connection: the writer's file, without the schema
 * work (a checkpoint needs none) and with its synchronous setting. */
static sqlite3 *ckpt_open(sqlite3 *wdb)
{
    const char *file = sqlite3_db_filename(wdb, "main");
    sqlite3 *db = NULL;
    if (!file || !*file ||
        sqlite3_open_v2(file, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
            SQLITE_OK ||
        sqlite3_busy_timeout(db, DB_BUSY_MS) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

void rec_ckpt_start(rec_ckpt_t *c, sqlite3 *wdb)
{
    int64_t page = 0;
    if (c->running || db_query_int(wdb, "PRAGMA page_size", &page) != SQLITE_OK || page <= 0)
        return;
    if (!c->db && !(c->db = ckpt_open(wdb)))
        return;
    if (!c->locks) {
        if (pthread_mutex_init(&c->mu, NULL) != 0)
            return;
        if (pthread_cond_init(&c->cv, NULL) != 0) {
            pthread_mutex_destroy(&c->mu);
            return;
        }
        c->locks = true;
    }
    c->interval = (int)((c->bytes ? c->bytes : REC_CKPT_BYTES) / page);
    c->interval = c->interval > 1 ? c->interval : 1;
    c->auto_interval = (int)(REC_CKPT_BYTES / page);
    c->want = c->busy = c->stop = false;
    c->copied = 0;
    if (pthread_create(&c->thread, NULL, ckpt_main, c) != 0)
        return;
    c->running = true;
    sqlite3_wal_hook(wdb, on_commit, c); /* instead of the automatic checkpoint */
}

void rec_ckpt_last(rec_ckpt_t *c)
{
    if (!c->running)
        return;
    pthread_mutex_lock(&c->mu);
    c->want = true;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

void rec_ckpt_stop(rec_ckpt_t *c, sqlite3 *wdb)
{
    if (!c->running)
        return;
    pthread_mutex_lock(&c->mu);
    c->stop = true;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    pthread_join(c->thread, NULL);
    c->running = false;
    sqlite3_wal_autocheckpoint(wdb, c->auto_interval); /* SQLite's own again (schema.c's) */
}

void rec_ckpt_free(rec_ckpt_t *c, sqlite3 *wdb)
{
    rec_ckpt_stop(c, wdb);
    sqlite3_close(c->db);
    c->db = NULL;
    if (c->locks) {
        pthread_cond_destroy(&c->cv);
        pthread_mutex_destroy(&c->mu);
        c->locks = false;
    }
}

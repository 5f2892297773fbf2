/* rec_writer.c — the writer thread: takes full batches from a bounded queue
 * and writes each in one transaction with prepared INSERTs, so that SQLite's
 * work overlaps the simulation. Invariant: the REC_BATCHES batches are
 * always each in exactly one place — the producer's hand, the queue, the
 * writer's hand, or the spare list — so memory is bounded and the producer
 * blocks (never drops) while the writer holds every batch. After a failed
 * write the writer keeps draining the queue without writing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rec_int.h"
#include "events/err.h"

static const char *const fence_names[4] = {"no", "acq", "rel", "reserved"};

/* --- binding one row --------------------------------------------------- */

static int bind_time(sqlite3_stmt *st, int i, sim_time_t t)
{
    if (t > (sim_time_t)INT64_MAX)
        return sqlite3_bind_null(st, i);
    return sqlite3_bind_int64(st, i, (sqlite3_int64)t);
}

static int bind_u64(sqlite3_stmt *st, int i, uint64_t v)
{
    if (v > (uint64_t)INT64_MAX)
        return sqlite3_bind_double(st, i, (double)v);
    return sqlite3_bind_int64(st, i, (sqlite3_int64)v);
}

static int bind_text(sqlite3_stmt *st, int i, const rec_batch_t *b, uint32_t off, uint32_t len)
{
    if (len == UINT32_MAX)
        return sqlite3_bind_null(st, i);
    return sqlite3_bind_text(st, i, b->text + off, (int)len, SQLITE_STATIC);
}

static int bind_frame(sqlite3_stmt *st, const gpu_tr_frame_t *f)
{
    int rc = sqlite3_bind_int(st, 2, f->frame);
    rc |= sqlite3_bind_text(st, 3, f->is_if ? "IF" : "CF", 2, SQLITE_STATIC);
    rc |= sqlite3_bind_int(st, 4, f->grp);
    rc |= sqlite3_bind_int(st, 5, f->mask);
    rc |= sqlite3_bind_text(st, 6, fence_names[f->fence & 3], -1, SQLITE_STATIC);
    rc |= bind_time(st, 7, f->decode_ps);
    rc |= bind_time(st, 8, f->issue_ps);
    rc |= bind_time(st, 9, f->is_if ? f->start_ps : SIM_TIME_NEVER);
    rc |= bind_time(st, 10, f->is_if ? f->complete_ps : SIM_TIME_NEVER);
    rc |= bind_time(st, 11, f->decode_start_ps);
    rc |= sqlite3_bind_int(st, 12, f->complete);
    return rc;
}

static int bind_stall(sqlite3_stmt *st, const gpu_tr_stall_t *s)
{
    int rc = sqlite3_bind_int(st, 2, s->frame);
    rc |= sqlite3_bind_text(st, 3, gpu_stall_name(s->reason), -1, SQLITE_STATIC);
    rc |= s->blocker == 0xff ? sqlite3_bind_null(st, 4) : sqlite3_bind_int(st, 4, s->blocker);
    rc |= bind_time(st, 5, s->from_ps);
    rc |= bind_time(st, 6, s->to_ps);
    return rc;
}

static int bind_task(sqlite3_stmt *st, const gpu_tr_core_task_t *t)
{
    int rc = sqlite3_bind_int(st, 2, t->frame);
    rc |= sqlite3_bind_int(st, 3, t->core);
    rc |= bind_time(st, 4, t->start_ps);
    rc |= bind_time(st, 5, t->finish_ps);
    rc |= bind_time(st, 6, t->ready_ps);
    rc |= bind_u64(st, 7, t->instructions);
    rc |= sqlite3_bind_int64(st, 8, t->sm_ops);
    rc |= bind_time(st, 9, t->sm_wait_ps);
    rc |= bind_time(st, 10, t->sm_conflict_ps);
    rc |= sqlite3_bind_int(st, 11, t->complete);
    return rc;
}

static int bind_pack(sqlite3_stmt *st, const rec_batch_t *b, const rec_row_t *row)
{
    const rec_pack_row_t *p = &row->u.pack;
    int rc = sqlite3_bind_int(st, 2, p->frame);
    rc |= sqlite3_bind_int(st, 3, p->core);
    rc |= sqlite3_bind_int(st, 4, p->part);
    rc |= sqlite3_bind_int64(st, 5, p->idx0);
    rc |= sqlite3_bind_int64(st, 6, p->n);
    rc |= bind_time(st, 7, p->base_ps);
    rc |= bind_time(st, 8, p->scale_ps);
    rc |= bind_time(st, 9, p->end_ps);
    rc |= bind_text(st, 10, b, row->text_off, row->text_len);
    return rc;
}

static int bind_row(sqlite3_stmt *st, const rec_batch_t *b, const rec_row_t *row)
{
    switch (row->kind) {
    case REC_ROW_FRAME:
        return bind_frame(st, &row->u.frame);
    case REC_ROW_STALL:
        return bind_stall(st, &row->u.stall);
    case REC_ROW_TASK:
        return bind_task(st, &row->u.task);
    case REC_ROW_PACK:
        return bind_pack(st, b, row);
    case REC_ROW_COUNTER:
        return bind_text(st, 2, b, row->text_off, row->text_len) |
               sqlite3_bind_text(st, 3, b->text + row->text2_off, -1, SQLITE_STATIC) |
               bind_u64(st, 4, row->u.counter);
    default: /* REC_ROW_EVENT */
        return sqlite3_bind_int64(st, 2, (sqlite3_int64)row->u.event.seq) |
               bind_time(st, 3, row->u.event.time) |
               sqlite3_bind_int(st, 4, row->u.event.prio) |
               bind_text(st, 5, b, row->text_off, row->text_len);
    }
}

/* --- writing a batch ---------------------------------------------------- */

static void fail(rec_writer_t *w, const char *what)
{
    snprintf(w->errmsg, sizeof w->errmsg, "%s: %s: %s", w->path, what,
             sqlite3_errmsg(w->db));
    atomic_store(&w->failed, true);
}

static bool write_row(rec_writer_t *w, const rec_batch_t *b, const rec_row_t *row)
{
    sqlite3_stmt *st = w->ins[row->kind];
    int rc = sqlite3_bind_int64(st, 1, w->run_id) | bind_row(st, b, row);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return true;
    fail(w, "writing the run's records");
    return false;
}

/* One transaction per batch; on failure it is rolled back (earlier batches
 * stay committed) and the writer is marked failed. */
static void write_batch(rec_writer_t *w, const rec_batch_t *b)
{
    if (sqlite3_exec(w->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        fail(w, "BEGIN");
        return;
    }
    for (size_t i = 0; i < b->nrows; i++) {
        if (!write_row(w, b, &b->rows[i])) {
            sqlite3_exec(w->db, "ROLLBACK", NULL, NULL, NULL);
            return;
        }
    }
    if (sqlite3_exec(w->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        fail(w, "COMMIT");
        sqlite3_exec(w->db, "ROLLBACK", NULL, NULL, NULL);
    }
}

/* --- the queue ----------------------------------------------------------- */

/* The next full batch, or NULL once stopped with the queue empty. */
static rec_batch_t *take(rec_writer_t *w)
{
    pthread_mutex_lock(&w->mu);
    while (w->qcount == 0 && !w->stop)
        pthread_cond_wait(&w->cv_work, &w->mu);
    rec_batch_t *b = NULL;
    if (w->qcount > 0) {
        b = w->queue[w->qhead];
        w->qhead = (w->qhead + 1) % REC_BATCHES;
        w->qcount--;
    }
    pthread_mutex_unlock(&w->mu);
    return b;
}

static void give_back(rec_writer_t *w, rec_batch_t *b)
{
    b->nrows = 0;
    b->len = 0;
    pthread_mutex_lock(&w->mu);
    w->spare[w->nspare++] = b;
    pthread_cond_signal(&w->cv_free);
    pthread_mutex_unlock(&w->mu);
}

/* Called with mu held. */
static void enqueue(rec_writer_t *w, rec_batch_t *b)
{
    w->queue[(w->qhead + w->qcount) % REC_BATCHES] = b;
    w->qcount++;
    pthread_cond_signal(&w->cv_work);
}

static void *writer_main(void *arg)
{
    rec_writer_t *w = arg;
    rec_batch_t *b;
    while ((b = take(w)) != NULL) {
        if (!atomic_load_explicit(&w->failed, memory_order_relaxed))
            write_batch(w, b);
        give_back(w, b);
    }
    return NULL;
}

rec_batch_t *rec_writer_swap(rec_writer_t *w, rec_batch_t *full)
{
    pthread_mutex_lock(&w->mu);
    enqueue(w, full);
    while (w->nspare == 0)
        pthread_cond_wait(&w->cv_free, &w->mu);
    rec_batch_t *b = w->spare[--w->nspare];
    pthread_mutex_unlock(&w->mu);
    return b;
}

bool rec_writer_failed(rec_writer_t *w)
{
    return atomic_load_explicit(&w->failed, memory_order_relaxed);
}

/* --- life ---------------------------------------------------------------- */

static int alloc_batches(rec_writer_t *w)
{
    for (unsigned i = 0; i < REC_BATCHES; i++) {
        rec_batch_t *b = &w->store[i];
        if (b->rows)
            continue;
        b->rows = malloc(REC_BATCH_ROWS * sizeof *b->rows);
        b->text = malloc(REC_BATCH_TEXT);
        if (!b->rows || !b->text)
            return TESS_ENOMEM;
    }
    return TESS_OK;
}

int rec_writer_init(rec_writer_t *w, sqlite3 *db, const char *path, diag_t *diag)
{
    memset(w, 0, sizeof *w);
    w->path = path;
    atomic_init(&w->failed, false);
    if (pthread_mutex_init(&w->mu, NULL) != 0)
        goto no_mutex;
    if (pthread_cond_init(&w->cv_work, NULL) != 0)
        goto no_work;
    if (pthread_cond_init(&w->cv_free, NULL) != 0)
        goto no_free;
    w->db = db; /* from here on rec_writer_destroy() undoes everything */
    for (unsigned k = 0; k < REC_ROW_KINDS; k++) {
        if (sqlite3_prepare_v3(db, rec_schema_insert(k), -1, SQLITE_PREPARE_PERSISTENT,
                               &w->ins[k], NULL) != SQLITE_OK) {
            int rc = rec_db_fail(db, path, "preparing the INSERTs", diag);
            rec_writer_destroy(w);
            return rc;
        }
    }
    return TESS_OK;
no_free:
    pthread_cond_destroy(&w->cv_work);
no_work:
    pthread_mutex_destroy(&w->mu);
no_mutex:
    return diag_fail(diag, TESS_ENOMEM, "%s: cannot create the writer's locks", path);
}

void rec_writer_destroy(rec_writer_t *w)
{
    for (unsigned k = 0; k < REC_ROW_KINDS; k++) {
        sqlite3_finalize(w->ins[k]);
        w->ins[k] = NULL;
    }
    for (unsigned i = 0; i < REC_BATCHES; i++) {
        free(w->store[i].rows);
        free(w->store[i].text);
        w->store[i].rows = NULL;
        w->store[i].text = NULL;
    }
    if (w->db) {
        pthread_cond_destroy(&w->cv_free);
        pthread_cond_destroy(&w->cv_work);
        pthread_mutex_destroy(&w->mu);
        w->db = NULL;
    }
}

int rec_writer_start(rec_writer_t *w, int64_t run_id, rec_batch_t **first, diag_t *diag)
{
    if (alloc_batches(w) != TESS_OK)
        return diag_fail(diag, TESS_ENOMEM, "%s: out of memory for the writer's batches",
                         w->path);
    w->run_id = run_id;
    w->qhead = w->qcount = 0;
    w->nspare = 0;
    for (unsigned i = 1; i < REC_BATCHES; i++)
        w->spare[w->nspare++] = &w->store[i];
    for (unsigned i = 0; i < REC_BATCHES; i++)
        w->store[i].nrows = w->store[i].len = 0;
    w->stop = false;
    w->errmsg[0] = 0;
    atomic_store(&w->failed, false);
    if (pthread_create(&w->thread, NULL, writer_main, w) != 0)
        return diag_fail(diag, TESS_ENOMEM, "%s: cannot start the writer thread", w->path);
    w->running = true;
    *first = &w->store[0];
    return TESS_OK;
}

int rec_writer_finish(rec_writer_t *w, rec_batch_t *last, diag_t *diag)
{
    if (!w->running)
        return TESS_OK;
    pthread_mutex_lock(&w->mu);
    if (last && last->nrows > 0)
        enqueue(w, last);
    w->stop = true;
    pthread_cond_signal(&w->cv_work);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    w->running = false;
    if (atomic_load(&w->failed))
        return diag_fail(diag, TESS_EDB, "%s", w->errmsg);
    return TESS_OK;
}

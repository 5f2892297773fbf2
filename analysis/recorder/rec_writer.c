/* rec_writer.c — the writer thread: takes full batches from a bounded queue
 * and writes them in transactions of one to REC_TXN_BATCHES batches with
 * prepared INSERTs (packing the SM
 * accesses, the kernel's events and the SIMT issue port and ld/st on the way,
 * rec_pack.c, rec_events.c, rec_simt.c), so that this work overlaps the
 * simulation. Invariant: each of the REC_BATCHES batches is always in
 * exactly one place — the producer's hand, the queue, the writer's hand, or
 * the spare list — so memory is bounded and the producer blocks (never
 * drops) while the writer holds every batch. After a failed write the
 * writer keeps draining the queue without writing. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recorder/rec_int.h"
#include "analysis/store/tables.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/itrace.h"
#include "model/tm.h"

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

/* The parameter numbers of each INSERT (schema_insert), from the one
 * declaration of its table's columns (store/tables.h). */
#define FR(name, type) FR_##name,
#define ST(name, type) ST_##name,
#define TA(name, type) TA_##name,
#define PK(name, type) PK_##name,
#define CO(name, type) CO_##name,
#define EP(name, type) EP_##name,
#define EN(name, type) EN_##name,
#define SW(name, type) SW_##name,
#define SIP(name, type) SIP_##name,
#define SMP(name, type) SMP_##name,
#define SON(name, type) SON_##name,
#define SL(name, type) SL_##name,
#define SWT(name, type) SWT_##name,
enum { P_RUN_ID = 1 }; /* run_id: parameter 1 of every INSERT (DB_INSERT_SQL) */
enum { FR_run_id = 1, DB_FRAMES(FR, DB_NONE) };
enum { ST_run_id = 1, DB_STALLS(ST, DB_NONE) };
enum { TA_run_id = 1, DB_CORE_TASKS(TA, DB_NONE) };
enum { PK_run_id = 1, DB_SM_ACCESS_PACKS(PK, DB_NONE) };
enum { CO_run_id = 1, DB_COUNTERS(CO, DB_NONE) };
enum { EP_run_id = 1, DB_EVENT_PACKS(EP, DB_NONE) };
enum { EN_run_id = 1, DB_EVENT_NAMES(EN, DB_NONE) };
enum { SW_run_id = 1, DB_SIMT_WARPS(SW, DB_NONE) };
enum { SIP_run_id = 1, DB_SIMT_ISSUE_PACKS(SIP, DB_NONE) };
enum { SMP_run_id = 1, DB_SIMT_MEM_PACKS(SMP, DB_NONE) };
/* The SIMT packs' rows share their layout but for the fields' names
 * (store/sipack.h): rec_writer_put_rpack binds either by these numbers. */
_Static_assert((int)SIP_t_unit == (int)SMP_t_unit && (int)SIP_data == (int)SMP_data,
               "the SIMT packs' columns");
enum { SIP_FIELD0 = SIP_t_unit + 1 }; /* the first field's f0; f_n, f_unit follow */
enum { SON_run_id = 1, DB_SIMT_OP_NAMES(SON, DB_NONE) };
enum { SL_run_id = 1, DB_SLOT_COUNTS(SL, DB_NONE) };
/* Reason k's column of simt_warps and of slot_counts (stall_NAME_cycles),
 * by reason: the list itself through tessera_names.h, in its order. */
#define SW_STALL(A, name) SW_stall_##name##_cycles,
#define SL_STALL(A, name) SL_stall_##name##_cycles,
static const int sw_stall[] = {GEN_SIMT_STALLS_WITH(SW_STALL, _)};
static const int sl_stall[] = {GEN_SIMT_STALLS_WITH(SL_STALL, _)};
_Static_assert(sizeof sw_stall / sizeof sw_stall[0] == GPU_SIMT_STALLS &&
                   sizeof sl_stall / sizeof sl_stall[0] == GPU_SIMT_STALLS,
               "a column per stall reason");
enum { SWT_run_id = 1, DB_SIMT_WAITS(SWT, DB_NONE) };

static int bind_frame(sqlite3_stmt *st, const gpu_tr_frame_t *f)
{
    int rc = sqlite3_bind_int(st, FR_frame, f->frame);
    rc |= sqlite3_bind_text(st, FR_kind, f->is_if ? "IF" : "CF", 2, SQLITE_STATIC);
    rc |= sqlite3_bind_int(st, FR_grp, f->grp);
    rc |= sqlite3_bind_int(st, FR_mask, f->mask);
    rc |= sqlite3_bind_text(st, FR_fence, tm_fence_name(f->fence), -1, SQLITE_STATIC);
    rc |= bind_time(st, FR_decode_ps, f->decode_ps);
    rc |= bind_time(st, FR_issue_ps, f->issue_ps);
    rc |= bind_time(st, FR_start_ps, f->is_if ? f->start_ps : SIM_TIME_NEVER);
    rc |= bind_time(st, FR_complete_ps, f->is_if ? f->complete_ps : SIM_TIME_NEVER);
    rc |= bind_time(st, FR_decode_start_ps, f->decode_start_ps);
    rc |= sqlite3_bind_int(st, FR_complete, f->complete);
    return rc;
}

static int bind_stall(sqlite3_stmt *st, const gpu_tr_stall_t *s)
{
    int rc = sqlite3_bind_int(st, ST_frame, s->frame);
    rc |= sqlite3_bind_text(st, ST_reason, gpu_stall_name(s->reason), -1, SQLITE_STATIC);
    rc |= s->blocker == 0xff ? sqlite3_bind_null(st, ST_blocker) : sqlite3_bind_int(st, ST_blocker, s->blocker);
    rc |= bind_time(st, ST_from_ps, s->from_ps);
    rc |= bind_time(st, ST_to_ps, s->to_ps);
    return rc;
}

static int bind_task(sqlite3_stmt *st, const gpu_tr_core_task_t *t)
{
    int rc = sqlite3_bind_int(st, TA_frame, t->frame);
    rc |= sqlite3_bind_int(st, TA_core, t->core);
    rc |= bind_time(st, TA_start_ps, t->start_ps);
    rc |= bind_time(st, TA_finish_ps, t->finish_ps);
    rc |= bind_time(st, TA_ready_ps, t->ready_ps);
    rc |= bind_u64(st, TA_instructions, t->instructions);
    rc |= sqlite3_bind_int64(st, TA_sm_ops, t->sm_ops);
    rc |= bind_time(st, TA_sm_wait_ps, t->sm_wait_ps);
    rc |= bind_time(st, TA_sm_conflict_ps, t->sm_conflict_ps);
    rc |= sqlite3_bind_int(st, TA_complete, t->complete);
    return rc;
}

static int bind_offset(sqlite3_stmt *st, int i, const rec_pack_row_t *p, unsigned bit,
                       int64_t v)
{
    return p->unknown & bit ? sqlite3_bind_null(st, i) : sqlite3_bind_int64(st, i, v);
}

static int bind_pack(sqlite3_stmt *st, const rec_pack_row_t *p, const char *data,
                     size_t len)
{
    int rc = sqlite3_bind_int(st, PK_frame, p->frame);
    rc |= sqlite3_bind_int(st, PK_core, p->core);
    rc |= sqlite3_bind_int(st, PK_part, p->part);
    rc |= sqlite3_bind_int64(st, PK_idx0, p->idx0);
    rc |= sqlite3_bind_int64(st, PK_n, p->n);
    rc |= bind_time(st, PK_base_ps, p->base_ps);
    rc |= bind_time(st, PK_scale_ps, p->scale_ps);
    rc |= bind_time(st, PK_end_ps, p->end_ps);
    rc |= p->bank_shift >= 0 ? sqlite3_bind_int(st, PK_bank_shift, p->bank_shift)
                             : sqlite3_bind_null(st, PK_bank_shift);
    rc |= bind_offset(st, PK_arrive_dt, p, REC_DT_ARRIVE, p->arrive_dt);
    rc |= sqlite3_bind_int64(st, PK_arrive_n, p->arrive_n);
    rc |= bind_offset(st, PK_wait_dt, p, REC_DT_WAIT, p->wait_dt);
    rc |= sqlite3_bind_int64(st, PK_wait_n, p->wait_n);
    rc |= bind_offset(st, PK_done_dt, p, REC_DT_DONE, p->done_dt);
    rc |= sqlite3_bind_int64(st, PK_done_n, p->done_n);
    rc |= sqlite3_bind_text(st, PK_data, data, (int)len, SQLITE_STATIC);
    return rc;
}

/* Reason k's cycles into parameter `param`; NULL for barrier in the rows of
 * the stack's warps (no thread groups, S14). */
static int bind_reason(sqlite3_stmt *st, int param, unsigned k, bool groups, uint64_t cycles)
{
    return k == GPU_SIMT_STALL_BARRIER && !groups ? sqlite3_bind_null(st, param)
                                                   : bind_u64(st, param, cycles);
}

static int bind_simt_warp(sqlite3_stmt *st, const gpu_tr_simt_warp_t *w)
{
    int rc = sqlite3_bind_int(st, SW_frame, w->frame);
    rc |= sqlite3_bind_int(st, SW_mask, w->mask);
    rc |= sqlite3_bind_int(st, SW_lanes, __builtin_popcount(w->mask));
    rc |= bind_time(st, SW_start_ps, w->start_ps);
    rc |= bind_time(st, SW_end_ps, w->end_ps);
    rc |= bind_u64(st, SW_warp_instructions, w->warp_instructions);
    rc |= bind_u64(st, SW_lane_instructions, w->lane_instructions);
    rc |= bind_u64(st, SW_divergent_branches, w->divergent_branches);
    if (w->max_groups) { /* S14: barrier mode has groups, no stack */
        rc |= sqlite3_bind_null(st, SW_max_stack_depth);
        rc |= sqlite3_bind_int64(st, SW_max_groups, w->max_groups);
        rc |= sqlite3_bind_int64(st, SW_barriers, w->barriers);
    } else {
        rc |= sqlite3_bind_int64(st, SW_max_stack_depth, w->max_stack_depth);
    }
    rc |= bind_u64(st, SW_resident_cycles, w->resident_cycles);
    rc |= bind_u64(st, SW_issued_cycles, w->issued_cycles);
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
        rc |= bind_reason(st, sw_stall[k], k, w->max_groups != 0, w->stall_cycles[k]);
    rc |= bind_u64(st, SW_mem_instructions, w->mem_instructions);
    rc |= bind_u64(st, SW_requests, w->requests);
    rc |= bind_u64(st, SW_replays, w->replays);
    rc |= sqlite3_bind_int(st, SW_complete, w->complete);
    return rc;
}

/* A slot of the profile: MIMD rows with execute_ps and sm_wait_ps, SIMT rows
 * (core GPU_SLOT_SIMT, NULL in the table) with issued and stall cycles. */
static int bind_slot(sqlite3_stmt *st, const gpu_tr_slot_t *s)
{
    bool simt = s->core == GPU_SLOT_SIMT;
    char text[64];
    int len = isa_disasm(s->word, text, sizeof text);
    int rc = sqlite3_bind_int(st, SL_frame, s->frame);
    rc |= simt ? sqlite3_bind_null(st, SL_core) : sqlite3_bind_int(st, SL_core, s->core);
    rc |= sqlite3_bind_int(st, SL_slot, s->slot);
    rc |= sqlite3_bind_int(st, SL_word, s->word);
    rc |= sqlite3_bind_text(st, SL_text, text, len < 0 ? 0 : len, SQLITE_TRANSIENT);
    rc |= bind_u64(st, SL_tasks, s->tasks);
    rc |= bind_u64(st, SL_instructions, s->instructions);
    rc |= bind_u64(st, SL_lane_instructions, s->lane_instructions);
    if (simt) {
        rc |= bind_u64(st, SL_issued_cycles, s->issued_cycles);
        for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
            rc |= bind_reason(st, sl_stall[k], k, s->groups, s->stall_cycles[k]);
        rc |= sqlite3_bind_null(st, SL_execute_ps) | sqlite3_bind_null(st, SL_sm_wait_ps);
    } else {
        rc |= sqlite3_bind_null(st, SL_issued_cycles);
        for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
            rc |= sqlite3_bind_null(st, sl_stall[k]);
        rc |= bind_time(st, SL_execute_ps, s->execute_ps);
        rc |= bind_time(st, SL_sm_wait_ps, s->sm_wait_ps);
    }
    return rc;
}

static int bind_simt_wait(sqlite3_stmt *st, const gpu_tr_simt_wait_t *x)
{
    int rc = sqlite3_bind_int(st, SWT_frame, x->frame);
    rc |= sqlite3_bind_int(st, SWT_slot, x->slot);
    rc |= sqlite3_bind_int(st, SWT_lanes, x->lanes);
    rc |= bind_time(st, SWT_from_ps, x->from_ps);
    rc |= bind_time(st, SWT_to_ps, x->to_ps);
    return rc;
}

/* The bindings of a row bound for a table (not REC_ROW_TASK_END,
 * REC_ROW_SIMT_ISSUE or REC_ROW_SIMT_MEM, which only packers take). */
static int bind_row(sqlite3_stmt *st, const rec_batch_t *b, const rec_row_t *row)
{
    switch (row->kind) {
    case REC_ROW_FRAME:
        return bind_frame(st, &row->u.frame);
    case REC_ROW_STALL:
        return bind_stall(st, &row->u.stall);
    case REC_ROW_TASK:
        return bind_task(st, &row->u.task);
    case REC_ROW_SIMT_WARP:
        return bind_simt_warp(st, &row->u.warp);
    case REC_ROW_SLOT:
        return bind_slot(st, &row->u.slot);
    case REC_ROW_SIMT_WAIT:
        return bind_simt_wait(st, &row->u.wait);
    case REC_ROW_COUNTER:
        return bind_text(st, CO_component, b, row->text_off, row->text_len) |
               sqlite3_bind_text(st, CO_name, b->text + row->text2_off, -1, SQLITE_STATIC) |
               bind_u64(st, CO_value, row->u.counter);
    default: /* REC_ROW_EVENT_NAME */
        return sqlite3_bind_int64(st, EN_id, row->u.name_id) |
               bind_text(st, EN_name, b, row->text_off, row->text_len);
    }
}

static const uint8_t table_of[] = {
    [REC_ROW_FRAME] = REC_T_FRAMES, [REC_ROW_STALL] = REC_T_STALLS,
    [REC_ROW_TASK] = REC_T_TASKS,   [REC_ROW_COUNTER] = REC_T_COUNTERS,
    [REC_ROW_EVENT_NAME] = REC_T_EVENT_NAMES, [REC_ROW_SIMT_WARP] = REC_T_SIMT_WARPS,
    [REC_ROW_SLOT] = REC_T_SLOT_COUNTS,
    [REC_ROW_SIMT_WAIT] = REC_T_SIMT_WAITS,
};

/* --- writing a batch ---------------------------------------------------- */

bool rec_writer_failed(rec_writer_t *w)
{
    return atomic_load_explicit(&w->failed, memory_order_relaxed);
}

static void fail(rec_writer_t *w, const char *what)
{
    snprintf(w->errmsg, sizeof w->errmsg, "%s: %s: %s", w->path, what,
             sqlite3_errmsg(w->db));
    atomic_store(&w->failed, true);
}

/* Steps a bound INSERT; false (and the writer failed) when the binding or
 * the step failed. */
static bool step(rec_writer_t *w, sqlite3_stmt *st, int bind_rc, const char *what)
{
    int rc = bind_rc == SQLITE_OK ? sqlite3_step(st) : bind_rc;
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return true;
    fail(w, what);
    return false;
}

bool rec_writer_put_pack(rec_writer_t *w, const rec_pack_row_t *row, const char *data,
                         size_t len)
{
    sqlite3_stmt *st = w->ins[REC_T_PACKS];
    int rc = sqlite3_bind_int64(st, P_RUN_ID, w->run_id) | bind_pack(st, row, data, len);
    return step(w, st, rc, "writing the SM accesses");
}

bool rec_writer_put_events(rec_writer_t *w, const rec_evpack_t *p, const char *data,
                           size_t len)
{
    sqlite3_stmt *st = w->ins[REC_T_EVENT_PACKS];
    int rc = sqlite3_bind_int64(st, P_RUN_ID, w->run_id);
    rc |= sqlite3_bind_int64(st, EP_seq0, (sqlite3_int64)p->seq0);
    rc |= sqlite3_bind_int64(st, EP_n, p->n);
    rc |= bind_time(st, EP_base_ps, p->base_ps);
    rc |= sqlite3_bind_int64(st, EP_scale_ps, (sqlite3_int64)p->scale_ps);
    rc |= sqlite3_bind_int(st, EP_prio0, p->prio_min);
    rc |= sqlite3_bind_int(st, EP_prio_n, p->prio_max - p->prio_min + 1);
    rc |= sqlite3_bind_int64(st, EP_names_n, (sqlite3_int64)p->name_max + 1);
    rc |= sqlite3_bind_text(st, EP_data, data, (int)len, SQLITE_STATIC);
    return step(w, st, rc, "writing the event log");
}

bool rec_writer_put_rpack(rec_writer_t *w, const rec_rpack_t *p, sim_time_t base_ps,
                          const uint64_t unit[REC_RP_FIELDS + 1], const char *data, size_t len)
{
    sqlite3_stmt *st = w->ins[p->table];
    int rc = sqlite3_bind_int64(st, P_RUN_ID, w->run_id);
    rc |= sqlite3_bind_int64(st, SIP_n, p->n);
    rc |= bind_time(st, SIP_base_ps, base_ps);
    rc |= sqlite3_bind_int64(st, SIP_scale_ps, (sqlite3_int64)p->scale_ps);
    rc |= sqlite3_bind_int64(st, SIP_t_unit, (sqlite3_int64)unit[p->fields]);
    for (unsigned k = 0; k < p->fields; k++) { /* f0, f_n, f_unit of each field */
        rc |= bind_u64(st, SIP_FIELD0 + 3 * (int)k, p->lo[k]);
        rc |= sqlite3_bind_int64(st, SIP_FIELD0 + 1 + 3 * (int)k,
                                 (sqlite3_int64)(p->hi[k] - p->lo[k] + 1));
        rc |= sqlite3_bind_int64(st, SIP_FIELD0 + 2 + 3 * (int)k, (sqlite3_int64)unit[k]);
    }
    rc |= sqlite3_bind_text(st, SIP_data, data, (int)len, SQLITE_STATIC);
    return step(w, st, rc, p->what);
}

bool rec_writer_put_op(rec_writer_t *w, unsigned id, const char *name)
{
    sqlite3_stmt *st = w->ins[REC_T_SIMT_OP_NAMES];
    int rc = sqlite3_bind_int64(st, P_RUN_ID, w->run_id);
    rc |= sqlite3_bind_int(st, SON_id, (int)id);
    rc |= sqlite3_bind_text(st, SON_name, name, -1, SQLITE_STATIC);
    return step(w, st, rc, "writing the SIMT issue port");
}

static bool write_row(rec_writer_t *w, const rec_batch_t *b, const rec_row_t *row)
{
    switch (row->kind) {
    case REC_ROW_TASK_END:
        return rec_pack_end_task(w, row->u.task.core, row->u.task.frame);
    case REC_ROW_SIMT_ISSUE:
        return rec_simt_issue_put(w, &row->u.issue);
    case REC_ROW_SIMT_MEM:
        return rec_simt_mem_put(w, &row->u.smem);
    case REC_ROW_TASK:
        if (!rec_pack_end_task(w, row->u.task.core, row->u.task.frame))
            return false;
        break;
    default:
        break;
    }
    sqlite3_stmt *st = w->ins[table_of[row->kind]];
    int rc = sqlite3_bind_int64(st, P_RUN_ID, w->run_id) | bind_row(st, b, row);
    return step(w, st, rc, "writing the run's records");
}

/* The batch's rows and accesses, in the order they were recorded. */
static bool write_all(rec_writer_t *w, const rec_batch_t *b)
{
    size_t ai = 0;
    for (size_t i = 0; i < b->nrows; i++) {
        const rec_row_t *row = &b->rows[i];
        if (row->acc_index > ai && !rec_pack_accesses(w, &b->acc[ai], row->acc_index - ai))
            return false;
        ai = row->acc_index > ai ? row->acc_index : ai;
        if (!write_row(w, b, row))
            return false;
    }
    if (b->nacc > ai && !rec_pack_accesses(w, &b->acc[ai], b->nacc - ai))
        return false;
    for (size_t i = 0; i < b->nev; i++) /* their names came with the rows */
        if (!rec_events_put(w, &b->ev[i]))
            return false;
    return true;
}

/* Batches are written in transactions (BEGIN IMMEDIATE: the write lock is
 * taken at once, waiting for other writers of the file through the busy
 * timeout; a deferred one could fail with SQLITE_BUSY_SNAPSHOT when another
 * process commits between its first read and its first write). A
 * transaction holds one batch, or up to REC_TXN_BATCHES while more are
 * queued (the writer is behind): each commit rewrites the table's last,
 * partly filled page and its parents in the WAL (~2.5 of the ~14 pages of a
 * batch at level mem), and every page is copied again at a checkpoint. On
 * failure the transaction is rolled back (what was committed before stays)
 * and the writer is marked failed. */
static bool txn_begin(rec_writer_t *w)
{
    if (sqlite3_exec(w->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK)
        return true;
    fail(w, "BEGIN IMMEDIATE");
    return false;
}

static void txn_rollback(rec_writer_t *w) { sqlite3_exec(w->db, "ROLLBACK", NULL, NULL, NULL); }

static void txn_commit(rec_writer_t *w)
{
    if (sqlite3_exec(w->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        fail(w, "COMMIT");
        txn_rollback(w);
    }
}

/* The packs still open, at the end, in a transaction of their own. */
static void write_rest(rec_writer_t *w)
{
    if (!txn_begin(w))
        return;
    if (!(rec_pack_flush(w) && rec_events_flush(w) && rec_simt_flush(w))) {
        txn_rollback(w);
        return;
    }
    txn_commit(w);
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
    b->nacc = 0;
    b->nev = 0;
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

/* Are batches queued? */
static bool queued(rec_writer_t *w)
{
    pthread_mutex_lock(&w->mu);
    bool any = w->qcount > 0;
    pthread_mutex_unlock(&w->mu);
    return any;
}

static void *writer_main(void *arg)
{
    rec_writer_t *w = arg;
    unsigned open = 0; /* batches in the open transaction */
    for (;;) {
        if (open && (open == REC_TXN_BATCHES || !queued(w))) {
            txn_commit(w);
            open = 0;
        }
        rec_batch_t *b = take(w);
        if (!b)
            break;
        if (!rec_writer_failed(w) && (open || txn_begin(w))) {
            if (write_all(w, b)) {
                open++;
            } else {
                txn_rollback(w);
                open = 0;
            }
        }
        give_back(w, b); /* nothing of it is referenced once written */
    }
    if (!rec_writer_failed(w))
        write_rest(w);
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

/* --- life ---------------------------------------------------------------- */

static int alloc_batches(rec_writer_t *w)
{
    for (unsigned i = 0; i < REC_BATCHES; i++) {
        rec_batch_t *b = &w->store[i];
        if (b->rows)
            continue;
        b->rows = tess_malloc(REC_BATCH_ROWS * sizeof *b->rows);
        b->acc = tess_malloc(REC_BATCH_ACCS * sizeof *b->acc);
        b->ev = tess_malloc(REC_BATCH_EVS * sizeof *b->ev);
        b->text = tess_malloc(REC_BATCH_TEXT);
        if (!b->rows || !b->acc || !b->ev || !b->text)
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
    for (unsigned k = 0; k < REC_TABLES; k++) {
        if (sqlite3_prepare_v3(db, schema_insert(k), -1, SQLITE_PREPARE_PERSISTENT,
                               &w->ins[k], NULL) != SQLITE_OK) {
            int rc = db_fail(db, path, "preparing the INSERTs", diag);
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
    for (unsigned k = 0; k < REC_TABLES; k++) {
        sqlite3_finalize(w->ins[k]);
        w->ins[k] = NULL;
    }
    for (unsigned i = 0; i < REC_BATCHES; i++) {
        tess_free(w->store[i].rows);
        tess_free(w->store[i].acc);
        tess_free(w->store[i].ev);
        tess_free(w->store[i].text);
        w->store[i].rows = NULL;
        w->store[i].acc = NULL;
        w->store[i].ev = NULL;
        w->store[i].text = NULL;
    }
    rec_pack_free(w);
    rec_events_free(w);
    rec_simt_free(w);
    rec_ckpt_free(&w->ckpt, w->db);
    if (w->db) {
        pthread_cond_destroy(&w->cv_free);
        pthread_cond_destroy(&w->cv_work);
        pthread_mutex_destroy(&w->mu);
        w->db = NULL;
    }
}

int rec_writer_start(rec_writer_t *w, int64_t run_id, uint64_t period_ps, rec_batch_t **first,
                     diag_t *diag)
{
    if (alloc_batches(w) != TESS_OK || rec_pack_reset(w, period_ps) != TESS_OK ||
        rec_events_reset(w) != TESS_OK || rec_simt_reset(w) != TESS_OK)
        return diag_fail(diag, TESS_ENOMEM, "%s: out of memory for the writer's batches",
                         w->path);
    w->run_id = run_id;
    w->qhead = w->qcount = 0;
    w->nspare = 0;
    for (unsigned i = 0; i < REC_BATCHES; i++) {
        w->store[i].nrows = w->store[i].nacc = w->store[i].nev = w->store[i].len = 0;
        if (i > 0)
            w->spare[w->nspare++] = &w->store[i];
    }
    w->stop = false;
    w->errmsg[0] = 0;
    atomic_store(&w->failed, false);
    /* The writer never takes a signal: SIGINT/SIGTERM always reach the thread
     * that runs the event loop, which blocks them while it swaps dispositions. */
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &saved);
    rec_ckpt_start(&w->ckpt, w->db); /* its thread inherits the mask too */
    int started = pthread_create(&w->thread, NULL, writer_main, w);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (started != 0) {
        rec_ckpt_stop(&w->ckpt, w->db);
        return diag_fail(diag, TESS_ENOMEM, "%s: cannot start the writer thread", w->path);
    }
    w->running = true;
    *first = &w->store[0];
    return TESS_OK;
}

int rec_writer_finish(rec_writer_t *w, rec_batch_t *last, diag_t *diag)
{
    if (!w->running)
        return TESS_OK;
    pthread_mutex_lock(&w->mu);
    if (last && (last->nrows > 0 || last->nacc > 0 || last->nev > 0))
        enqueue(w, last);
    w->stop = true;
    pthread_cond_signal(&w->cv_work);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    w->running = false;
    rec_ckpt_last(&w->ckpt); /* copies while the caller builds the indexes */
    if (atomic_load(&w->failed))
        return diag_fail(diag, TESS_EDB, "%s", w->errmsg);
    return TESS_OK;
}

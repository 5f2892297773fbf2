/* rec_hook.c — the trace hook and the access sink, on the simulation's
 * thread: turns gpu_trace.h records into rows of the current batch and the
 * kernel's events into 24-byte rec_ev_t entries appended in order; the SM
 * accesses are the model's own records, which it appends to the batch
 * through the access sink (gpu_trace.h; the hook appends them the same way
 * when a window filters them or a caller feeds the hook itself), unchecked
 * (everything else about accesses and events is done by the writer thread:
 * rec_pack.c, rec_events.c). An event's name becomes an id of the run's
 * dictionary, found by the name's pointer (the model's names are string
 * constants) and checked against a copy of its text, so that a pointer
 * reused for another name gets a new id; a new name is a REC_ROW_EVENT_NAME
 * row ahead of the events that use it. Invariant: a record reaches the batch
 * only during a run, at a level that records its relation, inside the
 * recording window, and while the writer has not failed; rows and accesses
 * keep the order of the records (acc_index), events theirs. During a run
 * the sink points into the current batch (its next is the batch's count of
 * accesses, rec_batch_t.nacc being set when the batch is handed over);
 * outside, at a small discard area. */
#include <stdint.h>
#include <string.h>

#include "analysis/recorder/rec_int.h"
#include "events/base/alloc.h"

/* Accesses appended to the current batch (during a run). */
static inline size_t appended(const rec_t *rec)
{
    return (size_t)(rec->sink.next - rec->cur->acc);
}

void rec_seal(rec_t *rec)
{
    size_t n = appended(rec);
    rec->cur->nacc = n;
    rec->counts.accesses += n;
    rec->counts.bytes_queued += n * sizeof(gpu_tr_access_t);
}

void rec_sink_start(rec_t *rec)
{
    rec->sink.next = rec->cur->acc;
    rec->sink.end = rec->cur->acc + REC_BATCH_ACCS;
}

/* The current batch, swapped for an empty one when it lacks the room. */
static rec_batch_t *room_for(rec_t *rec, size_t rows, size_t accs, size_t evs, size_t text)
{
    rec_batch_t *b = rec->cur;
    if (REC_BATCH_ROWS - b->nrows < rows || REC_BATCH_ACCS - appended(rec) < accs ||
        REC_BATCH_EVS - b->nev < evs || REC_BATCH_TEXT - b->len < text) {
        rec_seal(rec);
        b = rec->cur = rec_writer_swap(&rec->w, b);
        rec_sink_start(rec);
        if (rec_writer_failed(&rec->w))
            rec->dropping = true;
    }
    return b;
}

/* The model's sink is full: the next batch, or (the writer failed, or no
 * run) room that is dropped. */
static void sink_full(gpu_access_sink_t *sink)
{
    rec_t *rec = (rec_t *)(void *)((char *)sink - offsetof(rec_t, sink));
    if (!rec->in_run) {
        rec_sink_idle(rec);
    } else if (rec->dropping) {
        sink->next = rec->cur->acc;
    } else {
        room_for(rec, 0, 1, 0, 0);
    }
}

void rec_sink_idle(rec_t *rec)
{
    rec->sink.full = sink_full;
    rec->sink.next = rec->discard;
    rec->sink.end = rec->discard + REC_DISCARD;
}

/* A new row with `text` bytes of room for its strings. */
static rec_row_t *add_row(rec_t *rec, unsigned kind, size_t text)
{
    rec_batch_t *b = room_for(rec, 1, 0, 0, text);
    rec_row_t *row = &b->rows[b->nrows++];
    row->kind = (uint8_t)kind;
    row->acc_index = (uint32_t)appended(rec);
    row->text_off = (uint32_t)b->len;
    row->text_len = UINT32_MAX;
    rec->counts.bytes_queued += sizeof *row;
    return row;
}

/* Copies a string and its NUL into the current batch (room reserved by
 * add_row); returns its offset. */
static uint32_t put_str(rec_t *rec, const char *s, size_t n)
{
    rec_batch_t *b = rec->cur;
    uint32_t off = (uint32_t)b->len;
    memcpy(b->text + off, s, n);
    b->text[off + n] = 0;
    b->len += n + 1;
    rec->counts.bytes_queued += n + 1;
    return off;
}

/* An access that comes through the hook (a window filters them, or the
 * caller feeds the hook), appended as the model appends to the sink. */
static inline void on_access(rec_t *rec, const gpu_tr_access_t *a)
{
    if (!rec_keep(rec, a->request_ps, a->done_ps))
        return;
    gpu_access_sink_t *s = &rec->sink;
    if (__builtin_expect(s->next == s->end, 0))
        sink_full(s);
    *s->next++ = *a;
}

static void on_task(rec_t *rec, const gpu_tr_core_task_t *t)
{
    bool keep = rec->opts.level >= REC_TASKS && rec_keep(rec, t->start_ps, t->ready_ps);
    if (!keep && rec->opts.level < REC_MEM)
        return;
    add_row(rec, keep ? REC_ROW_TASK : REC_ROW_TASK_END, 0)->u.task = *t;
    rec->counts.core_tasks += keep;
}

static void on_frame(rec_t *rec, const gpu_tr_frame_t *f)
{
    sim_time_t end = !f->complete ? SIM_TIME_NEVER : f->is_if ? f->complete_ps : f->issue_ps;
    if (rec->opts.level < REC_TASKS || !rec_keep(rec, f->decode_start_ps, end))
        return;
    add_row(rec, REC_ROW_FRAME, 0)->u.frame = *f;
    rec->counts.frames++;
}

static void on_stall(rec_t *rec, const gpu_tr_stall_t *s)
{
    if (rec->opts.level < REC_TASKS || !rec_keep(rec, s->from_ps, s->to_ps))
        return;
    add_row(rec, REC_ROW_STALL, 0)->u.stall = *s;
    rec->counts.stalls++;
}

static void on_counter(rec_t *rec, const gpu_tr_counter_t *c)
{
    const char *comp = c->component ? c->component : "";
    const char *name = c->name ? c->name : "";
    size_t nc = strlen(comp), nn = strlen(name);
    rec_row_t *row = add_row(rec, REC_ROW_COUNTER, nc + nn + 2);
    row->text_len = (uint32_t)nc;
    row->text_off = put_str(rec, comp, nc);
    row->text2_off = put_str(rec, name, nn);
    row->u.counter = c->value;
    rec->counts.counters++;
}

/* --- event names --------------------------------------------------------- */

static size_t name_slot(const char *ptr, size_t cap)
{
    return (size_t)(((uintptr_t)ptr * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

/* Doubles the table (at half load); false when out of memory. */
static bool names_grow(rec_names_t *d)
{
    size_t cap = d->cap ? d->cap * 2 : 64;
    rec_name_t *slot = tess_calloc(cap, sizeof *slot);
    if (!slot)
        return false;
    for (size_t i = 0; i < d->cap; i++) {
        if (!d->slot[i].ptr)
            continue;
        size_t j = name_slot(d->slot[i].ptr, cap);
        while (slot[j].ptr)
            j = (j + 1) & (cap - 1);
        slot[j] = d->slot[i];
    }
    tess_free(d->slot);
    d->slot = slot;
    d->cap = cap;
    return true;
}

/* A new id for `name` in slot s (empty, or its pointer's older name), and
 * the row that tells the writer. 0 when out of memory. */
static uint32_t name_define(rec_t *rec, rec_name_t *s, const char *name)
{
    size_t n = strlen(name);
    char *copy = tess_malloc(n + 1);
    if (!copy)
        return 0;
    memcpy(copy, name, n + 1);
    if (!s->ptr)
        rec->names.used++;
    tess_free(s->copy);
    *s = (rec_name_t){name, copy, rec->names.next_id++};
    rec_row_t *row = add_row(rec, REC_ROW_EVENT_NAME, n + 1);
    row->u.name_id = s->id;
    row->text_len = (uint32_t)n;
    row->text_off = put_str(rec, name, n);
    return s->id;
}

/* The id of an event's name in the run's dictionary; 0 (and the run's
 * recording failed) when out of memory. */
static uint32_t name_id(rec_t *rec, const char *name)
{
    rec_names_t *d = &rec->names;
    if (2 * (d->used + 1) > d->cap && !names_grow(d))
        goto no_memory;
    for (size_t i = name_slot(name, d->cap);; i = (i + 1) & (d->cap - 1)) {
        rec_name_t *s = &d->slot[i];
        if (s->ptr == name && strcmp(s->copy, name) == 0)
            return s->id;
        if (s->ptr == name || !s->ptr) {
            uint32_t id = name_define(rec, s, name);
            if (!id)
                goto no_memory;
            return id;
        }
    }
no_memory:
    d->failed = true;
    rec->dropping = true;
    return 0;
}

void rec_names_clear(rec_names_t *d)
{
    for (size_t i = 0; i < d->cap; i++)
        tess_free(d->slot[i].copy);
    tess_free(d->slot);
    *d = (rec_names_t){.next_id = 1};
}

static void on_event(rec_t *rec, const sim_trace_event_t *e)
{
    if (rec->opts.level < REC_EVENTS || !rec_keep(rec, e->time, e->time))
        return;
    uint32_t name = e->name ? name_id(rec, e->name) : 0;
    rec_batch_t *b = rec->cur;
    if (b->nev == REC_BATCH_EVS)
        b = room_for(rec, 0, 0, 1, 0);
    if (rec->dropping)
        return;
    b->ev[b->nev++] = (rec_ev_t){e->time, e->seq, name, e->prio};
    rec->counts.events++;
    rec->counts.bytes_queued += sizeof(rec_ev_t);
}

/* SIMT records (docs/SCHEMA.md): warps at level tasks, warp ld/st at mem,
 * issued warp instructions and barrier waits at events. */
static void on_simt_warp(rec_t *rec, const gpu_tr_simt_warp_t *w)
{
    if (rec->opts.level < REC_TASKS || !rec_keep(rec, w->start_ps, w->end_ps))
        return;
    add_row(rec, REC_ROW_SIMT_WARP, 0)->u.warp = *w;
}

static void on_simt_mem(rec_t *rec, const gpu_tr_simt_mem_t *m)
{
    if (rec->opts.level < REC_MEM || !rec_keep(rec, m->issue_ps, m->done_ps))
        return;
    add_row(rec, REC_ROW_SIMT_MEM, 0)->u.smem = *m;
}

static void on_simt_issue(rec_t *rec, const gpu_tr_simt_issue_t *i)
{
    if (rec->opts.level < REC_EVENTS || !rec_keep(rec, i->time_ps, i->time_ps))
        return;
    add_row(rec, REC_ROW_SIMT_ISSUE, 0)->u.issue = *i;
}

/* The slot profile (level tasks and above): the whole run's, as the
 * counters, whatever the window. */
static void on_slot(rec_t *rec, const gpu_tr_slot_t *sl)
{
    if (rec->opts.level < REC_TASKS)
        return;
    add_row(rec, REC_ROW_SLOT, 0)->u.slot = *sl;
}

static void on_simt_wait(rec_t *rec, const gpu_tr_simt_wait_t *x)
{
    if (rec->opts.level < REC_EVENTS ||
        !rec_keep(rec, x->from_ps, x->to_ps == SIM_TIME_NEVER ? x->from_ps : x->to_ps))
        return;
    add_row(rec, REC_ROW_SIMT_WAIT, 0)->u.wait = *x;
}

/* Every record but an SM access. */
static __attribute__((noinline)) void hook_other(rec_t *rec, unsigned kind, const void *record)
{
    switch (kind) {
    case SIM_TRACE_EVENT:
        on_event(rec, record);
        break;
    case GPU_TR_CORE_TASK:
        on_task(rec, record);
        break;
    case GPU_TR_FRAME:
        on_frame(rec, record);
        break;
    case GPU_TR_STALL:
        on_stall(rec, record);
        break;
    case GPU_TR_COUNTER:
        on_counter(rec, record);
        break;
    case GPU_TR_SIMT_WARP:
        on_simt_warp(rec, record);
        break;
    case GPU_TR_SIMT_MEM:
        on_simt_mem(rec, record);
        break;
    case GPU_TR_SIMT_ISSUE:
        on_simt_issue(rec, record);
        break;
    case GPU_TR_SLOT:
        on_slot(rec, record);
        break;
    case GPU_TR_SIMT_WAIT:
        on_simt_wait(rec, record);
        break;
    default:
        break;
    }
}

void rec_hook(void *user, unsigned kind, const void *record)
{
    rec_t *rec = user;
    if (!rec->in_run || rec->dropping)
        return;
    if (kind == GPU_TR_ACCESS) {
        if (rec->opts.level >= REC_MEM)
            on_access(rec, record);
        return;
    }
    hook_other(rec, kind, record);
}

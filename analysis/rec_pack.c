/* rec_pack.c — the trace hook: turns gpu_trace.h records into batch rows for
 * the writer, and packs SM accesses per core task into JSON text, one
 * sm_access_packs row per at most REC_PACK_MAX accesses, which the
 * sm_accesses view expands again with json_each. Invariant: packs[c] holds
 * only accesses of core c's current task (task_frame), in arrival order,
 * each time a whole multiple of row.scale_ps; buf starts with '[' and every
 * entry ends with ',' (the last becomes ']' when the pack is closed).
 *
 * Why packs of JSON text (bench_rec, docs/PERFORMANCE.md has the figures):
 * one INSERT per access tops out near 2.5 M rows/s with everything prepared
 * and batched, ~400 ns per access, and ~45 bytes per access in the file;
 * a pack costs one INSERT per thousands of accesses, and the hot path is a
 * few divisions and digit copies (~15 ns). A binary packing (varints in a
 * BLOB) is smaller still, but plain SQL cannot expand it: sm_accesses could
 * only be a view through a loadable extension, so the stock `sqlite3` shell
 * could not read the file. JSON keeps the contract "plain SQL" at ~26 bytes
 * per access. Entry: [t,a,g,d,addr,k,value] with t = request - base_ps,
 * a = arrive - request, g = grant - arrive, d = done - grant (in units of
 * scale_ps) and k = bank << 2 | sync << 1 | is_store. */
#include <stdlib.h>
#include <string.h>

#include "analysis/rec_int.h"
#include "events/err.h"

static const char digits2[] = "00010203040506070809101112131415161718192021222324"
                              "25262728293031323334353637383940414243444546474849"
                              "50515253545556575859606162636465666768697071727374"
                              "75767778798081828384858687888990919293949596979899";

/* Decimal digits of a v >= 10000 at o; returns the end. */
static char *put_big(char *o, uint64_t v)
{
    unsigned n = 5;
    for (uint64_t p = 100000; n < 20 && v >= p; p *= 10)
        n++;
    char *e = o + n;
    for (o = e; v >= 100; v /= 100) {
        o -= 2;
        memcpy(o, digits2 + 2 * (v % 100), 2);
    }
    if (v >= 10)
        memcpy(o - 2, digits2 + 2 * v, 2);
    else
        o[-1] = (char)('0' + v);
    return e;
}

/* Decimal digits of v at o; returns the end. Small values stay inline. */
static inline char *put_u64(char *o, uint64_t v)
{
    if (v < 10) {
        *o = (char)('0' + v);
        return o + 1;
    }
    if (v < 100) {
        memcpy(o, digits2 + 2 * v, 2);
        return o + 2;
    }
    if (v < 1000) {
        o[0] = (char)('0' + v / 100);
        memcpy(o + 1, digits2 + 2 * (v % 100), 2);
        return o + 3;
    }
    if (v < 10000) {
        memcpy(o, digits2 + 2 * (v / 100), 2);
        memcpy(o + 2, digits2 + 2 * (v % 100), 2);
        return o + 4;
    }
    return put_big(o, v);
}

/* --- rows ---------------------------------------------------------------- */

/* A new row in the current batch with room for `text` more bytes; hands the
 * batch to the writer first when it is full. */
static rec_row_t *add_row(rec_t *rec, unsigned kind, size_t text)
{
    rec_batch_t *b = rec->cur;
    if (b->nrows == REC_BATCH_ROWS || REC_BATCH_TEXT - b->len < text) {
        b = rec->cur = rec_writer_swap(&rec->w, b);
        if (rec_writer_failed(&rec->w))
            rec->dropping = true;
    }
    rec_row_t *row = &b->rows[b->nrows++];
    row->kind = (uint8_t)kind;
    row->text_off = (uint32_t)b->len;
    row->text_len = UINT32_MAX;
    rec->counts.bytes_queued += sizeof *row + text;
    return row;
}

/* Copies a string (and its NUL) into the current batch; returns its offset. */
static uint32_t put_str(rec_t *rec, const char *s, size_t n)
{
    rec_batch_t *b = rec->cur;
    uint32_t off = (uint32_t)b->len;
    memcpy(b->text + off, s, n);
    b->text[off + n] = 0;
    b->len += n + 1;
    return off;
}

/* Does [s, e] overlap the window [from, to)? (e = SIM_TIME_NEVER: open.) */
static inline bool keep(const rec_t *rec, sim_time_t s, sim_time_t e)
{
    if (!rec->windowed)
        return true;
    return (rec->opts.to_ps == 0 || s < rec->opts.to_ps) && e >= rec->opts.from_ps;
}

/* --- access packs --------------------------------------------------------- */

static void pack_close(rec_t *rec, rec_pack_t *p)
{
    p->buf[p->len - 1] = ']';
    rec_row_t *row = add_row(rec, REC_ROW_PACK, p->len + 1);
    row->text_len = (uint32_t)p->len;
    put_str(rec, p->buf, p->len);
    row->u.pack = p->row;
    p->task_n += p->row.n;
    p->next_part++;
    p->row.n = 0;
    p->len = 1;
}

static void pack_open(rec_t *rec, rec_pack_t *p, const gpu_tr_access_t *a, uint64_t scale)
{
    p->row.frame = a->frame;
    p->row.core = a->core;
    p->row.part = p->next_part;
    p->row.idx0 = p->task_n;
    p->row.base_ps = a->request_ps;
    p->row.scale_ps = scale;
    p->row.end_ps = 0;
}

/* A relative time in units of s, or "null" when either end is unknown;
 * false when not a multiple of s. */
static bool put_rel(char **o, sim_time_t t, sim_time_t ref, uint64_t s)
{
    if (t > (sim_time_t)INT64_MAX || ref > (sim_time_t)INT64_MAX) {
        memcpy(*o, "null", 4);
        *o += 4;
        return true;
    }
    int64_t d = (int64_t)(t - ref);
    if (d % (int64_t)s != 0)
        return false;
    d /= (int64_t)s;
    if (d < 0)
        *(*o)++ = '-';
    *o = put_u64(*o, d < 0 ? -(uint64_t)d : (uint64_t)d);
    return true;
}

/* The four times of an access whose times are unknown or out of order. */
static bool put_times_slow(char **o, const gpu_tr_access_t *a, sim_time_t base, uint64_t s)
{
    const sim_time_t t[5] = {base, a->request_ps, a->arrive_ps, a->grant_ps, a->done_ps};
    for (unsigned i = 0; i < 4; i++) {
        if (!put_rel(o, t[i + 1], t[i], s))
            return false;
        *(*o)++ = ',';
    }
    return true;
}

static void div_init(rec_div_t *d, uint64_t s)
{
    d->shift = 0;
    while (!(s & 1)) {
        s >>= 1;
        d->shift++;
    }
    uint64_t x = s; /* Newton's iteration doubles the correct low bits: 3, 6, … 96 */
    for (unsigned i = 0; i < 5; i++)
        x *= 2 - s * x;
    d->inv = x;
    d->max = UINT64_MAX / s;
}

static inline bool div_exact(const rec_div_t *d, uint64_t v, uint64_t *q)
{
    if (v & ((UINT64_C(1) << d->shift) - 1))
        return false;
    *q = (v >> d->shift) * d->inv;
    return *q <= d->max;
}

/* The four times, the common case: known, ordered, relative to base. */
static inline bool put_times(char **o, const gpu_tr_access_t *a, sim_time_t base,
                             const rec_div_t *div)
{
    uint64_t v[4] = {a->request_ps - base, a->arrive_ps - a->request_ps,
                     a->grant_ps - a->arrive_ps, a->done_ps - a->grant_ps};
    if (div) {
        bool ok = true;
        for (unsigned i = 0; i < 4; i++)
            ok &= div_exact(div, v[i], &v[i]);
        if (!ok)
            return false;
    }
    char *c = *o;
    for (unsigned i = 0; i < 4; i++) {
        c = put_u64(c, v[i]);
        *c++ = ',';
    }
    *o = c;
    return true;
}

/* Appends one entry; false (nothing appended) when a time is not a multiple
 * of the pack's scale. */
static bool encode(const rec_t *rec, rec_pack_t *p, const gpu_tr_access_t *a)
{
    char *o = p->buf + p->len;
    sim_time_t base = p->row.base_ps;
    *o++ = '[';
    bool ordered = base <= a->request_ps && a->request_ps <= a->arrive_ps &&
                   a->arrive_ps <= a->grant_ps && a->grant_ps <= a->done_ps &&
                   a->done_ps <= (sim_time_t)INT64_MAX;
    const rec_div_t *div = p->row.scale_ps == 1 ? NULL : &rec->period_div;
    if (!(ordered ? put_times(&o, a, base, div)
                  : put_times_slow(&o, a, base, p->row.scale_ps)))
        return false;
    o = put_u64(o, a->addr);
    *o++ = ',';
    o = put_u64(o, (unsigned)a->bank << 2 | (a->sync & 1u) << 1 | (a->is_store & 1u));
    *o++ = ',';
    o = put_u64(o, a->value);
    *o++ = ']';
    *o++ = ',';
    p->len = (size_t)(o - p->buf);
    p->row.n++;
    if (a->done_ps > p->row.end_ps)
        p->row.end_ps = a->done_ps;
    return true;
}

static void on_access(rec_t *rec, const gpu_tr_access_t *a)
{
    if (rec->opts.level < REC_MEM || a->core >= GPU_CORES || !keep(rec, a->request_ps, a->done_ps))
        return;
    rec_pack_t *p = &rec->packs[a->core];
    if (p->task_frame != a->frame) { /* a task we were not told had ended */
        if (p->row.n)
            pack_close(rec, p);
        p->task_frame = a->frame;
        p->next_part = 0;
        p->task_n = 0;
    }
    if (!p->row.n)
        pack_open(rec, p, a, rec->period_ps);
    if (!encode(rec, p, a)) { /* not a whole number of cycles: this pack in ps */
        if (p->row.n)
            pack_close(rec, p);
        pack_open(rec, p, a, 1);
        encode(rec, p, a);
    }
    rec->counts.accesses++;
    if (p->row.n == REC_PACK_MAX || REC_PACK_BYTES - p->len < REC_ENTRY_MAX)
        pack_close(rec, p);
}

/* --- the other records ---------------------------------------------------- */

static void on_task(rec_t *rec, const gpu_tr_core_task_t *t)
{
    if (t->core < GPU_CORES && rec->packs[t->core].task_frame == t->frame) {
        rec_pack_t *p = &rec->packs[t->core];
        if (p->row.n)
            pack_close(rec, p);
        p->task_frame = -1;
    }
    if (rec->opts.level < REC_TASKS || !keep(rec, t->start_ps, t->ready_ps))
        return;
    add_row(rec, REC_ROW_TASK, 0)->u.task = *t;
    rec->counts.core_tasks++;
}

static void on_frame(rec_t *rec, const gpu_tr_frame_t *f)
{
    sim_time_t end = !f->complete ? SIM_TIME_NEVER : f->is_if ? f->complete_ps : f->issue_ps;
    if (rec->opts.level < REC_TASKS || !keep(rec, f->decode_start_ps, end))
        return;
    add_row(rec, REC_ROW_FRAME, 0)->u.frame = *f;
    rec->counts.frames++;
}

static void on_stall(rec_t *rec, const gpu_tr_stall_t *s)
{
    if (rec->opts.level < REC_TASKS || !keep(rec, s->from_ps, s->to_ps))
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

static void on_event(rec_t *rec, const sim_trace_event_t *e)
{
    if (rec->opts.level < REC_EVENTS || !keep(rec, e->time, e->time))
        return;
    size_t n = e->name ? strlen(e->name) : 0;
    rec_row_t *row = add_row(rec, REC_ROW_EVENT, n + 1);
    row->u.event = *e;
    if (e->name) {
        row->text_len = (uint32_t)n;
        row->text_off = put_str(rec, e->name, n);
    }
    rec->counts.events++;
}

void rec_hook(void *user, unsigned kind, const void *record)
{
    rec_t *rec = user;
    if (!rec->in_run || rec->dropping)
        return;
    switch (kind) {
    case GPU_TR_ACCESS:
        on_access(rec, record);
        break;
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
    default:
        break;
    }
}

/* --- life ------------------------------------------------------------------ */

void rec_pack_flush(rec_t *rec)
{
    for (unsigned c = 0; c < GPU_CORES; c++) {
        rec_pack_t *p = &rec->packs[c];
        if (p->row.n && !rec->dropping)
            pack_close(rec, p);
        p->row.n = 0;
        p->task_frame = -1;
    }
}

int rec_pack_reset(rec_t *rec)
{
    div_init(&rec->period_div, rec->period_ps);
    for (unsigned c = 0; c < GPU_CORES; c++) {
        rec_pack_t *p = &rec->packs[c];
        if (!p->buf && !(p->buf = malloc(REC_PACK_BYTES)))
            return TESS_ENOMEM;
        p->buf[0] = '[';
        p->len = 1;
        p->row.n = 0;
        p->task_frame = -1;
        p->next_part = 0;
        p->task_n = 0;
    }
    return TESS_OK;
}

void rec_pack_free(rec_t *rec)
{
    for (unsigned c = 0; c < GPU_CORES; c++) {
        free(rec->packs[c].buf);
        rec->packs[c].buf = NULL;
    }
}

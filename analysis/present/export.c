/* export.c — a recorded run as Perfetto/Chrome trace-event JSON and as VCD
 * for GTKWave (export.h), read through the run reader (timeline.h) and the
 * access stream (run_acc.c).
 * Invariant: output is streamed; what is held in memory is the run's small
 * relations (timeline.h), one pack per open stream, the accesses being merged
 * into time order (a few per core), and for the VCD the pending value changes
 * of the core tasks and frames (a few thousand at most). */
#include "analysis/present/export.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/store/db.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "analysis/present/escape.h"

#define FOREVER INT64_MAX

/* --- the traces' window ------------------------------------------------------------ */

/* The window and the accesses an export covers. */
typedef struct win {
    int64_t t0, t1;           /* [t0, t1) in ps */
    bool acc;                 /* accesses are exported */
    uint64_t cut;             /* accesses requested from here are not (0: none) */
} win_t;

static int open_window(tl_run_t *run, const exp_opts_t *o, win_t *w, exp_stats_t *st,
                       diag_t *d)
{
    memset(st, 0, sizeof *st);
    w->acc = false, w->cut = 0;
    int rc = tl_run_need_tasks(run, d);
    if (rc == TESS_OK)
        rc = tl_run_window(run, o->from_ps, o->to_ps, &w->t0, &w->t1, d);
    if (rc != TESS_OK || tl_run_info(run)->level < REC_MEM)
        return rc;
    exp_acc_cut_t c;
    rc = exp_acc_cut(run, (uint64_t)w->t0, (uint64_t)w->t1, o->max_accesses, &c, d);
    st->accesses_total = c.total, st->cut_ps = c.cut;
    w->acc = rc == TESS_OK && c.kept > 0, w->cut = c.cut;
    return rc;
}

static bool overlaps(const win_t *w, int64_t a, int64_t b)
{
    return a != TL_NONE && a < w->t1 && (b == TL_NONE || b > w->t0 || (a == b && a >= w->t0));
}

static int64_t clip_end(const win_t *w, int64_t t) { return t == TL_NONE || t > w->t1 ? w->t1 : t; }

/* --- the accesses in request order -------------------------------------------------- */

typedef struct cursor {       /* one core's accesses, in time order */
    exp_acc_iter_t *it;
    unsigned task, end;       /* its core tasks left: indexes in tl_run_tasks() */
    exp_access_t next;
    bool live;
    int64_t last;             /* the previous request time */
} cursor_t;

/* The accesses of the window, merged from one stream per core. */
typedef struct acc_merge {
    tl_run_t *run;
    const win_t *w;
    cursor_t cur[TL_CORES];
} acc_merge_t;

/* Moves a core's cursor to its next access, opening the packs of its next
 * core task in the window as needed. False on failure (reason in diag). */
static bool acc_cursor_advance(acc_merge_t *m, cursor_t *c, diag_t *d)
{
    unsigned n;
    const tl_task_t *ts = tl_run_tasks(m->run, &n);
    for (;;) {
        if (c->it) {
            int got = exp_acc_next(c->it, &c->next, d);
            if (got == 1 && c->next.request < c->last) {
                diag_fail(d, TESS_EDB, "accesses of core %u are not in time order (frame %u,"
                          " access %lld)", c->next.core, c->next.frame, (long long)c->next.idx);
                return false;
            }
            if (got == 1)
                return c->last = c->next.request, c->live = true;
            exp_acc_end(c->it);
            c->it = NULL;
            if (got < 0)
                return false;
        }
        while (c->task < c->end && !overlaps(m->w, ts[c->task].start, ts[c->task].finish))
            c->task++;
        if (c->task >= c->end)
            return c->live = false, true;
        exp_acc_filter_t f = {.from = (uint64_t)m->w->t0, .to = (uint64_t)m->w->t1,
                              .cut = m->w->cut, .frame = (int)ts[c->task].frame,
                              .core = (int)ts[c->task].core};
        c->task++;
        if (!(c->it = exp_acc_begin(m->run, &f, d)))
            return false;
    }
}

/* Opens every core's stream at its first access. False on failure. */
static bool acc_merge_begin(acc_merge_t *m, tl_run_t *run, const win_t *w, diag_t *d)
{
    unsigned n;
    const tl_task_t *ts = tl_run_tasks(run, &n);
    m->run = run, m->w = w;
    for (unsigned c = 0, i = 0; c < TL_CORES; c++) {
        m->cur[c].task = i, m->cur[c].last = INT64_MIN;
        while (i < n && ts[i].core == c)
            i++;
        m->cur[c].end = i;
        if (!acc_cursor_advance(m, &m->cur[c], d))
            return false;
    }
    return true;
}

/* The core whose next access was requested first (-1: none is left). */
static int acc_merge_first(const acc_merge_t *m)
{
    int best = -1;
    for (int c = 0; c < TL_CORES; c++)
        if (m->cur[c].live && (best < 0 || m->cur[c].next.request < m->cur[best].next.request))
            best = c;
    return best;
}

static void acc_merge_end(acc_merge_t *m)
{
    for (unsigned c = 0; c < TL_CORES; c++)
        exp_acc_end(m->cur[c].it), m->cur[c].it = NULL;
}

/* --- Perfetto / Chrome trace-event JSON ------------------------------------------- */

enum { TID_TS = 1, TID_BUS = 2, TID_STALLS = 3, TID_CORE = 100, TID_BANK = 200, TID_ISSUE = 400,
       TID_BARRIER = 300, TID_GROUP = 1000, MAX_LANES = 64 };

typedef struct pend {         /* an access whose bank slice waits to be written */
    exp_access_t a;
    int64_t free_at;
    uint64_t seq;
} pend_t;

typedef struct json {
    FILE *f;
    tl_run_t *run;
    const tl_info_t *info;
    win_t w;
    uint64_t events;
    unsigned stall_lanes;
    pend_t *pend;             /* bank slices not written yet: a heap by grant */
    unsigned n_pend, cap_pend;
    uint64_t seq;             /* accesses taken so far (ties in the heap) */
    bool groups;              /* simt.reconvergence = barrier: thread groups' tracks */
    uint16_t group_track[TL_MAX_FRAMES]; /* per warp (frame): the group tracks declared,
                                            by lowest lane */
    uint16_t barrier_track;   /* the lanes' barrier tracks declared */
} json_t;

/* Picoseconds as the format's microseconds, exactly: 6000 → 0.006000. */
static void put_us(FILE *f, const char *key, int64_t ps)
{
    fprintf(f, ",\"%s\":%lld.%06lld", key, (long long)(ps / 1000000), (long long)(ps % 1000000));
}

/* Starts an event: {"ph":ph,"pid":1,"tid":tid,"name":… */
static void ev(json_t *j, const char *ph, unsigned tid, const char *name)
{
    fprintf(j->f, "%s{\"ph\":\"%s\",\"pid\":1,\"tid\":%u,\"name\":", j->events++ ? ",\n" : "",
            ph, tid);
    esc_json(j->f, name);
}

/* A slice [a, b) of track `tid`, clipped to the window, as a B event and its
 * E event written together; `args` are the members of its args object, and
 * the E repeats the B's name, category and args (viewers that match an E to
 * its B by name and args, as speedscope does, then find it; the category
 * is the B's alone). Not an X event:
 * a viewer adds ts + dur in binary floating point, and 0.016 + 0.001 lands
 * past 0.017, the start of a back-to-back slice, which it then stacks inside
 * the first; an E and the next B read from the same text are equal. A
 * track's slices must be written in time order, none overlapping (the
 * format's rule for B/E; equal times then read E first in file order). */
static void slice(json_t *j, unsigned tid, const char *name, const char *cat, int64_t a,
                  int64_t b, const char *args)
{
    a = a < j->w.t0 ? j->w.t0 : a;
    b = clip_end(&j->w, b);
    b = b > a ? b : a;
    for (int k = 0; k < 2; k++) {
        ev(j, k ? "E" : "B", tid, name);
        if (!k)
            fprintf(j->f, ",\"cat\":\"%s\"", cat);
        put_us(j->f, "ts", k ? b : a);
        fprintf(j->f, ",\"args\":{%s}}", args);
    }
}

static void meta(json_t *j, unsigned tid, const char *what, const char *name, unsigned order)
{
    ev(j, "M", tid, what);
    fputs(",\"args\":{\"name\":", j->f);
    esc_json(j->f, name);
    fputs("}}", j->f);
    ev(j, "M", tid, "thread_sort_index");
    fprintf(j->f, ",\"args\":{\"sort_index\":%u}}", order);
}

static void json_tracks(json_t *j)
{
    char name[32];
    ev(j, "M", TID_TS, "process_name");
    fputs(",\"args\":{\"name\":\"GPU\"}}", j->f);
    meta(j, TID_TS, "thread_name", "TS", 0);
    meta(j, TID_BUS, "thread_name", "TS code bus", 1);
    for (unsigned l = 0; l < j->stall_lanes; l++) {
        snprintf(name, sizeof name, l ? "TS stalls %u" : "TS stalls", l + 1);
        meta(j, TID_STALLS + l, "thread_name", name, 2 + l);
    }
    for (unsigned c = 0; c < TL_CORES; c++) {
        snprintf(name, sizeof name, "core %u", c);
        meta(j, TID_CORE + c, "thread_name", name, TID_CORE + c);
    }
    for (unsigned b = 0; j->info->level >= REC_MEM && b < j->info->banks; b++) {
        snprintf(name, sizeof name, "bank %u", b);
        meta(j, TID_BANK + b, "thread_name", name, TID_BANK + b);
    }
}

/* Frame indexes in[0..n) sorted by key(frame) (insertion sort: at most 64). */
static void frames_by(const tl_frame_t *fr, unsigned n, bool decode, unsigned *order)
{
    for (unsigned i = 0; i < n; i++) {
        int64_t k = decode ? fr[i].decode_start : fr[i].issue;
        unsigned p = i;
        for (; p > 0 && (decode ? fr[order[p - 1]].decode_start : fr[order[p - 1]].issue) > k;
             p--)
            order[p] = order[p - 1];
        order[p] = i;
    }
}

/* Decoding, CFs taking effect (instants on the TS) and code transfers, each
 * track in time order (under lookahead frames are issued out of order). */
static void json_frames(json_t *j)
{
    unsigned n, order[TL_MAX_FRAMES];
    const tl_frame_t *fr = tl_run_frames(j->run, &n);
    char name[40], args[96];
    n = n < TL_MAX_FRAMES ? n : TL_MAX_FRAMES;
    frames_by(fr, n, true, order);
    for (unsigned i = 0; i < n; i++) {
        const tl_frame_t *p = &fr[order[i]];
        if (overlaps(&j->w, p->decode_start, p->decode)) {
            snprintf(name, sizeof name, "decode %s", p->label);
            snprintf(args, sizeof args, "\"frame\":%u", p->frame);
            slice(j, TID_TS, name, "ts", p->decode_start, p->decode, args);
        }
        if (!p->is_if && p->issue != TL_NONE && overlaps(&j->w, p->issue, p->issue)) {
            snprintf(name, sizeof name, "%s (%s)", p->label, p->fence);
            ev(j, "i", TID_TS, name);
            put_us(j->f, "ts", p->issue);
            fprintf(j->f, ",\"s\":\"t\",\"cat\":\"cf\",\"args\":{\"frame\":%u,\"fence\":\"%s\","
                          "\"mask\":\"0x%04x\"}}", p->frame, p->fence, p->mask);
        }
    }
    frames_by(fr, n, false, order);
    for (unsigned i = 0; i < n; i++) {
        const tl_frame_t *p = &fr[order[i]];
        if (p->is_if && p->start != TL_NONE && overlaps(&j->w, p->issue, p->start)) {
            snprintf(args, sizeof args, "\"frame\":%u,\"mask\":\"0x%04x\",\"fence\":\"%s\"",
                     p->frame, p->mask, p->fence);
            slice(j, TID_BUS, p->label, "ts", p->issue, p->start, args);
        }
    }
}

/* Stalls may overlap (lookahead): each goes to the first lane free at its start. */
static unsigned stall_lane(int64_t *lane_end, unsigned *n_lanes, const tl_stall_t *s)
{
    unsigned l = 0;
    while (l < *n_lanes && lane_end[l] > s->from)
        l++;
    if (l == *n_lanes && *n_lanes < MAX_LANES)
        (*n_lanes)++;
    l = l < MAX_LANES ? l : MAX_LANES - 1;
    lane_end[l] = s->to == TL_NONE ? FOREVER : s->to;
    return l;
}

static void json_stalls(json_t *j, bool write)
{
    unsigned n, n_lanes = 0;
    const tl_stall_t *st = tl_run_stalls(j->run, &n);
    int64_t lane_end[MAX_LANES];
    for (unsigned i = 0; i < n; i++) {
        const tl_stall_t *s = &st[i];
        if (!strcmp(s->reason, "decode") || !overlaps(&j->w, s->from, s->to))
            continue;
        unsigned l = stall_lane(lane_end, &n_lanes, s);
        const tl_frame_t *f = tl_run_frame(j->run, s->frame);
        const tl_frame_t *b = s->blocker >= 0 ? tl_run_frame(j->run, (unsigned)s->blocker) : NULL;
        char name[48];
        snprintf(name, sizeof name, "%s waits (%s)", f ? f->label : "?", s->reason);
        if (!write)
            continue;
        char args[128], blocker[48];
        snprintf(args, sizeof args, "\"frame\":%u,\"reason\":\"%s\",\"blocker\":%s", s->frame,
                 s->reason, esc_json_buf(blocker, sizeof blocker, b ? b->label : ""));
        slice(j, TID_STALLS + l, name, "stall", s->from, s->to, args);
    }
    j->stall_lanes = n_lanes ? n_lanes : 1;
}

/* A flow from the task's code transfer (TS code bus) through its start on
 * the core to its READY: one per core task. Flow points sit in the middle
 * of the slices they bind to, so that the binding does not depend on how a
 * viewer orders events of equal timestamps. */
static void json_flow(json_t *j, const tl_task_t *t, const tl_frame_t *f)
{
    static const char *const ph[3] = {"s", "t", "f"};
    int64_t at[3] = {f->issue + (f->start - f->issue) / 2,
                     t->start + (t->finish - t->start) / 2,
                     t->finish + (t->ready - t->finish) / 2};
    unsigned tid[3] = {TID_BUS, TID_CORE + t->core, TID_CORE + t->core};
    for (unsigned k = 0; k < 3; k++) {
        ev(j, ph[k], tid[k], f->label);
        put_us(j->f, "ts", at[k]);
        fprintf(j->f, ",\"cat\":\"task\",\"id\":%u%s}", t->frame * TL_CORES + t->core + 1,
                k ? ",\"bp\":\"e\"" : "");
    }
}

static void json_tasks(json_t *j)
{
    unsigned n;
    const tl_task_t *ts = tl_run_tasks(j->run, &n);
    for (unsigned i = 0; i < n; i++) {
        const tl_task_t *t = &ts[i];
        const tl_frame_t *f = t->f;
        if (!overlaps(&j->w, t->start, t->finish))
            continue;
        char args[224];
        snprintf(args, sizeof args, "\"frame\":%u,\"ordinal\":\"%s\",\"instructions\":%lld,\"sm_accesses\":%lld,"
                 "\"sm_wait_ps\":%lld,\"sm_conflict_ps\":%lld,\"complete\":%s", t->frame,
                 f ? f->ordinal : "",
                 (long long)t->instructions, (long long)t->sm_ops, (long long)t->sm_wait_ps,
                 (long long)t->sm_conflict_ps, t->finish == TL_NONE ? "false" : "true");
        slice(j, TID_CORE + t->core, f ? f->label : "F?", "task", t->start, t->finish, args);
        if (t->finish == TL_NONE || !overlaps(&j->w, t->finish, t->ready))
            continue;
        slice(j, TID_CORE + t->core, "READY", "ready", t->finish, t->ready, "");
        bool whole = f && f->issue != TL_NONE && f->start > f->issue && t->ready > t->finish &&
                     f->issue >= j->w.t0 && t->ready <= j->w.t1 && t->finish > t->start;
        if (whole)
            json_flow(j, t, f);
    }
}

static bool pend_less(const pend_t *x, const pend_t *y)
{
    return x->a.grant < y->a.grant || (x->a.grant == y->a.grant && x->seq < y->seq);
}

static bool pend_push(json_t *j, const pend_t *p)
{
    if (!tl_grow((void **)&j->pend, &j->cap_pend, j->n_pend, sizeof *j->pend))
        return false;
    unsigned i = j->n_pend++;
    for (; i > 0 && pend_less(p, &j->pend[(i - 1) / 2]); i = (i - 1) / 2)
        j->pend[i] = j->pend[(i - 1) / 2];
    j->pend[i] = *p;
    return true;
}

static pend_t pend_pop(json_t *j)
{
    pend_t top = j->pend[0], last = j->pend[--j->n_pend];
    unsigned i = 0, n = j->n_pend;
    for (unsigned c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && pend_less(&j->pend[c + 1], &j->pend[c]))
            c++;
        if (!pend_less(&j->pend[c], &last))
            break;
        j->pend[i] = j->pend[c];
    }
    if (n)
        j->pend[i] = last;
    return top;
}

static void write_access(json_t *j, const pend_t *p)
{
    const exp_access_t *a = &p->a;
    char name[24], args[160];
    snprintf(name, sizeof name, "core %u %s%s", a->core, a->store ? "st" : "ld",
             a->sync ? "_sync" : "");
    snprintf(args, sizeof args, "\"frame\":%u,\"idx\":%lld,\"addr\":\"0x%03x\",\"value\":%u,"
             "\"wait_ps\":%lld", a->frame, (long long)a->idx, a->addr, a->value,
             (long long)(a->arrive != TL_NONE ? a->grant - a->arrive : 0));
    slice(j, TID_BANK + a->bank, name, "sm", a->grant, p->free_at, args);
}

/* The bank slices, each bank's in time order: the accesses come in request
 * order (merged from the cores' streams); a slice is held until no access
 * still to come can be granted before it (grant >= request), a few at most. */
static int json_accesses(json_t *j, exp_stats_t *st, diag_t *d)
{
    acc_merge_t m;
    memset(&m, 0, sizeof m);
    int rc = acc_merge_begin(&m, j->run, &j->w, d) ? TESS_OK : d->code;
    while (rc == TESS_OK) {
        int best = acc_merge_first(&m);
        int64_t lo = best < 0 ? FOREVER : m.cur[best].next.request;
        while (j->n_pend && (best < 0 || j->pend[0].a.grant < lo)) {
            pend_t p = pend_pop(j);
            write_access(j, &p);
        }
        if (best < 0)
            break;
        pend_t p = {.a = m.cur[best].next, .seq = j->seq++};
        p.free_at = exp_bank_free(j->run, &p.a);
        if (p.free_at != TL_NONE && overlaps(&j->w, p.a.grant, p.free_at)) {
            if (!pend_push(j, &p))
                rc = diag_fail(d, TESS_ENOMEM, "out of memory");
            st->accesses++;
        }
        if (rc == TESS_OK && !acc_cursor_advance(&m, &m.cur[best], d))
            rc = d->code;
    }
    acc_merge_end(&m);
    return rc;
}

static void json_tail(json_t *j, const exp_stats_t *st)
{
    if (st->cut_ps) {
        ev(j, "i", TID_TS, "SM accesses not exported from here (--max-accesses)");
        put_us(j->f, "ts", (int64_t)st->cut_ps);
        fputs(",\"s\":\"g\"}", j->f);
    }
    fputs("\n],\n\"otherData\":{\"program\":", j->f);
    esc_json(j->f, j->info->program);
    fprintf(j->f, ",\"run\":%lld,\"status\":", (long long)j->info->run_id);
    esc_json(j->f, j->info->status);
    fprintf(j->f, ",\"level\":\"%s\",\"period_ps\":%llu,\"from_ps\":%lld,\"to_ps\":%lld,"
                  "\"sm_accesses\":%llu,\"sm_accesses_in_window\":%llu,\"sm_accesses_cut_ps\":%llu}"
                  "}\n", j->info->level_name, (unsigned long long)j->info->period_ps,
            (long long)j->w.t0, (long long)j->w.t1, (unsigned long long)st->accesses,
            (unsigned long long)st->accesses_total, (unsigned long long)st->cut_ps);
}

/* Under simt.reconvergence = barrier: the issue on its thread group's track,
 * a sub-row of its warp per lowest lane ("F1 group @lane 2": a warp's groups
 * have disjoint lanes, so two never share one at a time), named after its
 * mnemonic, with its lanes. */
static void group_slice(json_t *j, unsigned frame, const tl_frame_t *f, const char *op,
                        unsigned active, int64_t t)
{
    if (!active || frame >= TL_MAX_FRAMES)
        return;
    unsigned lane = (unsigned)__builtin_ctz(active), tid = TID_GROUP + frame * TL_CORES + lane;
    char name[48], args[64];
    if (!(j->group_track[frame] >> lane & 1)) {
        j->group_track[frame] |= (uint16_t)(1u << lane);
        snprintf(name, sizeof name, "%s group @lane %u", f ? f->label : "F?", lane);
        meta(j, tid, "thread_name", name, tid);
    }
    snprintf(args, sizeof args, "\"frame\":%u,\"lanes\":\"%04x\"", frame, active);
    slice(j, tid, op, "group", t, t + (int64_t)j->info->period_ps, args);
}

/* Every issue of the window on its group's track, in time order (a track's
 * slices are written in time order; the issue ports are written slot by
 * slot). */
static int json_groups(json_t *j, diag_t *d)
{
    sqlite3_stmt *st = tl_run_issue_window(j->run, "time_ps, frame, op, active", "time_ps, ord",
                                           j->w.t0, j->w.t1, d);
    if (!st)
        return d && d->code ? d->code : TESS_EDB;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        unsigned frame = (unsigned)sqlite3_column_int(st, 1);
        const unsigned char *op = sqlite3_column_text(st, 2);
        group_slice(j, frame, tl_run_frame(j->run, frame), op ? (const char *)op : "?",
                    (unsigned)sqlite3_column_int(st, 3), sqlite3_column_int64(st, 0));
    }
    int rc = step == SQLITE_DONE ? TESS_OK : tl_run_fail(j->run, "reading simt_issue", d);
    sqlite3_finalize(st);
    return rc;
}

/* The waits of thread groups at convergence barriers (simt_waits, S14): on
 * a track per lane ("lane 3 at a barrier", beside the cores), a slice per
 * wait of the lane's group ("F1 waits at slot 8"), to the window's end when
 * the run ended first. A lane waits at one barrier at a time. */
static int json_wait(void *arg, const tl_wait_t *w)
{
    json_t *j = arg;
    const tl_frame_t *f = tl_run_frame(j->run, w->frame);
    char name[48], args[128];
    snprintf(args, sizeof args, "\"frame\":%u,\"slot\":%u,\"group\":\"%04x\",\"complete\":%s",
             w->frame, w->slot, w->lanes, w->to == TL_NONE ? "false" : "true");
    for (unsigned m = w->lanes; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctz(m);
        if (!(j->barrier_track >> lane & 1)) {
            j->barrier_track |= (uint16_t)(1u << lane);
            snprintf(name, sizeof name, "lane %u at a barrier", lane);
            meta(j, TID_BARRIER + lane, "thread_name", name, TID_CORE + TL_CORES + lane);
        }
        snprintf(name, sizeof name, "%s waits at slot %u", f ? f->label : "F?", w->slot);
        slice(j, TID_BARRIER + lane, name, "barrier", w->from, w->to == TL_NONE ? FOREVER : w->to,
              args);
    }
    return TESS_OK;
}

static int json_waits(json_t *j, diag_t *d)
{
    return tl_run_waits(j->run, j->w.t0, j->w.t1, json_wait, j, d);
}

/* The SIMT unit's issue port (simt_issue, core.model = simt at level
 * events): a track per issue slot of a cycle ("issue port", "issue port 2",
 * … with simt.issue_width > 1), a one-cycle slice per issued warp
 * instruction named after its warp and mnemonic ("F1 add"), category
 * "diverged" when it issued inside a divergence (SIMT stack depth > 1, its
 * active lanes fewer than the warp's; under simt.reconvergence = barrier
 * depth counts the warp's thread groups), else "issue". */
static int json_issue(json_t *j, diag_t *d)
{
    sqlite3_stmt *st = tl_run_issue_window(
        j->run, "ord, time_ps, frame, op, active, mask, lanes, depth, eligible", "ord, time_ps",
        j->w.t0, j->w.t1, d);
    if (!st)
        return d && d->code ? d->code : TESS_EDB;
    int step, last_ord = -1;
    char name[48], args[160];
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int ord = sqlite3_column_int(st, 0);
        int64_t t = sqlite3_column_int64(st, 1);
        unsigned frame = (unsigned)sqlite3_column_int(st, 2), depth = (unsigned)sqlite3_column_int(st, 7);
        if (ord != last_ord) {
            snprintf(name, sizeof name, ord ? "issue port %d" : "issue port", ord + 1);
            meta(j, TID_ISSUE + (unsigned)ord, "thread_name", name, 50 + (unsigned)ord);
            last_ord = ord;
        }
        const tl_frame_t *f = tl_run_frame(j->run, frame);
        const unsigned char *op = sqlite3_column_text(st, 3);
        snprintf(name, sizeof name, "%s %s", f ? f->label : "F?", op ? (const char *)op : "?");
        snprintf(args, sizeof args,
                 "\"frame\":%u,\"active\":\"%04x\",\"mask\":\"%04x\",\"lanes\":%d,"
                 "\"stack_depth\":%u,\"eligible\":%d",
                 frame, (unsigned)sqlite3_column_int(st, 4), (unsigned)sqlite3_column_int(st, 5),
                 sqlite3_column_int(st, 6), depth, sqlite3_column_int(st, 8));
        slice(j, TID_ISSUE + (unsigned)ord, name, depth > 1 ? "diverged" : "issue", t,
              t + (int64_t)j->info->period_ps, args);
    }
    int rc = step == SQLITE_DONE ? TESS_OK : tl_run_fail(j->run, "reading simt_issue", d);
    sqlite3_finalize(st);
    return rc;
}

int exp_perfetto_write(tl_run_t *run, const exp_opts_t *o, FILE *out, exp_stats_t *st,
                       diag_t *d)
{
    json_t j = {.f = out, .run = run, .info = tl_run_info(run)};
    int rc = open_window(run, o, &j.w, st, d);
    if (rc != TESS_OK)
        return rc;
    fputs("{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[\n", out);
    json_stalls(&j, false);
    json_tracks(&j);
    json_frames(&j);
    json_stalls(&j, true);
    json_tasks(&j);
    if (j.info->level >= REC_EVENTS)
        rc = tl_run_thread_groups(run, &j.groups, d);
    if (rc == TESS_OK && j.groups)
        rc = json_waits(&j, d);
    if (rc == TESS_OK && j.info->level >= REC_EVENTS)
        rc = json_issue(&j, d);
    if (rc == TESS_OK && j.groups)
        rc = json_groups(&j, d);
    if (rc == TESS_OK && j.w.acc)
        rc = json_accesses(&j, st, d);
    if (rc == TESS_OK)
        json_tail(&j, st);
    st->records = j.events;
    tess_free(j.pend);
    if (rc == TESS_OK && ferror(out))
        rc = diag_fail(d, TESS_EIO, "writing the trace failed");
    return rc;
}

/* --- VCD ---------------------------------------------------------------------------- */

/* Every signal is driven by counts, so that changes of one picosecond can be
 * applied in any order: a 1-bit signal is 1 while its count is positive, a
 * 16-bit mask has a count per bit; a value signal (a core's task number) is
 * set and cleared, clears first. */
enum sig_kind { SIG_COUNT, SIG_MASK, SIG_VALUE };
enum op { OP_DEC, OP_INC, OP_CLEAR, OP_SET, OP_CUT };
enum { MAX_SIGS = 4 + 15 + 64 + 3 * TL_CORES + TL_BANKS_MAX }; /* + issue_warp_1…15 */

typedef struct sig {
    char id[4];               /* VCD identifier code */
    char name[32];            /* as given to add_sig (callers use 32-byte buffers) */
    uint8_t width, kind;      /* enum sig_kind */
    bool from_acc;            /* driven by accesses: unknown (x) after the cut */
    bool dirty;               /* changed at the current time */
    int32_t count[16];        /* per bit (SIG_MASK), [0] for SIG_COUNT */
    int32_t value;            /* SIG_VALUE: the value, -1 = none (z) */
    char last[24];            /* the value last written */
} sig_t;

typedef struct change {
    int64_t t;
    uint16_t sig;
    uint8_t op, bit;          /* enum op; the bit of a mask */
    int32_t value;            /* OP_SET */
} change_t;

typedef struct vcd {
    FILE *f;
    tl_run_t *run;
    const tl_info_t *info;
    win_t w;
    sig_t sig[MAX_SIGS];
    unsigned n_sig, dirty[MAX_SIGS], n_dirty;
    int sig_issue, sig_issue_active; /* the SIMT issue port (slot 0's warp; every lane), -1: none */
    unsigned issue_slots;     /* its slots per cycle: issue_warp, issue_warp_1, … */
    int sig_bus, sig_mask, sig_if[64], sig_busy[TL_CORES], sig_task[TL_CORES],
        sig_wait[TL_CORES], sig_bank[TL_BANKS_MAX];
    change_t *heap;
    size_t n_heap, cap_heap;
    acc_merge_t acc;          /* the accesses, in request order */
    bool dumped, cut;
    int64_t stamp;            /* the last "#t" written */
    uint64_t changes;
} vcd_t;

static int add_sig(vcd_t *v, const char *name, unsigned width, unsigned kind, bool from_acc)
{
    if (v->n_sig >= MAX_SIGS)
        return -1;
    unsigned i = v->n_sig++, k = i;
    sig_t *s = &v->sig[i];
    for (int o = 0; o < 3; o++, k /= 93) { /* printable ASCII but '$' */
        unsigned ch = '!' + k % 93;
        s->id[o] = (char)(ch >= '$' ? ch + 1 : ch);
        if (k < 93)
            break;
    }
    snprintf(s->name, sizeof s->name, "%s", name);
    s->width = (uint8_t)width, s->kind = (uint8_t)kind, s->from_acc = from_acc;
    s->value = -1;
    return (int)i;
}

static bool heap_less(const change_t *a, const change_t *b)
{
    return a->t < b->t || (a->t == b->t && a->op < b->op);
}

static bool push(vcd_t *v, int64_t t, int sig, unsigned op, unsigned bit, int32_t value)
{
    if (t == TL_NONE || sig < 0)
        return true;
    if (v->n_heap == v->cap_heap) {
        size_t cap = v->cap_heap ? v->cap_heap * 2 : 1024;
        change_t *h = tess_realloc(v->heap, cap * sizeof *h);
        if (!h)
            return false;
        v->heap = h, v->cap_heap = cap;
    }
    change_t c = {t, (uint16_t)sig, (uint8_t)op, (uint8_t)bit, value};
    size_t i = v->n_heap++;
    for (; i > 0 && heap_less(&c, &v->heap[(i - 1) / 2]); i = (i - 1) / 2)
        v->heap[i] = v->heap[(i - 1) / 2];
    v->heap[i] = c;
    return true;
}

static change_t pop(vcd_t *v)
{
    change_t top = v->heap[0], last = v->heap[--v->n_heap];
    size_t i = 0, n = v->n_heap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && heap_less(&v->heap[c + 1], &v->heap[c]))
            c++;
        if (!heap_less(&v->heap[c], &last))
            break;
        v->heap[i] = v->heap[c], i = c;
    }
    if (n)
        v->heap[i] = last;
    return top;
}

static void declare_signals(vcd_t *v)
{
    char name[32];
    unsigned n;
    const tl_frame_t *fr = tl_run_frames(v->run, &n);
    bool acc = v->info->level >= REC_MEM;
    v->sig_bus = add_sig(v, "bus_busy", 1, SIG_COUNT, false);
    v->sig_mask = add_sig(v, "exec_mask", 16, SIG_MASK, false);
    if (v->sig_issue >= 0) { /* set by has_issue_port() */
        v->sig_issue = add_sig(v, "issue_warp", 8, SIG_VALUE, false);
        for (unsigned k = 1; k < v->issue_slots; k++) { /* ids follow issue_warp's */
            snprintf(name, sizeof name, "issue_warp_%u", k);
            add_sig(v, name, 8, SIG_VALUE, false);
        }
        v->sig_issue_active = add_sig(v, "issue_active", 16, SIG_MASK, false);
    }
    for (unsigned i = 0; i < 64; i++)
        v->sig_if[i] = -1;
    for (unsigned i = 0; i < n; i++) {
        if (!fr[i].is_if)
            continue;
        snprintf(name, sizeof name, "frame%u_exec_mask", fr[i].frame);
        v->sig_if[fr[i].frame] = add_sig(v, name, 16, SIG_MASK, false);
    }
    for (unsigned c = 0; c < TL_CORES; c++) {
        snprintf(name, sizeof name, "core%u_busy", c);
        v->sig_busy[c] = add_sig(v, name, 1, SIG_COUNT, false);
        snprintf(name, sizeof name, "core%u_task", c);
        v->sig_task[c] = add_sig(v, name, 8, SIG_VALUE, false);
        snprintf(name, sizeof name, "core%u_smwait", c);
        v->sig_wait[c] = acc ? add_sig(v, name, 1, SIG_COUNT, true) : -1;
    }
    for (unsigned b = 0; b < v->info->banks; b++) {
        snprintf(name, sizeof name, "bank%u_busy", b);
        v->sig_bank[b] = acc ? add_sig(v, name, 1, SIG_COUNT, true) : -1;
    }
}

static void var_lines(vcd_t *v, int first, int last)
{
    for (int i = first; i <= last && i >= 0; i++)
        fprintf(v->f, "$var wire %u %s %s $end\n", v->sig[i].width, v->sig[i].id,
                v->sig[i].name);
}

static void write_header(vcd_t *v)
{
    FILE *f = v->f;
    const tl_info_t *i = v->info;
    fprintf(f, "$date %s $end\n$version Tessera %s $end\n$comment run %lld of ",
            i->started_at, TESSERA_VERSION, (long long)i->run_id);
    esc_vcd_comment(f, i->program);
    fprintf(f, " (%s, level %s), window [%lld, %lld) ps", i->status, i->level_name,
            (long long)v->w.t0, (long long)v->w.t1);
    if (v->w.cut)
        fprintf(f, "; SM accesses requested from %llu ps on are not exported (x)",
                (unsigned long long)v->w.cut);
    fputs(" $end\n$timescale 1 ps $end\n$scope module gpu $end\n$scope module ts $end\n", f);
    var_lines(v, 0, v->sig_busy[0] - 1);
    fputs("$upscope $end\n$scope module cores $end\n", f);
    for (unsigned c = 0; c < TL_CORES; c++)
        var_lines(v, v->sig_busy[c], v->sig_wait[c] >= 0 ? v->sig_wait[c] : v->sig_task[c]);
    fputs("$upscope $end\n", f);
    if (v->sig_bank[0] >= 0) {
        fputs("$scope module banks $end\n", f);
        var_lines(v, v->sig_bank[0], v->sig_bank[v->info->banks - 1]);
        fputs("$upscope $end\n", f);
    }
    fputs("$upscope $end\n$enddefinitions $end\n", f);
}

/* The frames' and core tasks' changes: all known up front. */
static bool static_changes(vcd_t *v)
{
    unsigned n, nf;
    const tl_task_t *ts = tl_run_tasks(v->run, &n);
    const tl_frame_t *fr = tl_run_frames(v->run, &nf);
    bool ok = true;
    for (unsigned i = 0; i < nf && ok; i++)
        if (fr[i].is_if && fr[i].start != TL_NONE)
            ok = push(v, fr[i].issue, v->sig_bus, OP_INC, 0, 0) &&
                 push(v, fr[i].start, v->sig_bus, OP_DEC, 0, 0);
    for (unsigned i = 0; i < n && ok; i++) {
        const tl_task_t *t = &ts[i];
        int64_t issue = t->f && t->f->issue != TL_NONE ? t->f->issue : t->start;
        int mask_if = v->sig_if[t->frame];
        ok = push(v, t->start, v->sig_busy[t->core], OP_INC, 0, 0) &&
             push(v, t->finish, v->sig_busy[t->core], OP_DEC, 0, 0) &&
             push(v, t->start, v->sig_task[t->core], OP_SET, 0, t->frame) &&
             push(v, t->finish, v->sig_task[t->core], OP_CLEAR, 0, 0) &&
             push(v, issue, v->sig_mask, OP_INC, t->core, 0) &&
             push(v, t->ready, v->sig_mask, OP_DEC, t->core, 0) &&
             push(v, issue, mask_if, OP_INC, t->core, 0) &&
             push(v, t->ready, mask_if, OP_DEC, t->core, 0);
    }
    if (ok && v->w.cut && v->info->level >= REC_MEM)
        ok = push(v, (int64_t)v->w.cut, 0, OP_CUT, 0, 0);
    return ok;
}

static void apply(vcd_t *v, const change_t *c)
{
    if (c->op == OP_CUT) {
        v->cut = true;
        for (unsigned i = 0; i < v->n_sig; i++)
            if (v->sig[i].from_acc && !v->sig[i].dirty)
                v->sig[i].dirty = true, v->dirty[v->n_dirty++] = i;
        return;
    }
    sig_t *s = &v->sig[c->sig];
    if (c->op == OP_INC || c->op == OP_DEC)
        s->count[c->bit & 15] += c->op == OP_INC ? 1 : -1;
    else
        s->value = c->op == OP_SET ? c->value : -1;
    if (!s->dirty)
        s->dirty = true, v->dirty[v->n_dirty++] = c->sig;
}

static void value_text(const vcd_t *v, const sig_t *s, char *out)
{
    if (s->from_acc && v->cut) {
        strcpy(out, s->width == 1 ? "x" : "bx ");
        return;
    }
    if (s->kind == SIG_COUNT) {
        strcpy(out, s->count[0] > 0 ? "1" : "0");
        return;
    }
    if (s->kind == SIG_VALUE && s->value < 0) {
        strcpy(out, "bz ");
        return;
    }
    unsigned bits = 0, o = 0;
    for (unsigned b = 0; b < s->width; b++)
        if (s->kind == SIG_MASK ? s->count[b] > 0 : (s->value >> b) & 1)
            bits |= 1u << b;
    out[o++] = 'b';
    int top = s->width - 1;
    while (top > 0 && !((bits >> top) & 1))
        top--;
    for (int b = top; b >= 0; b--)
        out[o++] = (bits >> b) & 1 ? '1' : '0';
    strcpy(out + o, " ");
}

/* Writes the changed signals at time t (under "#t" if any changed). */
static void flush(vcd_t *v, int64_t t, bool all)
{
    bool stamped = all;
    for (unsigned k = 0; k < (all ? v->n_sig : v->n_dirty); k++) {
        sig_t *s = &v->sig[all ? k : v->dirty[k]];
        char text[24];
        s->dirty = false;
        value_text(v, s, text);
        if (!all && !strcmp(text, s->last))
            continue;
        if (!stamped)
            fprintf(v->f, "#%lld\n", (long long)t), stamped = true, v->stamp = t;
        fprintf(v->f, "%s%s\n", text, s->id);
        strcpy(s->last, text);
        v->changes++;
    }
    v->n_dirty = 0;
}

static void dump_initial(vcd_t *v)
{
    fprintf(v->f, "#%lld\n$dumpvars\n", (long long)v->w.t0);
    v->stamp = v->w.t0;
    flush(v, v->w.t0, true);
    for (unsigned i = 0; i < v->n_sig; i++)
        v->sig[i].dirty = false;
    fputs("$end\n", v->f);
    v->dumped = true;
}

static void clear_dirty(vcd_t *v)
{
    for (unsigned k = 0; k < v->n_dirty; k++)
        v->sig[v->dirty[k]].dirty = false;
    v->n_dirty = 0;
}

/* Applies every change before `limit` in time order: those before the
 * window silently, the window's initial values at its start, then the
 * changes up to the window's end included (the run's last READY is there). */
static void drain(vcd_t *v, int64_t limit)
{
    while (v->n_heap && v->heap[0].t < limit && v->heap[0].t <= v->w.t1) {
        int64_t t = v->heap[0].t;
        if (!v->dumped && t > v->w.t0)
            dump_initial(v);
        while (v->n_heap && v->heap[0].t == t) {
            change_t c = pop(v);
            apply(v, &c);
        }
        if (v->dumped)
            flush(v, t, false);
        else if (t == v->w.t0)
            dump_initial(v);
        else
            clear_dirty(v);
    }
}

static bool push_access(vcd_t *v, const exp_access_t *a)
{
    int wait = v->sig_wait[a->core], bank = v->sig_bank[a->bank];
    return push(v, a->request, wait, OP_INC, 0, 0) && push(v, a->done, wait, OP_DEC, 0, 0) &&
           (a->grant == TL_NONE ||
            (push(v, a->grant, bank, OP_INC, 0, 0) &&
             push(v, exp_bank_free(v->run, a), bank, OP_DEC, 0, 0)));
}

/* Merges the cores' access streams (each in time order) into the changes. */
static int merge_accesses(vcd_t *v, exp_stats_t *st, diag_t *d)
{
    if (!acc_merge_begin(&v->acc, v->run, &v->w, d))
        return d->code;
    for (;;) {
        int best = acc_merge_first(&v->acc);
        int64_t lo = best < 0 ? FOREVER : v->acc.cur[best].next.request;
        drain(v, lo);
        if (best < 0 || lo > v->w.t1)
            return TESS_OK;
        if (!push_access(v, &v->acc.cur[best].next))
            return diag_fail(d, TESS_ENOMEM, "out of memory");
        st->accesses++;
        if (!acc_cursor_advance(&v->acc, &v->acc.cur[best], d))
            return d->code;
    }
}

/* Does the run have SIMT issue records (core.model = simt, level events)?
 * Then the VCD carries the issue port: sig_issue 0 (declared), else -1. */
static int has_issue_port(vcd_t *v, diag_t *d)
{
    v->sig_issue = v->sig_issue_active = -1;
    int rc = tl_run_issue_slots(v->run, &v->issue_slots, d);
    if (v->issue_slots > 0)
        v->sig_issue = 0;
    return rc;
}

/* The issue port's changes: for each warp instruction issued in slot K of
 * a cycle, issue_warp (K = 0) or issue_warp_K = its warp's frame index for
 * that cycle, and its active lanes are set in issue_active (the lanes of
 * every slot: warps' lanes are disjoint); z and 0 in cycles nobody issued. */
static int issue_changes(vcd_t *v, diag_t *d)
{
    sqlite3_stmt *st = tl_run_prepare(
        v->run, "SELECT time_ps, frame, active, ord FROM simt_issue WHERE run_id = ?1", d);
    if (!st)
        return TESS_EDB;
    int step;
    bool ok = true;
    int64_t p = (int64_t)v->info->period_ps;
    while (ok && (step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t t = sqlite3_column_int64(st, 0);
        const tl_frame_t *f = tl_run_frame(v->run, (unsigned)sqlite3_column_int(st, 1));
        unsigned active = (unsigned)sqlite3_column_int(st, 2);
        unsigned slot = (unsigned)sqlite3_column_int(st, 3);
        int sig = v->sig_issue + (int)(slot < v->issue_slots ? slot : 0);
        ok = push(v, t, sig, OP_SET, 0, f ? f->frame : 255) && push(v, t + p, sig, OP_CLEAR, 0, 0);
        for (unsigned b = 0; ok && b < 16; b++)
            if (active >> b & 1)
                ok = push(v, t, v->sig_issue_active, OP_INC, b, 0) &&
                     push(v, t + p, v->sig_issue_active, OP_DEC, b, 0);
    }
    int rc = !ok ? diag_fail(d, TESS_ENOMEM, "out of memory")
             : step == SQLITE_DONE ? TESS_OK : tl_run_fail(v->run, "reading simt_issue", d);
    sqlite3_finalize(st);
    return rc;
}

int exp_vcd_write(tl_run_t *run, const exp_opts_t *o, FILE *out, exp_stats_t *st, diag_t *d)
{
    vcd_t *v = tess_calloc(1, sizeof *v);
    if (!v)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    v->f = out, v->run = run, v->info = tl_run_info(run);
    int rc = open_window(run, o, &v->w, st, d);
    if (rc == TESS_OK)
        rc = has_issue_port(v, d);
    if (rc == TESS_OK) {
        declare_signals(v);
        write_header(v);
        if (!static_changes(v))
            rc = diag_fail(d, TESS_ENOMEM, "out of memory");
    }
    if (rc == TESS_OK && v->sig_issue >= 0)
        rc = issue_changes(v, d);
    if (rc == TESS_OK && v->w.acc)
        rc = merge_accesses(v, st, d);
    if (rc == TESS_OK) {
        drain(v, FOREVER);
        if (!v->dumped)
            dump_initial(v);
        if (v->stamp < v->w.t1)
            fprintf(out, "#%lld\n", (long long)v->w.t1);
    }
    st->records = v->changes;
    acc_merge_end(&v->acc);
    tess_free(v->heap);
    tess_free(v);
    if (rc == TESS_OK && ferror(out))
        rc = diag_fail(d, TESS_EIO, "writing the VCD failed");
    return rc;
}

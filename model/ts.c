/* ts.c — the Task Scheduler (spec §3, T1–T5, D3, D5, D15). One evaluation
 * event per picosecond decides, in program order over the decoded frames,
 * which CFs take effect and which IF goes on the code bus; it runs after the
 * READY arrivals, decodes and transfers of that picosecond (GPU_PRIO_*).
 * The lookahead policy decodes up to `window` frames past the first frame not
 * yet issued; inorder is the same with a window of one (D5). */
#include "model/ts.h"

#include <assert.h>
#include <string.h>

#include "model/gpu_impl.h"

static void decode_cb(sim_t *sim, sim_event_t *ev);
static void xfer_cb(sim_t *sim, sim_event_t *ev);
static void eval_cb(sim_t *sim, sim_event_t *ev);

/* Frames the policy may decode ahead of the first one not issued (D5). */
static unsigned window_of(const gpu_desc_t *d)
{
    switch ((gpu_policy_t)d->policy) {
    case GPU_POLICY_INORDER: return 1; /* lookahead with a window of one frame */
    case GPU_POLICY_LOOKAHEAD: return d->window;
    case GPU_POLICY_COUNT: break;
    }
    return 1; /* not reached: gpu_desc_check rejects it */
}

void ts_init(ts_t *ts, struct gpu *g, const tm_program_t *tm)
{
    memset(ts, 0, sizeof *ts);
    ts->gpu = g;
    ts->tm = tm;
    ts->n = tm->n_frames;
    ts->window = window_of(&g->desc);
    ts->xfer_frame = -1;
    for (unsigned f = 0; f < TM_FRAMES; f++) {
        ts_frame_t *fr = &ts->f[f];
        fr->grp = tm->group_of[f];
        fr->stall = TS_NO_STALL;
        fr->decode_start = fr->decoded = fr->issued = SIM_TIME_NEVER;
        fr->started = fr->completed = SIM_TIME_NEVER;
    }
    rng_seed(&ts->rng, g->desc.seed, RNG_STREAM_TS);
    sim_event_init(&ts->decode_ev, decode_cb, ts, GPU_PRIO_TS, "ts.decode");
    sim_event_init(&ts->xfer_ev, xfer_cb, ts, GPU_PRIO_TS, "ts.xfer");
    sim_event_init(&ts->eval_ev, eval_cb, ts, GPU_PRIO_TS_EVAL, "ts.eval");
}

void ts_attach(ts_t *ts, const engine_t *engine)
{
    ts->engine = engine;
}

/* --- frames ----------------------------------------------------------- */

static const tm_group_t *group_of(const ts_t *ts, unsigned f)
{
    return &ts->tm->groups[ts->f[f].grp];
}

static bool is_if(const ts_t *ts, unsigned f) { return !tm_is_cf(ts->tm, f); }
static sim_time_t now_of(const ts_t *ts) { return sim_now(ts->gpu->sim); }

static sim_time_t draw(ts_t *ts, const lat_t *l)
{
    return gpu_cycles(ts->gpu, lat_sample(l, &ts->rng));
}

static void report_frame(ts_t *ts, unsigned f, bool complete)
{
    if (!(ts->gpu->trace & GPU_TRACE_FRAMES))
        return;
    const ts_frame_t *fr = &ts->f[f];
    const tm_group_t *g = group_of(ts, f);
    gpu_tr_frame_t r = {
        .frame = (uint8_t)f,
        .is_if = is_if(ts, f),
        .grp = g->cf,
        .fence = g->fence,
        .mask = g->cores,
        .complete = complete,
        .decode_start_ps = fr->decode_start,
        .decode_ps = fr->decoded,
        .issue_ps = fr->issued,
        .start_ps = fr->started,
        .complete_ps = fr->completed,
    };
    sim_trace(ts->gpu->sim, GPU_TR_FRAME, &r);
}

/* --- why frames wait ---------------------------------------------------- */

static void emit_stall(ts_t *ts, unsigned f, unsigned reason, unsigned blocker,
                       sim_time_t from, sim_time_t to)
{
    if (to <= from)
        return;
    ts->stall_ps[reason] += to - from;
    if (!(ts->gpu->trace & GPU_TRACE_FRAMES))
        return;
    gpu_tr_stall_t r = {
        .frame = (uint8_t)f, .reason = (uint8_t)reason, .blocker = (uint8_t)blocker,
        .from_ps = from, .to_ps = to,
    };
    sim_trace(ts->gpu->sim, GPU_TR_STALL, &r);
}

static void stall_close(ts_t *ts, unsigned f)
{
    ts_frame_t *fr = &ts->f[f];
    if (fr->stall == TS_NO_STALL)
        return;
    emit_stall(ts, f, fr->stall, fr->stall_blocker, fr->stall_since, now_of(ts));
    fr->stall = TS_NO_STALL;
}

static void stall_set(ts_t *ts, unsigned f, unsigned reason, unsigned blocker)
{
    ts_frame_t *fr = &ts->f[f];
    if (fr->stall == reason && fr->stall_blocker == blocker)
        return;
    stall_close(ts, f);
    fr->stall = (uint8_t)reason;
    fr->stall_blocker = (uint8_t)blocker;
    fr->stall_since = now_of(ts);
}

/* --- issue rules -------------------------------------------------------- */

#define NO_BLOCK TS_NO_STALL

/* T2: a CF takes effect when no unfinished earlier task belongs to an acq
 * group; with lookahead, CFs also take effect in program order. */
static unsigned cf_blocker(const ts_t *ts, unsigned f, unsigned *blocker)
{
    for (unsigned e = 0; e < f; e++) {
        if (ts->f[e].state != TSF_DONE && is_if(ts, e) && group_of(ts, e)->fence == TM_FENCE_ACQ) {
            *blocker = e;
            return GPU_STALL_ACQ;
        }
    }
    for (unsigned e = ts->head; e < f; e++) {
        if (ts->f[e].state != TSF_DONE && !is_if(ts, e)) {
            *blocker = e;
            return GPU_STALL_ORDER;
        }
    }
    return NO_BLOCK;
}

/* Rules 1–3 (§3, D15) against every earlier task not complete, issued or
 * not. Reported in the order acq, rel, mask. */
static unsigned if_blocker(const ts_t *ts, unsigned f, unsigned *blocker)
{
    const tm_group_t *g = group_of(ts, f);
    if (ts->f[g->cf].state != TSF_DONE) {
        unsigned why = cf_blocker(ts, g->cf, blocker);
        if (why == NO_BLOCK)
            *blocker = g->cf;
        return why == NO_BLOCK ? GPU_STALL_ORDER : why;
    }
    int rel = -1, mask = -1;
    for (unsigned e = 0; e < f; e++) {
        if (ts->f[e].state == TSF_DONE || !is_if(ts, e))
            continue;
        const tm_group_t *ge = group_of(ts, e);
        if (ge != g && ge->fence == TM_FENCE_ACQ) {
            *blocker = e;
            return GPU_STALL_ACQ;                         /* rule 2 */
        }
        if (rel < 0 && ge != g && g->fence == TM_FENCE_REL)
            rel = (int)e;                                 /* rule 3 */
        if (mask < 0 && (ge->cores & g->cores))
            mask = (int)e;                                /* rule 1, task-granular */
    }
    if (rel >= 0 || mask >= 0) {
        *blocker = (unsigned)(rel >= 0 ? rel : mask);
        return rel >= 0 ? GPU_STALL_REL : GPU_STALL_MASK;
    }
    return NO_BLOCK;
}

/* --- actions ------------------------------------------------------------ */

static void request_eval(ts_t *ts)
{
    if (!sim_event_pending(&ts->eval_ev))
        sim_schedule(ts->gpu->sim, &ts->eval_ev, now_of(ts));
}

static void maybe_decode(ts_t *ts)
{
    unsigned f = ts->next_decode;
    if (sim_event_pending(&ts->decode_ev) || f >= ts->n || f >= ts->head + ts->window)
        return;
    ts->f[f].state = TSF_DECODING;
    ts->f[f].decode_start = now_of(ts);
    sim_schedule(ts->gpu->sim, &ts->decode_ev, now_of(ts) + draw(ts, &ts->gpu->desc.ts_decode));
}

static void take_effect(ts_t *ts, unsigned f)
{
    const tm_group_t *g = group_of(ts, f);
    ts_frame_t *fr = &ts->f[f];
    stall_close(ts, f);
    fr->state = TSF_DONE;
    fr->issued = now_of(ts);
    ts->done++;
    if (g->if_num == 0)
        ts->r0_pending[f] = g->init_vect & g->cores; /* D3: a group without tasks */
    report_frame(ts, f, true);
}

static void issue(ts_t *ts, unsigned f)
{
    ts_frame_t *fr = &ts->f[f];
    stall_close(ts, f);
    fr->state = TSF_ISSUED;
    fr->issued = now_of(ts);
    ts->xfer_frame = (int)f;
    ts->tasks_issued++;
    sim_time_t xfer = draw(ts, &ts->gpu->desc.ts_xfer);
    ts->bus_busy_ps += xfer;
    sim_schedule(ts->gpu->sim, &ts->xfer_ev, now_of(ts) + xfer);
}

static void try_frame(ts_t *ts, unsigned f)
{
    unsigned blocker = 0xff;
    if (!is_if(ts, f)) {
        unsigned why = cf_blocker(ts, f, &blocker);
        if (why == NO_BLOCK)
            take_effect(ts, f);
        else
            stall_set(ts, f, why, blocker);
        return;
    }
    unsigned why = if_blocker(ts, f, &blocker);
    if (why == NO_BLOCK && ts->xfer_frame >= 0) {
        why = GPU_STALL_BUS;                              /* T3, T4 */
        blocker = (unsigned)ts->xfer_frame;
    }
    if (why == NO_BLOCK)
        issue(ts, f);
    else
        stall_set(ts, f, why, blocker);
}

/* True when an earlier task not yet complete runs (or will run) on `core`. */
static bool core_owed(const ts_t *ts, unsigned before, unsigned core)
{
    for (unsigned e = 0; e < before; e++)
        if (ts->f[e].state != TSF_DONE && is_if(ts, e) && (group_of(ts, e)->cores >> core & 1))
            return true;
    return false;
}

/* D3: a group without tasks sets R0 once every earlier task on the core is complete. */
static void apply_r0_inits(ts_t *ts)
{
    for (unsigned f = 0; f < ts->n; f++) {
        for (uint16_t m = ts->r0_pending[f]; m; m &= m - 1) {
            unsigned c = (unsigned)__builtin_ctz(m);
            if (core_owed(ts, f, c))
                continue;
            engine_set_r0(ts->engine, c, group_of(ts, f)->init_r0[c]);
            ts->r0_pending[f] &= (uint16_t)~(1u << c);
        }
    }
}

/* --- events ------------------------------------------------------------- */

static void decode_cb(sim_t *sim, sim_event_t *ev)
{
    ts_t *ts = ev->data;
    unsigned f = ts->next_decode++;
    ts->f[f].state = TSF_DECODED;
    ts->f[f].decoded = sim_now(sim);
    emit_stall(ts, f, GPU_STALL_DECODE, 0xff, ts->f[f].decode_start, ts->f[f].decoded);
    request_eval(ts);
}

static void eval_cb(sim_t *sim, sim_event_t *ev)
{
    ts_t *ts = ev->data;
    (void)sim;
    for (unsigned f = ts->head; f < ts->next_decode; f++)
        if (ts->f[f].state == TSF_DECODED)
            try_frame(ts, f);
    while (ts->head < ts->n && ts->f[ts->head].state >= TSF_ISSUED)
        ts->head++;
    apply_r0_inits(ts); /* before any task issued now can start (T4: xfer_cb comes later) */
    maybe_decode(ts);
}

/* T4: the transfer ended; the group's cores start together. */
static void xfer_cb(sim_t *sim, sim_event_t *ev)
{
    ts_t *ts = ev->data;
    unsigned f = (unsigned)ts->xfer_frame;
    const tm_group_t *grp = group_of(ts, f);
    ts_frame_t *fr = &ts->f[f];
    ts->xfer_frame = -1;
    fr->state = TSF_RUNNING;
    fr->started = sim_now(sim);
    fr->exec_mask = grp->cores;
    engine_task_t task = {
        .frame = f,
        .cores = grp->cores,
        .init = f == grp->cf + 1u ? (uint16_t)(grp->init_vect & grp->cores) : 0, /* D3 */
        .r0 = grp->init_r0,
    };
    if (engine_start(ts->engine, &task))
        request_eval(ts);
}

void ts_on_ready(void *owner, txn_t *t)
{
    ts_t *ts = owner;
    struct gpu *g = ts->gpu;
    unsigned f = t->frame, c = t->core;
    ts_frame_t *fr = &ts->f[f];
    sim_time_t now = sim_now(g->sim);
    txn_release(&g->pool, t);
    assert(fr->exec_mask >> c & 1);
    fr->exec_mask &= (uint16_t)~(1u << c);
    ts->last_ready = now;
    engine_reported(ts->engine, c, now);
    if (fr->exec_mask)
        return;
    fr->state = TSF_DONE;                                 /* T5: EXEC_MASK is 0 */
    fr->completed = now;
    ts->done++;
    report_frame(ts, f, true);
    request_eval(ts);
}

void ts_start(ts_t *ts)
{
    maybe_decode(ts);
}

bool ts_finished(const ts_t *ts)
{
    if (ts->done < ts->n)
        return false;
    for (unsigned f = 0; f < ts->n; f++)
        if (ts->r0_pending[f])
            return false;
    return true;
}

void ts_counters(const ts_t *ts)
{
    sim_t *sim = ts->gpu->sim;
    gpu_counter(sim, GPU_CTR_TS_TASKS_ISSUED, 0, ts->tasks_issued);
    gpu_counter(sim, GPU_CTR_TS_BUS_BUSY_PS, 0, ts->bus_busy_ps);
    for (unsigned r = 0; r < GPU_STALL_REASONS; r++)
        gpu_counter_reason(sim, GPU_CTR_TS_STALL, gpu_stall_name(r), ts->stall_ps[r]);
}

void ts_report_partial(ts_t *ts)
{
    for (unsigned f = 0; f < ts->n; f++) {
        stall_close(ts, f);
        if (ts->f[f].state != TSF_DONE && ts->f[f].state != TSF_PENDING)
            report_frame(ts, f, false);
    }
}

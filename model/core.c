/* core.c — one core: runs a task's instructions through isa_run (the only
 * home of their semantics), blocks on SM accesses, sends READY (T6, T7, D11,
 * D12). advance() is the one way instructions run: in decoupled mode as many
 * as possible on the core's local clock, in stepped mode one per event, and
 * one at a time when latencies are drawn — so the modes share every step and
 * their timestamps are the same by construction (a test checks it). */
#include "model/core.h"

#include <assert.h>
#include <string.h>

#include "events/base/err.h"
#include "model/gpu_impl.h"
#include "model/isa_ops.h"
#include "model/sm.h" /* sm_on_request: the usual receiver of the requests (link_send_usual) */

/* A decoupled core hands control back to the event loop after this many
 * instructions without an outside interaction, so that signals, wall-clock
 * limits and progress lines are served during long local loops. It resumes
 * at its own local time: the timestamps do not change. */
#define CORE_SLICE (UINT64_C(1) << 20)

static void step_cb(sim_t *sim, sim_event_t *ev);
static void advance(core_t *c, const txn_t *answered);
static void answered_one_by_one(core_t *c, const txn_t *t);

/* The instructions of one slice (CORE_SLICE, fewer when an instruction may
 * take up to `max_ps`): a slice advances the core's local time by at most
 * 2^62 ps, so that a core that starts one before the end of simulated time
 * (SIM_TIME_END, 2^63 ps) ends it without wrapping, and the kernel stops the
 * run at its next event. */
static uint64_t core_slice(sim_time_t max_ps)
{
    uint64_t fit = max_ps ? (UINT64_C(1) << 62) / max_ps : CORE_SLICE;
    return fit < 1 ? 1 : fit < CORE_SLICE ? fit : CORE_SLICE;
}

/* How far below its budget a decoupled core may run on its fast path: a
 * core's run ahead starts at an event (now) from at most an answer's trip
 * (sm.bank + sm.resp) later and runs at most a slice (c->slice) of instructions of at
 * most the longest core latency, while a core `near` instructions short of
 * its budget cannot watchdog before now + (near - 1) cycles (each
 * instruction takes a cycle at least). In cycles, drawn latencies at their
 * largest. */
static uint64_t fast_budget(const core_t *c, const gpu_desc_t *d)
{
    uint64_t longest = 0;
    for (unsigned k = 0; k < ISA_CLASS_LOCAL; k++)
        longest = lat_max(c->lat[k]) > longest ? lat_max(c->lat[k]) : longest;
    uint64_t near = lat_max(&d->sm_bank) + lat_max(&d->sm_resp) + c->slice * longest + 2;
    return d->budget > near ? d->budget - near : 0;
}

int core_init(core_t *c, struct gpu *g, unsigned id)
{
    const gpu_desc_t *d = &g->desc;
    memset(c, 0, sizeof *c);
    c->gpu = g;
    c->sim = g->sim;
    c->stepped = gpu_stepped(d);
    c->atomics = d->atomics;
    c->id = (uint8_t)id;
    rng_seed(&c->rng, d->seed, RNG_STREAM_CORE(id));
#define CLASS_LAT(P, id, name, field) c->lat[P##id] = &d->field;
    ISA_CLASSES(CLASS_LAT)
#undef CLASS_LAT
    c->lat_fixed = true;
    for (unsigned k = 0; k < ISA_CLASS_COUNT; k++)
        c->lat_fixed &= lat_is_fixed(c->lat[k]);
    c->one_by_one = c->stepped || !c->lat_fixed;
    for (unsigned k = 0; k < ISA_CLASS_COUNT && c->lat_fixed; k++)
        c->lat_ps[k] = gpu_cycles(g, c->lat[k]->lo);
    c->slice = core_slice(gpu_cycles(g, LAT_MAX_CYCLES));
    c->fast_budget = fast_budget(c, d);
    c->run.code = c->code;
    c->run.lat = c->lat_ps;
    sim_event_init(&c->step_ev, step_cb, c, GPU_PRIO_CORE, "core.step");
    port_init(&c->start_port, g->sim, 0, GPU_PRIO_CORE, core_on_start, c, "ts->core");
    c->req = txn_alloc(&g->pool);
    if (!c->req)
        return TESS_ENOMEM;
    c->req->kind = GPU_TXN_SM_REQ;
    c->req->core = c->id;
    return TESS_OK;
}

void core_wire(core_t *c, port_recv_fn on_ready, void *ready_owner, port_recv_fn on_request,
               void *mem)
{
    port_init(&c->ready_port, c->sim, 0, GPU_PRIO_ANSWER, on_ready, ready_owner, "core->ts");
    link_init(&c->mem, c->sim, !c->stepped, GPU_PRIO_SM_ARRIVE, on_request, mem, "core->sm");
}

/* A latency of class `cls` (ld/st: the request's trip to the bank), in ps. */
static inline sim_time_t latency(core_t *c, unsigned cls)
{
    if (c->lat_fixed)
        return c->lat_ps[cls];
    return gpu_cycles(c->gpu, lat_sample(c->lat[cls], &c->rng));
}

/* The race detector's part of a request (off the hot path). */
static __attribute__((noinline, cold)) void race_request(core_t *c, const isa_step_t *s)
{
    race_access(c->gpu->races, c->frame, c->id, c->run.ip, s->cls == ISA_CLASS_ST,
                s->sync && c->atomics, s->addr);
}

/* Sends the SM request of the ld/st `s` that stopped the run; it starts at
 * run.t. */
static void request(core_t *c, const isa_step_t *s)
{
    txn_t *t = c->req;
    t->addr = s->addr;
    t->flags = (uint16_t)((s->cls == ISA_CLASS_ST ? GPU_TXN_STORE : 0) |
                          (s->sync && c->atomics ? GPU_TXN_SYNC : 0));
    t->data = s->value;
    c->ld_reg = s->reg;
    if (c->gpu->races)
        race_request(c, s);
    c->end_after_answer = s->finished;
    t->t_created = t->t_sent = c->run.t;
    c->req_arrive = c->run.t + latency(c, ISA_CLASS_LD);
    link_send_usual(&c->mem, t, c->req_arrive, sm_on_request); /* gpu.c wires the SM */
}

/* A task of `frame` begins at `now`: its bookkeeping, for both engines (a
 * core's own task, core_on_start; a lane's, core_lane_start). */
static inline void begin_task(core_t *c, unsigned frame, sim_time_t now)
{
    assert(!c->busy);
    c->busy = true;
    c->reported = false;
    c->frame = (uint8_t)frame;
    c->run.n = 0;
    c->task_start = now;
    c->task_sm_ops = 0;
    c->task_sm_wait = c->task_sm_conflict = 0;
    c->tasks++;
}

/* The task (run.n instructions) ended at `f`: its counters are folded into
 * the core's, and READY reaches the TS ts.ready cycles later (T5), for both
 * engines (finish, core_lane_finish). false when no transaction was left
 * (the run has failed). */
static inline bool end_task(core_t *c, sim_time_t f)
{
    struct gpu *g = c->gpu;
    c->busy = false;
    c->task_finish = f;
    c->busy_ps += f - c->task_start;
    if (g->ivl[0] || g->ivl[1])
        gpu_ivl_span(g, IVL_CORE_BUSY, c->id, c->task_start, f);
    c->instructions += c->run.n;
    c->sm_ops += c->task_sm_ops;
    c->sm_wait_ps += c->task_sm_wait;
    c->sm_conflict_ps += c->task_sm_conflict;
    txn_t *t = gpu_txn(g, GPU_TXN_READY);
    if (!t)
        return false;
    t->core = c->id;
    t->frame = c->frame;
    sim_time_t trip = gpu_cycles(g, lat_sample(&g->desc.ts_ready, &c->rng));
    port_send(&c->ready_port, t, f - sim_now(c->sim) + trip);
    return true;
}

/* Σ n[]. */
static uint64_t slot_total(const uint64_t n[ISA_SLOTS])
{
    uint64_t t = 0;
    for (unsigned s = 0; s < ISA_SLOTS; s++)
        t += n[s];
    return t;
}

/* The slot profile (slots.c): the task ended (complete) or is still running
 * at the end of the run: its cycles and instructions are charged to its
 * slots in struct gpu's sums, from what it kept on the way — its taken bnz
 * by slot (isa_run), its SM waits by slot, its drawn latencies by slot — so
 * that its instruction loop counts nothing per instruction. */
static __attribute__((noinline, cold)) void charge_slots(const core_t *c, bool complete)
{
    struct gpu *g = c->gpu;
    const isa_run_t *run = &c->run;
    unsigned ip = run->ip < ISA_SLOTS ? run->ip : ISA_SLOTS;
    uint64_t n[ISA_SLOTS];
    bool waiting = false;
    if (complete) {
        /* ended by a ld/st in slot 15 (at its answer), else by the instruction
           that ended its last run (ready, or leaving slot 15) */
        isa_slot_counts(c->code, run->taken, c->end_after_answer ? ISA_SLOTS - 1 : run->last_ip,
                        ISA_SLOTS, n);
    } else {
        /* still running: about to run ip — or waiting for the answer of the
           ld/st at ip, which ran: then the counts with ip not run fall one
           short of the instructions it ran */
        isa_slot_counts(c->code, run->taken, ISA_SLOTS, ip, n);
        if (ip < ISA_SLOTS && slot_total(n) + 1 == run->n) {
            waiting = true;
            isa_slot_counts(c->code, run->taken, ISA_SLOTS, ip + 1, n);
        }
    }
    gpu_tr_slot_t *p = g->slots[c->id][c->frame];
    sim_time_t charged = 0;
    for (unsigned s = 0; s < ISA_SLOTS; s++) {
        unsigned op = c->code[s].op;
        sim_time_t exec = op == ISA_LD || op == ISA_ST ? 0 : n[s] * run->lat[isa_class(op)];
        exec += c->slot_exec[s];
        p[s].tasks++;
        p[s].instructions += n[s];
        p[s].lane_instructions += n[s];
        p[s].execute_ps += exec;
        p[s].sm_wait_ps += c->slot_wait[s];
        charged += exec + c->slot_wait[s];
    }
    if (complete)
        return;
    /* up to the stop: an unanswered ld/st has waited since it started (as
       core_tasks counts it: not SM wait), the last instruction's latency
       is cut at the stop (modulo 2^64: the sums stay exact) */
    sim_time_t busy = sim_now(c->sim) - c->task_start;
    unsigned at = waiting || !run->n || run->last_ip >= ISA_SLOTS
                      ? (ip < ISA_SLOTS ? ip : ISA_SLOTS - 1) : run->last_ip;
    p[at].execute_ps += busy - charged;
}

/* The task ended at run.t (its cycles charged to its slots: the slot profile). */
static __attribute__((noinline)) void finish(core_t *c)
{
    if (c->gpu->trace & GPU_TRACE_SLOTS)
        charge_slots(c, true);
    end_task(c, c->run.t);
}

/* D12: the next instruction would exceed the budget. The run stops when that
 * instruction would start (decoupled: the core may be ahead of time). */
static void advance_one_by_one(core_t *c);

static __attribute__((noinline)) void over_budget(core_t *c)
{
    if (c->run.n < c->gpu->desc.budget) { /* the fast path's: bound every core first */
        gpu_watch(c->gpu);
        advance_one_by_one(c);
        return;
    }
    if (c->run.t == sim_now(c->sim))
        gpu_watchdog(c->gpu, c->id, c->frame, c->run.ip);
    else
        sim_schedule(c->sim, &c->step_ev, c->run.t);
}

void core_set_itrace(core_t *c, itrace_fn fn, void *user)
{
    c->itrace = fn;
    c->itrace_user = user;
    c->one_by_one = c->stepped || !c->lat_fixed || fn || c->gpu->ivl[0] || c->gpu->ivl[1] ||
                    c->gpu->horizon != SIM_TIME_NEVER;
}

port_recv_fn core_answer_receiver(const core_t *c)
{
    return c->itrace ? core_on_answer_traced : core_on_answer;
}

/* Reports one executed instruction (slot `ip`, started at `t`); for a ld or
 * st, `m` is its answered request. Off the hot path: only traced cores. */
static __attribute__((noinline, cold)) void trace_insn(core_t *c, unsigned ip, sim_time_t t,
                                                        const txn_t *m)
{
    const isa_decoded_t *d = &c->code[ip];
    uint16_t word = isa_make(d->op, d->a, d->b, d->c); /* the fields are the word's */
    itrace_rec_t r = {
        .when = t, .frame = c->frame, .unit = c->id, .lanes = 1, .slot = (uint8_t)ip,
        .word = word, .wmask = itrace_writes(word),
        .regs = (const uint8_t(*)[ISA_REGS]) & c->r,
    };
    if (m) {
        r.mem = true;
        r.store = (m->flags & GPU_TXN_STORE) != 0;
        r.addr[0] = (uint16_t)m->addr;
        r.bank[0] = (uint8_t)gpu_bank_of(c->gpu->desc.bank_map, c->gpu->desc.banks, m->addr);
        r.value[0] = (uint8_t)m->data;
    }
    c->itrace(c->itrace_user, &r);
}

/* isa_run on a traced core: one instruction, reported unless it is a ld/st
 * (reported at its answer, when its value is known). */
static __attribute__((noinline, cold)) isa_stop_t traced_run(core_t *c)
{
    unsigned ip = c->run.ip;
    sim_time_t t = c->run.t;
    uint64_t n = c->run.n;
    isa_stop_t stop = isa_run(c->r, c->id, &c->run);
    if (stop != ISA_STOP_MEMORY && c->run.n > n)
        trace_insn(c, ip, t, NULL);
    return stop;
}


/* The fast path is not taken any more (one_by_one), and fast_budget 0 makes
 * advance_one_by_one look at the horizon before every step (at_horizon). */
void core_bound(core_t *c)
{
    c->one_by_one = true;
    c->fast_budget = 0;
}

/* How many instructions from run.t (<= the horizon) a bounded core may run
 * at once: one when each must be looked at (stepped, drawn latencies,
 * traced, interval statistics), else as many as surely start by the horizon
 * (each takes at most the longest core-local latency before the next; ld/st
 * and the task's end stop the run anyway), at least one. */
static uint64_t chunk(const core_t *c)
{
    const struct gpu *g = c->gpu;
    if (c->stepped || !c->lat_fixed || c->itrace || g->ivl[0] || g->ivl[1])
        return 1;
    if (g->horizon == SIM_TIME_NEVER)
        return UINT64_MAX;
    /* the longest fixed latency of a core-local class, found here rather than
       kept in core_t: a longer core_t costs the hot paths' indexing of the
       cores, and a bounded run's chunks are not hot */
    sim_time_t longest = 0;
    for (unsigned k = 0; k < ISA_CLASS_LOCAL; k++)
        longest = c->lat_ps[k] > longest ? c->lat_ps[k] : longest;
    if (longest == 0)
        return UINT64_MAX;
    return (g->horizon - c->run.t) / longest + 1;
}

/* advance_one_by_one's look at the horizon, for a core near its budget or
 * bounded (fast_budget 0): bounds every core first (gpu_watch) when running
 * ahead near the budget (see fast_budget); moves the watchdog's bound on when
 * the core's event fired at it. Returns 0 when the core must wait (an event
 * at run.t, after the horizon: it never runs, or the bound has moved on by
 * then), else how many instructions it may run at once (chunk), at least 1. */
static __attribute__((noinline, cold)) uint64_t at_horizon(core_t *c, uint64_t slice_end)
{
    struct gpu *g = c->gpu;
    isa_run_t *run = &c->run;
    if (!c->stepped && !g->bounded)
        gpu_watch(g);
    if (run->t > g->horizon && run->t == sim_now(c->sim) && g->horizon == g->watch_at)
        gpu_watch(g);
    if (run->t > g->horizon) {
        sim_schedule(c->sim, &c->step_ev, run->t);
        return 0;
    }
    uint64_t most = chunk(c), left = g->desc.budget - run->n;
    most = most < left ? most : left;
    left = slice_end - run->n;
    most = most < left ? most : left;
    return most ? most : 1; /* at the budget or the slice's end: looked at next */
}

/* advance() one instruction, or one chunk, at a time (stepped, drawn
 * latencies, traced, interval statistics, a horizon): the general loop. */
static __attribute__((noinline)) void advance_one_by_one(core_t *c)
{
    isa_run_t *run = &c->run;
    const uint64_t budget = c->gpu->desc.budget;
    uint64_t slice_end = run->n + c->slice;
    for (;;) {
        uint64_t most = 1;
        if (__builtin_expect(run->n >= c->fast_budget, 0) && !(most = at_horizon(c, slice_end)))
            return;
        if (run->n == budget) {
            over_budget(c);
            return;
        }
        if (run->n >= slice_end) {
            sim_schedule(c->sim, &c->step_ev, run->t); /* step_cb resumes here */
            sim_yield(c->sim);                         /* let the host loop look */
            return;
        }
        run->budget = run->n + most;
        sim_time_t started = run->t;
        uint64_t before = run->n;
        isa_stop_t stop = __builtin_expect(c->itrace != NULL, 0) ? traced_run(c)
                                                                 : isa_run(c->r, c->id, run);
        if (run->n != before && (c->gpu->ivl[0] || c->gpu->ivl[1]))
            gpu_ivl_add(c->gpu, IVL_CORE_INSTR, c->id, started, run->n - before);
        if (stop == ISA_STOP_MEMORY) {
            request(c, &run->last);
            return;
        }
        if (!c->lat_fixed) { /* the one instruction's drawn latency */
            sim_time_t l = latency(c, run->last.cls);
            run->t += l;
            if (c->profiled) /* one instruction: it ended the run */
                c->slot_exec[run->last_ip] += l;
        }
        if (stop == ISA_STOP_FINISHED) {
            finish(c);
            return;
        }
        if (c->stepped && run->n < budget) {
            sim_schedule(c->sim, &c->step_ev, run->t);
            return;
        }
    }
}

/* What an SM answer `t` changes in the core before it runs on: the ld's
 * register, the task's access figures, its local time. */
static inline __attribute__((always_inline)) void take_answer(core_t *c, const txn_t *t)
{
    /* t_arrived belongs to the last hop (the answer, in stepped mode) */
    if (!(t->flags & GPU_TXN_STORE))
        c->r[c->ld_reg] = (uint8_t)t->data; /* the byte read at the grant */
    c->task_sm_ops++;
    c->task_sm_wait += t->t_done - t->t_created;
    c->task_sm_conflict += t->t_granted - c->req_arrive;
    if (c->profiled) /* the slot profile's SM wait by slot */
        c->slot_wait[c->run.ip] += t->t_done - t->t_created;
    c->run.t = t->t_done;
}

/* Runs instructions from run.ip at run.t until the core must wait for
 * something outside it (an SM answer, READY) — or, stepped, for its next
 * event; first, when `answered` is not NULL, takes that SM answer (the
 * decoupled core's answer receiver is this function: one frame for the
 * answer and the run that follows it). Decoupled with fixed latencies (the
 * hot path) that is one isa_run up to the budget or the end of the slice,
 * with isa_run's body included (model/isa_run_body.h: no call per access;
 * flatten inlines the rest). */
__attribute__((flatten)) GPU_NO_SLP static void advance(core_t *c, const txn_t *answered)
{
    if (__builtin_expect(c->one_by_one, 0)) {
        if (answered)
            answered_one_by_one(c, answered);
        else
            advance_one_by_one(c);
        return;
    }
    isa_run_t *run = &c->run;
    if (answered) { /* decoupled, untraced, no interval statistics: one_by_one is off */
        take_answer(c, answered);
        if (c->end_after_answer) {
            finish(c); /* T6: a ld/st in slot 15 ends the task when its answer arrives */
            return;
        }
        run->ip++;
    }
    uint64_t slice_end = run->n + c->slice;
    if (run->n == c->fast_budget) {
        over_budget(c);
        return;
    }
    run->budget = c->fast_budget < slice_end ? c->fast_budget : slice_end;
    isa_stop_t stop;
    isa_step_t step; /* the ld/st that stops the run: a local, not run.last, on its way
                        to request() (no store the compiler must keep for others) */
    step.reg = step.value = 0; /* a ld sets no value, a st no reg (request copies both;
                                  LTO's maybe-uninitialized); one 16-bit store */
    {
        uint8_t *restrict r = c->r;
        unsigned core_id = c->id;
        isa_step_t *last = &step;
#include "model/isa_run_body.h" /* isa_run without a call */
    }
    if (__builtin_expect(stop == ISA_STOP_MEMORY, 1))
        request(c, &step);
    else if (stop == ISA_STOP_FINISHED)
        finish(c);
    else if (run->n == c->fast_budget)
        over_budget(c);
    else {
        sim_schedule(c->sim, &c->step_ev, run->t); /* step_cb resumes here */
        sim_yield(c->sim);                         /* let the host loop look */
    }
}

/* Stepped mode: the next instruction. Both modes: the watchdog; decoupled:
 * the continuation of a long local loop (CORE_SLICE). */
static void step_cb(sim_t *sim, sim_event_t *ev)
{
    core_t *c = ev->data;
    assert(c->run.t == sim_now(sim));
    (void)sim;
    advance(c, NULL);
}

/* Continues after something that ended at run.t. */
static void resume(core_t *c)
{
    if (c->stepped)
        sim_schedule(c->sim, &c->step_ev, c->run.t);
    else
        advance(c, NULL);
}

void core_on_start(void *core, txn_t *t)
{
    core_t *c = core;
    struct gpu *g = c->gpu;
    begin_task(c, t->frame, sim_now(c->sim));
    c->req->frame = t->frame;
    isa_decode_task(g->prog.tm.code[t->frame], c->code);
    if (t->flags & GPU_TXN_INIT_R0)
        c->r[0] = (uint8_t)t->data;
    txn_release(&g->pool, t);
    c->run.ip = 0;
    c->run.t = c->task_start;
    c->end_after_answer = false;
    if (c->profiled) { /* the slot profile's per-task counts */
        memset(c->run.taken, 0, sizeof c->run.taken);
        memset(c->slot_wait, 0, sizeof c->slot_wait);
        memset(c->slot_exec, 0, sizeof c->slot_exec);
        c->run.last_ip = ISA_SLOTS;
    }
    resume(c);
}

/* Interval statistics: the core waited for its access `t`. */
static __attribute__((noinline, cold)) void ivl_wait(core_t *c, const txn_t *t)
{
    gpu_ivl_span(c->gpu, IVL_CORE_WAIT, c->id, t->t_created, t->t_done);
}

/* An SM answer to a core that runs one instruction at a time (stepped,
 * drawn latencies, traced, interval statistics); `traced` is a constant of
 * each caller, so the untraced receiver has no trace code at all (the
 * answer link is rewired when the trace is turned on: core_set_itrace). */
static inline __attribute__((always_inline)) void on_answer(core_t *c, const txn_t *t,
                                                            bool traced)
{
    take_answer(c, t);
    if (c->gpu->ivl[0] || c->gpu->ivl[1]) /* interval statistics set one_by_one */
        ivl_wait(c, t);
    if (traced)
        trace_insn(c, c->run.ip, t->t_created, t);
    if (c->end_after_answer) {
        finish(c); /* T6: a ld/st in slot 15 ends the task when its answer arrives */
        return;
    }
    c->run.ip++;
    resume(c);
}

static __attribute__((noinline)) void answered_one_by_one(core_t *c, const txn_t *t)
{
    on_answer(c, t, false);
}

void core_on_answer(void *core, txn_t *t) { advance(core, t); }

void core_on_answer_traced(void *core, txn_t *t) { on_answer(core, t, true); }

static void report(core_t *c, sim_time_t ready_ps, bool complete)
{
    gpu_tr_core_task_t r = {
        .frame = c->frame,
        .core = c->id,
        .complete = complete,
        .start_ps = c->task_start,
        .finish_ps = c->busy ? SIM_TIME_NEVER : c->task_finish,
        .ready_ps = ready_ps,
        .instructions = c->run.n,
        .sm_ops = c->task_sm_ops,
        .sm_wait_ps = c->task_sm_wait,
        .sm_conflict_ps = c->task_sm_conflict,
    };
    sim_trace(c->sim, GPU_TR_CORE_TASK, &r);
}

void core_task_reported(core_t *c, sim_time_t ready_ps)
{
    c->reported = true;
    if (c->gpu->trace & GPU_TRACE_TASKS)
        report(c, ready_ps, true);
}

void core_report_partial(core_t *c)
{
    if (c->busy && (c->gpu->trace & GPU_TRACE_SLOTS) && c->gpu->desc.model != GPU_MODEL_SIMT)
        charge_slots(c, false);
    if (c->tasks == 0 || c->reported || !(c->gpu->trace & GPU_TRACE_TASKS))
        return;
    report(c, SIM_TIME_NEVER, false);
}

void core_ivl_running(core_t *c)
{
    if (c->busy)
        gpu_ivl_span(c->gpu, IVL_CORE_BUSY, c->id, c->task_start, sim_now(c->sim));
}

sim_time_t core_watchdog_bound(const core_t *c, sim_time_t now)
{
    if (!c->busy)
        return SIM_TIME_NEVER;
    const gpu_desc_t *d = &c->gpu->desc;
    sim_time_t from = c->run.t > now ? c->run.t : now;
    return gpu_sat_add(from, gpu_sat_mul(d->budget - c->run.n, d->period_ps));
}

/* --- a lane of the SIMT unit ------------------------------------------------- */

static const uint64_t no_latency[ISA_CLASS_COUNT]; /* isa_run adds nothing: time is the unit's */

void core_as_lane(core_t *c) { c->run.lat = no_latency; }

void core_lane_start(core_t *c, unsigned frame, const isa_decoded_t *code, sim_time_t now)
{
    begin_task(c, frame, now);
    c->run.code = code;
}

bool core_lane_finish(core_t *c, uint64_t n, sim_time_t f)
{
    c->run.n = n;
    return end_task(c, f);
}

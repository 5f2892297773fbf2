/* core.c — one core: runs a task's instructions through isa_exec (the only
 * home of their semantics), blocks on SM accesses, sends READY (T6, T7, D11,
 * D12). Decoupled mode loops over instructions on the core's local clock;
 * stepped mode schedules one event per instruction. Both share exec_one(), so
 * their timestamps are the same by construction (and a test checks it). */
#include "model/core.h"

#include <assert.h>
#include <string.h>

#include "model/gpu_impl.h"

typedef enum core_action {
    CORE_CONTINUE,            /* the next instruction starts at c->t */
    CORE_WAIT_SM,             /* an SM request is on its way */
    CORE_FINISHED,            /* the task ended; READY leaves at c->t */
    CORE_OVER_BUDGET,         /* the next instruction would exceed the budget (D12) */
} core_action_t;

static void step_cb(sim_t *sim, sim_event_t *ev);

void core_init(core_t *c, struct gpu *g, unsigned id)
{
    const gpu_desc_t *d = &g->desc;
    memset(c, 0, sizeof *c);
    c->gpu = g;
    c->id = (uint8_t)id;
    rng_seed(&c->rng, d->seed, 0x100 + id);
    c->lat[ISA_CLASS_ALU] = &d->core_alu;
    c->lat[ISA_CLASS_MUL] = &d->core_mul;
    c->lat[ISA_CLASS_DIV] = &d->core_div;
    c->lat[ISA_CLASS_BRANCH] = &d->core_branch;
    c->lat[ISA_CLASS_READY] = &d->core_ready;
    c->lat[ISA_CLASS_LD] = &d->sm_req;
    c->lat[ISA_CLASS_ST] = &d->sm_req;
    c->lat_fixed = true;
    for (unsigned k = 0; k <= ISA_CLASS_ST; k++) {
        c->lat_fixed &= lat_is_fixed(c->lat[k]);
        c->lat_ps[k] = gpu_cycles(g, c->lat[k]->lo);
    }
    sim_event_init(&c->step_ev, step_cb, c, GPU_PRIO_CORE, "core.step");
    port_init(&c->ready_port, g->sim, 0, GPU_PRIO_ANSWER, ts_on_ready, &g->ts, "core->ts");
    port_init(&c->req_port, g->sim, 0, GPU_PRIO_SM_ARRIVE, sm_on_request, &g->sm, "core->sm");
    port_init(&c->resp_port, g->sim, 0, GPU_PRIO_ANSWER, core_on_answer, c, "sm->core");
    port_init(&c->start_port, g->sim, 0, GPU_PRIO_CORE, core_on_start, c, "ts->core");
}

/* The latency of an instruction class (ld/st: the request's trip to the bank). */
static inline sim_time_t latency(core_t *c, unsigned cls)
{
    if (c->lat_fixed)
        return c->lat_ps[cls];
    return gpu_cycles(c->gpu, lat_sample(c->lat[cls], &c->rng));
}

/* Sends an SM request for the ld/st `s` that starts at c->t. */
static void request(core_t *c, const isa_step_t *s)
{
    struct gpu *g = c->gpu;
    txn_t *t = gpu_txn(g, GPU_TXN_SM_REQ);
    if (!t)
        return;
    t->core = c->id;
    t->frame = c->frame;
    t->addr = s->addr;
    t->flags = (uint16_t)((s->cls == ISA_CLASS_ST ? GPU_TXN_STORE : 0) |
                          (s->sync && g->desc.atomics ? GPU_TXN_SYNC : 0));
    t->data = s->value;
    c->ld_reg = s->reg;
    t->t_created = c->t;
    sim_time_t trip = latency(c, ISA_CLASS_LD);
    c->req_arrive = c->t + trip;
    if (g->desc.timing == GPU_TIMING_STEPPED) {
        port_send(&c->req_port, t, c->t + trip - sim_now(g->sim));
        return;
    }
    t->t_sent = c->t;
    t->t_arrived = c->t + trip;
    sm_post(&g->sm, t);
}

/* Executes the instruction at c->ip, which starts at c->t. */
static core_action_t exec_one(core_t *c)
{
    if (c->task_insns == c->gpu->desc.budget)
        return CORE_OVER_BUDGET;
    isa_step_t s;
    isa_exec(c->r, c->id, c->ip, c->code[c->ip], &s);
    c->task_insns++;
    c->instructions++;
    c->div_by_zero += s.div_by_zero;
    if (s.cls >= ISA_CLASS_LD) {
        c->end_after_answer = s.finished;
        request(c, &s);
        return CORE_WAIT_SM;
    }
    c->t += latency(c, s.cls);
    if (s.finished)
        return CORE_FINISHED;
    c->ip = s.next_ip;
    return CORE_CONTINUE;
}

/* The task ended at c->t: READY reaches the TS ts.ready cycles later (T5). */
static void finish(core_t *c)
{
    struct gpu *g = c->gpu;
    c->busy = false;
    c->task_finish = c->t;
    c->busy_ps += c->t - c->task_start;
    txn_t *t = gpu_txn(g, GPU_TXN_READY);
    if (!t)
        return;
    t->core = c->id;
    t->frame = c->frame;
    sim_time_t trip = gpu_cycles(g, lat_sample(&g->desc.ts_ready, &c->rng));
    port_send(&c->ready_port, t, c->t - sim_now(g->sim) + trip);
}

static void over_budget(core_t *c)
{
    gpu_watchdog(c->gpu, c->id, c->frame, c->ip);
}

/* Decoupled mode: runs until the core must wait for something outside it. */
static void run_ahead(core_t *c)
{
    for (;;) {
        switch (exec_one(c)) {
        case CORE_CONTINUE:
            continue;
        case CORE_WAIT_SM:
            return;
        case CORE_FINISHED:
            finish(c);
            return;
        case CORE_OVER_BUDGET: /* stop when the over-budget instruction would start */
            sim_schedule(c->gpu->sim, &c->step_ev, c->t);
            return;
        }
    }
}

/* Stepped mode: one instruction per event. In decoupled mode this event only
 * fires for the watchdog. */
static void step_cb(sim_t *sim, sim_event_t *ev)
{
    core_t *c = ev->data;
    assert(c->t == sim_now(sim));
    if (c->gpu->desc.timing == GPU_TIMING_DECOUPLED) {
        over_budget(c);
        return;
    }
    switch (exec_one(c)) {
    case CORE_CONTINUE:
        sim_schedule(sim, &c->step_ev, c->t);
        break;
    case CORE_WAIT_SM:
        break;
    case CORE_FINISHED:
        finish(c);
        break;
    case CORE_OVER_BUDGET:
        over_budget(c);
        break;
    }
}

/* Continues after an instruction that ended at c->t. */
static void resume(core_t *c)
{
    if (c->gpu->desc.timing == GPU_TIMING_STEPPED)
        sim_schedule(c->gpu->sim, &c->step_ev, c->t);
    else
        run_ahead(c);
}

void core_on_start(void *core, txn_t *t)
{
    core_t *c = core;
    struct gpu *g = c->gpu;
    assert(!c->busy);
    c->busy = true;
    c->frame = (uint8_t)t->frame;
    c->ip = 0;
    c->t = sim_now(g->sim);
    memcpy(c->code, g->prog.tm.code[t->frame], sizeof c->code);
    if (t->flags & GPU_TXN_INIT_R0)
        c->r[0] = (uint8_t)t->data;
    txn_release(&g->pool, t);
    c->task_start = c->t;
    c->reported = false;
    c->task_insns = 0;
    c->task_sm_ops = 0;
    c->task_sm_wait = c->task_sm_conflict = 0;
    c->tasks++;
    resume(c);
}

void core_on_answer(void *core, txn_t *t)
{
    core_t *c = core;
    /* t_arrived belongs to the last hop (the answer, in stepped mode) */
    sim_time_t wait = t->t_done - t->t_created, conflict = t->t_granted - c->req_arrive;
    if (!(t->flags & GPU_TXN_STORE))
        c->r[c->ld_reg] = (uint8_t)t->data; /* the byte read at the grant */
    c->task_sm_ops++;
    c->task_sm_wait += wait;
    c->task_sm_conflict += conflict;
    c->sm_ops++;
    c->sm_wait_ps += wait;
    c->sm_conflict_ps += conflict;
    c->t = t->t_done;
    txn_release(&c->gpu->pool, t);
    if (c->end_after_answer) {
        finish(c); /* T6: a ld/st in slot 15 ends the task when its answer arrives */
        return;
    }
    c->ip++;
    resume(c);
}

static void report(core_t *c, sim_time_t ready_ps, bool complete)
{
    gpu_tr_core_task_t r = {
        .frame = c->frame,
        .core = c->id,
        .complete = complete,
        .start_ps = c->task_start,
        .finish_ps = c->busy ? SIM_TIME_NEVER : c->task_finish,
        .ready_ps = ready_ps,
        .instructions = c->task_insns,
        .sm_ops = c->task_sm_ops,
        .sm_wait_ps = c->task_sm_wait,
        .sm_conflict_ps = c->task_sm_conflict,
    };
    sim_trace(c->gpu->sim, GPU_TR_CORE_TASK, &r);
}

void core_task_reported(core_t *c, sim_time_t ready_ps)
{
    c->reported = true;
    if (c->gpu->trace & GPU_TRACE_TASKS)
        report(c, ready_ps, true);
}

void core_report_partial(core_t *c)
{
    if (c->tasks == 0 || c->reported || !(c->gpu->trace & GPU_TRACE_TASKS))
        return;
    report(c, SIM_TIME_NEVER, false);
}

/* cores.c — the 16 independent cores as one execution engine (engine.h):
 * a task start becomes one TASK_START per core of its mask, each an event
 * on that core's start port at the start time, in core order; READY, the
 * registers, the statistics and the end-of-run reports are the cores'. */
#include "model/core.h"

#include <string.h>

#include "model/gpu_impl.h"

static bool cores_start(void *self, const engine_task_t *task)
{
    core_t *cores = self;
    for (uint16_t m = task->cores; m; m &= m - 1) {
        unsigned c = (unsigned)__builtin_ctz(m);
        txn_t *t = gpu_txn(cores[c].gpu, GPU_TXN_TASK_START);
        if (!t)
            return false;
        t->frame = (uint16_t)task->frame;
        t->core = (uint16_t)c;
        if (task->init >> c & 1) {
            t->flags = GPU_TXN_INIT_R0;
            t->data = task->r0[c];
        }
        port_send(&cores[c].start_port, t, 0);
    }
    return true;
}

static void cores_set_r0(void *self, unsigned core, uint8_t value)
{
    core_t *cores = self;
    cores[core].r[0] = value;
}

static void cores_reported(void *self, unsigned core, sim_time_t ready_ps)
{
    core_t *cores = self;
    core_task_reported(&cores[core], ready_ps);
}

static void cores_regs(const void *self, arch_state_t *out)
{
    const core_t *cores = self;
    for (unsigned c = 0; c < GPU_CORES; c++)
        memcpy(out->regs[c], cores[c].r, ISA_REGS);
}

static void cores_stats(const void *self, gpu_stats_t *s)
{
    const core_t *cores = self;
    for (unsigned c = 0; c < GPU_CORES; c++) {
        const core_t *k = &cores[c];
        s->core_tasks += k->tasks;
        s->instructions += core_instructions(k);
        s->div_by_zero += k->run.div_by_zero;
    }
}

static void cores_report_partial(void *self)
{
    core_t *cores = self;
    for (unsigned c = 0; c < GPU_CORES; c++)
        core_report_partial(&cores[c]);
}

static void cores_counters(void *self)
{
    core_t *cores = self;
    for (unsigned c = 0; c < GPU_CORES; c++) {
        const core_t *k = &cores[c];
        sim_t *sim = k->sim;
        gpu_counter(sim, GPU_CTR_CORE_TASKS, c, k->tasks);
        gpu_counter(sim, GPU_CTR_CORE_INSTRUCTIONS, c, core_instructions(k));
        /* a task still running when the run stopped is busy up to the stop */
        sim_time_t running = k->busy ? sim_now(sim) - k->task_start : 0;
        gpu_counter(sim, GPU_CTR_CORE_BUSY_PS, c, k->busy_ps + running);
        gpu_counter(sim, GPU_CTR_CORE_SM_OPS, c, k->sm_ops);
        gpu_counter(sim, GPU_CTR_CORE_SM_WAIT_PS, c,
                    k->sm_wait_ps + (k->busy ? k->task_sm_wait : 0));
        gpu_counter(sim, GPU_CTR_CORE_SM_CONFLICT_PS, c, k->sm_conflict_ps);
        gpu_counter(sim, GPU_CTR_CORE_DIV_BY_ZERO, c, k->run.div_by_zero);
    }
}

static void cores_itrace(void *self, itrace_fn fn, void *user)
{
    core_t *k = self;
    for (unsigned c = 0; c < GPU_CORES; c++)
        core_set_itrace(&k[c], fn, user);
}

/* A core has run to run.t: the start of its next instruction, or of the
 * ld/st it waits on, or its task's end (idle: its last task's end). */
static sim_time_t cores_frontier(const void *self)
{
    const core_t *cores = self;
    sim_time_t at = 0;
    for (unsigned c = 0; c < GPU_CORES; c++)
        at = cores[c].run.t > at ? cores[c].run.t : at;
    return at;
}

static void cores_bound(void *self)
{
    core_t *cores = self;
    for (unsigned c = 0; c < GPU_CORES; c++)
        core_bound(&cores[c]);
}

static const engine_ops_t cores_ops = {
    .start = cores_start,
    .set_r0 = cores_set_r0,
    .reported = cores_reported,
    .regs = cores_regs,
    .stats = cores_stats,
    .report_partial = cores_report_partial,
    .counters = cores_counters,
    .itrace = cores_itrace,
    .frontier = cores_frontier,
    .bound = cores_bound,
};

void cores_engine(engine_t *e, core_t *cores)
{
    e->ops = &cores_ops;
    e->self = cores;
}

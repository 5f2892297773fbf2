/* engine.h — the execution engine as the rest of the machine sees it: what
 * runs the tasks the TS starts and sends READY back. Today that is the 16
 * cores (cores.c); a SIMT unit (SIMT-SPEC S1: lanes = cores, one warp per
 * task) is another engine. gpu.c chooses one when it wires the machine; the
 * TS and gpu.c reach the engine's state (registers, statistics, end-of-run
 * reports) only through these operations, never through its structures. */
#ifndef TESSERA_ENGINE_H
#define TESSERA_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "events/sim.h"
#include "model/arch.h"
#include "model/gpu.h"
#include "model/itrace.h"

/* A task start (T4): the whole task at once; an engine made of independent
 * cores splits it into one start per core, a SIMT unit takes it as a warp. */
typedef struct engine_task {
    unsigned frame;           /* the IF's Task Memory frame */
    uint16_t cores;           /* Core_Active_Vect: the cores (lanes) that run it */
    uint16_t init;            /* of those, the cores whose R0 is set first (D3, T4) */
    const uint8_t *r0;        /* R0 values by core id (the group's init_r0) */
} engine_task_t;

typedef struct engine_ops {
    /* T4: the task's code has arrived; its cores start now (their events
     * come after the current one, at GPU_PRIO_CORE). Returns false when the
     * run had to stop (no transaction left). */
    bool (*start)(void *self, const engine_task_t *task);
    /* D3: a group without tasks sets `core`'s R0 now (the TS has checked
     * that no earlier task is owed on that core). */
    void (*set_r0)(void *self, unsigned core, uint8_t value);
    /* `core`'s READY for its current task reached the TS at `ready_ps`. */
    void (*reported)(void *self, unsigned core, sim_time_t ready_ps);
    /* The register files as they are now (out->regs; out->sm is not touched). */
    void (*regs)(const void *self, arch_state_t *out);
    /* Adds its totals to `s`: core_tasks, instructions, div_by_zero. */
    void (*stats)(const void *self, gpu_stats_t *s);
    /* End of run: reports each task still running as a partial record. */
    void (*report_partial)(void *self);
    /* End of run: its counters (GPU_TR_COUNTER) through the trace hook. */
    void (*counters)(void *self);
    /* Reports every instruction executed from now on to fn(user, record)
     * (itrace.h); fn NULL: none. Must not change any timestamp. */
    void (*itrace)(void *self, itrace_fn fn, void *user);
    /* The latest instant it has run to (decoupled: it may be ahead of
     * sim_now): nothing it did — an instruction started, an answer taken —
     * lies after it. */
    sim_time_t (*frontier)(const void *self);
    /* From now on nothing after the machine's horizon runs (gpu_set_horizon). */
    void (*bound)(void *self);
} engine_ops_t;

/* The link to an engine: its users call the engine_* functions below. */
typedef struct engine {
    const engine_ops_t *ops;  /* ro */
    void *self;               /* ro: passed to every operation */
} engine_t;

static inline bool engine_start(const engine_t *e, const engine_task_t *task)
{
    return e->ops->start(e->self, task);
}
static inline void engine_set_r0(const engine_t *e, unsigned core, uint8_t value)
{
    e->ops->set_r0(e->self, core, value);
}
static inline void engine_reported(const engine_t *e, unsigned core, sim_time_t ready_ps)
{
    e->ops->reported(e->self, core, ready_ps);
}
static inline void engine_regs(const engine_t *e, arch_state_t *out)
{
    e->ops->regs(e->self, out);
}
static inline void engine_stats(const engine_t *e, gpu_stats_t *s) { e->ops->stats(e->self, s); }
static inline void engine_report_partial(const engine_t *e) { e->ops->report_partial(e->self); }
static inline void engine_counters(const engine_t *e) { e->ops->counters(e->self); }
static inline void engine_itrace(const engine_t *e, itrace_fn fn, void *user)
{
    e->ops->itrace(e->self, fn, user);
}
static inline sim_time_t engine_frontier(const engine_t *e) { return e->ops->frontier(e->self); }
static inline void engine_bound(const engine_t *e) { e->ops->bound(e->self); }

#endif

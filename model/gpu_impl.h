/* gpu_impl.h — what the model's blocks truly share: struct gpu holds the
 * clock (the kernel, the description, the run's horizon and outcome), the
 * counters' and records' sinks, and the transaction pool; plus the
 * same-time order of their events and the transactions they trade. The
 * blocks themselves (the TS, the cores, the SM, the SIMT unit, the plugins'
 * runs) live in the machine that gpu.c builds and wires, which no block
 * sees: a block reaches another only through the links and functions the
 * wiring gives it. Private to model/; users see gpu.h. */
#ifndef TESSERA_GPU_IMPL_H
#define TESSERA_GPU_IMPL_H

#include "events/sim.h"
#include "events/txn.h"
#include "model/gpu.h"
#include "model/gpu_trace.h"
#include "model/ivl.h"
#include "model/program.h"
#include "model/race.h"

/* For the hot paths' functions (the SM's grant, the core's run): GCC's
 * basic-block vectoriser packs neighbouring counters and fields into SSE
 * registers at more instructions than it saves (callgrind on bench.s:
 * 4.661 G -> 4.586 G without it in those two; in the SIMT unit's answer 48 -> 41
 * host instructions per answer). */
#if defined(__GNUC__) && !defined(__clang__)
#define GPU_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define GPU_NO_SLP
#endif

/* Same-picosecond order (spec §6 "Ordering"): READY arrivals and SM answers
 * before TS decisions, TS decisions before core steps; requests reach banks
 * before banks arbitrate. Within a priority, events run in scheduling order. */
enum gpu_prio {
    GPU_PRIO_ANSWER = 0,      /* READY reaches the TS; an SM answer reaches a core (stepped) */
    GPU_PRIO_TS = 1,          /* a decode or a code transfer ends */
    GPU_PRIO_TS_EVAL = 2,     /* the TS decides: CF effects, issues, the next decode */
    GPU_PRIO_CORE = 3,        /* a task starts on a core; a core step; the watchdog; SIMT:
                                 the issue decision (tasks start on lanes at TS_EVAL, so
                                 issue counts every start of its picosecond, S5) */
    GPU_PRIO_SM_ARRIVE = 4,   /* a request reaches its bank (stepped) */
    GPU_PRIO_SM_GRANT = 5,    /* a bank grants one of the requests that reached it */
    GPU_PRIO_STOP = 6,        /* a stop at the end of its picosecond (D12's watchdog) */
};

/* Transaction kinds traded between the components. */
enum gpu_txn_kind {
    GPU_TXN_TASK_START = 1,   /* TS → core: frame; flags GPU_TXN_INIT_R0 with data = R0 */
    GPU_TXN_READY,            /* core → TS: frame */
    GPU_TXN_SM_REQ,           /* core → SM: addr, data = value to store, flags */
};
#define GPU_TXN_INIT_R0 0x1u  /* TASK_START: set R0 to data first (D3, T4) */
#define GPU_TXN_STORE 0x1u    /* SM_REQ: st (else ld) */
#define GPU_TXN_SYNC 0x2u     /* SM_REQ: ld_sync / st_sync (D16, atomics on) */

struct gpu {
    sim_t *sim;               /* ro */
    gpu_desc_t desc;          /* ro */
    program_t prog;           /* ro: the program and initial SM */
    unsigned trace;           /* GPU_TRACE_* bits wanted by the hook */
    gpu_access_sink_t *access_sink; /* where GPU_TR_ACCESS records go, NULL: the hook */
    race_det_t *races;        /* rw: the race detector fed by the cores, or NULL */
    ivl_t *ivl[2];            /* rw: interval statistics and the window's, or NULL */
    sim_time_t horizon;       /* rw: nothing after it runs: min(stop_at, watch_at);
                                 SIM_TIME_NEVER: no bound, the decoupled hot paths' case */
    sim_time_t stop_at;       /* rw: where the run stops (gpu_set_horizon), or NEVER */
    sim_time_t watch_at;      /* rw: no core's watchdog (D12) can fire before it (gpu_watch),
                                 or NEVER while no core is near its budget */
    bool bounded;             /* the components run under a horizon (answers as events…) */
    uint8_t outcome;          /* gpu_outcome_t once decided */
    char errmsg[320];         /* why WATCHDOG, STUCK or POLICY_ERROR */
    txn_pool_t pool;          /* every transaction in flight */
    /* the slot profile (GPU_TRACE_SLOTS, slots.c): by core (MIMD; the SIMT unit's
       in [0]), frame and slot, summed over the run's tasks */
    gpu_tr_slot_t slots[GPU_CORES][TM_FRAMES][ISA_SLOTS];
};

/* slots.c: a warp of `frame` (nlanes lanes) was closed out: its per-slot
 * counts (issued warp instructions, the lanes not active in them, stall
 * cycles by reason) are added. */
void gpu_slots_warp(struct gpu *g, unsigned frame, unsigned nlanes,
                    const uint64_t issued[ISA_SLOTS], const uint64_t idle[ISA_SLOTS],
                    const uint64_t stall[ISA_SLOTS][GPU_SIMT_STALLS]);
/* slots.c: reports the profile (GPU_TR_SLOT), end of run. */
void gpu_slots_report(struct gpu *g);

/* Feeds both interval accumulators (gpu_set_intervals). */
static inline void gpu_ivl_span(struct gpu *g, ivl_field_t f, unsigned unit, sim_time_t from,
                                sim_time_t to)
{
    for (int i = 0; i < 2; i++)
        if (g->ivl[i])
            ivl_span(g->ivl[i], f, unit, from, to);
}

static inline void gpu_ivl_add(struct gpu *g, ivl_field_t f, unsigned unit, sim_time_t at,
                               uint64_t n)
{
    for (int i = 0; i < 2; i++)
        if (g->ivl[i])
            ivl_add(g->ivl[i], f, unit, at, n);
}

/* Cycles of a latency draw to picoseconds. */
static inline sim_time_t gpu_cycles(const struct gpu *g, uint32_t cycles)
{
    return (sim_time_t)cycles * g->desc.period_ps;
}

/* a + b and a * b in picoseconds, saturating at SIM_TIME_NEVER (the
 * watchdog's bounds: a large core.budget at a long period). */
static inline sim_time_t gpu_sat_add(sim_time_t a, sim_time_t b)
{
    return a + b < a ? SIM_TIME_NEVER : a + b;
}
static inline sim_time_t gpu_sat_mul(uint64_t a, sim_time_t b)
{
    return b && a > (SIM_TIME_NEVER - 1) / b ? SIM_TIME_NEVER : a * b;
}

/* The timing mode: true when every instruction and message is an event. */
static inline bool gpu_stepped(const gpu_desc_t *d)
{
    switch ((gpu_timing_t)d->timing) {
    case GPU_TIMING_DECOUPLED: return false;
    case GPU_TIMING_STEPPED: return true;
    case GPU_TIMING_COUNT: break;
    }
    return false; /* not reached: gpu_desc_check rejects it */
}

/* Reports one end-of-run counter through the trace hook: `id`'s entry of
 * gpu_counters.h names it and its unit (number `n` of a numbered unit). */
void gpu_counter(sim_t *sim, gpu_ctr_t id, unsigned n, uint64_t value);

/* The same for an R entry: its counter for the stall reason named `reason`. */
void gpu_counter_reason(sim_t *sim, gpu_ctr_t id, const char *reason, uint64_t value);

/* When the last READY reached the TS so far (the run's end once it is done). */
sim_time_t gpu_last_ready(const struct gpu *g);

/* The run stops with an error: out of memory for `what`. */
void gpu_out_of_memory(struct gpu *g, const char *what);

/* A transaction from the pool; on exhaustion the run stops with an error
 * and NULL is returned. */
txn_t *gpu_txn(struct gpu *g, unsigned kind);

/* A core exceeded its budget (D12): the run stops with status watchdog —
 * the SIMT unit's at once (S10), a core's at the end of the picosecond (so
 * that what else happens then does not depend on the timing mode's event
 * order). */
void gpu_watchdog(struct gpu *g, unsigned core, unsigned frame, unsigned ip);

/* A core came near its budget (core.fast_budget), or a core bounded by
 * watch_at reached it: no core runs past the earliest instant any core's
 * watchdog could fire, computed from where they are now (watch_at, moved on
 * by the cores that reach it), so that none has run past a watchdog when it
 * fires. */
void gpu_watch(struct gpu *g);

/* The SM's answers become events, each taken at its time (sm_bound), with
 * no horizon: the SIMT unit near its watchdog (simt_nearing_budget), whose
 * stop must not find an answer already taken that is due after it. */
void gpu_bound_answers(struct gpu *g);

#endif

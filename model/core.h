/* core.h — one GPU core as a component (spec §4, T6, T7, D11, D12).
 * A core runs one task at a time. In the decoupled timing mode it runs
 * instructions that touch nothing outside itself on a local clock (run.t)
 * ahead of simulated time, and synchronises only through what it sends: an
 * SM request (posted with its arrival time, TLM-2.0 loosely-timed style) or
 * READY. In the stepped mode every instruction is an event. Both give the
 * same timestamps; invariant: run.t >= sim_now() while a task runs. */
#ifndef TESSERA_CORE_H
#define TESSERA_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "events/port.h"
#include "events/sim.h"
#include "events/txn.h"
#include "model/engine.h"
#include "model/isa.h"
#include "model/itrace.h"
#include "model/latency.h"
#include "model/link.h"
#include "model/rng.h"
#include "model/tm.h"

struct gpu;

typedef struct core {
    struct gpu *gpu;          /* ro: the machine it belongs to */
    sim_t *sim;               /* ro: gpu->sim */
    bool stepped;             /* ro: timing = stepped (one event per instruction) */
    bool atomics;             /* ro: D16 sync accesses are honoured */
    uint64_t slice;           /* ro: instructions run locally before yielding (core.c) */
    uint64_t fast_budget;     /* ro: the decoupled fast path's instructions per task: a
                                 core that gets this near its D12 budget (desc.budget, the
                                 other paths') could watchdog before another core's run
                                 ahead ends, so it bounds them all first (gpu_watch) */
    uint8_t id;               /* ro: core id 0..15 */
    bool busy;                /* a task is running (READY not yet sent) */
    bool end_after_answer;    /* the pending ld/st was the task's last instruction */
    bool profiled;            /* the slot profile is recorded (GPU_TRACE_SLOTS): the task's
                                 SM waits and taken bnz are kept by slot (slots.c) */
    bool reported;            /* the current task's READY reached the TS */
    uint8_t ld_reg;           /* destination of the pending ld */
    sim_time_t req_arrive;    /* when the pending request reaches its bank */
    uint8_t frame;            /* frame of the current task */
    uint8_t r[ISA_REGS];      /* the register file (D4: persists across tasks) */
    isa_decoded_t code[ISA_TASK_SLOTS]; /* instruction memory: the current task's frame,
                                           decoded for isa_run (isa_decode_task) */
    isa_run_t run;            /* where the task is: run.ip, run.t (local time: when the
                                 next instruction starts), run.n (its instructions so
                                 far); run.div_by_zero counts over the whole run;
                                 run.last is set by isa_run (one at a time) only:
                                 advance's own run keeps its ld/st in a local */
    sim_event_t step_ev;      /* stepped: the next instruction; both: the watchdog */
    txn_t *req;               /* this core's SM request (one outstanding at a time),
                                 taken from the pool once and reused */
    port_t ready_port;        /* core → whoever collects READY (the TS), wired by gpu.c */
    link_t mem;               /* core → the memory it requests from (the SM), wired by gpu.c */
    port_t start_port;        /* TASK_START from the engine's start (cores.c) */
    rng_t rng;                /* this core's latency draws */
    bool lat_fixed;           /* every core latency is a fixed number */
    bool one_by_one;          /* instructions run one at a time (stepped, drawn latencies,
                                 or traced) */
    itrace_fn itrace;         /* the instruction trace (NULL: off, the hot path's case) */
    void *itrace_user;
    sim_time_t lat_ps[ISA_CLASS_COUNT];    /* fixed latencies by isa_class_t, in ps
                                            (all 0 when drawn: isa_run adds nothing) */
    const lat_t *lat[ISA_CLASS_COUNT];    /* the latencies by class (ld/st: sm.req) */
    /* the current task */
    sim_time_t task_start, task_finish;
    uint32_t task_sm_ops;
    sim_time_t task_sm_wait, task_sm_conflict;
    sim_time_t slot_wait[ISA_SLOTS]; /* the slot profile (slots.c): the task's SM wait by
                                        slot, and its drawn latencies by slot (fixed ones
                                        are counted from run.taken) */
    sim_time_t slot_exec[ISA_SLOTS];
    /* totals over the run, of finished tasks (see core_instructions) */
    uint64_t instructions, tasks, sm_ops;
    sim_time_t busy_ps, sm_wait_ps, sm_conflict_ps;
} core_t;

/* Prepares the core in `gpu` (latencies, its random stream, its TASK_START
 * port) and takes its request transaction from the pool. Returns TESS_OK or
 * TESS_ENOMEM. It is not connected to anything until core_wire. */
int core_init(core_t *c, struct gpu *gpu, unsigned id);

/* Connects the core: READY goes to on_ready(ready_owner, txn) as an event
 * (kind GPU_TXN_READY, core, frame); SM requests go to on_request(mem, txn)
 * through a link of the machine's timing mode (kind GPU_TXN_SM_REQ, core =
 * this core's id, t_arrived = when it reaches the memory). The answer must
 * come back to core_on_answer(c, txn). */
void core_wire(core_t *c, port_recv_fn on_ready, void *ready_owner, port_recv_fn on_request,
               void *mem);

/* The run has a horizon (gpu_set_horizon): the core runs one instruction,
 * or a chunk that surely starts by the horizon, at a time, and an
 * instruction that would start after it waits for an event that never comes
 * (the stepped core's next step, at its start time). */
void core_bound(core_t *c);

/* Makes `e` the execution engine made of the GPU_CORES cores `cores`. */
void cores_engine(engine_t *e, core_t *cores);

/* TASK_START receiver (start_port): loads the frame, applies R0 init, runs. */
void core_on_start(void *core, txn_t *t);

/* An SM answer: the request `t` was served (t_granted, t_done = when the answer
 * reaches the core). The memory's answer link delivers it: within the grant
 * (decoupled) or as an event at t_done (stepped). */
void core_on_answer(void *core, txn_t *t);
/* The same for a traced core (core_set_itrace wires it): also reports the
 * ld/st to the instruction trace. */
void core_on_answer_traced(void *core, txn_t *t);

/* The TS received this core's READY at `ready_ps`: reports the core's part of
 * the task (GPU_TR_CORE_TASK). */
void core_task_reported(core_t *c, sim_time_t ready_ps);

/* End of run: reports a task still running as a partial record. */
void core_report_partial(core_t *c);

/* Turns the instruction trace on (fn) or off (NULL); a traced core runs its
 * instructions one at a time, with the same timestamps, and its SM answers
 * must come to core_on_answer_traced (the machine rewires them:
 * core_answer_receiver). */
void core_set_itrace(core_t *c, itrace_fn fn, void *user);

/* The receiver the SM's answers to this core must be attached to now:
 * core_on_answer_traced when it is traced, core_on_answer otherwise. */
port_recv_fn core_answer_receiver(const core_t *c);

/* The slot profile (GPU_TRACE_SLOTS) is kept for this core's tasks from
 * their next start on: their SM waits and taken bnz by slot (slots.c's
 * sums, charged at each task's end). MIMD only: a lane's are the unit's. */
static inline void core_set_profiled(core_t *c, bool on) { c->profiled = on; }

/* Interval statistics are on (`on`): the core runs its instructions one at
 * a time from now on, as they are counted where they run. Off does not undo
 * it (nothing turns interval statistics off within a run). */
static inline void core_set_intervals(core_t *c, bool on) { c->one_by_one |= on; }

/* End of run with interval statistics: a task still running is busy up to
 * now in the intervals (as its busy_ps counter says). */
void core_ivl_running(core_t *c);

/* The earliest instant this core's watchdog (D12) could fire, now being
 * `now`: every instruction takes at least a cycle before the next starts
 * (T6; a ld/st's bank at least one), the running task's next one starts
 * at run.t or, waiting on its answer, at now or later. SIM_TIME_NEVER when
 * no task runs (gpu_watch takes the minimum over the cores). */
sim_time_t core_watchdog_bound(const core_t *c, sim_time_t now);

/* Instructions executed so far (counted when they start), running task included. */
static inline uint64_t core_instructions(const core_t *c)
{
    return c->instructions + (c->busy ? c->run.n : 0);
}

/* --- a lane of the SIMT unit (SIMT-SPEC S1) --------------------------------
 * With core.model = simt the unit issues for the core, which keeps the
 * lane's task bookkeeping (task records, counters, READY) exactly as for a
 * core of its own; the unit calls these instead of touching the fields. */

/* The core is a lane from now on: its own instruction loop adds no latency
 * (the unit's time is the lane's). */
void core_as_lane(core_t *c);

/* The lane starts a task of `frame` at `now` whose code is `code` (the
 * unit's decoded copy, for the watchdog's report). The core must be idle. */
void core_lane_start(core_t *c, unsigned frame, const isa_decoded_t *code, sim_time_t now);

/* The lane's task finished at `finish` (>= now) after `n` instructions: its
 * totals are counted and its READY leaves for the TS at `finish` (plus
 * ts.ready, drawn from the core's stream). Returns false when no
 * transaction could be had for the READY (the run is already failing: the
 * pool reports it); the totals are counted either way. */
bool core_lane_finish(core_t *c, uint64_t n, sim_time_t finish);

/* The lane's SM accesses: `ops` served requests, waiting `wait` ps from
 * request to answer and `conflict` ps at the bank before the grant. */
static inline void core_lane_access(core_t *c, unsigned ops, sim_time_t wait, sim_time_t conflict)
{
    c->task_sm_ops += ops;
    c->task_sm_wait += wait;
    c->task_sm_conflict += conflict;
}

/* The lane divided by zero (D7: counted over the run). */
static inline void core_lane_div_by_zero(core_t *c) { c->run.div_by_zero++; }

/* The running task's instructions so far are `n` (read by the counters). */
static inline void core_lane_count(core_t *c, uint64_t n)
{
    if (c->busy)
        c->run.n = n;
}

/* Register i of the core's file (D4: as it stands, e.g. before a run). */
static inline uint8_t core_reg(const core_t *c, unsigned i) { return c->r[i]; }

#endif

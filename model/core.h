/* core.h — one GPU core as a component (spec §4, T6, T7, D11, D12).
 * A core runs one task at a time. In the decoupled timing mode it runs
 * instructions that touch nothing outside itself on a local clock (c->t)
 * ahead of simulated time, and synchronises only through what it sends: an
 * SM request (posted with its arrival time, TLM-2.0 loosely-timed style) or
 * READY. In the stepped mode every instruction is an event. Both give the
 * same timestamps; invariant: c->t >= sim_now() while a task runs. */
#ifndef TESSERA_CORE_H
#define TESSERA_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "events/port.h"
#include "events/sim.h"
#include "events/txn.h"
#include "model/isa.h"
#include "model/latency.h"
#include "model/rng.h"
#include "model/tm.h"

struct gpu;

typedef struct core {
    struct gpu *gpu;          /* ro: the machine it belongs to */
    uint8_t id;               /* ro: core id 0..15 */
    bool busy;                /* a task is running (READY not yet sent) */
    bool end_after_answer;    /* the pending ld/st was the task's last instruction */
    bool reported;            /* the current task's READY reached the TS */
    uint8_t ld_reg;           /* destination of the pending ld */
    sim_time_t req_arrive;    /* when the pending request reaches its bank */
    uint8_t ip;               /* slot of the next instruction */
    uint8_t frame;            /* frame of the current task */
    uint8_t r[ISA_REGS];      /* the register file (D4: persists across tasks) */
    uint16_t code[TM_SLOTS];  /* instruction memory: the current task's frame */
    sim_time_t t;             /* local time: when the next instruction starts */
    sim_event_t step_ev;      /* stepped: the next instruction; both: the watchdog */
    port_t ready_port;        /* core → TS (READY) */
    port_t req_port;          /* core → SM requests (stepped mode) */
    port_t resp_port;         /* SM → core answers (stepped mode) */
    port_t start_port;        /* TS → core TASK_START */
    rng_t rng;                /* this core's latency draws */
    bool lat_fixed;           /* every core latency is a fixed number */
    sim_time_t lat_ps[ISA_CLASS_ST + 1]; /* fixed latencies by isa_class_t, in ps */
    const lat_t *lat[ISA_CLASS_ST + 1];  /* the latencies by class (ld/st: sm.req) */
    /* the current task */
    sim_time_t task_start, task_finish;
    uint64_t task_insns;
    uint32_t task_sm_ops;
    sim_time_t task_sm_wait, task_sm_conflict;
    /* totals over the run */
    uint64_t instructions, tasks, sm_ops, div_by_zero;
    sim_time_t busy_ps, sm_wait_ps, sm_conflict_ps;
} core_t;

/* Wires the core into `gpu` (ports, latencies, its random stream). */
void core_init(core_t *c, struct gpu *gpu, unsigned id);

/* TASK_START receiver (start_port): loads the frame, applies R0 init, runs. */
void core_on_start(void *core, txn_t *t);

/* An SM answer: the request `t` was served (t_granted, t_done = when the answer
 * reaches the core). Decoupled mode calls it from the bank's grant event;
 * stepped mode delivers it through resp_port at t_done. */
void core_on_answer(void *core, txn_t *t);

/* The TS received this core's READY at `ready_ps`: reports the core's part of
 * the task (GPU_TR_CORE_TASK). */
void core_task_reported(core_t *c, sim_time_t ready_ps);

/* End of run: reports a task still running as a partial record. */
void core_report_partial(core_t *c);

#endif

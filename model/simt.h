/* simt.h — the SIMT unit (SIMT-SPEC S1–S10): with core.model = simt it
 * stands in place of the 16 cores between the TS and the SM. Each task is a
 * warp whose lanes are the group's cores; lane i keeps core i's task
 * bookkeeping (core_t, so READY, core-task records and counters read exactly
 * as for cores); the lanes' registers are the unit's, laid out by register
 * (simt_t.rf: one register of every lane side by side, so that one host
 * vector operation does a warp instruction's register work), and the engine's
 * regs() and set_r0() read and write them there. One issue event per cycle in
 * which something can change decides, after everything else at that
 * picosecond, which warps issue (S5, S6). In decoupled mode the unit goes
 * on deciding later cycles within one event while nothing else is scheduled
 * before them (a local clock ahead of sim_now); stepped mode takes one event
 * per decision. Both give the same timestamps (tests/test_equivalence.c).
 * Invariant: resident warps have disjoint lanes; a warp's slot is the index
 * of its lowest lane; issued + stall cycles = resident cycles per warp. */
#ifndef TESSERA_SIMT_H
#define TESSERA_SIMT_H

#include <stdbool.h>
#include <stdint.h>

#include "events/sim.h"
#include "events/txn.h"
#include "model/engine.h"
#include "model/gpu_trace.h"
#include "model/isa.h"
#include "model/itrace.h"
#include "model/latency.h"
#include "model/rng.h"
#include "model/simt_flow.h"

struct gpu;

typedef struct simt_warp {
    bool live;                /* resident (or finished, not yet closed out) */
    uint8_t frame;            /* the IF */
    uint16_t mask;            /* the group's lanes */
    uint8_t nlanes;           /* popcount(mask) */
    uint64_t uniform_n;       /* instructions issued with every lane of `mask` active: part
                                 of each lane's count (S10), see simt_t.lane_n */
    uint16_t lanes;           /* lanes whose finish time is not known yet */
    uint16_t pending;         /* of which: left, waiting for the ld/st in flight */
    sim_time_t age;           /* start time (S1) */
    sim_time_t end;           /* the latest finish time of its lanes so far */
    isa_decoded_t code[ISA_SLOTS];
    uint8_t ipdom[ISA_SLOTS]; /* S7, computed once at start */
    uint16_t alu_slots;       /* slots run_alu may issue: before 15, not ld/st/ready */
    simt_stack_t st;
    /* issue state (S3, S4); SIM_TIME_NEVER = an in-flight ld/st, time unknown */
    sim_time_t next_ok;       /* S4: last issue + 1 cycle */
    sim_time_t prev_done;     /* S3: completion of the previous instruction */
    sim_time_t bnz_done;      /* S4 (c): completion of the last bnz */
    sim_time_t alu_done;      /* latest completion of its non-memory instructions */
    sim_time_t mem_done;      /* completion of its last ld/st (0: none yet) */
    sim_time_t reg_done[ISA_REGS]; /* S4 (a): completion of each register's last writer */
    uint16_t reg_ld;          /* registers whose last writer is a ld */
    sim_time_t lane_alu[ISA_REGS]; /* pending lanes: alu_done when they left (S7) */
    /* the ld/st in flight (one per warp, S4 (b)) */
    uint16_t mem_wait;        /* lanes whose request is unanswered */
    uint16_t mem_lanes;       /* its active lanes */
    bool mem_merged;          /* S8 broadcast applies: fanout[] says whom each answer serves */
    uint16_t fanout[ISA_REGS];/* merged: the lanes each request answers */
    uint8_t mem_reg, mem_slot, mem_requests, mem_replays, mem_banks;
    bool mem_store;
    sim_time_t mem_issue, mem_max;
    isa_mem_lanes_t mem_ops;  /* its active lanes' addresses, store bytes and sync marks */
    /* accounting (SIMT-SPEC "Counting") */
    sim_time_t acct_ps;       /* cycles before it are counted */
    uint8_t acct_reason;      /* gpu_simt_stall_t of the cycles from acct_ps on */
    gpu_tr_simt_warp_t rec;   /* the counts, reported at close-out */
} simt_warp_t;

typedef struct simt {
    struct gpu *gpu;          /* ro */
    sim_t *sim;               /* ro */
    bool stepped, scoreboard, broadcast, atomics, lat_fixed; /* ro: configuration */
    uint8_t sched, width;     /* ro: simt.scheduler, simt.issue_width */
    uint64_t budget;          /* ro: D12/S10 per lane per task */
    sim_time_t period;        /* ro: one cycle in ps */
    unsigned period_shift;    /* ro: period = odd << period_shift (cycles_in) */
    uint64_t period_low, period_inv, period_max; /* ro: low bits mask, odd^-1 mod 2^64,
                                                    UINT64_MAX / period */
    sim_time_t lat_ps[ISA_CLASS_ST + 1]; /* ro: fixed latencies by class (ld/st: sm.req) */
    sim_time_t op_lat_ps[16]; /* ro: by opcode, when lat_fixed */
    const lat_t *lat[ISA_CLASS_ST + 1];  /* ro */
    rng_t rng;                /* latency draws of the unit */
    int8_t lane_warp[ISA_REGS];/* the slot of each lane's warp, -1: none */
    isa_lane_regs_t rf;       /* the lanes' register files, by register (isa.h): the
                                 machine's registers, read through the engine's regs() */
    uint16_t live;            /* slots of w[] that are live */
    uint16_t drained;         /* of which: every lane has finished (lanes == 0), to close out */
    bool near_budget;         /* a live warp has issued budget - 1 instructions or more */
    uint64_t lane_n[ISA_REGS];/* instructions of each lane's current task (S10), less its
                                 warp's uniform_n; copied to its core's run.n when read */
    simt_warp_t w[SIMT_WARPS_MAX];
    engine_t lanes;           /* ro: the cores' engine, for the lanes' state */
    bool ivl;                 /* interval statistics wanted (gpu_set_intervals) */
    itrace_fn itrace;         /* the instruction trace (NULL: off) */
    void *itrace_user;
    sim_event_t issue_ev;     /* the next cycle in which issue is decided */
    sim_time_t last_eval;     /* the last picosecond issue was decided at */
    sim_time_t until;         /* the first picosecond after the run's horizon
                                 (gpu_set_horizon), SIM_TIME_NEVER: none */
    simt_last_t last;         /* the last issuing cycle's choices (S6) */
    /* run totals */
    uint64_t warps, issue_cycles;
    gpu_tr_simt_warp_t total; /* Σ over closed warps of their counts */
    uint64_t lane_slots;      /* Σ warp instructions × lanes of the group */
} simt_t;

/* Builds the unit for `gpu`, whose cores (initialised) hold the lanes'
 * state. Returns NULL when out of memory. simt_destroy(NULL) does nothing. */
simt_t *simt_create(struct gpu *gpu);
void simt_destroy(simt_t *u);

/* Makes `e` the unit as the machine's execution engine (engine.h): task
 * starts become warps; registers, statistics and per-lane reports are the
 * lanes' (their cores'), with the warps' partial records and the "simt"
 * counters added at the end of the run. Call after cores_engine(e, …): the
 * lanes' operations are delegated to the engine `e` held then. */
void simt_engine(engine_t *e, simt_t *u);

/* The SM's answer receiver for every lane (sm_attach): lane t->core, within
 * the grant (decoupled) or at t_done (stepped). */
void simt_on_answer(void *unit, txn_t *t);
/* The same, with interval statistics (gpu_set_intervals wires it instead):
 * each lane's SM wait is added to its intervals first. */
void simt_on_answer_ivl(void *unit, txn_t *t);

/* S9: writes into buf a description of an intra-warp lock deadlock if lane
 * `waiting` and lane `holder` belong to one warp; returns false otherwise. */
bool simt_describe_deadlock(const simt_t *u, unsigned waiting, unsigned holder, unsigned bank,
                            unsigned addr, char *buf, unsigned n);

#endif

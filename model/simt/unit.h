/* unit.h — the SIMT unit's insides, shared by its stages (SIMT-SPEC
 * S1–S10; the public face is simt.h). Private to model/simt/. One file per stage:
 *   unit.c   the unit: creation, the engine's operations, end-of-run counters
 *   warp.c   a warp's life: start, lanes leaving and finishing, close-out
 *   issue.c  the scheduler stage: eligibility (S3, S4), the issue decision of
 *            a cycle (S5, S6), stall accounting, the issue event
 *   sched.c  the schedulers' order (S6)
 *   stack.c  post-dominators, the reconvergence stack, scoreboard sets (S4, S7)
 *   exec.c   the execution units: an instruction's register work and latency
 *   lsu.c    the load/store unit: a warp's ld/st to the SM and its answers (S8)
 *   trace.c  what the unit reports while it issues (traces, intervals)
 *   groups.c simt.reconvergence = barrier: thread groups and convergence
 *            barriers in place of the stack (S14), its own cycle and answers
 * Lanes execute through isa.c's lane operations on the lanes' registers laid
 * out by register (simt_t.rf, so that one host vector operation does a warp
 * instruction's register work). Times an instruction completes at are known
 * at issue except for ld/st, whose completion is the last lane's answer;
 * SIM_TIME_NEVER stands for "not known yet". One issue event per cycle in
 * which something can change decides, after everything else at that
 * picosecond, which warps issue; in decoupled mode the unit goes on deciding
 * later cycles within one event while nothing else is scheduled before them
 * (a local clock ahead of sim_now); stepped mode takes one event per
 * decision. Invariant: resident warps have disjoint lanes; a warp's slot is
 * the index of its lowest lane; issued + stall cycles = resident cycles per
 * warp. */
#ifndef TESSERA_SIMT_UNIT_H
#define TESSERA_SIMT_UNIT_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "events/sim.h"
#include "events/txn.h"
#include "model/core.h"
#include "model/engine.h"
#include "model/gpu_impl.h"
#include "model/gpu_trace.h"
#include "model/isa.h"
#include "model/itrace.h"
#include "model/latency.h"
#include "model/link.h"
#include "model/rng.h"
#include "model/simt/sched.h"
#include "model/simt/simt.h"
#include "model/simt/stack.h"

#define NEVER SIM_TIME_NEVER

/* The unit decides the next cycles itself, without an event each, at most
 * this many at a time (the host loop gets control back in between). */
#define SIMT_SLICE 4096

/* A lane's connection to the SM (simt_wire): its request, one outstanding
 * at a time, and the link it travels on. */
typedef struct simt_port {
    txn_t *req;               /* the lane's SM request, taken from the pool once */
    sim_time_t arrive;        /* when the pending request reaches its bank */
    link_t mem;               /* lane → the SM, in the machine's timing mode */
} simt_port_t;

/* S12: a warp's instruction between its issue and its dispatch (at most one
 * per warp: S3 without the scoreboard, S12's rule with it). */
typedef struct simt_held {
    bool busy;                /* an instruction is held */
    bool mem;                 /* it is a ld/st (its operands are in mem_ops) */
    uint8_t pc;               /* its slot */
    uint8_t coll;             /* its collector (S12; 0 without collectors) */
    uint16_t active;          /* its active lanes */
    uint16_t reads;           /* source registers not read yet (S12; 0 without collectors) */
    uint16_t leave;           /* lanes that leave the warp when it completes (non-ld/st) */
    isa_decoded_t d;
    uint64_t seq;             /* issue order over the unit (in one cycle: the scheduler's) */
} simt_held_t;

/* S13: the execution unit kinds. */
enum { SIMT_SP, SIMT_SFU, SIMT_LSU, SIMT_UNIT_KINDS };

/* (Its size is part of the answer path's cost: warps are found by index; a
 * multiple of 64 bytes makes the compiler scale by shifts and subtractions,
 * more instructions than one multiplication. Fill holes before adding.) */
typedef struct simt_warp {
    bool live;                /* resident (or finished, not yet closed out) */
    uint8_t frame;            /* the IF */
    uint16_t mask;            /* the group's lanes */
    uint8_t nlanes;           /* popcount(mask) */
    uint8_t rf_base;          /* S12: w, the lowest lane of the group mask */
    uint8_t acct_reason;      /* gpu_simt_stall_t of the cycles from acct_ps on */
    uint8_t acct_slot;        /* the slot they are charged to (the slot profile): the one
                                 the warp waits to issue (simt_wait_slot) */
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
    /* the pipeline (S11–S13, simt_t.pipe only) */
    uint8_t ib[SIMT_IBUFFER_MAX]; /* S11: the I-buffer's slots, ib[0] the head */
    uint8_t ib_n;
    uint8_t fetch_slots[SIMT_FETCH_MAX], fetch_n; /* the fetch in flight */
    sim_time_t fetch_at;      /* its arrival; NEVER: no fetch in flight */
    simt_held_t held;         /* S12: the instruction between issue and dispatch */
    uint16_t mem_send;        /* the ld/st's lanes that send a request (S8) */
    uint64_t mem_seq;         /* its issue order */
    sim_time_t pass_at;       /* S13: the ld/st's next pass; NEVER: none pending */
    uint8_t pass_j, passes;   /* that pass's number, and how many */
    /* accounting (SIMT-SPEC "Counting") */
    sim_time_t acct_ps;       /* cycles before it are counted (acct_reason, acct_slot: above,
                                 with the small fields) */
    uint8_t last_pc;          /* the slot it issued last */
    uint64_t slot_issued[ISA_SLOTS]; /* warp instructions by slot */
    uint64_t slot_idle[ISA_SLOTS];   /* by slot: Σ lanes of the warp not active in them
                                        (lane instructions = issued × nlanes - idle) */
    uint64_t slot_stall[ISA_SLOTS][GPU_SIMT_STALLS]; /* stall cycles by slot and reason */
    gpu_tr_simt_warp_t rec;   /* the counts, reported at close-out */
} simt_warp_t;

struct simt {
    struct gpu *gpu;          /* ro */
    const struct sm *sm;      /* ro: the SM, for its bank mapping only (sm_bank_of): simt_wire */
    sim_t *sim;               /* ro */
    bool stepped, scoreboard, broadcast, atomics, lat_fixed; /* ro: configuration */
    uint8_t sched, width;     /* ro: simt.scheduler, simt.issue_width */
    bool sched_plugin;        /* ro: simt.scheduler is a plugin (policy.c), sched ignored */
    struct policy_run *sched_run; /* ro: simt.scheduler's plugin run (impl NULL: built in) */
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
    bool answers_bounded;     /* the SM's answers are events (simt_nearing_budget) */
    uint64_t watch_from;      /* ro: a warp with this many instructions or more may reach
                                 its watchdog (S10) within an answer's trip (simt_near) */
    uint64_t lane_n[ISA_REGS];/* instructions of each lane's current task (S10), less its
                                 warp's uniform_n; copied to its core's run.n when read */
    simt_warp_t w[SIMT_WARPS_MAX];
    engine_t lanes;           /* ro: the cores' engine, for the lanes' state */
    core_t *cores;            /* ro: the lanes' bookkeeping (core.h's lane functions) */
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
    simt_port_t port[ISA_LANES]; /* the unit's own connection to the SM, per lane */
    /* the pipeline (S11–S13) */
    bool pipe;                /* ro: a key of S11–S13 is not at its default (or
                                 gpu_desc_t.simt_pipeline): issue_cb runs simt_pipe_cycle */
    uint8_t ibuffer, fetch_width, collectors, rf_banks; /* ro: their keys */
    uint8_t unit_width[SIMT_UNIT_KINDS]; /* ro: simt.sp_width, sfu_width, lsu_width */
    sim_time_t fetch_lat;     /* ro: simt.fetch_latency in ps */
    uint8_t rf_arbiter;       /* ro: simt.rf_arbiter (simt_rf_arbiter_t) */
    uint32_t coll_busy;       /* S12: the collectors taken, a bit each */
    uint32_t coll_all;        /* ro: coll_busy when every collector is taken (all ones
                                 without collectors: never) */
    uint8_t rf_last[16];      /* S12, rf_arbiter rr: the collector each register-file bank
                                 served last */
    uint64_t seq;             /* instructions issued so far (simt_held_t.seq) */
    bool fetched;             /* the fetch port has served a warp */
    uint64_t fetch_last;      /* the age of the last warp it served (S11's ring) */
    sim_time_t unit_free[SIMT_UNIT_KINDS][GPU_CORES]; /* S13: the first cycle each unit has
                                                         no pass from */
    struct simt_bar *bar;     /* S14 (simt.reconvergence = barrier): the warps' groups and
                                 barriers, groups.c; NULL with the stack */
};

static inline sim_time_t simt_tmax(sim_time_t a, sim_time_t b) { return a > b ? a : b; }

static inline bool simt_is_mem(unsigned op) { return op == ISA_LD || op == ISA_ST; }

static inline bool simt_has_next(const simt_warp_t *w) { return !simt_stack_empty(&w->st); }

static inline isa_decoded_t simt_next_insn(const simt_warp_t *w)
{
    return w->code[simt_stack_top(&w->st)->pc];
}

/* A latency of class `cls` in ps: fixed, or drawn from the unit's stream. */
static inline sim_time_t simt_latency(simt_t *u, unsigned cls)
{
    if (lat_is_fixed(u->lat[cls]))
        return u->lat_ps[cls];
    return gpu_cycles(u->gpu, lat_sample(u->lat[cls], &u->rng));
}

/* Asks for an issue decision at `at` (>= now), keeping the earliest. */
static inline void simt_wake(simt_t *u, sim_time_t at)
{
    if (at == NEVER)
        return;
    if (sim_event_pending(&u->issue_ev) && u->issue_ev.time <= at)
        return;
    assert(at >= sim_now(u->sim) && !(at == sim_now(u->sim) && u->last_eval == at));
    sim_schedule(u->sim, &u->issue_ev, at);
}

/* ps / period, without a division when ps is a whole number of cycles (as
 * the model's times are): the odd part of the period by its inverse modulo
 * 2^64 (a 64-bit division is some 40 cycles of latency on the host). */
static inline uint64_t simt_cycles_in(const simt_t *u, sim_time_t ps)
{
    if (!(ps & u->period_low)) {
        uint64_t q = (ps >> u->period_shift) * u->period_inv;
        if (q <= u->period_max)
            return q;
    }
    return ps / u->period;
}

/* trace.c: interval statistics: a warp stalled for `reason` during [from, to). */
void simt_ivl_stall(struct gpu *g, unsigned reason, sim_time_t from, sim_time_t to);

/* Counts the cycles [acct_ps, to) with the reason and slot set for them
 * (and, with interval statistics, their span). */
static inline void simt_account(simt_t *u, simt_warp_t *w, sim_time_t to)
{
    if (to > w->acct_ps) {
        uint64_t n = simt_cycles_in(u, to - w->acct_ps);
        w->rec.stall_cycles[w->acct_reason] += n;
        w->slot_stall[w->acct_slot][w->acct_reason] += n;
        if (__builtin_expect(u->ivl, 0))
            simt_ivl_stall(u->gpu, w->acct_reason, w->acct_ps, to);
    }
    w->acct_ps = simt_tmax(w->acct_ps, to);
}

/* The slot w waits to issue (the slot profile): its next instruction's, or
 * with nothing left to issue the one it issued last (its leaving lanes wait
 * for that, or for what it waits for). */
static inline uint8_t simt_wait_slot(const simt_warp_t *w)
{
    return simt_has_next(w) ? (uint8_t)simt_stack_top(&w->st)->pc : w->last_pc;
}

/* An instruction of slot pc issued for `lanes` lanes: the slot profile's
 * counts. */
static inline void simt_count_slot(simt_warp_t *w, unsigned pc, unsigned lanes)
{
    w->slot_issued[pc]++;
    w->slot_idle[pc] += w->nlanes - lanes;
    w->last_pc = (uint8_t)pc;
}

/* --- between the stages ------------------------------------------------------ */

/* warp.c: the task becomes resident warp w at `now` (S1). */
void simt_warp_start(simt_t *u, simt_warp_t *w, const engine_task_t *task, sim_time_t now);
/* warp.c: lanes finish at at[lane]: their READY goes to the TS (T5). */
void simt_finish_lanes(simt_t *u, simt_warp_t *w, uint16_t lanes, const sim_time_t *at);
/* warp.c: lanes left the warp with an instruction completing at `done`
 * (NEVER: a ld/st in flight); they finish when it completes, with the
 * scoreboard when everything the warp has issued so far has (S7). */
void simt_lanes_leave(simt_t *u, simt_warp_t *w, uint16_t lanes, sim_time_t done);
/* issue.c: the earliest time w's next instruction may issue by S3/S4 (NEVER:
 * it waits for an instruction whose completion is not known yet). */
sim_time_t simt_ready_at(const simt_t *u, const simt_warp_t *w);
/* issue.c: why w, which S3/S4 keep from issuing at t, waits (memory, execute). */
unsigned simt_wait_reason(const simt_t *u, const simt_warp_t *w, sim_time_t t);
/* issue.c: S10: true (and the watchdog fired) when a lane of `active` has
 * run its budget in this task. */
bool simt_budget_spent(simt_t *u, const simt_warp_t *w, uint16_t active, unsigned pc);

/* The counting of an issue of `active` at slot pc, as the pipeline's and the
 * thread groups' cycles do it (S10's budget first, the issue trace, the
 * interval statistics, the warp's and lanes' counts); false when a lane's
 * budget stopped the run. issue.c's own issue() counts the same inline, on
 * the default path's hot loop. */
bool simt_count_issue(simt_t *u, simt_warp_t *w, uint16_t active, unsigned pc, unsigned order,
                      unsigned eligible, sim_time_t now);

/* After w issued: near_budget, and the SM's answers made events once w is
 * within an answer's trip of its watchdog (unit.c). */
void simt_nearing_budget(simt_t *u, const simt_warp_t *w);
static inline void simt_near(simt_t *u, const simt_warp_t *w)
{
    if (__builtin_expect(w->rec.warp_instructions >= u->watch_from, 0))
        simt_nearing_budget(u, w);
}
/* warp.c: every lane has finished by w->end <= now: the warp is closed out. */
void simt_close_warp(simt_t *u, simt_warp_t *w);
/* warp.c: a warp still resident at the end of the run is reported as partial. */
void simt_close_partial(simt_t *u, simt_warp_t *w, sim_time_t now);

/* issue.c: the issue event's callback (S5, S6). */
void simt_issue_cb(sim_t *sim, sim_event_t *ev);

/* exec.c: the register work of the non-memory instruction d of slot pc on
 * the active lanes, issued at `now` (and its instruction trace record);
 * returns the lanes that take it if it is a bnz. No time. */
uint16_t simt_exec_lanes(simt_t *u, const simt_warp_t *w, unsigned pc, uint16_t active,
                         isa_decoded_t d, sim_time_t now);
/* exec.c: runs the non-memory instruction d of slot pc on the active lanes,
 * issued at `now`: its register work, its completion time (returned; the
 * warp's S3/S4 times updated) and, for a bnz, the lanes that take it. */
sim_time_t simt_exec(simt_t *u, simt_warp_t *w, unsigned pc, uint16_t active, isa_decoded_t d,
                     sim_time_t now, uint16_t *taken /* OUT */);

/* lsu.c: sends the active lanes' requests of a ld/st issued at `now` (S8). */
void simt_issue_mem(simt_t *u, simt_warp_t *w, uint16_t active, unsigned pc, isa_decoded_t d,
                    sim_time_t now);

/* pipe.c: the decision of cycle `now` under S11–S13 (issue, operand reads and
 * dispatch, passes, fetch, in SIMT-SPEC's phase order); returns the next
 * decision's time. */
sim_time_t simt_pipe_cycle(simt_t *u, sim_time_t now);
/* front.c (S11): fetches arriving at `now` enter their I-buffers. */
void simt_front_arrive(simt_t *u, sim_time_t now);
/* front.c (S11): the fetch port serves one fetch-ready warp at `now`. */
void simt_front_fetch(simt_t *u, sim_time_t now);
/* front.c (S11): w is fetch-ready at `now` (the port may serve it). */
bool simt_front_ready(const simt_t *u, const simt_warp_t *w, sim_time_t now);
/* front.c (S11): the warp's next slot may have changed: a fetched sequence that
 * does not begin with it is dropped. */
void simt_front_check(simt_warp_t *w);
/* collect.c (S12): the register-file banks serve the held instructions'
 * reads at `now`; those with every read served are dispatched. */
void simt_collect(simt_t *u, sim_time_t now);

/* S12: a held instruction's pending reads, as the register-file banks see
 * them. */
typedef struct simt_rf_req {
    uint16_t reads;           /* its source registers not read yet (served ones cleared) */
    uint8_t base;             /* its warp's rf_base: register r is in bank (r + base) mod K */
    uint8_t coll;             /* its collector */
} simt_rf_req_t;

/* collect.c (S12): one cycle of the register-file banks over the held
 * instructions req[0..n-1] (in issue order): each bank serves one pending
 * read, the one simt.rf_arbiter chooses. */
void simt_rf_serve(simt_t *u, simt_rf_req_t *req, unsigned n);

/* S12: a collector is free for an issue (always, without collectors). */
static inline bool simt_coll_free(const simt_t *u)
{
    return u->coll_busy != u->coll_all; /* (no popcount: a library call on this target) */
}

/* S12: an instruction issued now takes the lowest-numbered free collector;
 * returns its number (0 without collectors, nothing taken). */
static inline uint8_t simt_coll_take(simt_t *u)
{
    if (!u->collectors)
        return 0;
    unsigned c = (unsigned)__builtin_ctz(~u->coll_busy);
    u->coll_busy |= 1u << c;
    return (uint8_t)c;
}

/* S12: collector c is free for an issue in the next cycle (its instruction
 * is dispatched). */
static inline void simt_coll_release(simt_t *u, unsigned c) { u->coll_busy &= ~(1u << c); }
/* exec.c (S13): the held instruction of w is dispatched at `now`: it takes a
 * unit of its kind; a non-memory one's completion is known from there. */
void simt_dispatch(simt_t *u, simt_warp_t *w, sim_time_t now);
/* exec.c (S13): the unit kind (SIMT_SP, SFU, LSU) op executes on. */
unsigned simt_unit_kind(unsigned op);
/* exec.c (S13): the unit of `kind` that can start `passes` passes earliest at
 * or after `now` (on a tie the lowest-numbered) takes them; returns the first
 * one's start. */
sim_time_t simt_take_unit(simt_t *u, unsigned kind, unsigned passes, sim_time_t now);
/* lsu.c: a ld/st issued at `now` under the pipeline: its operands (read at
 * issue, S12) and its figures, without sending (simt_lsu_pass sends). */
void simt_lsu_prepare(simt_t *u, simt_warp_t *w, uint16_t active, unsigned pc, isa_decoded_t d,
                      sim_time_t now);
/* lsu.c (S13): the ld/st's pass starting at `now` sends its lanes' requests. */
void simt_lsu_pass(simt_t *u, simt_warp_t *w, sim_time_t now);

/* lsu.c: S8 broadcast: the lanes of `active` reading one byte (sync lanes
 * excepted) share the lowest one's request; fills fanout[] (the lanes each
 * sending lane's answer serves) and returns the lanes that send. */
uint16_t simt_merge_lanes(uint16_t *fanout /* OUT: [ISA_LANES] */, uint16_t active,
                          uint16_t sync, const uint16_t *addr);
/* lsu.c: S8: the most requests of `send` to one bank, less one; *banks gets
 * the number of banks touched. */
unsigned simt_bank_replays(const struct sm *sm, uint16_t send, const uint16_t *addr,
                           unsigned *banks /* OUT */);

/* lsu.c: the race detector's part of a warp's ld/st (gpu->races set): every
 * active lane's access, the lane as the core. */
void simt_race_lanes(simt_t *u, unsigned frame, uint16_t active, unsigned pc, bool store,
                     const isa_mem_lanes_t *ops);

/* groups.c (S14): the barrier mode's state, allocated with the unit
 * (false: out of memory) and freed with it; instructions go through the
 * pipeline's collectors and units (S12, S13) when a key of theirs is not at
 * its default, or when `pipeline` (gpu_desc_t.simt_pipeline, for tests). */
bool simt_grp_create(simt_t *u, bool pipeline);
void simt_grp_destroy(simt_t *u);
/* groups.c: warp w starts at `now` as one group at slot 0, no barrier. */
void simt_grp_start(simt_t *u, simt_warp_t *w, sim_time_t now);
/* groups.c: the decision of cycle `now` in barrier mode (what completed
 * takes effect, issue, counting); returns the next decision's time. */
sim_time_t simt_grp_cycle(simt_t *u, sim_time_t now);
/* groups.c: lane t->core's answer in barrier mode (simt_answer_receiver's
 * receiver: simt_grp_on_answer; with intervals simt_on_answer_ivl calls it). */
void simt_grp_answer(simt_t *u, txn_t *t);
void simt_grp_on_answer(void *unit, txn_t *t);
/* groups.c: the lanes lane's answer serves (broadcast). */
uint16_t simt_grp_answer_lanes(const simt_t *u, unsigned lane);
/* groups.c: counting: the most groups warp w held at once, the barriers it created. */
void simt_grp_counts(const simt_t *u, const simt_warp_t *w, uint32_t *max_groups,
                     uint32_t *barriers /* OUT */);
/* groups.c: the groups warp w holds now. */
unsigned simt_grp_groups(const simt_t *u, const simt_warp_t *w);
/* groups.c: warp w closes out before its end (the run stopped): the waits
 * at a barrier still open are reported (GPU_TR_SIMT_WAIT, to_ps NEVER). */
void simt_grp_close(simt_t *u, const simt_warp_t *w);
/* groups.c: lane's group waits at a convergence barrier. */
bool simt_grp_waits_at_barrier(const simt_t *u, unsigned lane);

/* trace.c: the instruction trace's record of an instruction (off the hot path). */
void simt_trace_insn(simt_t *u, const simt_warp_t *w, unsigned pc, uint16_t active,
                     sim_time_t when);
/* trace.c: the issue trace's record of an issue. */
void simt_trace_issue(simt_t *u, simt_warp_t *w, unsigned pc, uint16_t active, unsigned order,
                      unsigned eligible, sim_time_t now);
/* trace.c: interval statistics: each active lane started one instruction at
 * `now` (and the port issued one warp instruction). */
void simt_ivl_lanes(struct gpu *g, uint16_t active, sim_time_t now);

/* policy.c: the simt.scheduler plugin orders the n eligible warps of `now`
 * (mask `eligible`; age[] and order[] as simt_sched_order's, by slot); a
 * wrong answer ends the run (policy.h) and the oldest-first order stands in. */
void simt_order_by_plugin(simt_t *u, sim_time_t now, uint16_t eligible, const uint64_t *age,
                          unsigned n, uint8_t *order /* OUT: n entries */);

#endif

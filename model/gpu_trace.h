/* gpu_trace.h — the records the timed model reports through the simulation's
 * trace hook (sim_set_hook). Components emit only the kinds enabled with
 * gpu_set_trace(); counters are reported by gpu_finish() whenever a hook is
 * attached. Times are picoseconds; SIM_TIME_NEVER means "not reached"
 * (a partial record of an interrupted run). Records are valid only during
 * the hook call. */
#ifndef TESSERA_GPU_TRACE_H
#define TESSERA_GPU_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "events/sim.h"
#include "model/gpu_counters.h"
#include "model/xenum.h"

enum gpu_trace_kind {
    GPU_TR_FRAME = SIM_TRACE_USER, /* gpu_tr_frame_t: a frame, when its life ends */
    GPU_TR_STALL,                  /* gpu_tr_stall_t: an interval a frame waited, and why */
    GPU_TR_CORE_TASK,              /* gpu_tr_core_task_t: one core's part of a task, at READY */
    GPU_TR_ACCESS,                 /* gpu_tr_access_t: one SM access, at its grant */
    GPU_TR_COUNTER,                /* gpu_tr_counter_t: an end-of-run total */
    GPU_TR_SIMT_WARP,              /* gpu_tr_simt_warp_t: one warp, when its last lane finished */
    GPU_TR_SIMT_MEM,               /* gpu_tr_simt_mem_t: one warp ld/st, when it completes */
    GPU_TR_SIMT_ISSUE,             /* gpu_tr_simt_issue_t: one warp instruction, at issue */
    GPU_TR_SLOT,                   /* gpu_tr_slot_t: one slot's profile, at the end of the run */
    GPU_TR_SIMT_WAIT,              /* gpu_tr_simt_wait_t: a thread group's wait at a
                                      convergence barrier, when it ends (S14) */
};

/* gpu_set_trace() bits */
#define GPU_TRACE_FRAMES 0x1u   /* GPU_TR_FRAME and GPU_TR_STALL */
#define GPU_TRACE_TASKS 0x2u    /* GPU_TR_CORE_TASK */
#define GPU_TRACE_ACCESSES 0x4u /* GPU_TR_ACCESS */
#define GPU_TRACE_WARPS 0x8u    /* GPU_TR_SIMT_WARP and GPU_TR_SIMT_MEM (core.model = simt) */
#define GPU_TRACE_ISSUE 0x10u   /* GPU_TR_SIMT_ISSUE: one record per issued warp instruction,
                                   enough to draw the issue port (which warp issued in
                                   each cycle) and divergence (its active mask); and
                                   GPU_TR_SIMT_WAIT under simt.reconvergence = barrier */
#define GPU_TRACE_SLOTS 0x20u   /* GPU_TR_SLOT: the slot profile, reported by gpu_finish */

typedef struct gpu_tr_frame {
    uint8_t frame;            /* TM frame index */
    uint8_t is_if;            /* 0 CF, 1 IF */
    uint8_t grp;              /* frame index of the group's CF */
    uint8_t fence;            /* tm_fence_t of the group */
    uint16_t mask;            /* the group's Core_Active_Vect */
    bool complete;            /* false: partial record of a stopped run */
    sim_time_t decode_start_ps; /* decoding began */
    sim_time_t decode_ps;     /* decoding ended */
    sim_time_t issue_ps;      /* IF: code transfer began; CF: took effect */
    sim_time_t start_ps;      /* IF: its cores started; CF: SIM_TIME_NEVER */
    sim_time_t complete_ps;   /* IF: last READY arrived; CF: SIM_TIME_NEVER */
} gpu_tr_frame_t;

/* Why a decoded frame waits: X(PREFIX, ID, "name", "meaning"), one list
 * (xenum.h) for the enum, gpu_stall_name() and the counters' names. */
#define GPU_STALLS(X)                                                                       \
    X(GPU_STALL_, DECODE, "decode", "being decoded (T1)")                                    \
    X(GPU_STALL_, MASK, "mask", "an earlier unfinished task shares a core (rule 1, D15)")    \
    X(GPU_STALL_, ACQ, "acq", "an earlier acq group's task is unfinished (rule 2, T2)")      \
    X(GPU_STALL_, REL, "rel", "a rel group's task waits for every earlier task (rule 3)")    \
    X(GPU_STALL_, BUS, "bus", "the code bus is transferring another task (T4)")              \
    X(GPU_STALL_, ORDER, "order", "lookahead only: an earlier CF has not taken effect yet")

typedef enum gpu_stall_reason { GPU_STALLS(XENUM_ID) GPU_STALL_REASONS } gpu_stall_reason_t;

/* The name of a reason ("decode", "mask", …); "unknown" out of range. */
const char *gpu_stall_name(unsigned reason);

typedef struct gpu_tr_stall {
    uint8_t frame;            /* the frame that waited */
    uint8_t reason;           /* gpu_stall_reason_t */
    uint8_t blocker;          /* the earlier frame it waited for, or 0xff */
    sim_time_t from_ps, to_ps;
} gpu_tr_stall_t;

typedef struct gpu_tr_core_task {
    uint8_t frame, core;
    bool complete;            /* false: partial record of a stopped run */
    sim_time_t start_ps;      /* the core started the task */
    sim_time_t finish_ps;     /* the core sent READY (SIM_TIME_NEVER if not yet) */
    sim_time_t ready_ps;      /* READY reached the TS */
    uint64_t instructions;    /* executed, `ready` included */
    uint32_t sm_ops;          /* SM accesses granted */
    sim_time_t sm_wait_ps;    /* time blocked on SM accesses (issue to answer) */
    sim_time_t sm_conflict_ps;/* of which waiting for a busy bank (arrival to grant) */
} gpu_tr_core_task_t;

typedef struct gpu_tr_access {
    uint8_t frame, core;
    uint8_t is_store;         /* 0 ld, 1 st */
    uint8_t sync;             /* D16 ld_sync/st_sync (atomics on) */
    uint8_t bank;
    uint8_t value;            /* byte read or written */
    uint16_t addr;            /* 12-bit byte address */
    sim_time_t request_ps;    /* the ld/st started on the core */
    sim_time_t arrive_ps;     /* the request reached the bank */
    sim_time_t grant_ps;      /* the bank served it (the access took effect) */
    sim_time_t done_ps;       /* the answer reached the core */
} gpu_tr_access_t;

/* An access sink (gpu_set_access_sink): a consumer of GPU_TR_ACCESS records
 * in bulk gives the model an array to append them to, instead of one trace
 * hook call per access — recording every access (level mem) spent about as
 * much of the simulation's thread on the hook's call and dispatch and on a
 * record built to be copied as on storing it. The model writes each access
 * at *next and advances next, first calling full(sink) when next == end;
 * full must leave next < end. Appending is ordered with the records that
 * still go through the hook, which may look at next to know how many
 * accesses came before them. */
typedef struct gpu_access_sink {
    gpu_tr_access_t *next, *end;
    void (*full)(struct gpu_access_sink *sink);
} gpu_access_sink_t;

/* SIMT-SPEC "Counting": a warp's stall reasons. Every resident cycle in
 * which the warp does not issue has exactly one. */
#define GPU_SIMT_STALL_LIST(X)                                                              \
    X(GPU_SIMT_STALL_, MEMORY, "memory", "waits for its own instructions, one of them a ld/st") \
    X(GPU_SIMT_STALL_, EXECUTE, "execute", "waits for its own instructions, none a ld/st")   \
    X(GPU_SIMT_STALL_, ISSUE, "issue", "eligible but not chosen by the scheduler (S6)")       \
    X(GPU_SIMT_STALL_, FETCH, "fetch", "its next instruction is not at the head of its I-buffer (S11)") \
    X(GPU_SIMT_STALL_, COLLECTOR, "collector",                                              \
      "no collector free for it, or its own instruction waits in one (S12)")                 \
    X(GPU_SIMT_STALL_, BARRIER, "barrier",                                                  \
      "a thread group waits at a convergence barrier, none for a ld/st (S14)")

typedef enum gpu_simt_stall { GPU_SIMT_STALL_LIST(XENUM_ID) GPU_SIMT_STALLS } gpu_simt_stall_t;

const char *gpu_simt_stall_name(unsigned reason); /* "memory", "execute", "issue", … */

/* One warp (a task on the SIMT unit, S1), reported when its last lane has
 * finished (or as a partial record at the end of a stopped run). Derived
 * figures: SIMT efficiency = lane_instructions / (warp_instructions ×
 * popcount(mask)); lane utilisation = lane_instructions / (warp_instructions
 * × 16). Invariant: issued_cycles + Σ stall_cycles = resident_cycles. */
typedef struct gpu_tr_simt_warp {
    uint8_t frame;            /* the IF: the warp's name in every message */
    uint16_t mask;            /* its lanes: the group's Core_Active_Vect */
    bool complete;            /* false: partial record of a stopped run */
    sim_time_t start_ps;      /* resident from (T4: the end of the code transfer) = its age */
    sim_time_t end_ps;        /* its last lane finished (SIM_TIME_NEVER if not yet) */
    uint64_t warp_instructions;  /* issued */
    uint64_t lane_instructions;  /* Σ active lanes of the issued instructions */
    uint64_t divergent_branches; /* bnz whose active lanes disagreed (S7) */
    uint32_t max_stack_depth;    /* deepest SIMT stack, in entries (1 = never diverged); with
                                    simt.reconvergence = barrier, 0 (it has no stack) */
    uint32_t max_groups;         /* barrier mode (S14): the most thread groups held at once
                                    (1 = never diverged); 0 with the stack */
    uint32_t barriers;           /* barrier mode: convergence barriers created; 0 with the stack */
    uint64_t resident_cycles;    /* (end - start) / clock period */
    uint64_t issued_cycles;      /* = warp_instructions (one per cycle per warp) */
    uint64_t stall_cycles[GPU_SIMT_STALLS]; /* by gpu_simt_stall_t */
    uint64_t mem_instructions;   /* warp ld/st issued */
    uint64_t requests;           /* SM requests they sent (after broadcast merging) */
    uint64_t replays;            /* Σ over its ld/st of gpu_tr_simt_mem_t.replays */
} gpu_tr_simt_warp_t;

/* One warp ld/st (S8), reported when its last lane's answer is known. */
typedef struct gpu_tr_simt_mem {
    uint8_t frame;            /* the warp */
    uint8_t slot;             /* the instruction's slot 0..15 */
    uint8_t is_store;         /* 0 ld, 1 st */
    uint8_t requests;         /* SM requests sent (< popcount(lanes) when broadcast merged) */
    uint8_t replays;          /* the largest number of requests to one bank, minus one */
    uint8_t banks;            /* distinct banks touched */
    uint16_t lanes;           /* the active lanes */
    sim_time_t issue_ps;      /* issued (the requests leave) */
    sim_time_t done_ps;       /* the last lane's answer arrives: the instruction completes */
} gpu_tr_simt_mem_t;

/* One issued warp instruction (only with GPU_TRACE_ISSUE). Issue cycles are
 * time_ps / clock period; with simt.issue_width > 1 several records share a
 * time, in the order the scheduler chose them. */
typedef struct gpu_tr_simt_issue {
    sim_time_t time_ps;       /* the cycle boundary it issued at */
    uint8_t frame;            /* the warp */
    uint8_t slot;             /* the instruction's slot */
    uint8_t op;               /* isa_op_t */
    uint8_t order;            /* its place among this cycle's issues (0 = first) */
    uint8_t depth;            /* SIMT stack entries when it issued (> 1: diverged); with
                                 simt.reconvergence = barrier, the warp's thread groups */
    uint8_t eligible;         /* warps eligible in this cycle (> issued: issue stalls) */
    uint16_t active;          /* the lanes that execute it (< mask: divergence) */
    uint16_t mask;            /* the warp's lanes still in it */
} gpu_tr_simt_issue_t;

/* The slot profile: for one instruction slot of one IF (frame), on one core
 * (MIMD) or on the SIMT unit, what it executed and the cycles charged to it
 * over the whole run (every task of the frame; a task still running when the
 * run stopped counts up to the stop). MIMD: each cycle of a core's task is
 * charged to the slot it executes or waits at — execute_ps (the
 * instruction's latency; a ld/st whose answer had not come at the stop: the
 * time since it started) or sm_wait_ps (a ld/st's request to its answer) —
 * so that their sums over a core's slots are its busy_ps and sm_wait_ps
 * counters. SIMT: each resident cycle of a warp is charged to the slot the
 * warp waits to issue (the top entry's next slot; with none left, the slot
 * it issued last): issued_cycles in the cycle it issues it, else
 * stall_cycles by reason — so that their sums over a frame's slots are the
 * warps' issued and stall cycles. */
typedef struct gpu_tr_slot {
    uint8_t frame;            /* the IF */
    uint8_t core;             /* MIMD: the core; SIMT: GPU_SLOT_SIMT */
    uint8_t slot;             /* 0..15 */
    bool groups;              /* SIMT under simt.reconvergence = barrier (S14): the
                                 barrier reason applies (else it is not recorded) */
    uint16_t word;            /* the instruction word in the slot */
    uint64_t tasks;           /* tasks (MIMD) or warps (SIMT) of the frame that ran here */
    uint64_t instructions;    /* executed (MIMD) or warp instructions issued (SIMT) */
    uint64_t lane_instructions; /* SIMT: Σ active lanes of those; MIMD: = instructions */
    uint64_t issued_cycles;   /* SIMT: cycles in which the warp issued it */
    uint64_t stall_cycles[GPU_SIMT_STALLS]; /* SIMT: cycles the warp waited to issue it */
    sim_time_t execute_ps;    /* MIMD */
    sim_time_t sm_wait_ps;    /* MIMD */
} gpu_tr_slot_t;
#define GPU_SLOT_SIMT 0xffu

/* One thread group's wait at a convergence barrier (simt.reconvergence =
 * barrier, S14; only with GPU_TRACE_ISSUE), reported when the barrier
 * completes: from the moment the group's next slot became the barrier's
 * wait point (it may still have had instructions in flight) to the
 * barrier's completion, when the groups join. A wait still open when the
 * run ends is reported then, with to_ps = SIM_TIME_NEVER. */
typedef struct gpu_tr_simt_wait {
    uint8_t frame;            /* the warp */
    uint8_t slot;             /* the wait point r: the bnz's immediate post-dominator */
    uint16_t lanes;           /* the waiting group's lanes */
    sim_time_t from_ps;       /* it began waiting */
    sim_time_t to_ps;         /* the barrier completed (SIM_TIME_NEVER: never) */
} gpu_tr_simt_wait_t;

/* An end-of-run counter (GPU_TR_COUNTER): its unit and name are those of
 * its entry in gpu_counters.h (gpu_counter()). */
typedef struct gpu_tr_counter {
    const char *component;    /* "gpu", "ts", "core3", "bank12", "simt" (GPU_UNITS) */
    const char *name;         /* "instructions", "div_by_zero", … (GPU_COUNTERS) */
    uint64_t value;
} gpu_tr_counter_t;

#endif

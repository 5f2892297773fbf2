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
#include "model/xenum.h"

enum gpu_trace_kind {
    GPU_TR_FRAME = SIM_TRACE_USER, /* gpu_tr_frame_t: a frame, when its life ends */
    GPU_TR_STALL,                  /* gpu_tr_stall_t: an interval a frame waited, and why */
    GPU_TR_CORE_TASK,              /* gpu_tr_core_task_t: one core's part of a task, at READY */
    GPU_TR_ACCESS,                 /* gpu_tr_access_t: one SM access, at its grant */
    GPU_TR_COUNTER,                /* gpu_tr_counter_t: an end-of-run total */
};

/* gpu_set_trace() bits */
#define GPU_TRACE_FRAMES 0x1u   /* GPU_TR_FRAME and GPU_TR_STALL */
#define GPU_TRACE_TASKS 0x2u    /* GPU_TR_CORE_TASK */
#define GPU_TRACE_ACCESSES 0x4u /* GPU_TR_ACCESS */

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

typedef struct gpu_tr_counter {
    const char *component;    /* "gpu", "ts", "core3", "bank12" */
    const char *name;         /* "instructions", "div_by_zero", "conflicts", … */
    uint64_t value;
} gpu_tr_counter_t;

#endif

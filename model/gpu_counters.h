/* gpu_counters.h — the units that report end-of-run counters and each
 * block's counters (GPU_TR_COUNTER, the `counters` table), one list each:
 * the blocks report through gpu_counter() by these ids, so a counter has
 * no name but its entry here, and cmake/gen-names.c writes the same names
 * into <build>/gen/tessera_names.h for the views, the presentation and the
 * tests, which retype none (docs/ARCHITECTURE.md, "Names across the layer
 * wall"). */
#ifndef TESSERA_GPU_COUNTERS_H
#define TESSERA_GPU_COUNTERS_H

#include <stdbool.h>

#include "model/xenum.h"

/* The units (counters.component; the intervals' units too):
 * X(GPU_UNIT_, ID, "name", kind), kind one of
 *   GPU_UNIT_ONE       the unit's rows are named name;
 *   GPU_UNIT_NUMBERED  one of several, named by its number after the name,
 *                      from 0 ("core0", "bank12");
 *   GPU_UNIT_REASONS   one, whose intervals have a row per stall reason
 *                      too, named name GPU_UNIT_REASON_SEP reason
 *                      ("simt.memory"). */
#define GPU_UNIT_ONE 0
#define GPU_UNIT_NUMBERED 1
#define GPU_UNIT_REASONS 2
#define GPU_UNIT_REASON_SEP "."
#define GPU_UNITS(X)                                                                        \
    X(GPU_UNIT_, GPU, "gpu", GPU_UNIT_ONE)        /* the machine's totals */                \
    X(GPU_UNIT_, TS, "ts", GPU_UNIT_ONE)          /* the Task Scheduler */                  \
    X(GPU_UNIT_, CORE, "core", GPU_UNIT_NUMBERED) /* a core (a SIMT run's lanes) */         \
    X(GPU_UNIT_, BANK, "bank", GPU_UNIT_NUMBERED) /* a bank of the SM */                    \
    X(GPU_UNIT_, SIMT, "simt", GPU_UNIT_REASONS)  /* the SIMT unit */

typedef enum gpu_unit { GPU_UNITS(XENUM_ID) GPU_UNIT_COUNT } gpu_unit_t;

/* A unit's name ("core") and kind (GPU_UNIT_ONE, _NUMBERED or _REASONS). */
typedef struct gpu_unit_info {
    const char *name;
    int kind;
} gpu_unit_info_t;
const gpu_unit_info_t *gpu_unit_info(gpu_unit_t unit);

/* A unit's row name into buf and returned: "gpu", a numbered unit's with
 * its number n ("core3"), a GPU_UNIT_REASONS unit's with a stall reason
 * (not NULL) "simt.memory". */
#define GPU_UNIT_NAME_MAX 32
char *gpu_unit_name(char buf[GPU_UNIT_NAME_MAX], gpu_unit_t unit, unsigned n, const char *reason);

/* Each block's counters, in the order it reports them, three kinds of
 * entry: X(UNIT, ID, "name", "what") one counter; G(…) one that only runs
 * with thread groups report (simt.reconvergence = barrier, S14: the
 * stack's rows stay as they were); R(UNIT, ID, "prefix", "suffix", "what")
 * one per stall reason of the unit (the TS's GPU_STALLS, the SIMT unit's
 * GPU_SIMT_STALL_LIST, gpu_trace.h), named prefix, reason, suffix — the
 * SIMT unit's barrier reason, the thread groups', like a G entry. */
#define GPU_COUNTERS_GPU(X, G, R) /* gpu.c: the machine's totals (gpu_stats) */             \
    X(GPU, FRAMES, "frames", "TM frames decoded")                                            \
    X(GPU, TASKS, "tasks", "tasks (IFs) issued")                                             \
    X(GPU, CORE_TASKS, "core_tasks", "tasks started on a core, one per core of a task")      \
    X(GPU, INSTRUCTIONS, "instructions", "instructions started")                             \
    X(GPU, SM_ACCESSES, "sm_accesses", "SM accesses granted")                                \
    X(GPU, CONFLICTS, "conflicts", "accesses that waited for their bank")                    \
    X(GPU, CONFLICT_PS, "conflict_ps", "their total wait")                                   \
    X(GPU, DIV_BY_ZERO, "div_by_zero", "divisions by zero")

#define GPU_COUNTERS_TS(X, G, R) /* ts.c */                                                  \
    X(TS, TASKS_ISSUED, "tasks_issued", "tasks issued to their cores")                       \
    X(TS, BUS_BUSY_PS, "bus_busy_ps", "ps the code bus transferred code (T4)")               \
    R(TS, STALL, "stall_", "_ps", "ps frames waited for the reason (its stalls rows)")

#define GPU_COUNTERS_CORE(X, G, R) /* cores.c, each core (a SIMT run's lanes too) */        \
    X(CORE, TASKS, "tasks", "tasks it started")                                              \
    X(CORE, INSTRUCTIONS, "instructions", "instructions it executed")                        \
    X(CORE, BUSY_PS, "busy_ps", "ps from a task's start to its READY (to the stop)")         \
    X(CORE, SM_OPS, "sm_ops", "its SM accesses granted")                                     \
    X(CORE, SM_WAIT_PS, "sm_wait_ps", "ps blocked on SM accesses (issue to answer)")         \
    X(CORE, SM_CONFLICT_PS, "sm_conflict_ps", "of which waiting for a busy bank")            \
    X(CORE, DIV_BY_ZERO, "div_by_zero", "its divisions by zero")

#define GPU_COUNTERS_BANK(X, G, R) /* sm.c, each bank */                                    \
    X(BANK, ACCESSES, "accesses", "accesses it served")                                      \
    X(BANK, CONFLICTS, "conflicts", "accesses that waited for it")                           \
    X(BANK, WAIT_PS, "wait_ps", "their total wait (arrival to grant)")                       \
    X(BANK, MAX_WAIT_PS, "max_wait_ps", "the longest of them")                               \
    X(BANK, BUSY_PS, "busy_ps", "ps it served accesses")                                     \
    X(BANK, LOCK_ACQUIRES, "lock_acquires", "ld_sync locks taken (D16)")

#define GPU_COUNTERS_SIMT(X, G, R) /* simt/unit.c (SIMT-SPEC "Counting") */                 \
    X(SIMT, WARPS, "warps", "warps run")                                                     \
    X(SIMT, WARP_INSTRUCTIONS, "warp_instructions", "instructions issued")                   \
    X(SIMT, LANE_INSTRUCTIONS, "lane_instructions", "of which lanes executed")               \
    X(SIMT, LANE_SLOTS, "lane_slots", "sum of warp instructions x lanes of the warp")        \
    X(SIMT, DIVERGENT_BRANCHES, "divergent_branches", "branches whose lanes went both ways") \
    G(SIMT, MAX_GROUPS, "max_groups", "most thread groups of a warp at once")                \
    G(SIMT, BARRIERS, "barriers", "convergence barriers completed")                          \
    X(SIMT, ISSUED_CYCLES, "issued_cycles", "warp cycles in which the warp issued")          \
    X(SIMT, RESIDENT_CYCLES, "resident_cycles", "warp cycles resident")                      \
    R(SIMT, STALL, "stall_", "_cycles", "warp cycles stalled for the reason")                \
    X(SIMT, MEM_INSTRUCTIONS, "mem_instructions", "warp ld/st")                              \
    X(SIMT, REQUESTS, "requests", "their SM requests")                                       \
    X(SIMT, REPLAYS, "replays", "their replays")                                             \
    X(SIMT, ISSUE_CYCLES, "issue_cycles", "cycles in which any warp issued")                 \
    X(SIMT, ISSUE_WIDTH, "issue_width", "simt.issue_width")                                  \
    X(SIMT, RUN_CYCLES, "run_cycles", "the run's end (its last READY) in cycles")            \
    X(SIMT, ISSUE_UTIL_PPM, "issue_util_ppm",                                                \
      "warp_instructions x 10^6 / (run_cycles x issue_width)")

/* Every block's, in the order gpu_finish() reports them. */
#define GPU_COUNTERS(X, G, R)                                                               \
    GPU_COUNTERS_GPU(X, G, R) GPU_COUNTERS_TS(X, G, R) GPU_COUNTERS_CORE(X, G, R)            \
    GPU_COUNTERS_SIMT(X, G, R) GPU_COUNTERS_BANK(X, G, R)

#define GPU_CTR_ID(unit, id, ...) GPU_CTR_##unit##_##id,
typedef enum gpu_ctr { GPU_COUNTERS(GPU_CTR_ID, GPU_CTR_ID, GPU_CTR_ID) GPU_CTR_COUNT } gpu_ctr_t;

/* What the list says of a counter: its unit; its name (an R entry's
 * prefix) and an R entry's suffix (else NULL); its meaning; whether only
 * runs with thread groups report it (a G entry). */
typedef struct gpu_counter_info {
    gpu_unit_t unit;
    const char *name, *suffix, *what;
    bool groups_only;
} gpu_counter_info_t;
const gpu_counter_info_t *gpu_counter_info(gpu_ctr_t id);

#endif

/* gpu.h — the timed GPU model: a Task Scheduler, 16 cores and a banked
 * Shared Memory wired with ports on one simulation (spec §3, §6).
 * gpu_create() builds it from a program and a plain description (the
 * configuration arrives already parsed: the model never sees text); the
 * caller runs the simulation (sim_run or sim_drive) and then reads the
 * outcome. What happens is reported through the simulation's trace hook as
 * the records of gpu_trace.h. */
#ifndef TESSERA_GPU_H
#define TESSERA_GPU_H

#include <stdbool.h>
#include <stdint.h>

#include "events/sim.h"
#include "model/arch.h"
#include "events/base/diag.h"
#include "model/itrace.h"
#include "model/latency.h"
#include "model/policy.h"
#include "model/program.h"
#include "model/ivl.h"
#include "model/race.h"
#include "model/xenum.h"

/* The enumerated settings of gpu_desc_t, each written once (xenum.h):
 * X(PREFIX, ID, "name", "what it does"). Each yields gpu_X_t, its COUNT and
 * gpu_X_names[] (by value, NULL-terminated); config/ takes its choices and
 * their documentation from here. Adding a choice is adding an entry here and
 * its behaviour where the switch on that setting is (the compiler names
 * every switch that lacks the new case). */
#define GPU_POLICIES(X)                                                                     \
    X(GPU_POLICY_, INORDER, "inorder", "a frame is issued only after every earlier frame")  \
    X(GPU_POLICY_, LOOKAHEAD, "lookahead",                                                   \
      "a later task may be issued ahead of earlier unissued frames (within ts.window) when " \
      "issue rules 1-3 hold against every earlier unfinished or unissued task (a what-if)")

#define GPU_ARBITERS(X)                                                                      \
    X(GPU_ARB_, FIXED, "fixed", "the lowest core id")                                        \
    X(GPU_ARB_, RR, "rr", "round-robin from the core after the last one granted on that bank") \
    X(GPU_ARB_, FIFO, "fifo", "the oldest arrival, ties to the lowest core id")               \
    X(GPU_ARB_, RANDOM, "random", "uniform among the waiting, seeded by sim.seed")

/* With k = log2(sm.banks) bank bits (gpu_bank_of); 16 banks: k = 4. */
#define GPU_BANK_MAPS(X)                                                                     \
    X(GPU_MAP_, HIGH, "high",                                                                \
      "the top k address bits, addr[11:12-k] (D13 with 16 banks: addr[11:8], row addr[7:0])") \
    X(GPU_MAP_, INTERLEAVED, "interleaved",                                                  \
      "the bottom k bits, addr[k-1:0] (16 banks: addr[3:0], row addr[11:4])")                \
    X(GPU_MAP_, XOR, "xor",                                                                  \
      "addr[k-1:0] XOR addr[2k-1:k], which spreads strided accesses over the banks")

#define GPU_TIMINGS(X)                                                                       \
    X(GPU_TIMING_, DECOUPLED, "decoupled",                                                   \
      "a core runs instructions that touch nothing outside it on a local clock and "         \
      "synchronises only when it sends something (temporal decoupling, fast)")               \
    X(GPU_TIMING_, STEPPED, "stepped", "one event per instruction and per message, for checking")

typedef enum gpu_policy { GPU_POLICIES(XENUM_ID) GPU_POLICY_COUNT } gpu_policy_t;
typedef enum gpu_arbiter { GPU_ARBITERS(XENUM_ID) GPU_ARB_COUNT } gpu_arbiter_t;
typedef enum gpu_bank_map { GPU_BANK_MAPS(XENUM_ID) GPU_MAP_COUNT } gpu_bank_map_t;
typedef enum gpu_timing { GPU_TIMINGS(XENUM_ID) GPU_TIMING_COUNT } gpu_timing_t;

extern const char *const gpu_policy_names[GPU_POLICY_COUNT + 1];
extern const char *const gpu_arbiter_names[GPU_ARB_COUNT + 1];
extern const char *const gpu_bank_map_names[GPU_MAP_COUNT + 1];
extern const char *const gpu_timing_names[GPU_TIMING_COUNT + 1];

#define GPU_MODELS(X)                                                                       \
    X(GPU_MODEL_, MIMD, "mimd", "16 independent cores (spec section 6)")                     \
    X(GPU_MODEL_, SIMT, "simt",                                                             \
      "the cores are the 16 lanes of one SIMT unit that issues one instruction per warp (a " \
      "task), with a reconvergence stack, a warp scheduler and optionally a scoreboard "      \
      "(SIMT-SPEC, docs/SIMT.md)")

typedef enum gpu_model { GPU_MODELS(XENUM_ID) GPU_MODEL_COUNT } gpu_model_t;
extern const char *const gpu_model_names[GPU_MODEL_COUNT + 1];

/* simt.reconvergence (SIMT-SPEC S7, S14): how a divergent warp joins again. */
#define GPU_RECONVS(X)                                                                      \
    X(GPU_RECONV_, STACK, "stack", "S7's reconvergence stack: one path at a time")            \
    X(GPU_RECONV_, BARRIER, "barrier",                                                      \
      "S14's thread groups with convergence barriers at the immediate post-dominator: the "  \
      "warp chooses among its groups each cycle, and a lock inside a warp does not deadlock")

typedef enum gpu_reconv { GPU_RECONVS(XENUM_ID) GPU_RECONV_COUNT } gpu_reconv_t;
extern const char *const gpu_reconv_names[GPU_RECONV_COUNT + 1];

/* Everything the model needs to know; gpu_desc_default() gives §6. Latencies
 * are in cycles of clock.period_ps. */
typedef struct gpu_desc {
    uint64_t period_ps;       /* clock.period_ps */
    lat_t ts_decode;          /* T1 */
    lat_t ts_xfer;            /* T4 */
    lat_t ts_ready;           /* T5 */
    uint8_t policy;           /* gpu_policy_t */
    uint8_t window;           /* lookahead window in frames (1..64) */
    lat_t core_alu, core_mul, core_div, core_branch, core_ready; /* T6 */
    uint64_t budget;          /* D12: instructions per core per task */
    uint8_t timing;           /* gpu_timing_t */
    lat_t sm_req, sm_bank, sm_resp; /* T7 */
    uint8_t arbiter;          /* gpu_arbiter_t */
    uint8_t bank_map;         /* gpu_bank_map_t */
    uint8_t banks;            /* sm.banks: 1, 2, 4, ... SM_BANKS_MAX (D13: 16) */
    bool atomics;             /* D16 */
    uint64_t seed;            /* sim.seed */
    uint8_t model;            /* gpu_model_t: core.model */
    uint8_t simt_scheduler;   /* simt_sched_t (simt/sched.h): simt.scheduler, S6 */
    uint8_t simt_issue_width; /* simt.issue_width 1..16, S5 */
    bool simt_scoreboard;     /* simt.scoreboard, S4 */
    bool simt_broadcast;      /* simt.broadcast, S8 */
    uint8_t simt_ibuffer;     /* simt.ibuffer 0..8, S11 (0: an ideal front end) */
    uint8_t simt_fetch_width; /* simt.fetch_width 1..4, S11 */
    uint8_t simt_fetch_latency; /* simt.fetch_latency 1..8 cycles, S11 */
    uint8_t simt_collectors;  /* simt.collectors 0..16, S12 (0: operands at issue, free) */
    uint8_t simt_rf_banks;    /* simt.rf_banks 1..16, S12 */
    uint8_t simt_rf_arbiter;  /* simt_rf_arbiter_t (simt/simt.h): simt.rf_arbiter, S12 */
    uint8_t simt_sp_width, simt_sfu_width, simt_lsu_width; /* simt.*_width 1..16, S13 */
    uint8_t simt_reconvergence; /* gpu_reconv_t: simt.reconvergence, S7 or S14 */
    bool simt_pipeline;       /* not a key: the unit runs S11–S13's cycle-by-cycle pipeline
                                 even with their keys at the defaults (which then give
                                 S1–S10's times; tests compare the two) */
    gpu_policies_t policies;  /* the points handed to plugins (`KEY=plugin:PATH`): a point
                                 whose impl is set ignores its enumerated field above */
} gpu_desc_t;

/* The bank serving byte address `addr` (0..SM_BYTES-1) among `banks` (a power
 * of two, k = log2(banks)) under mapping `map` (docs/SPEC.md, "Banks"):
 * high: addr[11:12-k]; interleaved: addr[k-1:0]; xor: addr[k-1:0] ^
 * addr[2k-1:k]. With 16 banks, high and interleaved are D13's. */
static inline unsigned gpu_bank_of(unsigned map, unsigned banks, unsigned addr)
{
    unsigned k = (unsigned)__builtin_ctz(banks), mask = banks - 1;
    switch ((gpu_bank_map_t)map) {
    case GPU_MAP_INTERLEAVED: return addr & mask;
    case GPU_MAP_XOR: return (addr ^ (addr >> k)) & mask;
    case GPU_MAP_HIGH:
    case GPU_MAP_COUNT: break; /* COUNT: not reached, gpu_desc_check rejects it */
    }
    return (addr >> (12 - k)) & mask;
}

/* Fills `d` with the reference timing model of spec §6 (the defaults of
 * model/gpu_keys.h, the one table of them). */
void gpu_desc_default(gpu_desc_t *d);

/* Checks the bounds the model relies on, those of model/gpu_keys.h (core
 * latencies >= 1 cycle, bank occupancy >= 1 cycle, window 1..64, period >= 1
 * ps, simt.issue_width 1..16, the pipeline's simt.* keys in their ranges of
 * SIMT-SPEC, enumerations in range), banks a power of two, and S14's
 * combinations; the message names the configuration key. The simt.* fields
 * are checked whatever core.model is (a MIMD run ignores them). */
int gpu_desc_check(const gpu_desc_t *d, diag_t *diag);

typedef struct gpu gpu_t;

/* Builds the GPU for `prog` on `sim` (at time 0, nothing scheduled yet).
 * Returns NULL and sets diag (TESS_EINPUT for a bad description, TESS_ENOMEM)
 * on failure. The program is copied. */
gpu_t *gpu_create(sim_t *sim, const gpu_desc_t *desc, const program_t *prog, diag_t *diag);
void gpu_destroy(gpu_t *gpu);

/* Which gpu_trace.h records to report (GPU_TRACE_* bits); 0 = none (default). */
void gpu_set_trace(gpu_t *gpu, unsigned mask);
/* With GPU_TRACE_ACCESSES, appends the SM accesses to `sink` (gpu_trace.h)
 * instead of reporting them through the trace hook; NULL (the default):
 * through the hook. The caller keeps the sink alive while it is set. */
struct gpu_access_sink;
void gpu_set_access_sink(gpu_t *gpu, struct gpu_access_sink *sink);

/* Reports every instruction the engine executes from now on to fn(user,
 * record) (model/itrace.h); NULL turns it off. Timestamps are unchanged.
 * Call before gpu_start. */
void gpu_set_itrace(gpu_t *gpu, itrace_fn fn, void *user);
/* Feeds every SM access to the race detector `r` (race.h; NULL: none, the
 * default). The caller keeps `r` and frees it after gpu_destroy. */
void gpu_set_races(gpu_t *gpu, race_det_t *r);

/* Feeds interval statistics (model/ivl.h) into `intervals` and `window`
 * (either may be NULL; the caller keeps them and frees them after
 * gpu_destroy). Cores then run their instructions one at a time (the same
 * timestamps, more host time); the SIMT unit counts each lane's instruction
 * at its issue, its busy time and its SM waits per lane. */
void gpu_set_intervals(gpu_t *gpu, ivl_t *intervals, ivl_t *window);

/* Bounds the run at `horizon` (ps; only lowers an earlier bound): nothing
 * after it runs — no instruction starts, no SM answer reaches its core, no
 * SIMT issue is decided later — in either timing mode, so that a run
 * stopped there (sim.time_limit; an asynchronous stop, gpu_stop_point) has
 * every record and counter of a stepped run stopped there. Decoupled cores
 * and the SIMT unit still run ahead up to it, at some host cost (cores in
 * chunks that surely start by it, answers as events). */
void gpu_set_horizon(gpu_t *gpu, sim_time_t horizon);

/* For an asynchronous stop (a signal, the wall-clock limit): the earliest
 * instant at or after now, and not after the horizon, that no component has
 * run past (decoupled cores and the SIMT unit may be ahead of time); bounds
 * the run there. Running every event up to that instant then stops the run
 * as sim.time_limit would stop it there. */
sim_time_t gpu_stop_point(gpu_t *gpu);

/* Schedules the first decode. Call once before running the simulation. */
void gpu_start(gpu_t *gpu);

/* After the simulation stopped: reports what is still in progress (frames
 * and core tasks not finished, as partial records) and the end-of-run
 * counters through the trace hook. Call once. */
void gpu_finish(gpu_t *gpu);

typedef enum gpu_outcome {
    GPU_RUNNING = 0,          /* work remains and the queue is not empty */
    GPU_DONE,                 /* every frame completed */
    GPU_WATCHDOG,             /* a task exceeded its budget (D12); see gpu_errmsg */
    GPU_STUCK,                /* the queue emptied with work left (a lock never released) */
    GPU_POLICY_ERROR,         /* a plugin answered wrongly (status error); see gpu_errmsg */
} gpu_outcome_t;

gpu_outcome_t gpu_outcome(const gpu_t *gpu);
const char *gpu_errmsg(const gpu_t *gpu); /* why WATCHDOG or STUCK; "" otherwise */

typedef struct gpu_stats {
    sim_time_t end_ps;        /* when the last READY reached the TS */
    sim_time_t now_ps;        /* simulated time reached (a stopped run ends before end_ps
                                 would; a watchdog run stops when the instruction over
                                 the budget would start) */
    uint64_t frames, tasks, core_tasks;
    uint64_t instructions;    /* counted when they start */
    uint64_t sm_accesses;     /* counted when granted */
    uint64_t sm_conflicts;    /* accesses that waited for their bank */
    sim_time_t sm_conflict_ps;/* total waiting of those accesses */
    uint64_t div_by_zero;
} gpu_stats_t;

void gpu_stats(const gpu_t *gpu, gpu_stats_t *out /* OUT */);
/* The registers and SM as they are now. */
void gpu_arch_state(const gpu_t *gpu, arch_state_t *out /* OUT */);

#endif

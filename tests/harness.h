/* harness.h — runs a program through the timed model inside a test and keeps
 * every record it reports (frames, stalls, core tasks, SM accesses), so tests
 * can assert on timelines and compare runs. Also assembles source text. */
#ifndef TESSERA_HARNESS_H
#define TESSERA_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/arch.h"
#include "model/gpu.h"
#include "model/gpu_trace.h"
#include "model/program.h"

#define H_MAX_FRAMES 64
#define H_MAX_STALLS 4096

typedef struct h_run {
    gpu_outcome_t outcome;
    bool simt;                             /* ran with core.model = simt */
    gpu_stats_t stats;
    arch_state_t arch;
    char errmsg[256];
    uint64_t events;
    gpu_tr_frame_t frames[H_MAX_FRAMES];   /* by frame index */
    bool have_frame[H_MAX_FRAMES];
    gpu_tr_stall_t *stalls;
    size_t n_stalls;
    gpu_tr_core_task_t *tasks;             /* in READY order */
    size_t n_tasks, cap_tasks;
    gpu_tr_access_t *accesses;             /* in grant order */
    size_t n_accesses, cap_accesses;
    gpu_tr_simt_warp_t *warps;             /* SIMT: in close-out order */
    size_t n_warps, cap_warps;
    gpu_tr_simt_mem_t *mems;               /* SIMT: in completion order */
    size_t n_mems, cap_mems;
    gpu_tr_simt_issue_t *issues;           /* SIMT: in issue order */
    size_t n_issues, cap_issues;
    gpu_tr_simt_wait_t *waits;             /* SIMT barrier mode: as reported */
    size_t n_waits, cap_waits;
    uint64_t simt_counter[32];             /* SIMT: "simt" counters in report order */
    char simt_counter_name[32][48];        /* copied: the model builds some in a stack
                                              buffer (stall_REASON_cycles) */
    size_t n_simt_counters;
    gpu_tr_slot_t *slots;                  /* the slot profile, in report order */
    size_t n_slots, cap_slots;
    uint64_t core_busy_ps[GPU_CORES], core_sm_wait_ps[GPU_CORES], core_instructions[GPU_CORES];
} h_run_t;

/* Assembles `src` (test-fixture text) into `p`; fails the test on error. */
void h_assemble(program_t *p, const char *src);

/* Runs `p` to the end with `desc` (NULL: the §6 defaults), recording
 * everything. Returns a malloc'd result to free with h_free. */
h_run_t *h_run(const program_t *p, const gpu_desc_t *desc);
h_run_t *h_run_src(const char *src, const gpu_desc_t *desc);
/* h_run with the instruction trace going to fn(user, record) (NULL: off). */
h_run_t *h_run_itrace(const program_t *p, const gpu_desc_t *desc, itrace_fn fn, void *user);
void h_free(h_run_t *r);

/* SIMT-SPEC "Counting" for every warp of r (at the default clock period,
 * 1000 ps): issued + stall cycles = resident cycles, issued cycles = warp
 * instructions, a complete warp resident from its start to its end. */
void h_check_counting(const h_run_t *r);
/* h_run_src, asserting that the run finished (its message printed when
 * not) and its warps' counting. */
h_run_t *h_run_simt_done(const char *src, const gpu_desc_t *desc);

/* The §6 defaults with core.timing = timing (GPU_TIMING_*), on the MIMD
 * cores or (simt) the SIMT unit: where a golden test starts. */
gpu_desc_t h_desc(unsigned timing, bool simt);

/* Asserts that `lane` (a core, or a SIMT lane) finished its task of `frame`
 * at `finish` ps, sent READY a cycle (1000 ps) later and executed
 * `instructions`; prints the finish in cycles when it differs. */
void h_assert_lane(const h_run_t *r, unsigned frame, unsigned lane, sim_time_t finish,
                   uint64_t instructions);

/* Frame f's SIMT issue records in issue order, at most max: their cycles
 * (at the default clock period), slots and active lanes into at, slot and
 * lanes (each NULL when not wanted). Returns how many. */
unsigned h_issues(const h_run_t *r, unsigned f, unsigned *at, unsigned *slot, unsigned *lanes,
                  unsigned max);

/* Whether frame f's SIMT issues were at exactly the cycles want[0..n), in
 * order (the default clock period); prints both lists when not. */
bool h_issued_at(const h_run_t *r, unsigned f, const unsigned *want, unsigned n);

/* h_issued_at with the cycles written out: CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 9)). */
#define H_ISSUED_AT(r, f, ...)                                                           \
    h_issued_at((r), (f), (const unsigned[]){__VA_ARGS__},                             \
                sizeof((const unsigned[]){__VA_ARGS__}) / sizeof(unsigned))

/* The spec's examples 1 and 2 with tasks of two instructions (set_const,
 * ready: a task starting at S sends READY at S+2), CF0's fence fence0
 * ("acq": example 1, "no": example 2); tests/test_timing.c holds their
 * timelines. A static buffer that the next call overwrites. */
const char *h_example_src(const char *fence0);

/* The contention case of tests/test_timing.c (the reasoning there): four
 * cores' two ld each to bank 0, the first arriving at 13, 15, 17, 19. */
extern const char H_CONTENTION_SRC[];

/* Asserts that r, the contention case with sm.bank = 4 cycles, finished
 * with its 8 grants at cycles 13 + 4k (default clock); the granted cores as
 * digits in grant order into order, NUL-terminated. */
void h_grant_order(const h_run_t *r, char order[9]);

/* The k-th access of `core` (grant order), or NULL. */
const gpu_tr_access_t *h_access(const h_run_t *r, unsigned core, unsigned k);
/* The core-task record of (frame, core), or NULL. */
const gpu_tr_core_task_t *h_task(const h_run_t *r, unsigned frame, unsigned core);

/* The slot profile's record of (frame, core, slot) (core GPU_SLOT_SIMT: the
 * SIMT unit's), or NULL when nothing was charged to it. */
const gpu_tr_slot_t *h_slot(const h_run_t *r, unsigned frame, unsigned core, unsigned slot);

/* The SIMT warp record of `frame`, or NULL. */
const gpu_tr_simt_warp_t *h_warp(const h_run_t *r, unsigned frame);
/* The SIMT warp record of `frame`, asserted to exist: when it does not, a
 * zeroed record (so the test's checks fail rather than crash). */
const gpu_tr_simt_warp_t *h_warp_of(const h_run_t *r, unsigned frame);
/* The "simt" counter `name`, or UINT64_MAX. */
uint64_t h_simt_counter(const h_run_t *r, const char *name);

/* True when both runs reported the same records with the same times, in the
 * same order for each core; prints the first difference. */
bool h_same_timeline(const h_run_t *a, const h_run_t *b);

#endif

/* test_simt.c — golden timelines of the SIMT unit (core.model = simt),
 * computed by hand from SIMT-SPEC S1–S10 and the defaults of GPU-SPEC §6
 * (cycle = 1000 ps, ts.decode 1, ts.xfer 4, ts.ready 1, alu 1, mul 2,
 * branch 1, ready 1, sm.req 1, sm.bank 1, sm.resp 1). With one group the CF
 * decodes in cycle 1, the IF in cycle 2, the transfer takes cycles 2–6: the
 * first warp starts at 6. The reasoning is written beside each test, in
 * cycles; assertions are in picoseconds. Every test runs in both timing
 * modes, and again with the pipeline of S11–S13 running with its keys at
 * their defaults (gpu_desc_t.simt_pipeline), which must give S1–S10's times
 * exactly; every SIMT run is checked for issued + stall cycles = resident
 * cycles per warp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/simt/sched.h"
#include "tests/harness.h"
#include "tests/simt_programs.h"
#include "tessera_names.h" /* the model's counters and units (cmake/gen-names.c) */
#include "tests/testutil.h"

#define C(n) ((sim_time_t)(n) * 1000) /* cycles → ps */
#define MEM GPU_SIMT_STALL_MEMORY
#define EXE GPU_SIMT_STALL_EXECUTE
#define ISS GPU_SIMT_STALL_ISSUE

static unsigned timing_mode;
static bool pipeline; /* gpu_desc_t.simt_pipeline: S11–S13's cycle with default keys */

static gpu_desc_t simt(unsigned sched, bool scoreboard)
{
    gpu_desc_t d = h_desc(timing_mode, true);
    d.simt_scheduler = (uint8_t)sched;
    d.simt_scoreboard = scoreboard;
    d.simt_pipeline = pipeline;
    return d;
}

static h_run_t *run(const char *src, const gpu_desc_t *d) { return h_run_simt_done(src, d); }

/* Asserts frame f's warp record: its warp and lane instructions, divergent
 * branches, deepest stack and resident cycles; returns it for more. */
static const gpu_tr_simt_warp_t *assert_warp(const h_run_t *r, unsigned f, uint64_t warp_insns,
                                             uint64_t lane_insns, unsigned divergent,
                                             unsigned depth, uint64_t resident)
{
    const gpu_tr_simt_warp_t *w = h_warp_of(r, f);
    CU_ASSERT_EQUAL(w->warp_instructions, warp_insns);
    CU_ASSERT_EQUAL(w->lane_instructions, lane_insns);
    CU_ASSERT_EQUAL(w->divergent_branches, divergent);
    CU_ASSERT_EQUAL(w->max_stack_depth, depth);
    CU_ASSERT_EQUAL(w->resident_cycles, resident);
    return w;
}

static const char *E1 = SIMT_E1;

/* E1 (SIMT-SPEC): MIMD: even cores run slots 0-5, 7 (cycles 6-12), odd
 * cores 0-3, 6 (2 cycles), 7: all finish at 13, the task completes at 14.
 * SIMT: slots 0-3 at 6, 7, 8, 9; the bnz diverges (r = 7, tie: not-taken
 * 0, 2 on top); slot 4 at 10, slot 5 at 11 (uniform to 7 = r: pop at 12);
 * slot 6 for 1, 3 at 12, completes 14; slot 7 at 14; lanes finish at 15,
 * the task completes at 16. Resident 6..15 = 9 cycles: 8 issued, cycle 13
 * waits for the mul (execute). Scoreboard on: the same times (S4 (a), (c),
 * (d)). */
static void test_e1_divergence(void)
{
    gpu_desc_t dm = h_desc(timing_mode, false);
    h_run_t *m = run(E1, &dm);
    CU_ASSERT_EQUAL(m->frames[1].complete_ps, C(14));
    for (unsigned l = 0; l < 4; l++)
        h_assert_lane(m, 1, l, C(13), l & 1 ? 6 : 7);
    for (int sb = 0; sb <= 1; sb++) {
        gpu_desc_t d = simt(SIMT_SCHED_RR, sb);
        h_run_t *r = run(E1, &d);
        CU_ASSERT_EQUAL(r->frames[1].start_ps, C(6));
        CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(16));
        for (unsigned l = 0; l < 4; l++)
            h_assert_lane(r, 1, l, C(15), l & 1 ? 6 : 7); /* each lane: its core's count */
        CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 8, 9, 10, 11, 12, 14));
        CU_ASSERT_EQUAL(r->issues[6].active, 0xa); /* slot 6: lanes 1, 3 */
        CU_ASSERT_EQUAL(r->issues[4].active, 0x5); /* slot 4: lanes 0, 2 first (tie) */
        const gpu_tr_simt_warp_t *w = assert_warp(r, 1, 8, 26, 1, 3, 9);
        CU_ASSERT_EQUAL(w->stall_cycles[EXE], 1);
        CU_ASSERT_EQUAL(w->stall_cycles[MEM] + w->stall_cycles[ISS], 0);
        CU_ASSERT_EQUAL(memcmp(r->arch.regs, m->arch.regs, sizeof r->arch.regs), 0);
        h_free(r);
    }
    h_free(m);
}

/* E2: lanes 0-3, set_const r1, id (6), ld [r1, r2], r3 at 7: addresses
 * 0-3, all bank 0; requests reach it at 8, granted 8, 9, 10, 11 (fixed),
 * answers 10, 11, 12, 13. MIMD: cores finish at 11, 12, 13, 14 (ready the
 * cycle of the answer), the task completes at 15. SIMT: the warp waits for
 * 13, ready at 13, every lane finishes at 14, the task completes at 15.
 * Replays: 4 requests to one bank - 1 = 3. Stalls: resident 6..14 = 8
 * cycles, issued 3 (6, 7, 13), memory 5 (8-12). */
static void test_e2_slowest_lane(void)
{
    const char *src = ".group cores=0x000f\n set_const r1, id\n ld [r1, r2], r3\n ready\n"
                      ".data 0: 10, 11, 12, 13\n";
    gpu_desc_t dm = h_desc(timing_mode, false);
    h_run_t *m = run(src, &dm);
    CU_ASSERT_EQUAL(m->frames[1].complete_ps, C(15));
    for (unsigned l = 0; l < 4; l++)
        h_assert_lane(m, 1, l, C(11 + l), 3);
    gpu_desc_t d = simt(SIMT_SCHED_RR, false);
    h_run_t *r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(15));
    for (unsigned l = 0; l < 4; l++) {
        h_assert_lane(r, 1, l, C(14), 3);
        const gpu_tr_access_t *a = h_access(r, l, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_EQUAL(a->request_ps, C(7));
        CU_ASSERT_EQUAL(a->arrive_ps, C(8));
        CU_ASSERT_EQUAL(a->grant_ps, C(8 + l));
        CU_ASSERT_EQUAL(a->done_ps, C(10 + l));
        CU_ASSERT_EQUAL(r->arch.regs[l][3], 10 + l);
    }
    CU_ASSERT_EQUAL_FATAL(r->n_mems, 1);
    CU_ASSERT_EQUAL(r->mems[0].replays, 3);
    CU_ASSERT_EQUAL(r->mems[0].requests, 4);
    CU_ASSERT_EQUAL(r->mems[0].done_ps, C(13));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->stall_cycles[MEM], 5);
    CU_ASSERT_EQUAL(w->replays, 3);
    h_free(r);
    h_free(m);
}

/* E2 with ld [r2, r2], r3: all four lanes read address 0. Broadcast on:
 * one request (lane 0's), granted 8, answered 10; ready at 10, lanes finish
 * at 11, the task completes at 12. Broadcast off and MIMD: four requests,
 * as above: 15. */
static void test_e2_broadcast(void)
{
    const char *src = ".group cores=0x000f\n set_const r1, id\n ld [r2, r2], r3\n ready\n"
                      ".data 0: 0x77\n";
    gpu_desc_t d = simt(SIMT_SCHED_RR, false);
    d.simt_broadcast = true;
    h_run_t *r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(12));
    CU_ASSERT_EQUAL(r->n_accesses, 1);
    CU_ASSERT_EQUAL(r->stats.sm_accesses, 1);
    for (unsigned l = 0; l < 4; l++) {
        h_assert_lane(r, 1, l, C(11), 3);
        CU_ASSERT_EQUAL(r->arch.regs[l][3], 0x77);
    }
    CU_ASSERT_EQUAL(r->mems[0].requests, 1);
    CU_ASSERT_EQUAL(r->mems[0].replays, 0);
    h_free(r);
    d.simt_broadcast = false;
    r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(15));
    h_free(r);
    gpu_desc_t dm = h_desc(timing_mode, false);
    r = run(src, &dm);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(15));
    h_free(r);
}

static const char *E3 = ".group cores=0x00ff fence=no\n"
                        "  set_const r8, 4\n  set_const r9, 1\n"
                        "loop:\n  sub r8, r9, r8\n  bnz loop, r8\n  ready\n"
                        ".group cores=0xff00 fence=no\n"
                        "  set_const r8, 2\n  set_const r9, 1\n"
                        "loop:\n  sub r8, r9, r8\n  bnz loop, r8\n  ready\n";

/* E3: warp A (frame 1, 11 instructions) starts at 6, B (frame 3, 7) at 10.
 * MIMD: both complete at 18. rr: A alone 6-9; from 10 they alternate, B
 * first: B at 10, 12, ..., 22, A at 11, 13, ..., 21, 23: B completes at 24,
 * A at 25; B stalls 6 cycles for issue (11, 13, ..., 21). gto and oldest: A
 * keeps the port until its ready at 16; B issues 17-23: A completes at 18,
 * B at 25; B stalls 7 cycles for issue (10-16). issue_width 2: both 18. */
static void test_e3_schedulers(void)
{
    gpu_desc_t dm = h_desc(timing_mode, false);
    h_run_t *r = run(E3, &dm);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(18));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(18));
    h_free(r);
    gpu_desc_t d = simt(SIMT_SCHED_RR, false);
    r = run(E3, &d);
    CU_ASSERT_EQUAL(r->frames[1].start_ps, C(6));
    CU_ASSERT_EQUAL(r->frames[3].start_ps, C(10));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(24));
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(25));
    CU_ASSERT_EQUAL(h_warp_of(r, 3)->stall_cycles[ISS], 6);
    CU_ASSERT_EQUAL(h_warp_of(r, 3)->stall_cycles[MEM] + h_warp_of(r, 3)->stall_cycles[EXE], 0);
    CU_ASSERT_EQUAL(h_warp_of(r, 1)->warp_instructions, 11);
    CU_ASSERT_EQUAL(h_warp_of(r, 3)->warp_instructions, 7);
    /* the unit's stall counters, each by its own name, are the warps' sums
       (the names are built in a buffer of the unit's: the harness copies them;
       tessera_names.h's by reason, in the list's order) */
#define CTR_NAME(reason, name) name,
    static const char *const stall[] = {GEN_CTRS_SIMT_STALL(CTR_NAME, CTR_NAME)};
    _Static_assert(sizeof stall / sizeof stall[0] == GPU_SIMT_STALLS, "a name per reason");
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++) {
        if (k == GPU_SIMT_STALL_BARRIER)
            continue; /* barrier runs only */
        CU_ASSERT_EQUAL(h_simt_counter(r, stall[k]),
                        h_warp_of(r, 1)->stall_cycles[k] + h_warp_of(r, 3)->stall_cycles[k]);
    }
    CU_ASSERT_EQUAL(h_simt_counter(r, GEN_CTR_SIMT_STALL_ISSUE), 6 + 7); /* B's 6, A's 10-22 */
    h_free(r);
    for (unsigned s = SIMT_SCHED_GTO; s <= SIMT_SCHED_OLDEST; s++) {
        d = simt(s, false);
        r = run(E3, &d);
        CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(18));
        CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(25));
        CU_ASSERT_EQUAL(h_warp_of(r, 3)->stall_cycles[ISS], 7);
        unsigned at[16];
        CU_ASSERT_EQUAL(h_issues(r, 3, at, NULL, NULL, 16), 7);
        CU_ASSERT_EQUAL(at[0], 17);
        CU_ASSERT_EQUAL(at[6], 23);
        h_free(r);
    }
    d = simt(SIMT_SCHED_RR, false);
    d.simt_issue_width = 2;
    r = run(E3, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(18));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(18));
    CU_ASSERT_EQUAL(h_warp_of(r, 3)->stall_cycles[ISS], 0);
    /* issue utilisation: 18 warp instructions / (18 cycles × 2) = 0.5 */
    CU_ASSERT_EQUAL(h_simt_counter(r, GEN_CTR_SIMT_ISSUE_UTIL_PPM), 500000);
    h_free(r);
}

/* st (S8): lanes 0, 1 store their id to address 0 (st [r2, r2], r1): two
 * requests even with broadcast on (st never merges), both to bank 0.
 * set_const at 6, st at 7; arrive 8, granted 8 (lane 0), 9 (lane 1),
 * answers 10, 11: the st completes at 11. ready at 11, lanes finish at 12,
 * the task completes at 13 (MIMD: core 0 finishes at 11, core 1 at 12: also
 * 13). SM[0] = 1 (lane 1 wrote last). Resident 6..12 = 6 cycles: issued 3
 * (6, 7, 11), memory 3 (8, 9, 10). */
static void test_st_two_lanes_one_bank(void)
{
    const char *src = ".group cores=0x3\n set_const r1, id\n st [r2, r2], r1\n ready\n";
    gpu_desc_t d = simt(SIMT_SCHED_RR, false);
    d.simt_broadcast = true;
    h_run_t *r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(13));
    h_assert_lane(r, 1, 0, C(12), 3);
    h_assert_lane(r, 1, 1, C(12), 3);
    CU_ASSERT_EQUAL(h_access(r, 0, 0)->grant_ps, C(8));
    CU_ASSERT_EQUAL(h_access(r, 1, 0)->grant_ps, C(9));
    CU_ASSERT_EQUAL(r->arch.sm[0], 1);
    CU_ASSERT_EQUAL(r->mems[0].is_store, 1);
    CU_ASSERT_EQUAL(r->mems[0].requests, 2);
    CU_ASSERT_EQUAL(r->mems[0].replays, 1);
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 6);
    CU_ASSERT_EQUAL(w->stall_cycles[MEM], 3);
    h_free(r);
    gpu_desc_t dm = h_desc(timing_mode, false);
    r = run(src, &dm);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(13));
    h_assert_lane(r, 1, 0, C(11), 3);
    h_free(r);
}

/* The scoreboard hides a ld behind independent work (lane 0):
 *   0 ld [r1, r2], r3      6: arrives 7, granted 7, answer 9 → completes 9
 *   1 set_const r8, 5      on: 7 (independent)       off: 9
 *   2 add r8, r8, r9       on: 8 (r8 done at 8)      off: 10
 *   3 add r3, r8, r10      on: 9 (r3: the ld, at 9)  off: 11
 *   4 ready                on: 10 (drain: add at 10) off: 12
 * on: lane finishes 11, task completes 12, no stall (5 cycles, 5 issued);
 * off (= MIMD): finishes 13, completes 14, memory stalls 2 (7, 8). */
static void test_scoreboard_hides_ld(void)
{
    const char *src = ".group cores=0x1\n ld [r1, r2], r3\n set_const r8, 5\n add r8, r8, r9\n"
                      " add r3, r8, r10\n ready\n.data 0: 7\n";
    gpu_desc_t d = simt(SIMT_SCHED_RR, true);
    h_run_t *r = run(src, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 8, 9, 10));
    h_assert_lane(r, 1, 0, C(11), 5);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(12));
    CU_ASSERT_EQUAL(r->arch.regs[0][10], 12); /* 7 + 5: the ld's value was used */
    CU_ASSERT_EQUAL(h_warp_of(r, 1)->resident_cycles, 5);
    CU_ASSERT_EQUAL(h_warp_of(r, 1)->stall_cycles[MEM], 0);
    h_free(r);
    d = simt(SIMT_SCHED_RR, false);
    r = run(src, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 9, 10, 11, 12));
    h_assert_lane(r, 1, 0, C(13), 5);
    CU_ASSERT_EQUAL(h_warp_of(r, 1)->stall_cycles[MEM], 2);
    CU_ASSERT_EQUAL(h_warp_of(r, 1)->stall_cycles[EXE], 0);
    h_free(r);
    gpu_desc_t dm = h_desc(timing_mode, false);
    r = run(src, &dm);
    h_assert_lane(r, 1, 0, C(13), 5);
    h_free(r);
}

/* Latency hiding (examples/simt_latency.s; rr, no scoreboard, no conflicts:
 * lane c uses bank c). Per warp: 5 set_const, 3 ld, 2 add, st, ready; an
 * ld/st completes 3 cycles after its issue (T7), the others 1 (S3).
 * F1 alone (lanes 0-7, starts at 6): set_const 6-10, ld 11 (done 14), ld 14,
 * ld 17, add 20, add 21, st 22 (done 25), ready 25: lanes finish at 26, the
 * task completes at 27; the port idles 2 cycles after each ld/st (8 cycles).
 * With F3 (lanes 8-15, starts at 10: its code follows F1's on the bus), one
 * issue slot, rr from the warp after the last one chosen (S6):
 *   10 F3 (rr: F1 issued last at 9)   11 F1   12 F3   13 F1 ld (done 16)
 *   14 F3   15 F3 (F1 waits)   16 F1 ld (done 19; both eligible, F3 last)
 *   17 F3   18 F3 ld (done 21)   19 F1 ld (done 22)   20 nobody
 *   21 F3 ld (24)   22 F1 add   23 F1 add   24 F3 ld (27; F1 last)
 *   25 F1 st (28)   26 nobody   27 F3 add   28 F1 ready (F3 last; F1
 *   finishes at 29, completes at 30)   29 F3 add   30 F3 st (33)
 *   33 F3 ready: finishes at 34, the task and the program end at 35.
 * 24 issues in the 28 cycles 6-33, against 12 in 20 for F1 alone. */
static void test_latency_hiding(void)
{
    size_t len;
    char *src = (char *)test_read_file(test_src_path("examples/simt_latency.s"), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(src);
    gpu_desc_t d = simt(SIMT_SCHED_RR, false);
    h_run_t *r = run(src, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 8, 9, 11, 13, 16, 19, 22, 23, 25, 28));
    CU_ASSERT(H_ISSUED_AT(r, 3, 10, 12, 14, 15, 17, 18, 21, 24, 27, 29, 30, 33));
    h_assert_lane(r, 1, 0, C(29), 12);
    h_assert_lane(r, 3, 15, C(34), 12);
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(35));
    CU_ASSERT_EQUAL(r->arch.sm[0x003], 48);
    CU_ASSERT_EQUAL(r->arch.sm[0xf03], 93);
    h_free(r);
    /* F1 alone: the same file with the second lane mask out of the .irp */
    char *cut = strstr(src, "\n.irp lanes, 0x00ff, 0xff00"); /* the line, not the header's sed */
    CU_ASSERT_PTR_NOT_NULL_FATAL(cut);
    memset(cut + strlen("\n.irp lanes, 0x00ff"), ' ', strlen(", 0xff00"));
    r = run(src, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 8, 9, 10, 11, 14, 17, 20, 21, 22, 25));
    h_assert_lane(r, 1, 7, C(26), 12);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(27));
    h_free(r);
    free(src);
}

/* A loop whose lanes exit at different iterations (lanes 0-2, lane i runs
 * the body i+1 times):
 *   0 set_const r1, id; 1 set_const r9, 1; 2 add r1, r9, r1   6, 7, 8
 *   3 sub r1, r9, r1; 4 bnz 3, r1
 * pass 1 (lanes 0-2): sub 9, bnz 10: lane 0 leaves the loop, r = 5;
 * (5, 3, 0x6) pushed, (5, 5) not. pass 2 (lanes 1, 2): 11, 12: lane 1
 * leaves; (5, 3, 0x4) pushed (depth 3). pass 3 (lane 2): 13, 14: uniform
 * not taken to 5: pops down to (EXIT, 5, 0x7). ready at 15 for all: they
 * finish at 16, the task completes at 17 — as on the MIMD machine, whose
 * cores finish at 12, 14 and 16. 10 warp instructions, 6 + 8 + 10 = 24
 * lane instructions, 2 divergent branches, no stall. */
static void test_loop_lanes_exit_at_different_iterations(void)
{
    const char *src = ".group cores=0x7\n set_const r1, id\n set_const r9, 1\n add r1, r9, r1\n"
                      "loop:\n sub r1, r9, r1\n bnz loop, r1\n ready\n";
    gpu_desc_t d = simt(SIMT_SCHED_RR, false);
    h_run_t *r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(17));
    for (unsigned l = 0; l < 3; l++)
        h_assert_lane(r, 1, l, C(16), 6 + 2 * l);
    assert_warp(r, 1, 10, 24, 2, 3, 10);
    h_free(r);
    gpu_desc_t dm = h_desc(timing_mode, false);
    r = run(src, &dm);
    for (unsigned l = 0; l < 3; l++)
        h_assert_lane(r, 1, l, C(12 + 2 * l), 6 + 2 * l);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(17));
    h_free(r);
}

/* A bnz in slot 15 (lanes 0, 1; r1 = id + 1; slot 14 subtracts 1):
 * slots 0-14 at 6-20, the bnz at 21: lane 1 (r1 = 1) jumps to 14, lane 0
 * goes to EXIT = r: it leaves, finishing when the bnz completes, at 22
 * (READY 23). Lane 1: slot 14 at 22, slot 15 at 23, not taken: it leaves
 * and finishes at 24 (READY 25) — exactly the MIMD times (D11, T6: leaving
 * slot 15 adds no ready latency). 18 warp instructions, 34 lane ones, one
 * divergence, stack depth 2. */
static void test_bnz_in_slot_15(void)
{
    const char *src = ".group cores=0x3\n set_const r1, id\n set_const r9, 1\n add r1, r9, r1\n"
                      " nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"
                      "back:\n sub r1, r9, r1\n bnz back, r1\n";
    gpu_desc_t d = simt(SIMT_SCHED_RR, false);
    h_run_t *r = run(src, &d);
    h_assert_lane(r, 1, 0, C(22), 16);
    h_assert_lane(r, 1, 1, C(24), 18);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(25));
    assert_warp(r, 1, 18, 34, 1, 2, 18);
    h_free(r);
    gpu_desc_t dm = h_desc(timing_mode, false);
    r = run(src, &dm);
    h_assert_lane(r, 1, 0, C(22), 16);
    h_assert_lane(r, 1, 1, C(24), 18);
    h_free(r);
}

/* Nested divergence, lanes 0-3 (r2 = id & 1, r3 = id >> 1):
 *   4 bnz outer(9), r3    10: lanes 2, 3 taken; r = 10; tie: 0, 1 on top
 *   5 bnz inner(7), r2    11: lane 1 taken to 7 = r (not pushed), lane 0
 *                             falls to 6: (7, 6, 0x1) on top, depth 4
 *   6 add                 12: lane 0, next 7 = r: pop
 *   7 add                 13: lanes 0, 1
 *   8 bnz join(10), r9    14: uniform to 10 = r: pop at 15
 *   9 mul (outer)         15: lanes 2, 3, completes 17
 *  10 ready               17: all; they finish at 18, completion 19.
 * 11 warp instructions, 33 lane ones (MIMD: 10, 9, 7, 7), 2 divergent,
 * resident 12 cycles, 1 execute stall (16). MIMD completes at 17. */
static void test_nested_divergence(void)
{
    const char *src = ".group cores=0xf\n set_const r1, id\n set_const r9, 1\n and r1, r9, r2\n"
                      " rshft r1, 1, r3\n bnz outer, r3\n bnz inner, r2\n add r9, r9, r10\n"
                      "inner:\n add r9, r9, r11\n bnz join, r9\n"
                      "outer:\n mul r1, r1, r12\njoin:\n ready\n";
    gpu_desc_t d = simt(SIMT_SCHED_RR, false);
    h_run_t *r = run(src, &d);
    static const uint64_t n[] = {10, 9, 7, 7};
    for (unsigned l = 0; l < 4; l++)
        h_assert_lane(r, 1, l, C(18), n[l]);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(19));
    const gpu_tr_simt_warp_t *w = assert_warp(r, 1, 11, 33, 2, 4, 12);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 1);
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17));
    h_free(r);
    gpu_desc_t dm = h_desc(timing_mode, false);
    r = run(src, &dm);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(17));
    h_free(r);
}

/* The rr ring after a warp retires. A (frame 1, 43 instructions) starts at
 * 6, B (frame 3: set_const, nop, ready) at 10, C (frame 5, 9 instructions)
 * at 14 (each transfer waits for the previous one on the code bus).
 *   6-9 A; 10 B; 11 A; 12 B; 13 A; 14: A, B, C eligible, after A comes B:
 *   B's ready (B retires, finishes 15, completes 16); 15: A and C eligible,
 *   the last chosen was B: the first warp younger than B is C (not the
 *   oldest, A); 16 A; then C at 17, ..., 31 (its ready) and A at 18, ...,
 *   30; A alone 32-60. C completes at 33, A at 62. */
static void test_rr_ring_after_a_warp_retires(void)
{
    const char *src = ".group cores=0x000f fence=no\n set_const r8, 20\n set_const r9, 1\n"
                      "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n"
                      ".group cores=0x00f0 fence=no\n set_const r8, 1\n nop\n ready\n"
                      ".group cores=0x0f00 fence=no\n set_const r8, 3\n set_const r9, 1\n"
                      "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n";
    gpu_desc_t d = simt(SIMT_SCHED_RR, false);
    h_run_t *r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[5].start_ps, C(14));
    unsigned who[64] = {0};
    for (size_t i = 0; i < r->n_issues; i++)
        if (r->issues[i].time_ps / 1000 < 64)
            who[r->issues[i].time_ps / 1000] = r->issues[i].frame;
    CU_ASSERT_EQUAL(who[14], 3);
    CU_ASSERT_EQUAL(who[15], 5);
    CU_ASSERT_EQUAL(who[16], 1);
    CU_ASSERT_EQUAL(who[17], 5);
    CU_ASSERT_EQUAL(who[31], 5);
    CU_ASSERT_EQUAL(who[32], 1);
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(16));
    CU_ASSERT_EQUAL(r->frames[5].complete_ps, C(33));
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(62));
    CU_ASSERT_EQUAL(h_warp_of(r, 1)->warp_instructions, 43);
    h_free(r);
}

/* S10: the budget counts per lane per task; S9: two lanes of one warp
 * contending for one locked byte deadlock, reported naming the warp. */
static void test_budget_and_intra_warp_deadlock(void)
{
    gpu_desc_t d = simt(SIMT_SCHED_RR, false);
    d.budget = 5;
    h_run_t *r = h_run_src(".group cores=0x3\nloop:\n set_const r8, 1\n bnz loop, r8\n", &d);
    CU_ASSERT_EQUAL(r->outcome, GPU_WATCHDOG);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->errmsg, "frame 1, core 0, IP 1"));
    CU_ASSERT_EQUAL(r->stats.instructions, 10); /* 5 per lane */
    h_check_counting(r);
    h_free(r);
    d = simt(SIMT_SCHED_RR, false);
    d.atomics = true;
    r = h_run_src(".group cores=0x3\n set_const r10, 0x40\n ld [r2, r10], r3\n"
                  " st [r2, r10], r3\n ready\n",
                  &d);
    CU_ASSERT_EQUAL(r->outcome, GPU_STUCK);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->errmsg, "warp (frame 1)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->errmsg, "lane 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->errmsg, "lane 0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->errmsg, "0x000"));
    h_check_counting(r);
    h_free(r);
    d.model = GPU_MODEL_MIMD; /* the same program is fine on cores */
    r = h_run_src(".group cores=0x3\n set_const r10, 0x40\n ld [r2, r10], r3\n"
                  " st [r2, r10], r3\n ready\n",
                  &d);
    CU_ASSERT_EQUAL(r->outcome, GPU_DONE);
    h_free(r);
}

/* simt.* keys with core.model = mimd have no effect; out-of-range values
 * are errors naming the key. */
static void test_simt_keys_ignored_by_mimd_and_checked(void)
{
    gpu_desc_t d = h_desc(timing_mode, false);
    h_run_t *a = run(E3, &d);
    d.simt_scheduler = SIMT_SCHED_GTO;
    d.simt_issue_width = 3;
    d.simt_scoreboard = d.simt_broadcast = true;
    h_run_t *b = run(E3, &d);
    CU_ASSERT_TRUE(h_same_timeline(a, b));
    CU_ASSERT_EQUAL(b->n_warps, 0);
    h_free(a);
    h_free(b);
    diag_t dg = {0};
    d.simt_issue_width = 0;
    CU_ASSERT_NOT_EQUAL(gpu_desc_check(&d, &dg), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(dg.msg, "simt.issue_width"));
    d.simt_issue_width = 17;
    CU_ASSERT_NOT_EQUAL(gpu_desc_check(&d, &dg), 0);
    d.simt_issue_width = 1;
    d.simt_scheduler = 3;
    diag_t dg2 = {0};
    CU_ASSERT_NOT_EQUAL(gpu_desc_check(&d, &dg2), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(dg2.msg, "simt.scheduler"));
}

/* Every bundled example under the SIMT unit (three configurations): the
 * outcome of the MIMD run, the same final SM and registers (the examples'
 * results do not depend on timing), each lane's instruction count equal to
 * its core's, and issued + stall cycles = resident cycles for every warp.
 * lock.s (atomics) is the S9 case: its lanes contend for one lock inside a
 * warp, so the SIMT run must end in the intra-warp deadlock, named. */
static void test_examples_under_simt(void)
{
    static const char *names[] = {"first", "vecadd", "reduce", "histogram", "matmul4",
                                  "transpose", "prefix", "prodcons", "example1", "example2",
                                  "matadd", "matmul", "stages", "lock"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "examples/%s.s", names[i]);
        size_t len;
        char *src = (char *)test_read_file(test_src_path(rel), &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(src);
        bool lock = strcmp(names[i], "lock") == 0;
        gpu_desc_t dm = h_desc(timing_mode, false);
        dm.atomics = lock;
        h_run_t *m = h_run_src(src, &dm);
        CU_ASSERT_EQUAL(m->outcome, GPU_DONE);
        for (unsigned k = 0; k < 3; k++) {
            gpu_desc_t d = simt(k, k == 1);
            d.atomics = lock;
            d.simt_broadcast = k == 2;
            d.simt_issue_width = (uint8_t)(1 + 3 * (k == 2));
            h_run_t *r = h_run_src(src, &d);
            h_check_counting(r);
            if (lock) {
                CU_ASSERT_EQUAL(r->outcome, GPU_STUCK);
                CU_ASSERT_PTR_NOT_NULL(strstr(r->errmsg, "S9"));
                h_free(r);
                continue;
            }
            CU_ASSERT_EQUAL(r->outcome, GPU_DONE);
            if (memcmp(&r->arch, &m->arch, sizeof r->arch) != 0) {
                fprintf(stderr, "%s: SIMT configuration %u: final state differs\n", names[i], k);
                CU_FAIL("final state differs from MIMD");
            }
            CU_ASSERT_EQUAL(r->n_tasks, m->n_tasks);
            for (size_t t = 0; t < m->n_tasks; t++) {
                const gpu_tr_core_task_t *x = h_task(r, m->tasks[t].frame, m->tasks[t].core);
                CU_ASSERT_TRUE(x && x->instructions == m->tasks[t].instructions);
            }
            h_free(r);
        }
        h_free(m);
        free(src);
    }
}

/* The command line: simt.* keys with core.model = mimd are accepted with a
 * warning, change nothing and are not recorded in params (issue 22: they
 * have no effect on a MIMD run); a bad value is an error naming the key
 * (exit 2). */
static void test_cli_records_simt_keys(void)
{
    if (timing_mode != GPU_TIMING_DECOUPLED)
        return; /* the command is the same in both suites */
    const char *db = test_tmp_path("keys.db");
    char args[1024];
    snprintf(args, sizeof args, "run %s --db %s --quiet", test_src_path("examples/first.s"), db);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    snprintf(args, sizeof args,
             "run %s --db %s --quiet -s simt.scheduler=gto -s simt.issue_width=4 "
             "-s simt.scoreboard=on -s simt.broadcast=on",
             test_src_path("examples/first.s"), db);
    char *warned = NULL;
    CU_ASSERT_EQUAL(test_run_tessera(args, &warned), 0);
    CU_ASSERT(warned && strstr(warned, "warning: simt.scheduler = gto has no effect"));
    free(warned);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM params WHERE key LIKE 'simt.%'"), 0);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(DISTINCT end_ps) FROM runs"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM counters"
                                    " WHERE component = '" GEN_UNIT_SIMT "'"), 0);
    char *out = NULL;
    snprintf(args, sizeof args, "run %s --no-db -s simt.issue_width=0",
             test_src_path("examples/first.s"));
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 2);
    CU_ASSERT(out && strstr(out, "simt.issue_width"));
    free(out);
}

static const test_case_t cases[] = {
    TEST(test_e1_divergence),
    TEST(test_e2_slowest_lane),
    TEST(test_e2_broadcast),
    TEST(test_e3_schedulers),
    TEST(test_st_two_lanes_one_bank),
    TEST(test_scoreboard_hides_ld),
    TEST(test_latency_hiding),
    TEST(test_loop_lanes_exit_at_different_iterations),
    TEST(test_bnz_in_slot_15),
    TEST(test_nested_divergence),
    TEST(test_rr_ring_after_a_warp_retires),
    TEST(test_budget_and_intra_warp_deadlock),
    TEST(test_simt_keys_ignored_by_mimd_and_checked),
    TEST(test_examples_under_simt),
    TEST(test_cli_records_simt_keys),
    TEST_END,
};

int main(void)
{
    int rc = 0;
    const test_suite_t decoupled[] = {{"simt (decoupled)", cases}, {NULL, NULL}};
    const test_suite_t stepped[] = {{"simt (stepped)", cases}, {NULL, NULL}};
    const test_suite_t pipe_decoupled[] = {{"simt pipeline (decoupled)", cases}, {NULL, NULL}};
    const test_suite_t pipe_stepped[] = {{"simt pipeline (stepped)", cases}, {NULL, NULL}};
    timing_mode = GPU_TIMING_DECOUPLED;
    rc |= test_run_suites(decoupled);
    timing_mode = GPU_TIMING_STEPPED;
    rc |= test_run_suites(stepped);
    pipeline = true;
    timing_mode = GPU_TIMING_DECOUPLED;
    rc |= test_run_suites(pipe_decoupled);
    timing_mode = GPU_TIMING_STEPPED;
    rc |= test_run_suites(pipe_stepped);
    return rc;
}

/* test_simt_pipe.c — golden timelines of the SIMT pipeline (SIMT-SPEC
 * S11–S13: front end, operand collector, execution units), computed by hand
 * from the spec with the defaults of GPU-SPEC §6 (cycle = 1000 ps, alu 1,
 * mul 2, branch 1, ready 1, ts.ready 1): one group's warp starts at 6. The
 * reasoning is beside each test, in cycles; assertions are in picoseconds.
 * Every test runs in both timing modes; every run is checked for issued +
 * stall cycles = resident cycles per warp (with the reasons fetch and
 * collector). */
#include <stdio.h>
#include <string.h>

#include "events/base/err.h"
#include "model/simt/sched.h"
#include "tests/harness.h"
#include "tests/simt_programs.h"
#include "tests/testutil.h"

#define C(n) ((sim_time_t)(n) * 1000) /* cycles → ps */
#define EXE GPU_SIMT_STALL_EXECUTE
#define FET GPU_SIMT_STALL_FETCH
#define COL GPU_SIMT_STALL_COLLECTOR
#define ISS GPU_SIMT_STALL_ISSUE

static unsigned timing_mode;

static gpu_desc_t simt(void) { return h_desc(timing_mode, true); }

static h_run_t *run(const char *src, const gpu_desc_t *d) { return h_run_simt_done(src, d); }

static const char E4[] = ".group cores=0x000f fence=no\n"
                         "  set_const r8, 2\n"  /* 0 */
                         "  set_const r9, 1\n"  /* 1 */
                         "loop:\n"
                         "  sub r8, r9, r8\n"   /* 2 */
                         "  bnz loop, r8\n"     /* 3 */
                         "  ready\n";           /* 4 */

/* E4, simt.ibuffer = 2 (fetch width 2, latency 1): at 6 the I-buffer is
 * empty (fetch stall); fetch at 6 brings slots 0, 1 (at 7); slot 0 issues
 * at 7, fetch at 7 brings slot 2 (one free entry), fetch at 8 slot 3; slots
 * 1, 2, 3 issue at 8, 9, 10. Fetch stops after the bnz; it completes at 11
 * (taken): the I-buffer is empty at 11 (fetch stall), fetch at 11 brings
 * 2, 3 (at 12), they issue at 12, 13; the bnz completes at 14 (not taken),
 * fetch stall at 14, fetch at 14 brings slot 4; ready at 15, the lanes
 * finish at 16, the task completes at 17. Resident 6..16: 7 issued, fetch
 * 3 (6, 11, 14). simt.ibuffer = 1: one slot per fetch, each arriving the
 * cycle its predecessor issues: 17 too. Ideal front end: 14. */
static void test_e4_front_end(void)
{
    gpu_desc_t d = simt();
    h_run_t *r = run(E4, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(14));
    h_free(r);
    d.simt_ibuffer = 2;
    r = run(E4, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(17));
    CU_ASSERT(H_ISSUED_AT(r, 1, 7, 8, 9, 10, 12, 13, 15));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 10);
    CU_ASSERT_EQUAL(w->stall_cycles[FET], 3);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 0);
    h_free(r);
    d.simt_ibuffer = 1;
    r = run(E4, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(17));
    h_free(r);
}

/* E4's second part, E3's two warps with simt.ibuffer = 2 and rr (one fetch
 * port for both): B completes at 25, A at 26 (without the I-buffer 24 and
 * 25: B's and A's lanes finish a cycle before). */
static void test_e4_two_warps_one_fetch_port(void)
{
    const char *src = ".group cores=0x00ff fence=no\n set_const r8, 4\n set_const r9, 1\n"
                      "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n"
                      ".group cores=0xff00 fence=no\n set_const r8, 2\n set_const r9, 1\n"
                      "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n";
    gpu_desc_t d = simt();
    d.simt_ibuffer = 2;
    h_run_t *r = run(src, &d);
    CU_ASSERT_EQUAL(h_task(r, 3, 8)->finish_ps, C(24)); /* B: completes at 25 */
    CU_ASSERT_EQUAL(h_task(r, 1, 0)->finish_ps, C(25)); /* A: completes at 26 */
    h_free(r);
}

/* E3's two warps with simt.ibuffer = 2 and gto (one fetch port; the port
 * serves fetch-ready warps round-robin in age order, the scheduler issues
 * the warp that issued last first). A alone: fetch 0, 1 at 6 (fetch stall
 * at 6), issues 0-3 at 7-10 (fetching 2 at 7, 3 at 8; nothing after the
 * bnz). B resident at 10: fetch stall, fetch 0, 1 (A's bnz in flight: A's
 * fetch slot unknown). 11: A's bnz completes (taken; I-buffer empty: fetch
 * stall), B issues 0; the port goes to A (the first after B in the ring):
 * 2, 3 arrive at 12. 12-14: both eligible, gto keeps B (it issued last):
 * B issues 1, 2, 3 (fetching its 2, 3 at 12), A stalls for issue. 15: B's
 * bnz completes (taken, fetch stall; fetches 2, 3), A issues 2. 16: A
 * issued last: A's bnz, B stalls for issue. 17: A's bnz completes (taken,
 * fetch stall, fetches 2, 3), B issues 2; 18: B's bnz (A stalls for
 * issue). 19: B's bnz completes (not taken, fetch stall, fetches 4), A
 * issues 2; 20: A's bnz (B stalls for issue); 21: A's bnz completes (taken,
 * fetch stall, fetches 2, 3), B issues ready: its lanes finish at 22, B
 * completes at 23. A: 2, 3 at 22, 23; the bnz completes at 24 (not taken,
 * fetch stall, fetches 4); ready at 25, lanes finish at 26, A completes at
 * 27. A: resident 6..25 = 20, issued 11, fetch 5 (6, 11, 17, 21, 24),
 * issue 4 (12, 13, 14, 18). B: resident 10..21 = 12, issued 7, fetch 3
 * (10, 15, 19), issue 2 (16, 20). Greed finishes B two cycles before rr
 * does (25) and A one cycle after (26). */
static void test_e4_two_warps_one_fetch_port_gto(void)
{
    const char *src = ".group cores=0x00ff fence=no\n set_const r8, 4\n set_const r9, 1\n"
                      "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n"
                      ".group cores=0xff00 fence=no\n set_const r8, 2\n set_const r9, 1\n"
                      "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n";
    gpu_desc_t d = simt();
    d.simt_ibuffer = 2;
    d.simt_scheduler = SIMT_SCHED_GTO;
    h_run_t *r = run(src, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 7, 8, 9, 10, 15, 16, 19, 20, 22, 23, 25));
    CU_ASSERT(H_ISSUED_AT(r, 3, 11, 12, 13, 14, 17, 18, 21));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(23));
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(27));
    const gpu_tr_simt_warp_t *a = h_warp_of(r, 1), *b = h_warp_of(r, 3);
    CU_ASSERT_EQUAL(a->resident_cycles, 20);
    CU_ASSERT_EQUAL(a->stall_cycles[FET], 5);
    CU_ASSERT_EQUAL(a->stall_cycles[ISS], 4);
    CU_ASSERT_EQUAL(b->resident_cycles, 12);
    CU_ASSERT_EQUAL(b->stall_cycles[FET], 3);
    CU_ASSERT_EQUAL(b->stall_cycles[ISS], 2);
    h_free(r);
}

/* A fetch cancelled by a pop (S11), simt.ibuffer = 2, fetch width 2,
 * fetch_latency 2. r2 = id: lanes 1-3 take the bnz at 2 (to 5), lane 0 runs
 * 3, 4 (its bnz always taken, to 7); r = 7 (the ready). 6: the I-buffer is
 * empty; fetch 0, 1 (arrive 8): fetch stalls 6, 7. 8: issue 0; fetch 2 (one
 * free entry, arrives 10). 9: issue 1 (nothing to fetch: 2 in flight).
 * 10: issue the bnz (fetch stops after it), completes 11: diverged, the
 * taken entry (3 lanes) on top, next slot 5; fetch 5, 6 (arrive 13): stalls
 * 11, 12. 13: issue 5; fetch 7 (arrives 15). 14: issue 6 — the top entry's
 * next slot becomes 7 = r: popped, the next slot is 3, and the fetched
 * sequence (the fetch of 7 in flight) does not begin with it: the fetch is
 * cancelled and the warp is fetch-ready at once: fetch 3, 4 at 14 (arrive
 * 16; 7 never enters). 15: fetch stall. 16, 17: issue 3, 4 (bnz, completes
 * 18: pop to the reconvergence entry, next slot 7); fetch 7 at 18 (arrives
 * 20): stalls 18, 19. 20: ready, lanes finish 21, the task completes 22.
 * Resident 6..21 = 15: issued 8, fetch 7. */
static const char POP_CANCELS[] = ".group cores=0x000f fence=no\n"
                                  "  set_const r2, id\n"   /* 0 */
                                  "  set_const r8, 1\n"    /* 1 */
                                  "  bnz odd, r2\n"        /* 2: lanes 1-3 jump */
                                  "  add r8, r8, r9\n"     /* 3: lane 0 */
                                  "  bnz join, r8\n"       /* 4: lane 0, taken */
                                  "odd:\n"
                                  "  add r1, r1, r10\n"    /* 5: lanes 1-3 */
                                  "  add r1, r1, r11\n"    /* 6 */
                                  "join:\n"
                                  "  ready\n";             /* 7 */

static void test_fetch_cancelled_by_a_pop(void)
{
    gpu_desc_t d = simt();
    d.simt_ibuffer = 2;
    d.simt_fetch_latency = 2;
    h_run_t *r = run(POP_CANCELS, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 8, 9, 10, 13, 14, 16, 17, 20));
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(22));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 15);
    CU_ASSERT_EQUAL(w->stall_cycles[FET], 7);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 0);
    h_free(r);
}

static const char E5[] = ".group cores=0x000f fence=no\n"
                         "  set_const r9, 3\n"     /* 0 */
                         "  set_const r13, 4\n"    /* 1 */
                         "  add r9, r13, r10\n"    /* 2: r9, r13 both in bank 1 (w = 0) */
                         "  ready\n";              /* 3 */

/* E5, simt.collectors = 1, rf_banks = 4: slots 0, 1 read nothing and
 * dispatch at their issue (6, 7); slot 2 issues at 8, reads r9 at 8 and r13
 * at 9 (one bank, one read a cycle), dispatches at 9, completes at 10;
 * ready issues at 10 (S3), completes at 11: the lanes finish at 11, the
 * task completes at 12. Resident 6..11: issued 6, 7, 8, 10; cycle 9 waits
 * for the add (execute). rf_banks = 8 (r13 in bank 5): both reads at 8,
 * 11. No collectors: 11. */
static void test_e5_register_bank_conflict(void)
{
    gpu_desc_t d = simt();
    h_run_t *r = run(E5, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(11));
    h_free(r);
    d.simt_collectors = 1;
    r = run(E5, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(12));
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 8, 10));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 5);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 1);
    CU_ASSERT_EQUAL(r->arch.regs[0][10], 7);
    h_free(r);
    d.simt_rf_banks = 8;
    r = run(E5, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(11));
    h_free(r);
}

/* A `ready` behind an instruction in its collector (S4 (d), S12, Counting),
 * E5 with the scoreboard (simt.collectors = 1, rf_banks = 4). At most one
 * issue a cycle: slots 0, 1 at 6, 7 (no reads: dispatched at once); the add
 * at 8 (r9 done at 7, r13 at 8), reads r9 at 8 and r13 at 9 (bank 1 both),
 * dispatches at 9, completes at 10. Cycle 9: the ready must wait for every
 * earlier instruction (d), and the add has not completed: `execute`, not
 * `collector` — S4 does not allow the ready, so its own instruction in a
 * collector is not the reason. Ready at 10, lanes finish at 11, the task
 * completes at 12; resident 6..10: issued 4, execute 1. With an
 * independent `set_const r11, 5` between the add and the ready, S4 allows
 * it at 9 but the add still holds its collector: `collector` at 9; it
 * issues at 10 (completes at 11), ready at 11 (d), the task completes at
 * 13; resident 6..11: issued 5, collector 1, execute 0. */
static void test_ready_drains_an_instruction_in_its_collector(void)
{
    static const char INDEPENDENT[] = ".group cores=0x000f fence=no\n"
                                      "  set_const r9, 3\n"
                                      "  set_const r13, 4\n"
                                      "  add r9, r13, r10\n"
                                      "  set_const r11, 5\n" /* reads nothing, writes r11 */
                                      "  ready\n";
    gpu_desc_t d = simt();
    d.simt_scoreboard = true;
    d.simt_collectors = 1;
    h_run_t *r = run(E5, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 8, 10));
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(12));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 5);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 1);
    CU_ASSERT_EQUAL(w->stall_cycles[COL], 0);
    h_free(r);
    r = run(INDEPENDENT, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 8, 10, 11));
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(13));
    w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 6);
    CU_ASSERT_EQUAL(w->stall_cycles[COL], 1);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 0);
    h_free(r);
}

/* A bank conflict between two instructions issued in one cycle (S12,
 * issue_width 2, collectors 2, rf_banks 4). Warp A (lanes 0-3, w = 0):
 * set_const at 6 (done 7), mul at 7 (done 9, S3), add at 9 (done 10), then
 * `add r8, r8, r10` at 10. Warp B (lanes 4-7, w = 4) becomes resident at 10
 * (its code transfer follows A's, T4) and issues the same add at 10: both in
 * one cycle, each in its own collector. r8 lies in bank (8 + 0) mod 4 = 0
 * for A and (8 + 4) mod 4 = 0 for B: one bank, one read a cycle, the first
 * to the instruction the scheduler chose first. rr: the last issuing cycle
 * (9) chose A, so B comes first at 10 — B reads at 10, dispatches at 10,
 * completes at 11; A reads at 11, dispatches at 11, completes at 12. B's
 * ready issues at 11, its lanes finish at 12, frame 3 completes at 13; A's
 * ready at 12 (S3), lanes finish at 13, frame 1 completes at 14. A resident
 * 6..13: issued 6, 7, 9, 10, 12; execute 8 (the mul) and 11 (its add, in
 * its collector until 11: S3, scoreboard off). `oldest` chooses A first:
 * A reads at 10 (ready at 11, complete at 13), B at 11 (ready at 12,
 * complete at 14). rf_banks = 8 puts B's r8 in bank 4: both read at 10, both
 * frames complete at 13. */
static const char BANK2[] = ".group cores=0x000f fence=no\n"
                            "  set_const r9, 1\n"   /* 0 */
                            "  mul r9, r9, r9\n"    /* 1 */
                            "  add r9, r9, r9\n"    /* 2 */
                            "  add r8, r8, r10\n"   /* 3: reads r8 */
                            "  ready\n"             /* 4 */
                            ".group cores=0x00f0 fence=no\n"
                            "  add r8, r8, r10\n"   /* 0: reads r8 */
                            "  ready\n";            /* 1 */

static void test_bank_conflict_two_issues_one_cycle(void)
{
    gpu_desc_t d = simt();
    d.simt_issue_width = 2;
    d.simt_collectors = 2;
    d.simt_rf_banks = 4;
    h_run_t *r = run(BANK2, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 9, 10, 12));
    CU_ASSERT(H_ISSUED_AT(r, 3, 10, 11));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(13));
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(14));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 7);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 2);
    h_free(r);
    d.simt_scheduler = SIMT_SCHED_OLDEST;
    r = run(BANK2, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(13));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(14));
    h_free(r);
    d.simt_scheduler = SIMT_SCHED_RR;
    d.simt_rf_banks = 8;
    r = run(BANK2, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(13));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(13));
    h_free(r);
}

/* simt.rf_arbiter (S12's bank arbitration): two adds issued in one cycle,
 * each reading two registers, over one register-file bank (rf_banks 1,
 * issue_width 2, collectors 2). An issuing instruction takes the
 * lowest-numbered free collector. Warp A (lanes 0-3): set_const at 6 (c0,
 * no reads, dispatched at 6), mul at 7 (c0, reads r9 at 7, done 9, S3),
 * add at 9 (c0, reads r9 at 9, done 10), then `add r8, r11, r12` (reads r8,
 * r11) at 10. Warp B (lanes 4-7) is resident at 10 (T4) and issues the same
 * add at 10; rr scheduler: the last issuing cycle chose A, so B is first
 * and takes c0, A takes c1. One bank, one read a cycle:
 * - oldest: B's r8 at 10, r11 at 11 (dispatched 11, done 12), A's at 12
 *   and 13 (done 14). Readies at 12 and 14: B's frame completes at 14, A's
 *   at 16.
 * - rr: the bank served c0 last (A's reads at 7 and 9), so c1 (A) first:
 *   A's r8 at 10, B's r8 at 11, A's r11 at 12 (dispatched 12, done 13), B's
 *   r11 at 13 (done 14). Readies at 13 and 14: A's frame completes at 15,
 *   B's at 16. A: resident 6..13, issued 5, execute 3 (8, 11, 12); B:
 *   resident 10..14, issued 2, execute 3 (11, 12, 13). Barrier mode (S14)
 *   arbitrates the groups' collectors the same way: without divergence each
 *   warp is one group, and the times are rr's. */
static const char TWO_READS[] = ".group cores=0x000f fence=no\n"
                                "  set_const r9, 1\n"   /* 0 */
                                "  mul r9, r9, r9\n"    /* 1 */
                                "  add r9, r9, r9\n"    /* 2 */
                                "  add r8, r11, r12\n"  /* 3: reads r8, r11 */
                                "  ready\n"             /* 4 */
                                ".group cores=0x00f0 fence=no\n"
                                "  add r8, r11, r12\n"  /* 0: reads r8, r11 */
                                "  ready\n";            /* 1 */

static void test_rf_arbiter_oldest_and_rr(void)
{
    gpu_desc_t d = simt();
    d.simt_issue_width = 2;
    d.simt_collectors = 2;
    d.simt_rf_banks = 1;
    h_run_t *r = run(TWO_READS, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 9, 10, 14));
    CU_ASSERT(H_ISSUED_AT(r, 3, 10, 12));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(14));
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(16));
    h_free(r);
    d.simt_rf_arbiter = SIMT_RF_RR;
    r = run(TWO_READS, &d);
    CU_ASSERT(H_ISSUED_AT(r, 1, 6, 7, 9, 10, 13));
    CU_ASSERT(H_ISSUED_AT(r, 3, 10, 14));
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(15));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(16));
    const gpu_tr_simt_warp_t *a = h_warp_of(r, 1), *b = h_warp_of(r, 3);
    CU_ASSERT_EQUAL(a->resident_cycles, 8);
    CU_ASSERT_EQUAL(a->stall_cycles[EXE], 3);
    CU_ASSERT_EQUAL(b->resident_cycles, 5);
    CU_ASSERT_EQUAL(b->stall_cycles[EXE], 3);
    h_free(r);
    d.simt_reconvergence = GPU_RECONV_BARRIER; /* no divergence: one group a warp, as above */
    r = run(TWO_READS, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(15));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(16));
    h_free(r);
}

/* E6, lanes 0-7, mul then ready. Default: the mul issues at 6, completes at
 * 8, ready at 8, the task completes at 10. simt.sfu_width = 4: passes at 6
 * and 7, the mul completes at 7 + 2 = 9, ready at 9 (one SP pass, 8 lanes
 * of 16), the task completes at 11; cycles 7, 8 wait (execute).
 * sfu_width = 1: passes 6..13, completes at 15, the task completes at 17.
 * sp_width = 4 as well: ready takes 2 passes (9, 10), completes at 11 + 1
 * - 1 = ... its last pass starts at 10, + 1: 11; the task completes at 12. */
static void test_e6_narrow_sfu(void)
{
    const char *src = ".group cores=0x00ff fence=no\n mul r1, r2, r3\n ready\n";
    gpu_desc_t d = simt();
    h_run_t *r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(10));
    h_free(r);
    d.simt_sfu_width = 4;
    r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(11));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 2);
    h_free(r);
    d.simt_sp_width = 4;
    r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(12));
    h_free(r);
    d.simt_sp_width = 16;
    d.simt_sfu_width = 1;
    r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(17));
    h_free(r);
}

/* An ld split into LSU passes hitting two banks (sm.bank_map = high, 16
 * banks of 256 bytes): lanes 0-3 load bytes 0, 1 (bank 0: lanes 0, 1) and
 * 256, 257 (bank 1: lanes 2, 3) with simt.lsu_width = 2. Slots 0-5 compute
 * the addresses (low byte lane & 1, high byte lane >> 1) at 6..11; the ld
 * issues at 12 and takes 2 passes: at 12 lanes 0, 1 (arrive at bank 0 at
 * 13, granted 13 and 14, answered 15 and 16), at 13 lanes 2, 3 (arrive at
 * bank 1 at 14, granted 14 and 15, answered 16 and 17). The ld completes at
 * 17, ready at 17, the lanes finish at 18, the task completes at 19.
 * Replays: 1 (two requests in each of two banks). Without passes the four
 * requests leave at 12: bank 1's answers at 15, 16, and the task completes
 * at 18. */
static void test_ld_passes_two_banks(void)
{
    const char *src = ".group cores=0x000f fence=no\n"
                      " set_const r1, id\n"    /* 0: r1 = lane */
                      " set_const r12, 2\n"    /* 1 */
                      " and r1, r12, r5\n"     /* 2: r5 = 2 for lanes 2, 3 */
                      " set_const r14, 1\n"    /* 3 */
                      " and r1, r14, r7\n"     /* 4: r7 = lane & 1 (low byte) */
                      " rshft r5, 1, r9\n"     /* 5: r9 = 1 for lanes 2, 3 (high) */
                      " ld [r7, r9], r3\n"     /* 6 */
                      " ready\n"               /* 7 */
                      ".data 0: 10, 11\n.data 256: 12, 13\n";
    gpu_desc_t d = simt();
    d.simt_lsu_width = 2;
    h_run_t *r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(19));
    for (unsigned l = 0; l < 4; l++) {
        const gpu_tr_access_t *a = h_access(r, l, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_EQUAL(a->request_ps, C(l < 2 ? 12 : 13));
        CU_ASSERT_EQUAL(a->done_ps, C(l < 2 ? 15 + l : 14 + l));
        CU_ASSERT_EQUAL(r->arch.regs[l][3], 10 + l);
    }
    CU_ASSERT_EQUAL_FATAL(r->n_mems, 1);
    CU_ASSERT_EQUAL(r->mems[0].replays, 1);
    CU_ASSERT_EQUAL(r->mems[0].banks, 2);
    h_free(r);
    d.simt_lsu_width = 16;
    r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(18));
    h_free(r);
}

/* A collector-starved cycle: E3's loop bodies as two warps on disjoint
 * lanes with issue_width 2 and one collector. A starts at 6, B at 10 (the
 * code bus). From 10 both are eligible every cycle they are not waiting for
 * their own instruction, but each issue holds the single collector for its
 * issue cycle (no reads: dispatched at once, free from the next cycle): in
 * any cycle only one warp issues, and the other — fewer than issue_width
 * having issued — stalls for `collector`. */
static void test_collector_starved(void)
{
    const char *src = ".group cores=0x00ff fence=no\n set_const r8, 4\n set_const r9, 1\n"
                      "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n"
                      ".group cores=0xff00 fence=no\n set_const r8, 2\n set_const r9, 1\n"
                      "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n";
    gpu_desc_t d = simt();
    d.simt_issue_width = 2;
    d.simt_collectors = 1;
    d.simt_scheduler = SIMT_SCHED_OLDEST;
    h_run_t *r = run(src, &d);
    /* oldest: A (older) takes the collector whenever it is eligible: A
       issues 6..16 as alone (11 instructions), B stalls for collector in
       10..16 (7 cycles) and issues 17..23: B completes at 25, as gto with
       issue_width 1 (E3), not at 18 as issue_width 2 without collectors */
    const gpu_tr_simt_warp_t *b = h_warp_of(r, 3);
    CU_ASSERT_EQUAL(b->stall_cycles[COL], 7);
    CU_ASSERT_EQUAL(b->stall_cycles[ISS], 0);
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(25));
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(18));
    h_free(r);
}

/* The slot profile (gpu_tr_slot_t): each resident cycle of a warp charged
 * to the slot it waits to issue; each busy cycle of a MIMD core to the slot
 * it executes or waits at. The harness checks the sums on every run; here
 * the slots themselves, by hand. */
static void slot_is(const h_run_t *r, unsigned core, unsigned slot, uint64_t n, uint64_t lanes,
                    uint64_t issued, const uint64_t stall[GPU_SIMT_STALLS])
{
    const gpu_tr_slot_t *p = h_slot(r, 1, core, slot);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->instructions, n);
    CU_ASSERT_EQUAL(p->lane_instructions, lanes);
    CU_ASSERT_EQUAL(p->issued_cycles, issued);
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++) {
        if (p->stall_cycles[k] != stall[k])
            fprintf(stderr, "slot %u: %s stalls %llu, expected %llu\n", slot,
                    gpu_simt_stall_name(k), (unsigned long long)p->stall_cycles[k],
                    (unsigned long long)stall[k]);
        CU_ASSERT_EQUAL(p->stall_cycles[k], stall[k]);
    }
}

#define SIMT_UNIT GPU_SLOT_SIMT
static const uint64_t NO_STALL[GPU_SIMT_STALLS];

/* E1 (SIMT-SPEC: divergence on lane parity), lanes 0-3. SIMT: slots 0-3
 * issue at 6-9 for 4 lanes; the bnz at 9 diverges (its stack effect at
 * issue: the not-taken path, lanes 0 and 2, on top), slot 4 at 10 and 5 at
 * 11 for 2 lanes, slot 6 (lanes 1, 3) at 12, ready at 14 for 4. Cycle 13:
 * the warp waits to issue ready (slot 7) for the mul issued at 12 (not a
 * ld/st): one execute stall on slot 7; nothing else stalls. Resident 6..15
 * = 9 = 8 issued + 1. MIMD: each core charges one cycle to each
 * instruction it runs (alu, branch, ready: 1 cycle), the mul 2 (T6); even
 * cores run 0-5 and 7, odd cores 0-3, 6 and 7. No ld/st: no SM wait. */
static void test_slot_profile_divergent(void)
{
    gpu_desc_t d = simt();
    h_run_t *r = run(SIMT_E1, &d);
    static const unsigned lanes[8] = {4, 4, 4, 4, 2, 2, 2, 4};
    for (unsigned s = 0; s < 7; s++)
        slot_is(r, SIMT_UNIT, s, 1, lanes[s], 1, NO_STALL);
    slot_is(r, SIMT_UNIT, 7, 1, 4, 1, (const uint64_t[GPU_SIMT_STALLS]){[EXE] = 1});
    CU_ASSERT_PTR_NULL(h_slot(r, 1, SIMT_UNIT, 8));
    h_free(r);
    d.model = GPU_MODEL_MIMD;
    r = run(SIMT_E1, &d);
    for (unsigned c = 0; c < 4; c++)
        for (unsigned s = 0; s < 8; s++) {
            bool runs = s < 4 || s == 7 || (s == 6) == (c & 1);
            const gpu_tr_slot_t *p = h_slot(r, 1, c, s);
            CU_ASSERT_EQUAL(p ? p->instructions : 0, runs ? 1u : 0u);
            CU_ASSERT_EQUAL(p ? p->execute_ps : 0, runs ? C(s == 6 ? 2 : 1) : 0);
            CU_ASSERT_EQUAL(p ? p->sm_wait_ps : 0, 0);
        }
    h_free(r);
}

/* E2 (the slowest lane), lanes 0-3: set_const at 6, the ld at 7 (answers
 * at 10, 11, 12, 13), ready at 13, the lanes finish at 14. SIMT: cycles
 * 8-12 the warp waits to issue ready (slot 2) for the ld: 5 memory stalls
 * on slot 2, none on the ld itself. MIMD: core c's ld waits from 7 to its
 * answer at 10 + c: 3 + c cycles of SM wait on slot 1; set_const and ready
 * one cycle of execute each. With E4's I-buffer (ibuffer 2): the warp
 * waits to fetch slot 0 at 6, slot 2 at 11 (the taken bnz's next slot,
 * set at its issue at 10) and slot 4 at 14 (the not-taken bnz's): one
 * fetch stall on each of slots 0, 2, 4. */
static void test_slot_profile_memory_and_fetch(void)
{
    const char *e2 = ".group cores=0x000f fence=no\n set_const r1, id\n ld [r1, r2], r3\n"
                     " ready\n";
    gpu_desc_t d = simt();
    h_run_t *r = run(e2, &d);
    slot_is(r, SIMT_UNIT, 0, 1, 4, 1, NO_STALL);
    slot_is(r, SIMT_UNIT, 1, 1, 4, 1, NO_STALL);
    slot_is(r, SIMT_UNIT, 2, 1, 4, 1, (const uint64_t[GPU_SIMT_STALLS]){[GPU_SIMT_STALL_MEMORY] = 5});
    h_free(r);
    d.model = GPU_MODEL_MIMD;
    r = run(e2, &d);
    for (unsigned c = 0; c < 4; c++) {
        CU_ASSERT_EQUAL(h_slot(r, 1, c, 0)->execute_ps, C(1));
        CU_ASSERT_EQUAL(h_slot(r, 1, c, 1)->execute_ps, 0);
        CU_ASSERT_EQUAL(h_slot(r, 1, c, 1)->sm_wait_ps, C(3 + c));
        CU_ASSERT_EQUAL(h_slot(r, 1, c, 2)->execute_ps, C(1));
    }
    h_free(r);
    d = simt();
    d.simt_ibuffer = 2;
    r = run(E4, &d);
    static const uint64_t FETCH1[GPU_SIMT_STALLS] = {[FET] = 1};
    slot_is(r, SIMT_UNIT, 0, 1, 4, 1, FETCH1);
    slot_is(r, SIMT_UNIT, 1, 1, 4, 1, NO_STALL);
    slot_is(r, SIMT_UNIT, 2, 2, 8, 2, FETCH1);
    slot_is(r, SIMT_UNIT, 3, 2, 8, 2, NO_STALL);
    slot_is(r, SIMT_UNIT, 4, 1, 4, 1, FETCH1);
    h_free(r);
}

/* Keys out of range are errors naming the key. */
static void test_pipeline_keys_checked(void)
{
    gpu_desc_t d = simt();
    diag_t diag = {0};
    d.simt_ibuffer = 9;
    CU_ASSERT_NOT_EQUAL(gpu_desc_check(&d, &diag), TESS_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "simt.ibuffer"));
    d = simt();
    diag = (diag_t){0};
    d.simt_rf_banks = 0;
    CU_ASSERT_NOT_EQUAL(gpu_desc_check(&d, &diag), TESS_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "simt.rf_banks"));
    d = simt();
    diag = (diag_t){0};
    d.simt_lsu_width = 17;
    CU_ASSERT_NOT_EQUAL(gpu_desc_check(&d, &diag), TESS_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "simt.lsu_width"));
}

static const test_case_t cases[] = {
    TEST(test_e4_front_end),
    TEST(test_e4_two_warps_one_fetch_port),
    TEST(test_e4_two_warps_one_fetch_port_gto),
    TEST(test_fetch_cancelled_by_a_pop),
    TEST(test_e5_register_bank_conflict),
    TEST(test_ready_drains_an_instruction_in_its_collector),
    TEST(test_bank_conflict_two_issues_one_cycle),
    TEST(test_rf_arbiter_oldest_and_rr),
    TEST(test_e6_narrow_sfu),
    TEST(test_ld_passes_two_banks),
    TEST(test_collector_starved),
    TEST(test_pipeline_keys_checked),
    TEST(test_slot_profile_divergent),
    TEST(test_slot_profile_memory_and_fetch),
    TEST_END,
};

int main(void)
{
    int rc = 0;
    const test_suite_t decoupled[] = {{"simt pipeline (decoupled)", cases}, {NULL, NULL}};
    const test_suite_t stepped[] = {{"simt pipeline (stepped)", cases}, {NULL, NULL}};
    timing_mode = GPU_TIMING_DECOUPLED;
    rc |= test_run_suites(decoupled);
    timing_mode = GPU_TIMING_STEPPED;
    rc |= test_run_suites(stepped);
    return rc;
}

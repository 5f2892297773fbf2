/* test_simt_barrier.c — stack-less reconvergence (SIMT-SPEC S14,
 * simt.reconvergence = barrier): golden timelines computed by hand from the
 * specification with the defaults of GPU-SPEC §6 (cycle = 1000 ps; the
 * first warp starts at 6; alu, branch, ready 1 cycle, mul 2; sm.req,
 * sm.bank, sm.resp 1 cycle each, so an uncontended ld answers 3 cycles
 * after its issue). The reasoning is written beside each test, in cycles;
 * assertions are in picoseconds. Every test runs in both timing modes, and
 * every run is checked for issued + stall cycles = resident cycles per
 * warp. E7 and E8 carry every number the specification states. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "model/simt/sched.h"
#include "tests/harness.h"
#include "tessera_names.h" /* the model's counters and units (cmake/gen-names.c) */
#include "tests/testutil.h"

#define C(n) ((sim_time_t)(n) * 1000) /* cycles → ps */
#define MEM GPU_SIMT_STALL_MEMORY
#define EXE GPU_SIMT_STALL_EXECUTE
#define ISS GPU_SIMT_STALL_ISSUE
#define BAR GPU_SIMT_STALL_BARRIER
#define COL GPU_SIMT_STALL_COLLECTOR

static unsigned timing_mode;

static gpu_desc_t simt(bool barrier)
{
    gpu_desc_t d = h_desc(timing_mode, true);
    d.simt_reconvergence = barrier ? GPU_RECONV_BARRIER : GPU_RECONV_STACK;
    return d;
}

static h_run_t *run(const char *src, const gpu_desc_t *d) { return h_run_simt_done(src, d); }

/* Asserts frame f's issues: cycle, slot and lanes of each, in order. */
static void assert_issues(const h_run_t *r, unsigned f, const unsigned (*want)[3], unsigned n)
{
    unsigned at[64], slot[64], lanes[64];
    unsigned got = h_issues(r, f, at, slot, lanes, 64);
    CU_ASSERT_EQUAL(got, n);
    for (unsigned i = 0; i < n && i < got; i++) {
        bool ok = at[i] == want[i][0] && slot[i] == want[i][1] && lanes[i] == want[i][2];
        CU_ASSERT(ok);
        if (!ok)
            fprintf(stderr, "issue %u: cycle %u slot %u lanes 0x%x, want %u %u 0x%x\n", i,
                    at[i], slot[i], lanes[i], want[i][0], want[i][1], want[i][2]);
    }
}

/* Asserts the barrier waits reported (GPU_TR_SIMT_WAIT, any order): frame,
 * slot, lanes, from and to in cycles (to = -1: still open). */
static void assert_waits(const h_run_t *r, const int (*want)[5], unsigned n)
{
    CU_ASSERT_EQUAL(r->n_waits, n);
    for (unsigned i = 0; i < n; i++) {
        bool found = false;
        for (size_t k = 0; k < r->n_waits && !found; k++) {
            const gpu_tr_simt_wait_t *x = &r->waits[k];
            found = x->frame == want[i][0] && x->slot == want[i][1] && x->lanes == want[i][2] &&
                    x->from_ps == C(want[i][3]) &&
                    (want[i][4] < 0 ? x->to_ps == SIM_TIME_NEVER : x->to_ps == C(want[i][4]));
        }
        CU_ASSERT(found);
        if (!found)
            fprintf(stderr, "no wait: frame %d slot %d lanes 0x%x cycles %d-%d\n", want[i][0],
                    want[i][1], want[i][2], want[i][3], want[i][4]);
    }
}

/* --- E7 ----------------------------------------------------------------------- */

static const char *E7 = ".group cores=0x000f fence=no\n"
                        "  set_const r1, id\n"  /* 0 */
                        "  set_const r8, 1\n"   /* 1 */
                        "  and r1, r8, r2\n"    /* 2: r2 = id & 1 */
                        "  bnz odd, r2\n"       /* 3 */
                        "  ld [r1, r8], r3\n"   /* 4: even lanes: 0x100, 0x102, bank 1 */
                        "  bnz join, r8\n"      /* 5: always taken */
                        "odd:\n"
                        "  add r8, r8, r9\n"    /* 6 */
                        "  add r9, r9, r9\n"    /* 7 */
                        "join:\n"
                        "  ready\n";            /* 8 */

/* E7 (SIMT-SPEC), sm.bank_map = high. Slots 0-3 at 6-9; the bnz completes
 * at 10 and diverges (lanes 0, 2 at 4; lanes 1, 3 at 6; r = 8).
 * Stack: the ld of 0, 2 at 10, requests at bank 1 at 11, granted 11, 12,
 * answered 13, 14; slot 5 at 14 (completes 15: pop), slots 6, 7 for 1, 3 at
 * 15, 16, ready at 17; the lanes finish at 18, the task completes at 19.
 * Resident 6..18 = 12: 9 issued, 3 memory (11-13).
 * Barrier: at 10 the group at slot 4 (tie in lanes, lower slot): ld at 10;
 * the other group issues 6 and 7 at 11, 12 and waits at the barrier (13:
 * the ld is in flight, memory wins); the ld completes at 14, slot 5 at 14,
 * completes 15: the barrier is complete, ready at 15 for all four, the
 * lanes finish at 16, the task completes at 17. Resident 10: 9 issued, 1
 * memory (13). One barrier created, at most two groups; per-lane counts as
 * on the MIMD machine (7 each), 28 lane instructions. The waits at the
 * barrier (slot 8): {1,3} from 12 (its slot 7 issued: its next slot is 8)
 * to 15, {0,2} from 15 (its bnz completes: it moves to 8, the last to
 * arrive) to 15. */
static void test_e7(void)
{
    gpu_desc_t d = simt(false);
    h_run_t *r = run(E7, &d);
    static const unsigned stack[][3] = {{6, 0, 0xf},  {7, 1, 0xf},  {8, 2, 0xf},
                                        {9, 3, 0xf},  {10, 4, 0x5}, {14, 5, 0x5},
                                        {15, 6, 0xa}, {16, 7, 0xa}, {17, 8, 0xf}};
    assert_issues(r, 1, stack, 9);
    for (unsigned l = 0; l < 4; l++)
        h_assert_lane(r, 1, l, C(18), 7);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(19));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 12);
    CU_ASSERT_EQUAL(w->stall_cycles[MEM], 3);
    h_free(r);

    d = simt(true);
    r = run(E7, &d);
    static const unsigned barrier[][3] = {{6, 0, 0xf},  {7, 1, 0xf},  {8, 2, 0xf},
                                          {9, 3, 0xf},  {10, 4, 0x5}, {11, 6, 0xa},
                                          {12, 7, 0xa}, {14, 5, 0x5}, {15, 8, 0xf}};
    assert_issues(r, 1, barrier, 9);
    for (unsigned l = 0; l < 4; l++)
        h_assert_lane(r, 1, l, C(16), 7);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(17));
    w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->warp_instructions, 9);
    CU_ASSERT_EQUAL(w->lane_instructions, 28);
    CU_ASSERT_EQUAL(w->divergent_branches, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 10);
    CU_ASSERT_EQUAL(w->stall_cycles[MEM], 1);
    CU_ASSERT_EQUAL(w->stall_cycles[BAR], 0);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 0);
    CU_ASSERT_EQUAL(w->max_groups, 2);
    CU_ASSERT_EQUAL(w->barriers, 1);
    CU_ASSERT_EQUAL(h_simt_counter(r, GEN_CTR_SIMT_BARRIERS), 1);
    CU_ASSERT_EQUAL(h_simt_counter(r, GEN_CTR_SIMT_MAX_GROUPS), 2);
    static const int waits[][5] = {{1, 8, 0xa, 12, 15}, {1, 8, 0x5, 15, 15}};
    assert_waits(r, waits, 2);
    h_free(r);
}

/* --- E8 ----------------------------------------------------------------------- */

static const char *E8 = ".group cores=0x0003 fence=no\n"
                        "  set_const r8, 0x40\n" /* 0: bits [7:6] = 01 */
                        "  ld [r2, r8], r3\n"    /* 1: ld_sync byte 0 */
                        "  add r3, r3, r3\n"     /* 2 */
                        "  st [r2, r8], r3\n"    /* 3: st_sync releases it */
                        "  ready\n";             /* 4 */

/* E8 (SIMT-SPEC), sm.atomics = on. MIMD: core 0's ld_sync granted 8,
 * answered 10; add 10, st_sync 11, granted 12, answered 14; ready 14,
 * finish 15. Core 1's ld_sync granted 13 (after the st_sync's service in
 * 12), answered 15; add 15, st_sync 16 (granted 17, answered 19), ready 19,
 * finish 20; the task completes at 21.
 * Stack (S9): the warp waits for lane 1's answer, lane 1 for lane 0's
 * st_sync: deadlock, stopped when nothing is left scheduled — at 10, lane
 * 0's answer.
 * Barrier: set_const at 6, the ld_sync at 7 for both; lane 0's answer at 10
 * splits it off (a new group at slot 2): add 10, st 11, ready 14, finish 15;
 * lane 1's answer at 15 completes the ld_sync for the group that stayed:
 * add 15, st 16, ready 19, finish 20 — each lane exactly its core; the task
 * completes at 21. Resident 6..20 = 14: 8 issued, 6 memory (8, 9, 12, 13,
 * 17, 18). Two groups at most, no barrier. */
static void test_e8(void)
{
    gpu_desc_t d = h_desc(timing_mode, false);
    d.atomics = true;
    h_run_t *r = run(E8, &d);
    h_assert_lane(r, 1, 0, C(15), 5);
    h_assert_lane(r, 1, 1, C(20), 5);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(21));
    h_free(r);

    d = simt(false);
    d.atomics = true;
    r = h_run_src(E8, &d);
    CU_ASSERT_EQUAL(r->outcome, GPU_STUCK);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->errmsg, "S9"));
    h_check_counting(r);
    h_free(r);

    d = simt(true);
    d.atomics = true;
    r = run(E8, &d);
    static const unsigned want[][3] = {{6, 0, 0x3},  {7, 1, 0x3},  {10, 2, 0x1}, {11, 3, 0x1},
                                       {14, 4, 0x1}, {15, 2, 0x2}, {16, 3, 0x2}, {19, 4, 0x2}};
    assert_issues(r, 1, want, 8);
    h_assert_lane(r, 1, 0, C(15), 5);
    h_assert_lane(r, 1, 1, C(20), 5);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(21));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 14);
    CU_ASSERT_EQUAL(w->warp_instructions, 8);
    CU_ASSERT_EQUAL(w->stall_cycles[MEM], 6);
    CU_ASSERT_EQUAL(w->max_groups, 2);
    CU_ASSERT_EQUAL(w->barriers, 0);
    h_free(r);
}

/* E8's stack deadlock stops at 10 (nothing left scheduled after lane 0's
 * answer), recorded as status deadlock in both timing modes; barrier mode
 * ends ok at 21. */
static void test_e8_recorded(void)
{
    const char *path = test_tmp_path("e8.s");
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, E8, strlen(E8)), 0);
    const char *db = test_tmp_path("e8.db");
    char args[1024];
    static const char *timing[] = {"decoupled", "stepped"};
    for (unsigned m = 0; m < 2; m++) {
        remove(db);
        snprintf(args, sizeof args,
                 "run %s --db %s --quiet -s core.model=simt -s sm.atomics=on -s core.timing=%s",
                 path, db, timing[m]);
        CU_ASSERT_NOT_EQUAL(test_run_tessera(args, NULL), 0);
        CU_ASSERT_EQUAL(test_db_int(db, "SELECT stop_ps FROM runs WHERE status = 'deadlock'"),
                        C(10));
        snprintf(args, sizeof args,
                 "run %s --db %s --quiet -s core.model=simt -s sm.atomics=on -s core.timing=%s "
                 "-s simt.reconvergence=barrier",
                 path, db, timing[m]);
        CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
        CU_ASSERT_EQUAL(test_db_int(db, "SELECT end_ps FROM runs WHERE status = 'ok'"), C(21));
        CU_ASSERT_EQUAL(test_db_int(db, "SELECT COUNT(*) FROM params WHERE key = "
                                        "'simt.reconvergence' AND value = 'barrier'"),
                        1);
    }
}

/* E7's barrier waits recorded at level events (simt_waits, schema 15) and
 * drawn: the SVG timeline's lanes 1, 3 wait at the barrier in cycles
 * 12-15 (lanes 0, 2 wait no time: nothing drawn), its issue port colours
 * the diverged issues by thread group; the Perfetto trace has a track per
 * group (by lowest lane) and the lanes' waits. Stack and lower levels:
 * no row. A run stopped at 13 (sim.time_limit) records {1,3}'s wait as
 * open (to_ps NULL). */
static void test_waits_recorded(void)
{
    const char *path = test_tmp_path("e7.s");
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, E7, strlen(E7)), 0);
    char db[256], svg[256], json[256]; /* (test_tmp_path's buffer is reused) */
    snprintf(db, sizeof db, "%s", test_tmp_path("e7.db"));
    snprintf(svg, sizeof svg, "%s", test_tmp_path("e7.svg"));
    snprintf(json, sizeof json, "%s", test_tmp_path("e7.json"));
    char args[2048];
    uint8_t *text = NULL;
    size_t len;
    remove(db);
    static const char *const runs[] = {"-s simt.reconvergence=barrier -s record.level=events",
                                       "-s simt.reconvergence=barrier",
                                       "-s record.level=events",
                                       ("-s simt.reconvergence=barrier -s record.level=events"
                                        " -s sim.time_limit=13")};
    for (unsigned i = 0; i < 4; i++) {
        snprintf(args, sizeof args, "run %s --db %s --quiet -s core.model=simt %s", path, db,
                 runs[i]);
        CU_ASSERT_EQUAL(test_run_tessera(args, NULL), i == 3 ? 4 : 0);
    }
    /* stopped at 13: {1,3} waits since 12, still waiting (to_ps NULL) */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM simt_waits WHERE run_id = 4 AND"
                                    " lanes = 10 AND from_ps = 12000 AND to_ps IS NULL"),
                    1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM simt_waits WHERE run_id < 4"), 2);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM simt_waits WHERE run_id = 1 AND"
                                    " frame = 1 AND slot = 8 AND ((lanes = 10 AND from_ps ="
                                    " 12000) OR (lanes = 5 AND from_ps = 15000))"
                                    " AND to_ps = 15000"),
                    2);
    snprintf(args, sizeof args, "timeline %s --run 1 -o %s", db, svg);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    text = test_read_file(svg, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT(text && strstr((const char *)text, "barrier wait, lane 1: cycles 12\xe2\x80\x93" "15"));
    CU_ASSERT(text && strstr((const char *)text, "barrier wait, lane 3: cycles 12\xe2\x80\x93" "15"));
    CU_ASSERT(!(text && strstr((const char *)text, "barrier wait, lane 0")));
    CU_ASSERT(text && strstr((const char *)text, "lanes 0x000a of 0x000f (thread group, 1 of 2)"));
    CU_ASSERT(text && strstr((const char *)text, "thread group (colour of its lowest lane)"));
    free(text);
    text = NULL;
    snprintf(args, sizeof args, "timeline %s --run 3 -o %s", db, svg); /* the stack */
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    text = test_read_file(svg, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT(!(text && strstr((const char *)text, "barrier")));
    free(text);
    text = NULL;
    snprintf(args, sizeof args, "export %s --run 1 --perfetto %s", db, json);
    char *out = NULL;
    int rc = test_run_tessera(args, &out);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc)
        fprintf(stderr, "%s\n", out ? out : "");
    free(out);
    text = test_read_file(json, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT(text && strstr((const char *)text, "\"lane 1 at a barrier\""));
    CU_ASSERT(text && strstr((const char *)text, "\"F1 waits at slot 8\""));
    CU_ASSERT(text && strstr((const char *)text, "\"F1 group @lane 1\""));
    CU_ASSERT(text && strstr((const char *)text, "\"F1 group @lane 0\""));
    free(text);
}

/* --- hand-computed cases ---------------------------------------------------------- */

/* Nested divergence with two barriers at one slot (lanes 0-3, r2 = id & 1,
 * r3 = id >> 1):
 *   4 bnz B(8), r3     10: lanes 2, 3 taken; r = 9 (both paths end at 9)
 *   5 bnz J(9), r2     11: lanes 0, 1 (tie in lanes, lower slot); r = 9
 *   6 add              lane 0
 *   7 bnz J(9), r9     lane 0, uniform to 9
 *   8 B: mul           lanes 2, 3 (2 cycles)
 *   9 J: ready
 * Barrier: slots 0-4 at 6-10; at 11 the bnz of slot 4 completes: groups
 * {2,3}@8 and {0,1}@5, barrier B1 (9, 0xf); the tie goes to the lower slot:
 * slot 5 at 11. At 12 it completes: {1}@9 and {0}@6, barrier B2 (9, 0x3);
 * {1} waits at B2 (its innermost). The group that issued last is gone: the
 * most lanes, {2,3}: mul at 12 (completes 14; next slot 9, innermost barrier
 * B1: it waits). 13: {0} adds; 14: its bnz (completes 15). At 15 {0} reaches
 * 9: B2 is complete ({0,1} joins at 9), whose innermost barrier is now B1,
 * also complete: one group of all four at 9; its lanes' instructions have
 * completed by 15: ready at 15, the lanes finish at 16, the task completes
 * at 17. No stall cycle (10 issues, resident 10), 3 groups at most (12-14),
 * 2 barriers. Stack: slot 6 at 12 (lane 0 on top), 7 at 13, the mul at 14
 * (completes 16), ready at 16: completion at 18. MIMD: 16.
 * Waits (slot 9): at B2 {1} from 12 and {0} from 15 (the last to arrive),
 * both to 15; at B1 {2,3} from 12 (its mul issued) and the joined {0,1}
 * from 15, both to 15. */
static void test_two_barriers_at_one_slot(void)
{
    const char *src = ".group cores=0xf\n set_const r1, id\n set_const r9, 1\n and r1, r9, r2\n"
                      " rshft r1, 1, r3\n bnz B, r3\n bnz J, r2\n add r9, r9, r10\n"
                      " bnz J, r9\nB:\n mul r1, r1, r12\nJ:\n ready\n";
    gpu_desc_t d = simt(true);
    h_run_t *r = run(src, &d);
    static const unsigned want[][3] = {{6, 0, 0xf},  {7, 1, 0xf},  {8, 2, 0xf},  {9, 3, 0xf},
                                       {10, 4, 0xf}, {11, 5, 0x3}, {12, 8, 0xc}, {13, 6, 0x1},
                                       {14, 7, 0x1}, {15, 9, 0xf}};
    assert_issues(r, 1, want, 10);
    static const uint64_t n[] = {9, 7, 7, 7};
    for (unsigned l = 0; l < 4; l++)
        h_assert_lane(r, 1, l, C(16), n[l]);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(17));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->lane_instructions, 30);
    CU_ASSERT_EQUAL(w->divergent_branches, 2);
    CU_ASSERT_EQUAL(w->resident_cycles, 10);
    CU_ASSERT_EQUAL(w->max_groups, 3);
    CU_ASSERT_EQUAL(w->barriers, 2);
    static const int waits[][5] = {
        {1, 9, 0x2, 12, 15}, {1, 9, 0x1, 15, 15}, {1, 9, 0xc, 12, 15}, {1, 9, 0x3, 15, 15}};
    assert_waits(r, waits, 4);
    h_free(r);
    d = simt(false);
    r = run(src, &d);
    CU_ASSERT_EQUAL(r->n_waits, 0); /* the stack has no barrier */
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(18));
    h_free(r);
    d = h_desc(timing_mode, false);
    r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(16));
    h_free(r);
}

/* A loop whose lanes exit at different iterations (lanes 0-2, lane i runs
 * the body i + 1 times): 3 sub r1, r9, r1; 4 bnz 3, r1; 5 ready (r = 5).
 * Slots 0-2 at 6-8, sub 9, bnz 10 (completes 11): lane 0 leaves the loop:
 * {0}@5 waits at B1 (5, 0x7), {1,2}@3: sub 11, bnz 12 (completes 13): {1}@5
 * waits at B2 (5, 0x6), {2}@3: sub 13, bnz 14, uniform: at 15 {2} reaches 5,
 * B2 completes, then B1: ready at 15 for all, finish 16, completion 17 — as
 * the stack (and MIMD's 17). 10 issues, no stall; 3 groups at 13-14 ({0} and
 * {1} waiting, {2} looping), 2 barriers; per-lane counts 6, 8, 10. */
static void test_loop_lanes_exit_at_different_iterations(void)
{
    const char *src = ".group cores=0x7\n set_const r1, id\n set_const r9, 1\n add r1, r9, r1\n"
                      "loop:\n sub r1, r9, r1\n bnz loop, r1\n ready\n";
    gpu_desc_t d = simt(true);
    h_run_t *r = run(src, &d);
    static const unsigned want[][3] = {{6, 0, 0x7},  {7, 1, 0x7},  {8, 2, 0x7},  {9, 3, 0x7},
                                       {10, 4, 0x7}, {11, 3, 0x6}, {12, 4, 0x6}, {13, 3, 0x4},
                                       {14, 4, 0x4}, {15, 5, 0x7}};
    assert_issues(r, 1, want, 10);
    for (unsigned l = 0; l < 3; l++)
        h_assert_lane(r, 1, l, C(16), 6 + 2 * l);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(17));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 10);
    CU_ASSERT_EQUAL(w->divergent_branches, 2);
    CU_ASSERT_EQUAL(w->max_groups, 3);
    CU_ASSERT_EQUAL(w->barriers, 2);
    h_free(r);
}

/* Two warps under gto, one issue per cycle: A = E7 (lanes 0-3, starts at
 * 6), B = set_const, add, ready (lanes 4-7, starts at 10: E3's code bus).
 * Barrier: A 6-9 (slots 0-3); 10: A chose last: the ld of {0,2}; 11, 12: A
 * keeps the port (slots 6, 7 of {1,3}); 13: A cannot issue (the ld, the
 * barrier): B's set_const; 14: B issued last and can: its add (A's ld has
 * completed at 14: A stalls for issue); 15: B's ready (B finishes 16,
 * completes 17); 16: A's slot 5 (completes 17: the barrier completes),
 * 17: ready; A finishes 18, completes 19. A: 9 issues, 1 memory (13) and 2
 * issue (14, 15) stall cycles; B: 3 issues, 3 issue stalls (10-12).
 * Stack: A waits for its ld from 11: B issues 11, 12, 13 and completes at
 * 15; A issues 14-17 and completes at 19 too — the diverged path that hid
 * A's latency took the port from B. */
static void test_two_warps_gto(void)
{
    char src[1024];
    snprintf(src, sizeof src, "%s.group cores=0x00f0 fence=no\n set_const r8, 1\n"
                              " add r8, r8, r9\n ready\n", E7);
    gpu_desc_t d = simt(true);
    d.simt_scheduler = SIMT_SCHED_GTO;
    h_run_t *r = run(src, &d);
    static const unsigned a[][3] = {{6, 0, 0xf},  {7, 1, 0xf},  {8, 2, 0xf},
                                    {9, 3, 0xf},  {10, 4, 0x5}, {11, 6, 0xa},
                                    {12, 7, 0xa}, {16, 5, 0x5}, {17, 8, 0xf}};
    assert_issues(r, 1, a, 9);
    static const unsigned b[][3] = {{13, 0, 0xf0}, {14, 1, 0xf0}, {15, 2, 0xf0}};
    assert_issues(r, 3, b, 3);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(19));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(17));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->stall_cycles[MEM], 1);
    CU_ASSERT_EQUAL(w->stall_cycles[ISS], 2);
    w = h_warp_of(r, 3);
    CU_ASSERT_EQUAL(w->stall_cycles[ISS], 3);
    h_free(r);
    d.simt_reconvergence = GPU_RECONV_STACK;
    r = run(src, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(19));
    CU_ASSERT_EQUAL(r->frames[3].complete_ps, C(15));
    h_free(r);
}

/* ld_sync contention among three lanes (E8's program on lanes 0-2). MIMD:
 * the three ld_sync reach bank 0 at 8; core 0 is granted at 8 (answer 10,
 * add 10, st_sync 11, granted 12, answer 14, ready 14, finish 15); core 1,
 * waiting, is granted at 13 (the bank serves the st_sync at 12; the fixed
 * arbiter prefers core 1 to core 2): answer 15, add 15, st 16 (granted 17,
 * answer 19), ready 19, finish 20; core 2 granted at 18: answer 20, add 20,
 * st 21 (granted 22, answer 24), ready 24, finish 25; completion 26.
 * Barrier: at 10 lane 0 splits off ({1,2} stays, waiting); at 15 lane 1 does
 * ({2} stays); at 20 lane 2's answer completes the ld_sync for the group
 * that stayed. Each lane runs as its core: the same finish times, 26. 11
 * issues, 8 memory stalls (8, 9, 12, 13, 17, 18, 22, 23), 2 groups at most.
 * Stack: deadlock (S9). */
static void test_ld_sync_three_lanes(void)
{
    char src[512];
    snprintf(src, sizeof src, "%s", E8);
    src[strlen(".group cores=0x000")] = '7';
    gpu_desc_t d = h_desc(timing_mode, false);
    d.atomics = true;
    h_run_t *r = run(src, &d);
    for (unsigned l = 0; l < 3; l++)
        h_assert_lane(r, 1, l, C(15 + 5 * l), 5);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(26));
    h_free(r);
    d = simt(true);
    d.atomics = true;
    r = run(src, &d);
    static const unsigned want[][3] = {{6, 0, 0x7},  {7, 1, 0x7},  {10, 2, 0x1}, {11, 3, 0x1},
                                       {14, 4, 0x1}, {15, 2, 0x2}, {16, 3, 0x2}, {19, 4, 0x2},
                                       {20, 2, 0x4}, {21, 3, 0x4}, {24, 4, 0x4}};
    assert_issues(r, 1, want, 11);
    for (unsigned l = 0; l < 3; l++)
        h_assert_lane(r, 1, l, C(15 + 5 * l), 5);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(26));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 19);
    CU_ASSERT_EQUAL(w->stall_cycles[MEM], 8);
    CU_ASSERT_EQUAL(w->max_groups, 2);
    h_free(r);
    d = simt(false);
    d.atomics = true;
    r = h_run_src(src, &d);
    CU_ASSERT_EQUAL(r->outcome, GPU_STUCK);
    h_free(r);
}

/* A lane leaving by `ready` inside a diverged path. Lanes 0-3, r2 = id & 1:
 *   3 bnz odd(6), r2   odd lanes at 6, even at 4
 *   4 add              even
 *   5 ready            even lanes leave here
 *   6 odd: ld [r1, r8], r3   (0x101, 0x103: bank 1)
 *   7 add r3, r8, r4
 *   8 ready
 * The bnz's immediate post-dominator is EXIT (slot 5's ready goes there),
 * so its split creates no barrier (S14: none when r is EXIT). A leaving
 * lane that completes a barrier would need a path from the barrier's bnz
 * to a ready that avoids its r, or passes r only while a later barrier is
 * the lane's innermost: the first contradicts r's post-dominance, and no
 * program of a 200 000-program random search (loops included) did the
 * second (docs/SIMT.md), so this is the closest case to compute by hand.
 * Slots 0-3 at 6-9; at 10 the bnz completes: {0,2}@4 and {1,3}@6 (tie in
 * lanes: the lower slot): add at 10, ready at 11 (lanes 0, 2 leave at
 * issue, finish at 12 as their cores do); {1,3}: ld at 12 (S3: one group
 * at a time issues, and {0,2} kept the port: it issued last), requests at
 * bank 1 at 13, granted 13, 14, answered 15, 16; add 16, ready 17, lanes 1,
 * 3 finish at 18, the task completes at 19. Resident 6..18 = 12: 9 issued,
 * 3 memory (13-15). 2 groups, 0 barriers; per-lane counts 6 (even) and 7
 * (odd), as on the MIMD machine. */
static void test_ready_inside_a_diverged_path(void)
{
    const char *src = ".group cores=0x000f fence=no\n set_const r1, id\n set_const r8, 1\n"
                      " and r1, r8, r2\n bnz odd, r2\n add r1, r8, r3\n ready\n"
                      "odd:\n ld [r1, r8], r3\n add r3, r8, r4\n ready\n";
    gpu_desc_t d = simt(true);
    h_run_t *r = run(src, &d);
    static const unsigned want[][3] = {{6, 0, 0xf},  {7, 1, 0xf},  {8, 2, 0xf},
                                       {9, 3, 0xf},  {10, 4, 0x5}, {11, 5, 0x5},
                                       {12, 6, 0xa}, {16, 7, 0xa}, {17, 8, 0xa}};
    assert_issues(r, 1, want, 9);
    h_assert_lane(r, 1, 0, C(12), 6);
    h_assert_lane(r, 1, 2, C(12), 6);
    h_assert_lane(r, 1, 1, C(18), 7);
    h_assert_lane(r, 1, 3, C(18), 7);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(19));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 12);
    CU_ASSERT_EQUAL(w->stall_cycles[MEM], 3);
    CU_ASSERT_EQUAL(w->divergent_branches, 1);
    CU_ASSERT_EQUAL(w->max_groups, 2);
    CU_ASSERT_EQUAL(w->barriers, 0);
    h_free(r);
}

/* --- the pipeline under barriers (S12, S13 per group) ------------------------------ */

static const char *COLLECT = ".group cores=0x000f fence=no\n"
                             "  set_const r1, id\n"   /* 0 */
                             "  set_const r8, 1\n"    /* 1 */
                             "  and r1, r8, r2\n"     /* 2: reads r1, r8 */
                             "  bnz odd, r2\n"        /* 3: r = 8 */
                             "  add r1, r8, r3\n"     /* 4: even: reads r1, r8 */
                             "  bnz join, r8\n"       /* 5: even, always taken */
                             "odd:\n"
                             "  add r8, r8, r9\n"     /* 6: odd: reads r8 */
                             "  add r9, r9, r10\n"    /* 7: odd: reads r9 */
                             "join:\n"
                             "  ready\n";             /* 8 */

/* A group waits for its collector while another group issues (S12 per
 * group, S14), simt.scoreboard = on, simt.rf_banks = 1 (every register of
 * the warp in one bank: one read per cycle), issue width 1.
 * Both: slots 0, 1 read nothing: issued and dispatched at 6, 7 (complete
 * 7, 8). Slot 2 at 8 reads r1 at 8, r8 at 9 (lowest register first):
 * dispatched 9, completes 10. At 9 the bnz waits for r2 (S4 (a): its
 * writer is not even dispatched): execute. The bnz at 10 reads r2 at 10,
 * completes 11: {0,2}@4 and {1,3}@6, barrier (8, 0xf); the tie goes to the
 * lower slot: slot 4 for {0,2} at 11 (r1 read at 11, r8 pending).
 * Collectors = 2: at 12 {0,2} waits for its collector (its r8 read) — with
 * the scoreboard it issues nothing while its own instruction is in one —
 * and {1,3} issues slot 6 (a collector is free); the bank serves {0,2}'s r8
 * first (issued earlier): dispatched 12, {1,3}'s r8 waits. 13: {1,3} waits
 * for its collector, {0,2} issues slot 5 (the bank serves {1,3}'s r8:
 * dispatched 13, completes 14; {0,2}'s r8 waits). 14: {0,2}'s bnz is in a
 * collector, {1,3} issues slot 7 (r9 written at 14; the bank serves
 * {0,2}'s r8: its bnz completes at 15; slot 7's r9 waits). 15: {0,2}
 * reaches 8 and {1,3} is there since 14: the barrier completes, one group
 * at 8 whose ready waits for slot 7 (S4 (d): read r9 at 15, dispatched 15,
 * completes 16): execute. 16: ready (completes 17): the lanes finish at
 * 17, the task completes at 18. 9 issues, resident 11: execute at 9, 15.
 * Collectors = 1: at 12 {1,3} may issue by S3/S4 but the only collector
 * holds {0,2}'s slot 4 (dispatched at 12, free for an issue at 13): the
 * warp stalls for collector. 13: {0,2} issued last and may: slot 5 (r8
 * read at 13, completes 14); 14: {0,2}'s bnz completes at 14 (it waits at
 * 8), {1,3} issues slot 6 (dispatched 14, completes 15), 15 slot 7
 * (completes 16): the barrier completes at 15 at its issue; ready at 16,
 * finish 17, completion 18. Stalls: execute 9, collector 12. */
static void test_collector_per_group(void)
{
    gpu_desc_t d = simt(true);
    d.simt_scoreboard = true;
    d.simt_collectors = 2;
    d.simt_rf_banks = 1;
    h_run_t *r = run(COLLECT, &d);
    static const unsigned two[][3] = {{6, 0, 0xf},  {7, 1, 0xf},  {8, 2, 0xf},
                                      {10, 3, 0xf}, {11, 4, 0x5}, {12, 6, 0xa},
                                      {13, 5, 0x5}, {14, 7, 0xa}, {16, 8, 0xf}};
    assert_issues(r, 1, two, 9);
    for (unsigned l = 0; l < 4; l++)
        h_assert_lane(r, 1, l, C(17), 7);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(18));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 11);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 2);
    CU_ASSERT_EQUAL(w->stall_cycles[COL], 0);
    CU_ASSERT_EQUAL(w->barriers, 1);
    h_free(r);

    d.simt_collectors = 1;
    r = run(COLLECT, &d);
    static const unsigned one[][3] = {{6, 0, 0xf},  {7, 1, 0xf},  {8, 2, 0xf},
                                      {10, 3, 0xf}, {11, 4, 0x5}, {13, 5, 0x5},
                                      {14, 6, 0xa}, {15, 7, 0xa}, {16, 8, 0xf}};
    assert_issues(r, 1, one, 9);
    for (unsigned l = 0; l < 4; l++)
        h_assert_lane(r, 1, l, C(17), 7);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(18));
    w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 11);
    CU_ASSERT_EQUAL(w->stall_cycles[EXE], 1);
    CU_ASSERT_EQUAL(w->stall_cycles[COL], 1);
    h_free(r);
}

/* An ld under barrier mode split into LSU passes (S13): E7 with
 * sm.bank_map = interleaved (0x100 in bank 0, 0x102 in bank 2) and
 * simt.lsu_width = 1. With 16-lane units the ld of {0,2} at 10 sends both
 * requests at 10: granted 11, answered 13; slot 5 at 13, the barrier
 * completes at 14, ready 14, the task completes at 16. With lsu_width = 1
 * (no collector: dispatched at its issue, 10) pass 0 at 10 sends lane 0's
 * request (granted 11, answer 13), pass 1 at 11 lane 2's (reaches bank 2 at
 * 12, granted 12, answer 14): the ld completes at 14. {1,3} issues slots 6,
 * 7 at 11, 12 (its add on the SP unit: other kind) and waits at the barrier
 * from 13, where {0,2} waits for its ld: memory. Slot 5 at 14 (completes
 * 15: the barrier completes), ready 15, finish 16, completion 17. Resident
 * 10: 9 issued, 1 memory; the ld: 2 requests, no replay, 2 banks, issued
 * 10, done 14. */
static void test_ld_in_lsu_passes(void)
{
    gpu_desc_t d = simt(true);
    d.bank_map = GPU_MAP_INTERLEAVED;
    h_run_t *r = run(E7, &d);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(16));
    h_free(r);

    d.simt_lsu_width = 1;
    r = run(E7, &d);
    static const unsigned want[][3] = {{6, 0, 0xf},  {7, 1, 0xf},  {8, 2, 0xf},
                                       {9, 3, 0xf},  {10, 4, 0x5}, {11, 6, 0xa},
                                       {12, 7, 0xa}, {14, 5, 0x5}, {15, 8, 0xf}};
    assert_issues(r, 1, want, 9);
    for (unsigned l = 0; l < 4; l++)
        h_assert_lane(r, 1, l, C(16), 7);
    CU_ASSERT_EQUAL(r->frames[1].complete_ps, C(17));
    const gpu_tr_simt_warp_t *w = h_warp_of(r, 1);
    CU_ASSERT_EQUAL(w->resident_cycles, 10);
    CU_ASSERT_EQUAL(w->stall_cycles[MEM], 1);
    CU_ASSERT_EQUAL(r->n_mems, 1);
    if (r->n_mems == 1) {
        CU_ASSERT_EQUAL(r->mems[0].requests, 2);
        CU_ASSERT_EQUAL(r->mems[0].replays, 0);
        CU_ASSERT_EQUAL(r->mems[0].banks, 2);
        CU_ASSERT_EQUAL(r->mems[0].issue_ps, C(10));
        CU_ASSERT_EQUAL(r->mems[0].done_ps, C(14));
    }
    h_free(r);
}

/* --- random lock programs (D16) ------------------------------------------------------ */

/* A random program of lock sequences: 1-4 groups (fence=no) on random lane
 * masks, each task looping K = (id & 3) + 1 times (lanes leave the loop at
 * different iterations: divergence, barriers) over one critical section:
 * ld_sync of a lock byte (0x020 or 0x021), ld/add/st of a counter byte
 * (0x130 or 0x131) by the lane's id, st_sync.
 * The counters' final values are sums: they do not depend on the order the
 * lanes take the lock. */
static void lock_program(char *src, size_t n, uint64_t *rs)
{
    size_t len = 0;
    unsigned groups = 1 + (unsigned)(test_rand(rs) % 4);
    for (unsigned g = 0; g < groups; g++) {
        unsigned mask = (unsigned)(test_rand(rs) & 0xffff);
        mask = mask ? mask : 0x3;
        unsigned lock = 0x20 + (unsigned)(test_rand(rs) % 2), counter = lock + 0x10;
        len += (size_t)snprintf(src + len, n - len,
                                ".group cores=0x%04x fence=no\n"
                                " set_const r8, 0x40\n set_const r10, 0x%02x\n"
                                " set_const r11, 0x%02x\n set_const r14, 1\n"
                                " set_const r2, id\n set_const r15, 3\n"
                                " and r2, r15, r13\n add r13, r14, r13\n"
                                "loop:\n ld [r10, r8], r3\n ld [r11, r14], r4\n"
                                " add r4, r2, r4\n st [r11, r14], r4\n st [r10, r8], r3\n"
                                " sub r13, r14, r13\n bnz loop, r13\n ready\n",
                                mask, lock, counter);
    }
}

/* Random lock programs: under the stack a warp of two lanes or more
 * deadlocks on its own lock (S9); under barriers every run completes, with
 * the MIMD run's final Shared Memory and per-lane instruction counts, under
 * every scheduler × scoreboard × broadcast and issue widths 1-3, half of
 * them with collectors (S12) and narrow units (S13). */
static void test_random_lock_programs(void)
{
    uint64_t rs = 2828;
    unsigned bad = 0, deadlocks = 0;
    for (unsigned i = 0; i < 60; i++) {
        char src[4096];
        lock_program(src, sizeof src, &rs);
        gpu_desc_t m = h_desc(timing_mode, false);
        m.atomics = true;
        h_run_t *a = run(src, &m);
        gpu_desc_t d = simt(false);
        d.atomics = true;
        d.simt_scheduler = (uint8_t)(i % 3);
        d.simt_scoreboard = (i / 3) & 1;
        d.simt_broadcast = (i / 6) & 1;
        d.simt_issue_width = (uint8_t)(1 + i % 3);
        if (i % 2) { /* S12, S13 per group: collectors 0-4 over 1-4 banks, narrow units */
            static const uint8_t widths[] = {1, 2, 4, 8, 16};
            d.simt_collectors = (uint8_t)(i / 2 % 5);
            d.simt_rf_banks = (uint8_t)(1 + i / 3 % 4);
            d.simt_sp_width = widths[i / 4 % 5];
            d.simt_sfu_width = widths[i / 5 % 5];
            d.simt_lsu_width = widths[i / 7 % 5];
        }
        h_run_t *s = h_run_src(src, &d);
        deadlocks += s->outcome == GPU_STUCK;
        d.simt_reconvergence = GPU_RECONV_BARRIER;
        h_run_t *b = run(src, &d);
        bool ok = b->outcome == GPU_DONE && memcmp(a->arch.sm, b->arch.sm, SM_BYTES) == 0 &&
                  b->n_tasks == a->n_tasks;
        for (size_t t = 0; ok && t < a->n_tasks; t++) {
            const gpu_tr_core_task_t *x = h_task(b, a->tasks[t].frame, a->tasks[t].core);
            ok = x && x->instructions == a->tasks[t].instructions;
        }
        for (size_t w = 0; ok && w < b->n_warps; w++)
            ok = b->warps[w].complete;
        if (!ok)
            fprintf(stderr, "lock program %u differs from MIMD:\n%s\n", i, src);
        bad += !ok;
        h_free(a);
        h_free(s);
        h_free(b);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(deadlocks >= 50); /* nearly every program has a warp of two lanes or more */
}

/* --- the key ---------------------------------------------------------------------- */

/* simt.reconvergence: stack or barrier, anything else an error naming the
 * key; barrier with simt.ibuffer >= 1 refused naming both keys (S14), with
 * core.model = simt only; with collectors and narrow units accepted. */
static void test_key(void)
{
    char args[1024], *out = NULL;
    const char *first = test_src_path("examples/first.s");
    snprintf(args, sizeof args, "run %s --no-db -s core.model=simt -s simt.reconvergence=tree",
             first);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 2);
    CU_ASSERT(out && strstr(out, "simt.reconvergence"));
    free(out);
    snprintf(args, sizeof args,
             "run %s --no-db -s core.model=simt -s simt.reconvergence=barrier -s simt.ibuffer=2",
             first);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 2);
    CU_ASSERT(out && strstr(out, "simt.reconvergence"));
    CU_ASSERT(out && strstr(out, "simt.ibuffer"));
    free(out);
    /* the operand collector and narrow units apply per group (S14): accepted */
    snprintf(args, sizeof args,
             "run %s --no-db -s core.model=simt -s simt.reconvergence=barrier -s simt.collectors=2 "
             "-s simt.lsu_width=4",
             first);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    /* the mimd machine has no warp: the combination means nothing there */
    snprintf(args, sizeof args, "run %s --no-db -s simt.reconvergence=barrier -s simt.ibuffer=2",
             first);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    gpu_desc_t d = simt(true);
    d.simt_ibuffer = 1;
    diag_t diag = {0};
    CU_ASSERT_NOT_EQUAL(gpu_desc_check(&d, &diag), TESS_OK);
    d.simt_reconvergence = GPU_RECONV_COUNT;
    d.simt_ibuffer = 0;
    CU_ASSERT_NOT_EQUAL(gpu_desc_check(&d, &diag), TESS_OK);
}

static const test_case_t cases[] = {
    TEST(test_e7),
    TEST(test_e8),
    TEST(test_two_barriers_at_one_slot),
    TEST(test_loop_lanes_exit_at_different_iterations),
    TEST(test_two_warps_gto),
    TEST(test_ld_sync_three_lanes),
    TEST(test_ready_inside_a_diverged_path),
    TEST(test_collector_per_group),
    TEST(test_ld_in_lsu_passes),
    TEST(test_random_lock_programs),
    TEST_END,
};

static const test_case_t once[] = {
    TEST(test_e8_recorded),
    TEST(test_waits_recorded),
    TEST(test_key),
    TEST_END,
};

int main(void)
{
    int rc = 0;
    const test_suite_t decoupled[] = {{"simt barrier (decoupled)", cases},
                                      {"simt barrier (records, keys)", once},
                                      {NULL, NULL}};
    const test_suite_t stepped[] = {{"simt barrier (stepped)", cases}, {NULL, NULL}};
    timing_mode = GPU_TIMING_DECOUPLED;
    rc |= test_run_suites(decoupled);
    timing_mode = GPU_TIMING_STEPPED;
    rc |= test_run_suites(stepped);
    return rc;
}

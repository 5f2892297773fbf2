/* test_views.c — the analysis views (analysis/store/views.c, docs/SCHEMA.md
 * "Analysis views") on databases recorded by running real programs through
 * the `tessera` command. Each view is compared with values computed by hand
 * from the reference timing model (spec §6, defaults: cycle 1000 ps, decode
 * 1, transfer 4, READY 1, alu 1, sm req/bank/resp 1/1/1); the reasoning is
 * written next to the assertions, in cycles. Also: every waiting cycle of
 * every frame of every example is attributed to a reason, the views agree
 * with the raw tables they summarise, the percentiles follow the
 * nearest-rank method, old files migrate, and a view filtered on run_id
 * does not grow with the other runs of the file. */
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/recorder/rec.h"
#include "analysis/store/schema.h"
#include "analysis/store/views.h"
#include "events/base/err.h"
#include "analysis/store/db.h"
#include "tests/harness.h"
#include "tests/simt_programs.h"
#include "tessera_names.h" /* the model's counters and units (cmake/gen-names.c) */
#include "tests/testutil.h"

#define C(n) ((long long)(n) * 1000) /* cycles → ps */

/* --- recording ------------------------------------------------------------------- */


/* Writes `src` to a .s file and records it (one run); expects exit 0. */
static void record_src(const char *db, const char *name, const char *src, const char *opts)
{
    const char *path = test_tmp_path(name);
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, src, strlen(src)), 0);
    CU_ASSERT_EQUAL_FATAL(test_record(db, path, opts), 0);
}

/* --- reading back ------------------------------------------------------------------ */


/* The many queries below, by short names (testutil.h). */
#define rows test_q_rows
#define q_int test_q_int

#define TL_COLS "frame, decode_start_ps, decode_ps, issue_ps, start_ps, complete_ps," \
                " decoding_ps, waiting_ps, transfer_ps, execution_ps, total_ps"

/* --- task_latency ------------------------------------------------------------------ */

/* §6 worked example: CF0 decode [0,1) takes effect at 1; IF1 decode [1,2),
 * issued at 2, transfer [2,6), set_const [6,7), ready [7,8), READY at 9.
 *   decoding 1, waiting 2-2 = 0, transfer 6-2 = 4, execution 9-6 = 3,
 *   total 9-1 = 8 cycles (the IF's decode starts at 1; the run, counted
 *   from the CF's decode at 0, ends at 9: run_summary.end_ps = 9000). */
static void test_task_latency_worked_example(void)
{
    char db[512];
    test_fresh_path("worked.db", db, sizeof db);
    record_src(db, "worked.s", ".group cores=0x1\n set_const r8, 1\n ready\n", NULL);
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT " TL_COLS " FROM task_latency WHERE run_id = 1"),
                           "1,1000,2000,2000,6000,9000,1000,0,4000,3000,8000");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT decoding_cycles, waiting_cycles, transfer_cycles,"
                                    " execution_cycles, total_cycles, grp, mask, mask_hex,"
                                    " fence, complete FROM task_latency"),
                           "1,0,4,3,8,0,1,0001,no,1");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT end_ps, end_cycles, tasks, frames, core_tasks,"
                                    " instructions, sm_accesses, conflicts, waiting_ps"
                                    " FROM run_summary"),
                           "9000,9,1,2,1,2,0,0,0");
    /* one core busy from its start (6) to READY sent (8): 2 of 9 cycles */
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT core, tasks, busy_ps, busy_cycles, instructions,"
                                    " sm_wait_ps, abs(share - 2.0 / 9) < 1e-12"
                                    " FROM core_utilization WHERE tasks > 0"),
                           "0,1,2000,2,2,0,1");
    CU_ASSERT_EQUAL(q_int(db, "SELECT abs(mean_parallelism - 2.0 / 9) < 1e-12 FROM run_summary"),
                    1);
    /* the step function: 1 core busy [6,8), none [8,9) (until the end) */
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT time_ps, active_cores, until_ps, duration_ps"
                                    " FROM parallelism ORDER BY time_ps"),
                           "6000,1,8000,2000;8000,0,9000,1000");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT tasks, min_ps, p50_ps, p95_ps, p99_ps, max_ps,"
                                    " p50_cycles FROM task_latency_percentiles"),
                           "1,8000,8000,8000,8000,8000,8");
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM fence_stalls"), 0);
}

/* Example 1 (figure 2, CF0 fence acq), in cycles:
 *   frame decode      issue start complete │ decoding waiting transfer exec total
 *   IF1   [1,2)        2     6     9       │ 1        0       4        3    8
 *   IF2   [2,3)        9    13    16       │ 1        6 mask  4        3   14
 *   IF3   [9,10)      16    20    23       │ 1        6 mask  4        3   14
 *   IF4   [16,17)     23    27    30       │ 1        6 mask  4        3   14
 *   CF5   [23,24)     30 (acq: IF4 completes)   waiting 6 acq
 *   IF6   [30,31)     31    35    38       │ 1        0       4        3    8
 *   IF7   [31,32)     38    42    45       │ 1        6 mask  4        3   14 */
static void test_task_latency_example1(void)
{
    char db[512];
    test_fresh_path("ex1.db", db, sizeof db);
    record_src(db, "ex1.s", h_example_src("acq"), NULL);
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT frame, decode_start_ps / 1000, decode_ps / 1000, issue_ps / 1000,"
                 " start_ps / 1000, complete_ps / 1000, decoding_cycles, waiting_cycles,"
                 " transfer_cycles, execution_cycles, total_cycles"
                 " FROM task_latency WHERE run_id = 1 ORDER BY frame"),
        "1,1,2,2,6,9,1,0,4,3,8;2,2,3,9,13,16,1,6,4,3,14;3,9,10,16,20,23,1,6,4,3,14;"
        "4,16,17,23,27,30,1,6,4,3,14;6,30,31,31,35,38,1,0,4,3,8;7,31,32,38,42,45,1,6,4,3,14");
    /* waiting per frame and reason (cycles): the CF waits for acq */
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT frame, kind, waiting_cycles, mask_cycles, acq_cycles, bus_cycles,"
                 " unattributed_ps FROM frame_stalls WHERE waiting_ps > 0 ORDER BY frame"),
        "2,IF,6,6,0,0,0;3,IF,6,6,0,0,0;4,IF,6,6,0,0,0;5,CF,6,0,6,0,0;7,IF,6,6,0,0,0");
    /* mask: 4 stalls of 6 = 24 cycles (0.8 of all waiting); acq: 6 (0.2) */
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT reason, stalls, frames, total_ps, total_cycles, max_cycles,"
                 " round(share, 12) FROM fence_stalls WHERE run_id = 1 ORDER BY reason"),
        "acq,1,1,6000,6,6,0.2;mask,4,4,24000,24,6,0.8");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT end_cycles, waiting_cycles FROM run_summary"),
                           "45,30");
    /* totals 8, 14, 14, 14, 8, 14 → sorted 8 8 14 14 14 14; nearest rank of
     * n = 6: p50 = #3 = 14, p95 = #6, p99 = #6; mean 72 / 6 = 12 cycles */
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT tasks, min_cycles, p50_cycles, p95_cycles,"
                                    " p99_cycles, max_cycles, mean_ps"
                                    " FROM task_latency_percentiles WHERE run_id = 1"),
                           "6,8,14,14,14,14,12000.0");
}

/* Example 2 (figure 3, CF0 fence no), inorder: as example 1 up to IF4.
 *   CF5 [23,24) takes effect at 24 (nothing acq before it): waiting 0
 *   IF6 [24,25), the bus carries IF4 until 27: waiting 2 bus; start 31,
 *       complete 34: total 34 - 24 = 10
 *   IF7 [27,28), mask (IF6) until 34: waiting 6; start 38, complete 41: 14
 * Cores 0-3, 8-11 run 4 tasks of 2 cycles (8 busy), cores 4-7, 12-15 two
 * (4 busy): mean parallelism (8*8 + 8*4) / 41 = 96 / 41. */
static void test_example2_views(void)
{
    char db[512];
    test_fresh_path("ex2.db", db, sizeof db);
    record_src(db, "ex2.s", h_example_src("no"), NULL);
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT frame, waiting_cycles, total_cycles FROM task_latency"
                 " WHERE frame >= 6 ORDER BY frame"),
        "6,2,10;7,6,14");
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT reason, stalls, frames, total_cycles FROM fence_stalls"
                 " ORDER BY total_ps DESC"),
        "mask,4,4,24;bus,1,1,2");
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT frame, waiting_ps, bus_ps, mask_ps FROM frame_stalls"
                 " WHERE frame IN (5, 6, 7) ORDER BY frame"),
        "5,0,0,0;6,2000,2000,0;7,6000,0,6000");
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT group_concat(core || ':' || tasks || ':' || busy_cycles, ' ')"
                 " FROM (SELECT * FROM core_utilization ORDER BY core)"),
        "0:4:8 1:4:8 2:4:8 3:4:8 4:2:4 5:2:4 6:2:4 7:2:4 8:4:8 9:4:8 10:4:8 11:4:8 "
        "12:2:4 13:2:4 14:2:4 15:2:4");
    CU_ASSERT_EQUAL(q_int(db, "SELECT abs(mean_parallelism - 96.0 / 41) < 1e-12"
                              " FROM run_summary"), 1);
    /* 8 cores busy for 2 cycles from each start: 6, 13, 20, 27, 31, 38 */
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT group_concat((time_ps / 1000) || ':' || active_cores, ' ')"
                 " FROM (SELECT * FROM parallelism ORDER BY time_ps)"),
        "6:8 8:0 13:8 15:0 20:8 22:0 27:8 29:0 31:8 33:0 38:8 40:0");
    CU_ASSERT_EQUAL(q_int(db, "SELECT until_ps FROM parallelism ORDER BY time_ps DESC"), C(41));
    /* totals 8, 14, 14, 14, 10, 14 → sorted 8 10 14 14 14 14: p50 = #3 = 14 */
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT min_cycles, p50_cycles, p95_cycles, max_cycles"
                                    " FROM task_latency_percentiles"), "8,14,14,14");
}

/* --- banks ---------------------------------------------------------------------------- */

/* Two cores, bank conflicts on bank 0 (fixed arbiter, sm.bank 1 cycle):
 *   c0: set_const [6,7); ld 0x000 (bank 0): request 7, arrive 8, grant 8,
 *       answer 10; ld 0x000: request 10, arrive 11, grant 11, answer 13;
 *       ready [13,14): READY sent 14
 *   c1: ld 0x100 (bank 1): granted 8, answer 10; ld 0x000 arrives at 11,
 *       loses to c0, granted 12 (waited 1), answer 14; READY sent 15, at 16.
 * bank 0: 3 accesses, 1 waited 1 cycle, busy 3 of 16 cycles; bank 1: 1. */
static const char *pair_src = ".group cores=0x3\n set_const r2, id\n ld [r1, r2], r3\n"
                              " ld [r1, r4], r3\n ready\n";

static void check_pair_banks(const char *db)
{
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT bank, accesses, conflicts, wait_ps, wait_cycles, max_wait_ps,"
                 " max_wait_cycles, round(mean_wait_ps, 6), mean_conflict_wait_ps,"
                 " round(conflict_share, 12) FROM bank_conflicts WHERE run_id = 1"
                 " AND accesses > 0 ORDER BY bank"),
        "0,3,1,1000,1,1000,1,333.333333,1000.0,0.333333333333;1,1,0,0,0,0,0,0.0,NULL,0.0");
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT bank, accesses, busy_ps, busy_cycles, share * 16"
                 " FROM bank_utilization WHERE run_id = 1 AND accesses > 0 ORDER BY bank"),
        "0,3,3000,3,3.0;1,1,1000,1,1.0");
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM bank_conflicts WHERE run_id = 1"), 16);
    /* c0 busy 6..14 = 8 cycles, SM wait 3 + 3; c1 6..15 = 9, 3 + 4 (1 conflict) */
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT core, busy_cycles, instructions, sm_ops, sm_wait_cycles,"
                 " sm_conflict_cycles FROM core_utilization WHERE tasks > 0 ORDER BY core"),
        "0,8,4,2,6,0;1,9,4,2,7,1");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT end_cycles, sm_accesses, conflicts, conflict_ps,"
                                    " conflict_cycles FROM run_summary"), "16,4,1,1000,1");
}

static void test_bank_conflicts_two_cores_one_bank(void)
{
    char db[512];
    test_fresh_path("pair.db", db, sizeof db);
    record_src(db, "pair.s", pair_src, NULL);
    check_pair_banks(db);
    /* the same from the accesses (the documented cross-check) */
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT bank, count(*), sum(wait_ps > 0), sum(wait_ps), max(wait_ps)"
                 " FROM sm_accesses WHERE run_id = 1 GROUP BY bank ORDER BY bank"),
        "0,3,1,1000,1000;1,1,0,0,0");
    /* access latencies (done - request): 3, 3 (c0); 3, 4 (c1): p50 = #2 = 3,
     * p95 = #ceil(3.8) = #4 = 4; mean 13 / 4 = 3.25 cycles */
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT latency_ps, accesses FROM sm_latency_histogram"
                                    " ORDER BY latency_ps"), "3000,3;4000,1");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT accesses, min_ps, p50_ps, p95_ps, p99_ps, max_ps,"
                                    " mean_ps FROM sm_latency_percentiles"),
                           "4,3000,3000,4000,4000,4000,3250.0");
    /* at level tasks nothing per access is recorded: the counters still are */
    char db2[512];
    test_fresh_path("pair-tasks.db", db2, sizeof db2);
    record_src(db2, "pair.s", pair_src, "-s record.level=tasks");
    check_pair_banks(db2);
    CU_ASSERT_EQUAL(q_int(db2, "SELECT count(*) FROM sm_latency_percentiles"), 0);
}

/* A queue on bank 0 (sm.bank = 4 cycles, fixed arbiter; test_timing.c):
 * cores 0, 1, 2 each ld twice from address 0; grants c0 7, c1 11, c0 15,
 * c1 19, c2 23, c2 29, answers at grant + 5.
 *   waits (grant - arrive): c0 0, 2; c1 4, 2; c2 16, 0 → 4 conflicts,
 *   24 cycles, max 16; the bank is busy 6 × 4 = 24 of 36 cycles.
 *   latency (done - request): c0 12-6 = 6, 20-12 = 8; c1 16-6 = 10,
 *   24-16 = 8; c2 28-6 = 22, 34-28 = 6 → sorted 6 6 8 8 10 22:
 *   p50 = #3 = 8, p95 = #6 = 22, p99 = 22, mean 60 / 6 = 10. */
static void test_bank_queue_latency_percentiles(void)
{
    char db[512];
    test_fresh_path("queue.db", db, sizeof db);
    record_src(db, "queue.s", ".group cores=0x7\n ld [r1, r2], r3\n ld [r1, r2], r3\n ready\n",
               "-s sm.bank=4");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT accesses, conflicts, wait_cycles, max_wait_cycles"
                                    " FROM bank_conflicts WHERE bank = 0"), "6,4,24,16");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT busy_cycles, round(share, 12) FROM"
                                    " bank_utilization WHERE bank = 0"), "24,0.666666666667");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT accesses, min_cycles, p50_cycles, p95_cycles,"
                                    " p99_cycles, max_cycles, mean_ps"
                                    " FROM sm_latency_percentiles"), "6,6,8,22,22,22,10000.0");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT group_concat((latency_ps / 1000) || 'x' || accesses,"
                                    " ' ') FROM (SELECT * FROM sm_latency_histogram"
                                    " ORDER BY latency_ps)"), "6x2 8x2 10x1 22x1");
}

/* --- every example: the views agree with the raw tables ------------------------------ */

static char examples_db[512];

/* Every example under both issue policies, plus runs that exercise the
 * access packs' radices (latency distributions), the interleaved map and
 * the stepped timing mode. Recorded once, used by the tests below. */
static const char *examples(void)
{
    static const char *const names[] = {"example1", "example2", "histogram", "lock",
                                        "matadd", "matmul", "matmul4", "prefix", "prodcons",
                                        "reduce", "transpose", "vecadd"};
    static const char *const opts[] = {
        "-s ts.policy=inorder", "-s ts.policy=lookahead -s ts.window=8",
        ("-s sm.req=uniform:1..3 -s sm.bank=uniform:1..2 -s sm.resp=uniform:1..4"
         " -s sm.arbiter=random -s sm.bank_map=interleaved"),
        "-s core.timing=stepped -s sm.arbiter=rr"};
    if (examples_db[0])
        return examples_db;
    test_fresh_path("examples.db", examples_db, sizeof examples_db);
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            char prog[256];
            snprintf(prog, sizeof prog, "examples/%s.s", names[i]);
            CU_ASSERT_EQUAL(test_record(examples_db, test_src_path(prog), opts[k]), 0);
        }
    return examples_db;
}

/* Every waiting cycle of every frame is attributed: for each frame, the
 * stall intervals (other than decoding) lie within [decode end, issue) and
 * add up to issue - decode end exactly — checked on the raw stalls table,
 * then through frame_stalls, fence_stalls and the counters. */
static void test_every_waiting_cycle_attributed(void)
{
    const char *db = examples();
    CU_ASSERT(q_int(db, "SELECT count(*) FROM frames WHERE issue_ps > decode_ps") > 50);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM frames AS f WHERE f.complete AND"
                              " f.issue_ps - f.decode_ps IS NOT (SELECT coalesce(sum(s.to_ps"
                              " - s.from_ps), 0) FROM stalls AS s WHERE s.run_id = f.run_id"
                              " AND s.frame = f.frame AND s.reason <> 'decode'"
                              " AND s.from_ps >= f.decode_ps AND s.to_ps <= f.issue_ps)"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM stalls AS s JOIN frames AS f"
                              " USING (run_id, frame) WHERE s.reason <> 'decode'"
                              " AND (s.from_ps < f.decode_ps OR s.to_ps > f.issue_ps)"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM frame_stalls WHERE unattributed_ps <> 0"
                              " OR waiting_ps <> mask_ps + acq_ps + rel_ps + bus_ps"
                              " + order_ps"), 0);
    /* per IF, task_latency's waiting is frame_stalls' */
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM task_latency AS t JOIN frame_stalls AS s"
                              " USING (run_id, frame) WHERE t.waiting_ps IS NOT s.waiting_ps"),
                    0);
    /* per run and reason, fence_stalls = the TS counters stall_<reason>_ps */
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM counters AS c"
                              " WHERE c.component = '" GEN_UNIT_TS "'"
                              " AND c.name GLOB '" GEN_CTR_TS_STALL_GLOB "'"
                              " AND c.name <> '" GEN_CTR_TS_STALL_DECODE "'"
                              " AND c.value <> coalesce((SELECT total_ps FROM fence_stalls AS f"
                              " WHERE f.run_id = c.run_id AND '" GEN_CTR_TS_STALL_PREFIX "'"
                              " || f.reason || '" GEN_CTR_TS_STALL_SUFFIX "' = c.name), 0)"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM run_summary AS r WHERE waiting_ps <>"
                              " (SELECT coalesce(sum(waiting_ps), 0) FROM frame_stalls AS f"
                              " WHERE f.run_id = r.run_id)"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM (SELECT run_id, sum(share) AS s"
                              " FROM fence_stalls GROUP BY run_id) WHERE abs(s - 1) > 1e-9"), 0);
}

/* core_utilization and run_summary (from the counters) against core_tasks,
 * parallelism against both. */
static void test_cores_and_parallelism_agree(void)
{
    const char *db = examples();
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM core_utilization AS u WHERE"
                              " (u.tasks, u.busy_ps, u.instructions, u.sm_ops, u.sm_wait_ps,"
                              "  u.sm_conflict_ps) IS NOT (SELECT count(*), coalesce(sum("
                              "  finish_ps - start_ps), 0), coalesce(sum(instructions), 0),"
                              "  coalesce(sum(sm_ops), 0), coalesce(sum(sm_wait_ps), 0),"
                              "  coalesce(sum(sm_conflict_ps), 0) FROM core_tasks AS t"
                              "  WHERE t.run_id = u.run_id AND t.core = u.core)"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM core_utilization"
                              " WHERE share < 0 OR share > 1"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM core_utilization"), 16 * 48);
    /* the time-weighted mean of the step function is the summary's mean */
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM run_summary AS r WHERE abs(r.mean_parallelism"
                              " - (SELECT 1.0 * sum(active_cores * duration_ps) / r.end_ps"
                              " FROM parallelism AS p WHERE p.run_id = r.run_id)) > 1e-9"), 0);
    /* at each change point, the cores whose task runs then */
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM parallelism AS p WHERE active_cores <>"
                              " (SELECT count(*) FROM core_tasks AS t WHERE t.run_id = p.run_id"
                              " AND t.start_ps <= p.time_ps AND p.time_ps < t.finish_ps)"), 0);
    /* change points only: consecutive values differ */
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM (SELECT active_cores, lag(active_cores)"
                              " OVER (PARTITION BY run_id ORDER BY time_ps) AS prev"
                              " FROM parallelism) WHERE active_cores = prev"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM run_summary AS r WHERE (r.tasks, r.frames,"
                              " r.core_tasks) IS NOT ((SELECT count(*) FROM frames AS f WHERE"
                              " f.run_id = r.run_id AND f.kind = 'IF'), (SELECT count(*) FROM"
                              " frames AS f WHERE f.run_id = r.run_id), (SELECT count(*) FROM"
                              " core_tasks AS t WHERE t.run_id = r.run_id))"), 0);
}

/* bank_conflicts and bank_utilization (from the counters) against the
 * accesses; the access-latency histogram (read from the packs) against
 * done - request of every access. */
static void test_banks_and_sm_latency_agree(void)
{
    const char *db = examples();
    CU_ASSERT(q_int(db, "SELECT count(*) FROM sm_access_packs WHERE wait_n > 1 AND"
                        " arrive_n > 1 AND done_n > 1") > 0); /* the radices are exercised */
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM bank_conflicts AS b WHERE"
                              " (b.accesses, b.conflicts, b.wait_ps, b.max_wait_ps) IS NOT"
                              " (SELECT count(*), coalesce(sum(wait_ps > 0), 0),"
                              " coalesce(sum(wait_ps), 0), coalesce(max(wait_ps), 0)"
                              " FROM sm_accesses AS a WHERE a.run_id = b.run_id"
                              " AND a.bank = b.bank)"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM bank_utilization AS b JOIN runs AS r"
                              " USING (run_id) WHERE b.busy_ps > r.end_ps"), 0);
    const char *hist = "SELECT run_id, done_ps - request_ps AS l, count(*) FROM sm_accesses"
                       " GROUP BY 1, 2";
    char sql[1024];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM (%s EXCEPT SELECT * FROM"
                              " sm_latency_histogram)", hist);
    CU_ASSERT_EQUAL(q_int(db, "%s", sql), 0);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM (SELECT * FROM sm_latency_histogram"
                              " EXCEPT %s)", hist);
    CU_ASSERT_EQUAL(q_int(db, "%s", sql), 0);
    CU_ASSERT(q_int(db, "SELECT count(*) FROM sm_latency_histogram") > 48);
}

/* The nearest-rank percentile of n sorted values: the value of rank
 * ceil(p * n / 100). Computed here in C from the raw rows. */
static void check_percentiles(const char *db, long long run, const char *values_sql,
                              const char *view)
{
    char sql[512];
    snprintf(sql, sizeof sql, values_sql, run);
    sqlite3 *h = test_db_open(db);
    sqlite3_stmt *st = test_db_prepare(h, sql);
    long long *v = NULL;
    size_t n = 0, cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            v = realloc(v, cap * sizeof *v);
            CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        }
        v[n++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    if (n == 0) {
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM %s WHERE run_id = %lld", view, run), 0);
        return;
    }
    static const int p[3] = {50, 95, 99};
    static const char *const col[3] = {"p50_ps", "p95_ps", "p99_ps"};
    for (int k = 0; k < 3; k++) {
        size_t rank = ((size_t)p[k] * n + 99) / 100;
        long long got = q_int(db, "SELECT %s FROM %s WHERE run_id = %lld", col[k], view, run);
        if (got != v[rank - 1])
            fprintf(stderr, "run %lld %s %s: %lld, expected %lld (n %zu)\n", run, view, col[k],
                    got, v[rank - 1], n);
        CU_ASSERT_EQUAL(got, v[rank - 1]);
    }
    CU_ASSERT_EQUAL(q_int(db, "SELECT min_ps FROM %s WHERE run_id = %lld", view, run), v[0]);
    CU_ASSERT_EQUAL(q_int(db, "SELECT max_ps FROM %s WHERE run_id = %lld", view, run), v[n - 1]);
    free(v);
}

static void test_percentiles_nearest_rank(void)
{
    const char *db = examples();
    long long runs = q_int(db, "SELECT count(*) FROM runs");
    CU_ASSERT_EQUAL(runs, 48);
    for (long long r = 1; r <= runs; r++) {
        check_percentiles(db, r, "SELECT total_ps FROM task_latency WHERE run_id = %lld AND"
                                 " complete ORDER BY total_ps", "task_latency_percentiles");
        check_percentiles(db, r, "SELECT done_ps - request_ps FROM sm_accesses WHERE"
                                 " run_id = %lld ORDER BY 1", "sm_latency_percentiles");
    }
}

/* --- stopped runs, versions, cost, the documentation -------------------------------- */

/* A watchdog stop (budget 100): IF1 was issued at 2 and started at 6 but
 * never completed: its later parts are NULL (not reached), it counts in no
 * percentile, and its core's unfinished task adds no busy time. */
static void test_stopped_run_partial_records(void)
{
    char db[512];
    test_fresh_path("stopped.db", db, sizeof db);
    const char *path = test_tmp_path("loop.s");
    const char *src = ".group cores=0x4\n set_const r8, 1\nloop:\n bnz loop, r8\n";
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, src, strlen(src)), 0);
    CU_ASSERT_EQUAL(test_record(db, path, "-s core.budget=100"), TESS_EWATCHDOG);
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT complete, issue_ps, start_ps, complete_ps,"
                                    " waiting_ps, transfer_ps, execution_ps, total_ps,"
                                    " total_cycles FROM task_latency"),
                           "0,2000,6000,NULL,0,4000,NULL,NULL,NULL");
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM task_latency_percentiles"), 0);
    /* busy up to the stop: 100 instructions of 1 cycle from 6000 ps */
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT tasks, busy_ps, instructions FROM core_utilization"
                                    " WHERE core = 2"), "1,100000,100");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT status, tasks, instructions FROM run_summary"),
                           "watchdog,1,100");
    /* core 2 still busy when the run stopped: the last change point is open */
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT time_ps, active_cores FROM parallelism"),
                           "6000,1");
}

/* One statement of downgrade() on h, asserted to succeed. */
static void down(sqlite3 *h, const char *sql)
{
    CU_ASSERT_EQUAL(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
}

/* Turns a current file into one of version `to` (1 to 14) as those
 * versions wrote it: no views (version 6 had all but latest_ok_runs; a
 * reader or a migration gives a file every view either way); below 11 the
 * SIMT ld/st, below 10 the SIMT issue port and below 9 the event log tables
 * of one row each (their rows those of the simt_mem, simt_issue and events
 * views); below 15 no simt_waits; below 14 no slot_counts and no
 * simt_warps.stall_fetch_cycles, stall_collector_cycles; below 13 no thread-group columns in
 * simt_warps; below 12 no runs.uid; below 6 no SIMT tables; below 5 no intervals; below 3
 * also no races table,
 * no runs.stop_ps, params values TEXT. Each step down is taken in turn, the
 * newest first. */
static void downgrade(const char *db, int to)
{
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
    test_db_drop_views(h);
    down(h, "DROP TABLE simt_waits");
    if (to < 14)
        down(h, "DROP TABLE slot_counts;"
                " ALTER TABLE simt_warps DROP COLUMN stall_fetch_cycles;"
                " ALTER TABLE simt_warps DROP COLUMN stall_collector_cycles");
    if (to < 13)
        down(h, "ALTER TABLE simt_warps DROP COLUMN max_groups;"
                " ALTER TABLE simt_warps DROP COLUMN barriers;"
                " ALTER TABLE simt_warps DROP COLUMN stall_barrier_cycles");
    if (to < 12)
        down(h, "ALTER TABLE runs DROP COLUMN uid");
    if (to < 11)
        down(h, "CREATE TEMP TABLE sm AS SELECT * FROM simt_mem;"
                " DROP VIEW simt_mem; DROP TABLE simt_mem_packs;"
                " CREATE TABLE simt_mem(run_id INTEGER NOT NULL REFERENCES"
                " runs ON DELETE CASCADE, frame INTEGER NOT NULL,"
                " slot INTEGER NOT NULL, op TEXT NOT NULL, lanes INTEGER,"
                " active INTEGER, requests INTEGER, replays INTEGER,"
                " banks INTEGER, issue_ps INTEGER, done_ps INTEGER);"
                " INSERT INTO simt_mem SELECT * FROM temp.sm;"
                " CREATE INDEX simt_mem_run ON simt_mem(run_id, frame);");
    if (to < 10)
        down(h, "CREATE TEMP TABLE si AS SELECT * FROM simt_issue;"
                " DROP VIEW simt_issue; DROP TABLE simt_issue_packs;"
                " DROP TABLE simt_op_names;"
                " CREATE TABLE simt_issue(run_id INTEGER NOT NULL REFERENCES"
                " runs ON DELETE CASCADE, time_ps INTEGER NOT NULL,"
                " frame INTEGER NOT NULL, slot INTEGER NOT NULL, op TEXT,"
                " ord INTEGER, depth INTEGER, eligible INTEGER,"
                " active INTEGER, mask INTEGER, lanes INTEGER);"
                " INSERT INTO simt_issue SELECT * FROM temp.si;");
    if (to < 9)
        down(h, "CREATE TEMP TABLE ev AS SELECT * FROM events; DROP VIEW events;"
                " DROP TABLE event_packs; DROP TABLE event_names;"
                " CREATE TABLE events(run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,"
                " seq INTEGER NOT NULL, time_ps INTEGER NOT NULL, prio INTEGER, name TEXT);"
                " INSERT INTO events SELECT * FROM temp.ev;"
                " CREATE INDEX events_run ON events(run_id, seq);");
    /* the relations still packed in version `to`: no views over their packs */
    if (to >= 9)
        down(h, "DROP VIEW events");
    if (to >= 10)
        down(h, "DROP VIEW simt_issue");
    if (to >= 11)
        down(h, "DROP VIEW simt_mem");
    if (to < 6)
        down(h, "DROP TABLE simt_warps; DROP TABLE simt_mem; DROP TABLE simt_issue;");
    if (to < 5)
        down(h, "DROP TABLE intervals");
    if (to < 3)
        down(h, "DROP TABLE races; ALTER TABLE runs DROP COLUMN stop_ps;"
                "CREATE TEMP TABLE p AS SELECT * FROM params; DROP TABLE params;"
                "CREATE TABLE params(run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,"
                " key TEXT NOT NULL, value TEXT);"
                "INSERT INTO params SELECT run_id, key, CAST(value AS TEXT) FROM temp.p;");
    char v[64];
    snprintf(v, sizeof v, "PRAGMA user_version = %d", to);
    down(h, v);
    sqlite3_close(h);
    if (to < 3)
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM params WHERE typeof(value) <> 'text'"),
                        0);
}

/* Every database has the views and the current schema version; a file of
 * version 1 (before the views), 2 (before typed params, stop_ps and races),
 * 3 and 4 (before intervals), 5 (before the SIMT tables), 6 (before
 * latest_ok_runs), 7 or 8 (before the packed event log), 9 (before the
 * packed SIMT issue port) or 10 (before the packed SIMT ld/st) is migrated
 * when a run is added, and read as the current version when it is not; its
 * events rows read the same before and after. */
static void test_views_in_every_database_and_migration(void)
{
    for (int from = 1; from < DB_SCHEMA_VERSION; from++) {
        char db[512], name[32];
        snprintf(name, sizeof name, "migrate%d.db", from);
        test_fresh_path(name, db, sizeof db);
        record_src(db, "one.s", ".group cores=0x1\n set_const r8, 1\n ready\n",
                   "-s record.level=events");
        CU_ASSERT_EQUAL(q_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
        char events[1024];
        snprintf(events, sizeof events, "%s", rows(db, "SELECT * FROM events ORDER BY seq"));
        CU_ASSERT(strlen(events) > 40 && strstr(events, "ts.decode") != NULL);
        for (const char *const *v = rec_view_names; *v; v++)
            CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'view'"
                                      " AND name = '%s'", *v), 1);
        downgrade(db, from);
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'view'"), 1);
        /* read without migrating (as every reader opens a file): shown as version 3 */
        diag_t d = {0};
        int64_t version = 0, n = -1;
        sqlite3 *h = db_open_read(db, &version, &d);
        if (!h)
            fprintf(stderr, "version %d: %s\n", from, d.msg);
        CU_ASSERT_PTR_NOT_NULL_FATAL(h);
        CU_ASSERT_EQUAL(version, from);
        CU_ASSERT_EQUAL(db_query_int(h, "SELECT stop_ps FROM run_summary", &n), SQLITE_OK);
        CU_ASSERT_EQUAL(n, 9000); /* the spec's cycle 9 (§6) */
        CU_ASSERT_EQUAL(db_query_int(h, "SELECT count(*) FROM run_summary WHERE sm_bank > 0",
                                     &n), SQLITE_OK);
        CU_ASSERT_EQUAL(n, 1);
        CU_ASSERT_EQUAL(db_query_int(h, "SELECT count(*) FROM races", &n), SQLITE_OK);
        CU_ASSERT_EQUAL(n, 0);
        CU_ASSERT_EQUAL(db_query_int(h, "SELECT count(*) FROM simt_warp_efficiency", &n),
                        SQLITE_OK);
        CU_ASSERT_EQUAL(n, 0);
        CU_ASSERT_EQUAL(db_query_int(h, "SELECT count(*) FROM run_summary"
                                        " WHERE core_model = 'mimd'", &n), SQLITE_OK);
        CU_ASSERT_EQUAL(n, 1);
        CU_ASSERT_EQUAL(db_query_int(h, "SELECT count(*) FROM events", &n), SQLITE_OK);
        CU_ASSERT_EQUAL(n, q_int(db, from < 9 ? "SELECT count(*) FROM main.events"
                                              : "SELECT sum(n) FROM event_packs"));
        sqlite3_close(h);
        record_src(db, "one.s", ".group cores=0x1\n set_const r8, 1\n ready\n", NULL);
        CU_ASSERT_EQUAL(q_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
        long long views = 4; /* sm_accesses, events, simt_issue, simt_mem */
        for (const char *const *v = rec_view_names; *v; v++)
            views++;
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'view'"),
                        views);
        CU_ASSERT_STRING_EQUAL(rows(db, "SELECT run_id, total_ps FROM task_latency ORDER BY run_id"),
                               "1,8000;2,8000");
        /* the old run's parameters are typed, its stop time is its end */
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM params WHERE run_id = 1"
                                  " AND typeof(value) = 'integer'"),
                        q_int(db, "SELECT count(*) FROM params WHERE run_id = 2"
                                  " AND typeof(value) = 'integer'"));
        CU_ASSERT_STRING_EQUAL(rows(db, "SELECT run_id, stop_ps, typeof(sm_bank), typeof(arbiter)"
                                        " FROM run_summary ORDER BY run_id"),
                               "1,9000,integer,text;2,9000,integer,text");
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'races'"), 1);
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'simt_warps'"),
                        1);
        CU_ASSERT_STRING_EQUAL(rows(db, "SELECT * FROM events WHERE run_id = 1 ORDER BY seq"),
                               events);
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'view'"
                                  " AND name = 'events'"), 1);
        /* version 12: every run has a uid, 32 hex digits; the migrated run's
         * are the first 32 of the fingerprint merge knew it by */
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(DISTINCT uid) FROM runs WHERE length(uid) = 32"
                                  " AND uid NOT GLOB '*[^0-9a-f]*'"), 2);
    }
}

/* A SIMT run's ld/st, issue port and event log read the same from a file
 * of version 8 (the three tables of one row each), 9 (the SIMT tables) or
 * 10 (simt_mem a table) read without migrating, and after the migration
 * that packs them. */
static void test_packed_relations_migrate(void)
{
    static const int versions[] = {8, 9, 10};
    for (size_t k = 0; k < sizeof versions / sizeof versions[0]; k++) {
        int from = versions[k];
        char db[512], name[32];
        snprintf(name, sizeof name, "migrate-simt%d.db", from);
        test_fresh_path(name, db, sizeof db);
        CU_ASSERT_EQUAL_FATAL(test_record(db, test_src_path("examples/simt_diverge.s"),
                                     "-s record.level=events -s core.model=simt"
                                     " -s simt.issue_width=2"), 0);
        static char issues[8192], events[8192], mems[8192];
#define MEMS "SELECT * FROM simt_mem ORDER BY issue_ps, frame, slot"
        snprintf(issues, sizeof issues, "%s",
                 rows(db, "SELECT * FROM simt_issue ORDER BY time_ps, ord"));
        snprintf(events, sizeof events, "%s", rows(db, "SELECT * FROM events ORDER BY seq"));
        snprintf(mems, sizeof mems, "%s", rows(db, MEMS));
        CU_ASSERT(q_int(db, "SELECT count(*) FROM simt_issue") >= 5);
        CU_ASSERT(q_int(db, "SELECT count(*) FROM simt_issue_packs") >= 1);
        CU_ASSERT(q_int(db, "SELECT count(*) FROM simt_mem") >= 2);
        CU_ASSERT(q_int(db, "SELECT count(*) FROM simt_mem_packs") >= 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(issues, "bnz"));
        CU_ASSERT_PTR_NOT_NULL(strstr(mems, ",st,65535,16,"));
        downgrade(db, from);
        if (from < 10) /* (a file of version 10 keeps its views: none here) */
            CU_ASSERT_STRING_EQUAL(rows(db, "SELECT * FROM simt_issue ORDER BY time_ps, ord"),
                                   issues);
        CU_ASSERT_STRING_EQUAL(rows(db, MEMS), mems);
        diag_t d = {0};
        int64_t version = 0, n = -1;
        sqlite3 *h = db_open_read(db, &version, &d);
        CU_ASSERT_PTR_NOT_NULL_FATAL(h);
        CU_ASSERT_EQUAL(version, from);
        CU_ASSERT_EQUAL(db_query_int(h, "SELECT count(*) FROM simt_issue WHERE lanes > 0", &n),
                        SQLITE_OK);
        CU_ASSERT_EQUAL(n, q_int(db, from < 10 ? "SELECT count(*) FROM main.simt_issue"
                                               : "SELECT sum(n) FROM simt_issue_packs"));
        CU_ASSERT_EQUAL(db_query_int(h, "SELECT sum(instructions) FROM simt_replays", &n),
                        SQLITE_OK);
        CU_ASSERT_EQUAL(n, q_int(db, "SELECT count(*) FROM main.simt_mem"));
        sqlite3_close(h);
        record_src(db, "warp.s", ".group cores=0x1\n ready\n", NULL);
        CU_ASSERT_EQUAL(q_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
        CU_ASSERT_STRING_EQUAL(rows(db, "SELECT * FROM simt_issue WHERE run_id = 1"
                                        " ORDER BY time_ps, ord"), issues);
        CU_ASSERT_STRING_EQUAL(rows(db, "SELECT * FROM events WHERE run_id = 1 ORDER BY seq"),
                               events);
        CU_ASSERT_STRING_EQUAL(rows(db, MEMS), mems);
#undef MEMS
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM simt_issue_packs WHERE n <> 1"),
                        from < 10 ? 0 : q_int(db, "SELECT count(*) FROM simt_issue_packs"
                                                  " WHERE n <> 1 AND run_id = 1"));
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM simt_mem_packs WHERE n <> 1"), 0);
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'simt_mem'"
                                  " AND type = 'view'"), 1);
    }
}

/* Runs `sql` on the file at `path` (read-write); expects SQLITE_OK. */
static void exec_on(const char *path, const char *sql)
{
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &h), SQLITE_OK);
    char *err = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &err) != SQLITE_OK)
        fprintf(stderr, "%.80s...: %s\n", sql, err ? err : "?");
    CU_ASSERT_PTR_NULL(err);
    sqlite3_free(err);
    sqlite3_close(h);
}

/* Rows of query a not in b, and of b not in a (0: the same rows, counts
 * compared apart). */
static long long rows_differ(const char *db, const char *a, const char *b)
{
    return q_int(db, "SELECT (SELECT count(*) FROM (%s EXCEPT %s))"
                     " + (SELECT count(*) FROM (%s EXCEPT %s))", a, b, b, a);
}

/* Runs migration step `from` -> from + 1 alone on `db` and checks the pack
 * table it makes: its columns, and its rows those of `expect` (a query over
 * the old table `old`, kept aside), as many. */
static void check_step(const char *db, int from, const char *table, const char *columns,
                       const char *old, const char *expect)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(schema_migration(from));
    exec_on(db, schema_migration(from));
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT group_concat(name, ' ') FROM pragma_table_info('%s')", table), columns);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM %s", table),
                    q_int(db, "SELECT count(*) FROM %s", old));
    char all[64];
    snprintf(all, sizeof all, "SELECT * FROM %s", table);
    CU_ASSERT_EQUAL(rows_differ(db, all, expect), 0);
}

/* The steps that made the SIMT packs — 9 -> 10 the issue port, 10 -> 11 the
 * ld/st — still do what they did when those versions were made, whatever
 * the current layout: they are built from sipack.h's frozen _V10/_V11
 * lists, not the current ones. Each step runs alone (schema_migration) on a
 * file of its version, and the table it makes is compared with version 10's
 * and 11's layout as written out here, not taken from the code: its
 * columns, and for each old row a pack of one entry, data '[0]', n 1,
 * base_ps the row's time, scale_ps 1, each field the row's value with
 * radix 1 and place value 1 (an issue's op an id of simt_op_names, which
 * numbers the run's distinct mnemonics 1.. in name order; a ld/st's 0 ld,
 * 1 st, its latency done_ps - issue_ps). */
static void test_pack_migrations_frozen(void)
{
    char db[512];
    test_fresh_path("migrate-frozen.db", db, sizeof db);
    CU_ASSERT_EQUAL_FATAL(test_record(db, test_src_path("examples/simt_diverge.s"),
                                 "-s record.level=events -s core.model=simt"
                                 " -s simt.issue_width=2"), 0);
    record_src(db, "ldst.s", ".group cores=0x0003\n set_const r7, id\n ld [r7, r7], r1\n"
                             " st [r7, r7], r1\n ready\n",
               "-s record.level=events -s core.model=simt");
    downgrade(db, 9);
    exec_on(db, "CREATE TABLE old_si AS SELECT * FROM simt_issue;"
                " CREATE TABLE old_sm AS SELECT * FROM simt_mem;");
    CU_ASSERT(q_int(db, "SELECT count(*) FROM old_si") >= 5);
    CU_ASSERT(q_int(db, "SELECT count(*) FROM old_sm WHERE op = 'st'") >= 1);
    CU_ASSERT(q_int(db, "SELECT count(*) FROM old_sm WHERE op = 'ld'") >= 1);
    check_step(db, 9, "simt_issue_packs",
               "run_id n base_ps scale_ps t_unit frame0 frame_n frame_unit slot0 slot_n"
               " slot_unit op0 op_n op_unit ord0 ord_n ord_unit depth0 depth_n depth_unit"
               " eligible0 eligible_n eligible_unit active0 active_n active_unit mask0 mask_n"
               " mask_unit lanes0 lanes_n lanes_unit data",
               "old_si",
               "SELECT s.run_id, 1, s.time_ps, 1, 1, s.frame, 1, 1, s.slot, 1, 1, o.id, 1, 1,"
               " s.ord, 1, 1, s.depth, 1, 1, s.eligible, 1, 1, s.active, 1, 1, s.mask, 1, 1,"
               " s.lanes, 1, 1, '[0]' FROM old_si AS s JOIN simt_op_names AS o"
               " ON o.run_id = s.run_id AND o.name = s.op");
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM simt_op_names AS a JOIN simt_op_names AS b"
                              " ON a.run_id = b.run_id AND a.id < b.id AND a.name >= b.name"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM (SELECT run_id FROM simt_op_names"
                              " GROUP BY run_id HAVING min(id) <> 1 OR max(id) <> count(*))"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM simt_op_names"),
                    q_int(db, "SELECT count(*) FROM (SELECT DISTINCT run_id, op FROM old_si)"));
    check_step(db, 10, "simt_mem_packs",
               "run_id n base_ps scale_ps t_unit frame0 frame_n frame_unit slot0 slot_n"
               " slot_unit op0 op_n op_unit lanes0 lanes_n lanes_unit active0 active_n"
               " active_unit requests0 requests_n requests_unit replays0 replays_n"
               " replays_unit banks0 banks_n banks_unit latency0 latency_n latency_unit data",
               "old_sm",
               "SELECT run_id, 1, issue_ps, 1, 1, frame, 1, 1, slot, 1, 1,"
               " CASE op WHEN 'st' THEN 1 ELSE 0 END, 1, 1, lanes, 1, 1, active, 1, 1,"
               " requests, 1, 1, replays, 1, 1, banks, 1, 1, done_ps - issue_ps, 1, 1, '[0]'"
               " FROM old_sm");
}

/* A SIMT run at level events with seven issue packs, two warps issuing in
 * the same cycles (simt.issue_width = 2): packs end mid-cycle, so an issue
 * at a pack's base_ps may sit at the end of the pack before. */
static const char window_src[] =
    ".group cores=0x00ff fence=no\n set_const r7, id\n set_const r10, 1\n set_const r8, 12\n"
    "o1:\n set_const r9, 0\ni1:\n ld [r9, r7], r1\n add r1, r10, r1\n st [r9, r7], r1\n"
    " sub r9, r10, r9\n bnz i1, r9\n sub r8, r10, r8\n bnz o1, r8\n ready\n"
    ".group cores=0xff00 fence=no\n set_const r7, id\n set_const r10, 1\n set_const r8, 12\n"
    "o2:\n set_const r9, 0\ni2:\n add r9, r7, r3\n xor r3, r10, r3\n sub r9, r10, r9\n"
    " bnz i2, r9\n sub r8, r10, r8\n bnz o2, r8\n ready\n";

/* The window's rows by db_simt_issue_window and by the view: *n_window and
 * *n_view rows; the result counts the window's rows the view lacks. */
static long long window_vs_view(sqlite3 *h, long long t0, long long t1, long long *n_window,
                                long long *n_view)
{
    static const char filter[] =
        "SELECT * FROM simt_issue WHERE run_id = ?1 AND time_ps >= ?2 AND time_ps < ?3";
    char *sql = sqlite3_mprintf("SELECT (SELECT count(*) FROM (%s)), (SELECT count(*) FROM (%s)),"
                                " (SELECT count(*) FROM (SELECT * FROM (%s) EXCEPT %s))",
                                db_simt_issue_window, filter, db_simt_issue_window, filter);
    sqlite3_stmt *st = test_db_prepare(h, sql);
    sqlite3_free(sql);
    sqlite3_bind_int64(st, 1, 1);
    sqlite3_bind_int64(st, 2, t0);
    sqlite3_bind_int64(st, 3, t1);
    long long missing = -1;
    *n_window = *n_view = -1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        *n_window = sqlite3_column_int64(st, 0);
        *n_view = sqlite3_column_int64(st, 1);
        missing = sqlite3_column_int64(st, 2);
    }
    sqlite3_finalize(st);
    return missing;
}

/* Splits the first pack of `db` after an issue that shares its cycle with
 * the next (as a full pack can end mid-cycle): the pack before then ends
 * with an issue at the new pack's base_ps. Returns that base_ps, or -1. */
static long long split_pack_mid_cycle(const char *db)
{
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st =
        test_db_prepare(h, "SELECT j.key FROM simt_issue_packs AS p, json_each(p.data) AS j"
                           " WHERE p.rowid = (SELECT min(rowid) FROM simt_issue_packs)"
                           " AND j.key > 0 AND j.value / p.t_unit = (SELECT k.value /"
                           " p.t_unit FROM json_each(p.data) AS k WHERE k.key = j.key - 1)"
                           " ORDER BY j.key LIMIT 1");
    long long at = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    CU_ASSERT_FATAL(at > 0);
    /* the new pack: the issues from `at`, times counted from the first of them */
    char *sql = sqlite3_mprintf(
        "CREATE TEMP TABLE one AS SELECT * FROM simt_issue_packs"
        " WHERE rowid = (SELECT min(rowid) FROM simt_issue_packs);"
        "CREATE TEMP TABLE cut AS SELECT j.value / o.t_unit AS dt FROM one AS o,"
        " json_each(o.data) AS j WHERE j.key = %lld;"
        "INSERT INTO simt_issue_packs SELECT * FROM one;"
        "UPDATE simt_issue_packs SET n = n - %lld,"
        " base_ps = base_ps + scale_ps * (SELECT dt FROM cut),"
        " data = (SELECT json_group_array(j.value - (SELECT dt FROM cut) * t_unit) FROM"
        " json_each(simt_issue_packs.data) AS j WHERE j.key >= %lld)"
        " WHERE rowid = (SELECT max(rowid) FROM simt_issue_packs);"
        "UPDATE simt_issue_packs SET n = %lld, data = (SELECT json_group_array(j.value) FROM"
        " json_each(simt_issue_packs.data) AS j WHERE j.key < %lld)"
        " WHERE rowid = (SELECT min(rowid) FROM simt_issue_packs);",
        at, at, at, at, at);
    CU_ASSERT_EQUAL(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_free(sql);
    sqlite3_close(h);
    return q_int(db, "SELECT max(base_ps) FROM simt_issue_packs WHERE rowid ="
                     " (SELECT max(rowid) FROM simt_issue_packs)");
}

/* The timeline and the Perfetto trace read a window of the issue port from
 * the packs that hold it (db_simt_issue_window): the same rows as the view
 * filtered on time_ps, for windows starting and ending on, just before and
 * after every pack's first issue; and on a file of version 8 (issues one
 * row each) the timeline draws the same picture. */
static void test_simt_issue_window_reads_its_packs(void)
{
    char db[512];
    test_fresh_path("issue-window.db", db, sizeof db);
    record_src(db, "issue-window.s", window_src,
               "-s record.level=events -s core.model=simt -s simt.issue_width=2");
    CU_ASSERT(q_int(db, "SELECT count(*) FROM simt_issue_packs") >= 5);
    static char before[1 << 16];
#define ISSUE_SUMS "SELECT count(*), sum(time_ps), sum(frame), sum(ord), sum(active * time_ps)," \
                   " sum(length(op) * time_ps), sum(depth + eligible + lanes) FROM simt_issue"
    snprintf(before, sizeof before, "%s", rows(db, ISSUE_SUMS));
    long long split = split_pack_mid_cycle(db);
    CU_ASSERT_STRING_EQUAL(rows(db, ISSUE_SUMS), before);
#undef ISSUE_SUMS
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM simt_issue WHERE time_ps = %lld", split), 2);
    sqlite3 *h = test_db_open(db);
    sqlite3_stmt *bases =
        test_db_prepare(h, "SELECT DISTINCT base_ps FROM simt_issue_packs ORDER BY base_ps");
    const long long p = 1000, far = INT64_MAX;
    int checked = 0;
    while (sqlite3_step(bases) == SQLITE_ROW) {
        long long b = sqlite3_column_int64(bases, 0);
        long long win[][2] = {{b, b + p},     {b - p, b + p}, {b - 3 * p, b},
                              {b + p, b + 9 * p}, {b - 1, b + 1}, {b, far}, {0, b}};
        for (size_t k = 0; k < sizeof win / sizeof win[0]; k++) {
            long long nw = 0, nv = 0;
            CU_ASSERT_EQUAL(window_vs_view(h, win[k][0], win[k][1], &nw, &nv), 0);
            CU_ASSERT_EQUAL(nw, nv);
            if (nw != nv)
                fprintf(stderr, "\nwindow [%lld, %lld): %lld rows, the view %lld\n",
                        win[k][0], win[k][1], nw, nv);
            checked++;
        }
        long long nw = 0, nv = 0; /* a pack's first cycle always has issues */
        window_vs_view(h, b, b + p, &nw, &nv);
        CU_ASSERT(nw >= 1);
    }
    sqlite3_finalize(bases);
    long long nw = 0, nv = 0;
    CU_ASSERT_EQUAL(window_vs_view(h, 0, far, &nw, &nv), 0);
    CU_ASSERT_EQUAL(nw, q_int(db, "SELECT count(*) FROM simt_issue"));
    sqlite3_close(h);
    CU_ASSERT(checked >= 35);
    /* the timeline of a window across a pack boundary, version 10 and 8 (the
       slot profile's instruction names aside: a file before version 13 has
       none, so the newer file's are removed first) */
    long long b = q_int(db, "SELECT max(base_ps) FROM simt_issue_packs");
    h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_exec(h, "DELETE FROM slot_counts", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    char args[2048], *out = NULL, svg10[600], svg8[600];
    snprintf(svg10, sizeof svg10, "%s", test_tmp_path("window10.svg"));
    snprintf(svg8, sizeof svg8, "%s", test_tmp_path("window8.svg"));
    snprintf(args, sizeof args, "timeline '%s' -o '%s' --from-ps %lld --to-ps %lld", db, svg10,
             b - 40 * p, b + 40 * p);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 0);
    free(out), out = NULL;
    downgrade(db, 8);
    snprintf(args, sizeof args, "timeline '%s' -o '%s' --from-ps %lld --to-ps %lld", db, svg8,
             b - 40 * p, b + 40 * p);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 0);
    free(out);
    char *a = (char *)test_read_file(svg10, NULL), *c = (char *)test_read_file(svg8, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL(strstr(a, "issue port"));
    CU_ASSERT_STRING_EQUAL(a, c);
    free(a), free(c);
}

/* VM steps of `SELECT * FROM view WHERE run_id = 1`. */
static long long steps(const char *db, const char *view)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE run_id = 1", view);
    sqlite3 *h = test_db_open(db);
    sqlite3_stmt *st = test_db_prepare(h, sql);
    while (sqlite3_step(st) == SQLITE_ROW)
        ;
    long long n = sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

/* A view filtered on one run reads that run's rows through the (run_id, …)
 * indexes: its work does not grow with the other runs of the file. */
static void test_view_cost_independent_of_other_runs(void)
{
    char small[512], big[512];
    test_fresh_path("cost-small.db", small, sizeof small);
    test_fresh_path("cost-big.db", big, sizeof big);
    const char *prog = test_src_path("examples/example2.s");
    CU_ASSERT_EQUAL_FATAL(test_record(small, prog, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(test_record(big, prog, NULL), 0);
    for (int i = 0; i < 6; i++)
        CU_ASSERT_EQUAL_FATAL(test_record(big, test_src_path("examples/matmul.s"), NULL), 0);
    for (const char *const *v = rec_view_names; *v; v++) {
        if (!strcmp(*v, "latest_ok_runs"))
            continue; /* one row per point over every run of the file, by nature */
        long long a = steps(small, *v), b = steps(big, *v);
        if (b > a + a / 4 + 100)
            fprintf(stderr, "%s: %lld VM steps with one run, %lld with seven\n", *v, a, b);
        CU_ASSERT(b <= a + a / 4 + 100);
    }
}

/* sm.banks and sm.bank_map reach every reader: the sm_accesses view decodes
 * each access's bank (in the pack's entries for xor, whose bank is no slice
 * of the address; from the address for high and interleaved) as the formula
 * of docs/SPEC.md gives it, bank_utilization has one row per bank, and the
 * timeline and the VCD have a lane and a signal per bank. SQLite has no XOR
 * operator: a ^ b = (a | b) - (a & b). */
static void test_bank_count_and_mapping_in_every_reader(void)
{
    char db[512];
    test_fresh_path("banks.db", db, sizeof db);
    const char *prog = test_src_path("examples/transpose.s");
    CU_ASSERT_EQUAL_FATAL(test_record(db, prog, "-s sm.banks=64 -s sm.bank_map=xor"), 0);
    CU_ASSERT_EQUAL_FATAL(test_record(db, prog, "-s sm.banks=8 -s sm.bank_map=interleaved"), 0);
    CU_ASSERT_EQUAL_FATAL(test_record(db, prog, "-s sm.banks=32 -s sm.bank=uniform:1..3"), 0);
    CU_ASSERT_EQUAL_FATAL(test_record(db, prog, "-s sm.banks=1"), 0);
    static const char *const formula[] = {
        "((addr & 63) | (addr >> 6)) - ((addr & 63) & (addr >> 6))", "addr & 7", "addr >> 7",
        "0"};
    for (int run = 1; run <= 4; run++) {
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM sm_accesses WHERE run_id = %d", run),
                        512);
        CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM sm_accesses WHERE run_id = %d"
                                  " AND bank <> %s", run, formula[run - 1]), 0);
        CU_ASSERT_EQUAL(q_int(db, "SELECT sum(accesses) FROM bank_utilization"
                                  " WHERE run_id = %d", run), 512);
        CU_ASSERT_EQUAL(q_int(db, "SELECT sum(n) FROM (SELECT bank, count(*) AS n"
                                  " FROM sm_accesses WHERE run_id = %d GROUP BY bank) AS a"
                                  " JOIN bank_utilization AS u ON u.run_id = %d"
                                  " AND u.bank = a.bank AND u.accesses = a.n", run, run), 512);
    }
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM bank_utilization WHERE run_id = 1"), 64);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM bank_utilization WHERE run_id = 4"), 1);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(DISTINCT bank) FROM sm_accesses WHERE run_id = 1"),
                    64);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM sm_access_packs WHERE run_id = 1"
                              " AND bank_shift IS NOT NULL"), 0);
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT run_id, banks, bank_map FROM run_summary"),
                           "1,64,xor;2,8,interleaved;3,32,high;4,1,high");
    /* a lane and a signal per bank */
    static const struct { int run, banks; } pics[] = {{1, 64}, {2, 8}, {4, 1}};
    for (size_t i = 0; i < 3; i++) {
        char args[1024], *svg = NULL, *vcd = NULL;
        snprintf(args, sizeof args, "timeline '%s' --run %d -o -", db, pics[i].run);
        CU_ASSERT_EQUAL(test_run_tessera(args, &svg), 0);
        snprintf(args, sizeof args, "export '%s' --run %d --vcd -", db, pics[i].run);
        CU_ASSERT_EQUAL(test_run_tessera(args, &vcd), 0);
        int lanes = 0;
        for (const char *p = svg; p && (p = strstr(p, "class=\"bank-lane\"")); p++)
            lanes++;
        char last[32], beyond[32];
        snprintf(last, sizeof last, " bank%d_busy $end", pics[i].banks - 1);
        snprintf(beyond, sizeof beyond, " bank%d_busy $end", pics[i].banks);
        CU_ASSERT_EQUAL(lanes, pics[i].banks);
        CU_ASSERT_PTR_NOT_NULL(vcd ? strstr(vcd, last) : NULL);
        CU_ASSERT_PTR_NULL(vcd ? strstr(vcd, beyond) : "");
        free(svg);
        free(vcd);
    }
}

/* Every ```sql block of docs/SCHEMA.md runs on a recorded database. */
static void test_schema_doc_queries_run(void)
{
    const char *db = examples();
    char *doc = (char *)test_read_file(test_src_path("docs/SCHEMA.md"), NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    sqlite3 *h = test_db_open(db);
    int blocks = 0;
    for (char *p = doc; (p = strstr(p, "```sql\n")) != NULL; blocks++) {
        char *sql = p + 7, *end = strstr(sql, "```");
        CU_ASSERT_PTR_NOT_NULL_FATAL(end);
        *end = 0;
        for (const char *tail = sql; tail && *tail;) {
            sqlite3_stmt *st = NULL;
            int rc = sqlite3_prepare_v2(h, tail, -1, &st, &tail);
            if (rc == SQLITE_OK && st)
                while ((rc = sqlite3_step(st)) == SQLITE_ROW)
                    ;
            if (rc != SQLITE_OK && rc != SQLITE_DONE)
                fprintf(stderr, "docs/SCHEMA.md block %d: %s\n%s\n", blocks, sqlite3_errmsg(h),
                        sql);
            CU_ASSERT(rc == SQLITE_OK || rc == SQLITE_DONE);
            sqlite3_finalize(st);
        }
        p = end + 3;
    }
    sqlite3_close(h);
    free(doc);
    CU_ASSERT(blocks >= 15);
}

/* --- SIMT (SIMT-SPEC "Counting", E1 and E3) ----------------------------------------- */

static const char *E3_SRC = ".group cores=0x00ff fence=no\n set_const r8, 4\n set_const r9, 1\n"
                            "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n"
                            ".group cores=0xff00 fence=no\n set_const r8, 2\n set_const r9, 1\n"
                            "loop:\n sub r8, r9, r8\n bnz loop, r8\n ready\n";

/* E1: one warp of 4 lanes (mask 000f). It issues slots 0-3 for 4 lanes,
 * slots 4, 5 (even lanes) and 6 (odd lanes) for 2, slot 7 for 4: 8 warp
 * instructions, 16 + 6 + 4 = 26 lane instructions. SIMT efficiency
 * 26 / (8 x 4) = 0.8125, lane utilisation 26 / (8 x 16) = 0.203125. One
 * divergent bnz (slot 3); the stack then holds the reconvergence entry and
 * both paths: 3. Resident 6..15 = 9 cycles: 8 issued, 1 stalled (cycle 13:
 * ready waits for the mul issued at 12, not a ld/st: execute). The run ends
 * at 16 (the task completes): issue utilisation 8 / (16 x 1) = 0.5. */
static void test_simt_e1_efficiency(void)
{
    char db[512];
    test_fresh_path("simt-e1.db", db, sizeof db);
    record_src(db, "e1.s", SIMT_E1, "-s core.model=simt");
    CU_ASSERT_STRING_EQUAL(
        rows(db, "SELECT frame, mask_hex, lanes, warp_instructions, lane_instructions,"
                 " simt_efficiency, lane_utilization, divergent_branches, max_stack_depth,"
                 " resident_cycles, issued_cycles, stall_memory_cycles, stall_execute_cycles,"
                 " stall_issue_cycles, complete FROM simt_warp_efficiency"),
        "1,000f,4,8,26,0.8125,0.203125,1,3,9,8,0,1,0,1");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT warps, simt_efficiency, lane_utilization,"
                                    " issue_utilization, run_cycles FROM simt_efficiency"),
                           "1,0.8125,0.203125,0.5,16");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT reason, cycles FROM simt_stalls ORDER BY reason"),
                           "collector,0;execute,1;fetch,0;issue,0;memory,0");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT core_model, end_cycles, warp_instructions,"
                                    " simt_efficiency, issue_utilization FROM run_summary"),
                           "simt,16,8,0.8125,0.5");
    /* Under simt.reconvergence = barrier (S14): the bnz completes at 10 and
     * splits the warp into {0,2} at 4 and {1,3} at 6, barrier at 7; {0,2}
     * (tie in lanes, lower slot) issues 4 at 10 and, greedy, 5 at 11; {1,3}
     * its mul at 12 (both at 7 then: joined); the joined group waits for the
     * mul until 14 (cycle 13: execute), ready at 14: the same 16 cycles, 2
     * groups at most, 1 barrier, no barrier stall; no stack depth. */
    record_src(db, "e1.s", SIMT_E1, "-s core.model=simt -s simt.reconvergence=barrier");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT run_id, max_stack_depth, max_groups, barriers,"
                                    " stall_barrier_cycles, stall_execute_cycles, resident_cycles"
                                    " FROM simt_warp_efficiency ORDER BY run_id"),
                           "1,3,NULL,NULL,NULL,1,9;2,NULL,2,1,0,1,9");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT run_id, reason, cycles FROM simt_stalls"
                                    " ORDER BY run_id, reason"),
                           "1,collector,0;1,execute,1;1,fetch,0;1,issue,0;1,memory,0;"
                           "2,barrier,0;2,collector,0;2,execute,1;2,fetch,0;2,issue,0;"
                           "2,memory,0");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT run_id, max_groups, barriers, stall_barrier_cycles"
                                    " FROM simt_efficiency ORDER BY run_id"),
                           "1,NULL,NULL,NULL;2,2,1,0");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT run_id, simt_reconvergence, end_cycles"
                                    " FROM run_summary ORDER BY run_id"),
                           "1,stack,16;2,barrier,16");
}

/* E3 under rr, gto, issue width 2, and MIMD, in one file. Warp B (frame 3,
 * 7 one-cycle instructions) starts at 10. rr: B issues at 10, 12, ..., 22,
 * its lanes finish at 23: resident 13 = 7 issued + 6 issue stalls (11, 13,
 * ..., 21). gto: A keeps the port to 16, B issues 17-23, finishes at 24:
 * resident 14 = 7 + 7 issue stalls (10-16). Width 2: no stalls, resident 7.
 * Per run (simt_stalls) rr adds A's 7 issue stalls (10, 12, ..., 22, while
 * B holds the port): 13; gto: A never waits: 7.
 * Issue utilisation: 18 warp instructions / (25 x 1) = 0.72 under rr and
 * gto, 18 / (18 x 2) = 0.5 with width 2. One GROUP BY over run_summary
 * separates the models; the MIMD run has no SIMT rows, and its simt.* columns
 * of run_summary are NULL (recorded in params, without effect). */
static void test_simt_e3_stalls_by_scheduler(void)
{
    char db[512];
    test_fresh_path("simt-e3.db", db, sizeof db);
    record_src(db, "e3.s", E3_SRC, "-s core.model=simt -s simt.scheduler=rr");
    record_src(db, "e3.s", E3_SRC, "-s core.model=simt -s simt.scheduler=gto");
    record_src(db, "e3.s", E3_SRC, "-s core.model=simt -s simt.issue_width=2");
    record_src(db, "e3.s", E3_SRC, NULL);
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT run_id, resident_cycles, issued_cycles,"
                                    " stall_issue_cycles, stall_memory_cycles + stall_execute_cycles"
                                    " FROM simt_warp_efficiency WHERE frame = 3 ORDER BY run_id"),
                           "1,13,7,6,0;2,14,7,7,0;3,7,7,0,0");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT run_id, cycles FROM simt_stalls"
                                    " WHERE reason = 'issue' ORDER BY run_id"),
                           "1,13;2,7;3,0");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT run_id, issue_utilization FROM simt_efficiency"
                                    " ORDER BY run_id"),
                           "1,0.72;2,0.72;3,0.5");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT core_model, simt_scheduler, simt_issue_width,"
                                    " end_cycles FROM run_summary ORDER BY run_id"),
                           "simt,rr,1,25;simt,gto,1,25;simt,rr,2,18;mimd,NULL,NULL,18");
    CU_ASSERT_STRING_EQUAL(rows(db, "SELECT core_model, count(*), min(end_cycles)"
                                    " FROM run_summary GROUP BY core_model ORDER BY 1"),
                           "mimd,1,18;simt,3,18");
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM simt_warps WHERE run_id = 4"), 0);
}

int main(void)
{
    static const test_case_t hand[] = {
        TEST(test_task_latency_worked_example), TEST(test_task_latency_example1),
        TEST(test_example2_views),              TEST(test_bank_conflicts_two_cores_one_bank),
        TEST(test_bank_queue_latency_percentiles), TEST(test_simt_e1_efficiency),
        TEST(test_simt_e3_stalls_by_scheduler), TEST_END};
    static const test_case_t agree[] = {
        TEST(test_every_waiting_cycle_attributed), TEST(test_cores_and_parallelism_agree),
        TEST(test_banks_and_sm_latency_agree),     TEST(test_percentiles_nearest_rank),
        TEST_END};
    static const test_case_t files[] = {
        TEST(test_stopped_run_partial_records),  TEST(test_views_in_every_database_and_migration),
        TEST(test_packed_relations_migrate), TEST(test_pack_migrations_frozen),
        TEST(test_simt_issue_window_reads_its_packs),
        TEST(test_bank_count_and_mapping_in_every_reader),
        TEST(test_view_cost_independent_of_other_runs), TEST(test_schema_doc_queries_run),
        TEST_END};
    static const test_suite_t suites[] = {
        {"views: hand-computed timelines", hand},
        {"views: agree with the recorded tables", agree},
        {"views: files, stopped runs, cost, docs", files},
        {NULL, NULL}};
    return test_run_suites(suites);
}

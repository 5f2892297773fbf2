/* test_intervals.c — interval statistics (record.interval) and the window
 * (record.from_ps/to_ps): on every example the intervals of every core and
 * bank sum exactly to its whole-run counters, and the run is the same as
 * without them; a stopped run's intervals sum to its counters too; a window
 * aligned on intervals equals their sum; the utilisation view reads them. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "tessera_names.h" /* the model's counters and units (cmake/gen-names.c) */
#include "tests/testutil.h"

/* Units whose intervals do not sum to their counters, in run `run`: cores
 * and banks; the SIMT unit's issue port (its warp instructions) and each
 * stall reason (ps = simt.stall_<reason>_cycles x the period). */
static int64_t mismatches(const char *db, int run)
{
    char sql[3072];
    snprintf(sql, sizeof sql,
             "SELECT (SELECT count(*) FROM (SELECT unit, sum(busy_ps) AS b, sum(instructions) AS n"
             " FROM intervals WHERE run_id = %d AND kind = 'interval'"
             " AND unit GLOB '" GEN_UNIT_SIMT "*'"
             " GROUP BY unit) AS i WHERE (i.unit = '" GEN_UNIT_SIMT "' AND n IS NOT (SELECT value"
             " FROM counters WHERE run_id = %d AND component = '" GEN_UNIT_SIMT "'"
             " AND name = '" GEN_CTR_SIMT_WARP_INSTRUCTIONS "'))"
             " OR (i.unit <> '" GEN_UNIT_SIMT "' AND b IS NOT (SELECT c.value * r.period_ps"
             " FROM counters AS c JOIN runs AS r USING (run_id) WHERE c.run_id = %d"
             " AND c.component = '" GEN_UNIT_SIMT "' AND c.name = '" GEN_CTR_SIMT_STALL_PREFIX "'"
             " || substr(i.unit, length('" GEN_UNIT_SIMT_REASON "') + 1)"
             " || '" GEN_CTR_SIMT_STALL_SUFFIX "'))) +"
             " (SELECT count(*) FROM (SELECT unit, sum(busy_ps) AS b, sum(instructions) AS n,"
             " sum(sm_wait_ps) AS w, sum(conflicts) AS k FROM intervals"
             " WHERE run_id = %d AND kind = 'interval' AND unit NOT GLOB '" GEN_UNIT_SIMT "*'"
             " GROUP BY unit) AS i WHERE"
             " b IS NOT (SELECT value FROM counters AS c WHERE c.run_id = %d"
             "  AND c.component = i.unit AND c.name = '" GEN_CTR_CORE_BUSY_PS "')"
             " OR (i.unit GLOB '" GEN_UNIT_CORE_GLOB "' AND (n IS NOT (SELECT value"
             "  FROM counters AS c WHERE c.run_id = %d AND c.component = i.unit"
             "  AND c.name = '" GEN_CTR_CORE_INSTRUCTIONS "')"
             "  OR w IS NOT (SELECT value FROM counters AS c WHERE c.run_id = %d"
             "  AND c.component = i.unit AND c.name = '" GEN_CTR_CORE_SM_WAIT_PS "')))"
             " OR (i.unit GLOB '" GEN_UNIT_BANK_GLOB "' AND k IS NOT (SELECT value"
             "  FROM counters AS c WHERE c.run_id = %d AND c.component = i.unit"
             "  AND c.name = '" GEN_CTR_BANK_CONFLICTS "')))",
             run, run, run, run, run, run, run, run);
    return test_db_int(db, sql);
}

/* One example with and without intervals under one engine (`model`: the
 * cores, or -s core.model=simt): the intervals of every unit sum to its
 * counters and tile the run, and the run is the same as without them.
 * Returns false when the example does not finish under this engine. */
static bool check_example(const char *name, const char *model, const char *suffix)
{
    char db[512], args[1536];
    snprintf(db, sizeof db, "%s", test_tmp_path(name));
    strcat(db, suffix);
    /* bench.s runs ten million cycles: intervals of 100000 there, of 7 elsewhere */
    const char *len_cycles = strcmp(name, "bench.s") == 0 ? "100000" : "7";
    const char *atomics = strcmp(name, "lock.s") == 0 ? "-s sm.atomics=on" : "";
    snprintf(args, sizeof args, "run '%s/%s' --db '%s' --quiet %s %s -s record.level=summary",
             test_src_path("examples"), name, db, atomics, model);
    int rc = test_run_tessera(args, NULL);
    if (rc != 0)
        return false;
    snprintf(args, sizeof args,
             "run '%s/%s' --db '%s' --quiet %s %s -s record.level=summary -s record.interval=%s",
             test_src_path("examples"), name, db, atomics, model, len_cycles);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    int64_t bad = mismatches(db, 2);
    if (bad != 0)
        fprintf(stderr, "%s %s: %lld units do not sum\n", name, model, (long long)bad);
    CU_ASSERT_EQUAL(bad, 0);
    /* + 'simt' and its 5 stall reasons, 6 with barriers */
    bool simt = strstr(model, "simt") != NULL, groups = strstr(model, "barrier") != NULL;
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(DISTINCT unit) FROM intervals"),
                    groups ? 39 : simt ? 38 : 32);
    if (simt) /* issued + stalled cycles = the warps' resident cycles, interval by interval */
        CU_ASSERT_EQUAL(test_db_int(db, "SELECT sum(resident_cycles) = (SELECT value FROM counters"
                                        " WHERE run_id = 2 AND component = '" GEN_UNIT_SIMT "'"
                                        " AND name = '" GEN_CTR_SIMT_RESIDENT_CYCLES "')"
                                        " FROM utilization_over_time WHERE"
                                        " run_id = 2 AND kind = 'interval'"), 1);
    /* the intervals tile the run: 0, L, 2L, … up to its end */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT max(to_ps) = (SELECT stop_ps FROM runs WHERE"
                                    " run_id = 2) FROM intervals"), 1);
    /* the same run as without intervals: every counter equal */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM counters AS a JOIN counters AS b"
                                    " ON a.component = b.component AND a.name = b.name"
                                    " WHERE a.run_id = 1 AND b.run_id = 2"
                                    " AND a.value <> b.value"), 0);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(DISTINCT end_ps) FROM runs"), 1);
    /* something was counted: instructions in the intervals */
    CU_ASSERT(test_db_int(db, "SELECT sum(instructions) FROM intervals WHERE run_id = 2") > 0);
    return true;
}

/* On every example on the cores, and on the SIMT unit for every example that
 * finishes there (a lane's spin on another lane's store cannot, S9). */
static void test_intervals_sum_to_the_counters_on_every_example(void)
{
    DIR *dir = opendir(test_src_path("examples"));
    CU_ASSERT_FATAL(dir != NULL);
    struct dirent *e;
    unsigned checked = 0, simt = 0;
    while ((e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".s") != 0)
            continue;
        CU_ASSERT_TRUE(check_example(e->d_name, "", ".db"));
        checked++;
        simt += check_example(e->d_name, "-s core.model=simt", ".simt.db");
        /* the pipeline: fetch and collector stalls in the intervals too */
        check_example(e->d_name, "-s core.model=simt -s simt.ibuffer=2 -s simt.collectors=2"
                                 " -s simt.rf_banks=2 -s simt.issue_width=2", ".pipe.db");
        /* thread groups (S14): the barrier reason too */
        check_example(e->d_name, "-s core.model=simt -s simt.reconvergence=barrier"
                                 " -s simt.collectors=2 -s simt.lsu_width=4", ".bar.db");
    }
    closedir(dir);
    CU_ASSERT_TRUE(checked >= 15);
    fprintf(stderr, "\nintervals checked on %u examples, %u of them also on the SIMT unit\n",
            checked, simt);
    CU_ASSERT_TRUE(simt >= 12);
}

/* The SIMT unit's intervals, by hand (record.interval = 1 cycle, reference
 * timing, no scoreboard). Lanes 0 and 1 start the task at cycle 6 (T1-T4 as on
 * the cores). The warp issues set_const at 6 and the ld at 7 (one
 * instruction per lane in intervals 6 and 7); both lanes' requests leave at 7
 * and reach bank 1 at 8 (sm.req); the fixed arbiter serves lane 0 at 8 and
 * lane 1 at 9 (one conflict, counted at its grant), each holding the bank one
 * cycle (busy in intervals 8 and 9); the answers arrive at 10 and 11
 * (sm.resp), so lane 0 waits on the SM in intervals 7-9 and lane 1 in 7-10.
 * The ld completes with its slowest lane at 11 (S3): ready issues at 11 and
 * both lanes finish at 12 (core.ready), busy in every interval 6-11. The
 * issue port: a warp instruction in intervals 6, 7 and 11; in 8-10 the warp
 * waits for the ld (memory: 1000 ps each), resident 6 cycles in all. */
static void test_simt_intervals_by_hand(void)
{
    const char *src = ".group cores=0x3\n set_const r8, 1\n ld [r0, r8], r1\n ready\n";
    const char *prog = test_tmp_path("simt-two-loads.s");
    const char *db = test_tmp_path("simt-two-loads.db");
    CU_ASSERT_EQUAL_FATAL(test_write_file(prog, src, strlen(src)), 0);
    char args[1536];
    snprintf(args, sizeof args, "run '%s' --db '%s' --quiet -s core.model=simt"
             " -s record.interval=1", prog, db);
    CU_ASSERT_EQUAL_FATAL(test_run_tessera(args, NULL), 0);
    char *rows = test_db_text(db, "SELECT group_concat(unit || ':' || idx || ':' || busy_ps || ':'"
                                  " || coalesce(instructions, '-') || ':' || coalesce(sm_wait_ps, '-')"
                                  " || ':' || coalesce(conflicts, '-'), ' ') FROM (SELECT * FROM"
                                  " intervals WHERE busy_ps > 0 OR sm_wait_ps > 0 ORDER BY unit, idx)");
    CU_ASSERT_STRING_EQUAL(rows ? rows : "",
                           "bank1:8:1000:-:-:0 bank1:9:1000:-:-:1 "
                           "core0:6:1000:1:0:- core0:7:1000:1:1000:- core0:8:1000:0:1000:- "
                           "core0:9:1000:0:1000:- core0:10:1000:0:0:- core0:11:1000:1:0:- "
                           "core1:6:1000:1:0:- core1:7:1000:1:1000:- core1:8:1000:0:1000:- "
                           "core1:9:1000:0:1000:- core1:10:1000:0:1000:- core1:11:1000:1:0:- "
                           "simt.memory:8:1000:-:-:- simt.memory:9:1000:-:-:- "
                           "simt.memory:10:1000:-:-:-");
    free(rows);
    rows = test_db_text(db, "SELECT group_concat(idx || ':' || instructions, ' ') FROM (SELECT *"
                            " FROM intervals WHERE unit = 'simt' AND instructions > 0 ORDER BY idx)");
    CU_ASSERT_STRING_EQUAL(rows ? rows : "", "6:1 7:1 11:1");
    free(rows);
    /* the view: the port busy in 6, 7, 11 (issue_width 1), the warp stalled
       for memory all of 8-10 */
    rows = test_db_text(db, "SELECT group_concat(idx || ':' || issue_utilization || ':' ||"
                            " stall_memory_share || ':' || resident_cycles, ' ') FROM (SELECT *"
                            " FROM utilization_over_time WHERE idx BETWEEN 6 AND 11 ORDER BY idx)");
    CU_ASSERT_STRING_EQUAL(rows ? rows : "", "6:1.0:0.0:1 7:1.0:0.0:1 8:0.0:1.0:1 9:0.0:1.0:1 "
                                             "10:0.0:1.0:1 11:1.0:0.0:1");
    free(rows);
}

static void test_stopped_run_and_window(void)
{
    const char *db = test_tmp_path("window.db");
    char args[1024];
    /* transpose.s stopped at 250 cycles, intervals of 10 cycles, window 100..300 cycles */
    snprintf(args, sizeof args,
             "run '%s' --db '%s' --quiet -s record.interval=10 -s sim.time_limit=250"
             " -s record.from_ps=100000 -s record.to_ps=300000",
             test_src_path("examples/transpose.s"), db);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), TESS_EINTERRUPTED);
    CU_ASSERT_EQUAL(mismatches(db, 1), 0);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT max(to_ps) FROM intervals WHERE kind = 'interval'"),
                    250000);
    /* the window, cut at the stop, is intervals 10..25: 25 starts at the stop and
     * holds what decoupled cores and busy banks did past it, which the counters
     * count too */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM intervals WHERE kind = 'window'"
                                    " AND from_ps = 100000 AND to_ps = 250000"), 32);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM (SELECT unit, sum(busy_ps) AS b,"
                                    " sum(instructions) AS n, sum(sm_wait_ps) AS w,"
                                    " sum(conflicts) AS k FROM intervals WHERE kind = 'interval'"
                                    " AND idx BETWEEN 10 AND 25 GROUP BY unit) AS i JOIN intervals"
                                    " AS w ON w.kind = 'window' AND w.unit = i.unit"
                                    " WHERE w.busy_ps IS i.b AND w.instructions IS i.n"
                                    " AND w.sm_wait_ps IS i.w AND w.conflicts IS i.k"), 32);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT sum(instructions) > 0 FROM intervals"
                                    " WHERE kind = 'window'"), 1);
    /* the view: one row per interval, shares between 0 and 1 */
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM utilization_over_time"
                                    " WHERE kind = 'interval'"), 26);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM utilization_over_time WHERE idx < 25 AND ("
                                    " core_busy_share NOT BETWEEN 0 AND 1 OR bank_busy_share"
                                    " NOT BETWEEN 0 AND 1 OR sm_wait_share NOT BETWEEN 0 AND 1)"),
                    0);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT from_cycles = 240 AND to_cycles = 250 FROM"
                                    " utilization_over_time WHERE kind = 'interval' AND idx = 24"),
                    1);
}

/* Issue 26: an endless loop with record.interval=100 grew without bound (8.4 M
 * rows, more than 1 GB) and ignored SIGINT while writing them. At most
 * IVL_MAX_INTERVALS are kept: past that they are merged pairwise (lengths
 * doubled), the sums stay exact, every row but the last has the same
 * power-of-two multiple of the asked length, and a warning says so. */
static void test_intervals_stay_bounded(void)
{
    const char *db = test_tmp_path("bounded.db"), *prog = test_tmp_path("spin.s");
    const char *src = ".group cores=0x0003\nl0: set_const r9, 1\n    bnz l0, r9\n    ready\n";
    test_write_file(prog, src, strlen(src));
    char args[1024], *out = NULL;
    /* two cores spin until the watchdog: 300 000 instructions, 300 000 cycles */
    snprintf(args, sizeof args, "run '%s' --db '%s' --quiet -s record.interval=1"
             " -s core.budget=300000", prog, db);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), TESS_EWATCHDOG);
    CU_ASSERT(out && strstr(out, "merged pairwise into intervals of 128 cycles"));
    free(out);
    CU_ASSERT_EQUAL(mismatches(db, 1), 0);
    CU_ASSERT(test_db_int(db, "SELECT count(DISTINCT idx) FROM intervals") <= 4096);
    CU_ASSERT(test_db_int(db, "SELECT count(DISTINCT idx) FROM intervals") > 2048);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(DISTINCT to_ps - from_ps) FROM intervals"
                                    " WHERE to_ps < (SELECT stop_ps FROM runs)"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT max(to_ps - from_ps) FROM intervals"), 128000);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT max(to_ps) = (SELECT stop_ps FROM runs)"
                                    " FROM intervals"), 1);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT sum(instructions) FROM intervals"), 600000);
}

static const test_case_t cases[] = {
    TEST(test_intervals_sum_to_the_counters_on_every_example),
    TEST(test_stopped_run_and_window),
    TEST(test_simt_intervals_by_hand),
    TEST(test_intervals_stay_bounded),
    TEST_END,
};

static const test_suite_t suites[] = {{"intervals", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

/* test_stopped.c — a stopped run records the same rows in both timing modes
 * (issue 22). Random programs (racy ones, drawn latencies, interval
 * statistics, the race detector) on both machines (MIMD and core.model =
 * simt), each stopped by sim.time_limit at random instants from the first
 * cycle to past its end, run decoupled and stepped into databases whose every
 * table and view (tests/testutil.c's test_db_dump) must be equal; and what a
 * stopped run counts stops at the stop: no instruction starting after it, no
 * core busy past it. Deadlocked and watchdog runs agree too.
 * Before issue 22 the decoupled cores (and the SIMT unit's back-to-back ALU
 * path) ran on past the limit and counted it: a 16-core loop stopped at 100
 * cycles reported 16 M instructions decoupled, 1520 stepped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/tessera.h"
#include "events/base/err.h"
#include "model/asm.h"
#include "tests/randprog.h"
#include "tessera_names.h" /* the model's counters and units (cmake/gen-names.c) */
#include "tests/testutil.h"

#define PROGRAMS 48  /* half of them MIMD, half SIMT */
#define LIMITS 3     /* random time limits per program */

typedef struct outcome {
    char status[32];
    tessera_counters_t c;
    char *dump;          /* every row of the run (test_db_dump) */
} outcome_t;

/* Runs `src` with the assignments `sets` (NULL-terminated) into a fresh
 * database `db_name` (NULL: none), detecting races. */
static outcome_t run_src(const char *src, const char *const *sets, const char *db_name)
{
    outcome_t o = {0};
    tessera_t *t = tessera_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(tessera_load_source(t, src, "rand.s"), TESS_OK);
    for (const char *const *s = sets; *s; s++)
        CU_ASSERT_EQUAL_FATAL(tessera_set(t, *s), TESS_OK);
    CU_ASSERT_EQUAL(tessera_set(t, "sim.progress=off"), TESS_OK);
    const char *db = db_name ? test_tmp_path(db_name) : NULL;
    if (db) {
        unlink(db);
        CU_ASSERT_EQUAL_FATAL(tessera_record(t, db), TESS_OK);
    }
    CU_ASSERT_EQUAL(tessera_detect_races(t), TESS_OK);
    tessera_run(t, 0);
    snprintf(o.status, sizeof o.status, "%s", tessera_status(t));
    tessera_counters(t, &o.c);
    tessera_free(t);
    if (db)
        o.dump = test_db_dump(db, o.c.run_id);
    return o;
}

/* The first line where two dumps differ, for the failure message. */
static void print_difference(const char *a, const char *b)
{
    unsigned line = 1;
    while (*a && *a == *b) {
        line += *a == '\n';
        a++, b++;
    }
    while (line > 1 && a[-1] != '\n')
        a--, b--;
    fprintf(stderr, "  line %u:\n    decoupled: %.*s\n    stepped:   %.*s\n", line,
            (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
}

/* Runs `src` with `sets` plus core.timing=decoupled, then stepped; true when
 * both recorded the same rows and stopped alike. */
static bool modes_agree(const char *src, const char **sets, unsigned n, const char *what,
                        outcome_t *dec_out)
{
    sets[n] = "core.timing=decoupled";
    sets[n + 1] = NULL;
    outcome_t a = run_src(src, sets, "decoupled.db");
    sets[n] = "core.timing=stepped";
    outcome_t b = run_src(src, sets, "stepped.db");
    bool same = a.dump && b.dump && strcmp(a.dump, b.dump) == 0 &&
                strcmp(a.status, b.status) == 0 && a.c.stop_ps == b.c.stop_ps &&
                a.c.instructions == b.c.instructions;
    if (!same) {
        fprintf(stderr, "%s: decoupled (%s, stop %llu ps, %llu instructions) and stepped (%s, "
                "stop %llu ps, %llu instructions) differ\n", what, a.status,
                (unsigned long long)a.c.stop_ps, (unsigned long long)a.c.instructions, b.status,
                (unsigned long long)b.c.stop_ps, (unsigned long long)b.c.instructions);
        if (a.dump && b.dump)
            print_difference(a.dump, b.dump);
    }
    if (dec_out)
        *dec_out = a;
    else
        free(a.dump);
    free(b.dump);
    return same;
}

/* Program i's configuration: the machine, and now and then drawn latencies,
 * interval statistics, the SIMT unit's options. Returns the count. */
static unsigned variant(const char **sets, unsigned i)
{
    static const char *const simt[][9] = {
        {"simt.scheduler=rr", "simt.scoreboard=off", "simt.broadcast=off", "simt.issue_width=1"},
        {"simt.scheduler=gto", "simt.scoreboard=on", "simt.broadcast=on", "simt.issue_width=2"},
        {"simt.scheduler=oldest", "simt.scoreboard=off", "simt.broadcast=on",
         "simt.issue_width=3"},
        /* the pipeline of S11-S13: the front end, collectors, narrow units */
        {"simt.scheduler=gto", "simt.scoreboard=on", "simt.ibuffer=2", "simt.fetch_latency=2",
         "simt.collectors=2", "simt.rf_banks=2", "simt.sp_width=4", "simt.lsu_width=8"},
        {"simt.scheduler=rr", "simt.scoreboard=off", "simt.issue_width=2", "simt.ibuffer=1",
         "simt.fetch_width=2", "simt.sfu_width=2", "simt.collectors=1"},
        /* thread groups (S14) */
        {"simt.scheduler=gto", "simt.scoreboard=on", "simt.reconvergence=barrier",
         "simt.issue_width=2"},
        {"simt.scheduler=rr", "simt.broadcast=on", "simt.reconvergence=barrier"},
        /* thread groups through collectors and narrow units (S12, S13 per group), and
           their barrier waits recorded (simt_waits, level events) */
        {"simt.scheduler=oldest", "simt.scoreboard=on", "simt.reconvergence=barrier",
         "simt.collectors=2", "simt.rf_banks=3", "simt.sp_width=4", "simt.lsu_width=2",
         "simt.issue_width=2", "record.level=events"},
    };
    unsigned n = 0;
    sets[n++] = i % 2 ? "core.model=simt" : "core.model=mimd";
    if (i % 2)
        for (unsigned k = 0; k < 9 && simt[i / 2 % 8][k]; k++)
            sets[n++] = simt[i / 2 % 8][k];
    if (i % 3 == 0) {
        sets[n++] = "sm.bank=uniform:1..4";
        sets[n++] = "sm.req=choice:1,1,5";
        sets[n++] = "core.alu=uniform:1..3";
    }
    if (i % 4 == 1)
        sets[n++] = "record.interval=7";
    if (i % 5 == 2)
        sets[n++] = "sm.atomics=on";
    sets[n++] = i % 7 == 3 ? "sm.arbiter=random" : "sm.arbiter=rr";
    return n;
}

static void test_time_limited_runs_record_the_same_rows_in_both_modes(void)
{
    program_t *p = malloc(sizeof *p);
    uint64_t rs = 22;
    unsigned differing = 0, past_end = 0, stopped = 0;
    for (unsigned i = 0; i < PROGRAMS; i++) {
        rp_opts_t opts = {.race_free = i % 3 == 0, .mem_weight = 15 + i % 40};
        rp_generate(p, 2200 + i, &opts);
        char *src = asm_disassemble(&p->tm, p->sm);
        CU_ASSERT_PTR_NOT_NULL_FATAL(src);
        const char *sets[32];
        unsigned n = variant(sets, i);
        sets[n] = NULL;
        outcome_t whole = run_src(src, sets, NULL);
        uint64_t end = whole.c.stop_ps / 1000;
        for (unsigned k = 0; k < LIMITS; k++) {
            char limit[64], what[96];
            uint64_t cycles = 1 + test_rand(&rs) % (end + 3);
            snprintf(limit, sizeof limit, "sim.time_limit=%llu", (unsigned long long)cycles);
            snprintf(what, sizeof what, "program %u (%s), %s", 2200 + i, sets[0], limit);
            sets[n] = limit;
            outcome_t dec;
            differing += !modes_agree(src, sets, n + 1, what, &dec);
            /* nothing after the stop: no instruction, no busy core */
            if (strcmp(dec.status, "time_limit") == 0) {
                stopped++;
                char sql[256];
                CU_ASSERT_EQUAL(dec.c.stop_ps, cycles * 1000);
                snprintf(sql, sizeof sql, "SELECT count(*) FROM core_tasks WHERE start_ps > %llu"
                         " OR finish_ps > %llu + 8000", (unsigned long long)(cycles * 1000),
                         (unsigned long long)(cycles * 1000));
                past_end += test_db_int(test_tmp_path("decoupled.db"), sql) != 0;
            }
            free(dec.dump);
        }
        free(whole.dump);
        free(src);
    }
    CU_ASSERT_EQUAL(differing, 0);
    CU_ASSERT_EQUAL(past_end, 0);
    CU_ASSERT_TRUE(stopped > PROGRAMS); /* most limits fall before the end */
    free(p);
}

/* The case: 16 cores in an endless ALU loop stopped at 100 cycles.
 * Each core starts at cycle 6 (decode 1 + transfer 4 + ready 1: the task
 * starts when its code has arrived) and runs one instruction per cycle
 * (set_const, set_const, then add/bnz for ever): the instructions starting at
 * cycles 6..100 are 95 per core, 1520 in all, and each core is busy 94 cycles. */
static void test_loop_stopped_at_100_cycles_counts_95_instructions_per_core(void)
{
    static const char src[] = ".group cores=0xffff fence=no\n set_const r9, 0\n"
                              " set_const r10, 1\nloop:\n add r9, r10, r9\n bnz loop, r10\n"
                              " ready\n";
    for (unsigned m = 0; m < 2; m++) {
        const char *sets[8] = {"sim.time_limit=100", m ? "core.model=simt" : "core.model=mimd"};
        CU_ASSERT_TRUE(modes_agree(src, sets, 2, sets[1], NULL));
        outcome_t o = run_src(src, sets, "loop.db");
        CU_ASSERT_STRING_EQUAL(o.status, "time_limit");
        CU_ASSERT_EQUAL(o.c.instructions, 1520);
        CU_ASSERT_EQUAL(test_db_int(test_tmp_path("loop.db"),
                                    "SELECT sum(value) FROM counters"
                                    " WHERE name = '" GEN_CTR_CORE_BUSY_PS "'"
                                    " AND component GLOB '" GEN_UNIT_CORE_GLOB "'"),
                        16 * 94000);
        CU_ASSERT_EQUAL(test_db_int(test_tmp_path("loop.db"),
                                    "SELECT max(until_ps) FROM parallelism"), 100000);
        free(o.dump);
    }
}

/* D16: core 0 keeps the lock of 0x300 and core 1's ld_sync waits for ever:
 * the deadlocked run stops at the same instant with the same rows. */
static void test_deadlocked_run_records_the_same_rows_in_both_modes(void)
{
    static const char src[] = ".group cores=0x3\n set_const r8, 0x43\n set_const r9, 0\n"
                              " ld [r9, r8], r1\n ready\n";
    for (unsigned m = 0; m < 3; m++) { /* MIMD, the stack, thread groups (S14) */
        const char *sets[8] = {"sm.atomics=on", m ? "core.model=simt" : "core.model=mimd",
                               m == 2 ? "simt.reconvergence=barrier" : "simt.broadcast=off"};
        outcome_t o;
        CU_ASSERT_TRUE(modes_agree(src, sets, 3, "deadlock", &o));
        CU_ASSERT_STRING_EQUAL(o.status, "deadlock");
        free(o.dump);
    }
}

/* D12, S10: random programs whose tasks run out of a small budget stop at
 * the watchdog's instant with the same rows in both modes, on both
 * machines: no decoupled core has run past the instant another core's
 * watchdog fires (gpu_watch), and a core's watchdog stops the run at the end
 * of its picosecond, whatever the order of that picosecond's events. */
static void test_watchdog_runs_record_the_same_rows_in_both_modes(void)
{
    program_t *p = malloc(sizeof *p);
    unsigned differing = 0, watchdogs = 0;
    for (unsigned i = 0; i < PROGRAMS; i++) {
        rp_opts_t opts = {.race_free = i % 3 == 0, .mem_weight = 10 + i % 30};
        rp_generate(p, 4400 + i, &opts);
        char *src = asm_disassemble(&p->tm, p->sm);
        CU_ASSERT_PTR_NOT_NULL_FATAL(src);
        const char *sets[32];
        unsigned n = variant(sets, i);
        char budget[64], what[96];
        snprintf(budget, sizeof budget, "core.budget=%u", 6 + i % 40);
        snprintf(what, sizeof what, "program %u (%s), %s", 4400 + i, sets[0], budget);
        sets[n++] = budget;
        outcome_t o;
        differing += !modes_agree(src, sets, n, what, &o);
        watchdogs += strcmp(o.status, "watchdog") == 0;
        free(o.dump);
        free(src);
    }
    CU_ASSERT_EQUAL(differing, 0);
    CU_ASSERT_TRUE(watchdogs > PROGRAMS / 2);
    free(p);
}

static const test_case_t cases[] = {
    TEST(test_loop_stopped_at_100_cycles_counts_95_instructions_per_core),
    TEST(test_time_limited_runs_record_the_same_rows_in_both_modes),
    TEST(test_deadlocked_run_records_the_same_rows_in_both_modes),
    TEST(test_watchdog_runs_record_the_same_rows_in_both_modes),
    TEST_END,
};

static const test_suite_t suites[] = {{"stopped", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

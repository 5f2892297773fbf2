/* test_race.c — the race detector (model/race.c): hand-made racy programs are
 * flagged with the right pair of accesses, under the untimed and the timed
 * executor alike; each ordering rule (D15 masks, acq, rel, transitivity), a
 * same-core variant, ld/ld and D16 atomic pairs make the race go away; every
 * example and every race-free random program of the differential test
 * reports none; the command prints the list. The SIMT unit (core.model =
 * simt) reports the same races as the MIMD cores and the ISS: the order of
 * race.h is the program's (frames and group masks), and a site is (frame,
 * core, slot, ld/st, sync, byte) with the lane as the core — a warp's ld/st
 * is one access per active lane, as each lane's core would make it under
 * MIMD (S8; merged broadcast lanes read their byte all the same). So where
 * every core executes the same ld/st at the same addresses on each machine
 * (no address or branch depends on a racy value, and no run stops early),
 * the sets of sites, hence the races, are equal. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "model/gpu.h"
#include "model/iss.h"
#include "model/race.h"
#include "tests/harness.h"
#include "tests/randprog.h"
#include "tests/testutil.h"

/* The races of `p` under the ISS, formatted one per line into buf. */
static size_t iss_races(const program_t *p, bool atomics, char *buf, size_t size)
{
    arch_state_t *st = malloc(sizeof *st);
    iss_desc_t desc = {.races = race_create(&p->tm), .atomics = atomics};
    iss_stats_t stats;
    CU_ASSERT_FATAL(desc.races != NULL);
    arch_reset(st, p->sm);
    CU_ASSERT_EQUAL(iss_run(&p->tm, st, &desc, &stats, NULL), TESS_OK);
    size_t n = race_count(desc.races), used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && used < size; i++) {
        race_format(race_get(desc.races, i), buf + used, size - used);
        used += strlen(buf + used);
        used += (size_t)snprintf(buf + used, size - used, "\n");
    }
    CU_ASSERT_EQUAL(race_status(desc.races), TESS_OK);
    race_destroy(desc.races);
    free(st);
    return n;
}

/* The same under the timed model with `desc` (NULL: the defaults). */
static size_t timed_races(const program_t *p, const gpu_desc_t *desc, char *buf, size_t size)
{
    gpu_desc_t def;
    if (!desc) {
        gpu_desc_default(&def);
        desc = &def;
    }
    sim_t *sim = sim_create();
    diag_t d = {0};
    gpu_t *g = gpu_create(sim, desc, p, &d);
    CU_ASSERT_FATAL(g != NULL);
    race_det_t *r = race_create(&p->tm);
    gpu_set_races(g, r);
    gpu_start(g);
    while (sim_run(sim, SIM_TIME_NEVER, 1u << 20) > 0 && sim_stop_reason(sim) == SIM_END_NONE)
        ;
    gpu_outcome_t out = gpu_outcome(g);
    if (out != GPU_DONE)
        fprintf(stderr, "timed run (%s): %s\n", desc->model == GPU_MODEL_SIMT ? "simt" : "mimd",
                gpu_errmsg(g));
    /* S9: two lanes of one warp in D16 sequences on one byte deadlock (the
       accesses were all noted when the warp issued them) */
    CU_ASSERT(out == GPU_DONE || (desc->model == GPU_MODEL_SIMT && out == GPU_STUCK));
    gpu_destroy(g);
    sim_destroy(sim);
    size_t n = race_count(r), used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && used < size; i++) {
        race_format(race_get(r, i), buf + used, size - used);
        used += strlen(buf + used);
        used += (size_t)snprintf(buf + used, size - used, "\n");
    }
    race_destroy(r);
    return n;
}

/* Asserts that the three executors (the ISS, the MIMD cores, the SIMT unit)
 * report exactly `expected` (one race per line, "" for none) for `src`. */
static void expect_races(const char *src, bool atomics, const char *expected, int line)
{
    program_t *p = malloc(sizeof *p);
    h_assemble(p, src);
    static char a[32768], b[32768], c[32768];
    iss_races(p, atomics, a, sizeof a);
    gpu_desc_t d;
    gpu_desc_default(&d);
    d.atomics = atomics;
    timed_races(p, &d, b, sizeof b);
    d.model = GPU_MODEL_SIMT;
    timed_races(p, &d, c, sizeof c);
    if (strcmp(a, expected) != 0 || strcmp(b, expected) != 0 || strcmp(c, expected) != 0)
        fprintf(stderr,
                "line %d: expected\n%s-- iss reported\n%s-- run reported\n%s"
                "-- run (simt) reported\n%s",
                line, expected, a, b, c);
    CU_ASSERT_STRING_EQUAL(a, expected);
    CU_ASSERT_STRING_EQUAL(b, expected);
    CU_ASSERT_STRING_EQUAL(c, expected);
    /* the SIMT pipeline (S11-S13): a ld/st's lanes leave in passes of 4 */
    d.simt_ibuffer = 2, d.simt_collectors = 2, d.simt_lsu_width = 4;
    timed_races(p, &d, c, sizeof c);
    if (strcmp(c, expected) != 0)
        fprintf(stderr, "line %d: -- run (simt pipeline) reported\n%s", line, c);
    CU_ASSERT_STRING_EQUAL(c, expected);
    /* thread groups (S14): the groups' ld/st note their lanes' accesses too */
    d.simt_ibuffer = 0, d.simt_collectors = 0, d.simt_lsu_width = 16;
    d.simt_reconvergence = GPU_RECONV_BARRIER;
    timed_races(p, &d, c, sizeof c);
    if (strcmp(c, expected) != 0)
        fprintf(stderr, "line %d: -- run (simt barrier) reported\n%s", line, c);
    CU_ASSERT_STRING_EQUAL(c, expected);
    free(p);
}
#define EXPECT_RACES(src, expected) expect_races(src, false, expected, __LINE__)

/* A store by core 0 (frame 1, slot 3) and a load by core 1 (frame 3, slot 2)
 * of byte 0x110 (bank 1, row 0x10). FENCE1/FENCE2 and the masks vary. */
#define WRITER(cores, fence)                                                                     \
    ".group cores=" cores " fence=" fence "\n"                                                   \
    "  set_const r8, 1\n  set_const r9, 0x10\n  set_const r10, 7\n  st [r9, r8], r10\n  ready\n"
#define READER(cores, fence)                                                                     \
    ".group cores=" cores " fence=" fence "\n"                                                   \
    "  set_const r8, 1\n  set_const r9, 0x10\n  ld [r9, r8], r10\n  ready\n"
#define THE_RACE "0x110: frame 1 core 0 slot 3 st / frame 3 core 1 slot 2 ld\n"

static void test_disjoint_groups_without_fence_race(void)
{
    EXPECT_RACES(WRITER("0x0001", "no") READER("0x0002", "no"), THE_RACE);
    /* the reader first: the pair is the same accesses, sorted by frame */
    EXPECT_RACES(READER("0x0002", "no") WRITER("0x0001", "no"),
                 "0x110: frame 1 core 1 slot 2 ld / frame 3 core 0 slot 3 st\n");
}

static void test_acq_orders_later_tasks_only(void)
{
    EXPECT_RACES(WRITER("0x0001", "acq") READER("0x0002", "no"), "");
    /* acq orders the group before later tasks, not after earlier ones */
    EXPECT_RACES(WRITER("0x0001", "no") READER("0x0002", "acq"), THE_RACE);
}

static void test_rel_orders_after_earlier_tasks_only(void)
{
    EXPECT_RACES(WRITER("0x0001", "no") READER("0x0002", "rel"), "");
    /* rel orders the group after earlier tasks, not before later ones */
    EXPECT_RACES(WRITER("0x0001", "rel") READER("0x0002", "no"), THE_RACE);
}

static void test_intersecting_masks_order_tasks(void)
{
    /* D15: the reader's group shares core 0 with the writer's */
    EXPECT_RACES(WRITER("0x0001", "no") READER("0x0003", "no"), "");
}

#define MIDDLE(cores) ".group cores=" cores "\n  nop\n  ready\n"

static void test_order_is_transitive(void)
{
    /* frames: CF0 IF1 (writer), CF2 IF3 (middle), CF4 IF5 (reader). The middle
     * task shares core 0 with the writer and core 1 with the reader. */
    EXPECT_RACES(WRITER("0x0001", "no") MIDDLE("0x0003") READER("0x0002", "no"), "");
    /* a middle task that shares a core with neither orders nothing */
    EXPECT_RACES(WRITER("0x0001", "no") MIDDLE("0x0004") READER("0x0002", "no"),
                 "0x110: frame 1 core 0 slot 3 st / frame 5 core 1 slot 2 ld\n");
    /* the middle shares a core with only one side */
    EXPECT_RACES(WRITER("0x0001", "no") MIDDLE("0x0005") READER("0x0002", "no"),
                 "0x110: frame 1 core 0 slot 3 st / frame 5 core 1 slot 2 ld\n");
}

static void test_same_core_and_loads_do_not_race(void)
{
    /* one core, two tasks of different groups */
    EXPECT_RACES(WRITER("0x0001", "no") READER("0x0001", "no"), "");
    /* two loads on different cores */
    EXPECT_RACES(READER("0x0001", "no") READER("0x0002", "no"), "");
    /* one core's store and load in one task */
    EXPECT_RACES(".group cores=0x0001\n  set_const r8, 1\n  set_const r9, 0x10\n"
                 "  st [r9, r8], r9\n  ld [r9, r8], r10\n  ready\n",
                 "");
}

static void test_cores_of_one_task_are_never_ordered(void)
{
    /* both cores store to byte 0x110: one race; every core on its own byte
     * (row = core id, r0 from set_const id): none */
    EXPECT_RACES(WRITER("0x0003", "acq"),
                 "0x110: frame 1 core 0 slot 3 st / frame 1 core 1 slot 3 st\n");
    EXPECT_RACES(".group cores=0x000f fence=acq\n  set_const r0, id\n  set_const r8, 1\n"
                 "  st [r0, r8], r0\n  ld [r0, r8], r1\n  ready\n",
                 "");
    /* three cores: each pair once, the store's byte only */
    EXPECT_RACES(".group cores=0x0007\n  set_const r8, 1\n  set_const r9, 0x10\n"
                 "  set_const r0, id\n  bnz skip, r0\n  st [r9, r8], r9\n  ready\n"
                 "skip:\n  ld [r9, r8], r1\n  ready\n",
                 "0x110: frame 1 core 0 slot 4 st / frame 1 core 1 slot 6 ld\n"
                 "0x110: frame 1 core 0 slot 4 st / frame 1 core 2 slot 6 ld\n");
}

static void test_atomic_sequences_do_not_race_each_other(void)
{
    /* two cores increment byte 0x310 with ld_sync/st_sync (r8 = 0x43) */
    static const char src[] = ".group cores=0x0003\n  set_const r8, 0x43\n  set_const r9, 0x10\n"
                              "  set_const r10, 1\n  ld [r9, r8], r1\n  add r1, r10, r1\n"
                              "  st [r9, r8], r1\n  ready\n";
    expect_races(src, true, "", __LINE__);
    /* with atomics off they are plain ld/st: three races (ld/st, st/ld, st/st) */
    expect_races(src, false,
                 "0x310: frame 1 core 0 slot 3 ld / frame 1 core 1 slot 5 st\n"
                 "0x310: frame 1 core 0 slot 5 st / frame 1 core 1 slot 3 ld\n"
                 "0x310: frame 1 core 0 slot 5 st / frame 1 core 1 slot 5 st\n",
                 __LINE__);
}

static void test_loops_report_each_race_once(void)
{
    /* the writer stores 200 times, the reader loads 200 times */
    EXPECT_RACES(".group cores=0x0001\n  set_const r8, 1\n  set_const r9, 0x10\n"
                 "  set_const r11, 200\n  set_const r12, 1\nloop:\n  st [r9, r8], r11\n"
                 "  sub r11, r12, r11\n  bnz loop, r11\n  ready\n"
                 ".group cores=0x0002\n  set_const r8, 1\n  set_const r9, 0x10\n"
                 "  set_const r11, 200\n  set_const r12, 1\nloop:\n  ld [r9, r8], r10\n"
                 "  sub r11, r12, r11\n  bnz loop, r11\n  ready\n",
                 "0x110: frame 1 core 0 slot 4 st / frame 3 core 1 slot 4 ld\n");
}

static void test_race_free_random_programs_report_none(void)
{
    /* the programs and configurations of test_equivalence's differential test */
    rp_opts_t opts = {.race_free = true};
    program_t *p = malloc(sizeof *p);
    char buf[512];
    unsigned flagged = 0;
    for (unsigned i = 0; i < 240; i++) {
        rp_generate(p, 1000 + i, &opts);
        gpu_desc_t d;
        gpu_desc_default(&d);
        d.policy = (uint8_t)(i & 1);
        d.bank_map = (uint8_t)((i >> 1) & 1);
        d.arbiter = (uint8_t)((i >> 2) & 3);
        d.window = (uint8_t)(1 + (i * 7) % 12);
        d.seed = i;
        size_t n = iss_races(p, false, buf, sizeof buf) + timed_races(p, &d, buf, sizeof buf);
        d.model = GPU_MODEL_SIMT;
        n += timed_races(p, &d, buf, sizeof buf);
        if (n)
            fprintf(stderr, "program %u: %s", 1000 + i, buf);
        flagged += n != 0;
    }
    CU_ASSERT_EQUAL(flagged, 0);
    /* and the generator's racy programs are flagged (the detector is not mute) */
    opts.race_free = false, opts.mem_weight = 60;
    unsigned racy = 0;
    for (unsigned i = 0; i < 20; i++) {
        rp_generate(p, 9000 + i, &opts);
        racy += iss_races(p, false, buf, sizeof buf) != 0;
    }
    CU_ASSERT_TRUE(racy >= 10);
    free(p);
}

static void test_every_example_reports_none(void)
{
    DIR *dir = opendir(test_src_path("examples"));
    CU_ASSERT_FATAL(dir != NULL);
    unsigned checked = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".s") != 0)
            continue;
        /* lock.s is written for sm.atomics=on (see its header) */
        const char *atomics = strcmp(e->d_name, "lock.s") == 0 ? " --atomics" : "";
        const char *run_atomics = *atomics ? " -s sm.atomics=on" : "";
        char cmd[1024], *out = NULL;
        snprintf(cmd, sizeof cmd, "iss %s/%s --races%s", test_src_path("examples"), e->d_name,
                 atomics);
        CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
        if (!out || !strstr(out, "races: none\n"))
            fprintf(stderr, "%s: %s\n", cmd, out ? out : "");
        CU_ASSERT(out && strstr(out, "races: none\n"));
        free(out);
        snprintf(cmd, sizeof cmd, "run %s/%s --no-db --quiet --races%s", test_src_path("examples"),
                 e->d_name, run_atomics);
        CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
        CU_ASSERT(out && strcmp(out, "races: none\n") == 0);
        if (!out || strcmp(out, "races: none\n") != 0)
            fprintf(stderr, "%s: %s\n", cmd, out ? out : "");
        free(out);
        /* the SIMT unit; lock.s's D16 sequences deadlock one warp (S9, exit 8,
           its accesses noted at issue) and still race with nothing */
        snprintf(cmd, sizeof cmd, "run %s/%s --no-db --quiet --races -s core.model=simt%s",
                 test_src_path("examples"), e->d_name, run_atomics);
        CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), *atomics ? 8 : 0);
        CU_ASSERT(out && strstr(out, "races: none\n"));
        if (!out || !strstr(out, "races: none\n"))
            fprintf(stderr, "%s: %s\n", cmd, out ? out : "");
        free(out);
        checked++;
    }
    closedir(dir);
    CU_ASSERT_TRUE(checked >= 15);
}

static void test_commands_list_the_races(void)
{
    const char *path = test_tmp_path("racy.s");
    static const char src[] = WRITER("0x0001", "no") READER("0x0002", "no");
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, src, sizeof src - 1), 0);
    char cmd[512], *out = NULL;
    snprintf(cmd, sizeof cmd, "iss %s --races", path);
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    CU_ASSERT(out && strstr(out, "races: 1 (") && strstr(out, "\n  " THE_RACE));
    free(out);
    snprintf(cmd, sizeof cmd, "run %s --no-db --quiet --races", path);
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    CU_ASSERT(out && strstr(out, "races: 1 (") && strstr(out, "\n  " THE_RACE));
    free(out);
    /* and into the database's races table */
    const char *db = test_tmp_path("racy.db");
    snprintf(cmd, sizeof cmd, "run %s --db %s --quiet --races", path, db);
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    free(out);
    char *row = test_db_text(db, "SELECT printf('0x%03x: frame %d core %d slot %d %s / frame %d "
                                 "core %d slot %d %s', addr, a_frame, a_core, a_slot, a_op, b_frame,"
                                 " b_core, b_slot, b_op) FROM races WHERE run_id = 1");
    CU_ASSERT_STRING_EQUAL(row ? row : "", "0x110: frame 1 core 0 slot 3 st / frame 3 core 1 slot 2 ld");
    free(row);
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM races"), 1);
    /* without --races nothing is said */
    snprintf(cmd, sizeof cmd, "run %s --no-db --quiet", path);
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    CU_ASSERT(out && strstr(out, "races") == NULL);
    free(out);
}

/* A random racy program whose ld/st addresses and branches depend only on
 * constants and the core id (never on a loaded value), so that every core
 * executes the same accesses under every executor: 1-4 groups of one task,
 * random masks over 8 cores and fences; each task stores or loads 2-5 times
 * to three shared bytes or its core's own byte, some accesses only on core 0
 * (a branch on the id: a divergent warp under SIMT). */
static void racy_program(char *src, size_t size, uint64_t *seed)
{
    static const char *const fences[] = {"no", "acq", "rel"};
    size_t at = 0;
    unsigned groups = 1 + (unsigned)(test_rand(seed) % 4);
    for (unsigned g = 0; g < groups; g++) {
        unsigned mask = 1 + (unsigned)(test_rand(seed) % 255);
        at += (size_t)snprintf(src + at, size - at,
                               ".group cores=0x%04x fence=%s\n  set_const r0, id\n"
                               "  set_const r8, 1\n  set_const r9, 0x10\n  set_const r10, 0x11\n",
                               mask, fences[test_rand(seed) % 3]);
        unsigned n = 2 + (unsigned)(test_rand(seed) % 4);
        for (unsigned k = 0; k < n; k++) {
            static const char *const rows[] = {"r9", "r10", "r0"};
            bool only0 = test_rand(seed) % 4 == 0, store = test_rand(seed) % 2;
            const char *row = rows[test_rand(seed) % 3];
            if (only0)
                at += (size_t)snprintf(src + at, size - at, "  bnz skip%u, r0\n", k);
            at += (size_t)snprintf(src + at, size - at,
                                   store ? "  st [%s, r8], r0\n" : "  ld [%s, r8], r1\n", row);
            if (only0)
                at += (size_t)snprintf(src + at, size - at, "skip%u:\n", k);
        }
        at += (size_t)snprintf(src + at, size - at, "  ready\n");
    }
}

static void test_three_executors_report_the_same_races(void)
{
    uint64_t seed = 22;
    char src[4096];
    unsigned racy = 0;
    for (unsigned i = 0; i < 200; i++) {
        racy_program(src, sizeof src, &seed);
        program_t *p = malloc(sizeof *p);
        h_assemble(p, src);
        static char a[32768];
        racy += iss_races(p, false, a, sizeof a) != 0;
        CU_ASSERT(strlen(a) + 100 < sizeof a); /* the whole list */
        free(p);
        expect_races(src, false, a, __LINE__); /* the ISS's list, under MIMD and SIMT */
    }
    CU_ASSERT_TRUE(racy >= 100); /* the programs do race */
}

/* The races table of a database's run 1, one race per line (as race_format). */
static char *db_races(const char *db)
{
    return test_db_text(db, "SELECT coalesce(group_concat(r, char(10)), '') FROM (SELECT "
                            "printf('0x%03x: frame %d core %d slot %d %s / frame %d core %d "
                            "slot %d %s', addr, a_frame, a_core, a_slot, a_op, b_frame, b_core,"
                            " b_slot, b_op) AS r FROM races WHERE run_id = 1 ORDER BY addr, "
                            "a_frame, a_core, a_slot, a_op, b_frame, b_core, b_slot, b_op)");
}

/* lock.s without atomics, whose 16 cores (lanes of one warp) each load and
 * store K at 0x300: 16 x 15 ld/st pairs + 120 st/st pairs = 360 races, the
 * same rows in `races` under both machines, and the list `iss` prints. */
static void test_machines_record_the_same_race_rows(void)
{
    char prog[512], cmd[1024], *out = NULL, *rows[2];
    snprintf(prog, sizeof prog, "%s", test_src_path("examples/lock.s"));
    for (unsigned m = 0; m < 2; m++) {
        const char *db = test_tmp_path(m ? "lock-simt.db" : "lock-mimd.db");
        remove(db);
        snprintf(cmd, sizeof cmd, "run %s --db %s --quiet --races -s core.model=%s", prog, db,
                 m ? "simt" : "mimd");
        CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
        free(out);
        CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM races"), 360);
        rows[m] = db_races(db);
        CU_ASSERT_PTR_NOT_NULL_FATAL(rows[m]);
    }
    CU_ASSERT_STRING_EQUAL(rows[0], rows[1]);
    snprintf(cmd, sizeof cmd, "iss %s --races", prog);
    CU_ASSERT_EQUAL(test_run_tessera(cmd, &out), 0);
    const char *list = out ? strstr(out, "\n  0x") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    /* the printed list: "  " before each line */
    char *iss = malloc(strlen(list) + 1), *w = iss;
    for (const char *r = list + 1; *r; r++) {
        if ((r == list + 1 || r[-1] == '\n') && r[0] == ' ' && r[1] == ' ')
            r += 2;
        *w++ = *r;
    }
    while (w > iss && w[-1] == '\n')
        w--;
    *w = 0;
    CU_ASSERT_STRING_EQUAL(iss, rows[0]);
    free(iss);
    free(out);
    free(rows[0]);
    free(rows[1]);
}

static const test_case_t cases[] = {
    TEST(test_disjoint_groups_without_fence_race),
    TEST(test_acq_orders_later_tasks_only),
    TEST(test_rel_orders_after_earlier_tasks_only),
    TEST(test_intersecting_masks_order_tasks),
    TEST(test_order_is_transitive),
    TEST(test_same_core_and_loads_do_not_race),
    TEST(test_cores_of_one_task_are_never_ordered),
    TEST(test_atomic_sequences_do_not_race_each_other),
    TEST(test_loops_report_each_race_once),
    TEST(test_race_free_random_programs_report_none),
    TEST(test_every_example_reports_none),
    TEST(test_commands_list_the_races),
    TEST(test_three_executors_report_the_same_races),
    TEST(test_machines_record_the_same_race_rows),
    TEST_END,
};

static const test_suite_t suites[] = {{"race", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

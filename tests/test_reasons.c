/* test_reasons.c — a stall reason's columns in the schema (analysis/store/
 * tables.h, "Adding a stall reason"): simt_warps and slot_counts have one
 * column stall_NAME_cycles per reason of the model's list. The migration to
 * version 14 still makes the tables version 14 made, written out here, not
 * taken from the code; a newer reason's column is added by one generic step
 * (schema_add_stalls) after every step from 14 on, so that a migrated file
 * has exactly the current columns in the current order, and a reason the
 * list does not have yet, fed to that step, becomes the last column of both
 * tables with 0 in their SIMT rows and NULL in slot_counts' MIMD rows. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "analysis/store/db.h"
#include "analysis/store/schema.h"
#include "analysis/store/tables.h"
#include "events/base/err.h"
#include "tests/testutil.h"

#define rows test_q_rows
#define q_int test_q_int

/* The tables of version 14, as that version made them. */
#define WARPS_V14                                                                           \
    "run_id frame mask lanes start_ps end_ps warp_instructions lane_instructions"           \
    " divergent_branches max_stack_depth resident_cycles issued_cycles stall_memory_cycles" \
    " stall_execute_cycles stall_issue_cycles mem_instructions requests replays complete"   \
    " max_groups barriers stall_barrier_cycles stall_fetch_cycles stall_collector_cycles"
#define SLOTS_V14                                                                           \
    "run_id frame core slot word text tasks instructions lane_instructions issued_cycles"   \
    " stall_memory_cycles stall_execute_cycles stall_issue_cycles stall_fetch_cycles"       \
    " stall_collector_cycles stall_barrier_cycles execute_ps sm_wait_ps"

/* The current tables' columns (tables.h). */
#define COL_WORD(name, type) " " #name
#define COL_NONE(name, type)
static const char warps_now[] = "run_id" DB_SIMT_WARPS(COL_WORD, COL_NONE);
static const char slots_now[] = "run_id" DB_SLOT_COUNTS(COL_WORD, COL_NONE);

/* A MIMD run, a SIMT run under the stack and one under barrier
 * reconvergence, at level tasks: slot_counts has MIMD and SIMT rows,
 * simt_warps rows with and without thread groups. */
static void record_three(const char *db)
{
    static const char *const runs[][2] = {
        {"examples/stages.s", "-s record.level=tasks"},
        {"examples/stages.s", "-s record.level=tasks -s core.model=simt -s simt.ibuffer=1"
                              " -s simt.collectors=1"},
        {"examples/simt_diverge.s", "-s record.level=tasks -s core.model=simt"
                                    " -s simt.reconvergence=barrier"}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
        CU_ASSERT_EQUAL_FATAL(test_record(db, test_src_path(runs[i][0]), runs[i][1]), 0);
    CU_ASSERT(q_int(db, "SELECT count(*) FROM slot_counts WHERE core IS NULL") > 0);
    CU_ASSERT(q_int(db, "SELECT count(*) FROM slot_counts WHERE core IS NOT NULL") > 0);
    CU_ASSERT(q_int(db, "SELECT count(*) FROM simt_warps WHERE max_groups IS NULL") > 0);
    CU_ASSERT(q_int(db, "SELECT count(*) FROM simt_warps WHERE max_groups IS NOT NULL") > 0);
}

/* `table`'s columns in the file, in order. */
static const char *columns(const char *db, const char *table)
{
    return rows(db, "SELECT group_concat(name, ' ') FROM"
                    " (SELECT name FROM pragma_table_info('%s') ORDER BY cid)", table);
}

/* Runs SQL on the file (read-write); expects success. */
static void exec_on(const char *db, const char *sql)
{
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
    CU_ASSERT_EQUAL(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
}

/* schema_add_stalls(columns) on the file; its result. */
static int add_stalls(const char *db, const char *const *cols)
{
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
    diag_t d = {0};
    int rc = schema_add_stalls(h, db, cols, &d);
    if (rc != TESS_OK)
        fprintf(stderr, "schema_add_stalls: %s\n", d.msg);
    sqlite3_close(h);
    return rc;
}

/* The current tables are version 14's followed by a column per newer
 * reason (schema_new_stalls), in the list's order. */
static void test_current_columns_follow_v14(void)
{
    char warps[2048] = WARPS_V14, slots[2048] = SLOTS_V14;
    for (const char *const *c = schema_new_stalls; *c; c++) {
        snprintf(warps + strlen(warps), sizeof warps - strlen(warps), " %s", *c);
        snprintf(slots + strlen(slots), sizeof slots - strlen(slots), " %s", *c);
    }
    CU_ASSERT_STRING_EQUAL(warps_now, warps);
    CU_ASSERT_STRING_EQUAL(slots_now, slots);
}

/* The step 13 -> 14 alone, on a file of version 13 (no slot_counts, no
 * pipeline stalls in simt_warps), makes version 14's tables: slot_counts
 * empty, simt_warps' two new columns 0 in every row. Then a whole migration
 * of such a file (a run added) gives exactly the current columns, in the
 * order of a new file's, and keeps the old rows. */
static void test_v14_step_frozen_and_migration_current(void)
{
    char db[512], fresh[512];
    test_fresh_path("reasons-v13.db", db, sizeof db);
    test_fresh_path("reasons-new.db", fresh, sizeof fresh);
    record_three(db);
    long long warps = q_int(db, "SELECT count(*) FROM simt_warps");
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
    test_db_drop_views(h);
    sqlite3_close(h);
    exec_on(db, "DROP TABLE simt_waits; DROP TABLE slot_counts;"
                " ALTER TABLE simt_warps DROP COLUMN stall_fetch_cycles;"
                " ALTER TABLE simt_warps DROP COLUMN stall_collector_cycles;"
                " PRAGMA user_version = 13");
    CU_ASSERT_PTR_NOT_NULL_FATAL(schema_migration(13));
    exec_on(db, schema_migration(13));
    CU_ASSERT_STRING_EQUAL(columns(db, "simt_warps"), WARPS_V14);
    CU_ASSERT_STRING_EQUAL(columns(db, "slot_counts"), SLOTS_V14);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM slot_counts"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM simt_warps"
                              " WHERE stall_fetch_cycles = 0 AND stall_collector_cycles = 0"),
                    warps);
    /* the whole migration (from 13 again: the step's tables dropped) */
    exec_on(db, "DROP TABLE slot_counts;"
                " ALTER TABLE simt_warps DROP COLUMN stall_fetch_cycles;"
                " ALTER TABLE simt_warps DROP COLUMN stall_collector_cycles");
    CU_ASSERT_EQUAL_FATAL(test_record(db, test_src_path("examples/stages.s"),
                                      "-s record.level=tasks -s core.model=simt"), 0);
    CU_ASSERT_EQUAL(q_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    CU_ASSERT_EQUAL_FATAL(test_record(fresh, test_src_path("examples/stages.s"),
                                      "-s record.level=tasks -s core.model=simt"), 0);
    CU_ASSERT_STRING_EQUAL(columns(db, "simt_warps"), warps_now);
    CU_ASSERT_STRING_EQUAL(columns(db, "slot_counts"), slots_now);
    CU_ASSERT_STRING_EQUAL(columns(fresh, "simt_warps"), warps_now);
    CU_ASSERT_STRING_EQUAL(columns(fresh, "slot_counts"), slots_now);
    CU_ASSERT(q_int(db, "SELECT count(*) FROM simt_warps WHERE run_id <= 3") == warps);
}

/* The generic step on a current file changes nothing; with a reason the
 * list does not have, it adds that reason's column last to both tables —
 * 0 in their SIMT rows, NULL in slot_counts' MIMD rows — leaves every other
 * value alone, and a second time changes nothing. */
static void test_generic_step_adds_a_reason(void)
{
    char db[512];
    test_fresh_path("reasons-generic.db", db, sizeof db);
    record_three(db);
    exec_on(db, "CREATE TABLE w0 AS SELECT * FROM simt_warps;"
                " CREATE TABLE s0 AS SELECT * FROM slot_counts");
    CU_ASSERT_EQUAL(add_stalls(db, NULL), TESS_OK);
    CU_ASSERT_STRING_EQUAL(columns(db, "simt_warps"), warps_now);
    CU_ASSERT_STRING_EQUAL(columns(db, "slot_counts"), slots_now);

    static const char *const pretend[] = {"stall_pretend_cycles", NULL};
    for (int pass = 0; pass < 2; pass++) {
        CU_ASSERT_EQUAL(add_stalls(db, pretend), TESS_OK);
        char want[2048];
        snprintf(want, sizeof want, "%s stall_pretend_cycles", warps_now);
        CU_ASSERT_STRING_EQUAL(columns(db, "simt_warps"), want);
        snprintf(want, sizeof want, "%s stall_pretend_cycles", slots_now);
        CU_ASSERT_STRING_EQUAL(columns(db, "slot_counts"), want);
    }
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM simt_warps"
                              " WHERE stall_pretend_cycles IS NOT 0"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM slot_counts WHERE core IS NULL"
                              " AND stall_pretend_cycles IS NOT 0"), 0);
    CU_ASSERT_EQUAL(q_int(db, "SELECT count(*) FROM slot_counts WHERE core IS NOT NULL"
                              " AND stall_pretend_cycles IS NOT NULL"), 0);
    exec_on(db, "ALTER TABLE simt_warps DROP COLUMN stall_pretend_cycles;"
                " ALTER TABLE slot_counts DROP COLUMN stall_pretend_cycles");
    static const char *const kept[][2] = {{"simt_warps", "w0"}, {"slot_counts", "s0"}};
    for (size_t i = 0; i < 2; i++)
        CU_ASSERT_EQUAL(q_int(db, "SELECT (SELECT count(*) FROM %s) - (SELECT count(*) FROM %s)"
                                  " + (SELECT count(*) FROM (SELECT * FROM %s EXCEPT"
                                  " SELECT * FROM %s))", kept[i][0], kept[i][1], kept[i][0],
                              kept[i][1]), 0);
}

int main(void)
{
    static const test_case_t cases[] = {
        TEST(test_current_columns_follow_v14), TEST(test_v14_step_frozen_and_migration_current),
        TEST(test_generic_step_adds_a_reason), TEST_END};
    static const test_suite_t suites[] = {{"stall reasons' columns", cases}, {NULL, NULL}};
    return test_run_suites(suites);
}

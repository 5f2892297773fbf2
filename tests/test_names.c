/* test_names.c — the names that cross the layer wall agree with their one
 * list: the model's stall reasons (model/gpu_trace.h), configuration keys
 * (model/gpu_keys.h) and their values (model/gpu.h), which analysis/ spells
 * in SQL through the generated tessera_names.h (cmake/gen-names.c). What the
 * build does not imply is checked on recorded runs: every reason has its
 * column in each relation that has one per reason — and no relation a
 * reason's column the list lacks (simt_warps' columns are the schema's
 * history, typed) — its counter, its interval unit and its simt_stalls row
 * with the counter's cycles; the views read each key and value under the
 * name the configuration records; the generated lists hold each entry of
 * the model's once. The same for the counters (model/gpu_counters.h) and
 * the units that report them: the generated lists are the model's, the
 * model records exactly its lists' counters under its units' names (the
 * intervals too), and the views that pivot a unit's counters show each of
 * them with its value, in every row of every unit — or the test's list of
 * counters no view shows says why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/gpu.h"
#include "model/gpu_trace.h"
#include "tessera_names.h"
#include "tests/testutil.h"

static char db_path[512];

/* One MIMD run, one SIMT run under the stack with the pipeline and one
 * under barrier reconvergence (runs 1, 2, 3), at level tasks with
 * intervals, with keys set away from their defaults; between the two SIMT
 * runs every stall reason occurs. */
static const struct {
    const char *prog, *opts;
} runs[] = {
    {"examples/stages.s",
     "-s sm.arbiter=random -s sm.banks=8 -s sm.bank_map=xor -s ts.policy=lookahead"
     " -s ts.window=4 -s sm.atomics=on"},
    {"examples/stages.s",
     "-s core.model=simt -s simt.scheduler=gto -s simt.scoreboard=on -s simt.broadcast=on"
     " -s sm.banks=4 -s simt.ibuffer=1 -s simt.collectors=1 -s simt.sp_width=4 -s core.mul=4"
     " -s core.alu=2 -s simt.fetch_latency=3"},
    {"examples/simt_diverge.s",
     "-s core.model=simt -s simt.reconvergence=barrier -s simt.scheduler=oldest"
     " -s core.timing=stepped -s simt.collectors=1 -s simt.sp_width=4 -s core.mul=4"
     " -s core.alu=2 -s simt.issue_width=2"},
};
#define RUNS (sizeof runs / sizeof runs[0])

static int setup(void)
{
    if (db_path[0])
        return 0;
    test_fresh_path("names.db", db_path, sizeof db_path);
    for (size_t k = 0; k < RUNS; k++) {
        char opts[512];
        snprintf(opts, sizeof opts, "-s record.level=tasks -s record.interval=50 %s",
                 runs[k].opts);
        if (test_record(db_path, test_src_path(runs[k].prog), opts) != 0)
            return 1;
    }
    return 0;
}

static int64_t q(const char *fmt, const char *a, const char *b)
{
    char sql[512];
    snprintf(sql, sizeof sql, fmt, a, b);
    return test_db_int(db_path, sql);
}

/* Every SIMT stall reason of the model's list has its stall_NAME_cycles in
 * each relation with a column per reason, and those relations have no
 * other stall_*_cycles (nor utilization_over_time another stall_*_share). */
static void test_simt_reasons_have_their_columns(void)
{
    static const char *const relations[] = {"simt_warps", "slot_counts", "slot_profile",
                                            "simt_warp_efficiency", "simt_efficiency",
                                            "utilization_over_time"};
    CU_ASSERT_FATAL(setup() == 0);
    for (size_t r = 0; r < sizeof relations / sizeof relations[0]; r++) {
        for (unsigned k = 0; k < GPU_SIMT_STALLS; k++) {
            char col[64];
            snprintf(col, sizeof col, "stall_%s_cycles", gpu_simt_stall_name(k));
            int64_t n = q("SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'",
                          relations[r], col);
            if (n != 1)
                fprintf(stderr, "%s has no column %s\n", relations[r], col);
            CU_ASSERT_EQUAL(n, 1);
        }
        CU_ASSERT_EQUAL(q("SELECT count(*) FROM pragma_table_info('%s')"
                          " WHERE name GLOB 'stall_*_cycles'%s",
                          relations[r], ""),
                        GPU_SIMT_STALLS);
    }
    CU_ASSERT_EQUAL(q("SELECT count(*) FROM pragma_table_info('%s')"
                      " WHERE name GLOB 'stall_*_share'%s", "utilization_over_time", ""),
                    GPU_SIMT_STALLS);
}

/* Each reason's counter, interval unit and simt_stalls row, with the
 * counter's cycles: every reason in the barrier run (3), all but barrier in
 * the stack's (2); and a reason's cycles over the slot profile and over the
 * intervals are its counter's. */
static void test_simt_reasons_agree_with_their_rows(void)
{
    CU_ASSERT_FATAL(setup() == 0);
    for (int run = 2; run <= 3; run++) {
        for (unsigned k = 0; k < GPU_SIMT_STALLS; k++) {
            const char *name = gpu_simt_stall_name(k);
            bool has = run == 3 || k != GPU_SIMT_STALL_BARRIER;
            char sql[1024];
            snprintf(sql, sizeof sql,
                     "SELECT count(*) FROM simt_stalls AS s JOIN counters AS c"
                     " ON c.run_id = s.run_id AND c.component = 'simt'"
                     " AND c.name = 'stall_%s_cycles'"
                     " WHERE s.run_id = %d AND s.reason = '%s' AND s.cycles = c.value"
                     " AND c.value = (SELECT sum(stall_%s_cycles) FROM slot_profile"
                     "  WHERE run_id = %d AND core IS NULL)"
                     " AND c.value * (SELECT period_ps FROM runs WHERE run_id = %d) ="
                     "  (SELECT sum(busy_ps) FROM intervals WHERE run_id = %d"
                     "   AND unit = 'simt.%s')",
                     name, run, name, name, run, run, run, name);
            int64_t n = test_db_int(db_path, sql);
            if (n != has)
                fprintf(stderr, "run %d, reason %s: %lld rows agree\n", run, name,
                        (long long)n);
            CU_ASSERT_EQUAL(n, has);
        }
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM simt_stalls WHERE run_id = %d", run);
        CU_ASSERT_EQUAL(test_db_int(db_path, sql),
                        run == 3 ? GPU_SIMT_STALLS : GPU_SIMT_STALLS - 1);
    }
    /* each reason occurred in one of the runs: the checks above are not of
       zeros only */
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++) {
        int64_t most = q("SELECT max(cycles) FROM simt_stalls WHERE reason = '%s'%s",
                         gpu_simt_stall_name(k), "");
        if (most <= 0)
            fprintf(stderr, "reason %s: no cycles in the runs\n", gpu_simt_stall_name(k));
        CU_ASSERT(most > 0);
    }
}

/* The TS's reasons a frame waits for (all but decode) have their
 * NAME_ps and NAME_cycles in frame_stalls, and it has no other. */
static void test_ts_reasons_have_their_columns(void)
{
    CU_ASSERT_FATAL(setup() == 0);
    for (unsigned k = 0; k < GPU_STALL_REASONS; k++) {
        char ps[32], cycles[32];
        snprintf(ps, sizeof ps, "%s_ps", gpu_stall_name(k));
        snprintf(cycles, sizeof cycles, "%s_cycles", gpu_stall_name(k));
        /* decode's would be decode_cycles (decode_ps is the frame's) */
        int64_t want = k == GPU_STALL_DECODE ? 1 : 2;
        CU_ASSERT_EQUAL(q("SELECT count(*) FROM pragma_table_info('frame_stalls')"
                          " WHERE name IN ('%s', '%s')", ps, cycles), want);
    }
    /* waiting, attributed, unattributed and the reasons' */
    CU_ASSERT_EQUAL(q("SELECT count(*) FROM pragma_table_info('%s') WHERE name GLOB '*_ps'"
                      " AND name NOT IN ('decode_ps', 'issue_ps')%s", "frame_stalls", ""),
                    3 + GPU_STALL_REASONS - 1);
}

/* run_summary reads each key under the name the configuration records it
 * by (its value is the params row's), and the machines' and modes' names
 * are the model's. */
static void test_views_read_the_recorded_keys(void)
{
    static const struct {
        const char *column, *key;
        bool simt_only;
    } cols[] = {
        {"policy", GEN_KEY_TS_POLICY, false},       {"ts_window", GEN_KEY_TS_WINDOW, false},
        {"arbiter", GEN_KEY_SM_ARBITER, false},     {"bank_map", GEN_KEY_SM_BANK_MAP, false},
        {"banks", GEN_KEY_SM_BANKS, false},         {"atomics", GEN_KEY_SM_ATOMICS, false},
        {"timing", GEN_KEY_CORE_TIMING, false},     {"ts_decode", GEN_KEY_TS_DECODE, false},
        {"ts_xfer", GEN_KEY_TS_XFER, false},        {"ts_ready", GEN_KEY_TS_READY, false},
        {"sm_req", GEN_KEY_SM_REQ, false},          {"sm_bank", GEN_KEY_SM_BANK, false},
        {"sm_resp", GEN_KEY_SM_RESP, false},        {"seed", GEN_KEY_SIM_SEED, false},
        {"core_model", GEN_KEY_CORE_MODEL, false},
        {"simt_scheduler", GEN_KEY_SIMT_SCHEDULER, true},
        {"simt_issue_width", GEN_KEY_SIMT_ISSUE_WIDTH, true},
        {"simt_scoreboard", GEN_KEY_SIMT_SCOREBOARD, true},
        {"simt_broadcast", GEN_KEY_SIMT_BROADCAST, true},
        {"simt_reconvergence", GEN_KEY_SIMT_RECONVERGENCE, true},
    };
    CU_ASSERT_FATAL(setup() == 0);
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
        char sql[768];
        /* the runs that record the key (one at least) show its value; a
           simt.* key is NULL on the MIMD run (1) */
        snprintf(sql, sizeof sql,
                 "SELECT (SELECT count(*) FROM run_summary AS s JOIN params AS p"
                 "  ON p.run_id = s.run_id AND p.key = '%s' WHERE s.%s IS p.value)"
                 " = (SELECT count(*) FROM params WHERE key = '%s')"
                 " AND (SELECT count(*) FROM params WHERE key = '%s') > 0"
                 " AND (NOT %d OR (SELECT %s IS NULL FROM run_summary WHERE run_id = 1))",
                 cols[c].key, cols[c].column, cols[c].key, cols[c].key, cols[c].simt_only,
                 cols[c].column);
        int64_t ok = test_db_int(db_path, sql);
        if (ok != 1)
            fprintf(stderr, "run_summary.%s does not show %s\n", cols[c].column, cols[c].key);
        CU_ASSERT_EQUAL(ok, 1);
    }
    char *model = test_db_text(db_path, "SELECT group_concat(core_model || '/' ||"
                                        " coalesce(simt_reconvergence, '-'), ' ')"
                                        " FROM (SELECT * FROM run_summary ORDER BY run_id)");
    char want[128];
    snprintf(want, sizeof want, "%s/- %s/%s %s/%s", gpu_model_names[GPU_MODEL_MIMD],
             gpu_model_names[GPU_MODEL_SIMT], gpu_reconv_names[GPU_RECONV_STACK],
             gpu_model_names[GPU_MODEL_SIMT], gpu_reconv_names[GPU_RECONV_BARRIER]);
    CU_ASSERT_STRING_EQUAL(model ? model : "(null)", want);
    free(model);
}

/* The report shows each reason of the slot profile (a barrier run's
 * barrier too) and the warps' table each reason of every run. */
static void test_report_columns_name_every_reason(void)
{
    CU_ASSERT_FATAL(setup() == 0);
    for (int run = 2; run <= 3; run++) {
        char args[768], *out = NULL;
        snprintf(args, sizeof args, "report %s --slots --run %d", db_path, run);
        CU_ASSERT_EQUAL(test_run_tessera(args, &out), 0);
        /* the column heads: the line after the first frame's heading */
        char *head = out ? strstr(out, "\nframe ") : NULL;
        head = head ? strchr(head + 1, '\n') : NULL;
        CU_ASSERT_PTR_NOT_NULL_FATAL(head);
        char *eol = strchr(head + 1, '\n');
        if (eol)
            *eol = 0;
        for (unsigned k = 0; k < GPU_SIMT_STALLS; k++) {
            bool shown = false;
            char heads[512];
            snprintf(heads, sizeof heads, "%s", head + 1);
            for (char *w = strtok(heads, " "); w; w = strtok(NULL, " "))
                shown |= !strcmp(w, gpu_simt_stall_name(k));
            CU_ASSERT_EQUAL(shown, run == 3 || k != GPU_SIMT_STALL_BARRIER);
        }
        free(out);
    }
    char args[768], *out = NULL;
    snprintf(args, sizeof args, "report %s --run 2 --table warps --format csv", db_path);
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 0);
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++) {
        char col[64];
        snprintf(col, sizeof col, "stall_%s_cycles", gpu_simt_stall_name(k));
        CU_ASSERT_PTR_NOT_NULL(out ? strstr(out, col) : NULL);
    }
    free(out);
}

/* The generated lists hold each of the model's entries once: the slot
 * profile's order is a permutation of the list, the split into every run's
 * reasons and the thread groups' covers it. */
#define NAME_OF(name, literal) #name,
static void test_generated_lists_are_the_models(void)
{
    static const char *const all[] = {GEN_SIMT_STALLS(NAME_OF)};
    static const char *const slot[] = {GEN_SLOT_STALLS(NAME_OF, NAME_OF)};
    static const char *const by[] = {GEN_SIMT_STALLS_BY(NAME_OF, NAME_OF)};
    CU_ASSERT_EQUAL(sizeof all / sizeof all[0], GPU_SIMT_STALLS);
    CU_ASSERT_EQUAL(sizeof slot / sizeof slot[0], GPU_SIMT_STALLS);
    CU_ASSERT_EQUAL(GEN_SIMT_STALL_COUNT, GPU_SIMT_STALLS);
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++) {
        CU_ASSERT_STRING_EQUAL(all[k], gpu_simt_stall_name(k));
        CU_ASSERT_STRING_EQUAL(by[k], gpu_simt_stall_name(k));
        int found = 0;
        for (unsigned j = 0; j < GPU_SIMT_STALLS; j++)
            found += !strcmp(slot[j], gpu_simt_stall_name(k));
        CU_ASSERT_EQUAL(found, 1);
    }
    CU_ASSERT_STRING_EQUAL(GEN_MODEL_SIMT, gpu_model_names[GPU_MODEL_SIMT]);
    CU_ASSERT_STRING_EQUAL(GEN_MODEL_MIMD, gpu_model_names[GPU_MODEL_MIMD]);
    CU_ASSERT_STRING_EQUAL(GEN_RECONV_STACK, gpu_reconv_names[GPU_RECONV_STACK]);
    CU_ASSERT_STRING_EQUAL(GEN_RECONV_BARRIER, gpu_reconv_names[GPU_RECONV_BARRIER]);
}

/* ---- the counters and their units (model/gpu_counters.h) ------------------ */

/* Each unit's counters as tessera_names.h lists them (X: every run of the
 * unit; G: runs with thread groups alone), the unit's name or GLOB pattern
 * of its rows, and the views that pivot its counters with the column that
 * says which unit a row is (NULL: one row per run). */
typedef struct {
    const char *name;
    bool groups;
} ctr_t;
#define CTR_X(name, literal) {literal, false},
#define CTR_G(name, literal) {literal, true},
static const ctr_t gpu_ctrs[] = {GEN_CTRS_GPU(CTR_X, CTR_G)};
static const ctr_t ts_ctrs[] = {GEN_CTRS_TS(CTR_X, CTR_G)};
static const ctr_t core_ctrs[] = {GEN_CTRS_CORE(CTR_X, CTR_G)};
static const ctr_t bank_ctrs[] = {GEN_CTRS_BANK(CTR_X, CTR_G)};
static const ctr_t simt_ctrs[] = {GEN_CTRS_SIMT(CTR_X, CTR_G)};
#define N_OF(a) (sizeof a / sizeof a[0])
static const struct {
    gpu_unit_t unit;
    const char *glob, *prefix; /* prefix: a numbered unit's name, "core" */
    const ctr_t *ctrs;
    size_t n;
    const char *views[3], *key;
} units[] = {
    {GPU_UNIT_GPU, GEN_UNIT_GPU, NULL, gpu_ctrs, N_OF(gpu_ctrs), {"run_summary"}, NULL},
    {GPU_UNIT_TS, GEN_UNIT_TS, NULL, ts_ctrs, N_OF(ts_ctrs), {NULL}, NULL}, /* waiting_ps */
    {GPU_UNIT_CORE, GEN_UNIT_CORE_GLOB, GEN_UNIT_CORE, core_ctrs, N_OF(core_ctrs),
     {"core_utilization"}, "core"},
    {GPU_UNIT_BANK, GEN_UNIT_BANK_GLOB, GEN_UNIT_BANK, bank_ctrs, N_OF(bank_ctrs),
     {"bank_utilization", "bank_conflicts"}, "bank"},
    {GPU_UNIT_SIMT, GEN_UNIT_SIMT, NULL, simt_ctrs, N_OF(simt_ctrs),
     {"simt_efficiency", "run_summary"}, NULL},
};
_Static_assert(N_OF(units) == GPU_UNIT_COUNT, "a row per unit of the model");

/* The model's list (gpu_counters.h) entry by entry is the generated one:
 * each unit's counters in order, an R entry's one per reason of the
 * unit's list (the SIMT unit's barrier: thread groups only), and the units'
 * names are the model's (gpu_unit_name). */
static size_t seen[GPU_UNIT_COUNT];
static void expect(gpu_unit_t unit, const char *name, bool groups)
{
    for (size_t u = 0; u < N_OF(units); u++) {
        if (units[u].unit != unit)
            continue;
        size_t k = seen[u]++;
        CU_ASSERT_FATAL(k < units[u].n);
        if (strcmp(units[u].ctrs[k].name, name) || units[u].ctrs[k].groups != groups)
            fprintf(stderr, "generated counter %zu of %s: %s, the model's %s\n", k,
                    units[u].glob, units[u].ctrs[k].name, name);
        CU_ASSERT_STRING_EQUAL(units[u].ctrs[k].name, name);
        CU_ASSERT_EQUAL(units[u].ctrs[k].groups, groups);
    }
}
static void test_generated_counters_are_the_models(void)
{
    CU_ASSERT_FATAL(setup() == 0);
    memset(seen, 0, sizeof seen);
#define M_X(unit, id, name, what) expect(GPU_UNIT_##unit, name, false);
#define M_G(unit, id, name, what) expect(GPU_UNIT_##unit, name, true);
#define M_R(unit, id, prefix, suffix, what)                                                 \
    for (unsigned k = 0; k < (GPU_UNIT_##unit == GPU_UNIT_TS ? GPU_STALL_REASONS            \
                                                             : GPU_SIMT_STALLS); k++) {     \
        bool ts = GPU_UNIT_##unit == GPU_UNIT_TS;                                           \
        char name[64];                                                                      \
        snprintf(name, sizeof name, "%s%s%s", prefix,                                       \
                 ts ? gpu_stall_name(k) : gpu_simt_stall_name(k), suffix);                  \
        expect(GPU_UNIT_##unit, name, !ts && k == GPU_SIMT_STALL_BARRIER);                  \
    }
    GPU_COUNTERS(M_X, M_G, M_R)
    for (size_t u = 0; u < N_OF(units); u++)
        CU_ASSERT_EQUAL(seen[u], units[u].n);
    char buf[GPU_UNIT_NAME_MAX], want[GPU_UNIT_NAME_MAX];
    for (size_t u = 0; u < N_OF(units); u++) {
        /* a numbered unit's rows match its GLOB, and start with its name */
        if (units[u].prefix) {
            snprintf(want, sizeof want, "%s7", units[u].prefix);
            CU_ASSERT_STRING_EQUAL(gpu_unit_name(buf, units[u].unit, 7, NULL), want);
            CU_ASSERT_EQUAL(q("SELECT '%s' GLOB '%s'", buf, units[u].glob), 1);
        } else {
            CU_ASSERT_STRING_EQUAL(gpu_unit_name(buf, units[u].unit, 0, NULL), units[u].glob);
        }
    }
    snprintf(want, sizeof want, "%s%s", GEN_UNIT_SIMT_REASON, gpu_simt_stall_name(0));
    CU_ASSERT_STRING_EQUAL(gpu_unit_name(buf, GPU_UNIT_SIMT, 0, gpu_simt_stall_name(0)), want);
    /* a numbered unit's number starts after its name (SQL's substr, from 1) */
    CU_ASSERT_EQUAL(strlen(GEN_UNIT_CORE) + 1, atoi(GEN_UNIT_CORE_NUMBER_AT));
    CU_ASSERT_EQUAL(strlen(GEN_UNIT_BANK) + 1, atoi(GEN_UNIT_BANK_NUMBER_AT));
}

/* The counters of a unit with views that no view shows under their name,
 * and why: a new counter of the model is shown by its unit's views, or
 * named here. (No view pivots the TS's: run_summary.waiting_ps sums its
 * stall counters, checked below.) */
static const struct {
    const char *glob, *name;
} unshown[] = {
    {GEN_UNIT_GPU, GEN_CTR_GPU_DIV_BY_ZERO},        /* the counters table only */
    {GEN_UNIT_CORE_GLOB, GEN_CTR_CORE_DIV_BY_ZERO}, /* likewise */
    {GEN_UNIT_SIMT, GEN_CTR_SIMT_ISSUE_UTIL_PPM},   /* run_summary.issue_utilization: / 10^6 */
};

/* The counters' names and units as SQL: (glob, name, groups) rows. */
static char *expected_counters(void)
{
    char *sql = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&sql, &len);
    fprintf(f, "WITH expected(glob, name, groups) AS (VALUES ");
    for (size_t u = 0; u < N_OF(units); u++)
        for (size_t k = 0; k < units[u].n; k++)
            fprintf(f, "%s('%s', '%s', %d)", u || k ? ", " : "", units[u].glob,
                    units[u].ctrs[k].name, units[u].ctrs[k].groups);
    fprintf(f, ") ");
    fclose(f);
    return sql;
}

/* The rows of `with` `select` (a WITH clause, or "", and a SELECT): none,
 * or they are printed, after `what`. */
static void no_rows(const char *what, const char *with, const char *select)
{
    const char *rows = test_q_rows(db_path, "%s%s", with, select);
    if (*rows)
        fprintf(stderr, "%s: %s\n", what, rows);
    CU_ASSERT_STRING_EQUAL(rows, "");
}

/* The model writes exactly its lists' counters: no counter the lists lack
 * (a name typed beside them, or misspelt), each listed one for each of its
 * units in every run (the thread groups' in the barrier run, 3, alone),
 * and each unit it has: gpu, ts, 16 cores, its banks, simt in SIMT runs. */
static void test_counters_are_the_lists(void)
{
    CU_ASSERT_FATAL(setup() == 0);
    char *with = expected_counters();
    no_rows("counters not in the model's lists", with,
            "SELECT DISTINCT component, name FROM counters AS c WHERE NOT EXISTS (SELECT 1"
            " FROM expected AS e WHERE c.component GLOB e.glob AND c.name = e.name)");
    no_rows("counters of the lists not recorded", with,
            "SELECT u.run_id, u.component, e.name"
            " FROM (SELECT DISTINCT run_id, component FROM counters) AS u JOIN expected AS e"
            " ON u.component GLOB e.glob WHERE (NOT e.groups OR u.run_id = 3) AND NOT EXISTS"
            " (SELECT 1 FROM counters AS c WHERE c.run_id = u.run_id"
            " AND c.component = u.component AND c.name = e.name)");
    no_rows("thread groups' counters of a run without them", with,
            "SELECT c.run_id, c.component, c.name FROM counters AS c JOIN expected AS e"
            " ON c.component GLOB e.glob AND c.name = e.name WHERE e.groups AND c.run_id <> 3");
    free(with);
    for (int run = 1; run <= 3; run++)
        CU_ASSERT_EQUAL(test_q_int(db_path, "SELECT count(DISTINCT component) = 2 + %d"
                                            " + (SELECT banks FROM run_summary WHERE run_id = %d)"
                                            " + (%d > 1) FROM counters WHERE run_id = %d",
                                   GPU_CORES, run, run, run), 1);
}

/* The intervals' units are the counters' (a core's, a bank's, the SIMT
 * unit's) and the SIMT unit's per reason of the model's list. */
static void test_interval_units_are_the_models(void)
{
    CU_ASSERT_FATAL(setup() == 0);
#define REASON_OF(unit) "substr(" unit ", length('" GEN_UNIT_SIMT_REASON "') + 1)"
    no_rows("interval units the model does not report", "",
            "SELECT DISTINCT run_id, unit FROM intervals AS i WHERE NOT EXISTS (SELECT 1"
            " FROM counters AS c WHERE c.run_id = i.run_id AND c.component = i.unit)"
            " AND NOT (i.unit = '" GEN_UNIT_SIMT_REASON "' || " REASON_OF("i.unit")
            " AND " REASON_OF("i.unit") " IN (SELECT reason FROM simt_stalls AS s"
            " WHERE s.run_id = i.run_id))");
    /* every run's cores and banks, a SIMT run's unit and reasons: as many
       units as the run has counters' units but gpu and ts, + its reasons */
    for (int run = 1; run <= 3; run++)
        CU_ASSERT_EQUAL(test_q_int(db_path, "SELECT (SELECT count(DISTINCT unit) FROM intervals"
                                            " WHERE run_id = %d) = (SELECT count(DISTINCT"
                                            " component) - 2 FROM counters WHERE run_id = %d)"
                                            " + (SELECT count(*) FROM simt_stalls WHERE"
                                            " run_id = %d)", run, run, run), 1);
}

/* Whether `view` has a column `name`. */
static bool has_column(const char *view, const char *name)
{
    return q("SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'", view, name) == 1;
}

/* Whether counter k of units[u] is a column of one of its unit's views;
 * where it is, each recorded value of it is the view's, in its unit's row. */
static bool shown_by_views(size_t u, size_t k)
{
    const char *name = units[u].ctrs[k].name;
    bool shown = false;
    for (size_t v = 0; v < N_OF(units[u].views) && units[u].views[v]; v++) {
        const char *view = units[u].views[v];
        if (!has_column(view, name))
            continue;
        shown = true;
        char on[160];
        if (units[u].key)
            snprintf(on, sizeof on, "c.component = '%s' || v.%s", units[u].prefix, units[u].key);
        else
            snprintf(on, sizeof on, "c.component = '%s'", units[u].glob);
        int64_t n = test_q_int(db_path, "SELECT (SELECT count(*) FROM counters"
                                        " WHERE component GLOB '%s' AND name = '%s')"
                                        " - (SELECT count(*) FROM counters AS c JOIN %s AS v"
                                        " ON v.run_id = c.run_id AND %s"
                                        " WHERE c.name = '%s' AND v.%s IS c.value)",
                               units[u].glob, name, view, on, name, name);
        if (n != 0)
            fprintf(stderr, "%s.%s differs from the counter %s of %s in %lld rows\n", view,
                    name, name, units[u].glob, (long long)n);
        CU_ASSERT_EQUAL(n, 0);
    }
    return shown;
}

/* Every counter the model records is shown by the views that pivot its
 * unit's counters, under its name and with its value, in every run and
 * for every unit (core_utilization a row per core, …) — or it is one of
 * `unshown`; and the views pivot every unit of each run. */
static void test_views_show_every_counter(void)
{
    CU_ASSERT_FATAL(setup() == 0);
    for (size_t u = 0; u < N_OF(units); u++) {
        for (size_t k = 0; k < units[u].n; k++) {
            const char *name = units[u].ctrs[k].name;
            bool exempt = !units[u].views[0], shown = shown_by_views(u, k);
            for (size_t e = 0; e < N_OF(unshown); e++)
                exempt |= !strcmp(unshown[e].glob, units[u].glob) && !strcmp(unshown[e].name, name);
            if (shown == exempt)
                fprintf(stderr, "the counter %s of %s is %s\n", name, units[u].glob,
                        shown ? "shown, and in `unshown`" : "in no view of its unit");
            CU_ASSERT(shown != exempt);
        }
    }
    /* the views have a row for every unit the runs report */
    CU_ASSERT_EQUAL(test_q_int(db_path, "SELECT (SELECT count(*) FROM core_utilization) ="
                                        " (SELECT count(DISTINCT run_id || component) FROM"
                                        " counters WHERE component GLOB '%s')",
                               GEN_UNIT_CORE_GLOB), 1);
    CU_ASSERT_EQUAL(test_q_int(db_path, "SELECT (SELECT count(*) FROM bank_utilization) ="
                                        " (SELECT count(DISTINCT run_id || component) FROM"
                                        " counters WHERE component GLOB '%s')",
                               GEN_UNIT_BANK_GLOB), 1);
    CU_ASSERT_EQUAL(test_q_int(db_path, "SELECT count(*) FROM simt_efficiency"), 2);
    /* the TS's stall counters: their sum, less decode, is run_summary's waiting */
    CU_ASSERT_EQUAL(test_q_int(db_path, "SELECT count(*) FROM run_summary AS r WHERE"
                                        " waiting_ps IS NOT (SELECT sum(value) FROM counters AS c"
                                        " WHERE c.run_id = r.run_id AND c.component = '%s'"
                                        " AND c.name GLOB '%s' AND c.name <> '%s')",
                               GEN_UNIT_TS, GEN_CTR_TS_STALL_GLOB, GEN_CTR_TS_STALL_DECODE), 0);
}

static const test_case_t cases[] = {
    TEST(test_simt_reasons_have_their_columns),
    TEST(test_simt_reasons_agree_with_their_rows),
    TEST(test_ts_reasons_have_their_columns),
    TEST(test_views_read_the_recorded_keys),
    TEST(test_report_columns_name_every_reason),
    TEST(test_generated_lists_are_the_models),
    TEST(test_generated_counters_are_the_models),
    TEST(test_counters_are_the_lists),
    TEST(test_interval_units_are_the_models),
    TEST(test_views_show_every_counter),
    TEST_END,
};

int main(void)
{
    static const test_suite_t suites[] = {{"names", cases}, {NULL, NULL}};
    return test_run_suites(suites);
}

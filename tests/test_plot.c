/* test_plot.c — `tessera plot` end to end: the gnuplot script of a sweep
 * (numeric order of a numeric key, one data block per --by value, the values
 * of run_summary), categories for a non-numeric key, the pictures gnuplot
 * draws from it (SVG and PNG), and the errors that name what is wrong. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "tests/testutil.h"

static const char *sweep_db(void)
{
    static char db[512];
    if (db[0])
        return db;
    snprintf(db, sizeof db, "%s", test_tmp_path("sweep.db"));
    char args[1024];
    /* bank latencies given out of order: the plot must sort them as numbers */
    snprintf(args, sizeof args, "sweep '%s' -s sm.bank=2,16,8 -s sm.arbiter=fixed,rr --db '%s'",
             test_src_path("examples/first.s"), db);
    CU_ASSERT_EQUAL_FATAL(test_run_tessera(args, NULL), 0);
    return db;
}

static int plot(const char *opts, char **out)
{
    char args[1024];
    snprintf(args, sizeof args, "plot '%s' %s", sweep_db(), opts);
    return test_run_tessera(args, out);
}

/* The data line of x = bank in the block of arbiter `arb`, as the script must have it. */
static void expect_point(const char *script, const char *arb, int bank)
{
    char sql[256], line[128];
    snprintf(sql, sizeof sql,
             "SELECT end_cycles FROM run_summary AS s WHERE"
             " (SELECT value FROM params AS p WHERE p.run_id = s.run_id AND key = 'sm.bank') = %d"
             " AND arbiter = '%s'", bank, arb);
    int64_t y = test_db_int(sweep_db(), sql);
    CU_ASSERT_TRUE(y > 0);
    snprintf(line, sizeof line, "\n%d %lld  # sm.bank = %d: 1 run\n", bank, (long long)y, bank);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, line));
}

static void test_sweep_script(void)
{
    char *s = NULL;
    CU_ASSERT_EQUAL(plot("--x sm.bank --y end_cycles --by sm.arbiter -o a.svg --script", &s), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "set output 'a.svg'\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "set terminal svg "));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "set xtics ('2' 2, '8' 8, '16' 16)\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "set key outside right top title 'sm.arbiter'"));
    /* one block per arbiter, sorted; inside, x in numeric order 2, 8, 16 */
    const char *b1 = strstr(s, "$s1 << EOD\n"), *b2 = strstr(s, "$s2 << EOD\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b2);
    const char *x2 = strstr(b1, "\n2 "), *x8 = strstr(b1, "\n8 "), *x16 = strstr(b1, "\n16 ");
    CU_ASSERT_TRUE(x2 && x8 && x16 && x2 < x8 && x8 < x16 && x16 < b2);
    for (int bank = 2; bank <= 16; bank *= 2)
        if (bank != 4) {
            expect_point(b1, "fixed", bank);
            expect_point(b2, "rr", bank);
        }
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "title 'fixed' noenhanced"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "title 'rr' noenhanced"));
    free(s);
    /* the same for png */
    CU_ASSERT_EQUAL(plot("--x sm.bank --y end_cycles -o a.png --script", &s), 0);
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "set terminal pngcairo "));
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "set key off\n"));
    /* without --by the two arbiters' runs at one point are averaged */
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "# sm.bank = 16: 2 runs\n"));
    free(s);
}

static void test_categories_for_text_values(void)
{
    char *s = NULL;
    CU_ASSERT_EQUAL(plot("--x sm.arbiter --y conflict_cycles --by sm.bank --script", &s), 0);
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "set xtics ('fixed' 0, 'rr' 1)\n"));
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "set xrange [-0.5:1.5]\n"));
    /* series by bank latency, numerically: 2, 8, 16 */
    const char *t2 = s ? strstr(s, "title '2'") : NULL, *t8 = s ? strstr(s, "title '8'") : NULL;
    const char *t16 = s ? strstr(s, "title '16'") : NULL;
    CU_ASSERT_TRUE(t2 && t8 && t16 && t2 < t8 && t8 < t16);
    free(s);
}

static void test_pictures(void)
{
    const char *svg = test_tmp_path("sweep.svg"), *png = test_tmp_path("sweep.png");
    char opts[1024];
    snprintf(opts, sizeof opts, "--x sm.bank --y end_cycles --by sm.arbiter -o '%s'", svg);
    CU_ASSERT_EQUAL(plot(opts, NULL), 0);
    size_t len = 0;
    char *text = (char *)test_read_file(svg, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "<svg"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "</svg>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "end_cycles against sm.bank"));
    free(text);
    snprintf(opts, sizeof opts, "--x sm.bank --y end_cycles -o '%s'", png);
    CU_ASSERT_EQUAL(plot(opts, NULL), 0);
    uint8_t *bytes = test_read_file(png, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
    CU_ASSERT_TRUE(len > 1000 && memcmp(bytes, "\x89PNG\r\n\x1a\n", 8) == 0);
    free(bytes);
}

static void expect_error(const char *opts, int code, const char *msg)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(plot(opts, &out), code);
    if (!out || !strstr(out, msg))
        fprintf(stderr, "plot %s: expected '%s', got: %s\n", opts, msg, out ? out : "");
    CU_ASSERT_PTR_NOT_NULL(out && strstr(out, msg));
    free(out);
}

static void test_errors_name_what_is_wrong(void)
{
    expect_error("--x sm.bank --y end_cycle -o a.svg", TESS_EINPUT,
                 "--y end_cycle: run_summary has no such column (it has: run_id, program,");
    expect_error("--x sm.bnk --y end_cycles -o a.svg", TESS_EINPUT,
                 "--x sm.bnk: no run has this parameter");
    expect_error("--x sm.bank --y end_cycles --by sm.arb -o a.svg", TESS_EINPUT,
                 "--by sm.arb: no run has this parameter");
    expect_error("--x sm.bank --y arbiter -o a.svg", TESS_EINPUT,
                 "--y arbiter: the column is not numeric");
    expect_error("--x sm.bank --y end_cycles -o a.pdf", TESS_EUSAGE,
                 "-o a.pdf: the name must end in .svg or .png");
    expect_error("--x sm.bank -o a.svg", TESS_EUSAGE, "a sweep plot needs --x KEY and --y COLUMN");
    expect_error("--x sm.bank --y end_cycles", TESS_EUSAGE, "-o OUT.svg|OUT.png is required");
    /* nothing is left behind by a failed plot */
    CU_ASSERT_EQUAL(test_run_shell("ls a.svg a.pdf 2>/dev/null | grep -q .", NULL), 1);
}

static void test_intervals_plot(void)
{
    const char *db = test_tmp_path("iv.db"), *png = test_tmp_path("iv.png");
    char args[1024], *s = NULL;
    snprintf(args, sizeof args, "run '%s' --db '%s' --quiet -s record.interval=50",
             test_src_path("examples/transpose.s"), db);
    CU_ASSERT_EQUAL_FATAL(test_run_tessera(args, NULL), 0);
    snprintf(args, sizeof args, "plot '%s' --intervals --script", db);
    CU_ASSERT_EQUAL(test_run_tessera(args, &s), 0);
    /* transpose.s runs 340 cycles: intervals from 0 to 300, the last one ends at 340 */
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "'run 1: utilisation per interval of 50 cycles'"));
    int64_t share = test_db_int(db, "SELECT round(1000000 * core_busy_share) FROM"
                                    " utilization_over_time WHERE idx = 1");
    char line[64];
    snprintf(line, sizeof line, "\n50 %lld.", (long long)share / 1000000);
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "$s1 << EOD\n0 "));
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "\n340 "));
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "with steps linewidth 2 title 'cores busy'"));
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "title 'banks busy'"));
    free(s);
    snprintf(args, sizeof args, "plot '%s' --intervals --run 1 -o '%s'", db, png);
    CU_ASSERT_EQUAL(test_run_tessera(args, NULL), 0);
    size_t len = 0;
    uint8_t *bytes = test_read_file(png, &len);
    CU_ASSERT_TRUE(bytes && len > 1000 && memcmp(bytes, "\x89PNG", 4) == 0);
    free(bytes);
    /* a run without intervals */
    snprintf(args, sizeof args, "plot '%s' --intervals -o x.svg", sweep_db());
    CU_ASSERT_EQUAL(test_run_tessera(args, &s), TESS_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(s && strstr(s, "has no intervals (record them with -s record.interval=N)"));
    free(s);
}

static const test_case_t cases[] = {
    TEST(test_intervals_plot),
    TEST(test_sweep_script),
    TEST(test_categories_for_text_values),
    TEST(test_pictures),
    TEST(test_errors_name_what_is_wrong),
    TEST_END,
};

static const test_suite_t suites[] = {{"plot", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

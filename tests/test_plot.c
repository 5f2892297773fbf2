/* test_plot.c — `tessera plot` end to end: the gnuplot script of a sweep
 * (numeric order of a numeric key, one data block per --by value, the values
 * of run_summary), categories for a non-numeric key, the pictures gnuplot
 * draws from it (SVG and PNG), and the errors that name what is wrong; a database
 * of two programs plotted per program (--program), across programs (--x program)
 * and through a --where condition that is checked and can only read. */
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
    snprintf(line, sizeof line, "\n%d %lld 1  # sm.bank = %d: 1 run\n", bank, (long long)y, bank);
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
    CU_ASSERT(s && strstr(s, "set terminal pngcairo "));
    CU_ASSERT(s && strstr(s, "set key off\n"));
    /* without --by the two arbiters' runs at one point are averaged */
    CU_ASSERT(s && strstr(s, "# sm.bank = 16: 2 runs\n"));
    free(s);
}

static void test_categories_for_text_values(void)
{
    char *s = NULL;
    CU_ASSERT_EQUAL(plot("--x sm.arbiter --y conflict_cycles --by sm.bank --script", &s), 0);
    CU_ASSERT(s && strstr(s, "set xtics ('fixed' 0, 'rr' 1)\n"));
    CU_ASSERT(s && strstr(s, "set xrange [-0.5:1.5]\n"));
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
    CU_ASSERT(out && strstr(out, msg));
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

/* --program and --where keep only some runs of a database holding two
 * programs: the same sweep of first.s (end 76 cycles at sm.bank = 1, the
 * user guide's figure) and of example1.s; each filter's script has only its
 * program's points, and says which runs it drew. A --where that is not one
 * valid condition is refused before anything is drawn, naming the option. */
static void test_program_and_where_filters(void)
{
    char db[512], args[1024], *s = NULL;
    snprintf(db, sizeof db, "%s", test_tmp_path("two-programs.db"));
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "sweep '%s' -s sm.bank=1,4 --db '%s'",
                 test_src_path(i ? "examples/example1.s" : "examples/first.s"), db);
        CU_ASSERT_EQUAL_FATAL(test_run_tessera(args, NULL), 0);
    }
    snprintf(args, sizeof args, "plot '%s' --x sm.bank --y end_cycles --program first.s --script",
             db);
    CU_ASSERT_EQUAL(test_run_tessera(args, &s), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, ": the 2 runs with status ok of program first.s;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "set title 'end_cycles against sm.bank: first.s'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\n1 76 1  # sm.bank = 1: 1 run\n"));
    CU_ASSERT_PTR_NULL(strstr(s, ": 2 runs\n")); /* never a mean over both programs */
    free(s);
    s = NULL;
    snprintf(args, sizeof args, "plot '%s' --x sm.bank --y end_cycles --script"
             " --where \"program LIKE '%%example1%%' AND end_cycles > 0\"", db);
    CU_ASSERT_EQUAL(test_run_tessera(args, &s), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, ": the 2 runs with status ok where program LIKE"));
    int64_t y = test_db_int(db, "SELECT end_cycles FROM run_summary WHERE program LIKE"
                                "'%example1%' AND sm_bank = 4");
    char line[128];
    snprintf(line, sizeof line, "\n4 %lld 1  # sm.bank = 4: 1 run\n", (long long)y);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, line));
    CU_ASSERT_PTR_NULL(strstr(s, "\n1 76 1  #"));
    free(s);
    static const struct { const char *opt, *msg; } bad[] = {
        {"--where 'nosuch > 1'", "--where \"nosuch > 1\": no such column: nosuch"},
        {"--where '1); DROP TABLE runs; --'", "near \")\": syntax error"},
        {"--where '1; DROP TABLE runs'", "not several statements"},
        /* issue 26: out of the filter's parentheses; a comment eating them */
        {"--where '1) OR (1'", "--where \"1) OR (1\": near \")\": syntax error"},
        {"--where '1) --'", "--where \"1) --\": near \")\": syntax error"},
        {"--program other.s", "no run with status ok to plot among those --program/--where select"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "plot '%s' --x sm.bank --y end_cycles %s -o f.svg", db,
                 bad[i].opt);
        CU_ASSERT_EQUAL(test_run_tessera(args, &s), TESS_EINPUT);
        CU_ASSERT(s && strstr(s, bad[i].msg));
        free(s);
        s = NULL;
    }
    CU_ASSERT_EQUAL(test_db_int(db, "SELECT count(*) FROM runs"), 4); /* nothing dropped */
    /* a newline in --where cannot start a gnuplot command in the script */
    snprintf(args, sizeof args, "plot '%s' --x sm.bank --y end_cycles --script --where '1\n"
             "OR 1'", db);
    CU_ASSERT_EQUAL(test_run_tessera(args, &s), 0);
    CU_ASSERT(s && strstr(s, " where 1 OR 1;"));
    free(s);
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
    CU_ASSERT(s && strstr(s, "'run 1: utilisation per interval of 50 cycles'"));
    int64_t share = test_db_int(db, "SELECT round(1000000 * core_busy_share) FROM"
                                    " utilization_over_time WHERE idx = 1");
    char line[64];
    snprintf(line, sizeof line, "\n50 %lld.", (long long)share / 1000000);
    CU_ASSERT(s && strstr(s, "$s1 << EOD\n0 "));
    CU_ASSERT(s && strstr(s, "\n340 "));
    CU_ASSERT(s && strstr(s, "with steps linewidth 2 title 'cores busy'"));
    CU_ASSERT(s && strstr(s, "title 'banks busy'"));
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
    CU_ASSERT(s && strstr(s, "has no intervals (record them with -s record.interval=N)"));
    free(s);
}


/* Two programs swept into one database: transpose.s and histogram.s, each
 * under sm.banks = 8, 16 x sm.bank_map = interleaved, xor (8 runs). */
static const char *two_db(void)
{
    static char db[512];
    if (db[0])
        return db;
    snprintf(db, sizeof db, "%s", test_tmp_path("two.db"));
    const char *progs[] = {"examples/transpose.s", "examples/histogram.s"};
    for (int i = 0; i < 2; i++) {
        char args[1024];
        snprintf(args, sizeof args, "sweep '%s' -s sm.banks=8,16 -s sm.bank_map=interleaved,xor"
                                    " --db '%s'", test_src_path(progs[i]), db);
        CU_ASSERT_EQUAL_FATAL(test_run_tessera(args, NULL), 0);
    }
    return db;
}

static int plot_two(const char *opts, char **out)
{
    char args[1024];
    snprintf(args, sizeof args, "plot '%s' %s", two_db(), opts);
    return test_run_tessera(args, out);
}

/* The value of run_summary `col` of the one run of `prog` at (banks, map). */
static int64_t two_value(const char *col, const char *prog, int banks, const char *map)
{
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT %s FROM run_summary WHERE program LIKE '%%/%s' AND"
                              " banks = %d AND bank_map = '%s'", col, prog, banks, map);
    return test_db_int(two_db(), sql);
}

static void test_program_filter(void)
{
    char *s = NULL, line[160];
    /* the name as its last component, with or without .s, or the whole path: one script */
    CU_ASSERT_EQUAL(plot_two("--x sm.banks --y end_cycles --by sm.bank_map --program transpose"
                             " --script", &s), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "the 4 runs with status ok of program transpose;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "set title 'end_cycles against sm.banks: transpose'"));
    const char *b1 = strstr(s, "$s1 << EOD\n"), *b2 = strstr(s, "$s2 << EOD\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b2);
    for (int banks = 8; banks <= 16; banks *= 2) {
        /* interleaved is the first block, xor the second, each transpose's own run */
        snprintf(line, sizeof line, "\n%d %lld 1  # sm.banks = %d: 1 run\n", banks,
                 (long long)two_value("end_cycles", "transpose.s", banks, "interleaved"), banks);
        const char *at = strstr(b1, line);
        CU_ASSERT_TRUE(at != NULL && at < b2);
        snprintf(line, sizeof line, "\n%d %lld 1  # sm.banks = %d: 1 run\n", banks,
                 (long long)two_value("end_cycles", "transpose.s", banks, "xor"), banks);
        CU_ASSERT_PTR_NOT_NULL(strstr(b2, line));
    }
    char *t = NULL, opts[1024];
    CU_ASSERT_EQUAL(plot_two("--x sm.banks --y end_cycles --by sm.bank_map --program transpose.s"
                             " --script", &t), 0);
    CU_ASSERT(t && strstr(t, "\n$s1 << EOD\n") &&
                           strcmp(strstr(t, "\n$s1 << EOD\n"), strstr(s, "\n$s1 << EOD\n")) == 0);
    free(t);
    snprintf(opts, sizeof opts, "--x sm.banks --y end_cycles --by sm.bank_map --program '%s'"
                                " --script", test_src_path("examples/transpose.s"));
    CU_ASSERT_EQUAL(plot_two(opts, &t), 0);
    CU_ASSERT(t && strstr(t, "the 4 runs with status ok of program "));
    free(t);
    free(s);
    /* a part of a name is not a name */
    CU_ASSERT_EQUAL(plot_two("--x sm.banks --y end_cycles --program ranspose --script", &s),
                    TESS_EINPUT);
    CU_ASSERT(s && strstr(s, "no run with status ok to plot among those "
                                          "--program/--where select"));
    free(s);
}

static void test_program_axis_and_where(void)
{
    char *s = NULL, line[256];
    /* conflicts per program at 16 banks, one line per mapping: categories in text order */
    CU_ASSERT_EQUAL(plot_two("--x program --y conflicts --by sm.bank_map --where 'banks = 16'"
                             " --script", &s), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "the 4 runs with status ok where banks = 16;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "set xlabel 'program'"));
    const char *h = strstr(s, "set xtics ('"), *hp = h ? strstr(h, "histogram.s' 0, '") : NULL;
    CU_ASSERT_TRUE(hp != NULL && strstr(hp, "transpose.s' 1)\n") != NULL);
    const char *b2 = strstr(s, "$s2 << EOD\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(b2);
    snprintf(line, sizeof line, "\n0 %lld 1  # program = %s: 1 run\n",
             (long long)two_value("conflicts", "histogram.s", 16, "interleaved"),
             test_src_path("examples/histogram.s"));
    const char *at = strstr(s, line);
    CU_ASSERT_TRUE(at != NULL && at < b2);
    snprintf(line, sizeof line, "\n1 %lld 1  # program = %s: 1 run\n",
             (long long)two_value("conflicts", "transpose.s", 16, "xor"),
             test_src_path("examples/transpose.s"));
    CU_ASSERT_PTR_NOT_NULL(strstr(b2, line));
    free(s);
    /* --program and --where together, on a numeric comparison of a typed column */
    CU_ASSERT_EQUAL(plot_two("--x sm.banks --y conflicts --program histogram --where "
                             "\"bank_map = 'xor' AND banks > 8\" --script", &s), 0);
    snprintf(line, sizeof line, "$s1 << EOD\n16 %lld 1  # sm.banks = 16: 1 run\nEOD\n",
             (long long)two_value("conflicts", "histogram.s", 16, "xor"));
    CU_ASSERT(s && strstr(s, line));
    free(s);
}

static void expect_two_error(const char *opts, int code, const char *msg)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(plot_two(opts, &out), code);
    if (!out || !strstr(out, msg))
        fprintf(stderr, "plot %s: expected '%s', got: %s\n", opts, msg, out ? out : "");
    CU_ASSERT(out && strstr(out, msg));
    free(out);
}

static void test_where_is_checked_and_read_only(void)
{
    expect_two_error("--x sm.banks --y end_cycles --where 'nosuch > 1' --script", TESS_EINPUT,
                     "--where \"nosuch > 1\": no such column: nosuch");
    expect_two_error("--x sm.banks --y end_cycles --where '1); DELETE FROM runs; (1' --script",
                     TESS_EINPUT, "--where \"1); DELETE FROM runs; (1\": ");
    expect_two_error("--x sm.banks --y end_cycles --where '1 /*' --script", TESS_EINPUT,
                     "--where \"1 /*\": ");
    expect_two_error("--x sm.banks --y end_cycles --where "
                     "\"(SELECT count(*) FROM pragma_table_info('runs')) > 0\" --script",
                     TESS_EINPUT, "not authorized (the condition may only read tables and views)");
    expect_two_error("--x sm.banks --y end_cycles --where '' --script", TESS_EINPUT,
                     "--where \"\": ");
    expect_two_error("--x sm.banks --y end_cycles --where 'banks > 64' --script", TESS_EINPUT,
                     "no run with status ok to plot among those --program/--where select");
    expect_two_error("--intervals --where 'banks = 8' --script", TESS_EUSAGE,
                     "--intervals draws one run: no --x, --y, --by, --program, --where");
    /* and the database is as it was */
    CU_ASSERT_EQUAL(test_db_int(two_db(), "SELECT count(*) FROM runs WHERE status = 'ok'"), 8);
}

static const test_case_t cases[] = {
    TEST(test_intervals_plot),
    TEST(test_sweep_script),
    TEST(test_categories_for_text_values),
    TEST(test_pictures),
    TEST(test_errors_name_what_is_wrong),
    TEST(test_program_and_where_filters),
    TEST(test_program_filter),
    TEST(test_program_axis_and_where),
    TEST(test_where_is_checked_and_read_only),
    TEST_END,
};

static const test_suite_t suites[] = {{"plot", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

/* test_sweepplan.c — the plan of a sweep (config/sweep.h) without processes:
 * the value-list grammar (commas, `choice:` keeping its commas, `;` lists,
 * blanks, empty values), axes and duplicate keys, the cartesian product in
 * point order with its labels and overflow, and the validation of every value
 * and every point with messages naming the -s argument or the point. */
#include <stdio.h>
#include <string.h>

#include "config/sweep.h"
#include "events/base/err.h"
#include "tests/testutil.h"

/* Parses the NULL-terminated -s arguments; returns the code, plan in *p. */
static int plan(sweep_plan_t *p, const char *const *args, diag_t *d)
{
    size_t n = 0;
    while (args[n])
        n++;
    diag_reset(d);
    return sweep_plan_parse(p, (char *const *)args, n, d);
}

/* The values of axis i joined by '|' (assignments without "key="). */
static const char *values(const sweep_plan_t *p, size_t i)
{
    static char buf[512];
    size_t len = 0, key = strlen(p->axes[i].key) + 1;
    buf[0] = 0;
    for (size_t j = 0; j < p->axes[i].n; j++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", j ? "|" : "",
                                p->axes[i].assign[j] + key);
    return buf;
}

static void expect_values(const char *arg, const char *want)
{
    sweep_plan_t p;
    diag_t d = {0};
    const char *args[] = {arg, NULL};
    CU_ASSERT_EQUAL(plan(&p, args, &d), TESS_OK);
    if (p.n_axes == 1 && strcmp(values(&p, 0), want) != 0) {
        fprintf(stderr, "'%s' gives '%s', expected '%s'\n", arg, values(&p, 0), want);
        CU_FAIL("value list split wrongly");
    }
    sweep_plan_free(&p);
}

static void expect_refused(const char *const *args, const char *needle)
{
    sweep_plan_t p;
    diag_t d = {0};
    CU_ASSERT_EQUAL(plan(&p, args, &d), TESS_EINPUT);
    if (!strstr(d.msg, needle)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", d.msg, needle);
        CU_FAIL("wrong message");
    }
    sweep_plan_free(&p);
}

static void test_value_lists(void)
{
    expect_values("sm.bank=1,2,3", "1|2|3");
    expect_values(" sm.bank = 1 , 2 ", "1|2");
    expect_values("sm.bank=4", "4");
    /* a choice: keeps the commas up to the next value with a form of its own */
    expect_values("sm.bank=1,choice:1,1,8,uniform:1..4", "1|choice:1,1,8|uniform:1..4");
    expect_values("sm.bank=choice:1,8", "choice:1,8");
    expect_values("sm.bank=choice:1,8, choice:2,3", "choice:1,8|choice:2,3");
    /* with a ';' the list splits on ';' only */
    expect_values("sm.bank=choice:1,8;4", "choice:1,8|4");
    expect_values("sm.bank=uniform:1..4;geometric:2.5", "uniform:1..4|geometric:2.5");
}

static void test_refused_lists(void)
{
    const char *const empty[][2] = {{"sm.bank=1,,2", NULL}, {"sm.bank=", NULL},
                                    {"sm.bank=,1", NULL},   {"sm.bank=1;", NULL},
                                    {"sm.bank=1, ,2", NULL}};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++)
        expect_refused(empty[i], "empty value");
    expect_refused((const char *const[]){"sm.bank", NULL},
                   "sweep -s 'sm.bank': expected section.key=v1,v2,...");
    expect_refused((const char *const[]){"=1,2", NULL}, "expected section.key=");
    expect_refused((const char *const[]){"sm.bank=1,2", "sm.arbiter=rr", " sm.bank =3", NULL},
                   "sweep -s ' sm.bank =3': sm.bank is already set by -s 'sm.bank=1,2'");
}

/* The first axis varies slowest; labels name the axes with several values. */
static void test_points_in_order(void)
{
    sweep_plan_t p;
    diag_t d = {0};
    const char *args[] = {"sm.arbiter=fixed,rr", "sm.bank=1,2,3", "sim.seed=7", NULL};
    CU_ASSERT_EQUAL(plan(&p, args, &d), TESS_OK);
    CU_ASSERT_EQUAL(sweep_plan_points(&p), 6);
    char *as[3], label[128];
    sweep_plan_point(&p, 0, as);
    CU_ASSERT_STRING_EQUAL(as[0], "sm.arbiter=fixed");
    CU_ASSERT_STRING_EQUAL(as[1], "sm.bank=1");
    CU_ASSERT_STRING_EQUAL(as[2], "sim.seed=7");
    sweep_plan_point(&p, 1, as);
    CU_ASSERT_STRING_EQUAL(as[1], "sm.bank=2");
    sweep_plan_point(&p, 3, as);
    CU_ASSERT_STRING_EQUAL(as[0], "sm.arbiter=rr");
    CU_ASSERT_STRING_EQUAL(as[1], "sm.bank=1");
    sweep_plan_label(&p, 5, label, sizeof label);
    CU_ASSERT_STRING_EQUAL(label, "sm.arbiter=rr sm.bank=3");
    sweep_plan_free(&p);
    const char *fixed[] = {"sm.bank=2", NULL};
    CU_ASSERT_EQUAL(plan(&p, fixed, &d), TESS_OK);
    CU_ASSERT_EQUAL(sweep_plan_points(&p), 1);
    sweep_plan_label(&p, 0, label, sizeof label);
    CU_ASSERT_STRING_EQUAL(label, "fixed settings");
    sweep_plan_free(&p);
    CU_ASSERT_EQUAL(plan(&p, (const char *const[]){NULL}, &d), TESS_OK);
    CU_ASSERT_EQUAL(sweep_plan_points(&p), 1); /* no axis: one point, the defaults */
    sweep_plan_free(&p);
}

/* 2^63 points fit, 2^64 do not (0). */
static void test_point_count_overflow(void)
{
    static char text[64][32];
    const char *args[65];
    for (int i = 0; i < 64; i++) {
        snprintf(text[i], sizeof text[i], "k%d=1,2", i);
        args[i] = text[i];
    }
    sweep_plan_t p;
    diag_t d = {0};
    args[63] = NULL;
    CU_ASSERT_EQUAL(plan(&p, args, &d), TESS_OK);
    CU_ASSERT_EQUAL(sweep_plan_points(&p), (uint64_t)1 << 63);
    sweep_plan_free(&p);
    args[63] = text[63];
    args[64] = NULL;
    CU_ASSERT_EQUAL(plan(&p, args, &d), TESS_OK);
    CU_ASSERT_EQUAL(sweep_plan_points(&p), 0);
    sweep_plan_free(&p);
}

static int check(const char *const *args, const char *config, char *msg, size_t size)
{
    sweep_plan_t p;
    diag_t d = {0};
    int rc = plan(&p, args, &d);
    if (rc == TESS_OK)
        rc = sweep_plan_check(&p, config, sweep_plan_points(&p), &d);
    snprintf(msg, size, "%s", rc ? d.msg : "");
    sweep_plan_free(&p);
    return rc;
}

static void test_every_value_and_point_checked(void)
{
    char msg[512];
    CU_ASSERT_EQUAL(check((const char *const[]){"sm.arbiter=fixed,rr", "sm.bank=1,choice:1,8",
                                                NULL}, NULL, msg, sizeof msg), TESS_OK);
    /* a bad value names its -s argument */
    CU_ASSERT_EQUAL(check((const char *const[]){"sm.bank=1,2", "sm.arbiter=fixed,lifo", NULL},
                          NULL, msg, sizeof msg), TESS_EINPUT);
    CU_ASSERT_EQUAL(strncmp(msg, "sweep -s 'sm.arbiter=fixed,lifo': ", 34), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "'lifo' is not valid"));
    CU_ASSERT_EQUAL(check((const char *const[]){"sm.nosuch=1", NULL}, NULL, msg, sizeof msg),
                    TESS_EINPUT);
    /* values valid alone, a point invalid: the cross-key check names the point */
    CU_ASSERT_EQUAL(check((const char *const[]){"record.from_ps=100",
                                                "record.to_ps=500,50", NULL},
                          NULL, msg, sizeof msg), TESS_EINPUT);
    CU_ASSERT_EQUAL(strncmp(msg, "sweep point 2 (record.to_ps=50): ", 33), 0);
    /* the configuration file under every point */
    CU_ASSERT_EQUAL(check((const char *const[]){"sm.bank=1", NULL},
                          test_tmp_path("missing.ini"), msg, sizeof msg), TESS_EIO);
    CU_ASSERT_EQUAL(check((const char *const[]){"sm.bank=1,2", NULL},
                          test_src_path("config/contention.ini"), msg, sizeof msg), TESS_OK);
}

static const test_case_t cases[] = {
    TEST(test_value_lists),
    TEST(test_refused_lists),
    TEST(test_points_in_order),
    TEST(test_point_count_overflow),
    TEST(test_every_value_and_point_checked),
    TEST_END,
};

static const test_suite_t suites[] = {{"sweepplan", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

/* test_fuzz_regress.c — every input the fuzzers found (tests/fuzz/regress/) and
 * every seed (tests/fuzz/corpus/, the .s files of examples/, the .ini files of
 * config/) replayed through the fuzz targets' own property checks
 * (tests/fuzz/fuzz_checks.c), in the normal and the sanitizer builds, so a
 * fixed finding stays fixed.
 * Adding a regression: drop the file into tests/fuzz/regress/<target>/. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/tm.h"
#include "tests/fuzz/fuzz_checks.h"
#include "tests/testutil.h"

typedef fuzz_verdict_t (*check_fn)(const uint8_t *, size_t, char *, size_t);

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of `dir` ending in `suffix` ("" = all), sorted; malloc'd
 * names, *n of them. NULL with *n = 0 when the directory cannot be read. */
static char **list_dir(const char *dir, const char *suffix, size_t *n)
{
    DIR *dp = opendir(dir);
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    *n = 0;
    if (!dp)
        return NULL;
    while ((e = readdir(dp)) != NULL) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (e->d_name[0] == '.' || len < sl || strcmp(e->d_name + len - sl, suffix) != 0)
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            char **nn = realloc(names, cap * sizeof *nn);
            CU_ASSERT_PTR_NOT_NULL_FATAL(nn);
            names = nn;
        }
        names[(*n)++] = strdup(e->d_name);
    }
    closedir(dp);
    if (*n)
        qsort(names, *n, sizeof *names, by_name);
    return names;
}

/* Replays every matching file of `rel` (a source-tree directory) through
 * `check`; returns how many files there were. */
static size_t replay(const char *rel, const char *suffix, check_fn check)
{
    char dir[1024], path[2048];
    static char why[FUZZ_WHY_MAX];
    size_t n = 0, accepted = 0;
    snprintf(dir, sizeof dir, "%s", test_src_path(rel));
    char **names = list_dir(dir, suffix, &n);
    for (size_t i = 0; i < n; i++) {
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        uint8_t *data = test_read_file(path, &len);
        CU_ASSERT_PTR_NOT_NULL(data);
        fuzz_verdict_t v = data ? check(data, len, why, sizeof why) : FUZZ_VIOLATED;
        if (data && v == FUZZ_VIOLATED)
            fprintf(stderr, "\n  %s/%s: %s\n", rel, names[i], why);
        CU_ASSERT(v != FUZZ_VIOLATED);
        accepted += v == FUZZ_ACCEPTED;
        free(data);
        free(names[i]);
    }
    free(names);
    fprintf(stderr, " [%s: %zu files, %zu accepted] ", rel, n, accepted);
    return n;
}

/* ---- the findings: every directory must hold some ---------------------- */

static void test_regress_asm(void)
{
    CU_ASSERT(replay("tests/fuzz/regress/asm", "", fuzz_check_asm) > 0);
}

static void test_regress_tm(void)
{
    CU_ASSERT(replay("tests/fuzz/regress/tm", "", fuzz_check_tm) > 0);
}

static void test_regress_config(void)
{
    CU_ASSERT(replay("tests/fuzz/regress/config", "", fuzz_check_config) > 0);
}

/* ---- the seeds ---------------------------------------------------------- */

static void test_seeds_asm(void)
{
    CU_ASSERT(replay("tests/fuzz/corpus/asm", "", fuzz_check_asm) > 0);
    CU_ASSERT(replay("examples", ".s", fuzz_check_asm) > 0);
}

static void test_seeds_tm(void)
{
    CU_ASSERT(replay("tests/fuzz/corpus/tm", "", fuzz_check_tm) > 0);
}

static void test_seeds_config(void)
{
    CU_ASSERT(replay("tests/fuzz/corpus/config", "", fuzz_check_config) > 0);
    CU_ASSERT(replay("config", ".ini", fuzz_check_config) > 0);
}

/* The checks themselves: empty input, and a violation is reported. */
static void test_checks_basics(void)
{
    char why[FUZZ_WHY_MAX];
    CU_ASSERT_EQUAL(fuzz_check_asm((const uint8_t *)"", 0, why, sizeof why), FUZZ_ACCEPTED);
    CU_ASSERT_EQUAL(fuzz_check_tm((const uint8_t *)"", 0, why, sizeof why), FUZZ_ACCEPTED);
    CU_ASSERT_EQUAL(fuzz_check_config((const uint8_t *)"", 0, why, sizeof why), FUZZ_ACCEPTED);
    const char *bad = ".group cores=0\n";
    CU_ASSERT_EQUAL(fuzz_check_asm((const uint8_t *)bad, strlen(bad), why, sizeof why),
                    FUZZ_REJECTED);
    const uint8_t big[TM_BYTES + 1] = {0};
    CU_ASSERT_EQUAL(fuzz_check_tm(big, sizeof big, why, sizeof why), FUZZ_REJECTED);
}

static const test_case_t regress_cases[] = {
    TEST(test_regress_asm), TEST(test_regress_tm), TEST(test_regress_config), TEST_END,
};
static const test_case_t seed_cases[] = {
    TEST(test_seeds_asm), TEST(test_seeds_tm), TEST(test_seeds_config),
    TEST(test_checks_basics), TEST_END,
};

int main(void)
{
    static const test_suite_t suites[] = {
        {"fuzz_regress", regress_cases},
        {"fuzz_seeds", seed_cases},
        {NULL, NULL},
    };
    return test_run_suites(suites);
}

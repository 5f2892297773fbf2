/* test_docs.c — every command in the documents is run, so that they cannot go
 * stale. In README.md and docs/ (every .md file):
 *   ```console  lines "$ CMD" are run in order; the lines after one, up to the
 *               next "$ " or the end of the block, are its expected output:
 *               compared line by line, a line ending in "..." matches any line
 *               with that beginning, a line "..." any number of lines;
 *   ```sh       every line is run as a command that must exit 0 (a line ending
 *               in a backslash continues on the next);
 *   ```sh ci    the set-up commands that CI itself runs (.ci/run): not rerun;
 *   ```sh bench a benchmark's command (minutes; docs/PERFORMANCE.md): not run;
 *   ```sh cluster  commands for other hosts (ssh, Slurm): not run — the same
 *               steps run on this machine in test_sweep.
 * Each document runs in its own scratch directory holding links to build/,
 * examples/, config/, scripts/ and docs/, with `tessera` on PATH; state (a
 * database made by one block) carries over to the next blocks. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/testutil.h"

typedef struct doc_run {
    const char *name;         /* the document */
    char dir[512];            /* its scratch directory */
    char bindir[512];         /* where the tessera binary is */
    unsigned commands, failures;
} doc_run_t;

static void prepare_dir(doc_run_t *d)
{
    snprintf(d->dir, sizeof d->dir, "%s/doc-%s", test_tmp_dir(), d->name);
    for (char *p = d->dir + strlen(test_tmp_dir()) + 1; *p; p++)
        if (*p == '/')
            *p = '_';
    snprintf(d->bindir, sizeof d->bindir, "%s", TESSERA_BINARY);
    *strrchr(d->bindir, '/') = 0;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' && cd '%s' && ln -sfn '%s' build && for x in examples config scripts "
             "docs; do ln -sfn '%s'/$x $x; done",
             d->dir, d->dir, d->bindir, TESSERA_SOURCE_DIR);
    CU_ASSERT_EQUAL_FATAL(test_run_shell(cmd, NULL), 0);
}

/* Runs one command line in the document's directory; its output in *out. */
static int run_line(doc_run_t *d, const char *line, char **out)
{
    size_t n = strlen(line) + strlen(d->dir) + strlen(d->bindir) + 64;
    char *cmd = malloc(n);
    snprintf(cmd, n, "cd '%s' && PATH='%s':\"$PATH\" && %s", d->dir, d->bindir, line);
    int rc = test_run_shell(cmd, out);
    free(cmd);
    d->commands++;
    return rc;
}

static bool line_matches(const char *want, const char *got)
{
    size_t n = strlen(want);
    if (n >= 3 && strcmp(want + n - 3, "...") == 0)
        return strncmp(want, got, n - 3) == 0;
    return strcmp(want, got) == 0;
}

/* Joins lines[i..] continued with a trailing backslash into buf; returns the
 * index of the last line used. */
static size_t join_continued(char **lines, size_t i, size_t n, char *buf, size_t size)
{
    buf[0] = 0;
    for (;; i++) {
        size_t len = strlen(lines[i]);
        bool more = len && lines[i][len - 1] == '\\' && i + 1 < n;
        strncat(buf, lines[i], size - strlen(buf) - 1);
        if (!more)
            return i;
        buf[strlen(buf) - 1] = ' ';
    }
}

/* Splits text into lines in place; returns their count (at most max). */
static size_t split_lines(char *text, char **lines, size_t max)
{
    size_t n = 0;
    for (char *p = text; p && *p && n < max;) {
        lines[n++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = 0;
        p = nl + 1;
    }
    return n;
}

/* Expected lines want[0..nw) against the output: true when they match. */
static bool output_matches(char **want, size_t nw, char *output)
{
    static char *got[20000];
    size_t ng = split_lines(output ? output : (char *)"", got, 20000), g = 0;
    for (size_t w = 0; w < nw; w++) {
        if (strcmp(want[w], "...") == 0) {
            if (w + 1 == nw)
                return true;
            while (g < ng && !line_matches(want[w + 1], got[g]))
                g++;
            continue;
        }
        if (g >= ng || !line_matches(want[w], got[g]))
            return false;
        g++;
    }
    return g == ng;
}

static void check_command(doc_run_t *d, const char *cmd, char **want, size_t nw)
{
    char *out = NULL;
    int rc = run_line(d, cmd, &out);
    bool ok = output_matches(want, nw, out);
    if (!ok || (nw == 0 && rc != 0)) {
        d->failures++;
        fprintf(stderr, "%s: `%s` (exit %d) printed:\n%s\n-- expected:\n", d->name, cmd, rc,
                out ? out : "");
        for (size_t i = 0; i < nw; i++)
            fprintf(stderr, "%s\n", want[i]);
    }
    free(out);
}

/* A console block: "$ CMD" lines and their expected output. */
static void run_console(doc_run_t *d, char **lines, size_t n)
{
    for (size_t i = 0; i < n;) {
        if (strncmp(lines[i], "$ ", 2) != 0) {
            i++;
            continue;
        }
        static char buf[8192];
        size_t last = join_continued(lines, i, n, buf, sizeof buf);
        size_t j = last + 1;
        while (j < n && strncmp(lines[j], "$ ", 2) != 0)
            j++;
        check_command(d, buf + 2, lines + last + 1, j - last - 1);
        i = j;
    }
}

static void run_sh(doc_run_t *d, char **lines, size_t n)
{
    static char buf[8192];
    for (size_t i = 0; i < n; i++) {
        i = join_continued(lines, i, n, buf, sizeof buf);
        const char *l = buf;
        while (*l == ' ')
            l++;
        if (!*l || *l == '#')
            continue;
        char *out = NULL;
        int rc = run_line(d, l, &out);
        if (rc != 0) {
            d->failures++;
            fprintf(stderr, "%s: `%s` exited %d:\n%s\n", d->name, l, rc, out ? out : "");
        }
        free(out);
    }
}

static void run_document(const char *rel)
{
    doc_run_t d = {.name = rel};
    size_t len;
    char *text = (char *)test_read_file(test_src_path(rel), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    prepare_dir(&d);
    static char *lines[50000];
    size_t n = split_lines(text, lines, 50000);
    for (size_t i = 0; i < n; i++) {
        const char *info = lines[i];
        if (strncmp(info, "```", 3) != 0 || !info[3])
            continue;
        size_t j = i + 1;
        while (j < n && strncmp(lines[j], "```", 3) != 0)
            j++;
        if (strcmp(info, "```console") == 0)
            run_console(&d, lines + i + 1, j - i - 1);
        else if (strcmp(info, "```sh") == 0)
            run_sh(&d, lines + i + 1, j - i - 1);
        i = j;
    }
    fprintf(stderr, "%s: %u commands run, %u failed\n", rel, d.commands, d.failures);
    CU_ASSERT_EQUAL(d.failures, 0);
    free(text);
}

static void test_readme(void) { run_document("README.md"); }

static void test_every_document_in_docs(void)
{
    char cmd[1024], *list = NULL;
    snprintf(cmd, sizeof cmd, "cd '%s' && ls docs/*.md", TESSERA_SOURCE_DIR);
    CU_ASSERT_EQUAL_FATAL(test_run_shell(cmd, &list), 0);
    static char *names[256];
    size_t n = split_lines(list, names, 256);
    for (size_t i = 0; i < n; i++)
        if (*names[i])
            run_document(names[i]);
    free(list);
}

static const test_case_t cases[] = {
    TEST(test_readme),
    TEST(test_every_document_in_docs),
    TEST_END,
};

static const test_suite_t suites[] = {{"docs", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

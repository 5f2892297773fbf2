/* cmd_merge.c — `tessera merge OUT.db SHARD.db…`: folds shard databases
 * (the points of a sweep run elsewhere) into one, through analysis/merge.h.
 * Each shard is merged in its own transaction: a bad shard is reported and
 * skipped, the others still merge. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/store/merge.h"
#include "cli/commands.h"
#include "events/base/err.h"

static const char merge_help[] =
    "usage: tessera merge OUT.db SHARD.db... [--quiet]\n"
    "Copies every run of each SHARD (a database written by `tessera run`) with all\n"
    "its rows into OUT.db, which is created when missing and appended to otherwise.\n"
    "Run ids are renumbered after OUT's last run, in shard order; a run already in\n"
    "OUT (same fingerprint) is not copied again, so merging a shard twice adds\n"
    "nothing. Each shard is merged in one transaction; one that is not a Tessera\n"
    "database, or of another schema version, is reported and leaves OUT untouched.\n"
    "Exit codes: 0 every shard merged, 1 usage, 5 a shard could not be read,\n"
    "6 a shard was refused or the database failed (the first failure's code).\n";

static void report(const char *shard, const merge_result_t *r)
{
    printf("%s: %llu run%s merged", shard, (unsigned long long)r->runs,
           r->runs == 1 ? "" : "s");
    if (r->runs == 1)
        printf(" (run %lld)", (long long)r->first_id);
    else if (r->runs > 1)
        printf(" (runs %lld-%lld)", (long long)r->first_id,
               (long long)(r->first_id + (int64_t)r->runs - 1));
    printf(", %llu rows", (unsigned long long)r->rows);
    if (r->replaced)
        printf(", %llu finished run%s replacing %s in-progress cop%s", (unsigned long long)r->replaced,
               r->replaced == 1 ? "" : "s", r->replaced == 1 ? "its" : "their",
               r->replaced == 1 ? "y" : "ies");
    if (r->skipped)
        printf(", %llu already in the output", (unsigned long long)r->skipped);
    printf("\n");
    if (r->running)
        fprintf(stderr, "tessera: warning: %s: %llu run(s) still 'running' (killed, or in "
                "progress when merged)\n", shard, (unsigned long long)r->running);
}

/* True for the arguments that are shard paths (not OUT, not an option). */
static bool is_shard(char **argv, int i, int out_index)
{
    return i != out_index && strcmp(argv[i], "--quiet") != 0;
}

static int merge_all(const char *out, int argc, char **argv, int out_index, bool quiet)
{
    diag_t d = {0};
    merge_t *m = merge_open(out, &d);
    if (!m) {
        cli_error("%s", d.msg);
        return d.code;
    }
    int rc = TESS_OK;
    for (int i = 1; i < argc; i++) {
        merge_result_t r;
        if (!is_shard(argv, i, out_index))
            continue;
        diag_reset(&d);
        if (merge_shard(m, argv[i], &r, &d) != TESS_OK) {
            cli_error("%s", d.msg);
            rc = rc ? rc : d.code;
        } else if (!quiet) {
            report(argv[i], &r);
        }
    }
    merge_close(m);
    return rc;
}

int cmd_merge(int argc, char **argv)
{
    int out_index = 0, n = 0;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(merge_help, stdout);
            return TESS_OK;
        }
        if (!strcmp(argv[i], "--quiet")) {
            quiet = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error("merge: unexpected option '%s'", argv[i]);
            fputs(merge_help, stderr);
            return TESS_EUSAGE;
        } else if (!out_index) {
            out_index = i;
        } else {
            n++;
        }
    }
    if (!out_index || n == 0) {
        fputs(merge_help, stderr);
        return TESS_EUSAGE;
    }
    return merge_all(argv[out_index], argc, argv, out_index, quiet);
}

/* cmd_merge.c — `tessera merge OUT.db SHARD.db…`: folds shard databases
 * (the points of a sweep run elsewhere) into one, through analysis/merge.h.
 * Each shard is merged in its own transaction: a bad shard is reported and
 * skipped, the others still merge. */
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/store/db.h"
#include "analysis/store/merge.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

static const cli_use_t merge_opts[] = {
    {CLI_QUIET, NULL, "print nothing for the shards that merge"},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t merge_exits[] = {
    {TESS_OK, "every shard merged"}, {TESS_EUSAGE, NULL}, {TESS_EIO, "a shard could not be read"},
    {TESS_EDB, "a shard was refused or the database failed (the first failure's code)"},
    {-1, NULL},
};

const cli_spec_t cli_spec_merge = {
    .name = "merge",
    .usage = "OUT.db SHARD.db... [--quiet]",
    .about = "Copies every run of each SHARD (a database written by `tessera run`) with all\n"
             "its rows into OUT.db, which is created when missing and appended to otherwise.\n"
             "Run ids are renumbered after OUT's last run, in shard order; a run already in\n"
             "OUT (same uid: every run gets a random 128-bit one when it begins) is not\n"
             "copied again, so merging a shard twice adds nothing; each run skipped is named\n"
             "with the reason. Each shard is merged in one transaction; one that is not a\n"
             "Tessera database, or of another schema version, is reported and leaves OUT\n"
             "untouched, and OUT is not created nor changed until a shard has runs to add.\n",
    .opts = merge_opts,
    .exits = merge_exits,
    .min_pos = 2,
    .max_pos = -1,
    .missing = "give OUT.db and at least one SHARD.db",
};

static void report(const char *shard, const merge_result_t *r)
{
    if (r->empty) {
        printf("%s: empty, nothing merged (no Tessera schema yet: a run may be creating "
               "it; merge it again when the run has started)\n", shard);
        return;
    }
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

/* Why a run of a shard was not copied (merge_set_skip), one line each into
 * the sqlite3_str `user`, printed after the shard's line. */
static void note_skip(void *user, const char *shard, const merge_skip_t *k)
{
    sqlite3_str *s = user;
    (void)shard;
    if (k->dup_in_shard)
        sqlite3_str_appendf(s, "  run %lld skipped: an earlier run of the shard has the same uid\n",
                            (long long)k->shard_run_id);
    else if (k->out_status && strcmp(k->out_status, DB_STATUS_RUNNING_NAME) != 0 &&
             k->status && strcmp(k->status, DB_STATUS_RUNNING_NAME) == 0)
        sqlite3_str_appendf(s, "  run %lld skipped: 'running' here, finished in the output as "
                            "run %lld (same uid)\n", (long long)k->shard_run_id,
                            (long long)k->out_run_id);
    else
        sqlite3_str_appendf(s, "  run %lld skipped: already in the output as run %lld (same "
                            "uid)\n", (long long)k->shard_run_id, (long long)k->out_run_id);
}

/* OUT.db must not be one of the shards, nor a shard's WAL or journal. */
static int check_files(const char *out, char *const *shards, int n)
{
    outfile_role_t o = {out, "OUT.db", true};
    outfile_role_t *in = tess_calloc((size_t)n + 1, sizeof *in);
    if (!in)
        return cli_nomem();
    for (int i = 0; i < n; i++)
        in[i] = (outfile_role_t){shards[i], "a shard", true};
    int rc = cli_check_files(&o, 1, in, (size_t)n);
    tess_free(in);
    return rc;
}

static int merge_all(const char *out, char *const *shards, int n, bool quiet)
{
    diag_t d = {0};
    if (db_check_name(out, "OUT.db", &d) != TESS_OK) {
        cli_error("%s", d.msg);
        return d.code;
    }
    int crc = check_files(out, shards, n);
    if (crc != TESS_OK)
        return crc;
    merge_t *m = merge_open(out, &d);
    if (!m) {
        cli_error("%s", d.msg);
        return d.code;
    }
    int rc = TESS_OK;
    for (int i = 0; i < n; i++) {
        merge_result_t r;
        diag_reset(&d);
        sqlite3_str *skips = sqlite3_str_new(NULL);
        merge_set_skip(m, quiet ? NULL : note_skip, skips);
        if (merge_shard(m, shards[i], &r, &d) != TESS_OK) {
            cli_error("%s", d.msg);
            rc = rc ? rc : d.code;
        } else if (!quiet) {
            report(shards[i], &r);
            fputs(sqlite3_str_value(skips) ? sqlite3_str_value(skips) : "", stdout);
        }
        sqlite3_free(sqlite3_str_finish(skips));
    }
    merge_close(m);
    return rc;
}

int cmd_merge(int argc, char **argv)
{
    cli_args_t c;
    int rc = cli_parse(&cli_spec_merge, argc, argv, &c);
    if (rc == TESS_OK)
        rc = merge_all(c.pos[0], c.pos + 1, c.n_pos - 1, cli_count(&c, CLI_QUIET) > 0);
    cli_args_free(&c);
    return rc == CLI_HELP_PRINTED ? TESS_OK : rc;
}

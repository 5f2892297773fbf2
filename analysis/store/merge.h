/* merge.h — folding shard databases (each written by `tessera run`, e.g. the
 * points of a sweep run on many hosts) into one statistics database. Every
 * run of a shard is copied with all its rows, its run_id renumbered into the
 * output's sequence. Invariant: a shard is merged in one transaction — all
 * of its new runs or nothing — and a run already in the output (same
 * fingerprint, see merge_shard) is never copied twice. */
#ifndef TESSERA_MERGE_H
#define TESSERA_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "events/base/diag.h"

typedef struct merge merge_t;

/* What merging one shard did. */
typedef struct merge_result {
    uint64_t runs;            /* runs copied into the output as new runs */
    uint64_t replaced;        /* runs that finished since the output got them 'running':
                                 their finished copy replaced that one, same run_id */
    uint64_t skipped;         /* runs of the shard already in the output */
    uint64_t running;         /* of the copied runs, those still 'running' (killed) */
    uint64_t ok;              /* of the copied runs (new or replacing), those 'ok' */
    uint64_t rows;            /* rows copied, every table but `runs` */
    int64_t first_id;         /* run_id in the output of the first run copied (0: none) */
    bool empty;               /* the shard is an empty database: a run creating it has
                                 not committed its schema yet; nothing was merged */
} merge_result_t;

/* A run of a shard that is not copied (merge_set_skip), and why: the
 * output holds a run of the same uid (out_run_id, with out_status) — merged
 * before, or recorded there — or the shard itself holds that uid on an
 * earlier run (dup_in_shard: a file copied into itself, say). */
typedef struct merge_skip {
    int64_t shard_run_id;     /* the run in the shard */
    int64_t out_run_id;       /* the output's run of the same uid; 0: none */
    const char *status;       /* the shard run's status */
    const char *out_status;   /* the output run's status (NULL: none) */
    bool dup_in_shard;        /* an earlier run of the shard has the same uid */
} merge_skip_t;

typedef void (*merge_skip_fn)(void *user, const char *shard, const merge_skip_t *skip);

/* Prepares merging into the output database `out_path`: checks the path
 * and, when the file exists, that it is a Tessera database this code can
 * write (read only: db_open_read). Nothing is created or written until a
 * shard has runs to add (merge_shard): then the output is created with the
 * full schema (schema_open_write, as `tessera run` does) or migrated, and
 * gets its bookkeeping table `merged_runs` (run_id, fingerprint, shard,
 * shard_run_id, merged_at). Returns NULL with the reason in diag (TESS_EDB:
 * not a Tessera database or of an unknown version, left unmodified;
 * TESS_EIO; TESS_EUSAGE: a name SQLite would not keep, db_check_name;
 * TESS_ENOMEM). */
merge_t *merge_open(const char *out_path, diag_t *diag);

/* Asks to be told of every run a shard holds that merge_shard does not
 * copy (fn NULL: no more). */
void merge_set_skip(merge_t *m, merge_skip_fn fn, void *user);

/* Copies every run of the shard at `shard_path` that the output does not
 * hold yet — its `runs` row and its rows of every other table with a run_id
 * column — in one transaction, then builds the output's indexes. A run's
 * identity is its uid (runs.uid: 128 random bits drawn when it began,
 * schema version 12); so merging a shard twice adds nothing, two runs are
 * never taken for one however close in time they began, and a run the
 * output holds as 'running' (merged while in progress) that the shard holds
 * finished is replaced by the finished copy, under the same run_id. The shard is only read (db_open_read): it may
 * be read-only, on a read-only file system, or still being written.
 * Returns TESS_OK with *res filled, or an error naming the shard (TESS_EIO:
 * cannot be read; TESS_EDB: not a Tessera database, another schema version,
 * the output is the shard, or SQLite failed): the output is then exactly as
 * before the call. */
int merge_shard(merge_t *m, const char *shard_path, merge_result_t *res /* OUT */,
                diag_t *diag);

/* Closes the output. NULL is fine. */
void merge_close(merge_t *m);

#endif

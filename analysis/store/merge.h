/* merge.h — folding shard databases (each written by `tessera run`, e.g. the
 * points of a sweep run on many hosts) into one statistics database. Every
 * run of a shard is copied with all its rows, its run_id renumbered into the
 * output's sequence. Invariant: a shard is merged in one transaction — all
 * of its new runs or nothing — and a run already in the output (same
 * fingerprint, see merge_shard) is never copied twice. */
#ifndef TESSERA_MERGE_H
#define TESSERA_MERGE_H

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
    uint64_t rows;            /* rows copied, every table but `runs` */
    int64_t first_id;         /* run_id in the output of the first run copied (0: none) */
} merge_result_t;

/* Opens the output database `out_path` for merging, creating it with the
 * full schema (schema_open_write, as `tessera run` does) when it does not exist, and creating its
 * bookkeeping table `merged_runs` (run_id, fingerprint, shard,
 * shard_run_id, merged_at). Returns NULL with the reason in diag (TESS_EDB:
 * not a Tessera database or of an unknown version, left unmodified;
 * TESS_EIO; TESS_ENOMEM). */
merge_t *merge_open(const char *out_path, diag_t *diag);

/* Copies every run of the shard at `shard_path` that the output does not
 * hold yet — its `runs` row and its rows of every other table with a run_id
 * column — in one transaction, then builds the output's indexes. A run's
 * identity is its fingerprint: SHA-256 over what its `runs` row holds from
 * the moment it began (started_at, program, its run key's columns —
 * runkey.h — then level, period_ps, from_ps, to_ps); so merging a shard
 * twice adds nothing, and a run the output holds as 'running' (merged while
 * in progress) that the shard holds finished is replaced by the finished
 * copy, under the same run_id. The shard is only read (db_open_read): it may
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

/* runkey.h — a run's identity: the key that makes two runs the same point
 * of a study (same Task Memory image, same initial Shared Memory, same
 * effective configuration — every key, defaults included — and the same
 * Tessera version), whenever and from whatever path they ran. Its one home:
 * `tessera merge` fingerprints a run as this key plus when and from which
 * path it began; `tessera sweep` skips a point whose key a database already
 * holds with status 'ok' (resume). */
#ifndef TESSERA_RUNKEY_H
#define TESSERA_RUNKEY_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/store/sha256.h"
#include "events/base/diag.h"

/* The columns of `runs` the key is computed from, in order (record.level,
 * clock.period_ps and the recording window are in `config`). */
#define RUNKEY_COLUMNS "program_sha256, data_sha256, config, version"
/* The key of each row of `runs`, in SQL (needs runkey_register). */
#define RUNKEY_EXPR "tess_fp(" RUNKEY_COLUMNS ")"

/* The fingerprint by which `tessera merge` knew a run until schema version
 * 11: its key plus when and from which path it began (level, period_ps and
 * the window are functions of `config`). merged_runs.fingerprint holds it;
 * migrated runs take their uid from it (schema.c, version 12). */
#define MERGE_FP_V11                                                                      \
    "tess_fp(started_at, program, " RUNKEY_COLUMNS ", level, period_ps, from_ps, to_ps)"

typedef char runkey_t[SHA256_HEX];

/* Registers tess_fp(v, …) on db: SHA-256 (lowercase hex) over each value's
 * type, length and bytes, so that no two different argument lists hash
 * alike. SQLITE_OK or SQLite's error. */
int runkey_register(sqlite3 *db);

/* The key a run of this Tessera would be recorded with: its Task Memory
 * image (tm_len bytes), its initial Shared Memory (sm_len bytes; NULL: none)
 * and its effective configuration as cfg_format() prints it — what
 * RUNKEY_EXPR gives for the run's `runs` row. */
void runkey_of(const uint8_t *tm, size_t tm_len, const uint8_t *sm, size_t sm_len,
               const char *config, runkey_t out /* OUT */);

/* The distinct keys of the runs a database holds with status 'ok', sorted. */
typedef struct runkey_set {
    runkey_t *keys;
    size_t n;
} runkey_set_t;

/* Reads the keys of the 'ok' runs of the database at `path` (db_open_read:
 * only read, never modified). A missing or empty file gives an empty set.
 * TESS_OK; TESS_EIO, TESS_EDB (not a Tessera database, …) or TESS_ENOMEM
 * with a message naming the path. Free the set with runkey_set_free. */
int runkey_load_ok(const char *path, runkey_set_t *set /* OUT */, diag_t *diag);

bool runkey_set_has(const runkey_set_t *set, const runkey_t key);

void runkey_set_free(runkey_set_t *set);

#endif

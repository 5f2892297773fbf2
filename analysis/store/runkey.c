/* runkey.c — a run's identity key (runkey.h): the tess_fp hash as an SQL
 * function and in C (one encoding, fp_*), and the set of keys of a
 * database's 'ok' runs. */
#include "analysis/store/runkey.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/store/db.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

/* --- the encoding: per value, its SQLite type, then its length and bytes ------ */

static void fp_put_u64(struct sha256_ctx *s, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (56 - 8 * i));
    sha256_update(s, sizeof b, b);
}

static void fp_put_type(struct sha256_ctx *s, int type)
{
    uint8_t tag = (uint8_t)type;
    sha256_update(s, 1, &tag);
}

/* A TEXT or BLOB value (NULL data: SQL NULL). */
static void fp_put_bytes(struct sha256_ctx *s, int type, const void *p, size_t n)
{
    if (!p) {
        fp_put_type(s, SQLITE_NULL);
        return;
    }
    fp_put_type(s, type);
    fp_put_u64(s, n);
    sha256_update(s, n, p);
}

static void fp_put_text(struct sha256_ctx *s, const char *text)
{
    fp_put_bytes(s, SQLITE_TEXT, text, text ? strlen(text) : 0);
}


static void fp_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    struct sha256_ctx s;
    sha256_init(&s);
    for (int i = 0; i < argc; i++) {
        int type = sqlite3_value_type(argv[i]);
        if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
            uint64_t bits = (uint64_t)sqlite3_value_int64(argv[i]);
            if (type == SQLITE_FLOAT) {
                double d = sqlite3_value_double(argv[i]);
                memcpy(&bits, &d, sizeof bits);
            }
            fp_put_type(&s, type);
            fp_put_u64(&s, bits);
        } else if (type == SQLITE_NULL) {
            fp_put_type(&s, type);
        } else {
            const void *p = type == SQLITE_TEXT ? (const void *)sqlite3_value_text(argv[i])
                                                : sqlite3_value_blob(argv[i]);
            size_t n = (size_t)sqlite3_value_bytes(argv[i]);
            fp_put_bytes(&s, type, p ? p : "", n);
        }
    }
    runkey_t hex;
    sha256_hex_digest(&s, hex);
    sqlite3_result_text(ctx, hex, 2 * SHA256_DIGEST_SIZE, SQLITE_TRANSIENT);
}

int runkey_register(sqlite3 *db)
{
    return sqlite3_create_function(db, "tess_fp", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                   fp_func, NULL, NULL);
}

void runkey_of(const uint8_t *tm, size_t tm_len, const uint8_t *sm, size_t sm_len,
               const char *config, runkey_t out)
{
    char tm_hex[SHA256_HEX], sm_hex[SHA256_HEX];
    sha256_hex(tm, tm_len, tm_hex);
    if (sm)
        sha256_hex(sm, sm_len, sm_hex);
    struct sha256_ctx s; /* RUNKEY_COLUMNS, as the recorder stores them (rec.c) */
    sha256_init(&s);
    fp_put_text(&s, tm_hex);
    fp_put_text(&s, sm ? sm_hex : NULL);
    fp_put_text(&s, config);
    fp_put_text(&s, TESSERA_VERSION);
    sha256_hex_digest(&s, out);
}

/* --- the keys of a database's 'ok' runs ----------------------------------------- */

static int cmp_key(const void *a, const void *b) { return strcmp(a, b); }

static int read_keys(sqlite3 *db, const char *path, runkey_set_t *set, diag_t *diag)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 0;
    int rc = runkey_register(db);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "SELECT DISTINCT " RUNKEY_EXPR " FROM runs"
                                " WHERE status = " DB_SQL_TEXT(DB_STATUS_OK_NAME), -1, &st, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        runkey_t *k = tess_grow(set->keys, &cap, set->n, sizeof *k, 64);
        if (!k) {
            sqlite3_finalize(st);
            return diag_fail(diag, TESS_ENOMEM, "%s: out of memory", path);
        }
        set->keys = k;
        const char *key = (const char *)sqlite3_column_text(st, 0);
        snprintf(set->keys[set->n++], SHA256_HEX, "%s", key ? key : "");
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(db, path, "reading the runs' keys", diag);
    if (set->n)
        qsort(set->keys, set->n, sizeof *set->keys, cmp_key);
    return TESS_OK;
}

int runkey_load_ok(const char *path, runkey_set_t *set, diag_t *diag)
{
    memset(set, 0, sizeof *set);
    struct stat st;
    if (stat(path, &st) != 0 || (S_ISREG(st.st_mode) && st.st_size == 0))
        return TESS_OK; /* nothing recorded yet (the merge names a path it cannot create) */
    int64_t version = 0;
    sqlite3 *db = db_open_read(path, &version, diag);
    if (!db)
        return diag->code ? diag->code : TESS_EDB;
    int rc = version > 0 ? read_keys(db, path, set, diag) : TESS_OK;
    sqlite3_close(db);
    if (rc != TESS_OK)
        runkey_set_free(set);
    return rc;
}

bool runkey_set_has(const runkey_set_t *set, const runkey_t key)
{
    return set->n && bsearch(key, set->keys, set->n, sizeof *set->keys, cmp_key);
}

void runkey_set_free(runkey_set_t *set)
{
    tess_free(set->keys);
    memset(set, 0, sizeof *set);
}

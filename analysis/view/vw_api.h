/* vw_api.h — the JSON API of `tessera view` (docs/VISUALS.md): the runs of
 * a study with their varying parameters and key figures, one run's tasks,
 * frames and stalls, its timeline window per pixel column, one task's
 * accesses and slot profile, two runs compared. Independent of HTTP: the
 * server (vw_server.h) passes the path and the query's arguments and sends
 * the answer. Invariant: every answer is read from a connection opened
 * read-only for that request (so runs a sweep adds appear on the next
 * request); bad input is a 4xx answer naming what was wrong, never a crash.
 * Private to analysis/view/. */
#ifndef TESSERA_VW_API_H
#define TESSERA_VW_API_H

#include <stddef.h>

#include "analysis/view/vw_lanes.h"

typedef struct vw_ctx {
    const char *db;           /* ro: the database's path */
    vw_cache_t *cache;        /* ro: the runs' summaries (may be NULL) */
} vw_ctx_t;

/* A query argument by name (NULL when absent). */
typedef const char *(*vw_arg_fn)(void *user, const char *key);

typedef struct vw_reply {
    unsigned status;          /* HTTP status: 200, 400, 404, 500, 503 */
    char *body;               /* JSON text (tess_free it); {"error": "…"} unless 200 */
    size_t size;
} vw_reply_t;

/* Answers GET `path` (starting "/api/"). Always fills `r` (body NULL only
 * when even the error could not be allocated: status 503). */
void vw_api_get(const vw_ctx_t *ctx, const char *path, vw_arg_fn arg, void *user,
                vw_reply_t *r /* OUT */);

/* Parses a run id, frame, core, cycle count or column count: decimal
 * digits only, at most 18 of them. */
bool vw_parse_u64(const char *text, uint64_t *out /* OUT */);

#endif

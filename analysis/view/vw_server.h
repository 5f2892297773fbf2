/* vw_server.h — the HTTP server of `tessera view` on libmicrohttpd: serves
 * the web app compiled into the command (vw_assets.h) and the JSON API
 * (vw_api.h) over one statistics database, GET and HEAD only. Invariant:
 * nothing of a request reaches the file system (assets are a fixed table;
 * the only file is the database, opened read-only per request); a bad
 * request is a 4xx answer; a thread per connection, up to VW_CLIENTS_MAX. */
#ifndef TESSERA_VW_SERVER_H
#define TESSERA_VW_SERVER_H

#include <stdbool.h>

#include "events/base/diag.h"

#define VW_PORT_DEFAULT 8047      /* tessera view's port unless --port */
#define VW_CLIENTS_MAX 64         /* connections at once */
#define VW_REQUEST_MAX 16384      /* bytes of a request's line and headers at most */

typedef struct vw_opts {
    const char *db;           /* the database (checked before listening) */
    const char *bind;         /* a numeric IPv4/IPv6 address; NULL: 127.0.0.1 */
    unsigned port;            /* 0: any free port (vw_server_port says which) */
} vw_opts_t;

typedef struct vw_server vw_server_t;

/* Checks that opts->db is a Tessera database this version reads, then
 * listens. NULL with the reason in diag: TESS_EIO (missing file, the
 * address or port unusable), TESS_EDB (not a Tessera database),
 * TESS_EUSAGE (a malformed address), TESS_ENOMEM. */
vw_server_t *vw_server_start(const vw_opts_t *opts, diag_t *diag);

/* The port it listens on. */
unsigned vw_server_port(const vw_server_t *s);

/* Stops listening, waits for the requests in progress, frees everything.
 * NULL is fine. */
void vw_server_stop(vw_server_t *s);

#endif

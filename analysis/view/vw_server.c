/* vw_server.c — `tessera view`'s HTTP server (vw_server.h) on libmicrohttpd.
 * Routes: /static/NAME (the compiled-in assets), the pages / /run/N and
 * /compare/A/B (all the one index.html: the page reads its URL), /api/…
 * (vw_api.h). Invariant: only GET and HEAD, without a body; when bound to
 * the loopback address, only requests naming a loopback host (so that a web
 * page elsewhere cannot reach it through DNS rebinding). */
#include "analysis/view/vw_server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "analysis/present/report.h"
#include "analysis/view/vw_api.h"
#include "analysis/view/vw_assets.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

#define SUMMARIES 6               /* runs whose summaries are kept */

struct vw_server {
    struct MHD_Daemon *mhd;
    vw_ctx_t ctx;
    char *db;
    bool loopback;            /* bound to the loopback address: check Host */
    unsigned port;
    pthread_t warm;           /* builds the newest runs' summaries at start */
    bool warming;
};

static void *warm_up(void *arg)
{
    vw_server_t *s = arg;
    diag_t d = {0};
    vw_cache_warm(s->ctx.cache, s->db, &d); /* a failure shows again when a page asks */
    return NULL;
}

static const vw_asset_t *asset(const char *path)
{
    for (const vw_asset_t *a = vw_assets; a->path; a++)
        if (!strcmp(a->path, path))
            return a;
    return NULL;
}

/* /, /run/N, /compare/A/B with N, A, B decimal run ids. */
static bool digits(const char *s, const char *end)
{
    if (s == end || end - s > 18)
        return false;
    for (; s < end; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

static bool is_page(const char *url)
{
    if (!strcmp(url, "/"))
        return true;
    if (!strncmp(url, "/run/", 5))
        return digits(url + 5, url + strlen(url));
    if (strncmp(url, "/compare/", 9) != 0)
        return false;
    const char *a = url + 9, *slash = strchr(a, '/');
    return slash && digits(a, slash) && digits(slash + 1, url + strlen(url));
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
                             const void *body, size_t size, enum MHD_ResponseMemoryMode mode)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(size, (void *)body, mode);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, "Allow", "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg)
{
    char body[300];
    snprintf(body, sizeof body, "{\"error\":\"%s\"}", msg);
    return reply(c, status, "application/json", body, strlen(body), MHD_RESPMEM_MUST_COPY);
}

/* The Host header names a loopback address (any port), or is absent. */
static bool loopback_host(struct MHD_Connection *c)
{
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (!h)
        return true;
    static const char *const names[] = {"127.0.0.1", "localhost", "[::1]"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (!strncmp(h, names[i], n) && (h[n] == 0 || h[n] == ':'))
            return true;
    }
    return false;
}

/* The URL and the arguments are taken as they come, not %-decoded: every
 * path and value the server knows is plain ASCII (names, digits), so an
 * encoded one ("%2e%2e", "%00") is simply unknown. */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *s)
{
    return strlen(s);
}

static const char *get_arg(void *user, const char *key)
{
    return MHD_lookup_connection_value(user, MHD_GET_ARGUMENT_KIND, key);
}

static enum MHD_Result answer(vw_server_t *s, struct MHD_Connection *c, const char *url)
{
    if (!strncmp(url, "/api/", 5)) {
        vw_reply_t r;
        vw_api_get(&s->ctx, url, get_arg, c, &r);
        if (!r.body)
            return send_error(c, 503, "out of memory");
        struct MHD_Response *resp =
            MHD_create_response_from_buffer(r.size, r.body, MHD_RESPMEM_MUST_COPY);
        tess_free(r.body);
        if (!resp)
            return MHD_NO;
        MHD_add_response_header(resp, "Content-Type", "application/json");
        MHD_add_response_header(resp, "Cache-Control", "no-store");
        MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
        enum MHD_Result ok = MHD_queue_response(c, r.status, resp);
        MHD_destroy_response(resp);
        return ok;
    }
    const vw_asset_t *a = is_page(url) ? asset("/static/index.html") : asset(url);
    if (!a)
        return send_error(c, 404, "not found");
    return reply(c, 200, a->type, a->data, a->size, MHD_RESPMEM_PERSISTENT);
}

/* Everything is decided when the headers are in, before any body is read
 * (an early answer: libmicrohttpd then closes the connection). */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload, size_t *upload_size, void **state)
{
    vw_server_t *s = cls;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD");
    if (MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH) ||
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) ||
        *upload_size)
        return send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, "requests have no body");
    if (s->loopback && !loopback_host(c))
        return send_error(c, MHD_HTTP_MISDIRECTED_REQUEST,
                          "this server answers requests for 127.0.0.1 or localhost only");
    return answer(s, c, url);
}

/* --- start and stop ----------------------------------------------------------------- */

static int check_db(const char *db, diag_t *d)
{
    report_t *rep = report_open(db, d);
    report_close(rep);
    return rep ? TESS_OK : d->code;
}

static int address(const vw_opts_t *o, struct sockaddr_storage *sa, bool *v6, diag_t *d)
{
    const char *host = o->bind ? o->bind : "127.0.0.1";
    struct sockaddr_in *in = (struct sockaddr_in *)sa;
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)sa;
    memset(sa, 0, sizeof *sa);
    *v6 = false;
    if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
        in->sin_family = AF_INET, in->sin_port = htons((uint16_t)o->port);
        return TESS_OK;
    }
    if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
        in6->sin6_family = AF_INET6, in6->sin6_port = htons((uint16_t)o->port);
        *v6 = true;
        return TESS_OK;
    }
    return diag_fail(d, TESS_EUSAGE, "--bind '%s' is not a numeric IPv4 or IPv6 address", host);
}

vw_server_t *vw_server_start(const vw_opts_t *o, diag_t *d)
{
    struct sockaddr_storage sa;
    bool v6;
    if (o->port > 65535) {
        diag_fail(d, TESS_EUSAGE, "--port %u is not a TCP port (0 to 65535)", o->port);
        return NULL;
    }
    if (address(o, &sa, &v6, d) != TESS_OK || check_db(o->db, d) != TESS_OK)
        return NULL;
    vw_server_t *s = tess_calloc(1, sizeof *s);
    if (!s || !(s->db = tess_strdup(o->db)) || !(s->ctx.cache = vw_cache_create(o->db, SUMMARIES))) {
        diag_fail(d, TESS_ENOMEM, "out of memory");
        vw_server_stop(s);
        return NULL;
    }
    s->ctx.db = s->db;
    s->loopback = !o->bind || !strcmp(o->bind, "127.0.0.1") || !strcmp(o->bind, "::1");
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_POLL | (v6 ? MHD_USE_IPv6 : 0);
    s->mhd = MHD_start_daemon(flags, (uint16_t)o->port, NULL, NULL, on_request, s,
                              MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
                              MHD_OPTION_CONNECTION_LIMIT, (unsigned)VW_CLIENTS_MAX,
                              MHD_OPTION_CONNECTION_TIMEOUT, 10u, /* idle seconds */
                              MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)VW_REQUEST_MAX,
                              MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, NULL,
                              MHD_OPTION_END);
    const union MHD_DaemonInfo *info =
        s->mhd ? MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT) : NULL;
    if (!info) {
        diag_fail(d, TESS_EIO, "cannot listen on %s port %u (in use, or not an address of"
                               " this machine?)", o->bind ? o->bind : "127.0.0.1", o->port);
        vw_server_stop(s);
        return NULL;
    }
    s->port = info->port;
    s->warming = pthread_create(&s->warm, NULL, warm_up, s) == 0;
    return s;
}

unsigned vw_server_port(const vw_server_t *s) { return s->port; }

void vw_server_stop(vw_server_t *s)
{
    if (!s)
        return;
    vw_cache_cancel(s->ctx.cache);
    if (s->warming)
        pthread_join(s->warm, NULL);
    if (s->mhd)
        MHD_stop_daemon(s->mhd);
    vw_cache_destroy(s->ctx.cache);
    tess_free(s->db);
    tess_free(s);
}

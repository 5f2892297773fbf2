/* cmd_view.c — `tessera view`: serves an interactive viewer of a statistics
 * database on a local web server (analysis/view/vw_server.h, docs/VISUALS.md)
 * until SIGINT or SIGTERM. Reads the database only. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "analysis/view/vw_server.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/err.h"

static const cli_use_t view_opts[] = {
    {CLI_PORT, NULL, "the TCP port to listen on (default 8047; 0: any free port)"},
    {CLI_BIND, NULL, "listen on this numeric IPv4 or IPv6 address instead of 127.0.0.1: "
                     "anyone who can reach it can read the database (there is no login)"},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t view_exits[] = {
    {TESS_OK, "stopped by SIGINT or SIGTERM"}, {TESS_EUSAGE, NULL},
    {TESS_EIO, "I/O (DB missing, the port in use)"},
    {TESS_EDB, "database (not a Tessera database)"}, {TESS_ENOMEM, NULL}, {-1, NULL},
};

const cli_spec_t cli_spec_view = {
    .name = "view",
    .usage = "DB [--port N] [--bind ADDR]",
    .about = "Serves an interactive viewer of the statistics database DB at\n"
             "http://127.0.0.1:8047/ until Ctrl-C: the runs with the parameters that vary,\n"
             "a sweep plot, each run's timeline (zoom and pan from the whole run down to\n"
             "single cycles; hover for a transaction, click a task for its accesses), and\n"
             "two runs compared. The database is opened read-only, request by request, so\n"
             "runs a sweep is still adding appear on reload. The JSON API the pages use\n"
             "is documented in docs/VISUALS.md.\n",
    .opts = view_opts,
    .exits = view_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "which database? (DB)",
};

static int parse(int argc, char **argv, vw_opts_t *o)
{
    cli_args_t c;
    int rc = cli_parse(&cli_spec_view, argc, argv, &c);
    o->port = VW_PORT_DEFAULT;
    for (int i = 0; rc == TESS_OK && i < c.n_items; i++) {
        uint64_t v;
        if (c.items[i].opt == CLI_BIND)
            o->bind = c.items[i].value;
        else if (!cli_parse_u64(c.items[i].value, &v) || v > 65535)
            rc = cli_usage_error(&cli_spec_view, "--port '%s' is not a TCP port (0 to 65535)",
                                 c.items[i].value);
        else
            o->port = (unsigned)v;
    }
    if (rc == TESS_OK)
        o->db = c.pos[0];
    cli_args_free(&c);
    return rc;
}

int cmd_view(int argc, char **argv)
{
    vw_opts_t o = {0};
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? TESS_OK : rc;
    /* the server's threads inherit a mask without SIGINT and SIGTERM: this
       thread takes them with sigwait and stops the server */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    diag_t d = {0};
    vw_server_t *s = vw_server_start(&o, &d);
    if (!s) {
        cli_error("view: %s", d.msg);
        return d.code;
    }
    if (o.bind && strcmp(o.bind, "127.0.0.1") != 0 && strcmp(o.bind, "::1") != 0)
        fprintf(stderr, "tessera: view: warning: listening on %s: anyone who can reach this "
                        "address can read %s (there is no login)\n", o.bind, o.db);
    const char *host = o.bind ? o.bind : "127.0.0.1";
    bool v6 = strchr(host, ':') != NULL;
    printf("tessera view: %s at http://%s%s%s:%u/ (Ctrl-C stops)\n", o.db, v6 ? "[" : "",
           host, v6 ? "]" : "", vw_server_port(s));
    fflush(stdout);
    int sig = 0;
    sigwait(&stop, &sig);
    vw_server_stop(s);
    fprintf(stderr, "tessera: view: stopped (%s)\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    return TESS_OK;
}

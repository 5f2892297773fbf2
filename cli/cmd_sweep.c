/* cmd_sweep.c — `tessera sweep`: the cartesian product of `-s key=v1,v2,…`
 * lists, each point a child `tessera run … --db SHARD` (this same binary)
 * writing its own shard, at most --jobs at a time; the shards are folded
 * into OUT.db in point order as they finish (analysis/merge.h). With --emit
 * the commands are printed instead, for GNU parallel or a Slurm array.
 * Invariant: every point's configuration and the program are checked before
 * anything runs; a point that fails never stops the others. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/store/merge.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "config/cfg.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/gpu.h"
#include "model/program.h"

#define SWEEP_MAX_POINTS 10000u  /* larger sweeps need --force */
#define SWEEP_MAX_JOBS 1024u

static const cli_use_t sweep_opts[] = {
    {CLI_SET, "KEY=V1,V2,...", "an axis: a key and its values (a single value is a fixed "
                               "setting); repeatable, the first -s varies slowest"},
    {CLI_SEED, "N1,N2,...", "the same as -s sim.seed=N1,N2,..."},
    {CLI_CONFIG, NULL, "an INI configuration file under every point"},
    {CLI_MEM, NULL, NULL},
    {CLI_JOBS, NULL, NULL},
    {CLI_DB, "OUT.db", "the database the points are merged into (required)"},
    {CLI_EMIT, NULL, "print one self-contained `tessera run ... --db DIR/STEM-shard-K.db` "
                     "command per point (absolute paths, shell-quoted) and run nothing"},
    {CLI_FORCE, NULL, NULL},
    {CLI_PROGRESS, NULL, NULL},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t sweep_exits[] = {
    {TESS_OK, "every point ok"}, {TESS_EUSAGE, NULL},
    {TESS_EINPUT, "a -s value, the configuration or the program is rejected (nothing run)"},
    {TESS_EINTERRUPTED, NULL},
    {TESS_EIO, "OUT.db or a shard could not be written or merged (that shard is kept)"},
    {TESS_EDB, "the same for the database"},
    {-1, NULL},
};

const cli_spec_t cli_spec_sweep = {
    .name = "sweep",
    .usage = "PROG -s key=v1,v2,... [-s key=v ...] [--config F] [--mem F]\n"
             "                     [--jobs N] --db OUT.db [--emit] [--force] [--progress]",
    .about =
        "Runs PROG once per point of the cartesian product of the -s lists, N points at a\n"
        "time, each as `tessera run PROG ... --db SHARD` into a shard in a temporary\n"
        "directory next to OUT.db, and merges the shards into OUT.db in point order\n"
        "(created when missing, appended to otherwise; see `tessera merge`).\n"
        "Lists: values are separated by commas, but a `choice:` latency keeps the\n"
        "commas that follow it up to the next value with a `form:` of its own\n"
        "(`1,choice:1,1,8,uniform:1..4` is 3 values). A list that contains a `;` is\n"
        "split on `;` only (`choice:1,8;4` is 2 values). Quote it for the shell.\n"
        "With --emit, merge the shards with `tessera merge OUT.db DIR/STEM-shard-*.db`.\n"
        "SIGINT/SIGTERM: no new point starts, running points record their run as\n"
        "interrupted, what finished is merged; a second signal kills the running points\n"
        "(their runs stay 'running'). A failed point gives the exit code of the first\n"
        "failed point in point order (3 watchdog, 8 deadlock, ...; 4 if it was killed\n"
        "by a signal).\n",
    .opts = sweep_opts,
    .exits = sweep_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "PROG is missing",
};

/* One -s argument: a key and its values. */
typedef struct axis {
    const char *arg;          /* the -s argument as given */
    char *key;                /* "section.key", blanks trimmed */
    char **assign;            /* "key=value" per value, for cfg_set and the children */
    size_t n;                 /* number of values */
} axis_t;

typedef struct sweep_args {
    const char *prog, *mem, *config, *db;
    axis_t *axes;
    size_t n_axes;
    unsigned jobs;            /* 0: the number of CPUs */
    bool emit, force, progress;
} sweep_args_t;

/* --- value lists ------------------------------------------------------------- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
    return s;
}

/* Appends "key=value" to the axis; false when out of memory. */
static bool axis_add(axis_t *ax, const char *value)
{
    size_t len = strlen(ax->key) + strlen(value) + 2;
    char **grown = tess_realloc(ax->assign, (ax->n + 1) * sizeof *grown);
    if (!grown)
        return false;
    ax->assign = grown;
    if (!(grown[ax->n] = tess_malloc(len)))
        return false;
    snprintf(grown[ax->n++], len, "%s=%s", ax->key, value);
    return true;
}

/* Does the piece carry a form of its own (`uniform:…`, `choice:…`)? */
static bool has_form(const char *piece) { return strchr(piece, ':') != NULL; }

/* Does the piece start a `choice:` latency (blanks before it ignored)? */
static bool is_choice(const char *piece)
{
    piece += strspn(piece, " \t");
    return !strncmp(piece, "choice:", 7);
}

/* Splits `list` (modified) by the rule of sweep_help into the axis's values.
 * Returns TESS_OK, TESS_EINPUT for an empty value, TESS_ENOMEM. */
static int split_values(axis_t *ax, char *list, diag_t *d)
{
    const char *sep = strchr(list, ';') ? ";" : ",";
    char *item = NULL, *save = NULL, *piece;
    bool in_choice = false;
    for (char *p = list;; p = NULL) {
        piece = strtok_r(p, sep, &save);
        bool joins = piece && *sep == ',' && in_choice && !has_form(piece);
        if (joins) {               /* `choice:1` + `,8`: one value, in place */
            piece[-1] = ',';
            continue;
        }
        if (item && !*trim(item))
            return diag_fail(d, TESS_EINPUT, "sweep -s '%s': empty value", ax->arg);
        if (item && !axis_add(ax, trim(item)))
            return diag_fail(d, TESS_ENOMEM, "out of memory");
        if (!piece)
            break;
        item = piece;
        in_choice = is_choice(piece);
    }
    return TESS_OK;
}

/* Parses one -s argument into an axis. */
static int parse_axis(axis_t *ax, const char *arg, diag_t *d)
{
    ax->arg = arg;
    char *text = tess_strdup(arg);
    if (!text)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    char *eq = strchr(text, '=');
    int rc = TESS_OK;
    if (!eq || eq == text) {
        rc = diag_fail(d, TESS_EINPUT, "sweep -s '%s': expected section.key=v1,v2,...",
                       arg);
    } else {
        *eq = 0;
        ax->key = tess_strdup(trim(text));
        size_t len = strlen(eq + 1);
        /* strtok_r skips empty pieces: catch ",," and a leading or trailing separator */
        if (!ax->key)
            rc = diag_fail(d, TESS_ENOMEM, "out of memory");
        else if (!len || strstr(eq + 1, ",,") || strstr(eq + 1, ";;") ||
                 strchr(",;", eq[1]) || strchr(",;", eq[len]))
            rc = diag_fail(d, TESS_EINPUT, "sweep -s '%s': empty value", arg);
        else
            rc = split_values(ax, eq + 1, d);
    }
    tess_free(text);
    return rc;
}

static void free_axes(sweep_args_t *a)
{
    for (size_t i = 0; i < a->n_axes; i++) {
        for (size_t j = 0; j < a->axes[i].n; j++)
            tess_free(a->axes[i].assign[j]);
        tess_free(a->axes[i].assign);
        tess_free(a->axes[i].key);
    }
    tess_free(a->axes);
}

/* --- the command line --------------------------------------------------------- */

static bool parse_jobs(const char *text, unsigned *jobs)
{
    uint64_t v;
    if (!cli_parse_u64(text, &v) || v == 0 || v > SWEEP_MAX_JOBS) {
        cli_usage_error(&cli_spec_sweep, "--jobs '%s': expected 1..%u", text, SWEEP_MAX_JOBS);
        return false;
    }
    *jobs = (unsigned)v;
    return true;
}

/* Returns TESS_OK, TESS_EUSAGE, TESS_ENOMEM, or CLI_HELP_PRINTED. -s arguments are
 * only collected here (in a->axes[].arg); parse_axes() reads them. */
static int parse(int argc, char **argv, cli_args_t *c, sweep_args_t *a)
{
    int rc = cli_parse(&cli_spec_sweep, argc, argv, c);
    if (rc != TESS_OK)
        return rc;
    if (!(a->axes = tess_calloc((size_t)c->n_sets + 1, sizeof *a->axes)))
        return cli_nomem();
    for (int i = 0; i < c->n_sets; i++)
        a->axes[a->n_axes++].arg = c->sets[i];
    a->prog = c->pos[0];
    a->mem = cli_value(c, CLI_MEM);
    a->config = cli_value(c, CLI_CONFIG);
    a->db = cli_value(c, CLI_DB);
    a->emit = cli_count(c, CLI_EMIT) > 0;
    a->force = cli_count(c, CLI_FORCE) > 0;
    a->progress = cli_count(c, CLI_PROGRESS) > 0;
    if (!a->db)
        return cli_usage_error(&cli_spec_sweep, "--db OUT.db is missing");
    const char *jobs = cli_value(c, CLI_JOBS);
    return jobs && !parse_jobs(jobs, &a->jobs) ? TESS_EUSAGE : TESS_OK;
}

/* Splits every -s argument; a key given twice is refused. */
static int parse_axes(sweep_args_t *a, diag_t *d)
{
    for (size_t i = 0; i < a->n_axes; i++) {
        int rc = parse_axis(&a->axes[i], a->axes[i].arg, d);
        if (rc != TESS_OK)
            return rc;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(a->axes[j].key, a->axes[i].key))
                return diag_fail(d, TESS_EINPUT, "sweep -s '%s': %s is already set by -s '%s'",
                                 a->axes[i].arg, a->axes[i].key, a->axes[j].arg);
    }
    return TESS_OK;
}

/* --- points --------------------------------------------------------------------- */

/* The number of points, or 0 when it does not fit 64 bits. */
static uint64_t count_points(const sweep_args_t *a)
{
    uint64_t n = 1;
    for (size_t i = 0; i < a->n_axes; i++) {
        if (a->axes[i].n && n > UINT64_MAX / a->axes[i].n)
            return 0;
        n *= a->axes[i].n;
    }
    return n;
}

/* The assignments of point k (0-based; the last axis varies fastest). */
static void point_assign(const sweep_args_t *a, uint64_t k, char **out /* OUT */)
{
    for (size_t i = a->n_axes; i-- > 0;) {
        out[i] = a->axes[i].assign[k % a->axes[i].n];
        k /= a->axes[i].n;
    }
}

/* "key=v key=v" of the axes with several values, for messages. */
static void point_label(const sweep_args_t *a, uint64_t k, char *buf, size_t size)
{
    char *as[a->n_axes ? a->n_axes : 1];
    size_t len = 0;
    point_assign(a, k, as);
    buf[0] = 0;
    for (size_t i = 0; i < a->n_axes && len < size; i++)
        if (a->axes[i].n > 1)
            len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "", as[i]);
    if (!buf[0])
        snprintf(buf, size, "fixed settings");
}

/* Every value alone, then every point, through the configuration code of
 * `tessera run` (file, then the -s in order, then the cross-key checks and
 * the model's own checks). The message names the -s argument or the point. */
static int validate_points(const sweep_args_t *a, uint64_t n, diag_t *d)
{
    cfg_t base, c;
    cfg_default(&base);
    int rc = a->config ? cfg_load_file(&base, a->config, d) : TESS_OK;
    for (size_t i = 0; i < a->n_axes && rc == TESS_OK; i++)
        for (size_t j = 0; j < a->axes[i].n && rc == TESS_OK; j++) {
            c = base;
            if ((rc = cfg_set(&c, a->axes[i].assign[j], d)) != TESS_OK) {
                char msg[sizeof d->msg];
                snprintf(msg, sizeof msg, "%s", d->msg);
                diag_reset(d);
                return diag_fail(d, rc, "sweep -s '%s': %s", a->axes[i].arg, msg);
            }
        }
    char *as[a->n_axes ? a->n_axes : 1];
    for (uint64_t k = 0; k < n && rc == TESS_OK; k++) {
        c = base;
        point_assign(a, k, as);
        rc = cfg_apply_cli(&c, NULL, as, (int)a->n_axes, d);
        if (rc == TESS_OK)
            rc = gpu_desc_check(&c.gpu, d);
        if (rc != TESS_OK) {
            char label[256], msg[sizeof d->msg];
            point_label(a, k, label, sizeof label);
            snprintf(msg, sizeof msg, "%s", d->msg);
            diag_reset(d);
            return diag_fail(d, rc, "sweep point %llu (%s): %s", (unsigned long long)k + 1,
                             label, msg);
        }
    }
    return rc;
}

/* Assembles or loads the program (and --mem) once, as the children will. */
static int validate_program(const sweep_args_t *a, diag_t *d)
{
    program_t *p = tess_malloc(sizeof *p);
    if (!p)
        return diag_fail(d, TESS_ENOMEM, "out of memory");
    int rc = program_load(p, a->prog, a->mem, d);
    tess_free(p);
    return rc;
}

/* --- command lines ----------------------------------------------------------------- */

/* argv of point k: EXE run PROG [--mem F] [--config F] -s k=v ... --db SHARD [--quiet]. */
static char **point_argv(const sweep_args_t *a, const char *const files[4], uint64_t k,
                         const char *shard, bool quiet)
{
    char **v = tess_calloc(2 * a->n_axes + 12, sizeof *v);
    char *as[a->n_axes ? a->n_axes : 1];
    size_t n = 0;
    if (!v)
        return NULL;
    point_assign(a, k, as);
    v[n++] = (char *)files[0];
    v[n++] = "run";
    v[n++] = (char *)files[1];
    if (files[2])
        v[n++] = "--mem", v[n++] = (char *)files[2];
    if (files[3])
        v[n++] = "--config", v[n++] = (char *)files[3];
    for (size_t i = 0; i < a->n_axes; i++)
        v[n++] = "-s", v[n++] = as[i];
    v[n++] = "--db";
    v[n++] = (char *)shard;
    if (quiet)
        v[n++] = "--quiet";
    return v;
}

/* Writes `s` for /bin/sh: as is when made of safe characters, else in
 * single quotes (a quote inside becomes '\''). */
static void put_quoted(FILE *f, const char *s)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789_@%+=:,./-";
    if (*s && strspn(s, safe) == strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        *s == '\'' ? fputs("'\\''", f) : fputc(*s, f);
    fputc('\'', f);
}

/* Decimal digits of n, for zero-padded shard numbers that sort in order. */
static int digits(uint64_t n)
{
    int d = 1;
    while (n >= 10)
        n /= 10, d++;
    return d;
}

/* "DIR/STEM" of OUT.db with DIR absolute and STEM its name without ".db". */
static char *emit_prefix(const char *db)
{
    char *copy = tess_strdup(db), *dir = NULL, *res = NULL;
    if (!copy)
        return NULL;
    char *slash = strrchr(copy, '/');
    const char *name = slash ? slash + 1 : copy;
    if (slash)
        *slash = 0;
    dir = realpath(slash ? (*copy ? copy : "/") : ".", NULL);
    size_t len = strlen(name);
    if (dir && (res = tess_malloc(strlen(dir) + len + 2))) {
        sprintf(res, "%s/%s", strcmp(dir, "/") ? dir : "", name);
        len = strlen(res);
        if (len > 3 && !strcmp(res + len - 3, ".db"))
            res[len - 3] = 0;
    }
    tess_free(dir);
    tess_free(copy);
    return res;
}

/* --emit: one command per point, nothing run. */
static int emit_commands(const sweep_args_t *a, const char *exe, uint64_t n)
{
    char *prefix = emit_prefix(a->db);
    char *abs[3] = {realpath(a->prog, NULL), a->mem ? realpath(a->mem, NULL) : NULL,
                    a->config ? realpath(a->config, NULL) : NULL};
    int rc = TESS_OK;
    if (!prefix || !abs[0] || (a->mem && !abs[1]) || (a->config && !abs[2])) {
        cli_error("sweep: cannot resolve the absolute paths: %s", strerror(errno));
        rc = TESS_EIO;
    }
    const char *files[4] = {exe, abs[0], abs[1], abs[2]};
    size_t size = prefix ? strlen(prefix) + 48 : 0;
    char *shard = tess_malloc(size + 1);
    if (!shard && rc == TESS_OK)
        rc = TESS_ENOMEM;
    for (uint64_t k = 0; k < n && rc == TESS_OK; k++) {
        snprintf(shard, size, "%s-shard-%0*llu.db", prefix, digits(n),
                 (unsigned long long)k + 1);
        char **v = point_argv(a, files, k, shard, false);
        if (!v) {
            rc = TESS_ENOMEM;
            break;
        }
        for (size_t i = 0; v[i]; i++) {
            if (i)
                putchar(' ');
            put_quoted(stdout, v[i]);
        }
        putchar('\n');
        tess_free(v);
    }
    tess_free(shard); /* a failed write to stdout: main() reports it (exit 5) */
    tess_free(prefix);
    for (int i = 0; i < 3; i++)
        tess_free(abs[i]);
    return rc;
}

/* --- running the points ------------------------------------------------------------- */

typedef struct slot {
    pid_t pid;                /* 0: free */
    uint64_t point;           /* the point it runs */
} slot_t;

typedef struct runner {
    const sweep_args_t *a;
    const char *files[4];     /* the binary, PROG, --mem, --config (NULL: none) */
    char *dir;                /* the shards' temporary directory */
    int width;                /* digits of the shard numbers */
    uint64_t total;           /* points */
    uint64_t next;            /* the next point to launch */
    uint64_t ok, failed;      /* points finished, by outcome (failed: any other code) */
    uint64_t interrupted;     /* of the failed, those that exited 4 (interrupted) */
    uint64_t merge_next;      /* the next point to merge (points merge in order) */
    uint8_t *finished;        /* bit per point: its process has ended */
    slot_t *slots;
    unsigned n_slots, running;
    int stop_signal;          /* 0, or the signal that stopped the sweep */
    int point_rc;             /* exit code of the first failed point (point order) */
    uint64_t point_rc_k;      /* … and that point */
    int merge_rc;             /* the first merge failure's code */
    merge_t *merge;
    merge_result_t merged;    /* totals over the shards */
    int64_t first_run, last_run; /* run ids the sweep added to OUT.db */
    uint64_t kept;            /* shards left in dir (merge failed) */
    sigset_t old_mask;        /* the mask to give back (and to the children) */
    struct timespec t0;
    bool tty, progress;       /* stderr is a terminal; print progress */
    bool line_shown;          /* a progress line is on the terminal */
    double last_progress;     /* when it was printed */
} runner_t;

static double elapsed(const runner_t *r)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - r->t0.tv_sec) + (double)(t.tv_nsec - r->t0.tv_nsec) * 1e-9;
}

static void format_duration(double s, char *buf, size_t size)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

/* Clears the terminal's progress line before another message. */
static void clear_line(runner_t *r)
{
    if (r->line_shown)
        fputs("\r\033[K", stderr);
    r->line_shown = false;
}

/* "sweep: 12/100 points, 1 failed, 0:12 elapsed, ETA 1:30" on stderr, at
 * most once a second unless forced; in place on a terminal. */
static void show_progress(runner_t *r, bool force)
{
    double now = elapsed(r);
    if (!r->progress || (!force && now - r->last_progress < 1.0))
        return;
    uint64_t done = r->ok + r->failed;
    char el[32], eta[32] = "?";
    format_duration(now, el, sizeof el);
    if (done > 0)
        format_duration(now / (double)done * (double)(r->total - done), eta, sizeof eta);
    clear_line(r);
    fprintf(stderr, "sweep: %llu/%llu points, %llu failed, %u running, %s elapsed, ETA %s%s",
            (unsigned long long)done, (unsigned long long)r->total,
            (unsigned long long)r->failed, r->running, el, eta, r->tty ? "" : "\n");
    r->line_shown = r->tty;
    r->last_progress = now;
    fflush(stderr);
}

/* "DIR/shard-K.EXT" of point k (1-based in the name). */
static void shard_path(const runner_t *r, uint64_t k, const char *ext, char *buf, size_t size)
{
    snprintf(buf, size, "%s/shard-%0*llu.%s", r->dir, r->width, (unsigned long long)k + 1,
             ext);
}

/* In the child: its own process group (a terminal's ^C reaches the sweep,
 * which forwards it once), SIGTERM when the sweep dies, no stdin, stdout
 * discarded, stderr to a file the sweep reads. Never returns. */
static void child_exec(char **argv, const char *err_path, pid_t parent, const sigset_t *mask)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(TESS_EINTERRUPTED);
    int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
    int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in >= 0)
        dup2(in, STDIN_FILENO), close(in);
    if (out >= 0)
        dup2(out, STDOUT_FILENO), close(out);
    if (err >= 0)
        dup2(err, STDERR_FILENO), close(err);
    signal(SIGCHLD, SIG_DFL);
    sigprocmask(SIG_SETMASK, mask, NULL);
    execv(argv[0], argv);
    fprintf(stderr, "tessera: sweep: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(TESS_EIO);
}

static void point_failed(runner_t *r, uint64_t k, int code, const char *why);

/* Starts the next point in a free slot. */
static void launch(runner_t *r)
{
    uint64_t k = r->next++;
    char shard[PATH_MAX], err[PATH_MAX];
    shard_path(r, k, "db", shard, sizeof shard);
    shard_path(r, k, "err", err, sizeof err);
    char **argv = point_argv(r->a, r->files, k, shard, true);
    pid_t parent = getpid(), pid = argv ? fork() : -1;
    if (pid == 0)
        child_exec(argv, err, parent, &r->old_mask);
    tess_free(argv);
    if (pid < 0) {
        point_failed(r, k, TESS_ENOMEM, strerror(errno));
        return;
    }
    for (unsigned i = 0; i < r->n_slots; i++)
        if (!r->slots[i].pid) {
            r->slots[i] = (slot_t){pid, k};
            break;
        }
    r->running++;
}

/* The first line of the point's stderr that is not a warning (else the
 * first line), into buf. */
static void first_error_line(const runner_t *r, uint64_t k, char *buf, size_t size)
{
    char path[PATH_MAX], line[512];
    shard_path(r, k, "err", path, sizeof path);
    FILE *f = fopen(path, "r");
    buf[0] = 0;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        const char *text = strncmp(line, "tessera: ", 9) ? line : line + 9;
        bool warning = strstr(line, "warning:") != NULL;
        if (!buf[0] || !warning)
            snprintf(buf, size, "%s", text);
        if (!warning)
            break;
    }
    if (f)
        fclose(f);
}

static void point_failed(runner_t *r, uint64_t k, int code, const char *why)
{
    char label[256];
    point_label(r->a, k, label, sizeof label);
    clear_line(r);
    fprintf(stderr, "tessera: sweep: point %llu/%llu (%s) %s: exit %d (%s)%s%s\n",
            (unsigned long long)k + 1, (unsigned long long)r->total, label,
            code == TESS_EINTERRUPTED ? "stopped" : "failed", code, tess_err_name(code),
            why[0] ? ": " : "", why);
    r->failed++;
    r->interrupted += code == TESS_EINTERRUPTED;
    r->finished[k / 8] |= (uint8_t)(1u << (k % 8));
    if (!r->point_rc || k < r->point_rc_k)
        r->point_rc = code, r->point_rc_k = k;
}

/* A child ended: its verdict. */
static void point_ended(runner_t *r, pid_t pid, int status)
{
    unsigned i = 0;
    while (i < r->n_slots && r->slots[i].pid != pid)
        i++;
    if (i == r->n_slots)
        return;                /* not ours */
    uint64_t k = r->slots[i].point;
    r->slots[i].pid = 0;
    r->running--;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : TESS_EINTERRUPTED;
    if (code == TESS_OK) {
        r->ok++;
        r->finished[k / 8] |= (uint8_t)(1u << (k % 8));
        return;
    }
    char why[512];
    first_error_line(r, k, why, sizeof why);
    if (!WIFEXITED(status))
        snprintf(why, sizeof why, "killed by signal %d", WTERMSIG(status));
    point_failed(r, k, code, why);
}

/* Removes a point's files (shard, its WAL and SHM, stderr). */
static void remove_point_files(const runner_t *r, uint64_t k, bool keep_shard)
{
    static const char *const exts[] = {"err", "db-wal", "db-shm", "db"};
    char path[PATH_MAX];
    for (size_t i = 0; i < sizeof exts / sizeof exts[0] - (keep_shard ? 3 : 0); i++) {
        shard_path(r, k, exts[i], path, sizeof path);
        unlink(path);
    }
}

/* Merges point k's shard, if it wrote one (a point rejected or killed before
 * it opened its database has none). */
static void merge_point(runner_t *r, uint64_t k)
{
    char shard[PATH_MAX];
    struct stat st;
    shard_path(r, k, "db", shard, sizeof shard);
    if (stat(shard, &st) != 0) {
        remove_point_files(r, k, false);
        return;
    }
    merge_result_t res;
    diag_t d = {0};
    if (merge_shard(r->merge, shard, &res, &d) != TESS_OK) {
        clear_line(r);
        cli_error("sweep: point %llu: %s (shard kept)", (unsigned long long)k + 1, d.msg);
        r->merge_rc = r->merge_rc ? r->merge_rc : d.code;
        r->kept++;
        remove_point_files(r, k, true);
        return;
    }
    if (res.runs && !r->first_run)
        r->first_run = res.first_id;
    if (res.runs)
        r->last_run = res.first_id + (int64_t)res.runs - 1;
    r->merged.runs += res.runs;
    r->merged.rows += res.rows;
    r->merged.running += res.running;
    remove_point_files(r, k, false);
}

/* Merges the points finished so far in point order, up to the first one
 * still running (so run ids follow point order). */
static void merge_ready(runner_t *r)
{
    while (r->merge_next < r->next &&
           (r->finished[r->merge_next / 8] >> (r->merge_next % 8) & 1))
        merge_point(r, r->merge_next++);
}

/* SIGINT/SIGTERM: no new point; each running child gets the signal once, so
 * that it records its run as interrupted and commits. A second signal kills
 * the children. */
static void stop(runner_t *r, int sig)
{
    clear_line(r);
    if (r->stop_signal) {
        /* A point busy in a task that touches nothing outside its core does
         * not see signals until the task yields: a second one kills it. */
        cli_error("sweep: %s again: killing %u running point(s) (their runs stay "
                  "'running')", strsignal(sig), r->running);
        for (unsigned i = 0; i < r->n_slots; i++)
            if (r->slots[i].pid)
                kill(r->slots[i].pid, SIGKILL);
        return;
    }
    r->stop_signal = sig;
    cli_error("sweep: %s: no new point; %u running point(s) record their run and stop",
              strsignal(sig), r->running);
    for (unsigned i = 0; i < r->n_slots; i++)
        if (r->slots[i].pid)
            kill(r->slots[i].pid, sig);
}

/* Waits up to half a second for a child to end or a signal. */
static void wait_event(runner_t *r)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    struct timespec tmo = {0, 500000000};
    int sig = sigtimedwait(&set, NULL, &tmo);
    if (sig == SIGINT || sig == SIGTERM)
        stop(r, sig);
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        point_ended(r, pid, status);
}

static void on_sigchld(int sig) { (void)sig; }

/* Launches, reaps and merges until every point ran or the sweep stopped.
 * SIGCHLD, SIGINT and SIGTERM stay blocked meanwhile (sigtimedwait takes
 * them), also while merging, so a signal never interrupts a transaction. */
static void run_all(runner_t *r)
{
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    struct sigaction sa = {.sa_handler = on_sigchld}, old;
    sigaction(SIGCHLD, &sa, &old);
    sigprocmask(SIG_BLOCK, &block, &r->old_mask);
    while (r->running > 0 || (!r->stop_signal && r->next < r->total)) {
        while (!r->stop_signal && r->running < r->n_slots && r->next < r->total)
            launch(r);
        merge_ready(r);
        show_progress(r, false);
        if (r->running > 0)
            wait_event(r);
    }
    merge_ready(r);
    struct timespec zero = {0, 0};
    int sig = sigtimedwait(&block, NULL, &zero); /* one that came while merging */
    if ((sig == SIGINT || sig == SIGTERM) && !r->stop_signal)
        r->stop_signal = sig;
    sigprocmask(SIG_SETMASK, &r->old_mask, NULL);
    sigaction(SIGCHLD, &old, NULL);
}

static void print_summary(runner_t *r)
{
    char el[32];
    format_duration(elapsed(r), el, sizeof el);
    if (!r->tty)
        show_progress(r, true);
    clear_line(r);
    uint64_t not_run = r->total - r->next;
    printf("sweep: %llu point%s: %llu ok, %llu failed", (unsigned long long)r->total,
           r->total == 1 ? "" : "s", (unsigned long long)r->ok,
           (unsigned long long)(r->failed - r->interrupted));
    if (r->interrupted)
        printf(", %llu interrupted", (unsigned long long)r->interrupted);
    if (not_run)
        printf(", %llu not run", (unsigned long long)not_run);
    printf("; %llu run%s merged into %s", (unsigned long long)r->merged.runs,
           r->merged.runs == 1 ? "" : "s", r->a->db);
    if (r->merged.runs)
        printf(" (run%s %lld%s", r->merged.runs == 1 ? "" : "s", (long long)r->first_run,
               r->merged.runs == 1 ? ")" : "-");
    if (r->merged.runs > 1)
        printf("%lld)", (long long)r->last_run);
    printf("; %s\n", el);
    if (r->kept)
        cli_error("sweep: %llu shard(s) could not be merged and were kept in %s",
                  (unsigned long long)r->kept, r->dir);
    fflush(stdout);
}

/* "OUT.db.sweep-XXXXXX" next to OUT.db. */
static char *make_dir(const char *db)
{
    size_t n = strlen(db) + 16;
    char *dir = tess_malloc(n);
    if (dir) {
        snprintf(dir, n, "%s.sweep-XXXXXX", db);
        if (!mkdtemp(dir)) {
            cli_error("sweep: cannot create a directory next to %s: %s", db, strerror(errno));
            tess_free(dir);
            return NULL;
        }
    }
    return dir;
}

static unsigned default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > (long)SWEEP_MAX_JOBS ? SWEEP_MAX_JOBS : (unsigned)n;
}

/* The exit code of a sweep that ran (see sweep_help). */
static int verdict(const runner_t *r)
{
    if (r->stop_signal)
        return TESS_EINTERRUPTED;
    if (r->merge_rc)
        return r->merge_rc;
    return r->point_rc;
}

static int run_sweep(const sweep_args_t *a, const char *exe, uint64_t n, merge_t *m)
{
    runner_t r = {.a = a, .files = {exe, a->prog, a->mem, a->config}, .total = n,
                  .merge = m, .width = digits(n)};
    r.n_slots = a->jobs ? a->jobs : default_jobs();
    if (r.n_slots > n)
        r.n_slots = (unsigned)n;
    r.tty = isatty(STDERR_FILENO);
    r.progress = r.tty || a->progress;
    r.slots = tess_calloc(r.n_slots, sizeof *r.slots);
    r.finished = tess_calloc(n / 8 + 1, 1);
    if (!r.slots || !r.finished) {
        tess_free(r.slots), tess_free(r.finished);
        cli_error("sweep: out of memory");
        return TESS_ENOMEM;
    }
    if (!(r.dir = make_dir(a->db))) {
        tess_free(r.slots), tess_free(r.finished);
        return TESS_EIO;
    }
    clock_gettime(CLOCK_MONOTONIC, &r.t0);
    fflush(stdout);
    run_all(&r);
    print_summary(&r);
    if (!r.kept)
        rmdir(r.dir);
    tess_free(r.dir);
    tess_free(r.slots);
    tess_free(r.finished);
    return verdict(&r);
}

/* --- the command ---------------------------------------------------------------------- */

/* OUT.db is not the program, --mem or --config (it is written even with
 * --emit: by the merge the emitted commands are followed by). */
static int check_files(const sweep_args_t *a, diag_t *d)
{
    outfile_role_t out = {a->db, "--db", true};
    outfile_role_t ins[3] = {{a->prog, "the program", false}, {a->mem, "--mem", false},
                             {a->config, "--config", false}};
    return outfile_check(&out, 1, ins, 3, d);
}

/* Everything that can be rejected, before anything runs or is written. */
static int check_all(sweep_args_t *a, uint64_t *n, diag_t *d)
{
    int rc = parse_axes(a, d);
    if (rc != TESS_OK)
        return rc;
    *n = count_points(a);
    if (*n == 0 || (*n > SWEEP_MAX_POINTS && !a->force))
        return diag_fail(d, TESS_EINPUT,
                         "sweep of %s%llu points refused: the limit is %u without --force",
                         *n ? "" : "more than ", (unsigned long long)(*n ? *n : UINT64_MAX),
                         SWEEP_MAX_POINTS);
    rc = validate_points(a, *n, d);
    return rc == TESS_OK ? validate_program(a, d) : rc;
}

int cmd_sweep(int argc, char **argv)
{
    sweep_args_t a = {0};
    cli_args_t c;
    int rc = parse(argc, argv, &c, &a);
    diag_t d = {.warn = diag_warn_stderr};
    uint64_t n = 0;
    char exe[PATH_MAX];
    ssize_t len = rc == TESS_OK ? readlink("/proc/self/exe", exe, sizeof exe - 1) : 0;
    if (len < 0)
        rc = diag_fail(&d, TESS_EIO, "cannot find this program: %s", strerror(errno));
    exe[len > 0 ? len : 0] = 0;
    if (rc == TESS_OK)
        rc = check_files(&a, &d);
    if (rc == TESS_OK)
        rc = check_all(&a, &n, &d);
    if (rc == TESS_OK && a.emit) {
        rc = emit_commands(&a, exe, n);
    } else if (rc == TESS_OK) {
        merge_t *m = merge_open(a.db, &d);
        rc = m ? run_sweep(&a, exe, n, m) : d.code;
        merge_close(m);
    }
    if (d.code != TESS_OK)
        cli_error("%s", d.msg);
    free_axes(&a);
    cli_args_free(&c);
    return rc == CLI_HELP_PRINTED ? TESS_OK : rc;
}

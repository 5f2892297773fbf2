/* sweep_run.c — the process runner of `tessera sweep` (sweep_run.h): each
 * point a child `tessera run … --db SHARD` (this same binary) writing its own
 * shard, at most --jobs at a time; the shards are folded into OUT.db in point
 * order as they finish (analysis/store/merge.h). SIGINT/SIGTERM stop new
 * points; a second one kills the running ones. */
#include "cli/sweep_run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/store/db.h"
#include "cli/commands.h"
#include "events/base/alloc.h"
#include "events/base/err.h"

int sweep_digits(uint64_t n)
{
    int d = 1;
    while (n >= 10)
        n /= 10, d++;
    return d;
}

char **sweep_point_argv(const sweep_args_t *a, const char *const files[4], uint64_t k,
                        const char *shard, bool quiet)
{
    char **v = tess_calloc(2 * a->plan.n_axes + 12, sizeof *v);
    char *as[a->plan.n_axes ? a->plan.n_axes : 1];
    size_t n = 0;
    if (!v)
        return NULL;
    sweep_plan_point(&a->plan, k, as);
    v[n++] = (char *)files[0];
    v[n++] = "run";
    v[n++] = (char *)files[1];
    if (files[2])
        v[n++] = "--mem", v[n++] = (char *)files[2];
    if (files[3])
        v[n++] = "--config", v[n++] = (char *)files[3];
    for (size_t i = 0; i < a->plan.n_axes; i++)
        v[n++] = "-s", v[n++] = as[i];
    v[n++] = "--db";
    v[n++] = (char *)shard;
    if (quiet)
        v[n++] = "--quiet";
    return v;
}

/* Points are counted two ways: `pos`, the index in a->todo (the order the
 * runner launches and merges them), and `k`, the point in the plan (shard
 * names and messages: point K/N). */
typedef struct slot {
    pid_t pid;                /* 0: free */
    uint64_t pos;             /* the point it runs (index in a->todo) */
} slot_t;

typedef struct runner {
    const sweep_args_t *a;
    const char *files[4];     /* the binary, PROG, --mem, --config (NULL: none) */
    char *dir;                /* the shards' temporary directory */
    int width;                /* digits of the shard numbers */
    uint64_t points;          /* points in the plan */
    uint64_t total;           /* points to run (a->n_todo) */
    uint64_t next;            /* the next point to launch (pos) */
    uint64_t ok, failed;      /* points finished, by outcome (failed: any other code) */
    uint64_t interrupted;     /* of the failed, those that exited 4 (interrupted) */
    uint64_t merge_next;      /* the next point to merge, pos (points merge in order) */
    uint8_t *finished;        /* bit per pos: its process has ended */
    uint8_t *exited_ok;       /* bit per pos: its process exited 0 */
    slot_t *slots;
    unsigned n_slots, running;
    int stop_signal;          /* 0, or the signal that stopped the sweep */
    int point_rc;             /* exit code of the first failed point (point order) */
    uint64_t point_rc_pos;    /* … and that point */
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

/* "DIR/shard-K.EXT" of the point at pos (its plan number K, 1-based). */
static void shard_path(const runner_t *r, uint64_t pos, const char *ext, char *buf, size_t size)
{
    snprintf(buf, size, "%s/shard-%0*llu.%s", r->dir, r->width,
             (unsigned long long)r->a->todo[pos] + 1, ext);
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

static void point_failed(runner_t *r, uint64_t pos, int code, const char *why);

/* Starts the next point in a free slot. */
static void launch(runner_t *r)
{
    uint64_t pos = r->next++;
    char shard[PATH_MAX], err[PATH_MAX];
    shard_path(r, pos, "db", shard, sizeof shard);
    shard_path(r, pos, "err", err, sizeof err);
    char **argv = sweep_point_argv(r->a, r->files, r->a->todo[pos], shard, true);
    pid_t parent = getpid(), pid = argv ? fork() : -1;
    if (pid == 0)
        child_exec(argv, err, parent, &r->old_mask);
    tess_free(argv);
    if (pid < 0) {
        point_failed(r, pos, TESS_ENOMEM, strerror(errno));
        return;
    }
    for (unsigned i = 0; i < r->n_slots; i++)
        if (!r->slots[i].pid) {
            r->slots[i] = (slot_t){pid, pos};
            break;
        }
    r->running++;
}

/* The first line of the point's stderr that is not a warning (else the
 * first line), into buf. */
static void first_error_line(const runner_t *r, uint64_t pos, char *buf, size_t size)
{
    char path[PATH_MAX], line[512];
    shard_path(r, pos, "err", path, sizeof path);
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

static void point_failed(runner_t *r, uint64_t pos, int code, const char *why)
{
    char label[256];
    uint64_t k = r->a->todo[pos];
    sweep_plan_label(&r->a->plan, k, label, sizeof label);
    clear_line(r);
    fprintf(stderr, "tessera: sweep: point %llu/%llu (%s) %s: exit %d (%s)%s%s\n",
            (unsigned long long)k + 1, (unsigned long long)r->points, label,
            code == TESS_EINTERRUPTED ? "stopped" : "failed", code, tess_err_name(code),
            why[0] ? ": " : "", why);
    r->failed++;
    r->interrupted += code == TESS_EINTERRUPTED;
    r->finished[pos / 8] |= (uint8_t)(1u << (pos % 8));
    if (!r->point_rc || pos < r->point_rc_pos)
        r->point_rc = code, r->point_rc_pos = pos;
}

/* A child ended: its verdict. */
static void point_ended(runner_t *r, pid_t pid, int status)
{
    unsigned i = 0;
    while (i < r->n_slots && r->slots[i].pid != pid)
        i++;
    if (i == r->n_slots)
        return;                /* not ours */
    uint64_t pos = r->slots[i].pos;
    r->slots[i].pid = 0;
    r->running--;
    /* killed: by the sweep's own SIGINT/SIGTERM/SIGKILL it is stopped, by any
     * other signal (SIGSEGV, SIGABRT, SIGBUS, an OOM killer's SIGKILL…) it crashed */
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    bool stopped = sig == SIGINT || sig == SIGTERM || (sig == SIGKILL && r->stop_signal);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : stopped ? TESS_EINTERRUPTED : TESS_ECRASH;
    if (code == TESS_OK) {
        r->ok++;
        r->finished[pos / 8] |= (uint8_t)(1u << (pos % 8));
        r->exited_ok[pos / 8] |= (uint8_t)(1u << (pos % 8));
        return;
    }
    char why[512];
    first_error_line(r, pos, why, sizeof why);
    if (sig)
        snprintf(why, sizeof why, "%s by signal %d (%s)", stopped ? "stopped" : "crashed: killed",
                 sig, strsignal(sig));
    point_failed(r, pos, code, why);
}

/* Removes a point's files (shard, its WAL and SHM, stderr). */
static void remove_point_files(const runner_t *r, uint64_t pos, bool keep_shard)
{
    static const char *const exts[] = {"err", "db-wal", "db-shm", "db"};
    char path[PATH_MAX];
    for (size_t i = 0; i < sizeof exts / sizeof exts[0] - (keep_shard ? 3 : 0); i++) {
        shard_path(r, pos, exts[i], path, sizeof path);
        unlink(path);
    }
}

/* The shard's runs recorded the program and data the sweep read (hashed
 * once, before any point ran): a program or --mem edited during the sweep
 * would otherwise put two programs in one study. "" or why not into why. */
static void check_program(const runner_t *r, const char *shard, char *why, size_t size)
{
    diag_t d = {0};
    sqlite3 *db = db_open_read(shard, NULL, &d);
    sqlite3_stmt *st = NULL;
    why[0] = 0;
    if (db && sqlite3_prepare_v2(db, "SELECT program_sha256, data_sha256 FROM runs WHERE"
                                 " program_sha256 IS NOT ?1 OR data_sha256 IS NOT ?2",
                                 -1, &st, NULL) == SQLITE_OK &&
        sqlite3_bind_text(st, 1, r->a->prog_sha, -1, SQLITE_STATIC) == SQLITE_OK &&
        sqlite3_bind_text(st, 2, r->a->data_sha, -1, SQLITE_STATIC) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        const char *prog = (const char *)sqlite3_column_text(st, 0);
        bool code = !prog || strcmp(prog, r->a->prog_sha) != 0;
        snprintf(why, size, "%s changed during the sweep (its run recorded %s_sha256 %.12s…, "
                 "the sweep read %.12s…): not merged",
                 code ? r->a->prog : "the initial Shared Memory (--mem, .data)",
                 code ? "program" : "data", code ? (prog ? prog : "NULL")
                 : (const char *)sqlite3_column_text(st, 1),
                 code ? r->a->prog_sha : r->a->data_sha);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* A point that exited 0 whose run is not in OUT.db as 'ok' (or that was not
 * merged at all) is not counted ok: the summary counts what the database
 * holds. */
static void not_merged_ok(runner_t *r, uint64_t pos, int code, const char *why)
{
    if (r->exited_ok[pos / 8] >> (pos % 8) & 1) {
        r->ok--;
        r->exited_ok[pos / 8] &= (uint8_t) ~(1u << (pos % 8));
        point_failed(r, pos, code, why);
    }
}

/* Merges the shard of the point at pos, if it wrote one (a point rejected
 * or killed before it opened its database has none). */
static void merge_point(runner_t *r, uint64_t pos)
{
    char shard[PATH_MAX], why[512];
    struct stat st;
    shard_path(r, pos, "db", shard, sizeof shard);
    if (stat(shard, &st) != 0) {
        not_merged_ok(r, pos, TESS_EDB, "it left no database");
        remove_point_files(r, pos, false);
        return;
    }
    merge_result_t res;
    diag_t d = {0};
    check_program(r, shard, why, sizeof why);
    if (why[0] || merge_shard(r->merge, shard, &res, &d) != TESS_OK) {
        clear_line(r);
        if (why[0])
            d.code = TESS_EINPUT, snprintf(d.msg, sizeof d.msg, "%s", why);
        cli_error("sweep: point %llu: %s (shard kept)", (unsigned long long)r->a->todo[pos] + 1,
                  d.msg);
        r->merge_rc = r->merge_rc ? r->merge_rc : d.code;
        r->kept++;
        not_merged_ok(r, pos, d.code, "its shard was not merged");
        remove_point_files(r, pos, true);
        return;
    }
    if (res.ok == 0)
        not_merged_ok(r, pos, TESS_EDB, "its run is not in the database as ok");
    if (res.runs && !r->first_run)
        r->first_run = res.first_id;
    if (res.runs)
        r->last_run = res.first_id + (int64_t)res.runs - 1;
    r->merged.runs += res.runs;
    r->merged.rows += res.rows;
    r->merged.running += res.running;
    remove_point_files(r, pos, false);
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

/* The signals the runner takes with sigtimedwait: a child ended, stop. */
static void runner_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGCHLD);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
}

/* Waits up to half a second for a child to end or a signal. */
static void wait_event(runner_t *r)
{
    sigset_t set;
    runner_signals(&set);
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
    runner_signals(&block);
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
        printf("%lld%s)", (long long)r->last_run,
               r->last_run - r->first_run + 1 > (int64_t)r->merged.runs
                   ? ", among another writer's" : "");
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

int sweep_run(const sweep_args_t *a, const char *exe, uint64_t n, merge_t *m)
{
    runner_t r = {.a = a, .files = {exe, a->prog, a->mem, a->config}, .points = n,
                  .total = a->n_todo, .merge = m, .width = sweep_digits(n)};
    r.n_slots = a->jobs ? a->jobs : default_jobs();
    if (r.n_slots > r.total)
        r.n_slots = (unsigned)r.total;
    r.tty = isatty(STDERR_FILENO);
    r.progress = r.tty || a->progress;
    r.slots = tess_calloc(r.n_slots, sizeof *r.slots);
    r.finished = tess_calloc(r.total / 8 + 1, 1);
    r.exited_ok = tess_calloc(r.total / 8 + 1, 1);
    if (!r.slots || !r.finished || !r.exited_ok) {
        tess_free(r.slots), tess_free(r.finished), tess_free(r.exited_ok);
        cli_error("sweep: out of memory");
        return TESS_ENOMEM;
    }
    if (!(r.dir = make_dir(a->db))) {
        tess_free(r.slots), tess_free(r.finished), tess_free(r.exited_ok);
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
    tess_free(r.exited_ok);
    return verdict(&r);
}

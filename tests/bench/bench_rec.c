/* bench_rec.c — cost of the recorder per recorded SM access, without a
 * simulator: a synthetic stream of gpu_trace.h records (16 cores, 64 frames,
 * N accesses in all, 2 kernel events per access at level events) is fed
 * straight into rec_hook(). Each case runs in a forked child (so that its
 * peak RSS is its own) `reps` times; the median is printed, one line per case:
 * wall ns per access, ns per access on the simulation's side (the hook), rows
 * per second, bytes per access in the database file, peak RSS. Cases: none
 * (the generator alone), the four levels, and two alternatives to the JSON
 * packs for comparison: one INSERT per access (`rows`) and varint-packed BLOBs
 * (`binary`), both on the caller's thread.
 * Usage: bench_rec [-n ACCESSES] [-r REPS] [-d DIR] [CASE…]
 * Results: docs/PERFORMANCE.md, "Recorder (bench_rec)". */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/recorder/rec.h"
#include "analysis/store/db.h"
#include "events/base/err.h"
#include "model/gpu_trace.h"

#define CORES 16
#define FRAMES 64
#define PERIOD 1000

typedef struct result {
    double wall_s, feed_s;    /* whole case; feeding only (the simulation's side) */
    double cpu_s;             /* CPU time of the feeding thread (waits excluded) */
    double db_rows;           /* rows written */
    double file_bytes;        /* database size after close */
    double rss_mb;            /* peak RSS */
    int ok;
} result_t;

/* What receives the stream: the recorder's hook, or an alternative. */
typedef struct sink {
    void (*fn)(void *user, unsigned kind, const void *record);
    void *user;
    int events;               /* emit kernel events too */
} sink_t;

typedef struct gen {
    uint64_t rng;
    sim_time_t t[CORES];      /* each core's local time */
    uint64_t seq;             /* kernel event ordinal */
} gen_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rnd(gen_t *g)
{
    g->rng ^= g->rng << 13;
    g->rng ^= g->rng >> 7;
    g->rng ^= g->rng << 17;
    return g->rng;
}

/* --- the synthetic stream -------------------------------------------------- */

static void access_of(gen_t *g, unsigned f, unsigned c, gpu_tr_access_t *a)
{
    uint64_t r = rnd(g);
    a->frame = (uint8_t)f;
    a->core = (uint8_t)c;
    a->is_store = r & 1;
    a->sync = (r >> 1 & 63) == 0;
    a->addr = (uint16_t)(r >> 8 & 0xfff);
    a->bank = (uint8_t)(a->addr >> 8);
    a->value = (uint8_t)(r >> 20);
    a->request_ps = g->t[c] + PERIOD * (1 + (r >> 28 & 3));
    a->arrive_ps = a->request_ps + PERIOD;
    a->grant_ps = a->arrive_ps + ((r >> 32 & 7) == 0 ? PERIOD * (1 + (r >> 35 & 3)) : 0);
    a->done_ps = a->grant_ps + 2 * PERIOD;
    g->t[c] = a->done_ps;
}

static void emit_events(const sink_t *s, gen_t *g, const gpu_tr_access_t *a)
{
    sim_trace_event_t e = {a->arrive_ps, g->seq++, "bank.arrive", 1};
    s->fn(s->user, SIM_TRACE_EVENT, &e);
    e = (sim_trace_event_t){a->done_ps, g->seq++, "core.resume", 2};
    s->fn(s->user, SIM_TRACE_EVENT, &e);
}

static void emit_tail(const sink_t *s, unsigned f, sim_time_t start, const gen_t *g)
{
    sim_time_t end = start;
    for (unsigned c = 0; c < CORES; c++) {
        gpu_tr_core_task_t t = {.frame = (uint8_t)f, .core = (uint8_t)c, .complete = true,
                                .start_ps = start, .finish_ps = g->t[c],
                                .ready_ps = g->t[c] + PERIOD, .instructions = 1000};
        s->fn(s->user, GPU_TR_CORE_TASK, &t);
        end = g->t[c] + PERIOD > end ? g->t[c] + PERIOD : end;
    }
    gpu_tr_frame_t fr = {.frame = (uint8_t)f, .is_if = 1, .mask = 0xffff, .complete = true,
                         .decode_start_ps = start - 6 * PERIOD, .decode_ps = start - 5 * PERIOD,
                         .issue_ps = start - 4 * PERIOD, .start_ps = start, .complete_ps = end};
    s->fn(s->user, GPU_TR_FRAME, &fr);
    gpu_tr_stall_t st = {(uint8_t)f, GPU_STALL_MASK, (uint8_t)(f ? f - 1 : 0xff),
                         start - 4 * PERIOD, start};
    s->fn(s->user, GPU_TR_STALL, &st);
}

static void emit_counters(const sink_t *s)
{
    static const char *names[] = {"accesses", "conflicts", "wait_ps", "busy_ps"};
    char comp[16];
    for (unsigned b = 0; b < 16; b++)
        for (unsigned i = 0; i < 4; i++) {
            snprintf(comp, sizeof comp, "bank%u", b);
            gpu_tr_counter_t k = {comp, names[i], b * 1000 + i};
            s->fn(s->user, GPU_TR_COUNTER, &k);
        }
}

/* Feeds `n` accesses (rounded to whole frames) into the sink. */
static uint64_t feed(const sink_t *s, uint64_t n)
{
    gen_t g = {.rng = 0x9e3779b97f4a7c15u};
    uint64_t per_task = n / (FRAMES * CORES), total = 0;
    for (unsigned f = 0; f < FRAMES; f++) {
        sim_time_t start = 0;
        for (unsigned c = 0; c < CORES; c++)
            start = g.t[c] > start ? g.t[c] : start;
        start += 8 * PERIOD;
        for (unsigned c = 0; c < CORES; c++)
            g.t[c] = start;
        for (uint64_t i = 0; i < per_task; i++)
            for (unsigned c = 0; c < CORES; c++) {
                gpu_tr_access_t a;
                access_of(&g, f, c, &a);
                if (s->fn)
                    s->fn(s->user, GPU_TR_ACCESS, &a);
                if (s->events)
                    emit_events(s, &g, &a);
                total++;
            }
        if (s->fn)
            emit_tail(s, f, start, &g);
    }
    if (s->fn)
        emit_counters(s);
    return total;
}

/* --- alternatives ------------------------------------------------------------- */

typedef struct alt {
    sqlite3 *db;
    sqlite3_stmt *ins;
    uint64_t rows, in_txn;
    uint8_t *buf[CORES];      /* binary: per-core varint packs */
    size_t len[CORES];
    unsigned n[CORES];
    sim_time_t prev[CORES];
} alt_t;

static void alt_commit_maybe(alt_t *x, uint64_t every)
{
    if (++x->in_txn < every)
        return;
    sqlite3_exec(x->db, "COMMIT; BEGIN", NULL, NULL, NULL);
    x->in_txn = 0;
}

static void rows_hook(void *user, unsigned kind, const void *record)
{
    alt_t *x = user;
    if (kind != GPU_TR_ACCESS)
        return;
    const gpu_tr_access_t *a = record;
    sqlite3_stmt *st = x->ins;
    sqlite3_bind_int(st, 1, a->frame);
    sqlite3_bind_int(st, 2, a->core);
    sqlite3_bind_text(st, 3, a->is_store ? "st" : "ld", 2, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, a->addr);
    sqlite3_bind_int(st, 5, a->bank);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)a->request_ps);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)a->arrive_ps);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)a->grant_ps);
    sqlite3_bind_int64(st, 9, (sqlite3_int64)a->done_ps);
    sqlite3_bind_int(st, 10, a->value);
    sqlite3_bind_int(st, 11, a->sync);
    sqlite3_step(st);
    sqlite3_reset(st);
    x->rows++;
    alt_commit_maybe(x, 65536);
}

static uint8_t *put_varint(uint8_t *o, uint64_t v)
{
    while (v >= 0x80) {
        *o++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *o++ = (uint8_t)v;
    return o;
}

static void binary_close(alt_t *x, unsigned c, unsigned f)
{
    if (!x->n[c])
        return;
    sqlite3_bind_int(x->ins, 1, (int)f);
    sqlite3_bind_int(x->ins, 2, (int)c);
    sqlite3_bind_int(x->ins, 3, (int)x->n[c]);
    sqlite3_bind_blob(x->ins, 4, x->buf[c], (int)x->len[c], SQLITE_STATIC);
    sqlite3_step(x->ins);
    sqlite3_reset(x->ins);
    x->rows++;
    x->n[c] = 0;
    x->len[c] = 0;
    x->prev[c] = 0;
    alt_commit_maybe(x, 16);
}

static void binary_hook(void *user, unsigned kind, const void *record)
{
    alt_t *x = user;
    if (kind == GPU_TR_CORE_TASK) {
        const gpu_tr_core_task_t *t = record;
        binary_close(x, t->core, t->frame);
    }
    if (kind != GPU_TR_ACCESS)
        return;
    const gpu_tr_access_t *a = record;
    unsigned c = a->core;
    uint8_t *o = x->buf[c] + x->len[c];
    o = put_varint(o, (a->request_ps - x->prev[c]) / PERIOD);
    o = put_varint(o, (a->arrive_ps - a->request_ps) / PERIOD);
    o = put_varint(o, (a->grant_ps - a->arrive_ps) / PERIOD);
    o = put_varint(o, (a->done_ps - a->grant_ps) / PERIOD);
    o = put_varint(o, (uint64_t)a->addr << 2 | a->sync << 1 | a->is_store);
    *o++ = a->value;
    x->prev[c] = a->request_ps;
    x->len[c] = (size_t)(o - x->buf[c]);
    if (++x->n[c] == 4096)
        binary_close(x, c, a->frame);
}

static int alt_open(alt_t *x, const char *path, int binary)
{
    static const char rows_sql[] =
        "CREATE TABLE a(run_id, frame, core, op, addr, bank, request_ps, arrive_ps,"
        " grant_ps, done_ps, value, sync);";
    static const char bin_sql[] = "CREATE TABLE p(run_id, frame, core, n, data BLOB);";
    memset(x, 0, sizeof *x);
    if (sqlite3_open(path, &x->db) != SQLITE_OK)
        return -1;
    sqlite3_exec(x->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                        "PRAGMA cache_size=-16384", NULL, NULL, NULL);
    sqlite3_exec(x->db, binary ? bin_sql : rows_sql, NULL, NULL, NULL);
    const char *ins = binary ? "INSERT INTO p VALUES(1, ?1, ?2, ?3, ?4)"
                             : "INSERT INTO a VALUES(1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
                               " ?10, ?11)";
    for (unsigned c = 0; binary && c < CORES; c++)
        x->buf[c] = malloc(4096 * 40);
    sqlite3_exec(x->db, "BEGIN", NULL, NULL, NULL);
    return sqlite3_prepare_v2(x->db, ins, -1, &x->ins, NULL) == SQLITE_OK ? 0 : -1;
}

static void alt_close(alt_t *x)
{
    sqlite3_exec(x->db, "COMMIT", NULL, NULL, NULL);
    sqlite3_finalize(x->ins);
    sqlite3_close(x->db);
    for (unsigned c = 0; c < CORES; c++)
        free(x->buf[c]);
}

/* --- the cases ------------------------------------------------------------------- */

/* Rows in the recorder's tables (the access packs counted as rows). */
static double count_rows(const char *path)
{
    static const char sql[] =
        "SELECT (SELECT count(*) FROM sm_access_packs) + (SELECT count(*) FROM frames)"
        " + (SELECT count(*) FROM stalls) + (SELECT count(*) FROM core_tasks)"
        " + (SELECT count(*) FROM events) + (SELECT count(*) FROM counters)";
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    double n = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

static int run_rec(const char *path, int level, uint64_t n, result_t *r)
{
    diag_t d = {0};
    rec_opts_t o = {.level = (uint8_t)level};
    rec_t *rec = rec_open(path, &o, &d);
    if (!rec) {
        fprintf(stderr, "bench_rec: %s\n", d.msg);
        return -1;
    }
    rec_run_info_t info = {.program = "synthetic", .period_ps = PERIOD};
    if (rec_begin_run(rec, &info, NULL, &d) != TESS_OK)
        return fprintf(stderr, "bench_rec: %s\n", d.msg), -1;
    sink_t s = {rec_hook, rec, level >= REC_EVENTS};
    double t0 = now_s(), c0 = cpu_s();
    feed(&s, n);
    r->feed_s = now_s() - t0;
    r->cpu_s = cpu_s() - c0;
    rec_run_end_t e = {.status = "ok", .end_ps = 1};
    int rc = rec_end_run(rec, &e, &d);
    rec_close(rec);
    r->wall_s = now_s() - t0;
    r->db_rows = count_rows(path);
    if (rc != TESS_OK)
        fprintf(stderr, "bench_rec: %s\n", d.msg);
    return rc == TESS_OK ? 0 : -1;
}

static int run_alt(const char *path, int binary, uint64_t n, result_t *r)
{
    alt_t x;
    if (alt_open(&x, path, binary) != 0)
        return -1;
    sink_t s = {binary ? binary_hook : rows_hook, &x, 0};
    double t0 = now_s(), c0 = cpu_s();
    feed(&s, n);
    alt_close(&x);
    r->wall_s = r->feed_s = now_s() - t0;
    r->cpu_s = cpu_s() - c0;
    r->db_rows = (double)x.rows;
    return 0;
}

static void run_case(const char *name, const char *dir, uint64_t n, result_t *r)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bench_rec-%s.db", dir, name);
    unlink(path);
    int rc = 0, level = db_level_from_name(name);
    if (level >= 0) {
        rc = run_rec(path, level, n, r);
    } else if (!strcmp(name, "rows") || !strcmp(name, "binary")) {
        rc = run_alt(path, !strcmp(name, "binary"), n, r);
    } else { /* none: the generator alone */
        sink_t s = {NULL, NULL, 0};
        double t0 = now_s(), c0 = cpu_s();
        feed(&s, n);
        r->wall_s = r->feed_s = now_s() - t0;
        r->cpu_s = cpu_s() - c0;
    }
    struct stat st;
    r->file_bytes = stat(path, &st) == 0 ? (double)st.st_size : 0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r->rss_mb = ru.ru_maxrss / 1024.0;
    r->ok = rc == 0;
    unlink(path);
}

/* Runs a case in a child process and reads its result back. */
static int fork_case(const char *name, const char *dir, uint64_t n, result_t *r)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        result_t res = {0};
        run_case(name, dir, n, &res);
        ssize_t w = write(fd[1], &res, sizeof res);
        _exit(w == (ssize_t)sizeof res ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = pid > 0 ? read(fd[0], r, sizeof *r) : -1;
    close(fd[0]);
    int st = 0;
    if (pid > 0)
        waitpid(pid, &st, 0);
    return got == (ssize_t)sizeof *r && r->ok ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void report(const char *name, uint64_t n, const result_t *rs, int reps)
{
    double wall[64], feedv[64], cpu[64], rss[64];
    for (int i = 0; i < reps; i++) {
        wall[i] = rs[i].wall_s;
        feedv[i] = rs[i].feed_s;
        cpu[i] = rs[i].cpu_s;
        rss[i] = rs[i].rss_mb;
    }
    double w = median(wall, reps), f = median(feedv, reps), c = median(cpu, reps);
    printf("%-8s accesses=%llu ns_per_access=%.1f feed_ns=%.1f feed_cpu_ns=%.1f "
           "accesses_per_s=%.3gM db_rows=%.0f bytes_per_access=%.2f peak_rss_mb=%.1f\n",
           name, (unsigned long long)n, w * 1e9 / (double)n, f * 1e9 / (double)n,
           c * 1e9 / (double)n,
           (double)n / w / 1e6, rs[0].db_rows, rs[0].file_bytes / (double)n,
           median(rss, reps));
    fflush(stdout);
}

int main(int argc, char **argv)
{
    static const char *all[] = {"none", "summary", "tasks", "mem", "events", "rows", "binary"};
    uint64_t n = 16u << 20;
    int reps = 3, opt;
    const char *dir = ".";
    while ((opt = getopt(argc, argv, "n:r:d:")) != -1) {
        if (opt == 'n')
            n = strtoull(optarg, NULL, 0);
        else if (opt == 'r')
            reps = atoi(optarg);
        else if (opt == 'd')
            dir = optarg;
        else
            return fprintf(stderr, "usage: bench_rec [-n ACCESSES] [-r REPS] [-d DIR] [CASE…]\n"), 1;
    }
    reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
    n = n / (FRAMES * CORES) * (FRAMES * CORES);
    int ncases = argc > optind ? argc - optind : (int)(sizeof all / sizeof all[0]);
    for (int i = 0; i < ncases; i++) {
        const char *name = argc > optind ? argv[optind + i] : all[i];
        result_t rs[64];
        for (int k = 0; k < reps; k++)
            if (fork_case(name, dir, n, &rs[k]) != 0)
                return fprintf(stderr, "bench_rec: case %s failed\n", name), 1;
        report(name, n, rs, reps);
    }
    return 0;
}

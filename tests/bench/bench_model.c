/* bench_model.c — the timed model's benchmark: runs `tessera run` on the long
 * benchmark program (examples/bench.s: 16 cores, nested counted loops, 50 M
 * instructions, a quarter ld/st) with recording off and at each record level
 * (events too: issue 15 wants it within 4x summary), each several times in
 * a child process, and prints one line per case with the medians:
 * simulated instructions/s and events/s (the simulation alone, as the
 * command reports them), whole-process wall seconds, database bytes per SM
 * access, and peak resident memory. A last line runs the same program with
 * core.model = simt (recording off): its lane instructions per second (the
 * instructions the command counts are the lanes') against MIMD's, each SIMT
 * run paired with a MIMD run just before it (the median of the ratios).
 *
 *   usage: bench_model [--runs N] [--program F] [--tessera PATH]
 *
 * A benchmark, not a test: it asserts nothing; docs/PERFORMANCE.md keeps its
 * latest figures. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 31

typedef struct sample {
    double sim_wall, instr_per_s, events_per_s, proc_wall, maxrss_mib, db_bytes;
    double accesses;
} sample_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs argv with stdout into `out` (size n); fills the child's rusage. */
static int run_child(char *const argv[], char *out, size_t n, struct rusage *ru)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t got;
    while ((got = read(fd[0], out + len, n - 1 - len)) > 0)
        len += (size_t)got;
    out[len] = 0;
    close(fd[0]);
    int status;
    wait4(pid, &status, 0, ru);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int one_run(const char *tessera, const char *program, const char *level,
                   const char *extra, sample_t *s)
{
    char db[] = "/tmp/bench_model-XXXXXX";
    int fd = mkstemp(db);
    if (fd < 0)
        return -1;
    close(fd);
    unlink(db);
    char level_arg[64];
    snprintf(level_arg, sizeof level_arg, "record.level=%s", level);
    char *argv[32], settings[256];
    int k = 0;
    argv[k++] = (char *)tessera;
    argv[k++] = "run";
    argv[k++] = (char *)program;
    argv[k++] = "-s";
    argv[k++] = "sim.progress=off";
    if (extra) { /* one or more section.key=value, separated by blanks */
        snprintf(settings, sizeof settings, "%s", extra);
        for (char *save, *kv = strtok_r(settings, " ", &save); kv && k < 24;
             kv = strtok_r(NULL, " ", &save)) {
            argv[k++] = "-s";
            argv[k++] = kv;
        }
    }
    if (strcmp(level, "off") == 0) {
        argv[k++] = "--no-db";
    } else {
        argv[k++] = "-s";
        argv[k++] = level_arg;
        argv[k++] = "--db";
        argv[k++] = db;
    }
    argv[k] = NULL;
    static char out[8192];
    struct rusage ru;
    double t0 = now_s();
    int rc = run_child(argv, out, sizeof out, &ru);
    s->proc_wall = now_s() - t0;
    s->maxrss_mib = (double)ru.ru_maxrss / 1024.0;
    const char *w = strstr(out, "wall time");
    const char *a = strstr(out, "SM accesses");
    if (rc != 0 || !w || !a ||
        sscanf(w, "wall time %lf s (%lf events/s, %lf instructions/s)", &s->sim_wall,
               &s->events_per_s, &s->instr_per_s) != 3 ||
        sscanf(a, "SM accesses %lf", &s->accesses) != 1) {
        fprintf(stderr, "bench_model: run failed (exit %d):\n%s\n", rc, out);
        return -1;
    }
    struct stat st;
    s->db_bytes = stat(db, &st) == 0 ? (double)st.st_size : 0;
    unlink(db);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double median(const sample_t *s, int n, size_t offset)
{
    double v[MAX_RUNS];
    for (int i = 0; i < n; i++)
        v[i] = *(const double *)(const void *)((const char *)&s[i] + offset);
    return median_of(v, n);
}

#define MED(field) median(s, runs, offsetof(sample_t, field))

int main(int argc, char **argv)
{
    int runs = 5;
    const char *program = TESSERA_SOURCE_DIR "/examples/bench.s";
    const char *tessera = TESSERA_BINARY;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--runs"))
            runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--program"))
            program = argv[i + 1];
        else if (!strcmp(argv[i], "--tessera"))
            tessera = argv[i + 1];
    }
    if (runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "usage: bench_model [--runs 1..%d] [--program F] [--tessera PATH]\n",
                MAX_RUNS);
        return 1;
    }
    static const char *levels[] = {"off", "summary", "tasks", "mem", "events"};
    double base = 0, mimd_ips = 0;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        sample_t s[MAX_RUNS];
        for (int i = 0; i < runs; i++)
            if (one_run(tessera, program, levels[l], NULL, &s[i]) != 0)
                return 1;
        double wall = MED(proc_wall);
        if (l == 0)
            mimd_ips = MED(instr_per_s);
        if (l == 1)
            base = wall;
        printf("model level=%s instructions_per_s=%.4g events_per_s=%.4g sim_wall_s=%.3f "
               "process_wall_s=%.3f vs_summary=%.2f db_bytes_per_access=%.1f peak_rss_mib=%.1f\n",
               levels[l], MED(instr_per_s), MED(events_per_s), MED(sim_wall), wall,
               base > 0 ? wall / base : 0.0, MED(accesses) > 0 ? MED(db_bytes) / MED(accesses) : 0,
               MED(maxrss_mib));
        fflush(stdout);
    }
    /* each SIMT run right after a MIMD run: vs_mimd is the median of the
       pairs' ratios, which holds when the host's speed drifts (vs_mimd_lines
       compares the two lines' medians, as the other lines are) */
    sample_t s[MAX_RUNS], mimd;
    double ratio[MAX_RUNS];
    for (int i = 0; i < runs; i++) {
        if (one_run(tessera, program, "off", NULL, &mimd) != 0 ||
            one_run(tessera, program, "off", "core.model=simt", &s[i]) != 0)
            return 1;
        ratio[i] = s[i].instr_per_s / mimd.instr_per_s;
    }
    printf("model core.model=simt level=off lane_instructions_per_s=%.4g events_per_s=%.4g "
           "sim_wall_s=%.3f vs_mimd=%.3f vs_mimd_lines=%.2f\n",
           MED(instr_per_s), MED(events_per_s), MED(sim_wall), median_of(ratio, runs),
           mimd_ips > 0 ? MED(instr_per_s) / mimd_ips : 0.0);
    fflush(stdout);
    /* the SIMT pipeline (S11-S13) on, each run right after a default SIMT
       run: vs_simt is the median of the pairs' ratios of simulated time
       (wall) per lane instruction, pipeline over default (issue 21: <= 2) */
    sample_t p[MAX_RUNS], simt;
    for (int i = 0; i < runs; i++) {
        if (one_run(tessera, program, "off", "core.model=simt", &simt) != 0 ||
            one_run(tessera, program, "off",
                    "core.model=simt simt.ibuffer=2 simt.collectors=4 simt.sp_width=8 "
                    "simt.sfu_width=4 simt.lsu_width=8",
                    &p[i]) != 0)
            return 1;
        ratio[i] = simt.instr_per_s / p[i].instr_per_s;
    }
    for (int i = 0; i < runs; i++) /* MED reads s */
        s[i] = p[i];
    printf("model core.model=simt pipeline level=off lane_instructions_per_s=%.4g "
           "events_per_s=%.4g sim_wall_s=%.3f vs_simt=%.3f\n",
           MED(instr_per_s), MED(events_per_s), MED(sim_wall), median_of(ratio, runs));
    return 0;
}

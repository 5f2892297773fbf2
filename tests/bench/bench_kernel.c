/* bench_kernel.c — throughput of the kernel's event queue through sim_run.
 * Prints one line per case ("hold pending=P events_per_s=N" …). Every event
 * is a component-style event whose callback schedules itself again with
 * sim_schedule (except pop-push, which schedules another one); increments are
 * exponential (mean 1 ns) drawn from a table. Rates are events per second of
 * CPU time of the benchmark thread, so that other load on a shared machine
 * does not count (on an idle machine that is wall time); a sim_run case
 * reports the median of five slices of its run.
 * Usage: bench_kernel [scale]  — scale multiplies the run length (default 1,
 * about 0.5 s per case). Results and method: docs/PERFORMANCE.md. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "events/driver.h"
#include "events/base/err.h"
#include "events/sim.h"

#define EXP_TABLE 1024
#define MEAN_PS 1000.0
#define CHUNK 1000000u
#define SLICES 5

typedef struct bench {
    uint64_t rng;                 /* xorshift64 state */
    sim_time_t exp[EXP_TABLE];    /* exponential increments, mean MEAN_PS */
    uint32_t lps;                 /* PHOLD: logical processes */
    uint64_t *lp_events;          /* PHOLD: events received per LP */
    sim_event_t **spare;          /* push/pop: events not pending */
    size_t nspare;
} bench_t;

typedef struct bench_ev {
    sim_event_t ev;
    uint32_t lp;                  /* PHOLD: the LP the event is addressed to */
} bench_ev_t;

static uint64_t next_rand(bench_t *b)
{
    uint64_t x = b->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return b->rng = x;
}

static sim_time_t draw(bench_t *b)
{
    return b->exp[next_rand(b) & (EXP_TABLE - 1)];
}

static void bench_init(bench_t *b)
{
    b->rng = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < EXP_TABLE; i++)
        b->exp[i] = (sim_time_t)(-MEAN_PS * log((i + 0.5) / EXP_TABLE));
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- the event callbacks ---------------------------------------------- */

static void hold_cb(sim_t *sim, sim_event_t *ev)
{
    sim_schedule(sim, ev, sim_now(sim) + draw(ev->data));
}

static void phold_cb(sim_t *sim, sim_event_t *ev)
{
    bench_t *b = ev->data;
    bench_ev_t *e = container_of(ev, bench_ev_t, ev);
    b->lp_events[e->lp]++;
    e->lp = (uint32_t)(next_rand(b) % b->lps);
    sim_schedule(sim, ev, sim_now(sim) + (sim_time_t)MEAN_PS + draw(b));
}

/* The fired event is retired and a spare one is scheduled: pop + push. */
static void swap_cb(sim_t *sim, sim_event_t *ev)
{
    bench_t *b = ev->data;
    sim_event_t *next = b->spare[--b->nspare];
    b->spare[b->nspare++] = ev;
    sim_schedule(sim, next, sim_now(sim) + draw(b));
}

/* ---- the cases -------------------------------------------------------- */

/* Creates a simulation with `pending` events of callback `cb` (plus `spare`
 * unscheduled ones at the end of *evs). */
static sim_t *setup(bench_t *b, size_t pending, size_t spare, sim_event_cb cb,
                    bench_ev_t **evs)
{
    sim_t *sim = sim_create();
    *evs = calloc(pending + spare, sizeof **evs);
    if (!sim || !*evs || sim_reserve(sim, pending) != TESS_OK) {
        fprintf(stderr, "bench_kernel: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < pending + spare; i++) {
        sim_event_init(&(*evs)[i].ev, cb, b, 0, "bench");
        (*evs)[i].lp = (uint32_t)(next_rand(b) % (b->lps ? b->lps : 1));
        if (i < pending)
            sim_schedule(sim, &(*evs)[i].ev, draw(b));
    }
    return sim;
}

/* Runs events for `seconds` of CPU time in SLICES slices and returns the
 * median of their rates (events/s): a burst of load on the machine spoils a
 * slice, not the case. */
static double measure(sim_t *sim, double seconds)
{
    double rates[SLICES];
    sim_run(sim, SIM_TIME_NEVER, CHUNK / 4);            /* warm up */
    for (int i = 0; i < SLICES; i++) {
        uint64_t before = sim_events_run(sim);
        double t0 = cpu_now(), t1;
        do {
            sim_run(sim, SIM_TIME_NEVER, CHUNK / 4);
            t1 = cpu_now();
        } while (t1 - t0 < seconds / SLICES);
        rates[i] = (double)(sim_events_run(sim) - before) / (t1 - t0);
    }
    qsort(rates, SLICES, sizeof rates[0], cmp_double);
    return rates[SLICES / 2];
}

static void bench_hold(size_t pending, double seconds)
{
    bench_t b = {0};
    bench_ev_t *evs;
    bench_init(&b);
    sim_t *sim = setup(&b, pending, 0, hold_cb, &evs);
    printf("hold pending=%zu events_per_s=%.0f\n", pending, measure(sim, seconds));
    sim_destroy(sim);
    free(evs);
}

static void bench_phold(uint32_t lps, size_t per_lp, double seconds)
{
    bench_t b = {0};
    bench_ev_t *evs;
    bench_init(&b);
    b.lps = lps;
    b.lp_events = calloc(lps, sizeof *b.lp_events);
    sim_t *sim = setup(&b, (size_t)lps * per_lp, 0, phold_cb, &evs);
    printf("phold lps=%u pending=%zu events_per_s=%.0f\n", lps, (size_t)lps * per_lp,
           measure(sim, seconds));
    sim_destroy(sim);
    free(evs);
    free(b.lp_events);
}

static void bench_swap(size_t pending, double seconds)
{
    bench_t b = {0};
    bench_ev_t *evs;
    bench_init(&b);
    sim_t *sim = setup(&b, pending, 1, swap_cb, &evs);
    b.spare = malloc(sizeof *b.spare);
    b.spare[0] = &evs[pending].ev;
    b.nspare = 1;
    printf("pop-push pending=%zu events_per_s=%.0f\n", pending, measure(sim, seconds));
    sim_destroy(sim);
    free(evs);
    free(b.spare);
}

/* The hold case through sim_drive: batches from an ev_idle watcher (4096 is
 * the driver's default; 1 shows what one libev iteration per event costs). */
static void bench_drive(size_t pending, size_t batch, double seconds)
{
    bench_t b = {0};
    bench_ev_t *evs;
    bench_init(&b);
    sim_t *sim = setup(&b, pending, 0, hold_cb, &evs);
    sim_drive_desc_t desc = { .wall_limit_s = seconds, .progress = -1, .batch = batch };
    sim_drive_result_t res;
    double t0 = cpu_now();
    if (sim_drive(sim, &desc, &res) != TESS_OK) {
        fprintf(stderr, "bench_kernel: sim_drive failed\n");
        exit(1);
    }
    printf("drive-hold pending=%zu batch=%zu events_per_s=%.0f\n", pending, batch,
           (double)res.events / (cpu_now() - t0));
    sim_destroy(sim);
    free(evs);
}

int main(int argc, char **argv)
{
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    if (scale <= 0) {
        fprintf(stderr, "usage: bench_kernel [scale > 0]\n");
        return 2;
    }
    double s = 0.5 * scale;
    setvbuf(stdout, NULL, _IOLBF, 0);
    bench_hold(1, s);
    bench_hold(10, s);
    bench_hold(1000, s);
    bench_hold(100000, s);
    bench_phold(64, 16, s);
    bench_swap(1000, s);
    bench_drive(1000, 4096, s);
    bench_drive(1000, 1, s);
    return 0;
}

/* test_driver.c — the libev driver (events/driver.h): every end condition
 * (empty queue, stop by a component, simulated-time limit, wall-clock limit,
 * SIGINT/SIGTERM between two events with the state intact and the previous
 * signal dispositions restored), paced mode, and the progress line. */
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "events/driver.h"
#include "events/base/err.h"
#include "events/sim.h"
#include "tests/testutil.h"

typedef struct counter {
    sim_event_t ev;
    uint64_t runs;
    uint64_t limit;            /* reschedules itself until it ran this often */
    sim_time_t step;
    uint64_t raise_at;         /* raise(raise_sig) during this run (0: never) */
    int raise_sig;
    bool finished_raise;       /* the raising event went on to its end */
    uint64_t stop_at;          /* sim_stop(stop_why) during this run (0: never) */
    sim_end_t stop_why;
} counter_t;

static void counter_cb(sim_t *sim, sim_event_t *ev)
{
    counter_t *c = container_of(ev, counter_t, ev);
    c->runs++;
    if (c->runs == c->raise_at) {
        raise(c->raise_sig);
        c->finished_raise = true;
    }
    if (c->runs == c->stop_at)
        sim_stop(sim, c->stop_why);
    if (c->runs < c->limit)
        sim_schedule(sim, ev, sim_now(sim) + c->step);
}

static void counter_init(counter_t *c, sim_t *sim, uint64_t limit, sim_time_t step)
{
    memset(c, 0, sizeof *c);
    c->limit = limit;
    c->step = step;
    sim_event_init(&c->ev, counter_cb, NULL, 0, "counter");
    sim_schedule(sim, &c->ev, 0);
}

static sim_drive_desc_t quiet(void)
{
    return (sim_drive_desc_t){ .progress = -1 };
}

/* ---- end conditions --------------------------------------------------- */

static void test_drive_until_empty(void)
{
    sim_t *sim = sim_create();
    counter_t c[5];
    for (int i = 0; i < 5; i++)
        counter_init(&c[i], sim, 1000, 10 + (sim_time_t)i);
    sim_drive_desc_t desc = quiet();
    desc.batch = 64;
    sim_drive_result_t res;
    CU_ASSERT_EQUAL(sim_drive(sim, &desc, &res), TESS_OK);
    CU_ASSERT_EQUAL(res.end, SIM_END_EMPTY);
    CU_ASSERT_EQUAL(res.events, 5000);
    CU_ASSERT_EQUAL(res.signal, 0);
    CU_ASSERT(res.wall_s >= 0);
    CU_ASSERT_EQUAL(sim_now(sim), 999 * 14);
    /* Nothing left: returns at once. NULL desc means the defaults. */
    CU_ASSERT_EQUAL(sim_drive(sim, NULL, &res), TESS_OK);
    CU_ASSERT_EQUAL(res.end, SIM_END_EMPTY);
    CU_ASSERT_EQUAL(res.events, 0);
    sim_destroy(sim);
}

static void test_drive_time_limit(void)
{
    sim_t *sim = sim_create();
    counter_t c;
    counter_init(&c, sim, 1000, 10);
    sim_drive_desc_t desc = quiet();
    desc.until = 5005;
    sim_drive_result_t res;
    sim_drive(sim, &desc, &res);
    CU_ASSERT_EQUAL(res.end, SIM_END_TIME_LIMIT);
    CU_ASSERT_EQUAL(res.events, 501);              /* 0, 10, …, 5000 */
    CU_ASSERT_EQUAL(sim_now(sim), 5005);           /* the limit: nothing ran after 5000 */
    CU_ASSERT_EQUAL(sim_pending(sim), 1);
    CU_ASSERT_EQUAL(sim_next_time(sim), 5010);
    desc.until = 0;                                /* no limit: to the end */
    sim_drive(sim, &desc, &res);
    CU_ASSERT_EQUAL(res.end, SIM_END_EMPTY);
    CU_ASSERT_EQUAL(res.events, 499);
    CU_ASSERT_EQUAL(c.runs, 1000);
    sim_destroy(sim);
}

static void test_drive_stop_by_component(void)
{
    sim_t *sim = sim_create();
    counter_t c;
    counter_init(&c, sim, 1000, 10);
    c.stop_at = 100;
    c.stop_why = SIM_END_STOPPED;
    sim_drive_desc_t desc = quiet();
    sim_drive_result_t res;
    sim_drive(sim, &desc, &res);
    CU_ASSERT_EQUAL(res.end, SIM_END_STOPPED);
    CU_ASSERT_EQUAL(res.events, 100);               /* returned after that event */
    CU_ASSERT_EQUAL(sim_pending(sim), 1);
    sim_drive(sim, &desc, &res);                    /* the stop is kept … */
    CU_ASSERT_EQUAL(res.end, SIM_END_STOPPED);
    CU_ASSERT_EQUAL(res.events, 0);
    sim_clear_stop(sim);                            /* … until cleared */
    c.stop_at = 300;
    c.stop_why = SIM_END_ERROR;                     /* any reason is reported */
    sim_drive(sim, &desc, &res);
    CU_ASSERT_EQUAL(res.end, SIM_END_ERROR);
    CU_ASSERT_EQUAL(c.runs, 300);
    sim_clear_stop(sim);
    sim_drive(sim, &desc, &res);
    CU_ASSERT_EQUAL(res.end, SIM_END_EMPTY);
    CU_ASSERT_EQUAL(c.runs, 1000);
    sim_destroy(sim);
}

static void test_drive_wall_limit(void)
{
    sim_t *sim = sim_create();
    counter_t c;
    counter_init(&c, sim, UINT64_MAX, 1);           /* never ends by itself */
    sim_drive_desc_t desc = quiet();
    desc.wall_limit_s = 0.1;
    sim_drive_result_t res;
    sim_drive(sim, &desc, &res);
    CU_ASSERT_EQUAL(res.end, SIM_END_WALL_LIMIT);
    CU_ASSERT(res.wall_s >= 0.09 && res.wall_s < 5.0);
    CU_ASSERT(res.events > 0);
    CU_ASSERT_EQUAL(res.events, c.runs);
    CU_ASSERT_EQUAL(sim_pending(sim), 1);
    sim_destroy(sim);
}

/* ---- signals ---------------------------------------------------------- */

/* A flag set by the test's own handler (a signal handler can reach nothing
 * else); it proves the disposition in place before sim_drive came back. */
static volatile sig_atomic_t own_handler_hits;

static void own_handler(int sig)
{
    own_handler_hits++;
}

static void install_own(int sig, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = own_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, old);
}

static bool handler_is_own(int sig)
{
    struct sigaction cur;
    sigaction(sig, NULL, &cur);
    return cur.sa_handler == own_handler;
}

/* Three counters; the first raises `sig` during its run `at` (0: never). */
static uint64_t run_three(int sig, uint64_t at, sim_drive_result_t *res, uint64_t *again)
{
    sim_t *sim = sim_create();
    counter_t c[3];
    for (int i = 0; i < 3; i++)
        counter_init(&c[i], sim, 20000, 3 + (sim_time_t)i);
    c[0].raise_at = at;
    c[0].raise_sig = sig;
    sim_drive_desc_t desc = quiet();
    desc.catch_signals = true;
    sim_drive(sim, &desc, res);
    if (at) {
        CU_ASSERT_TRUE(c[0].finished_raise);        /* that event completed */
        CU_ASSERT(c[0].runs >= at);
        CU_ASSERT_EQUAL(sim_pending(sim), 3);       /* the rest still pending */
        CU_ASSERT_EQUAL(res->events, sim_events_run(sim));
        sim_drive_result_t rest;
        sim_drive(sim, &desc, &rest);               /* continues to the end */
        CU_ASSERT_EQUAL(rest.end, SIM_END_EMPTY);
        CU_ASSERT_EQUAL(rest.signal, 0);
        *again = rest.events;
    }
    uint64_t total = sim_events_run(sim);
    sim_destroy(sim);
    return total;
}

static void test_drive_signal_stops_between_events(void)
{
    struct sigaction old_int, old_term;
    install_own(SIGINT, &old_int);
    install_own(SIGTERM, &old_term);
    own_handler_hits = 0;
    sim_drive_result_t res;
    uint64_t again = 0;
    uint64_t total = run_three(0, 0, &res, &again);
    CU_ASSERT_EQUAL(res.end, SIM_END_EMPTY);
    CU_ASSERT_EQUAL(total, 60000);

    uint64_t t1 = run_three(SIGINT, 15000, &res, &again);
    CU_ASSERT_EQUAL(res.end, SIM_END_INTERRUPTED);
    CU_ASSERT_EQUAL(res.signal, SIGINT);
    CU_ASSERT(res.events < total);
    CU_ASSERT_EQUAL(res.events + again, total);
    CU_ASSERT_EQUAL(t1, total);
    CU_ASSERT_TRUE(handler_is_own(SIGINT));         /* restored on return */

    uint64_t t2 = run_three(SIGTERM, 7, &res, &again);   /* a second drive works */
    CU_ASSERT_EQUAL(res.end, SIM_END_INTERRUPTED);
    CU_ASSERT_EQUAL(res.signal, SIGTERM);
    CU_ASSERT_EQUAL(t2, total);
    CU_ASSERT_TRUE(handler_is_own(SIGTERM));
    CU_ASSERT_EQUAL(own_handler_hits, 0);           /* the driver caught them */

    raise(SIGINT);                                  /* and now ours does */
    CU_ASSERT_EQUAL(own_handler_hits, 1);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
}

/* ---- paced mode and progress ------------------------------------------ */

static void count_cb(sim_t *sim, sim_event_t *ev)
{
    (*(int *)ev->data)++;
}

/* Events at 0, 50, 100 (three), 150 and 200 µs of simulated time. */
static sim_t *paced_sim(sim_event_t evs[7], int *count)
{
    static const sim_time_t us[7] = { 0, 50, 100, 100, 100, 150, 200 };
    sim_t *sim = sim_create();
    for (int i = 0; i < 7; i++) {
        sim_event_init(&evs[i], count_cb, count, 0, "paced");
        sim_schedule(sim, &evs[i], us[i] * 1000000);
    }
    return sim;
}

static void test_drive_paced_takes_scaled_time(void)
{
    sim_event_t evs[7];
    int count = 0;
    sim_t *sim = paced_sim(evs, &count);
    sim_drive_desc_t desc = quiet();
    desc.pace = 1000.0;                             /* 200 µs → 0.2 s */
    sim_drive_result_t res;
    sim_drive(sim, &desc, &res);
    CU_ASSERT_EQUAL(res.end, SIM_END_EMPTY);
    CU_ASSERT_EQUAL(count, 7);
    CU_ASSERT(res.wall_s >= 0.15 && res.wall_s < 5.0);
    sim_destroy(sim);

    count = 0;
    sim = paced_sim(evs, &count);
    desc.until = 120 * 1000000ull;
    sim_drive(sim, &desc, &res);
    CU_ASSERT_EQUAL(res.end, SIM_END_TIME_LIMIT);
    CU_ASSERT_EQUAL(count, 5);
    /* nothing happens between the last event (100 us) and the limit: time is at the limit */
    CU_ASSERT_EQUAL(sim_now(sim), 120 * 1000000ull);
    CU_ASSERT(res.wall_s >= 0.075 && res.wall_s < 5.0);
    sim_destroy(sim);
}

static void extra_text(void *user, char *buf, size_t size)
{
    snprintf(buf, size, "frames=%d", *(int *)user);
}

/* Drives the paced simulation with progress to `out`. */
static void drive_to(FILE *out, int progress, sim_time_t cycle_ps)
{
    sim_event_t evs[7];
    int count = 0, frames = 3;
    sim_t *sim = paced_sim(evs, &count);
    sim_drive_desc_t desc = {
        .pace = 500.0, .progress = progress, .progress_out = out, .cycle_ps = cycle_ps,
        .progress_period_s = 0.02, .progress_extra = extra_text, .progress_user = &frames,
    };
    sim_drive_result_t res;
    sim_drive(sim, &desc, &res);
    CU_ASSERT_EQUAL(res.end, SIM_END_EMPTY);
    fflush(out);
    sim_destroy(sim);
}

static char *drive_with_progress(int progress, sim_time_t cycle_ps)
{
    FILE *out = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    drive_to(out, progress, cycle_ps);
    long len = ftell(out);
    char *text = calloc(1, (size_t)len + 1);
    rewind(out);
    CU_ASSERT_EQUAL(fread(text, 1, (size_t)len, out), (size_t)len);
    fclose(out);
    return text;
}

static void test_drive_progress_line(void)
{
    char *text = drive_with_progress(1, 0);
    unsigned lines = 0;
    for (const char *p = text; (p = strstr(p, "progress: ")); p++)
        lines++;
    CU_ASSERT(lines >= 2);                          /* periodic ones and the last */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "frames=3"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "7 events"));  /* the final line */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "sim 200.000000 us"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "events/s"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "wall "));
    CU_ASSERT_PTR_NULL(strchr(text, '\r'));        /* not a terminal: whole lines */
    free(text);
    text = drive_with_progress(1, 1000);            /* in cycles of 1000 ps */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "progress: cycle 200000, frames=3, 7 events"));
    free(text);
    text = drive_with_progress(0, 0);               /* a file is not a terminal */
    CU_ASSERT_STRING_EQUAL(text, "");
    free(text);
    text = drive_with_progress(-1, 0);
    CU_ASSERT_STRING_EQUAL(text, "");
    free(text);
}

/* On a terminal (auto), one line is rewritten in place: every update starts
 * with a carriage return and erases the rest of the line; only the last
 * ends the line. */
static void test_drive_progress_in_place_on_a_terminal(void)
{
    int master, slave;
    CU_ASSERT_EQUAL_FATAL(openpty(&master, &slave, NULL, NULL, NULL), 0);
    struct termios t;
    tcgetattr(slave, &t);
    cfmakeraw(&t);                                  /* bytes as written, no \n -> \r\n */
    tcsetattr(slave, TCSANOW, &t);
    FILE *out = fdopen(slave, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    drive_to(out, 0, 1000);
    fclose(out);
    char text[8192];
    size_t len = 0;
    ssize_t n;
    fcntl(master, F_SETFL, O_NONBLOCK);
    while (len < sizeof text - 1 && (n = read(master, text + len, sizeof text - 1 - len)) > 0)
        len += (size_t)n;
    text[len] = 0;
    close(master);
    unsigned updates = 0, newlines = 0;
    for (const char *p = text; (p = strstr(p, "\rprogress: cycle ")); p++)
        updates++;
    for (const char *p = text; (p = strchr(p, '\n')); p++)
        newlines++;
    CU_ASSERT(updates >= 2);
    CU_ASSERT_EQUAL(newlines, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\033[K"));
    CU_ASSERT(len > 0 && text[len - 1] == '\n');
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\rprogress: cycle 200000, frames=3, 7 events"));
}

static const test_case_t cases[] = {
    TEST(test_drive_until_empty),
    TEST(test_drive_time_limit),
    TEST(test_drive_stop_by_component),
    TEST(test_drive_wall_limit),
    TEST(test_drive_signal_stops_between_events),
    TEST(test_drive_paced_takes_scaled_time),
    TEST(test_drive_progress_line),
    TEST(test_drive_progress_in_place_on_a_terminal),
    TEST_END
};

static const test_suite_t suites[] = { { "driver", cases }, { NULL, NULL } };

int main(void)
{
    return test_run_suites(suites);
}

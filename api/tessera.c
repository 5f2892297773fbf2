/* tessera.c — the run API (tessera.h): configuration, program, recorder,
 * machine and driver of one run, and the verdict. The one place where a
 * run's lifecycle is written: open the database, begin the run, build the
 * GPU, simulate, close, judge, record.
 * Invariant: everything that can be rejected is checked before the first
 * event; once simulated, a run's outcome is committed whatever it was. */
#include "api/tessera.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/recorder/rec.h"
#include "analysis/store/db.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "events/driver.h"
#include "model/asm.h"
#include "model/gpu.h"
#include "model/program.h"

typedef enum phase {
    PHASE_NEW = 0,            /* configuring and loading */
    PHASE_RUNNING,            /* tessera_run has begun */
    PHASE_DONE,               /* simulated (a verdict exists) */
} phase_t;

struct tessera {
    cfg_t cfg;
    program_t *prog;          /* the program buffer (allocated on first load) */
    bool loaded;              /* prog holds a program (the last load succeeded) */
    char *db_path;            /* NULL: record nothing */
    sim_t *sim;
    gpu_t *gpu;
    rec_t *rec;
    race_det_t *races;        /* the detector the cores feed, or NULL */
    ivl_t intervals, window;  /* record.interval and the record.from_ps/to_ps window */
    bool has_intervals, has_window;
    bool detect_races;        /* tessera_detect_races was called */
    itrace_fn itrace;         /* tessera_itrace, or NULL */
    void *itrace_user;
    int64_t run_id;
    phase_t phase;
    atomic_int stop;          /* tessera_stop: stop between two events */
    bool *named;              /* per key: a tessera_set or -s named it (cfg_warn_inert) */
    uint64_t db_base;         /* the database's size when the run began recording */
    uint64_t db_seen;         /* what the run had added when record.max_mb stopped it */
    diag_t diag;              /* the last failure */
    const char *status;       /* runs.status once simulated */
    char outcome[512];        /* runs.error, or "" */
    sim_drive_result_t drive;
};

tessera_t *tessera_new(void)
{
    tessera_t *t = tess_calloc(1, sizeof *t);
    if (!t)
        return NULL;
    cfg_default(&t->cfg);
    t->diag.warn = diag_warn_stderr;
    t->status = "";
    atomic_init(&t->stop, 0);
    return t;
}

void tessera_free(tessera_t *t)
{
    if (!t)
        return;
    if (t->sim)
        sim_set_hook(t->sim, NULL, NULL); /* the recorder goes first */
    if (t->gpu)
        gpu_set_access_sink(t->gpu, NULL);
    rec_close(t->rec);
    gpu_destroy(t->gpu);
    race_destroy(t->races);
    tess_free(t->named);
    ivl_free(&t->intervals);
    ivl_free(&t->window);
    sim_destroy(t->sim);
    tess_free(t->prog);
    tess_free(t->db_path);
    tess_free(t);
}

/* Starts a call: clears the last failure; refuses once the run has begun. */
static int enter(tessera_t *t, const char *what)
{
    diag_reset(&t->diag);
    if (t->phase != PHASE_NEW)
        return diag_fail(&t->diag, TESS_EUSAGE, "%s: the run has already started", what);
    return TESS_OK;
}

/* --- configuration ---------------------------------------------------------------- */

int tessera_config_file(tessera_t *t, const char *path)
{
    int rc = enter(t, "tessera_config_file");
    return rc != TESS_OK ? rc : cfg_load_file(&t->cfg, path, &t->diag);
}

/* Key `assignment` names ("sm.bank" of " sm.bank = 2") is one the user set:
 * warned about when it has no effect on the run (cfg_warn_inert). */
static void note_named(tessera_t *t, const char *assignment)
{
    size_t i = cfg_assignment_key(assignment);
    if (i == SIZE_MAX)
        return;
    if (!t->named)
        t->named = tess_calloc(cfg_key_count(), sizeof *t->named);
    if (t->named) /* out of memory: the warning rests on the value alone */
        t->named[i] = true;
}

int tessera_set(tessera_t *t, const char *assignment)
{
    int rc = enter(t, "tessera_set");
    rc = rc != TESS_OK ? rc : cfg_set(&t->cfg, assignment, &t->diag);
    if (rc == TESS_OK)
        note_named(t, assignment);
    return rc;
}

int tessera_configure(tessera_t *t, const cfg_t *cfg)
{
    int rc = enter(t, "tessera_configure");
    if (rc == TESS_OK)
        t->cfg = *cfg;
    return rc;
}

int tessera_config_cli(tessera_t *t, const char *path, char *const *sets, int n)
{
    int rc = enter(t, "tessera_config_cli");
    rc = rc != TESS_OK ? rc : cfg_apply_cli(&t->cfg, path, sets, n, &t->diag);
    for (int i = 0; i < n && rc == TESS_OK; i++)
        note_named(t, sets[i]);
    return rc;
}

const cfg_t *tessera_config(const tessera_t *t) { return &t->cfg; }

int tessera_set_policy(tessera_t *t, const char *key, const tessera_policy_t *policy,
                       const char *label)
{
    int rc = enter(t, "tessera_set_policy");
    return rc != TESS_OK ? rc : cfg_set_policy(&t->cfg, key, policy, label, &t->diag);
}

/* --- program ---------------------------------------------------------------------- */

/* The program buffer, allocated on first use. */
static program_t *program_of(tessera_t *t)
{
    if (!t->prog && !(t->prog = tess_malloc(sizeof *t->prog)))
        diag_fail(&t->diag, TESS_ENOMEM, "out of memory");
    return t->prog;
}

int tessera_load(tessera_t *t, const char *path, const char *mem_path)
{
    int rc = enter(t, "tessera_load");
    if (rc == TESS_OK && !program_of(t))
        return TESS_ENOMEM;
    if (rc == TESS_OK)
        rc = program_load(t->prog, path, mem_path, &t->diag);
    t->loaded = rc == TESS_OK;
    return rc;
}

int tessera_load_source(tessera_t *t, const char *source, const char *name)
{
    int rc = enter(t, "tessera_load_source");
    if (rc != TESS_OK)
        return rc;
    asm_output_t *out = tess_malloc(sizeof *out);
    if (!out || !program_of(t)) {
        tess_free(out);
        return diag_fail(&t->diag, TESS_ENOMEM, "out of memory");
    }
    rc = asm_assemble(out, source, strlen(source), name, &t->diag);
    if (rc == TESS_OK) {
        memset(t->prog, 0, sizeof *t->prog);
        t->prog->tm = out->prog;
        memcpy(t->prog->sm, out->sm, sizeof t->prog->sm);
        tm_encode(&t->prog->tm, t->prog->image);
        snprintf(t->prog->path, sizeof t->prog->path, "%s", name);
    }
    t->loaded = rc == TESS_OK;
    tess_free(out);
    return rc;
}

/* --- recording ---------------------------------------------------------------------- */

int tessera_record(tessera_t *t, const char *db_path)
{
    int rc = enter(t, "tessera_record");
    if (rc == TESS_OK && db_path)
        rc = db_check_name(db_path, "the database", &t->diag);
    if (rc != TESS_OK)
        return rc;
    tess_free(t->db_path);
    t->db_path = db_path ? tess_strdup(db_path) : NULL;
    return db_path && !t->db_path ? diag_fail(&t->diag, TESS_ENOMEM, "out of memory") : TESS_OK;
}

int tessera_detect_races(tessera_t *t)
{
    int rc = enter(t, "tessera_detect_races");
    if (rc == TESS_OK)
        t->detect_races = true;
    return rc;
}

race_det_t *tessera_races(const tessera_t *t) { return t->races; }

int tessera_itrace(tessera_t *t, itrace_fn fn, void *user)
{
    int rc = enter(t, "tessera_itrace");
    if (rc == TESS_OK)
        t->itrace = fn, t->itrace_user = user;
    return rc;
}

/* The parameters of the run (every key with its value), for runs/params. */
typedef struct params {
    char **keys, **values;
    size_t n;
    bool lost;                /* a copy failed (out of memory) */
} params_t;

static void collect_param(void *user, const char *key, const char *value)
{
    params_t *p = user;
    p->keys[p->n] = tess_strdup(key);
    p->values[p->n] = tess_strdup(value);
    p->lost |= !p->keys[p->n] || !p->values[p->n];
    p->n++;
}

static void free_params(params_t *p)
{
    for (size_t i = 0; i < p->n; i++)
        tess_free(p->keys[i]), tess_free(p->values[i]);
    tess_free(p->keys);
    tess_free(p->values);
}

/* The database's size in bytes: the file and its write-ahead log (0 without one). */
static uint64_t db_bytes(const tessera_t *t)
{
    struct stat st;
    uint64_t n = 0;
    char wal[4096];
    if (!t->db_path)
        return 0;
    if (stat(t->db_path, &st) == 0)
        n += (uint64_t)st.st_size;
    if ((size_t)snprintf(wal, sizeof wal, "%s-wal", t->db_path) < sizeof wal &&
        stat(wal, &st) == 0)
        n += (uint64_t)st.st_size;
    return n;
}

static int begin_recording(tessera_t *t)
{
    rec_opts_t ro = {t->cfg.record.level, t->cfg.record.from_ps, t->cfg.record.to_ps};
    t->db_base = db_bytes(t); /* record.max_mb counts what this run adds */
    if (!(t->rec = rec_open(t->db_path, &ro, &t->diag)))
        return t->diag.code;
    params_t p = {0};
    size_t n = cfg_param_count(&t->cfg);
    p.keys = tess_calloc(n, sizeof *p.keys);
    p.values = tess_calloc(n, sizeof *p.values);
    char *config = cfg_format(&t->cfg);
    if (p.keys && p.values && config)
        cfg_foreach(&t->cfg, collect_param, &p);
    int rc = TESS_OK;
    if (!p.keys || !p.values || !config || p.lost) {
        rc = diag_fail(&t->diag, TESS_ENOMEM, "out of memory");
    } else {
        rec_run_info_t info = {
            .program = t->prog->path,
            .tm_image = t->prog->image,
            .sm_image = t->prog->sm,
            .config = config,
            .param_keys = (const char *const *)p.keys,
            .param_values = (const char *const *)p.values,
            .n_params = p.n,
            .period_ps = t->cfg.gpu.period_ps,
            .banks = t->cfg.gpu.banks,
        };
        rc = rec_begin_run(t->rec, &info, &t->run_id, &t->diag);
    }
    tess_free(config);
    free_params(&p);
    if (rc == TESS_OK) {
        gpu_set_trace(t->gpu, rec_attach(t->rec, t->sim));
        gpu_set_access_sink(t->gpu, rec_access_sink(t->rec));
    }
    return rc;
}

/* --- running -------------------------------------------------------------------------- */

/* record.interval and the recording window: interval statistics, recorded
 * only (nothing to do without a database). */
static int set_intervals(tessera_t *t)
{
    const cfg_t *c = &t->cfg;
    if (!t->db_path)
        return TESS_OK;
    t->has_intervals = c->record.interval > 0;
    t->has_window = c->record.from_ps > 0 || c->record.to_ps > 0;
    /* a length past the end of simulated time is one interval to the end */
    if (t->has_intervals)
        ivl_init_intervals(&t->intervals, c->record.interval > SIM_TIME_END / c->gpu.period_ps
                                              ? SIM_TIME_END
                                              : c->record.interval * c->gpu.period_ps);
    if (t->has_window)
        ivl_init_window(&t->window, c->record.from_ps, c->record.to_ps);
    gpu_set_intervals(t->gpu, t->has_intervals ? &t->intervals : NULL,
                      t->has_window ? &t->window : NULL);
    return TESS_OK;
}

/* The machine and the recorded run: the last checks before the first event. */
static int prepare(tessera_t *t)
{
    if (!t->loaded)
        return diag_fail(&t->diag, TESS_EUSAGE, "tessera_run: no program loaded");
    int rc = cfg_check(&t->cfg, &t->diag);
    if (rc != TESS_OK)
        return rc;
    cfg_warn_inert(&t->cfg, t->named, &t->diag); /* once: a run is prepared once */
    if (!(t->sim = sim_create()))
        return diag_fail(&t->diag, TESS_ENOMEM, "out of memory");
    if (!(t->gpu = gpu_create(t->sim, &t->cfg.gpu, t->prog, &t->diag)))
        return t->diag.code;
    if (t->detect_races) {
        if (!(t->races = race_create(&t->prog->tm)))
            return diag_fail(&t->diag, TESS_ENOMEM, "out of memory");
        gpu_set_races(t->gpu, t->races);
    }
    if (t->itrace)
        gpu_set_itrace(t->gpu, t->itrace, t->itrace_user);
    if ((rc = set_intervals(t)) != TESS_OK)
        return rc;
    return t->db_path ? begin_recording(t) : TESS_OK;
}

/* record.max_mb: what this run added to the database passed the limit (the
 * driver stops the run). A file that other runs made large stops nothing. */
static bool over_limit(void *user)
{
    tessera_t *t = user;
    uint64_t n = db_bytes(t);
    n = n > t->db_base ? n - t->db_base : 0;
    if (n >= t->cfg.record.max_mb << 20) {
        t->db_seen = n;
        return true;
    }
    return false;
}

static void progress_extra(void *user, char *buf, size_t size)
{
    const tessera_t *t = user;
    gpu_stats_t st;
    gpu_stats(t->gpu, &st);
    int w = snprintf(buf, size, "frames %llu of %u done, instructions %llu",
                     (unsigned long long)st.frames, t->prog->tm.n_frames,
                     (unsigned long long)st.instructions);
    uint64_t n = t->db_path ? db_bytes(t) : 0, run = n > t->db_base ? n - t->db_base : 0;
    if (t->db_path && w > 0 && (size_t)w < size && t->cfg.record.max_mb)
        snprintf(buf + w, size - (size_t)w, ", database %.1f MiB (this run %.1f of record.max_mb "
                 "= %llu)", (double)n / (1 << 20), (double)run / (1 << 20),
                 (unsigned long long)t->cfg.record.max_mb);
    else if (t->db_path && w > 0 && (size_t)w < size)
        snprintf(buf + w, size - (size_t)w, ", database %.1f MiB", (double)n / (1 << 20));
}

/* "summary, tasks" — the levels below the run's, cheaper to record. */
static void cheaper_levels(const tessera_t *t, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (unsigned l = 0; l < t->cfg.record.level && at < size; l++) {
        int w = snprintf(buf + at, size - at, "%s%s", l ? ", " : "", cfg_rec_level_names[l]);
        at += w > 0 ? (size_t)w : 0;
    }
}

/* The text of runs.status (analysis/store/db.h's list). */
#define STATUS(id) db_status_names[DB_STATUS_##id]

/* How the run ended: runs.status, runs.error and the exit code. */
static int judge(tessera_t *t)
{
    const sim_drive_result_t *r = &t->drive;
    gpu_outcome_t o = gpu_outcome(t->gpu);
    int code = TESS_EINTERRUPTED;
    char *msg = t->outcome;
    size_t size = sizeof t->outcome;
    t->status = STATUS(INTERRUPTED);
    msg[0] = 0;
    if (o == GPU_POLICY_ERROR) {
        t->status = STATUS(ERROR), code = TESS_EINPUT;
        snprintf(msg, size, "%s", gpu_errmsg(t->gpu));
    } else if (o == GPU_WATCHDOG) {
        t->status = STATUS(WATCHDOG), code = TESS_EWATCHDOG;
        snprintf(msg, size, "%s", gpu_errmsg(t->gpu));
    } else if (r->end == SIM_END_ERROR) {
        t->status = STATUS(ERROR), code = TESS_ENOMEM;
        snprintf(msg, size, "%s%s", sim_errmsg(t->sim), gpu_errmsg(t->gpu));
    } else if (r->end == SIM_END_TIME_OVERFLOW) {
        t->status = STATUS(TIME_OVERFLOW);
        snprintf(msg, size, "%s: the run stops here rather than wrap (docs/SPEC.md, "
                 "\"The end of simulated time\")", sim_errmsg(t->sim));
    } else if (o == GPU_DONE) {
        t->status = STATUS(OK), code = TESS_OK;
    } else if (r->end == SIM_END_INTERRUPTED && r->signal) {
        snprintf(msg, size, "interrupted by signal %d", r->signal);
    } else if (r->end == SIM_END_INTERRUPTED) {
        snprintf(msg, size, "stopped on request (tessera_stop)");
    } else if (r->end == SIM_END_HOST_LIMIT) {
        char levels[128];
        cheaper_levels(t, levels, sizeof levels);
        t->status = STATUS(RECORD_LIMIT);
        snprintf(msg, size, "the run wrote %.1f MiB to the database, over record.max_mb = %llu "
                 "MiB: it stopped and what it recorded is kept. Record less, with a cheaper "
                 "record.level (%s; this run's: %s) or a window (record.from_ps, record.to_ps), "
                 "or raise record.max_mb (0 = no limit)",
                 (double)t->db_seen / (1 << 20), (unsigned long long)t->cfg.record.max_mb,
                 levels[0] ? levels : "none", cfg_rec_level_names[t->cfg.record.level]);
    } else if (r->end == SIM_END_WALL_LIMIT) {
        t->status = STATUS(WALL_LIMIT);
        snprintf(msg, size, "wall-clock limit of %g s reached (sim.wall_limit)",
                 t->cfg.sim.wall_limit_s);
    } else if (r->end == SIM_END_TIME_LIMIT) {
        t->status = STATUS(TIME_LIMIT);
        snprintf(msg, size, "simulated-time limit of %llu cycles reached (sim.time_limit)",
                 (unsigned long long)t->cfg.sim.time_limit);
    } else if (o == GPU_STUCK) {
        t->status = STATUS(DEADLOCK), code = TESS_EDEADLOCK;
        snprintf(msg, size, "%s", gpu_errmsg(t->gpu));
    }
    return code;
}

/* An asynchronous stop takes effect where no component has run past. */
static sim_time_t stop_point(void *user)
{
    tessera_t *t = user;
    return gpu_stop_point(t->gpu);
}

/* Drives the simulation (not at all when a stop came before the first event). */
static int simulate(tessera_t *t, unsigned flags)
{
    sim_drive_desc_t dd = {
        .until = t->cfg.sim.time_limit * t->cfg.gpu.period_ps,
        .wall_limit_s = t->cfg.sim.wall_limit_s,
        .pace = t->cfg.sim.pace,
        .progress = flags & TESSERA_PROGRESS ? 1 : t->cfg.sim.progress,
        .cycle_ps = t->cfg.gpu.period_ps,
        .catch_signals = (flags & TESSERA_SIGNALS) != 0,
        .stop = &t->stop,
        .stop_point = stop_point,
        .stop_user = t,
        .progress_extra = progress_extra,
        .over_limit = t->db_path && t->cfg.record.max_mb ? over_limit : NULL,
        .limit_user = t,
        .progress_user = t,
    };
    if (dd.until)
        gpu_set_horizon(t->gpu, dd.until); /* nothing after the limit runs, in either mode */
    gpu_start(t->gpu);
    if (atomic_load(&t->stop))
        t->drive.end = SIM_END_INTERRUPTED;
    else if (sim_drive(t->sim, &dd, &t->drive) != TESS_OK)
        return diag_fail(&t->diag, TESS_ENOMEM, "cannot start the event loop");
    int asked = atomic_load(&t->stop);
    if (t->drive.end == SIM_END_INTERRUPTED && !t->drive.signal && asked > 0)
        t->drive.signal = asked;
    gpu_finish(t->gpu);
    return TESS_OK;
}

/* Where the run stopped: its last READY when it finished, else the simulated
 * time it reached (the limit itself for sim.time_limit: the driver advances
 * time to it). */
static sim_time_t stop_time(const tessera_t *t, const gpu_stats_t *st)
{
    return strcmp(t->status, STATUS(OK)) == 0 ? st->end_ps : st->now_ps;
}

int tessera_run(tessera_t *t, unsigned flags)
{
    int rc = enter(t, "tessera_run");
    if (rc != TESS_OK)
        return rc;
    t->phase = PHASE_RUNNING;
    if ((rc = prepare(t)) != TESS_OK || (rc = simulate(t, flags)) != TESS_OK)
        return rc;
    t->phase = PHASE_DONE;
    int code = judge(t);
    gpu_stats_t st;
    gpu_stats(t->gpu, &st);
    if (t->has_intervals)
        ivl_reach(&t->intervals, stop_time(t, &st));
    if (t->has_intervals && t->intervals.coarsened)
        diag_warn(&t->diag, "record.interval: the run outlasted %d intervals of %llu cycles: "
                  "they were merged pairwise into intervals of %llu cycles (the sums are exact; "
                  "docs/SCHEMA.md, intervals)", IVL_MAX_INTERVALS,
                  (unsigned long long)(t->intervals.asked / t->cfg.gpu.period_ps),
                  (unsigned long long)(t->intervals.len / t->cfg.gpu.period_ps));
    /* runs.end_ps: the last READY; NULL when none arrived (a READY needs >= 1 cycle) */
    rec_run_end_t end = {.status = t->status, .error = t->outcome[0] ? t->outcome : NULL,
                         .end_ps = st.end_ps ? st.end_ps : SIM_TIME_NEVER,
                         .stop_ps = stop_time(t, &st), .races = t->races,
                         .intervals = t->has_intervals ? &t->intervals : NULL,
                         .window = t->has_window ? &t->window : NULL,
                         .events = t->drive.events, .wall_s = t->drive.wall_s};
    rc = t->rec ? rec_end_run(t->rec, &end, &t->diag) : TESS_OK;
    if (rc != TESS_OK && code == TESS_OK) {
        /* the recorder stored it as 'error' (rec_end_run): so is it reported */
        t->status = STATUS(ERROR);
        snprintf(t->outcome, sizeof t->outcome, "recording incomplete: %.280s", t->diag.msg);
    }
    return code != TESS_OK ? code : rc;
}

void tessera_stop(tessera_t *t, int signal) { atomic_store(&t->stop, signal > 0 ? signal : -1); }

/* --- results ---------------------------------------------------------------------------- */

const char *tessera_status(const tessera_t *t) { return t->status; }
const char *tessera_outcome_msg(const tessera_t *t) { return t->outcome; }
const char *tessera_errmsg(const tessera_t *t) { return t->diag.code ? t->diag.msg : ""; }

int tessera_counters(const tessera_t *t, tessera_counters_t *out)
{
    memset(out, 0, sizeof *out);
    out->period_ps = t->cfg.gpu.period_ps;
    if (!t->gpu)
        return TESS_OK;
    gpu_stats_t st;
    gpu_stats(t->gpu, &st);
    out->end_ps = st.end_ps;
    out->now_ps = st.now_ps;
    out->stop_ps = t->status[0] ? stop_time(t, &st) : st.now_ps;
    out->frames = st.frames;
    out->tasks = st.tasks;
    out->core_tasks = st.core_tasks;
    out->instructions = st.instructions;
    out->sm_accesses = st.sm_accesses;
    out->sm_conflicts = st.sm_conflicts;
    out->sm_conflict_ps = st.sm_conflict_ps;
    out->events = t->drive.events;
    out->wall_s = t->drive.wall_s;
    out->run_id = t->rec ? t->run_id : 0;
    return TESS_OK;
}

int tessera_state(const tessera_t *t, arch_state_t *out)
{
    if (!t->gpu)
        return TESS_EUSAGE;
    gpu_arch_state(t->gpu, out);
    return TESS_OK;
}

/* gpu.c — the top level of the timed model: builds the machine from a
 * program and a description, wires its components, and reports the outcome,
 * the statistics and the final architectural state (see gpu.h). */
#include "model/gpu.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/core.h"
#include "model/engine.h"
#include "model/gpu_impl.h"
#include "model/gpu_keys.h"
#include "model/policy.h"
#include "model/simt/simt.h"
#include "model/sm.h"
#include "model/ts.h"

/* The machine: what every block shares (struct gpu, first, so that a gpu_t
 * is the machine to this file) and the blocks, by value (chips-style),
 * which only this file sees: it builds them and wires them to each other. */
typedef struct machine {
    struct gpu g;
    sim_event_t stop_ev;      /* the watchdog's stop, after everything of its picosecond */
    engine_t engine;          /* what runs the tasks (the cores, or the SIMT unit) */
    ts_t ts;
    sm_t sm;
    core_t cores[GPU_CORES];  /* reached only through `engine` and the wiring */
    struct simt *simt;        /* core.model = simt: the engine issuing for the lanes; else NULL */
    policy_run_t policy[GPU_POINT_COUNT]; /* the plugins' runs (impl NULL: built in) */
} machine_t;

/* The machine of `g` (every gpu_t is one: gpu_create makes them). */
#define M(g) ((machine_t *)(g))

const char *const gpu_policy_names[] = {GPU_POLICIES(XENUM_NAME)[GPU_POLICY_COUNT] = NULL};
const char *const gpu_arbiter_names[] = {GPU_ARBITERS(XENUM_NAME)[GPU_ARB_COUNT] = NULL};
const char *const gpu_bank_map_names[] = {GPU_BANK_MAPS(XENUM_NAME)[GPU_MAP_COUNT] = NULL};
const char *const gpu_timing_names[] = {GPU_TIMINGS(XENUM_NAME)[GPU_TIMING_COUNT] = NULL};
const char *const gpu_model_names[] = {GPU_MODELS(XENUM_NAME)[GPU_MODEL_COUNT] = NULL};
const char *const gpu_reconv_names[] = {GPU_RECONVS(XENUM_NAME)[GPU_RECONV_COUNT] = NULL};

/* The index of `name` among the NULL-terminated `names` (a default of
 * gpu_keys.h: always there, which test_config checks through the
 * configuration's table). */
static uint8_t name_index(const char *const *names, const char *name)
{
    uint8_t i = 0;
    while (names[i] && strcmp(names[i], name))
        i++;
    return i;
}

#define GPU_BOOL_off false
#define GPU_BOOL_on true
/* the literals of gpu_keys.h that stand for a named constant */
_Static_assert(67108864 == ARCH_DEFAULT_BUDGET, "core.budget's default is D12's");

void gpu_desc_default(gpu_desc_t *d)
{
    memset(d, 0, sizeof *d);
#define DEF_NUMBER(f, sec, nm, def, lo, hi) d->f = def;
#define DEF_LATENCY(f, sec, nm, def, lo) d->f = lat_fixed(def);
#define DEF_ENUM(f, sec, nm, names, def) d->f = name_index(names, #def);
#define DEF_BOOL(f, sec, nm, def) d->f = GPU_BOOL_##def;
    GPU_KEYS(DEF_NUMBER, DEF_LATENCY, DEF_ENUM, DEF_BOOL)
#undef DEF_NUMBER
#undef DEF_LATENCY
#undef DEF_ENUM
#undef DEF_BOOL
    d->simt_pipeline = false;
}

static int check_min(const lat_t *l, uint32_t min, const char *key, diag_t *diag)
{
    if (lat_min(l) < min)
        return diag_fail(diag, TESS_EINPUT, "%s: the latency can be %u cycles, below the minimum %u",
                         key, lat_min(l), min);
    return TESS_OK;
}

static int check_range(uint64_t v, uint64_t lo, uint64_t hi, const char *key, diag_t *diag)
{
    if (v < lo || v > hi)
        return diag_fail(diag, TESS_EINPUT, "%s: %llu is not in %llu..%llu", key,
                         (unsigned long long)v, (unsigned long long)lo, (unsigned long long)hi);
    return TESS_OK;
}

/* An enumerated field is one of `names` ("core.model: 5 is not one of mimd,
 * simt (0..1)"). */
static int check_enum(unsigned v, const char *const *names, const char *key, diag_t *diag)
{
    unsigned n = 0;
    while (names[n])
        n++;
    if (v < n)
        return TESS_OK;
    char list[256];
    size_t at = 0;
    list[0] = 0;
    for (unsigned i = 0; i < n && at < sizeof list; i++) {
        int w = snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", names[i]);
        at += w > 0 ? (size_t)w : 0;
    }
    return diag_fail(diag, TESS_EINPUT, "%s: %u is not one of %s (0..%u)", key, v, list, n - 1);
}

/* S14: barrier mode's limit, with core.model = simt: S11's front end
 * follows one path, so the I-buffer is refused (the operand collector and
 * narrow units apply per group: groups.c). */
static int simt_barrier_check(const gpu_desc_t *d, diag_t *diag)
{
    if (d->simt_ibuffer)
        return diag_fail(diag, TESS_EINPUT,
                         "simt.reconvergence = barrier cannot be combined with simt.ibuffer = %u: "
                         "S11's front end follows one path (S14); set simt.ibuffer = 0 or "
                         "simt.reconvergence = stack",
                         d->simt_ibuffer);
    return TESS_OK;
}

int gpu_desc_check(const gpu_desc_t *d, diag_t *diag)
{
    /* every key's bounds from gpu_keys.h (T6: a core-local class takes at
       least a cycle, T7: a grant holds its bank at least one) */
#define CHECK_NUMBER(f, sec, nm, def, lo, hi)                                               \
    if (check_range(d->f, lo, hi, sec "." nm, diag))                                          \
        return TESS_EINPUT;
#define CHECK_LATENCY(f, sec, nm, def, lo)                                                  \
    if (check_min(&d->f, lo, sec "." nm, diag))                                              \
        return TESS_EINPUT;
#define CHECK_ENUM(f, sec, nm, names, def)                                                  \
    if (check_enum(d->f, names, sec "." nm, diag))                                           \
        return TESS_EINPUT;
#define CHECK_BOOL(f, sec, nm, def)
    GPU_KEYS(CHECK_NUMBER, CHECK_LATENCY, CHECK_ENUM, CHECK_BOOL)
#undef CHECK_NUMBER
#undef CHECK_LATENCY
#undef CHECK_ENUM
#undef CHECK_BOOL
    if (d->banks & (d->banks - 1))
        return diag_fail(diag, TESS_EINPUT, "sm.banks: %u is not a power of two in 1..%u",
                         d->banks, SM_BANKS_MAX);
    if (d->model == GPU_MODEL_SIMT && d->simt_reconvergence == GPU_RECONV_BARRIER)
        return simt_barrier_check(d, diag);
    return TESS_OK;
}

/* Connects the components (chips-style: they meet at ports, the machine
 * wires them): the TS starts tasks on the engine (the cores, or the SIMT
 * unit whose lanes they are: SIMT-SPEC S1) and collects their READY; each
 * core or lane requests from the SM, which answers it by its id. */
/* The SM's answers to each requester id: the one place that attaches them,
 * to the SIMT unit (every lane) or to each core, through the receiver the
 * block gives for what is observed now (interval statistics, the instruction
 * trace). wire() calls it, and so do gpu_set_itrace and gpu_set_intervals,
 * which change that. */
static void wire_answers(gpu_t *g)
{
    for (unsigned c = 0; c < GPU_CORES; c++) {
        if (M(g)->simt)
            sm_attach(&M(g)->sm, c, simt_answer_receiver(M(g)->simt), M(g)->simt);
        else
            sm_attach(&M(g)->sm, c, core_answer_receiver(&M(g)->cores[c]), &M(g)->cores[c]);
    }
}

static void wire(gpu_t *g)
{
    cores_engine(&M(g)->engine, M(g)->cores);
    if (M(g)->simt)
        simt_engine(&M(g)->engine, M(g)->simt);
    ts_attach(&M(g)->ts, &M(g)->engine);
    if (M(g)->simt)
        simt_wire(M(g)->simt, sm_on_request, &M(g)->sm, &M(g)->sm);
    for (unsigned c = 0; c < GPU_CORES; c++)
        core_wire(&M(g)->cores[c], ts_on_ready, &M(g)->ts, sm_on_request, &M(g)->sm);
    wire_answers(g);
}

static void stop_cb(sim_t *sim, sim_event_t *ev);

gpu_t *gpu_create(sim_t *sim, const gpu_desc_t *desc, const program_t *prog, diag_t *diag)
{
    if (gpu_desc_check(desc, diag) != TESS_OK)
        return NULL;
    gpu_t *g = tess_calloc(1, sizeof(machine_t));
    if (!g) {
        diag_fail(diag, TESS_ENOMEM, "out of memory creating the GPU model");
        return NULL;
    }
    g->sim = sim;
    g->desc = *desc;
    g->prog = *prog;
    g->horizon = g->stop_at = g->watch_at = SIM_TIME_NEVER;
    sim_event_init(&M(g)->stop_ev, stop_cb, g, GPU_PRIO_STOP, "gpu.stop");
    if (txn_pool_init(&g->pool, sim, 4 * GPU_CORES) != TESS_OK ||
        sim_reserve(sim, 8 * GPU_CORES) != TESS_OK) {
        diag_fail(diag, TESS_ENOMEM, "out of memory creating the GPU model");
        gpu_destroy(g);
        return NULL;
    }
    for (unsigned p = 0; p < GPU_POINT_COUNT; p++) {
        if (policy_open(&M(g)->policy[p], g, &g->desc.policies, p, diag) != TESS_OK) {
            gpu_destroy(g);
            return NULL;
        }
    }
    ts_init(&M(g)->ts, g, &g->prog.tm);
    sm_init(&M(g)->sm, g, g->prog.sm, &M(g)->policy[GPU_POINT_ARBITER],
            &M(g)->policy[GPU_POINT_BANK_MAP]);
    for (unsigned c = 0; c < GPU_CORES; c++) {
        if (core_init(&M(g)->cores[c], g, c) != TESS_OK) {
            diag_fail(diag, TESS_ENOMEM, "out of memory creating the GPU model");
            gpu_destroy(g);
            return NULL;
        }
    }
    if (desc->model == GPU_MODEL_SIMT && !(M(g)->simt = simt_create(g, M(g)->cores, &M(g)->policy[GPU_POINT_SCHEDULER]))) {
        diag_fail(diag, TESS_ENOMEM, "out of memory creating the GPU model");
        gpu_destroy(g);
        return NULL;
    }
    wire(g);
    return g;
}

void gpu_destroy(gpu_t *g)
{
    if (!g)
        return;
    simt_destroy(M(g)->simt);
    for (unsigned p = 0; p < GPU_POINT_COUNT; p++)
        policy_close(&M(g)->policy[p]);
    txn_pool_fini(&g->pool);
    tess_free(g);
}

/* The SM looks at each grant only when someone wants it. */
static void sm_observed(gpu_t *g)
{
    sm_set_observed(&M(g)->sm, (g->trace & GPU_TRACE_ACCESSES) || g->ivl[0] || g->ivl[1]);
}

void gpu_set_trace(gpu_t *g, unsigned mask)
{
    g->trace = mask;
    for (unsigned c = 0; c < GPU_CORES; c++)
        core_set_profiled(&M(g)->cores[c], (mask & GPU_TRACE_SLOTS) && !M(g)->simt);
    sm_observed(g);
}

void gpu_set_access_sink(gpu_t *g, gpu_access_sink_t *sink) { g->access_sink = sink; }

void gpu_set_itrace(gpu_t *g, itrace_fn fn, void *user)
{
    engine_itrace(&M(g)->engine, fn, user);
    wire_answers(g); /* a traced core answers through its traced receiver */
}
void gpu_set_races(gpu_t *g, race_det_t *r) { g->races = r; }

void gpu_set_intervals(gpu_t *g, ivl_t *intervals, ivl_t *window)
{
    g->ivl[0] = intervals, g->ivl[1] = window;
    for (int i = 0; i < 2; i++)
        if (g->ivl[i])
            ivl_set_units(g->ivl[i], g->desc.banks ? g->desc.banks : SM_BANKS, M(g)->simt != NULL,
                          M(g)->simt && g->desc.simt_reconvergence == GPU_RECONV_BARRIER);
    for (unsigned c = 0; c < GPU_CORES; c++)
        core_set_intervals(&M(g)->cores[c], intervals || window);
    if (M(g)->simt)
        simt_set_intervals(M(g)->simt, intervals || window);
    wire_answers(g);
    sm_observed(g);
}

/* A task still running at the stop is busy up to it (as its counter says). */
static void ivl_running(gpu_t *g)
{
    if (!g->ivl[0] && !g->ivl[1])
        return;
    for (unsigned c = 0; c < GPU_CORES; c++)
        core_ivl_running(&M(g)->cores[c]);
}

void gpu_start(gpu_t *g) { ts_start(&M(g)->ts); }

/* horizon = min(stop_at, watch_at); the components are bounded once it is
 * finite (and stay so). */
static void set_horizon(gpu_t *g)
{
    g->horizon = g->stop_at < g->watch_at ? g->stop_at : g->watch_at;
    if (g->horizon == SIM_TIME_NEVER || g->bounded)
        return;
    g->bounded = true;
    sm_bound(&M(g)->sm);
    engine_bound(&M(g)->engine);
}

void gpu_bound_answers(gpu_t *g) { sm_bound(&M(g)->sm); }

void gpu_set_horizon(gpu_t *g, sim_time_t horizon)
{
    if (horizon < g->stop_at) {
        g->stop_at = horizon;
        set_horizon(g);
    }
}

/* The earliest instant a watchdog could fire: every instruction takes at
 * least a cycle before the next starts (T6; a ld/st's bank at least one,
 * gpu_desc_check), a running task's next one starts at run.t or, waiting on
 * its answer (an event at t_done while bounded), at now or later, and a
 * task that starts later starts at now or later. */
static sim_time_t watchdog_bound(const gpu_t *g)
{
    sim_time_t now = sim_now(g->sim);
    sim_time_t at = gpu_sat_add(now, gpu_sat_mul(g->desc.budget, g->desc.period_ps));
    for (unsigned c = 0; c < GPU_CORES; c++) {
        sim_time_t w = core_watchdog_bound(&M(g)->cores[c], now);
        at = w < at ? w : at;
    }
    return at;
}

void gpu_watch(struct gpu *g)
{
    sim_time_t w = watchdog_bound(g);
    if (g->watch_at == SIM_TIME_NEVER || w > g->watch_at)
        g->watch_at = w;
    set_horizon(g);
}

static void stop_cb(sim_t *sim, sim_event_t *ev)
{
    (void)ev;
    sim_stop(sim, SIM_END_STOPPED);
}

sim_time_t gpu_stop_point(gpu_t *g)
{
    sim_time_t at = engine_frontier(&M(g)->engine), now = sim_now(g->sim);
    at = at > now ? at : now;
    at = at < g->horizon ? at : g->horizon;
    gpu_set_horizon(g, at);
    return at;
}

sim_time_t gpu_last_ready(const struct gpu *g) { return ts_last_ready(&M(g)->ts); }

void gpu_out_of_memory(struct gpu *g, const char *what)
{
    snprintf(g->errmsg, sizeof g->errmsg, "out of memory: %s", what);
    sim_stop(g->sim, SIM_END_ERROR);
}

txn_t *gpu_txn(struct gpu *g, unsigned kind)
{
    txn_t *t = txn_alloc(&g->pool);
    if (!t) {
        gpu_out_of_memory(g, "no transaction available");
        return NULL;
    }
    t->kind = (uint16_t)kind;
    return t;
}

void gpu_watchdog(struct gpu *g, unsigned core, unsigned frame, unsigned ip)
{
    if (g->outcome == GPU_WATCHDOG)
        return;
    g->outcome = GPU_WATCHDOG;
    snprintf(g->errmsg, sizeof g->errmsg,
             "watchdog: frame %u, core %u, IP %u: task exceeded its budget of %llu "
             "instructions (D12)",
             frame, core, ip, (unsigned long long)g->desc.budget);
    if (M(g)->simt) {
        sim_stop(g->sim, SIM_END_STOPPED);
        return;
    }
    gpu_set_horizon(g, sim_now(g->sim)); /* the rest of this picosecond, nothing after */
    sim_schedule(g->sim, &M(g)->stop_ev, sim_now(g->sim));
}

/* Names what holds up a run whose queue emptied with work left. */
static void describe_stuck(gpu_t *g)
{
    sm_waiter_t w;
    if (sm_first_waiter(&M(g)->sm, &w)) {
        if (M(g)->simt && simt_describe_deadlock(M(g)->simt, w.requester, (unsigned)w.lock_owner,
                                              w.bank, w.lock_addr, g->errmsg, sizeof g->errmsg))
            return;
        snprintf(g->errmsg, sizeof g->errmsg,
                 "deadlock: core %u (frame %u) waits for bank %u, locked by core %d at "
                 "address 0x%03x (D16: a ld_sync without its st_sync?)",
                 w.requester, w.frame, w.bank, w.lock_owner, w.lock_addr);
        return;
    }
    snprintf(g->errmsg, sizeof g->errmsg,
             "deadlock: %u of %u frames finished and no event is left", ts_done(&M(g)->ts),
             ts_frames(&M(g)->ts));
}

gpu_outcome_t gpu_outcome(const gpu_t *g)
{
    if (g->outcome == GPU_WATCHDOG || g->outcome == GPU_STUCK || g->outcome == GPU_POLICY_ERROR)
        return (gpu_outcome_t)g->outcome;
    if (ts_finished(&M(g)->ts))
        return GPU_DONE;
    if (sim_pending(g->sim) == 0) {
        describe_stuck((gpu_t *)g);
        ((gpu_t *)g)->outcome = GPU_STUCK;
        return GPU_STUCK;
    }
    return GPU_RUNNING;
}

const char *gpu_errmsg(const gpu_t *g) { return g->errmsg; }

void gpu_stats(const gpu_t *g, gpu_stats_t *s)
{
    memset(s, 0, sizeof *s);
    s->end_ps = ts_last_ready(&M(g)->ts);
    s->now_ps = sim_now(g->sim);
    s->frames = ts_done(&M(g)->ts);
    s->tasks = ts_tasks_issued(&M(g)->ts);
    engine_stats(&M(g)->engine, s);
    sm_totals_t sm;
    sm_get_totals(&M(g)->sm, &sm);
    s->sm_accesses = sm.accesses;
    s->sm_conflicts = sm.conflicts;
    s->sm_conflict_ps = sm.conflict_ps;
}

void gpu_arch_state(const gpu_t *g, arch_state_t *out)
{
    engine_regs(&M(g)->engine, out);
    memcpy(out->sm, sm_bytes(&M(g)->sm), SM_BYTES);
}

/* --- end-of-run counters -------------------------------------------------- */

/* Each counter as gpu_counters.h lists it (gpu_counter_info). */
#define CTR_ONE(unit, id, name, what) [GPU_CTR_##unit##_##id] = {GPU_UNIT_##unit, name, NULL, what, false},
#define CTR_GROUPS(unit, id, name, what) [GPU_CTR_##unit##_##id] = {GPU_UNIT_##unit, name, NULL, what, true},
#define CTR_REASON(unit, id, prefix, suffix, what)                                          \
    [GPU_CTR_##unit##_##id] = {GPU_UNIT_##unit, prefix, suffix, what, false},
static const gpu_counter_info_t counters[] = {GPU_COUNTERS(CTR_ONE, CTR_GROUPS, CTR_REASON)};

/* Each unit's name and kind (gpu_unit_info). */
#define UNIT(P, id, name, kind) [P##id] = {name, kind},
static const gpu_unit_info_t units[] = {GPU_UNITS(UNIT)};

const gpu_counter_info_t *gpu_counter_info(gpu_ctr_t id) { return &counters[id]; }

const gpu_unit_info_t *gpu_unit_info(gpu_unit_t unit) { return &units[unit]; }

char *gpu_unit_name(char buf[GPU_UNIT_NAME_MAX], gpu_unit_t unit, unsigned n, const char *reason)
{
    assert(!reason || units[unit].kind == GPU_UNIT_REASONS);
    if (units[unit].kind == GPU_UNIT_NUMBERED)
        snprintf(buf, GPU_UNIT_NAME_MAX, "%s%u", units[unit].name, n);
    else
        snprintf(buf, GPU_UNIT_NAME_MAX, "%s%s%s", units[unit].name,
                 reason ? GPU_UNIT_REASON_SEP : "", reason ? reason : "");
    return buf;
}

void gpu_counter(sim_t *sim, gpu_ctr_t id, unsigned n, uint64_t value)
{
    assert(!counters[id].suffix); /* an R entry's counters: gpu_counter_reason */
    char unit[GPU_UNIT_NAME_MAX];
    gpu_tr_counter_t r = {gpu_unit_name(unit, counters[id].unit, n, NULL), counters[id].name,
                          value};
    sim_trace(sim, GPU_TR_COUNTER, &r);
}

void gpu_counter_reason(sim_t *sim, gpu_ctr_t id, const char *reason, uint64_t value)
{
    assert(counters[id].suffix);
    char unit[GPU_UNIT_NAME_MAX], name[64];
    snprintf(name, sizeof name, "%s%s%s", counters[id].name, reason, counters[id].suffix);
    gpu_tr_counter_t r = {gpu_unit_name(unit, counters[id].unit, 0, NULL), name, value};
    sim_trace(sim, GPU_TR_COUNTER, &r);
}

static void totals(gpu_t *g)
{
    gpu_stats_t s;
    gpu_stats(g, &s);
    gpu_counter(g->sim, GPU_CTR_GPU_FRAMES, 0, s.frames);
    gpu_counter(g->sim, GPU_CTR_GPU_TASKS, 0, s.tasks);
    gpu_counter(g->sim, GPU_CTR_GPU_CORE_TASKS, 0, s.core_tasks);
    gpu_counter(g->sim, GPU_CTR_GPU_INSTRUCTIONS, 0, s.instructions);
    gpu_counter(g->sim, GPU_CTR_GPU_SM_ACCESSES, 0, s.sm_accesses);
    gpu_counter(g->sim, GPU_CTR_GPU_CONFLICTS, 0, s.sm_conflicts);
    gpu_counter(g->sim, GPU_CTR_GPU_CONFLICT_PS, 0, s.sm_conflict_ps);
    gpu_counter(g->sim, GPU_CTR_GPU_DIV_BY_ZERO, 0, s.div_by_zero);
}

/* A run whose queue emptied with work left stops at its last event in
 * stepped mode: the last instruction started, answer taken or request
 * arrived at its bank. Decoupled, those need no event of their own (the
 * engine ran ahead, requests were posted with their arrival time), so the
 * stop is taken to the same instant. */
static void stuck_at_last_event(gpu_t *g)
{
    /* only a run whose queue emptied: one that was stopped (the watchdog,
     * a time limit, a signal, the end of simulated time) stays where it
     * stopped, even when nothing was left queued — decoupled, the SIMT
     * unit's answers may all be taken already, and the engine's frontier
     * lie past the stop */
    if (sim_stop_reason(g->sim) != SIM_END_NONE || sim_pending(g->sim) != 0 ||
        ts_finished(&M(g)->ts))
        return;
    sim_time_t last = engine_frontier(&M(g)->engine);
    sim_time_t arrived = sm_last_arrival(&M(g)->sm);
    sim_advance(g->sim, arrived > last ? arrived : last);
}

void gpu_finish(gpu_t *g)
{
    stuck_at_last_event(g);
    ivl_running(g);
    ts_report_partial(&M(g)->ts);
    engine_report_partial(&M(g)->engine);
    if (!sim_tracing(g->sim))
        return;
    totals(g);
    ts_counters(&M(g)->ts);
    engine_counters(&M(g)->engine);
    sm_counters(&M(g)->sm);
    if (g->trace & GPU_TRACE_SLOTS)
        gpu_slots_report(g);
}

const char *gpu_stall_name(unsigned reason)
{
    static const char *const names[] = {GPU_STALLS(XENUM_NAME)};
    return reason < GPU_STALL_REASONS ? names[reason] : "unknown";
}

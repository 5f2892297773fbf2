/* gpu.c — the top level of the timed model: builds the machine from a
 * program and a description, wires its components, and reports the outcome,
 * the statistics and the final architectural state (see gpu.h). */
#include "model/gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/gpu_impl.h"
#include "model/simt/simt.h"

const char *const gpu_policy_names[] = {GPU_POLICIES(XENUM_NAME)[GPU_POLICY_COUNT] = NULL};
const char *const gpu_arbiter_names[] = {GPU_ARBITERS(XENUM_NAME)[GPU_ARB_COUNT] = NULL};
const char *const gpu_bank_map_names[] = {GPU_BANK_MAPS(XENUM_NAME)[GPU_MAP_COUNT] = NULL};
const char *const gpu_timing_names[] = {GPU_TIMINGS(XENUM_NAME)[GPU_TIMING_COUNT] = NULL};
const char *const gpu_model_names[] = {GPU_MODELS(XENUM_NAME)[GPU_MODEL_COUNT] = NULL};
const char *const gpu_reconv_names[] = {GPU_RECONVS(XENUM_NAME)[GPU_RECONV_COUNT] = NULL};

void gpu_desc_default(gpu_desc_t *d)
{
    memset(d, 0, sizeof *d);
    d->period_ps = 1000;
    d->ts_decode = lat_fixed(1);
    d->ts_xfer = lat_fixed(4);
    d->ts_ready = lat_fixed(1);
    d->policy = GPU_POLICY_INORDER;
    d->window = 8;
    d->core_alu = lat_fixed(1);
    d->core_mul = lat_fixed(2);
    d->core_div = lat_fixed(8);
    d->core_branch = lat_fixed(1);
    d->core_ready = lat_fixed(1);
    d->budget = ARCH_DEFAULT_BUDGET;
    d->timing = GPU_TIMING_DECOUPLED;
    d->sm_req = lat_fixed(1);
    d->sm_bank = lat_fixed(1);
    d->sm_resp = lat_fixed(1);
    d->arbiter = GPU_ARB_FIXED;
    d->bank_map = GPU_MAP_HIGH;
    d->banks = SM_BANKS_DEFAULT;
    d->atomics = false;
    d->seed = 1;
    d->model = GPU_MODEL_MIMD;
    d->simt_scheduler = SIMT_SCHED_RR;
    d->simt_issue_width = 1;
    d->simt_scoreboard = false;
    d->simt_broadcast = false;
    d->simt_ibuffer = 0;
    d->simt_fetch_width = 2;
    d->simt_fetch_latency = 1;
    d->simt_collectors = 0;
    d->simt_rf_banks = 4;
    d->simt_sp_width = d->simt_sfu_width = d->simt_lsu_width = GPU_CORES;
    d->simt_pipeline = false;
}

static int check_min(const lat_t *l, uint32_t min, const char *key, diag_t *diag)
{
    if (lat_min(l) < min)
        return diag_fail(diag, TESS_EINPUT, "%s: the latency can be %u cycles, below the minimum %u",
                         key, lat_min(l), min);
    return TESS_OK;
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
    if (d->period_ps < 1)
        return diag_fail(diag, TESS_EINPUT, "clock.period_ps: must be at least 1 ps");
    /* T6: every core-local class takes at least a cycle (its key is core.NAME) */
#define CHECK_CORE(P, id, name, field)                                                      \
    if (P##id < ISA_CLASS_LOCAL && check_min(&d->field, 1, "core." name, diag))             \
        return TESS_EINPUT;
    ISA_CLASSES(CHECK_CORE)
#undef CHECK_CORE
    if (check_min(&d->sm_bank, 1, "sm.bank", diag))
        return TESS_EINPUT;
    if (d->window < 1 || d->window > TM_FRAMES)
        return diag_fail(diag, TESS_EINPUT, "ts.window: %u is not in 1..64", d->window);
    if (d->budget < 1)
        return diag_fail(diag, TESS_EINPUT, "core.budget: must be at least 1 instruction");
    if (d->policy >= GPU_POLICY_COUNT || d->arbiter >= GPU_ARB_COUNT ||
        d->bank_map >= GPU_MAP_COUNT || d->timing >= GPU_TIMING_COUNT)
        return diag_fail(diag, TESS_EINPUT, "an enumerated setting is out of range");
    if (d->model >= GPU_MODEL_COUNT)
        return diag_fail(diag, TESS_EINPUT, "core.model: %u is not one of %s (0..%u)", d->model,
                         XENUM_JOIN(GPU_MODELS), GPU_MODEL_COUNT - 1);
    if (d->simt_scheduler >= SIMT_SCHED_COUNT)
        return diag_fail(diag, TESS_EINPUT, "simt.scheduler: %u is not one of %s (0..%u)",
                         d->simt_scheduler, XENUM_JOIN(SIMT_SCHEDS), SIMT_SCHED_COUNT - 1);
    if (d->banks < 1 || d->banks > SM_BANKS_MAX || (d->banks & (d->banks - 1)))
        return diag_fail(diag, TESS_EINPUT, "sm.banks: %u is not a power of two in 1..%u",
                         d->banks, SM_BANKS_MAX);
    if (d->simt_issue_width < 1 || d->simt_issue_width > GPU_CORES)
        return diag_fail(diag, TESS_EINPUT, "simt.issue_width: %u is not in 1..16",
                         d->simt_issue_width);
    const struct {
        const char *key;
        unsigned value, lo, hi;
    } ranges[] = {
        {"simt.ibuffer", d->simt_ibuffer, 0, SIMT_IBUFFER_MAX},
        {"simt.fetch_width", d->simt_fetch_width, 1, SIMT_FETCH_MAX},
        {"simt.fetch_latency", d->simt_fetch_latency, 1, 8},
        {"simt.collectors", d->simt_collectors, 0, GPU_CORES},
        {"simt.rf_banks", d->simt_rf_banks, 1, 16},
        {"simt.sp_width", d->simt_sp_width, 1, GPU_CORES},
        {"simt.sfu_width", d->simt_sfu_width, 1, GPU_CORES},
        {"simt.lsu_width", d->simt_lsu_width, 1, GPU_CORES},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (ranges[i].value < ranges[i].lo || ranges[i].value > ranges[i].hi)
            return diag_fail(diag, TESS_EINPUT, "%s: %u is not in %u..%u", ranges[i].key,
                             ranges[i].value, ranges[i].lo, ranges[i].hi);
    if (d->simt_reconvergence >= GPU_RECONV_COUNT)
        return diag_fail(diag, TESS_EINPUT, "simt.reconvergence: %u is not one of %s (0..%u)",
                         d->simt_reconvergence, XENUM_JOIN(GPU_RECONVS), GPU_RECONV_COUNT - 1);
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
        if (g->simt)
            sm_attach(&g->sm, c, simt_answer_receiver(g->simt), g->simt);
        else
            sm_attach(&g->sm, c, core_answer_receiver(&g->cores[c]), &g->cores[c]);
    }
}

static void wire(gpu_t *g)
{
    cores_engine(&g->engine, g->cores);
    if (g->simt)
        simt_engine(&g->engine, g->simt);
    ts_attach(&g->ts, &g->engine);
    if (g->simt)
        simt_wire(g->simt, sm_on_request, &g->sm, &g->sm);
    for (unsigned c = 0; c < GPU_CORES; c++)
        core_wire(&g->cores[c], ts_on_ready, &g->ts, sm_on_request, &g->sm);
    wire_answers(g);
}

static void stop_cb(sim_t *sim, sim_event_t *ev);

gpu_t *gpu_create(sim_t *sim, const gpu_desc_t *desc, const program_t *prog, diag_t *diag)
{
    if (gpu_desc_check(desc, diag) != TESS_OK)
        return NULL;
    gpu_t *g = tess_calloc(1, sizeof *g);
    if (!g) {
        diag_fail(diag, TESS_ENOMEM, "out of memory creating the GPU model");
        return NULL;
    }
    g->sim = sim;
    g->desc = *desc;
    g->prog = *prog;
    g->horizon = g->stop_at = g->watch_at = SIM_TIME_NEVER;
    sim_event_init(&g->stop_ev, stop_cb, g, GPU_PRIO_STOP, "gpu.stop");
    if (txn_pool_init(&g->pool, sim, 4 * GPU_CORES) != TESS_OK ||
        sim_reserve(sim, 8 * GPU_CORES) != TESS_OK) {
        diag_fail(diag, TESS_ENOMEM, "out of memory creating the GPU model");
        gpu_destroy(g);
        return NULL;
    }
    for (unsigned p = 0; p < GPU_POINT_COUNT; p++) {
        if (policy_open(&g->policy[p], g, &g->desc.policies, p, diag) != TESS_OK) {
            gpu_destroy(g);
            return NULL;
        }
    }
    ts_init(&g->ts, g, &g->prog.tm);
    sm_init(&g->sm, g, g->prog.sm);
    for (unsigned c = 0; c < GPU_CORES; c++) {
        if (core_init(&g->cores[c], g, c) != TESS_OK) {
            diag_fail(diag, TESS_ENOMEM, "out of memory creating the GPU model");
            gpu_destroy(g);
            return NULL;
        }
    }
    if (desc->model == GPU_MODEL_SIMT && !(g->simt = simt_create(g))) {
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
    simt_destroy(g->simt);
    for (unsigned p = 0; p < GPU_POINT_COUNT; p++)
        policy_close(&g->policy[p]);
    txn_pool_fini(&g->pool);
    tess_free(g);
}

/* The SM looks at each grant only when someone wants it. */
static void sm_observed(gpu_t *g)
{
    sm_set_observed(&g->sm, (g->trace & GPU_TRACE_ACCESSES) || g->ivl[0] || g->ivl[1]);
}

void gpu_set_trace(gpu_t *g, unsigned mask)
{
    g->trace = mask;
    for (unsigned c = 0; c < GPU_CORES; c++)
        g->cores[c].profiled = (mask & GPU_TRACE_SLOTS) && !g->simt;
    sm_observed(g);
}

void gpu_set_access_sink(gpu_t *g, gpu_access_sink_t *sink) { g->access_sink = sink; }

void gpu_set_itrace(gpu_t *g, itrace_fn fn, void *user)
{
    g->engine.ops->itrace(g->engine.self, fn, user);
    wire_answers(g); /* a traced core answers through its traced receiver */
}
void gpu_set_races(gpu_t *g, race_det_t *r) { g->races = r; }

void gpu_set_intervals(gpu_t *g, ivl_t *intervals, ivl_t *window)
{
    g->ivl[0] = intervals, g->ivl[1] = window;
    for (int i = 0; i < 2; i++)
        if (g->ivl[i]) {
            g->ivl[i]->banks = g->desc.banks ? g->desc.banks : SM_BANKS;
            g->ivl[i]->simt = g->simt != NULL;
            g->ivl[i]->groups = g->simt && g->desc.simt_reconvergence == GPU_RECONV_BARRIER;
        }
    for (unsigned c = 0; c < GPU_CORES; c++)
        g->cores[c].one_by_one |= intervals || window;
    if (g->simt)
        simt_set_intervals(g->simt, intervals || window);
    wire_answers(g);
    sm_observed(g);
}

/* A task still running at the stop is busy up to it (as its counter says). */
static void ivl_running(gpu_t *g)
{
    if (!g->ivl[0] && !g->ivl[1])
        return;
    for (unsigned c = 0; c < GPU_CORES; c++)
        if (g->cores[c].busy)
            gpu_ivl_span(g, IVL_CORE_BUSY, c, g->cores[c].task_start, sim_now(g->sim));
}

void gpu_start(gpu_t *g) { ts_start(&g->ts); }

/* horizon = min(stop_at, watch_at); the components are bounded once it is
 * finite (and stay so). */
static void set_horizon(gpu_t *g)
{
    g->horizon = g->stop_at < g->watch_at ? g->stop_at : g->watch_at;
    if (g->horizon == SIM_TIME_NEVER || g->bounded)
        return;
    g->bounded = true;
    sm_bound(&g->sm);
    g->engine.ops->bound(g->engine.self);
}

void gpu_bound_answers(gpu_t *g) { sm_bound(&g->sm); }

void gpu_set_horizon(gpu_t *g, sim_time_t horizon)
{
    if (horizon < g->stop_at) {
        g->stop_at = horizon;
        set_horizon(g);
    }
}

static sim_time_t sat_add(sim_time_t a, sim_time_t b) { return a + b < a ? SIM_TIME_NEVER : a + b; }

static sim_time_t sat_mul(uint64_t a, sim_time_t b)
{
    return b && a > (SIM_TIME_NEVER - 1) / b ? SIM_TIME_NEVER : a * b;
}

/* The earliest instant a watchdog could fire: every instruction takes at
 * least a cycle before the next starts (T6; a ld/st's bank at least one,
 * gpu_desc_check), a running task's next one starts at run.t or, waiting on
 * its answer (an event at t_done while bounded), at now or later, and a
 * task that starts later starts at now or later. */
static sim_time_t watchdog_bound(const gpu_t *g)
{
    sim_time_t now = sim_now(g->sim), p = g->desc.period_ps;
    sim_time_t at = sat_add(now, sat_mul(g->desc.budget, p));
    for (unsigned c = 0; c < GPU_CORES; c++) {
        const core_t *k = &g->cores[c];
        if (!k->busy)
            continue;
        sim_time_t from = k->run.t > now ? k->run.t : now;
        sim_time_t w = sat_add(from, sat_mul(g->desc.budget - k->run.n, p));
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
    sim_time_t at = g->engine.ops->frontier(g->engine.self), now = sim_now(g->sim);
    at = at > now ? at : now;
    at = at < g->horizon ? at : g->horizon;
    gpu_set_horizon(g, at);
    return at;
}

txn_t *gpu_txn(struct gpu *g, unsigned kind)
{
    txn_t *t = txn_alloc(&g->pool);
    if (!t) {
        snprintf(g->errmsg, sizeof g->errmsg, "out of memory: no transaction available");
        sim_stop(g->sim, SIM_END_ERROR);
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
    if (g->simt) {
        sim_stop(g->sim, SIM_END_STOPPED);
        return;
    }
    gpu_set_horizon(g, sim_now(g->sim)); /* the rest of this picosecond, nothing after */
    sim_schedule(g->sim, &g->stop_ev, sim_now(g->sim));
}

/* Names what holds up a run whose queue emptied with work left. */
static void describe_stuck(gpu_t *g)
{
    for (unsigned b = 0; b < g->sm.nbanks; b++) {
        const bank_t *bk = &g->sm.banks[b];
        if (!bk->pending)
            continue;
        unsigned c = (unsigned)__builtin_ctz(bk->pending);
        if (g->simt && simt_describe_deadlock(g->simt, c, (unsigned)bk->lock_core, b,
                                              bk->lock_addr, g->errmsg, sizeof g->errmsg))
            return;
        snprintf(g->errmsg, sizeof g->errmsg,
                 "deadlock: core %u (frame %u) waits for bank %u, locked by core %d at "
                 "address 0x%03x (D16: a ld_sync without its st_sync?)",
                 c, bk->req[c]->frame, b, bk->lock_core, bk->lock_addr);
        return;
    }
    snprintf(g->errmsg, sizeof g->errmsg,
             "deadlock: %u of %u frames finished and no event is left", g->ts.done, g->ts.n);
}

gpu_outcome_t gpu_outcome(const gpu_t *g)
{
    if (g->outcome == GPU_WATCHDOG || g->outcome == GPU_STUCK || g->outcome == GPU_POLICY_ERROR)
        return (gpu_outcome_t)g->outcome;
    if (ts_finished(&g->ts))
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
    s->end_ps = g->ts.last_ready;
    s->now_ps = sim_now(g->sim);
    s->frames = g->ts.done;
    s->tasks = g->ts.tasks_issued;
    g->engine.ops->stats(g->engine.self, s);
    for (unsigned b = 0; b < g->sm.nbanks; b++) {
        const bank_t *bk = &g->sm.banks[b];
        s->sm_accesses += bk->accesses;
        s->sm_conflicts += bk->conflicts;
        s->sm_conflict_ps += bk->wait_ps;
    }
}

void gpu_arch_state(const gpu_t *g, arch_state_t *out)
{
    g->engine.ops->regs(g->engine.self, out);
    memcpy(out->sm, g->sm.mem, SM_BYTES);
}

/* --- end-of-run counters -------------------------------------------------- */

static void counter(gpu_t *g, const char *component, const char *name, uint64_t value)
{
    gpu_counter(g->sim, component, name, value);
}

static void bank_counters(gpu_t *g)
{
    for (unsigned b = 0; b < g->sm.nbanks; b++) {
        const bank_t *bk = &g->sm.banks[b];
        char name[16];
        snprintf(name, sizeof name, "bank%u", b);
        counter(g, name, "accesses", bk->accesses);
        counter(g, name, "conflicts", bk->conflicts);
        counter(g, name, "wait_ps", bk->wait_ps);
        counter(g, name, "max_wait_ps", bk->max_wait_ps);
        counter(g, name, "busy_ps", bk->busy_ps);
        counter(g, name, "lock_acquires", bk->lock_acquires);
    }
}

static void totals(gpu_t *g)
{
    gpu_stats_t s;
    gpu_stats(g, &s);
    counter(g, "gpu", "frames", s.frames);
    counter(g, "gpu", "tasks", s.tasks);
    counter(g, "gpu", "core_tasks", s.core_tasks);
    counter(g, "gpu", "instructions", s.instructions);
    counter(g, "gpu", "sm_accesses", s.sm_accesses);
    counter(g, "gpu", "conflicts", s.sm_conflicts);
    counter(g, "gpu", "conflict_ps", s.sm_conflict_ps);
    counter(g, "gpu", "div_by_zero", s.div_by_zero);
    counter(g, "ts", "tasks_issued", g->ts.tasks_issued);
    counter(g, "ts", "bus_busy_ps", g->ts.bus_busy_ps);
    for (unsigned r = 0; r < GPU_STALL_REASONS; r++) {
        char name[32];
        snprintf(name, sizeof name, "stall_%s_ps", gpu_stall_name(r));
        counter(g, "ts", name, g->ts.stall_ps[r]);
    }
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
        ts_finished(&g->ts))
        return;
    sim_time_t last = g->engine.ops->frontier(g->engine.self);
    for (unsigned b = 0; b < g->sm.nbanks; b++)
        for (uint16_t m = g->sm.banks[b].pending; m; m &= m - 1) {
            sim_time_t a = g->sm.banks[b].arrive[__builtin_ctz(m)];
            last = a > last ? a : last;
        }
    sim_advance(g->sim, last);
}

void gpu_finish(gpu_t *g)
{
    stuck_at_last_event(g);
    ivl_running(g);
    ts_report_partial(&g->ts);
    g->engine.ops->report_partial(g->engine.self);
    if (!sim_tracing(g->sim))
        return;
    totals(g);
    g->engine.ops->counters(g->engine.self);
    bank_counters(g);
    if (g->trace & GPU_TRACE_SLOTS)
        gpu_slots_report(g);
}

const char *gpu_stall_name(unsigned reason)
{
    static const char *const names[] = {GPU_STALLS(XENUM_NAME)};
    return reason < GPU_STALL_REASONS ? names[reason] : "unknown";
}

/* unit.c — the SIMT unit as the machine's execution engine (SIMT-SPEC S1;
 * see simt.h, and unit.h for its stages): creation from the machine's
 * description, its own links to the SM, the engine's operations (task
 * starts, registers, statistics, partial reports) and the "simt" counters
 * at the end of a run. */
#include "model/simt/unit.h"

#include <stdio.h>
#include <string.h>

#include "events/base/alloc.h"

_Static_assert(ISA_LANES == GPU_CORES, "a warp's lanes are the group's cores");

/* The clock period's odd part and its inverse (simt_cycles_in). */
static void period_init(simt_t *u, sim_time_t period)
{
    u->period = period;
    uint64_t odd = period;
    while (!(odd & 1)) {
        odd >>= 1;
        u->period_shift++;
    }
    u->period_low = (UINT64_C(1) << u->period_shift) - 1;
    u->period_inv = odd; /* Newton's iteration doubles the correct low bits: 3, 6, … 96 */
    for (unsigned i = 0; i < 5; i++)
        u->period_inv *= 2 - odd * u->period_inv;
    u->period_max = UINT64_MAX / period;
}

/* The latencies by class, fixed ones in ps (ld/st: sm.req). */
static void latencies_init(simt_t *u, const gpu_desc_t *d)
{
    const lat_t *lat[] = {&d->core_alu, &d->core_mul, &d->core_div, &d->core_branch,
                          &d->core_ready, &d->sm_req, &d->sm_req};
    u->lat_fixed = true;
    for (unsigned k = 0; k <= ISA_CLASS_ST; k++) {
        u->lat[k] = lat[k];
        u->lat_fixed &= lat_is_fixed(lat[k]);
        u->lat_ps[k] = gpu_cycles(u->gpu, lat[k]->lo);
    }
    for (unsigned op = 0; op < 16; op++)
        u->op_lat_ps[op] = u->lat_ps[isa_class((isa_op_t)op)];
}

/* An answer taken in call order (decoupled, the SM unbounded) is taken when
 * its bank grants the request, at most sm.bank + sm.resp cycles before its
 * time; a warp `near` instructions short of its budget cannot reach its
 * watchdog before now + near cycles (one issue per cycle at most, S5). So a
 * warp with fewer than budget - near instructions is more than an answer's
 * trip from a stop by the watchdog, and nothing it is answered can lie past
 * that stop. In cycles, drawn latencies at their largest. */
static uint64_t watch_from(const gpu_desc_t *d)
{
    uint64_t near = lat_max(&d->sm_bank) + lat_max(&d->sm_resp) + 2;
    return d->budget > near ? d->budget - near : 0;
}

void simt_nearing_budget(simt_t *u, const simt_warp_t *w)
{
    u->near_budget |= w->rec.warp_instructions + 1 >= u->budget;
    if (!u->answers_bounded) { /* a stop may come before an answer's time */
        u->answers_bounded = true;
        gpu_bound_answers(u->gpu);
    }
}

simt_t *simt_create(struct gpu *g, core_t *cores, policy_run_t *sched)
{
    const gpu_desc_t *d = &g->desc;
    simt_t *u = tess_calloc(1, sizeof *u);
    if (!u)
        return NULL;
    u->gpu = g;
    u->sim = g->sim;
    u->cores = cores;
    u->sched_run = sched;
    u->scoreboard = d->simt_scoreboard;
    u->broadcast = d->simt_broadcast;
    u->atomics = d->atomics;
    u->sched = d->simt_scheduler;
    u->sched_plugin = policy_plugged(sched);
    u->width = d->simt_issue_width;
    u->budget = d->budget;
    u->watch_from = watch_from(d);
    u->until = SIM_TIME_NEVER;
    u->stepped = d->timing == GPU_TIMING_STEPPED;
    period_init(u, d->period_ps);
    rng_seed(&u->rng, d->seed, 0x400);
    latencies_init(u, d);
    u->ibuffer = d->simt_ibuffer;
    u->fetch_width = d->simt_fetch_width;
    u->fetch_lat = d->simt_fetch_latency * u->period;
    u->collectors = d->simt_collectors;
    u->rf_banks = d->simt_rf_banks;
    u->rf_arbiter = d->simt_rf_arbiter;
    u->coll_all = u->collectors ? (uint32_t)((1ull << u->collectors) - 1) : UINT32_MAX;
    memset(u->rf_last, u->collectors ? u->collectors - 1 : 0, sizeof u->rf_last); /* rr: 0 first */
    u->unit_width[SIMT_SP] = d->simt_sp_width;
    u->unit_width[SIMT_SFU] = d->simt_sfu_width;
    u->unit_width[SIMT_LSU] = d->simt_lsu_width;
    if (d->simt_reconvergence == GPU_RECONV_BARRIER && !simt_grp_create(u, d->simt_pipeline)) {
        tess_free(u);
        return NULL;
    }
    u->pipe = u->bar || d->simt_pipeline || u->ibuffer || u->collectors || d->simt_sp_width < GPU_CORES ||
              d->simt_sfu_width < GPU_CORES || d->simt_lsu_width < GPU_CORES;
    memset(u->lane_warp, -1, sizeof u->lane_warp);
    u->last_eval = NEVER;
    sim_event_init(&u->issue_ev, simt_issue_cb, u, GPU_PRIO_CORE, "simt.issue");
    for (unsigned c = 0; c < GPU_CORES; c++) {
        core_as_lane(&u->cores[c]);
        for (unsigned i = 0; i < ISA_REGS; i++) /* D4: as the cores hold them at the start */
            u->rf.r[i][c] = core_reg(&u->cores[c], i);
        txn_t *t = u->port[c].req = txn_alloc(&g->pool); /* the pool frees it */
        if (!t) {
            simt_destroy(u);
            return NULL;
        }
        t->kind = GPU_TXN_SM_REQ;
        t->core = (uint16_t)c;
    }
    return u;
}

void simt_destroy(simt_t *u)
{
    if (u)
        simt_grp_destroy(u);
    tess_free(u);
}

void simt_wire(simt_t *u, port_recv_fn on_request, void *mem, const struct sm *sm)
{
    u->sm = sm;
    for (unsigned l = 0; l < ISA_LANES; l++) /* lane l is core l for the SM (S1) */
        link_init(&u->port[l].mem, u->sim, !u->stepped, GPU_PRIO_SM_ARRIVE, on_request, mem,
                  "core->sm");
}

void simt_set_intervals(simt_t *u, bool on) { u->ivl = on; }

port_recv_fn simt_answer_receiver(const simt_t *u)
{
    if (u->ivl)
        return simt_on_answer_ivl;
    return u->bar ? simt_grp_on_answer : simt_on_answer; /* S14: the groups' own */
}

/* --- the engine's operations ------------------------------------------------- */

/* engine start: the task becomes a resident warp (S1), considered for
 * issue at this picosecond (S5: the issue event comes after the TS's). */
static bool simt_start(void *self, const engine_task_t *task)
{
    simt_t *u = self;
    sim_time_t now = sim_now(u->sim);
    simt_warp_t *w = &u->w[__builtin_ctz(task->cores)];
    if (w->live) {
        assert(w->lanes == 0 && w->end <= now); /* D15: the earlier task has finished */
        simt_close_warp(u, w);
    }
    simt_warp_start(u, w, task, now);
    simt_wake(u, now);
    return true;
}

/* Copies the running lanes' instruction counts to their cores. */
static void sync_counts(const simt_t *u)
{
    for (unsigned l = 0; l < ISA_REGS; l++)
        if (u->lane_warp[l] >= 0)
            core_lane_count(&u->cores[l], u->lane_n[l] + u->w[u->lane_warp[l]].uniform_n);
}

/* engine report_partial: the lanes' tasks, then the warps still resident
 * (their cycles closed at now). */
static void simt_report_partial(void *self)
{
    simt_t *u = self;
    sim_time_t now = sim_now(u->sim);
    sync_counts(u);
    engine_report_partial(&u->lanes);
    for (unsigned i = 0; i < SIMT_WARPS_MAX; i++)
        if (u->w[i].live)
            simt_close_partial(u, &u->w[i], now);
}

static void counter(simt_t *u, gpu_ctr_t id, uint64_t value)
{
    gpu_counter(u->sim, id, 0, value);
}

/* engine counters: the lanes' ("coreN"), then the unit's ("simt"). */
static void simt_counters(void *self)
{
    simt_t *u = self;
    sync_counts(u);
    engine_counters(&u->lanes);
    const gpu_tr_simt_warp_t *t = &u->total;
    uint64_t cycles = gpu_last_ready(u->gpu) / u->period;
    counter(u, GPU_CTR_SIMT_WARPS, u->warps);
    counter(u, GPU_CTR_SIMT_WARP_INSTRUCTIONS, t->warp_instructions);
    counter(u, GPU_CTR_SIMT_LANE_INSTRUCTIONS, t->lane_instructions);
    counter(u, GPU_CTR_SIMT_LANE_SLOTS, u->lane_slots);
    counter(u, GPU_CTR_SIMT_DIVERGENT_BRANCHES, t->divergent_branches);
    if (u->bar) { /* S14 (barrier runs only: the stack's rows stay as they were) */
        counter(u, GPU_CTR_SIMT_MAX_GROUPS, t->max_groups);
        counter(u, GPU_CTR_SIMT_BARRIERS, t->barriers);
    }
    counter(u, GPU_CTR_SIMT_ISSUED_CYCLES, t->issued_cycles);
    counter(u, GPU_CTR_SIMT_RESIDENT_CYCLES, t->resident_cycles);
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++) {
        if (k == GPU_SIMT_STALL_BARRIER && !u->bar)
            continue; /* S14's reason: barrier runs only (the stack's rows stay as they were) */
        gpu_counter_reason(u->sim, GPU_CTR_SIMT_STALL, gpu_simt_stall_name(k), t->stall_cycles[k]);
    }
    counter(u, GPU_CTR_SIMT_MEM_INSTRUCTIONS, t->mem_instructions);
    counter(u, GPU_CTR_SIMT_REQUESTS, t->requests);
    counter(u, GPU_CTR_SIMT_REPLAYS, t->replays);
    counter(u, GPU_CTR_SIMT_ISSUE_CYCLES, u->issue_cycles);
    counter(u, GPU_CTR_SIMT_ISSUE_WIDTH, u->width);
    counter(u, GPU_CTR_SIMT_RUN_CYCLES, cycles);
    counter(u, GPU_CTR_SIMT_ISSUE_UTIL_PPM,
            cycles ? t->warp_instructions * 1000000 / (cycles * u->width) : 0);
}

/* The lanes' registers are the unit's (rf); the rest of their state is their
 * cores', and those operations are the cores' engine's. */
static void simt_set_r0(void *self, unsigned core, uint8_t value)
{
    simt_t *u = self;
    u->rf.r[0][core] = value;
}

static void simt_reported(void *self, unsigned core, sim_time_t ready_ps)
{
    simt_t *u = self;
    engine_reported(&u->lanes, core, ready_ps);
}

static void simt_regs(const void *self, arch_state_t *out)
{
    const simt_t *u = self;
    for (unsigned c = 0; c < GPU_CORES; c++)
        for (unsigned i = 0; i < ISA_REGS; i++)
            out->regs[c][i] = u->rf.r[i][c];
}

static void simt_stats(const void *self, gpu_stats_t *s)
{
    const simt_t *u = self;
    sync_counts(u);
    engine_stats(&u->lanes, s);
}

static void simt_itrace(void *self, itrace_fn fn, void *user)
{
    simt_t *u = self;
    u->itrace = fn;
    u->itrace_user = user;
}

/* The unit has decided issue up to last_eval and taken the answers that
 * reached its lanes, each due at its warp's mem_max at the latest. */
static sim_time_t simt_frontier(const void *self)
{
    const simt_t *u = self;
    sim_time_t at = u->last_eval;
    for (unsigned i = 0; i < SIMT_WARPS_MAX; i++)
        at = simt_tmax(at, u->w[i].mem_max);
    return at;
}

/* may_run_ahead stops before `until`, run_alu is not used; the answers come
 * as events (sm_bound). */
static void simt_bound(void *self)
{
    simt_t *u = self;
    u->until = u->gpu->horizon + 1; /* a horizon is finite */
}

static const engine_ops_t simt_ops = {
    .start = simt_start,
    .set_r0 = simt_set_r0,
    .reported = simt_reported,
    .regs = simt_regs,
    .stats = simt_stats,
    .report_partial = simt_report_partial,
    .counters = simt_counters,
    .itrace = simt_itrace,
    .frontier = simt_frontier,
    .bound = simt_bound,
};

void simt_engine(engine_t *e, simt_t *u)
{
    u->lanes = *e;
    e->ops = &simt_ops;
    e->self = u;
}

bool simt_describe_deadlock(const simt_t *u, unsigned waiting, unsigned holder, unsigned bank,
                            unsigned addr, char *buf, unsigned n)
{
    if (holder >= GPU_CORES || u->lane_warp[waiting] < 0 ||
        u->lane_warp[waiting] != u->lane_warp[holder])
        return false;
    const simt_warp_t *w = &u->w[u->lane_warp[waiting]];
    if (u->bar) { /* S14: lanes run on their own unless a barrier holds the holder */
        if (!simt_grp_waits_at_barrier(u, holder))
            return false;
        snprintf(buf, n,
                 "deadlock: warp (frame %u): lane %u waits for address 0x%03x (bank %u), locked "
                 "by lane %u of the same warp, which waits at a convergence barrier that lane "
                 "%u must reach first (S14)",
                 w->frame, waiting, addr, bank, holder, waiting);
        return true;
    }
    snprintf(buf, n,
             "deadlock: warp (frame %u): lane %u waits for address 0x%03x (bank %u), locked by "
             "lane %u of the same warp, which cannot reach its st_sync while the warp waits "
             "(S9: intra-warp lock contention)",
             w->frame, waiting, addr, bank, holder);
    return true;
}

const char *gpu_simt_stall_name(unsigned reason)
{
    static const char *const names[] = {GPU_SIMT_STALL_LIST(XENUM_NAME)};
    return reason < GPU_SIMT_STALLS ? names[reason] : "unknown";
}

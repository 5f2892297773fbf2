/* simt.c — the SIMT unit (SIMT-SPEC S1–S10; see simt.h). Lanes execute
 * through isa.c's lane operations (isa_exec_lanes and its kin, built from
 * the same definitions as isa_run), one decoded instruction per warp issue
 * on the lanes' registers laid out by register (simt_t.rf); the stack, post-dominators, scoreboard sets
 * and scheduler order come from simt_flow.c. Times an instruction completes
 * at are known at issue except for ld/st, whose completion is the last
 * lane's answer; SIM_TIME_NEVER stands for "not known yet". */
#include "model/simt.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/port.h"
#include "model/gpu_impl.h"

#define NEVER SIM_TIME_NEVER

_Static_assert(ISA_LANES == GPU_CORES, "a warp's lanes are the group's cores");

static void issue_cb(sim_t *sim, sim_event_t *ev);

static const uint64_t no_latency[ISA_CLASS_ST + 1]; /* isa_run adds nothing: time is ours */

static sim_time_t tmax(sim_time_t a, sim_time_t b) { return a > b ? a : b; }

simt_t *simt_create(struct gpu *g)
{
    const gpu_desc_t *d = &g->desc;
    simt_t *u = tess_calloc(1, sizeof *u);
    if (!u)
        return NULL;
    u->gpu = g;
    u->sim = g->sim;
    u->scoreboard = d->simt_scoreboard;
    u->broadcast = d->simt_broadcast;
    u->atomics = d->atomics;
    u->sched = d->simt_scheduler;
    u->width = d->simt_issue_width;
    u->budget = d->budget;
    u->until = NEVER;
    u->stepped = d->timing == GPU_TIMING_STEPPED;
    u->period = d->period_ps;
    uint64_t odd = u->period;
    while (!(odd & 1)) {
        odd >>= 1;
        u->period_shift++;
    }
    u->period_low = (UINT64_C(1) << u->period_shift) - 1;
    u->period_inv = odd; /* Newton's iteration doubles the correct low bits: 3, 6, … 96 */
    for (unsigned i = 0; i < 5; i++)
        u->period_inv *= 2 - odd * u->period_inv;
    u->period_max = UINT64_MAX / u->period;
    rng_seed(&u->rng, d->seed, 0x400);
    const lat_t *lat[] = {&d->core_alu, &d->core_mul, &d->core_div, &d->core_branch,
                          &d->core_ready, &d->sm_req, &d->sm_req};
    u->lat_fixed = true;
    for (unsigned k = 0; k <= ISA_CLASS_ST; k++) {
        u->lat[k] = lat[k];
        u->lat_fixed &= lat_is_fixed(lat[k]);
        u->lat_ps[k] = gpu_cycles(g, lat[k]->lo);
    }
    for (unsigned op = 0; op < 16; op++)
        u->op_lat_ps[op] = u->lat_ps[isa_class((isa_op_t)op)];
    memset(u->lane_warp, -1, sizeof u->lane_warp);
    u->last_eval = NEVER;
    sim_event_init(&u->issue_ev, issue_cb, u, GPU_PRIO_CORE, "simt.issue");
    for (unsigned c = 0; c < GPU_CORES; c++) {
        g->cores[c].run.lat = no_latency;
        for (unsigned i = 0; i < ISA_REGS; i++) /* D4: as the cores hold them at the start */
            u->rf.r[i][c] = g->cores[c].r[i];
    }
    return u;
}

void simt_destroy(simt_t *u) { tess_free(u); }

/* A latency of class `cls` in ps: fixed, or drawn from the unit's stream. */
static sim_time_t latency(simt_t *u, unsigned cls)
{
    if (lat_is_fixed(u->lat[cls]))
        return u->lat_ps[cls];
    return gpu_cycles(u->gpu, lat_sample(u->lat[cls], &u->rng));
}

/* Asks for an issue decision at `at` (>= now), keeping the earliest. */
static void wake(simt_t *u, sim_time_t at)
{
    if (at == NEVER)
        return;
    if (sim_event_pending(&u->issue_ev) && u->issue_ev.time <= at)
        return;
    assert(at >= sim_now(u->sim) && !(at == sim_now(u->sim) && u->last_eval == at));
    sim_schedule(u->sim, &u->issue_ev, at);
}

/* --- lanes finishing (S7, T5, T6) ------------------------------------------ */

/* Lanes finish at F: their READY reaches the TS ts.ready cycles later. */
static void finish_lanes(simt_t *u, simt_warp_t *w, uint16_t lanes, const sim_time_t *at)
{
    struct gpu *g = u->gpu;
    sim_time_t now = sim_now(u->sim);
    for (uint16_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        core_t *c = &g->cores[l];
        sim_time_t f = at[l];
        c->run.n = u->lane_n[l] + w->uniform_n;
        c->busy = false;
        c->task_finish = f;
        c->busy_ps += f - c->task_start;
        gpu_ivl_span(g, IVL_CORE_BUSY, l, c->task_start, f);
        c->instructions += c->run.n;
        c->sm_ops += c->task_sm_ops;
        c->sm_wait_ps += c->task_sm_wait;
        c->sm_conflict_ps += c->task_sm_conflict;
        w->end = tmax(w->end, f);
        txn_t *t = gpu_txn(g, GPU_TXN_READY);
        if (!t)
            return;
        t->core = (uint16_t)l;
        t->frame = w->frame;
        sim_time_t trip = gpu_cycles(g, lat_sample(&g->desc.ts_ready, &c->rng));
        port_send(&c->ready_port, t, f - now + trip);
    }
    w->lanes &= (uint16_t)~lanes;
    if (!w->lanes) {
        u->drained |= (uint16_t)(1u << (w - u->w));
        wake(u, w->end); /* close it out when its last lane has finished */
    }
}

/* Lanes left the warp with an instruction completing at `done` (NEVER: a
 * ld/st in flight). They finish when it completes; with the scoreboard,
 * when everything the warp has issued so far has. */
static __attribute__((noinline)) void lanes_leave(simt_t *u, simt_warp_t *w, uint16_t lanes, sim_time_t done)
{
    sim_time_t f = u->scoreboard ? tmax(w->alu_done, w->mem_done) : done;
    sim_time_t at[ISA_REGS];
    if (f == NEVER) {
        w->pending |= lanes;
        for (uint16_t m = lanes; m; m &= m - 1)
            w->lane_alu[__builtin_ctz(m)] = u->scoreboard ? w->alu_done : 0;
        return;
    }
    for (unsigned l = 0; l < ISA_REGS; l++)
        at[l] = f;
    finish_lanes(u, w, lanes, at);
}

/* --- eligibility and stall reasons (S3, S4, "Counting") --------------------- */

static bool has_next(const simt_warp_t *w) { return !simt_stack_empty(&w->st); }

static isa_decoded_t next_insn(const simt_warp_t *w)
{
    return w->code[simt_stack_top(&w->st)->pc];
}

static bool is_mem(unsigned op) { return op == ISA_LD || op == ISA_ST; }

/* The earliest time the warp's next instruction may issue, NEVER when it
 * waits for a ld/st whose completion is not known yet. */
static sim_time_t ready_at(const simt_t *u, const simt_warp_t *w)
{
    if (!u->scoreboard)
        return w->prev_done;
    isa_decoded_t d = next_insn(w);
    sim_time_t at = tmax(w->next_ok, w->bnz_done);
    for (uint16_t m = simt_regs_read(d) | simt_regs_written(d); m; m &= m - 1)
        at = tmax(at, w->reg_done[__builtin_ctz(m)]);
    if (is_mem(d.op))
        at = tmax(at, w->mem_done);
    if (d.op == ISA_READY)
        at = tmax(at, tmax(w->alu_done, w->mem_done));
    return at;
}

/* Why a warp that cannot issue at t waits: memory if anything it waits
 * for is a ld/st, else execute. */
static unsigned wait_reason(const simt_t *u, const simt_warp_t *w, sim_time_t t)
{
    bool mem_busy = w->mem_done > t;
    if (!has_next(w) || !u->scoreboard)
        return mem_busy ? GPU_SIMT_STALL_MEMORY : GPU_SIMT_STALL_EXECUTE;
    isa_decoded_t d = next_insn(w);
    if (mem_busy && (is_mem(d.op) || d.op == ISA_READY))
        return GPU_SIMT_STALL_MEMORY;
    for (uint16_t m = (simt_regs_read(d) | simt_regs_written(d)) & w->reg_ld; m; m &= m - 1)
        if (w->reg_done[__builtin_ctz(m)] > t)
            return GPU_SIMT_STALL_MEMORY;
    return GPU_SIMT_STALL_EXECUTE;
}

/* ps / period, without a division when ps is a whole number of cycles (as
 * the model's times are): the odd part of the period by its inverse modulo
 * 2^64 (a 64-bit division is some 40 cycles of latency on the host). */
static inline uint64_t cycles_in(const simt_t *u, sim_time_t ps)
{
    if (!(ps & u->period_low)) {
        uint64_t q = (ps >> u->period_shift) * u->period_inv;
        if (q <= u->period_max)
            return q;
    }
    return ps / u->period;
}

/* Counts the cycles [acct_ps, to) with the reason set for them. */
static void account(simt_t *u, simt_warp_t *w, sim_time_t to)
{
    if (to > w->acct_ps)
        w->rec.stall_cycles[w->acct_reason] += cycles_in(u, to - w->acct_ps);
    w->acct_ps = tmax(w->acct_ps, to);
}

/* --- starting and closing warps -------------------------------------------- */

static void trace_warp(simt_t *u, simt_warp_t *w, bool complete)
{
    gpu_tr_simt_warp_t *r = &w->rec;
    r->frame = w->frame;
    r->mask = w->mask;
    r->complete = complete;
    r->start_ps = w->age;
    r->end_ps = complete ? w->end : NEVER;
    r->max_stack_depth = w->st.max_depth;
    r->issued_cycles = r->warp_instructions;
    r->resident_cycles = ((complete ? w->end : w->acct_ps) - w->age) / u->period;
    if (u->gpu->trace & GPU_TRACE_WARPS)
        sim_trace(u->sim, GPU_TR_SIMT_WARP, r);
}

static void add_totals(simt_t *u, const gpu_tr_simt_warp_t *r, const simt_warp_t *w)
{
    gpu_tr_simt_warp_t *t = &u->total;
    t->warp_instructions += r->warp_instructions;
    t->lane_instructions += r->lane_instructions;
    t->divergent_branches += r->divergent_branches;
    t->resident_cycles += r->resident_cycles;
    t->issued_cycles += r->issued_cycles;
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
        t->stall_cycles[k] += r->stall_cycles[k];
    t->mem_instructions += r->mem_instructions;
    t->requests += r->requests;
    t->replays += r->replays;
    u->lane_slots += r->warp_instructions * (uint64_t)__builtin_popcount(w->mask);
    u->warps++;
}

/* The warp stops being resident (its counts are reported). */
static void retire(simt_t *u, simt_warp_t *w)
{
    uint16_t bit = (uint16_t)(1u << (w - u->w));
    w->live = false;
    u->live &= (uint16_t)~bit;
    u->drained &= (uint16_t)~bit;
    u->near_budget = false;
    for (uint16_t m = u->live; m; m &= m - 1)
        u->near_budget |= u->w[__builtin_ctz(m)].rec.warp_instructions + 1 >= u->budget;
}

/* Every lane has finished by w->end <= now: the warp stops being resident. */
static void close_warp(simt_t *u, simt_warp_t *w)
{
    account(u, w, w->end);
    trace_warp(u, w, true);
    add_totals(u, &w->rec, w);
    for (uint16_t m = w->mask; m; m &= m - 1)
        if (u->lane_warp[__builtin_ctz(m)] == (int8_t)(w - u->w))
            u->lane_warp[__builtin_ctz(m)] = -1;
    retire(u, w);
}

static void warp_init(simt_t *u, simt_warp_t *w, unsigned frame, uint16_t mask, sim_time_t now)
{
    memset(w, 0, sizeof *w);
    w->live = true;
    w->frame = (uint8_t)frame;
    w->mask = w->lanes = mask;
    w->nlanes = (uint8_t)__builtin_popcount(mask);
    w->age = w->acct_ps = w->next_ok = w->prev_done = now;
    w->acct_reason = GPU_SIMT_STALL_ISSUE;
    isa_decode_frame(u->gpu->prog.tm.code[frame], w->code);
    for (unsigned pc = 0; pc < ISA_SLOTS - 1; pc++) {
        unsigned op = w->code[pc].op;
        if (!is_mem(op) && op != ISA_READY)
            w->alu_slots |= (uint16_t)(1u << pc);
    }
    simt_ipdom(w->code, w->ipdom); /* S7: once per task */
    simt_stack_init(&w->st, mask);
}

/* Lane `lane` starts the warp's task now (T4: R0 initialisation applied). */
static void lane_start(simt_t *u, simt_warp_t *w, unsigned lane, const engine_task_t *task,
                       sim_time_t now)
{
    core_t *c = &u->gpu->cores[lane];
    assert(!c->busy);
    u->lane_warp[lane] = (int8_t)(w - u->w);
    c->busy = true;
    c->reported = false;
    c->frame = (uint8_t)task->frame;
    c->req->frame = (uint16_t)task->frame;
    if (task->init >> lane & 1)
        u->rf.r[0][lane] = task->r0[lane];
    c->run.code = w->code;
    c->run.n = 0;
    u->lane_n[lane] = 0;
    c->task_start = now;
    c->task_sm_ops = 0;
    c->task_sm_wait = c->task_sm_conflict = 0;
    c->tasks++;
}

/* engine start: the task becomes a resident warp (S1), considered for
 * issue at this picosecond (S5: the issue event comes after the TS's). */
static bool simt_start(void *self, const engine_task_t *task)
{
    simt_t *u = self;
    sim_time_t now = sim_now(u->sim);
    simt_warp_t *w = &u->w[__builtin_ctz(task->cores)];
    if (w->live) {
        assert(w->lanes == 0 && w->end <= now); /* D15: the earlier task has finished */
        close_warp(u, w);
    }
    warp_init(u, w, task->frame, task->cores, now);
    u->live |= (uint16_t)(1u << (w - u->w));
    u->near_budget |= u->budget <= 1;
    for (uint16_t m = task->cores; m; m &= m - 1)
        lane_start(u, w, (unsigned)__builtin_ctz(m), task, now);
    wake(u, now);
    return true;
}

/* --- issue ------------------------------------------------------------------- */

/* S8 broadcast: a ld's lanes reading one byte (sync lanes excepted) share
 * the lowest one's request; fills w->fanout and returns the lanes that send. */
static __attribute__((noinline)) uint16_t merge_lanes(simt_warp_t *w, uint16_t active,
                                                      uint16_t sync, const uint16_t *addr)
{
    uint16_t send = 0;
    for (uint16_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        w->fanout[l] = (uint16_t)(1u << l);
        if (!(sync >> l & 1)) {
            for (uint16_t before = (uint16_t)(send & ~sync); before; before &= before - 1) {
                unsigned k = (unsigned)__builtin_ctz(before);
                if (addr[k] == addr[l]) {
                    w->fanout[k] |= (uint16_t)(1u << l);
                    w->fanout[l] = 0;
                    break;
                }
            }
        }
        if (w->fanout[l])
            send |= (uint16_t)(1u << l);
    }
    return send;
}

/* S8: the most requests of `send` to one bank, less one; *banks gets the
 * number of banks touched. */
static __attribute__((noinline)) unsigned bank_replays(struct gpu *g, uint16_t send,
                                                        const uint16_t *addr, unsigned *banks)
{
    uint8_t per_bank[SM_BANKS_MAX] = {0};
    unsigned most = 0;
    *banks = 0;
    for (uint16_t m = send; m; m &= m - 1) {
        unsigned q = ++per_bank[sm_bank_of(&g->sm, addr[__builtin_ctz(m)])];
        *banks += q == 1;
        most = q > most ? q : most;
    }
    return most - 1;
}

/* S8: sends the active lanes' requests of a ld/st issued at `now`. The
 * warp's state says what is in flight before the first request leaves; its
 * bank figures (requests, banks touched, replays) are counted as the
 * requests leave and set after the last, before any answer (the SM answers
 * in its own event, never within a request). */
static GPU_NO_SLP __attribute__((noinline)) void issue_mem(simt_t *u, simt_warp_t *w,
                                                            uint16_t active, unsigned pc,
                                                            isa_decoded_t d, sim_time_t now)
{
    struct gpu *g = u->gpu;
    bool store = d.op == ISA_ST;
    isa_mem_lanes_t *ops = &w->mem_ops; /* a ld's t->data is the SM's to set */
    isa_mem_lanes(&u->rf, active, d, (store ? ISA_MEM_VALUE : 0) | (u->atomics ? ISA_MEM_SYNC : 0),
                  ops);
    uint16_t sync = ops->sync;
    uint16_t send = active;
    w->mem_merged = u->broadcast && !store;
    if (w->mem_merged)
        send = merge_lanes(w, active, sync, ops->addr);
    w->mem_store = store;
    w->mem_reg = d.c;
    w->mem_slot = (uint8_t)pc;
    w->mem_lanes = active;
    w->mem_issue = now;
    w->mem_max = 0;
    w->mem_wait = send;
    w->rec.mem_instructions++;
    w->prev_done = w->mem_done = NEVER;
    if (!store) {
        w->reg_done[d.c] = NEVER;
        w->reg_ld |= (uint16_t)(1u << d.c);
    }
    bool fixed = lat_is_fixed(u->lat[ISA_CLASS_LD]);
    sim_time_t arrive = now + u->lat_ps[ISA_CLASS_LD];
    uint16_t flags = store ? GPU_TXN_STORE : 0;
    unsigned requests = 0, banks, most;
    uint64_t seen = 0, twice = 0; /* banks touched; touched more than once */
    /* each request as the lane's core would send it, and its bank; the loop
       is written twice so that the usual one (no sync lane, a fixed latency)
       tests neither per lane */
#define SEND(l, FLAGS, ARRIVE)                                                               \
    do {                                                                                    \
        core_t *c = &g->cores[l];                                                           \
        txn_t *t = c->req;                                                                  \
        uint64_t bit = UINT64_C(1) << sm_bank_of(&g->sm, ops->addr[l]);                     \
        twice |= seen & bit;                                                                \
        seen |= bit;                                                                        \
        requests++;                                                                         \
        t->addr = ops->addr[l];                                                             \
        t->flags = (FLAGS);                                                                 \
        t->data = ops->value[l];                                                            \
        t->t_created = t->t_sent = now;                                                     \
        c->req_arrive = (ARRIVE);                                                           \
        link_send(&c->mem, t, c->req_arrive); /* to the SM, in the machine's timing mode */ \
    } while (0)
    if (fixed && !sync) {
        for (uint16_t m = send; m; m &= m - 1)
            SEND((unsigned)__builtin_ctz(m), flags, arrive);
    } else {
        for (uint16_t m = send; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            SEND(l, (uint16_t)(flags | (sync >> l & 1 ? GPU_TXN_SYNC : 0)),
                 fixed ? arrive : now + latency(u, ISA_CLASS_LD));
        }
    }
#undef SEND
    /* S8: replays = the most requests to one bank, less one */
    if (!twice) { /* every request to its own bank: no replay */
        banks = requests;
        most = 1;
    } else if (!(seen & (seen - 1))) { /* all to one bank */
        banks = 1;
        most = requests;
    } else {
        most = bank_replays(g, send, ops->addr, &banks) + 1;
    }
    w->mem_requests = (uint8_t)requests;
    w->mem_banks = (uint8_t)banks;
    w->mem_replays = (uint8_t)(most - 1);
    w->rec.requests += w->mem_requests;
    w->rec.replays += w->mem_replays;
}

/* Runs a non-memory instruction on the active lanes (one decode for all:
 * isa_exec_lanes); returns the lanes whose branch is taken (bnz). */
static uint16_t exec_lanes(simt_t *u, uint16_t active, isa_decoded_t d)
{
    core_t *cores = u->gpu->cores;
    if (d.op == ISA_BNZ)
        return isa_bnz_taken(&u->rf, active, d);
    for (uint16_t m = isa_exec_lanes(&u->rf, active, d); m; m &= m - 1)
        cores[__builtin_ctz(m)].run.div_by_zero++;
    return 0;
}

/* The instruction trace's record of warp w's instruction in slot `pc`,
 * issued at `when` on lanes `active`, with the lanes' registers as they are
 * now (after it); for a ld/st (its answers all in), addresses, banks and
 * the byte each lane read or wrote. Off the hot path: only when traced. */
static __attribute__((noinline, cold)) void trace_insn(simt_t *u, const simt_warp_t *w,
                                                        unsigned pc, uint16_t active,
                                                        sim_time_t when)
{
    uint8_t regs[ISA_REGS][ISA_REGS] = {{0}};
    const isa_decoded_t *d = &w->code[pc];
    uint16_t word = isa_make(d->op, d->a, d->b, d->c);
    itrace_rec_t r = {
        .when = when, .frame = w->frame, .unit = (uint8_t)(w - u->w), .simt = true,
        .lanes = active, .slot = (uint8_t)pc, .word = word, .wmask = itrace_writes(word),
        .regs = (const uint8_t(*)[ISA_REGS])regs,
    };
    for (uint16_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (unsigned i = 0; i < ISA_REGS; i++)
            regs[l][i] = u->rf.r[i][l];
        if (is_mem(d->op)) {
            r.addr[l] = w->mem_ops.addr[l];
            r.bank[l] = (uint8_t)sm_bank_of(&u->gpu->sm, w->mem_ops.addr[l]);
            r.value[l] = regs[l][d->c];
        }
    }
    r.mem = is_mem(d->op);
    r.store = d->op == ISA_ST;
    u->itrace(u->itrace_user, &r);
}

static __attribute__((noinline, cold)) void trace_issue(simt_t *u, simt_warp_t *w, unsigned pc, uint16_t active, unsigned order,
                        unsigned eligible, sim_time_t now)
{
    gpu_tr_simt_issue_t r = {
        .time_ps = now, .frame = w->frame, .slot = (uint8_t)pc,
        .op = w->code[pc].op, .order = (uint8_t)order, .depth = w->st.depth,
        .eligible = (uint8_t)eligible, .active = active, .mask = w->lanes | w->pending,
    };
    sim_trace(u->sim, GPU_TR_SIMT_ISSUE, &r);
}

/* Interval statistics (record.interval, the window): each active lane
 * started one instruction at `now`, as a core counts its own (coreN.instructions). */
static __attribute__((noinline, cold)) void ivl_lanes(struct gpu *g, uint16_t active,
                                                      sim_time_t now)
{
    for (uint16_t m = active; m; m &= m - 1)
        gpu_ivl_add(g, IVL_CORE_INSTR, (unsigned)__builtin_ctz(m), now, 1);
}

/* S10: true (and the watchdog fired) when a lane of `active` has run its
 * budget of instructions in this task. */
static __attribute__((noinline, cold)) bool budget_spent(simt_t *u, const simt_warp_t *w,
                                                         uint16_t active, unsigned pc)
{
    for (uint16_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (u->lane_n[l] + w->uniform_n >= u->budget) {
            gpu_watchdog(u->gpu, l, w->frame, pc);
            return true;
        }
    }
    return false;
}

/* Issues the warp's next instruction at `now` (the unit's time: sim_now or,
 * running ahead, later). Returns false when a lane's budget (S10) stopped
 * the run (only at sim_now: the unit does not run ahead near the budget). */
static __attribute__((noinline)) bool issue(simt_t *u, simt_warp_t *w, unsigned order,
                                            unsigned eligible, sim_time_t now)
{
    struct gpu *g = u->gpu;
    const simt_entry_t *top = simt_stack_top(&w->st);
    unsigned pc = top->pc;
    uint16_t active = top->mask;
    isa_decoded_t d = w->code[pc];
    /* S10: D12 per lane; a lane has run at most the warp's instructions */
    if (__builtin_expect(w->rec.warp_instructions >= u->budget, 0) &&
        budget_spent(u, w, active, pc))
        return false;
    if (g->trace & GPU_TRACE_ISSUE)
        trace_issue(u, w, pc, active, order, eligible, now);
    if (__builtin_expect(u->ivl, 0))
        ivl_lanes(g, active, now);
    w->rec.warp_instructions++;
    u->near_budget |= w->rec.warp_instructions + 1 >= u->budget;
    if (active == w->mask) { /* every lane: counted once for all */
        w->uniform_n++;
        w->rec.lane_instructions += w->nlanes;
    } else {
        for (uint16_t m = active; m; m &= m - 1) {
            u->lane_n[__builtin_ctz(m)]++;
            w->rec.lane_instructions++;
        }
    }
    w->next_ok = now + u->period;
    unsigned next = pc + 1; /* 16 = EXIT */
    if (is_mem(d.op)) {
        issue_mem(u, w, active, pc, d, now);
        simt_stack_advance(&w->st, next);
        if (next == SIMT_EXIT) {
            simt_stack_leave(&w->st, active);
            lanes_leave(u, w, active, NEVER); /* T6: they finish with the answer */
        }
        return true;
    }
    uint16_t taken = exec_lanes(u, active, d);
    if (__builtin_expect(u->itrace != NULL, 0))
        trace_insn(u, w, pc, active, now);
    sim_time_t done = now + (u->lat_fixed ? u->op_lat_ps[d.op] : latency(u, isa_class((isa_op_t)d.op)));
    w->alu_done = tmax(w->alu_done, done);
    w->prev_done = done;
    for (uint16_t m = u->scoreboard ? simt_regs_written(d) : 0; m; m &= m - 1) {
        w->reg_done[__builtin_ctz(m)] = done; /* S4 (a): only the scoreboard reads them */
        w->reg_ld &= (uint16_t)~(m & -m);
    }
    uint16_t leave = 0;
    if (d.op == ISA_BNZ) {
        bool divergent;
        w->bnz_done = done; /* S7: its stack effect is known now, and used from `done` on */
        leave = simt_stack_branch(&w->st, pc, d.b, w->ipdom[pc], taken, &divergent);
        w->rec.divergent_branches += divergent;
    } else if (d.op == ISA_READY || next == SIMT_EXIT) {
        leave = active;
    } else {
        simt_stack_advance(&w->st, next);
    }
    if (leave) {
        simt_stack_leave(&w->st, leave);
        lanes_leave(u, w, leave, done);
    }
    return true;
}

/* --- the issue decision of one cycle (S5, S6) -------------------------------- */

/* The warps that may issue at `now` (S3, S4). */
static uint16_t eligible_warps(const simt_t *u, sim_time_t now)
{
    uint16_t eligible = 0;
    for (uint16_t m = u->live; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        const simt_warp_t *w = &u->w[i];
        if (has_next(w) && ready_at(u, w) <= now)
            eligible |= (uint16_t)(1u << i);
    }
    return eligible;
}

/* Issues w, the only eligible warp at `now`: every scheduler picks it (S6).
 * Returns false when a lane's budget stopped the run. */
static inline bool issue_alone(simt_t *u, simt_warp_t *w, sim_time_t now)
{
    if (!issue(u, w, 0, 1, now))
        return false;
    u->last.age[0] = w->age;
    u->last.n = 1;
    u->issue_cycles++;
    return true;
}

/* Issues the eligible warps the scheduler picks at `now` (S5, S6); returns
 * the warps that issued (fewer when a lane's budget stopped the run). */
static uint16_t decide(simt_t *u, sim_time_t now, uint16_t eligible)
{
    if (!eligible)
        return 0;
    if (!(eligible & (eligible - 1))) /* one eligible warp: every scheduler picks it */
        return issue_alone(u, &u->w[__builtin_ctz(eligible)], now) ? eligible : 0;
    uint64_t age[SIMT_WARPS_MAX];
    uint8_t slot[SIMT_WARPS_MAX], order[SIMT_WARPS_MAX];
    unsigned n = 0;
    for (uint16_t m = eligible; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        age[n] = u->w[i].age;
        slot[n++] = (uint8_t)i;
    }
    simt_sched_order(u->sched, age, n, &u->last, order);
    unsigned k = n < u->width ? n : u->width;
    uint16_t issued = 0;
    for (unsigned j = 0; j < k; j++) {
        simt_warp_t *w = &u->w[slot[order[j]]];
        if (!issue(u, w, j, n, now))
            return issued;
        issued |= (uint16_t)(1u << slot[order[j]]);
        u->last.age[j] = w->age;
    }
    u->last.n = (uint8_t)k;
    u->issue_cycles++;
    return issued;
}

/* After the decision: counts warp w's cycle and says when it next needs a
 * decision. */
static inline sim_time_t settle_warp(simt_t *u, simt_warp_t *w, sim_time_t now, bool issued,
                                     bool eligible)
{
    account(u, w, now);
    sim_time_t at;
    if (issued) {
        sim_time_t cycle = now + u->period;
        w->acct_ps = cycle;
        at = has_next(w) ? tmax(ready_at(u, w), cycle) : NEVER;
        /* the reason counts from the next cycle on, if the warp does not
         * issue in it (eligible then: its next decision rewrites it first) */
        if (at != cycle)
            w->acct_reason = (uint8_t)wait_reason(u, w, cycle);
    } else if (eligible) {
        w->acct_reason = GPU_SIMT_STALL_ISSUE;
        at = now + u->period;
    } else {
        w->acct_reason = (uint8_t)wait_reason(u, w, now);
        at = has_next(w) ? ready_at(u, w) : NEVER;
    }
    if (!w->lanes)
        at = w->end; /* everything is known: close it out then */
    if (w->mem_done > now && w->mem_done < at)
        at = w->mem_done; /* its stall reason may change then (memory → execute) */
    return at;
}

/* settle_warp for every resident warp; returns the earliest next decision. */
static sim_time_t settle(simt_t *u, sim_time_t now, uint16_t issued, uint16_t eligible)
{
    sim_time_t next = NEVER;
    for (uint16_t m = u->live; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        sim_time_t at = settle_warp(u, &u->w[i], now, issued >> i & 1, eligible >> i & 1);
        next = at < next ? at : next;
    }
    return next;
}

/* The decision of cycle `now` when one warp is resident (the common case
 * when tasks follow each other on the same lanes): eligible_warps, decide
 * and settle for it alone. */
static inline sim_time_t decide_one(simt_t *u, simt_warp_t *w, sim_time_t now)
{
    bool eligible = has_next(w) && ready_at(u, w) <= now;
    bool issued = eligible && issue_alone(u, w, now);
    if (sim_stop_reason(u->sim) != SIM_END_NONE)
        return NEVER;
    return settle_warp(u, w, now, issued, eligible);
}

/* The unit decides the next cycles itself, without an event each, at most
 * this many at a time (the host loop gets control back in between). */
#define SIMT_SLICE 4096

/* --- a warp alone issuing register work back to back ------------------------ */

/* True when the unit's configuration lets run_alu stand for decide_one: no
 * scoreboard (a warp's next instruction waits for its previous one, S3),
 * fixed latencies, decoupled mode, nothing that records single issues
 * (the issue trace, interval statistics, the instruction trace), and no
 * horizon (run_alu runs up to the next event only). */
static bool plain_issue(const simt_t *u)
{
    return !u->stepped && !u->scoreboard && u->lat_fixed && !u->ivl && !u->itrace &&
           !(u->gpu->trace & GPU_TRACE_ISSUE) && u->until == NEVER;
}

/* True when w, the only resident warp, issues at `now` an instruction that
 * run_alu covers: every lane of the warp active (S10's uniform count), no
 * lane near its budget, no ld/st completing later, and register work or a
 * bnz in a slot before 15 (no lane leaves, nothing is sent, nothing is
 * scheduled: w->alu_slots). */
static bool alu_next(const simt_t *u, const simt_warp_t *w, sim_time_t now)
{
    if (!has_next(w) || w->prev_done > now || w->mem_done > now || u->near_budget)
        return false;
    const simt_entry_t *top = simt_stack_top(&w->st);
    return top->mask == w->mask && (w->alu_slots >> top->pc & 1);
}

/* run_alu's bnz (S7): the lanes' test and the stack's branch (run_alu's
 * flatten inlines both). */
static void alu_bnz(simt_t *u, simt_warp_t *w, unsigned pc, isa_decoded_t d, sim_time_t done)
{
    bool divergent;
    uint16_t taken = isa_bnz_taken(&u->rf, w->mask, d);
    w->bnz_done = done;
    simt_stack_branch(&w->st, pc, d.b, w->ipdom[pc], taken, &divergent); /* pc < 15: no
                                                                            lane leaves */
    w->rec.divergent_branches += divergent;
}

/* decide_one for w, the only resident warp, eligible at `now` with a ld/st
 * of every lane in a slot before 15 next, under plain_issue and with no lane
 * near its budget: issue(), issue_alone and settle_warp without the tests
 * that do not apply then. */
static inline sim_time_t mem_alone(simt_t *u, simt_warp_t *w, sim_time_t now)
{
    unsigned pc = simt_stack_top(&w->st)->pc;
    w->rec.warp_instructions++;
    u->near_budget |= w->rec.warp_instructions + 1 >= u->budget;
    w->uniform_n++;
    w->rec.lane_instructions += w->nlanes;
    w->next_ok = now + u->period;
    issue_mem(u, w, w->mask, pc, w->code[pc], now);
    simt_stack_advance(&w->st, pc + 1);
    u->last.age[0] = w->age;
    u->last.n = 1;
    u->issue_cycles++;
    if (sim_stop_reason(u->sim) != SIM_END_NONE)
        return NEVER;
    return settle_warp(u, w, now, true, true);
}

/* The decisions of cycle `now` and the following ones while alu_next holds
 * for them and the unit may run ahead (decoupled mode, plain_issue): what
 * decide_one does for such an instruction — issue, S6's last choice, the
 * warp's accounting and its next decision — without its general tests. The
 * earliest other event is read once (nothing here schedules one); the
 * warp's counts and times are kept in locals and stored at the end, as the
 * decisions one by one would have left them. When the unit may go on to a
 * decision that is not this path's (a ld/st, a divergent path, slot 15),
 * decide_one makes it here, as issue_cb's next turn would. *k counts the
 * decisions of the event as issue_cb does; returns the next decision's
 * time, which issue_cb then treats as after decide_one. */
static __attribute__((noinline, flatten)) sim_time_t run_alu(simt_t *u, simt_warp_t *w, sim_time_t now,
                                                   unsigned *k)
{
    const sim_time_t horizon = sim_next_time(u->sim), period = u->period;
    /* issue_cb's limits: the slice (decisions of this event after this one),
       and near_budget, false now (warp_instructions + 1 < budget), which
       the issue making warp_instructions + 1 = budget sets */
    const uint64_t slice = SIMT_SLICE - *k, room = u->budget - 1 - w->rec.warp_instructions;
    const uint64_t limit = slice < room ? slice : room;
    sim_time_t alu_done = w->alu_done, acct_ps = w->acct_ps, done, at;
    unsigned reason = w->acct_reason;
    uint64_t n = 0; /* instructions issued */
    bool general = false; /* the next decision is decide_one's */
    for (;;) {
        unsigned pc = simt_stack_top(&w->st)->pc;
        isa_decoded_t d = w->code[pc];
        /* issue: as issue() for a non-memory instruction of every lane */
        n++;
        done = now + u->op_lat_ps[d.op];
        alu_done = tmax(alu_done, done);
        if (d.op == ISA_BNZ) {
            alu_bnz(u, w, pc, d, done);
        } else {
            uint16_t div0 = isa_exec_lanes(&u->rf, w->mask, d);
            if (__builtin_expect(div0 != 0, 0))
                for (uint16_t m = div0; m; m &= m - 1)
                    u->gpu->cores[__builtin_ctz(m)].run.div_by_zero++;
            simt_stack_advance(&w->st, pc + 1);
        }
        /* settle_warp, issued: account(now), then the next decision */
        if (now > acct_ps)
            w->rec.stall_cycles[reason] += cycles_in(u, now - acct_ps);
        sim_time_t cycle = now + period;
        acct_ps = cycle;
        at = has_next(w) ? tmax(done, cycle) : NEVER;
        if (at != cycle) /* wait_reason: mem_done <= now (alu_next) */
            reason = GPU_SIMT_STALL_EXECUTE;
        /* (settle_warp's mem_done test does not apply: mem_done <= now) */
        /* issue_cb's test (at >= horizon also when at is NEVER); alu_next's
           prev_done <= at holds (at >= done), and mem_done <= at */
        if (n >= limit || at >= horizon)
            break;
        /* the unit goes on to decide `at`: here if alu_next holds for it,
           else by decide_one, as issue_cb would next */
        const simt_entry_t *top = simt_stack_top(&w->st);
        if (top->mask != w->mask || !(w->alu_slots >> top->pc & 1)) {
            general = true;
            break;
        }
        now = at;
    }
    *k += (unsigned)(n - 1);
    w->rec.warp_instructions += n;
    w->uniform_n += n;
    w->rec.lane_instructions += n * w->nlanes;
    u->issue_cycles += n;
    u->near_budget = n >= room;
    u->last.age[0] = w->age; /* issue_alone */
    u->last.n = 1;
    u->last_eval = now;
    w->next_ok = now + period;
    w->alu_done = alu_done;
    w->prev_done = done;
    w->acct_ps = acct_ps;
    w->acct_reason = (uint8_t)reason;
    if (!general)
        return at;
    ++*k; /* issue_cb's next turn: nothing to close out, w is alone (no lane left) */
    u->last_eval = at;
    const simt_entry_t *top = simt_stack_top(&w->st);
    if (top->mask == w->mask && top->pc < ISA_SLOTS - 1 && is_mem(w->code[top->pc].op))
        return mem_alone(u, w, at);
    return decide_one(u, w, at);
}

/* True when the unit may decide cycle `next` now: decoupled mode, nothing
 * else is scheduled before or at it (so nothing can change what it sees),
 * not after the run's horizon (gpu_set_horizon), and no lane is near its
 * budget (the watchdog fires at its own time). */
static bool may_run_ahead(const simt_t *u, sim_time_t next)
{
    return !u->stepped && next < u->until && next < sim_next_time(u->sim) && !u->near_budget;
}

/* The issue decision of cycle `now`, then the next ones while the unit may
 * run ahead (decoupled mode: the same decisions as one event per cycle,
 * which stepped mode takes; a test compares them). */
static void issue_cb(sim_t *sim, sim_event_t *ev)
{
    simt_t *u = ev->data;
    sim_time_t now = sim_now(sim);
    bool plain = plain_issue(u);
    for (unsigned k = 0;; k++) {
        u->last_eval = now;
        for (uint16_t m = u->drained; m; m &= m - 1) {
            simt_warp_t *w = &u->w[__builtin_ctz(m)];
            if (w->end <= now)
                close_warp(u, w);
        }
        sim_time_t next;
        if (u->live && !(u->live & (u->live - 1))) {
            simt_warp_t *w = &u->w[__builtin_ctz(u->live)];
            next = plain && alu_next(u, w, now) ? run_alu(u, w, now, &k) : decide_one(u, w, now);
        } else {
            uint16_t eligible = eligible_warps(u, now);
            uint16_t issued = decide(u, now, eligible);
            next = settle(u, now, issued, eligible);
        }
        if (sim_stop_reason(sim) != SIM_END_NONE)
            return;
        if (k + 1 >= SIMT_SLICE || !may_run_ahead(u, next)) {
            wake(u, next);
            return;
        }
        now = next;
    }
}

/* --- memory answers (S8) ------------------------------------------------------ */

static void trace_mem(simt_t *u, const simt_warp_t *w)
{
    gpu_tr_simt_mem_t r = {
        .frame = w->frame, .slot = w->mem_slot, .is_store = w->mem_store,
        .requests = w->mem_requests, .replays = w->mem_replays, .banks = w->mem_banks,
        .lanes = w->mem_lanes, .issue_ps = w->mem_issue, .done_ps = w->mem_max,
    };
    sim_trace(u->sim, GPU_TR_SIMT_MEM, &r);
}

/* The warp's ld/st completed at D (its last lane's answer). Out of line:
 * once per warp ld/st, it would make every answer save more registers. */
static __attribute__((noinline)) void mem_complete(simt_t *u, simt_warp_t *w, sim_time_t done)
{
    w->mem_done = done;
    if (__builtin_expect(u->itrace != NULL, 0))
        trace_insn(u, w, w->mem_slot, w->mem_lanes, w->mem_issue);
    if (w->prev_done == NEVER)
        w->prev_done = done;
    if (!w->mem_store && w->reg_done[w->mem_reg] == NEVER)
        w->reg_done[w->mem_reg] = done;
    if (u->gpu->trace & GPU_TRACE_WARPS)
        trace_mem(u, w);
    if (w->pending) {
        sim_time_t at[ISA_REGS];
        for (unsigned l = 0; l < ISA_REGS; l++)
            at[l] = tmax(w->lane_alu[l], done);
        uint16_t lanes = w->pending;
        w->pending = 0;
        finish_lanes(u, w, lanes, at);
    }
    wake(u, done);
}

/* What every answer does: lane l's request is served. */
static inline __attribute__((always_inline)) void answered(simt_t *u, simt_warp_t *w, core_t *c,
                                                           unsigned l, const txn_t *t)
{
    c->task_sm_ops++;
    c->task_sm_conflict += t->t_granted - c->req_arrive;
    w->mem_max = tmax(w->mem_max, t->t_done);
    w->mem_wait &= (uint16_t)~(1u << l);
    if (!w->mem_wait)
        mem_complete(u, w, w->mem_max);
}

/* S8 broadcast: the answer to lane l's request is every lane's it serves
 * (a separate function, so that the common answer saves fewer registers). */
static __attribute__((noinline)) void answer_merged(simt_t *u, simt_warp_t *w, unsigned l,
                                                    const txn_t *t)
{
    for (uint16_t m = w->fanout[l]; m; m &= m - 1) {
        core_t *k = &u->gpu->cores[__builtin_ctz(m)];
        u->rf.r[w->mem_reg][__builtin_ctz(m)] = (uint8_t)t->data; /* merged requests are ld's */
        k->task_sm_wait += t->t_done - t->t_created;
    }
    answered(u, w, &u->gpu->cores[l], l, t);
}

GPU_NO_SLP void simt_on_answer(void *unit, txn_t *t)
{
    simt_t *u = unit;
    unsigned l = t->core;
    assert(u->lane_warp[l] >= 0);
    simt_warp_t *w = &u->w[u->lane_warp[l]];
    assert(w->mem_wait >> l & 1);
    if (w->mem_merged) {
        answer_merged(u, w, l, t);
        return;
    }
    core_t *c = &u->gpu->cores[l]; /* its own request */
    if (!w->mem_store)
        u->rf.r[w->mem_reg][l] = (uint8_t)t->data; /* the byte read at the grant */
    c->task_sm_wait += t->t_done - t->t_created;
    answered(u, w, c, l, t);
}

void simt_on_answer_ivl(void *unit, txn_t *t)
{
    simt_t *u = unit;
    const simt_warp_t *w = &u->w[u->lane_warp[t->core]];
    uint16_t lanes = w->mem_merged ? w->fanout[t->core] : (uint16_t)(1u << t->core);
    for (uint16_t m = lanes; m; m &= m - 1) /* as each lane's sm_wait_ps counts */
        gpu_ivl_span(u->gpu, IVL_CORE_WAIT, (unsigned)__builtin_ctz(m), t->t_created, t->t_done);
    simt_on_answer(unit, t);
}

/* --- end of run ----------------------------------------------------------------- */

static void counter(simt_t *u, const char *name, uint64_t value)
{
    gpu_counter(u->sim, "simt", name, value);
}

/* engine report_partial: the lanes' tasks, then the warps still resident
 * (their cycles closed at now). */
/* Copies the running lanes' instruction counts to their cores (run.n). */
static void sync_counts(const simt_t *u)
{
    for (unsigned l = 0; l < ISA_REGS; l++)
        if (u->gpu->cores[l].busy && u->lane_warp[l] >= 0)
            u->gpu->cores[l].run.n = u->lane_n[l] + u->w[u->lane_warp[l]].uniform_n;
}

static void simt_report_partial(void *self)
{
    simt_t *u = self;
    sim_time_t now = sim_now(u->sim);
    sync_counts(u);
    u->lanes.ops->report_partial(u->lanes.self);
    for (unsigned i = 0; i < SIMT_WARPS_MAX; i++) {
        simt_warp_t *w = &u->w[i];
        if (!w->live)
            continue;
        if (!w->lanes && w->end <= now) {
            close_warp(u, w);
            continue;
        }
        account(u, w, now);
        trace_warp(u, w, false);
        add_totals(u, &w->rec, w);
        retire(u, w);
    }
}

/* engine counters: the lanes' ("coreN"), then the unit's ("simt"). */
static void simt_counters(void *self)
{
    simt_t *u = self;
    sync_counts(u);
    u->lanes.ops->counters(u->lanes.self);
    const gpu_tr_simt_warp_t *t = &u->total;
    uint64_t cycles = u->gpu->ts.last_ready / u->period;
    counter(u, "warps", u->warps);
    counter(u, "warp_instructions", t->warp_instructions);
    counter(u, "lane_instructions", t->lane_instructions);
    counter(u, "lane_slots", u->lane_slots);
    counter(u, "divergent_branches", t->divergent_branches);
    counter(u, "issued_cycles", t->issued_cycles);
    counter(u, "resident_cycles", t->resident_cycles);
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++) {
        char name[32];
        snprintf(name, sizeof name, "stall_%s_cycles", gpu_simt_stall_name(k));
        counter(u, name, t->stall_cycles[k]);
    }
    counter(u, "mem_instructions", t->mem_instructions);
    counter(u, "requests", t->requests);
    counter(u, "replays", t->replays);
    counter(u, "issue_cycles", u->issue_cycles);
    counter(u, "issue_width", u->width);
    counter(u, "run_cycles", cycles);
    counter(u, "issue_util_ppm",
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
    u->lanes.ops->reported(u->lanes.self, core, ready_ps);
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
    u->lanes.ops->stats(u->lanes.self, s);
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
        at = tmax(at, u->w[i].mem_max);
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

/* issue.c — the SIMT unit's scheduler stage (SIMT-SPEC S3–S6, Counting):
 * which warps may issue in a cycle, which of them the scheduler (sched.c)
 * picks, what issuing does (counting, the stack's effect, the instruction
 * handed to the execution units or the LSU), each resident cycle's stall
 * reason, and the issue event that decides one cycle after another. The
 * fast path at the end (run_alu) makes the same decisions for a warp alone
 * issuing register work back to back. */
#include "model/simt/unit.h"

/* The earliest time the warp's next instruction may issue, NEVER when it
 * waits for a ld/st whose completion is not known yet. */
sim_time_t simt_ready_at(const simt_t *u, const simt_warp_t *w)
{
    if (!u->scoreboard)
        return w->prev_done;
    isa_decoded_t d = simt_next_insn(w);
    sim_time_t at = simt_tmax(w->next_ok, w->bnz_done);
    for (uint16_t m = simt_regs_read(d) | simt_regs_written(d); m; m &= m - 1)
        at = simt_tmax(at, w->reg_done[__builtin_ctz(m)]);
    if (simt_is_mem(d.op))
        at = simt_tmax(at, w->mem_done);
    if (d.op == ISA_READY)
        at = simt_tmax(at, simt_tmax(w->alu_done, w->mem_done));
    return at;
}

/* Why a warp that cannot issue at t waits: memory if anything it waits
 * for is a ld/st, else execute. */
unsigned simt_wait_reason(const simt_t *u, const simt_warp_t *w, sim_time_t t)
{
    bool mem_busy = w->mem_done > t;
    if (!simt_has_next(w) || !u->scoreboard)
        return mem_busy ? GPU_SIMT_STALL_MEMORY : GPU_SIMT_STALL_EXECUTE;
    isa_decoded_t d = simt_next_insn(w);
    if (mem_busy && (simt_is_mem(d.op) || d.op == ISA_READY))
        return GPU_SIMT_STALL_MEMORY;
    for (uint16_t m = (simt_regs_read(d) | simt_regs_written(d)) & w->reg_ld; m; m &= m - 1)
        if (w->reg_done[__builtin_ctz(m)] > t)
            return GPU_SIMT_STALL_MEMORY;
    return GPU_SIMT_STALL_EXECUTE;
}

/* S10: true (and the watchdog fired) when a lane of `active` has run its
 * budget of instructions in this task. */
__attribute__((noinline, cold)) bool simt_budget_spent(simt_t *u, const simt_warp_t *w,
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

bool simt_count_issue(simt_t *u, simt_warp_t *w, uint16_t active, unsigned pc, unsigned order,
                      unsigned eligible, sim_time_t now)
{
    if (w->rec.warp_instructions >= u->budget && simt_budget_spent(u, w, active, pc))
        return false;
    if (u->gpu->trace & GPU_TRACE_ISSUE)
        simt_trace_issue(u, w, pc, active, order, eligible, now);
    if (u->ivl)
        simt_ivl_lanes(u->gpu, active, now);
    unsigned lanes = simt_lanes_in(w, active);
    w->rec.warp_instructions++;
    simt_count_slot(w, pc, lanes);
    simt_near(u, w);
    w->rec.lane_instructions += lanes;
    if (active == w->mask)
        w->uniform_n++;
    else
        for (uint16_t m = active; m; m &= m - 1)
            u->lane_n[__builtin_ctz(m)]++;
    return true;
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
        simt_budget_spent(u, w, active, pc))
        return false;
    if (g->trace & GPU_TRACE_ISSUE)
        simt_trace_issue(u, w, pc, active, order, eligible, now);
    if (__builtin_expect(u->ivl, 0))
        simt_ivl_lanes(g, active, now);
    w->rec.warp_instructions++;
    simt_count_slot(w, pc, (unsigned)__builtin_popcount(active));
    simt_near(u, w);
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
    if (simt_is_mem(d.op)) {
        simt_issue_mem(u, w, active, pc, d, now);
        simt_stack_advance(&w->st, next);
        if (next == SIMT_EXIT) {
            simt_stack_leave(&w->st, active);
            simt_lanes_leave(u, w, active, NEVER); /* T6: they finish with the answer */
        }
        return true;
    }
    uint16_t taken;
    sim_time_t done = simt_exec(u, w, pc, active, d, now, &taken);
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
        simt_lanes_leave(u, w, leave, done);
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
        if (simt_has_next(w) && simt_ready_at(u, w) <= now)
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
    if (__builtin_expect(u->sched_plugin, 0))
        simt_order_by_plugin(u, now, eligible, age, n, order);
    else
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
    simt_account(u, w, now);
    w->acct_slot = simt_wait_slot(w);
    sim_time_t at;
    if (issued) {
        sim_time_t cycle = now + u->period;
        w->acct_ps = cycle;
        at = simt_has_next(w) ? simt_tmax(simt_ready_at(u, w), cycle) : NEVER;
        /* the reason counts from the next cycle on, if the warp does not
         * issue in it (eligible then: its next decision rewrites it first) */
        if (at != cycle)
            w->acct_reason = (uint8_t)simt_wait_reason(u, w, cycle);
    } else if (eligible) {
        w->acct_reason = GPU_SIMT_STALL_ISSUE;
        at = now + u->period;
    } else {
        w->acct_reason = (uint8_t)simt_wait_reason(u, w, now);
        at = simt_has_next(w) ? simt_ready_at(u, w) : NEVER;
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
    bool eligible = simt_has_next(w) && simt_ready_at(u, w) <= now;
    bool issued = eligible && issue_alone(u, w, now);
    if (sim_stop_reason(u->sim) != SIM_END_NONE)
        return NEVER;
    return settle_warp(u, w, now, issued, eligible);
}


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
    if (!simt_has_next(w) || w->prev_done > now || w->mem_done > now || u->near_budget)
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
    simt_count_slot(w, pc, w->nlanes);
    simt_near(u, w);
    w->uniform_n++;
    w->rec.lane_instructions += w->nlanes;
    w->next_ok = now + u->period;
    simt_issue_mem(u, w, w->mask, pc, w->code[pc], now);
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
    unsigned reason = w->acct_reason, slot = w->acct_slot; /* slot: the last issued, after */
    uint64_t n = 0; /* instructions issued */
    bool general = false; /* the next decision is decide_one's */
    for (;;) {
        unsigned pc = simt_stack_top(&w->st)->pc;
        isa_decoded_t d = w->code[pc];
        /* issue: as issue() for a non-memory instruction of every lane */
        n++;
        w->slot_issued[pc]++; /* every lane: no idle lanes */
        done = now + u->op_lat_ps[d.op];
        alu_done = simt_tmax(alu_done, done);
        if (d.op == ISA_BNZ) {
            alu_bnz(u, w, pc, d, done);
        } else {
            uint16_t div0 = isa_exec_lanes(&u->rf, w->mask, d);
            if (__builtin_expect(div0 != 0, 0))
                for (uint16_t m = div0; m; m &= m - 1)
                    core_lane_div_by_zero(&u->cores[__builtin_ctz(m)]);
            simt_stack_advance(&w->st, pc + 1);
        }
        /* settle_warp, issued: account(now), then the next decision */
        if (now > acct_ps) { /* the wait to issue pc */
            uint64_t c = simt_cycles_in(u, now - acct_ps);
            w->rec.stall_cycles[reason] += c;
            w->slot_stall[pc][reason] += c;
        }
        slot = pc;
        sim_time_t cycle = now + period;
        acct_ps = cycle;
        at = simt_has_next(w) ? simt_tmax(done, cycle) : NEVER;
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
    simt_near(u, w);
    u->last.age[0] = w->age; /* issue_alone */
    u->last.n = 1;
    u->last_eval = now;
    w->next_ok = now + period;
    w->alu_done = alu_done;
    w->prev_done = done;
    w->acct_ps = acct_ps;
    w->acct_reason = (uint8_t)reason;
    w->last_pc = (uint8_t)slot; /* the last one issued */
    w->acct_slot = simt_wait_slot(w);
    if (!general)
        return at;
    ++*k; /* issue_cb's next turn: nothing to close out, w is alone (no lane left) */
    u->last_eval = at;
    const simt_entry_t *top = simt_stack_top(&w->st);
    if (top->mask == w->mask && top->pc < ISA_SLOTS - 1 && simt_is_mem(w->code[top->pc].op))
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
void simt_issue_cb(sim_t *sim, sim_event_t *ev)
{
    simt_t *u = ev->data;
    sim_time_t now = sim_now(sim);
    bool plain = !u->pipe && plain_issue(u);
    for (unsigned k = 0;; k++) {
        u->last_eval = now;
        for (uint16_t m = u->drained; m; m &= m - 1) {
            simt_warp_t *w = &u->w[__builtin_ctz(m)];
            if (w->end <= now)
                simt_close_warp(u, w);
        }
        sim_time_t next;
        if (u->pipe) { /* S11–S13, or S14's groups */
            next = u->bar ? simt_grp_cycle(u, now) : simt_pipe_cycle(u, now);
        } else if (u->live && !(u->live & (u->live - 1))) {
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
            simt_wake(u, next);
            return;
        }
        now = next;
    }
}


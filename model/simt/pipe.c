/* pipe.c — one cycle of the SIMT pipeline (SIMT-SPEC S11–S13), when one of
 * their keys is not at its default: after the answers, completions, task
 * starts and fetch arrivals at t and the TS, the unit issues (S5, S6 with
 * the I-buffer's head and a free collector), reads operands and dispatches
 * (S12), starts the execution units' passes (S13) and fetches (S11), and
 * counts each resident warp's cycle. It decides every cycle in which a warp
 * is resident: the state of the front end, the collectors and the units
 * changes from cycle to cycle. An instruction's register work and stack
 * effect happen at issue (the operands it uses are those read at issue,
 * S12); its completion is known from its dispatch (non-memory) or its last
 * answer (ld/st). */
#include "model/simt/unit.h"

/* What keeps w from issuing at `now` before the scheduler is asked: a stall
 * reason, or GPU_SIMT_STALLS when S3/S4/S11 allow its next instruction and
 * no instruction of its own waits in a collector. A `ready` drains (S4 (d)):
 * an instruction of its own still in a collector has not completed, so the
 * warp waits for it (execute), not for the collector. A dependent
 * instruction (S4 (a)) already waits by simt_ready_at: its writer's
 * completion is not known before dispatch. */
static unsigned blocked(const simt_t *u, const simt_warp_t *w, sim_time_t now)
{
    if (!simt_has_next(w) || simt_ready_at(u, w) > now
        || (w->held.busy && simt_next_insn(w).op == ISA_READY))
        return simt_wait_reason(u, w, now);
    if (u->ibuffer && !w->ib_n) /* S11: the head is the next slot when there is one */
        return GPU_SIMT_STALL_FETCH;
    if (w->held.busy) /* with the scoreboard only: S3 waits for it otherwise */
        return GPU_SIMT_STALL_COLLECTOR;
    return GPU_SIMT_STALLS;
}

/* Issues w's next instruction at `now`: counted, its register work and stack
 * effect done, held until its dispatch (S12). Returns false when a lane's
 * budget (S10) stopped the run. */
static bool issue(simt_t *u, simt_warp_t *w, unsigned order, unsigned eligible, sim_time_t now)
{
    const simt_entry_t *top = simt_stack_top(&w->st);
    unsigned pc = top->pc, next = pc + 1; /* 16 = EXIT */
    uint16_t active = top->mask;
    isa_decoded_t d = w->code[pc];
    if (!simt_count_issue(u, w, active, pc, order, eligible, now))
        return false;
    w->next_ok = now + u->period;
    if (u->ibuffer) { /* the head leaves the I-buffer */
        w->ib_n--;
        for (unsigned i = 0; i < w->ib_n; i++)
            w->ib[i] = w->ib[i + 1];
    }
    simt_held_t *h = &w->held;
    *h = (simt_held_t){.busy = true, .mem = simt_is_mem(d.op), .pc = (uint8_t)pc,
                       .active = active, .d = d, .seq = u->seq++, .coll = simt_coll_take(u),
                       .reads = u->collectors ? simt_regs_read(d) : 0};
    if (h->mem) {
        simt_lsu_prepare(u, w, active, pc, d, now);
        simt_stack_advance(&w->st, next);
        if (next == SIMT_EXIT) {
            simt_stack_leave(&w->st, active);
            simt_lanes_leave(u, w, active, NEVER); /* T6: they finish with the answer */
        }
    } else {
        uint16_t taken = simt_exec_lanes(u, w, pc, active, d, now);
        w->prev_done = NEVER; /* known at dispatch */
        for (uint16_t m = u->scoreboard ? simt_regs_written(d) : 0; m; m &= m - 1) {
            w->reg_done[__builtin_ctz(m)] = NEVER;
            w->reg_ld &= (uint16_t)~(m & -m);
        }
        if (d.op == ISA_BNZ) {
            bool divergent;
            w->bnz_done = NEVER;
            h->leave = simt_stack_branch(&w->st, pc, d.b, w->ipdom[pc], taken, &divergent);
            w->rec.divergent_branches += divergent;
        } else if (d.op == ISA_READY || next == SIMT_EXIT) {
            h->leave = active;
        } else {
            simt_stack_advance(&w->st, next);
        }
        if (h->leave)
            simt_stack_leave(&w->st, h->leave); /* they finish when it completes */
    }
    simt_front_check(w);
    return true;
}

/* The issue phase of cycle `now` (S5, S6, S12): the scheduler orders the
 * warps that S3/S4/S11 allow; in that order they issue while fewer than
 * issue_width have issued and a collector is free. Every resident warp's
 * cycle is counted. Returns false when a lane's budget stopped the run. */
static bool issue_phase(simt_t *u, sim_time_t now)
{
    uint8_t reason[SIMT_WARPS_MAX], slot[SIMT_WARPS_MAX], order[SIMT_WARPS_MAX];
    uint64_t age[SIMT_WARPS_MAX];
    unsigned n = 0;
    uint16_t ready = 0;
    for (uint16_t m = u->live; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        reason[i] = (uint8_t)blocked(u, &u->w[i], now);
        if (reason[i] == GPU_SIMT_STALLS) {
            age[n] = u->w[i].age;
            slot[n++] = (uint8_t)i;
            ready |= (uint16_t)(1u << i);
        }
    }
    if (n <= 1) /* as decide(): one warp needs no order */
        order[0] = 0;
    else if (u->sched_plugin)
        simt_order_by_plugin(u, now, ready, age, n, order);
    else
        simt_sched_order(u->sched, age, n, &u->last, order);
    unsigned issued = 0;
    bool ok = true;
    for (unsigned j = 0; j < n; j++) {
        unsigned i = slot[order[j]];
        if (issued >= u->width) {
            reason[i] = GPU_SIMT_STALL_ISSUE;
        } else if (!simt_coll_free(u)) {
            reason[i] = GPU_SIMT_STALL_COLLECTOR;
        } else if (!ok || !(ok = issue(u, &u->w[i], issued, n, now))) {
            reason[i] = GPU_SIMT_STALL_ISSUE; /* the run stopped (S10) */
        } else {
            u->last.age[issued++] = u->w[i].age;
        }
    }
    if (issued) {
        u->last.n = (uint8_t)issued;
        u->issue_cycles++;
    }
    for (uint16_t m = u->live; m; m &= m - 1) { /* "Counting": this cycle's reason */
        simt_warp_t *w = &u->w[__builtin_ctz(m)];
        simt_account(u, w, now);
        w->acct_slot = simt_wait_slot(w);
        if (reason[w - u->w] == GPU_SIMT_STALLS) { /* issued: the reason of the cycles
                                                       after it, unless decided again */
            w->acct_ps = now + u->period;
            w->acct_reason = (uint8_t)simt_wait_reason(u, w, w->acct_ps);
        } else
            w->acct_reason = reason[w - u->w];
    }
    return ok;
}

/* The passes of ld/st that start at `now` (S13), in dispatch order. */
static void passes(simt_t *u, sim_time_t now)
{
    simt_warp_t *due[SIMT_WARPS_MAX];
    unsigned n = 0;
    for (uint16_t m = u->live; m; m &= m - 1) {
        simt_warp_t *w = &u->w[__builtin_ctz(m)];
        if (w->pass_at != now)
            continue;
        unsigned j = n++;
        for (; j > 0 && due[j - 1]->mem_seq > w->mem_seq; j--)
            due[j] = due[j - 1];
        due[j] = w;
    }
    for (unsigned i = 0; i < n; i++)
        simt_lsu_pass(u, due[i], now);
}

static sim_time_t tmin(sim_time_t a, sim_time_t b) { return a < b ? a : b; }

/* When w next needs a decision: the next cycle while anything of its own
 * moves in the pipeline (an instruction held, a pass due, a fetch it may
 * get, an issue it may make); else when S3/S4 let it issue, its fetch
 * arrives or its stall reason may change (its ld/st or bnz completes: an
 * unknown completion wakes the unit itself), or its close-out. Between two
 * decisions its stall reason stays the same. */
static sim_time_t warp_next(const simt_t *u, const simt_warp_t *w, sim_time_t now)
{
    sim_time_t cycle = now + u->period;
    if (!w->lanes) /* (its ld/st may complete before: memory → execute) */
        return w->mem_done > now ? tmin(w->end, w->mem_done) : w->end;
    if (w->held.busy || w->pass_at != NEVER || (u->ibuffer && simt_front_ready(u, w, now)))
        return cycle;
    sim_time_t at = w->fetch_at;
    if (simt_has_next(w))
        at = tmin(at, simt_tmax(simt_ready_at(u, w), cycle));
    if (w->mem_done > now)
        at = tmin(at, w->mem_done);
    if (w->bnz_done > now)
        at = tmin(at, w->bnz_done);
    return at;
}

/* The next decision: the earliest warp_next. */
static sim_time_t next_decision(const simt_t *u, sim_time_t now)
{
    sim_time_t next = NEVER;
    for (uint16_t m = u->live; m; m &= m - 1)
        next = tmin(next, warp_next(u, &u->w[__builtin_ctz(m)], now));
    return next;
}

sim_time_t simt_pipe_cycle(simt_t *u, sim_time_t now)
{
    simt_front_arrive(u, now);
    if (!issue_phase(u, now))
        return NEVER;
    simt_collect(u, now);
    passes(u, now);
    if (u->ibuffer)
        simt_front_fetch(u, now);
    return next_decision(u, now);
}

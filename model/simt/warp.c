/* warp.c — a warp's life in the SIMT unit (SIMT-SPEC S1, S7, T5, T6): it
 * becomes resident when its task starts, its lanes leave it (`ready`, slot
 * 15) and finish, and it is closed out — its counts reported and added to
 * the unit's totals — when its last lane has finished (or, partial, at the
 * end of a run). Invariant: a live warp's lanes are in lane_warp[]. */
#include "model/simt/unit.h"

#include <string.h>

void simt_finish_lanes(simt_t *u, simt_warp_t *w, uint16_t lanes, const sim_time_t *at)
{
    for (uint16_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        w->end = simt_tmax(w->end, at[l]);
        if (!core_lane_finish(&u->cores[l], u->lane_n[l] + w->uniform_n, at[l]))
            return;
    }
    w->lanes &= (uint16_t)~lanes;
    if (!w->lanes) {
        u->drained |= (uint16_t)(1u << (w - u->w));
        simt_wake(u, w->end); /* close it out when its last lane has finished */
    }
}

__attribute__((noinline)) void simt_lanes_leave(simt_t *u, simt_warp_t *w, uint16_t lanes,
                                                 sim_time_t done)
{
    sim_time_t f = u->scoreboard ? simt_tmax(w->alu_done, w->mem_done) : done;
    sim_time_t at[ISA_REGS];
    if (f == NEVER) {
        w->pending |= lanes;
        for (uint16_t m = lanes; m; m &= m - 1)
            w->lane_alu[__builtin_ctz(m)] = u->scoreboard ? w->alu_done : 0;
        return;
    }
    for (unsigned l = 0; l < ISA_REGS; l++)
        at[l] = f;
    simt_finish_lanes(u, w, lanes, at);
}

/* --- closing out --------------------------------------------------------------- */

static void trace_warp(simt_t *u, simt_warp_t *w, bool complete)
{
    gpu_tr_simt_warp_t *r = &w->rec;
    r->frame = w->frame;
    r->mask = w->mask;
    r->complete = complete;
    r->start_ps = w->age;
    r->end_ps = complete ? w->end : NEVER;
    r->max_stack_depth = w->st.max_depth;
    if (u->bar) { /* S14: groups and barriers in place of the stack */
        r->max_stack_depth = 0;
        simt_grp_counts(u, w, &r->max_groups, &r->barriers);
    }
    r->issued_cycles = r->warp_instructions;
    r->resident_cycles = ((complete ? w->end : w->acct_ps) - w->age) / u->period;
    if (u->gpu->trace & GPU_TRACE_WARPS)
        sim_trace(u->sim, GPU_TR_SIMT_WARP, r);
    if (u->gpu->trace & GPU_TRACE_SLOTS)
        gpu_slots_warp(u->gpu, w->frame, w->nlanes, w->slot_issued, w->slot_idle,
                       (const uint64_t(*)[GPU_SIMT_STALLS])w->slot_stall);
}

static void add_totals(simt_t *u, const gpu_tr_simt_warp_t *r, const simt_warp_t *w)
{
    gpu_tr_simt_warp_t *t = &u->total;
    t->warp_instructions += r->warp_instructions;
    t->lane_instructions += r->lane_instructions;
    t->divergent_branches += r->divergent_branches;
    t->max_groups = r->max_groups > t->max_groups ? r->max_groups : t->max_groups;
    t->barriers += r->barriers;
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

void simt_close_warp(simt_t *u, simt_warp_t *w)
{
    simt_account(u, w, w->end);
    trace_warp(u, w, true);
    add_totals(u, &w->rec, w);
    for (uint16_t m = w->mask; m; m &= m - 1)
        if (u->lane_warp[__builtin_ctz(m)] == (int8_t)(w - u->w))
            u->lane_warp[__builtin_ctz(m)] = -1;
    retire(u, w);
}

void simt_close_partial(simt_t *u, simt_warp_t *w, sim_time_t now)
{
    if (!w->lanes && w->end <= now) {
        simt_close_warp(u, w);
        return;
    }
    simt_account(u, w, now);
    if (u->bar)
        simt_grp_close(u, w);
    trace_warp(u, w, false);
    add_totals(u, &w->rec, w);
    retire(u, w);
}

/* --- starting ------------------------------------------------------------------ */

static void warp_init(simt_t *u, simt_warp_t *w, unsigned frame, uint16_t mask, sim_time_t now)
{
    memset(w, 0, sizeof *w);
    w->live = true;
    w->frame = (uint8_t)frame;
    w->mask = w->lanes = mask;
    w->nlanes = (uint8_t)__builtin_popcount(mask);
    w->age = w->acct_ps = w->next_ok = w->prev_done = now;
    w->acct_reason = GPU_SIMT_STALL_ISSUE;
    w->fetch_at = w->pass_at = NEVER;
    w->rf_base = (uint8_t)__builtin_ctz(mask);
    isa_decode_frame(u->gpu->prog.tm.code[frame], w->code);
    for (unsigned pc = 0; pc < ISA_SLOTS - 1; pc++) {
        unsigned op = w->code[pc].op;
        if (!simt_is_mem(op) && op != ISA_READY)
            w->alu_slots |= (uint16_t)(1u << pc);
    }
    simt_ipdom(w->code, w->ipdom); /* S7: once per task */
    simt_stack_init(&w->st, mask);
}

/* Lane `lane` starts the warp's task now (T4: R0 initialisation applied). */
static void lane_start(simt_t *u, simt_warp_t *w, unsigned lane, const engine_task_t *task,
                       sim_time_t now)
{
    u->lane_warp[lane] = (int8_t)(w - u->w);
    core_lane_start(&u->cores[lane], task->frame, w->code, now);
    u->port[lane].req->frame = (uint16_t)task->frame;
    if (task->init >> lane & 1)
        u->rf.r[0][lane] = task->r0[lane];
    u->lane_n[lane] = 0;
}

void simt_warp_start(simt_t *u, simt_warp_t *w, const engine_task_t *task, sim_time_t now)
{
    warp_init(u, w, task->frame, task->cores, now);
    if (u->bar)
        simt_grp_start(u, w, now);
    u->live |= (uint16_t)(1u << (w - u->w));
    u->near_budget |= u->budget <= 1;
    if (u->watch_from == 0)
        simt_nearing_budget(u, w);
    for (uint16_t m = task->cores; m; m &= m - 1)
        lane_start(u, w, (unsigned)__builtin_ctz(m), task, now);
}

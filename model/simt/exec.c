/* exec.c — the SIMT unit's execution units (SIMT-SPEC S3, S4, S13, T6): a
 * non-memory warp instruction's register work runs on its active lanes
 * through isa.c's lane operations (one decode for all lanes) at issue; its
 * completion is its latency after issue (S1–S10), or under the pipeline
 * after the start of its last pass on an SP or SFU unit of simt.sp_width /
 * simt.sfu_width lanes (S13). There are simt.issue_width units of each kind
 * (SP, SFU, LSU); each starts at most one pass per cycle and serves one
 * instruction's passes before the next's. */
#include "model/simt/unit.h"

/* Runs a non-memory instruction on the active lanes (one decode for all:
 * isa_exec_lanes); returns the lanes whose branch is taken (bnz). */
static uint16_t exec_lanes(simt_t *u, uint16_t active, isa_decoded_t d)
{
    if (d.op == ISA_BNZ)
        return isa_bnz_taken(&u->rf, active, d);
    for (uint16_t m = isa_exec_lanes(&u->rf, active, d); m; m &= m - 1)
        core_lane_div_by_zero(&u->cores[__builtin_ctz(m)]);
    return 0;
}

uint16_t simt_exec_lanes(simt_t *u, const simt_warp_t *w, unsigned pc, uint16_t active,
                         isa_decoded_t d, sim_time_t now)
{
    uint16_t taken = exec_lanes(u, active, d);
    if (__builtin_expect(u->itrace != NULL, 0))
        simt_trace_insn(u, w, pc, active, now);
    return taken;
}

/* The instruction completed at `done`: the times S3 and S4 wait for. */
static void completes(simt_t *u, simt_warp_t *w, isa_decoded_t d, sim_time_t done)
{
    w->alu_done = simt_tmax(w->alu_done, done);
    w->prev_done = done;
    for (uint16_t m = u->scoreboard ? simt_regs_written(d) : 0; m; m &= m - 1) {
        w->reg_done[__builtin_ctz(m)] = done; /* S4 (a): only the scoreboard reads them */
        w->reg_ld &= (uint16_t)~(m & -m);
    }
}

sim_time_t simt_exec(simt_t *u, simt_warp_t *w, unsigned pc, uint16_t active, isa_decoded_t d,
                     sim_time_t now, uint16_t *taken)
{
    *taken = simt_exec_lanes(u, w, pc, active, d, now);
    sim_time_t done =
        now + (u->lat_fixed ? u->op_lat_ps[d.op] : simt_latency(u, isa_class((isa_op_t)d.op)));
    completes(u, w, d, done);
    return done;
}

/* --- S13: units and passes --------------------------------------------------- */

unsigned simt_unit_kind(unsigned op)
{
    if (op == ISA_MUL || op == ISA_DIV)
        return SIMT_SFU;
    return simt_is_mem(op) ? SIMT_LSU : SIMT_SP;
}

sim_time_t simt_take_unit(simt_t *u, unsigned kind, unsigned passes, sim_time_t now)
{
    sim_time_t *free = u->unit_free[kind];
    unsigned best = 0;
    for (unsigned i = 1; i < u->width; i++)
        if (simt_tmax(free[i], now) < simt_tmax(free[best], now))
            best = i;
    sim_time_t start = simt_tmax(free[best], now);
    free[best] = start + passes * u->period;
    return start;
}

void simt_dispatch(simt_t *u, simt_warp_t *w, sim_time_t now)
{
    simt_held_t *h = &w->held;
    unsigned kind = simt_unit_kind(h->d.op), k = u->unit_width[kind];
    unsigned passes = ((unsigned)__builtin_popcount(h->active) + k - 1) / k;
    sim_time_t start = simt_take_unit(u, kind, passes, now);
    h->busy = false;
    simt_coll_release(u, h->coll); /* free for an issue in the next cycle (S12) */
    if (h->mem) {
        w->pass_at = start;
        w->pass_j = 0;
        w->passes = (uint8_t)passes;
        w->mem_seq = h->seq;
        return;
    }
    sim_time_t last = start + (passes - 1) * u->period;
    sim_time_t done = last + (u->lat_fixed ? u->op_lat_ps[h->d.op]
                                           : simt_latency(u, isa_class((isa_op_t)h->d.op)));
    completes(u, w, h->d, done);
    if (h->d.op == ISA_BNZ)
        w->bnz_done = done; /* S7: the next slot is known from then on (S4 (c), S11) */
    if (h->leave)
        simt_lanes_leave(u, w, h->leave, done);
}

/* exec.c — the SIMT unit's execution of register work (SIMT-SPEC S3, S4,
 * T6): a non-memory warp instruction runs on its active lanes through
 * isa.c's lane operations (one decode for all lanes), completes its latency
 * after issue, and sets the times the scoreboard waits for. */
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

sim_time_t simt_exec(simt_t *u, simt_warp_t *w, unsigned pc, uint16_t active, isa_decoded_t d,
                     sim_time_t now, uint16_t *taken)
{
    *taken = exec_lanes(u, active, d);
    if (__builtin_expect(u->itrace != NULL, 0))
        simt_trace_insn(u, w, pc, active, now);
    sim_time_t done =
        now + (u->lat_fixed ? u->op_lat_ps[d.op] : simt_latency(u, isa_class((isa_op_t)d.op)));
    w->alu_done = simt_tmax(w->alu_done, done);
    w->prev_done = done;
    for (uint16_t m = u->scoreboard ? simt_regs_written(d) : 0; m; m &= m - 1) {
        w->reg_done[__builtin_ctz(m)] = done; /* S4 (a): only the scoreboard reads them */
        w->reg_ld &= (uint16_t)~(m & -m);
    }
    return done;
}

/* trace.c — what the SIMT unit reports as it issues, off the hot path:
 * the instruction trace (itrace.h), the issue trace (GPU_TR_SIMT_ISSUE) and
 * the lanes' instructions in the interval statistics. Called only when the
 * corresponding observer is on. */
#include "model/simt/unit.h"

#include "model/sm.h"

/* The instruction trace's record of warp w's instruction in slot `pc`,
 * issued at `when` on lanes `active`, with the lanes' registers as they are
 * now (after it); for a ld/st (its answers all in), addresses, banks and
 * the byte each lane read or wrote. Off the hot path: only when traced. */
__attribute__((noinline, cold)) void simt_trace_insn(simt_t *u, const simt_warp_t *w, unsigned pc,
                                                     uint16_t active, sim_time_t when)
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
        if (simt_is_mem(d->op)) {
            r.addr[l] = w->mem_ops.addr[l];
            r.bank[l] = (uint8_t)sm_bank_of(u->sm, w->mem_ops.addr[l]);
            r.value[l] = regs[l][d->c];
        }
    }
    r.mem = simt_is_mem(d->op);
    r.store = d->op == ISA_ST;
    u->itrace(u->itrace_user, &r);
}

__attribute__((noinline, cold)) void simt_trace_issue(simt_t *u, simt_warp_t *w, unsigned pc,
                                                      uint16_t active, unsigned order,
                                                      unsigned eligible, sim_time_t now)
{
    gpu_tr_simt_issue_t r = {
        .time_ps = now, .frame = w->frame, .slot = (uint8_t)pc,
        .op = w->code[pc].op, .order = (uint8_t)order,
        .depth = (uint8_t)(u->bar ? simt_grp_groups(u, w) : w->st.depth),
        .eligible = (uint8_t)eligible, .active = active, .mask = w->lanes | w->pending,
    };
    sim_trace(u->sim, GPU_TR_SIMT_ISSUE, &r);
}

/* Interval statistics (record.interval, the window): each active lane
 * started one instruction at `now`, as a core counts its own (coreN.instructions),
 * and the issue port one warp instruction. */
__attribute__((noinline, cold)) void simt_ivl_lanes(struct gpu *g, uint16_t active, sim_time_t now)
{
    for (uint16_t m = active; m; m &= m - 1)
        gpu_ivl_add(g, IVL_CORE_INSTR, (unsigned)__builtin_ctz(m), now, 1);
    gpu_ivl_add(g, IVL_SIMT_ISSUED, 0, now, 1); /* the warp instruction (the issue port) */
}

__attribute__((noinline, cold)) void simt_ivl_stall(struct gpu *g, unsigned reason,
                                                     sim_time_t from, sim_time_t to)
{
    gpu_ivl_span(g, IVL_SIMT_STALL, reason, from, to);
}


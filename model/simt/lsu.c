/* lsu.c — the SIMT unit's load/store unit (SIMT-SPEC S8): a warp's ld/st
 * becomes one SM request per active lane (or per distinct byte with
 * simt.broadcast), sent through the unit's own link for each lane, and
 * completes when its last answer arrives. Invariant: one ld/st in flight per
 * warp; mem_wait holds the lanes whose request is unanswered. */
#include "model/simt/unit.h"

#include "model/sm.h"


__attribute__((noinline)) uint16_t simt_merge_lanes(uint16_t *fanout, uint16_t active,
                                                    uint16_t sync, const uint16_t *addr)
{
    uint16_t send = 0;
    for (uint16_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        fanout[l] = (uint16_t)(1u << l);
        if (!(sync >> l & 1)) {
            for (uint16_t before = (uint16_t)(send & ~sync); before; before &= before - 1) {
                unsigned k = (unsigned)__builtin_ctz(before);
                if (addr[k] == addr[l]) {
                    fanout[k] |= (uint16_t)(1u << l);
                    fanout[l] = 0;
                    break;
                }
            }
        }
        if (fanout[l])
            send |= (uint16_t)(1u << l);
    }
    return send;
}

__attribute__((noinline)) unsigned simt_bank_replays(const sm_t *sm, uint16_t send,
                                                     const uint16_t *addr, unsigned *banks)
{
    uint8_t per_bank[SM_BANKS_MAX] = {0};
    unsigned most = 0;
    *banks = 0;
    for (uint16_t m = send; m; m &= m - 1) {
        unsigned q = ++per_bank[sm_bank_of(sm, addr[__builtin_ctz(m)])];
        *banks += q == 1;
        most = q > most ? q : most;
    }
    return most - 1;
}

/* The race detector's part of a warp's ld/st (off the hot path): every
 * active lane's access, the lane as the core, as that core's own ld/st would
 * be noted under core.model = mimd (model/core.c race_request) — merged
 * (broadcast) lanes access their byte all the same. */
__attribute__((noinline, cold)) void simt_race_lanes(simt_t *u, unsigned frame, uint16_t active,
                                                     unsigned pc, bool store,
                                                     const isa_mem_lanes_t *ops)
{
    for (uint16_t m = active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        race_access(u->gpu->races, frame, l, pc, store, ops->sync >> l & 1, ops->addr[l]);
    }
}

/* A ld/st issued at `now` on `active`: its operands read (isa_mem_lanes into
 * w->mem_ops), the lanes that send (a broadcast merges a ld's), and the
 * warp's state of a ld/st in flight, set before its first request leaves.
 * The race detector, when on, notes every active lane's access. Both paths
 * begin a ld/st with it (simt_issue_mem, simt_lsu_prepare); returns the
 * sending lanes (also in w->mem_send). */
static inline __attribute__((always_inline)) uint16_t mem_begin(simt_t *u, simt_warp_t *w,
                                                              uint16_t active, unsigned pc,
                                                              isa_decoded_t d, sim_time_t now)
{
    bool store = d.op == ISA_ST;
    isa_mem_lanes_t *ops = &w->mem_ops; /* a ld's t->data is the SM's to set */
    isa_mem_lanes(&u->rf, active, d, (store ? ISA_MEM_VALUE : 0) | (u->atomics ? ISA_MEM_SYNC : 0),
                  ops);
    if (u->gpu->races) /* every lane's access, whichever pass sends it */
        simt_race_lanes(u, w->frame, active, pc, store, ops);
    uint16_t send = active;
    w->mem_merged = u->broadcast && !store;
    if (w->mem_merged)
        send = simt_merge_lanes(w->fanout, active, ops->sync, ops->addr);
    w->mem_store = store;
    w->mem_reg = d.c;
    w->mem_slot = (uint8_t)pc;
    w->mem_lanes = active;
    w->mem_send = send;
    w->mem_issue = now;
    w->mem_max = 0;
    w->mem_wait = send;
    w->rec.mem_instructions++;
    w->prev_done = w->mem_done = NEVER;
    if (!store) {
        w->reg_done[d.c] = NEVER;
        w->reg_ld |= (uint16_t)(1u << d.c);
    }
    return send;
}

/* S8: sends the active lanes' requests of a ld/st issued at `now`. The
 * warp's state says what is in flight before the first request leaves; its
 * bank figures (requests, banks touched, replays) are counted as the
 * requests leave and set after the last, before any answer (the SM answers
 * in its own event, never within a request). */
GPU_NO_SLP __attribute__((noinline)) void simt_issue_mem(simt_t *u, simt_warp_t *w, uint16_t active,
                                                       unsigned pc, isa_decoded_t d,
                                                       sim_time_t now)
{
    uint16_t send = mem_begin(u, w, active, pc, d, now);
    bool store = d.op == ISA_ST;
    const isa_mem_lanes_t *ops = &w->mem_ops;
    const sm_t *sm = u->sm; /* a local: through u, each request's stores would reload it */
    uint16_t sync = ops->sync;
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
        simt_port_t *p = &u->port[l];                                                       \
        txn_t *t = p->req;                                                                  \
        uint64_t bit = UINT64_C(1) << sm_bank_of(sm, ops->addr[l]);                        \
        twice |= seen & bit;                                                                \
        seen |= bit;                                                                        \
        requests++;                                                                         \
        t->addr = ops->addr[l];                                                             \
        t->flags = (FLAGS);                                                                 \
        t->data = ops->value[l];                                                            \
        t->t_created = t->t_sent = now;                                                     \
        p->arrive = (ARRIVE);                                                               \
        link_send(&p->mem, t, p->arrive); /* to the SM, in the machine's timing mode */     \
    } while (0)
    if (fixed && !sync) {
        for (uint16_t m = send; m; m &= m - 1)
            SEND((unsigned)__builtin_ctz(m), flags, arrive);
    } else {
        for (uint16_t m = send; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            SEND(l, (uint16_t)(flags | (sync >> l & 1 ? GPU_TXN_SYNC : 0)),
                 fixed ? arrive : now + simt_latency(u, ISA_CLASS_LD));
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
        most = simt_bank_replays(sm, send, ops->addr, &banks) + 1;
    }
    w->mem_requests = (uint8_t)requests;
    w->mem_banks = (uint8_t)banks;
    w->mem_replays = (uint8_t)(most - 1);
    w->rec.requests += w->mem_requests;
    w->rec.replays += w->mem_replays;
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
    w->pass_at = NEVER; /* S13: passes still due hold only merged lanes (S8): they send
                           nothing, and their cycles are the unit's (unit_free) */
    if (__builtin_expect(u->itrace != NULL, 0))
        simt_trace_insn(u, w, w->mem_slot, w->mem_lanes, w->mem_issue);
    if (w->prev_done == NEVER)
        w->prev_done = done;
    if (!w->mem_store && w->reg_done[w->mem_reg] == NEVER)
        w->reg_done[w->mem_reg] = done;
    if (u->gpu->trace & GPU_TRACE_WARPS)
        trace_mem(u, w);
    if (w->pending) {
        sim_time_t at[ISA_REGS];
        for (unsigned l = 0; l < ISA_REGS; l++)
            at[l] = simt_tmax(w->lane_alu[l], done);
        uint16_t lanes = w->pending;
        w->pending = 0;
        simt_finish_lanes(u, w, lanes, at);
    }
    simt_wake(u, done);
}

/* What every answer does: lane l's request is served. */
static inline __attribute__((always_inline)) void answered(simt_t *u, simt_warp_t *w, unsigned l,
                                                           const txn_t *t)
{
    core_lane_access(&u->cores[l], 1, 0, t->t_granted - u->port[l].arrive);
    w->mem_max = simt_tmax(w->mem_max, t->t_done);
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
        u->rf.r[w->mem_reg][__builtin_ctz(m)] = (uint8_t)t->data; /* merged requests are ld's */
        core_lane_access(&u->cores[__builtin_ctz(m)], 0, t->t_done - t->t_created, 0);
    }
    answered(u, w, l, t);
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
    if (!w->mem_store) /* its own request */
        u->rf.r[w->mem_reg][l] = (uint8_t)t->data; /* the byte read at the grant */
    core_lane_access(&u->cores[l], 0, t->t_done - t->t_created, 0);
    answered(u, w, l, t);
}

void simt_on_answer_ivl(void *unit, txn_t *t)
{
    simt_t *u = unit;
    const simt_warp_t *w = &u->w[u->lane_warp[t->core]];
    uint16_t lanes = u->bar ? simt_grp_answer_lanes(u, t->core)
                   : w->mem_merged ? w->fanout[t->core] : (uint16_t)(1u << t->core);
    for (uint16_t m = lanes; m; m &= m - 1) /* as each lane's sm_wait_ps counts */
        gpu_ivl_span(u->gpu, IVL_CORE_WAIT, (unsigned)__builtin_ctz(m), t->t_created, t->t_done);
    if (u->bar)
        simt_grp_answer(u, t);
    else
        simt_on_answer(unit, t);
}

/* --- under the pipeline (S12, S13) -------------------------------------------- */

void simt_lsu_prepare(simt_t *u, simt_warp_t *w, uint16_t active, unsigned pc, isa_decoded_t d,
                      sim_time_t now)
{
    uint16_t send = mem_begin(u, w, active, pc, d, now); /* S12: every pass uses the values
                                                            read now */
    const isa_mem_lanes_t *ops = &w->mem_ops;
    const sm_t *sm = u->sm;
    unsigned requests = 0, banks;
    uint64_t seen = 0, twice = 0; /* banks touched; touched more than once */
    for (uint16_t m = send; m; m &= m - 1) {
        uint64_t bit = UINT64_C(1) << sm_bank_of(sm, ops->addr[__builtin_ctz(m)]);
        twice |= seen & bit;
        seen |= bit;
        requests++;
    }
    /* S8: replays = the most requests to one bank, less one (as simt_issue_mem) */
    if (!twice) /* every request to its own bank */
        banks = requests, w->mem_replays = 0;
    else if (!(seen & (seen - 1))) /* all to one bank */
        banks = 1, w->mem_replays = (uint8_t)(requests - 1);
    else
        w->mem_replays = (uint8_t)simt_bank_replays(sm, send, ops->addr, &banks);
    w->mem_requests = (uint8_t)requests;
    w->mem_banks = (uint8_t)banks;
    w->rec.requests += w->mem_requests;
    w->rec.replays += w->mem_replays;
}

void simt_lsu_pass(simt_t *u, simt_warp_t *w, sim_time_t now)
{
    uint16_t chunk = w->pass_lanes, rest = chunk; /* the next lsu_width lanes */
    for (unsigned i = 0; i < u->unit_width[SIMT_LSU] && rest; i++)
        rest &= (uint16_t)(rest - 1);
    chunk &= (uint16_t)~rest; /* (rest: the later passes' lanes) */
    /* locals: each request's call to the SM would make them reloads */
    const isa_mem_lanes_t *ops = &w->mem_ops;
    uint16_t flags = w->mem_store ? GPU_TXN_STORE : 0, sync = ops->sync;
    bool fixed = lat_is_fixed(u->lat[ISA_CLASS_LD]);
    sim_time_t arrive = now + u->lat_ps[ISA_CLASS_LD];
    for (uint16_t m = chunk & w->mem_send; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        simt_port_t *p = &u->port[l];
        txn_t *t = p->req;
        t->addr = ops->addr[l];
        t->flags = (uint16_t)(flags | (sync >> l & 1 ? GPU_TXN_SYNC : 0));
        t->data = ops->value[l];
        t->t_created = t->t_sent = now;
        p->arrive = fixed ? arrive : now + simt_latency(u, ISA_CLASS_LD);
        link_send(&p->mem, t, p->arrive); /* to the SM, in the machine's timing mode */
    }
    w->pass_lanes = rest;
    w->pass_at = rest ? now + u->period : NEVER;
}

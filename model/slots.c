/* slots.c — the slot profile (gpu_trace.h, gpu_tr_slot_t): where each
 * instruction slot's cycles went, summed per core (MIMD) or for the SIMT
 * unit, per frame, over the run. A core's task is charged when it ends (or,
 * still running, at the end of the run) from what it kept on the way — its
 * taken bnz by slot (isa_run), its SM waits by slot, its drawn latencies by
 * slot — so that its instruction loop counts nothing per instruction; a warp
 * is charged when it is closed out (the SIMT unit counts per slot as it
 * goes). Invariant: Σ over a core's slots of execute_ps + sm_wait_ps is its
 * busy time, Σ sm_wait_ps its SM wait; Σ over a frame's SIMT slots of
 * issued and stall cycles are its warps'. */
#include "model/core.h"
#include "model/gpu_impl.h"

/* Σ n[]. */
static uint64_t total(const uint64_t n[ISA_SLOTS])
{
    uint64_t t = 0;
    for (unsigned s = 0; s < ISA_SLOTS; s++)
        t += n[s];
    return t;
}

void gpu_slots_core(gpu_t *g, const core_t *c, bool complete)
{
    const isa_run_t *run = &c->run;
    unsigned ip = run->ip < ISA_SLOTS ? run->ip : ISA_SLOTS;
    uint64_t n[ISA_SLOTS];
    bool waiting = false;
    if (complete) {
        /* ended by a ld/st in slot 15 (at its answer), else by the instruction
           that ended its last run (ready, or leaving slot 15) */
        isa_slot_counts(c->code, run->taken, c->end_after_answer ? ISA_SLOTS - 1 : run->last_ip,
                        ISA_SLOTS, n);
    } else {
        /* still running: about to run ip — or waiting for the answer of the
           ld/st at ip, which ran: then the counts with ip not run fall one
           short of the instructions it ran */
        isa_slot_counts(c->code, run->taken, ISA_SLOTS, ip, n);
        if (ip < ISA_SLOTS && total(n) + 1 == run->n) {
            waiting = true;
            isa_slot_counts(c->code, run->taken, ISA_SLOTS, ip + 1, n);
        }
    }
    gpu_tr_slot_t *p = g->slots[c->id][c->frame];
    sim_time_t charged = 0;
    for (unsigned s = 0; s < ISA_SLOTS; s++) {
        unsigned op = c->code[s].op;
        sim_time_t exec = op == ISA_LD || op == ISA_ST ? 0 : n[s] * run->lat[isa_class(op)];
        exec += c->slot_exec[s];
        p[s].tasks++;
        p[s].instructions += n[s];
        p[s].lane_instructions += n[s];
        p[s].execute_ps += exec;
        p[s].sm_wait_ps += c->slot_wait[s];
        charged += exec + c->slot_wait[s];
    }
    if (complete)
        return;
    /* up to the stop: an unanswered ld/st has waited since it started (as
       core_tasks counts it: not SM wait), the last instruction's latency
       is cut at the stop (modulo 2^64: the sums stay exact) */
    sim_time_t busy = sim_now(c->sim) - c->task_start;
    unsigned at = waiting || !run->n || run->last_ip >= ISA_SLOTS
                      ? (ip < ISA_SLOTS ? ip : ISA_SLOTS - 1) : run->last_ip;
    p[at].execute_ps += busy - charged;
}

void gpu_slots_warp(gpu_t *g, unsigned frame, unsigned nlanes,
                    const uint64_t issued[ISA_SLOTS], const uint64_t idle[ISA_SLOTS],
                    const uint64_t stall[ISA_SLOTS][GPU_SIMT_STALLS])
{
    gpu_tr_slot_t *p = g->slots[0][frame];
    for (unsigned s = 0; s < ISA_SLOTS; s++) {
        p[s].tasks++;
        p[s].instructions += issued[s];
        p[s].lane_instructions += issued[s] * nlanes - idle[s];
        p[s].issued_cycles += issued[s];
        for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
            p[s].stall_cycles[k] += stall[s][k];
    }
}

/* Anything charged to the slot? */
static bool charged(const gpu_tr_slot_t *p)
{
    uint64_t any = p->instructions | p->issued_cycles | p->execute_ps | p->sm_wait_ps;
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
        any |= p->stall_cycles[k];
    return any != 0;
}

void gpu_slots_report(gpu_t *g)
{
    unsigned units = g->desc.model == GPU_MODEL_SIMT ? 1 : GPU_CORES;
    for (unsigned f = 0; f < TM_FRAMES; f++)
        for (unsigned c = 0; c < units; c++)
            for (unsigned s = 0; s < ISA_SLOTS; s++) {
                gpu_tr_slot_t *p = &g->slots[c][f][s];
                if (!charged(p))
                    continue;
                p->frame = (uint8_t)f;
                p->core = g->desc.model == GPU_MODEL_SIMT ? GPU_SLOT_SIMT : (uint8_t)c;
                p->slot = (uint8_t)s;
                p->groups = g->desc.model == GPU_MODEL_SIMT && g->desc.simt_reconvergence == GPU_RECONV_BARRIER;
                p->word = g->prog.tm.code[f][s];
                sim_trace(g->sim, GPU_TR_SLOT, p);
            }
}

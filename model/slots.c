/* slots.c — the slot profile (gpu_trace.h, gpu_tr_slot_t): where each
 * instruction slot's cycles went, summed per core (MIMD) or for the SIMT
 * unit, per frame, over the run, in struct gpu's sums (slots[][][]) that
 * the blocks feed. A core charges its task itself when it ends (or, still
 * running, at the end of the run: core.c charge_slots); a warp is charged
 * here when it is closed out (the SIMT unit counts per slot as it goes).
 * Invariant: Σ over a core's slots of execute_ps + sm_wait_ps is its busy
 * time, Σ sm_wait_ps its SM wait; Σ over a frame's SIMT slots of issued and
 * stall cycles are its warps'. */
#include "model/gpu_impl.h"

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

/* arch.h — the architectural state a run ends with: every core's registers
 * and the Shared Memory. Both executors (the untimed ISS and the timed model)
 * produce one, so that their results can be compared byte for byte (D4:
 * registers are zero at reset and persist across tasks). */
#ifndef TESSERA_ARCH_H
#define TESSERA_ARCH_H

#include <stdint.h>
#include <string.h>

#include "model/isa.h"
#include "model/tm.h"

#define ARCH_DEFAULT_BUDGET (UINT64_C(1) << 26) /* D12: instructions per core per task */

typedef struct arch_state {
    uint8_t regs[GPU_CORES][ISA_REGS]; /* core-major: the --dump-regs layout */
    uint8_t sm[SM_BYTES];
} arch_state_t;

/* Registers zero (D4), SM from `sm` (NULL: zero). */
static inline void arch_reset(arch_state_t *s, const uint8_t *sm)
{
    memset(s->regs, 0, sizeof s->regs);
    if (sm)
        memcpy(s->sm, sm, SM_BYTES);
    else
        memset(s->sm, 0, SM_BYTES);
}

/* Applies a group's R0 initialisation (D3: only cores in Core_Active_Vect). */
static inline void arch_init_r0(arch_state_t *s, const tm_group_t *g, uint16_t cores)
{
    uint16_t m = g->init_vect & g->cores & cores;
    for (unsigned c = 0; c < GPU_CORES; c++)
        if (m & (1u << c))
            s->regs[c][0] = g->init_r0[c];
}

#endif

/* stack.h — the SIMT unit's control flow (SIMT-SPEC S2, S4, S7): immediate
 * post-dominators of a task's control-flow graph, the SIMT reconvergence
 * stack and the scoreboard's register sets. No time, no simulation: small
 * functions over small values, tested on their own (tests/test_simt_flow.c). Private to model/simt/.
 * Invariant: a stack never holds more than SIMT_STACK_MAX entries (each
 * divergence splits the top entry's lanes; see simt_stack_branch). */
#ifndef TESSERA_SIMT_STACK_H
#define TESSERA_SIMT_STACK_H

#include <stdbool.h>
#include <stdint.h>

#include "model/isa.h"

#define SIMT_EXIT 16u       /* the CFG's exit node: past slot 15, or `ready` (S7) */
#define SIMT_STACK_MAX 40   /* > 2 entries per nested split × 15 splits + 1 */
#define SIMT_WARPS_MAX 16   /* resident warps have disjoint, non-empty lane masks (S1) */

/* S7: for every slot p of a task (code[0..15], decoded), its immediate
 * post-dominator in the CFG whose nodes are slots 0..15 and SIMT_EXIT (a
 * non-branch slot p goes to p+1, slot 15 and `ready` go to EXIT, a `bnz` at p
 * to its target and to p+1 or EXIT). out[p] is 0..15 or SIMT_EXIT. Every
 * node reaches EXIT by falling through, so the result is always defined. */
void simt_ipdom(const isa_decoded_t code[ISA_SLOTS], uint8_t out[ISA_SLOTS] /* OUT */);

/* One SIMT stack entry (S2): reconvergence slot, next slot, lanes. */
typedef struct simt_entry {
    uint8_t rpc;              /* reconvergence slot, 0..15 or SIMT_EXIT */
    uint8_t pc;               /* next slot, 0..15 or SIMT_EXIT */
    uint16_t mask;            /* the lanes of this path */
} simt_entry_t;

typedef struct simt_stack {
    uint8_t depth;            /* entries in e[0..depth), e[depth-1] the top */
    uint8_t max_depth;        /* the deepest it has been (counting) */
    simt_entry_t e[SIMT_STACK_MAX];
} simt_stack_t;

/* S2: one entry (EXIT, 0, mask). */
void simt_stack_init(simt_stack_t *s, uint16_t mask);

static inline bool simt_stack_empty(const simt_stack_t *s) { return s->depth == 0; }
static inline const simt_entry_t *simt_stack_top(const simt_stack_t *s)
{
    return &s->e[s->depth - 1];
}

/* S7: pops while the top entry's next slot equals its reconvergence slot or
 * its mask is empty. */
void simt_stack_pop(simt_stack_t *s);

/* A non-branch instruction issued from the top entry: its next slot becomes
 * `next` (SIMT_EXIT past slot 15), then pops. */
void simt_stack_advance(simt_stack_t *s, unsigned next);

/* Lanes that leave the warp (`ready`, leaving slot 15) are removed from
 * every entry; then pops. */
void simt_stack_leave(simt_stack_t *s, uint16_t lanes);

/* S7: the effect of a `bnz` at slot p with `target`, reconvergence slot r
 * (simt_ipdom), issued by the top entry's lanes of which `taken` jump.
 * Uniform: the top's next slot becomes target or p+1 (EXIT for p = 15).
 * Divergent: the top's next slot becomes r, then (r, target, taken) and
 * (r, p+1, not taken) are pushed, more lanes on top, not-taken on top on a
 * tie; an entry whose next slot equals r is not pushed. Then pops. Returns
 * the lanes that leave the warp (those not taken at p = 15: they go to EXIT;
 * the caller removes them with simt_stack_leave) and sets *divergent. */
uint16_t simt_stack_branch(simt_stack_t *s, unsigned p, unsigned target, unsigned r,
                           uint16_t taken, bool *divergent /* OUT */);

/* S4 (a): the registers an instruction reads at issue and the registers it
 * writes, as bit masks (bit i = R[i]). */
uint16_t simt_regs_read(isa_decoded_t d);
uint16_t simt_regs_written(isa_decoded_t d);

#endif

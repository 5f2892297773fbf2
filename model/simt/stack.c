/* stack.c — post-dominators, the reconvergence stack and scoreboard sets of
 * the SIMT unit (SIMT-SPEC S2, S4, S7; see stack.h). Pure functions; the
 * unit's stages (issue.c, lsu.c, warp.c) add time. */
#include "model/simt/stack.h"

#include <assert.h>
#include <string.h>

/* --- S7: immediate post-dominators ------------------------------------------ */

#define NODES (ISA_SLOTS + 1) /* slots 0..15 and EXIT */

/* The successors of slot p as a bit set over the nodes. */
static uint32_t successors(const isa_decoded_t code[ISA_SLOTS], unsigned p)
{
    const isa_decoded_t d = code[p];
    if (d.op == ISA_READY)
        return 1u << SIMT_EXIT;
    uint32_t s = 1u << (p + 1); /* p = 15: EXIT */
    if (d.op == ISA_BNZ)
        s |= 1u << d.b;
    return s;
}

void simt_ipdom(const isa_decoded_t code[ISA_SLOTS], uint8_t out[ISA_SLOTS])
{
    const uint32_t all = (1u << NODES) - 1;
    uint32_t succ[ISA_SLOTS], pdom[NODES];
    for (unsigned p = 0; p < ISA_SLOTS; p++) {
        succ[p] = successors(code, p);
        pdom[p] = all;
    }
    pdom[SIMT_EXIT] = 1u << SIMT_EXIT;
    /* pdom(n) = {n} ∪ ⋂ pdom(successors); backward order converges fast */
    for (bool changed = true; changed;) {
        changed = false;
        for (int p = ISA_SLOTS - 1; p >= 0; p--) {
            uint32_t m = all;
            for (uint32_t s = succ[p]; s; s &= s - 1)
                m &= pdom[__builtin_ctz(s)];
            m |= 1u << p;
            changed |= m != pdom[p];
            pdom[p] = m;
        }
    }
    /* the immediate one: the strict post-dominator whose own set is all the others */
    for (unsigned p = 0; p < ISA_SLOTS; p++) {
        uint32_t strict = pdom[p] & ~(1u << p);
        out[p] = SIMT_EXIT;
        for (uint32_t m = strict; m; m &= m - 1) {
            unsigned d = (unsigned)__builtin_ctz(m);
            if (pdom[d] == strict) {
                out[p] = (uint8_t)d;
                break;
            }
        }
    }
}

/* --- S2, S7: the stack ------------------------------------------------------ */

void simt_stack_init(simt_stack_t *s, uint16_t mask)
{
    s->depth = 1;
    s->max_depth = 1;
    s->e[0] = (simt_entry_t){.rpc = SIMT_EXIT, .pc = 0, .mask = mask};
}

void simt_stack_pop(simt_stack_t *s)
{
    while (s->depth > 0) {
        const simt_entry_t *t = &s->e[s->depth - 1];
        if (t->pc != t->rpc && t->mask != 0)
            return;
        s->depth--;
    }
}

void simt_stack_advance(simt_stack_t *s, unsigned next)
{
    assert(s->depth > 0);
    if (s->depth == 0)
        return;
    s->e[s->depth - 1].pc = (uint8_t)next;
    simt_stack_pop(s);
}

void simt_stack_leave(simt_stack_t *s, uint16_t lanes)
{
    for (unsigned i = 0; i < s->depth; i++)
        s->e[i].mask &= (uint16_t)~lanes;
    simt_stack_pop(s);
}

static void push(simt_stack_t *s, unsigned rpc, unsigned pc, uint16_t mask)
{
    if (pc == rpc || mask == 0)
        return; /* S7: an entry whose next slot would equal r is not pushed */
    assert(s->depth < SIMT_STACK_MAX);
    s->e[s->depth++] = (simt_entry_t){.rpc = (uint8_t)rpc, .pc = (uint8_t)pc, .mask = mask};
    if (s->depth > s->max_depth)
        s->max_depth = s->depth;
}

uint16_t simt_stack_branch(simt_stack_t *s, unsigned p, unsigned target, unsigned r,
                           uint16_t taken, bool *divergent)
{
    assert(s->depth > 0);
    if (s->depth == 0)
        return 0;
    simt_entry_t *top = &s->e[s->depth - 1];
    uint16_t active = top->mask, not_taken = (uint16_t)(active & ~taken);
    unsigned fall = p + 1; /* p = 15: EXIT */
    taken &= active;
    *divergent = taken && not_taken && target != fall;
    if (!*divergent) {
        simt_stack_advance(s, taken ? target : fall);
        return taken || fall != SIMT_EXIT ? 0 : active; /* not taken in slot 15: all leave */
    }
    top->pc = (uint8_t)r;
    unsigned nt = (unsigned)__builtin_popcount(not_taken), tk = (unsigned)__builtin_popcount(taken);
    if (tk > nt) { /* more lanes on top: it runs first; a tie puts fall-through on top */
        push(s, r, fall, not_taken);
        push(s, r, target, taken);
    } else {
        push(s, r, target, taken);
        push(s, r, fall, not_taken);
    }
    simt_stack_pop(s);
    return fall == SIMT_EXIT ? not_taken : 0; /* r = EXIT: the not-taken lanes leave */
}

/* --- S4 (a): scoreboard sets ------------------------------------------------- */

uint16_t simt_regs_read(isa_decoded_t d)
{
    switch (d.op) {
    case ISA_NOP:
    case ISA_SET_CONST:
    case ISA_READY: return 0;
    case ISA_RSHFT:
    case ISA_LSHFT:
    case ISA_BNZ: return (uint16_t)(1u << d.a); /* shifts: b is an immediate (D7) */
    case ISA_ST: return (uint16_t)(1u << d.a | 1u << d.b | 1u << d.c);
    default: return (uint16_t)(1u << d.a | 1u << d.b); /* F1 and ld */
    }
}

uint16_t simt_regs_written(isa_decoded_t d)
{
    switch (d.op) {
    case ISA_NOP:
    case ISA_ST:
    case ISA_BNZ:
    case ISA_READY: return 0;
    case ISA_MUL: return (uint16_t)(1u << d.c | 1u << ((d.c + 1) & 0xf)); /* c = 15: R0 */
    default: return (uint16_t)(1u << d.c); /* F1, ld; set_const: R[d] is field c */
    }
}

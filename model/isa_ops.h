/* isa_ops.h — the semantics of the opcodes as inline pieces (spec §4,
 * D6–D10, D13, D16): the register work, the memory operands, the branch test
 * and each opcode's latency class. Private to the ISA's executors: isa.c and
 * the threaded run loop (isa_run_body.h) that the core includes. */
#ifndef TESSERA_ISA_OPS_H
#define TESSERA_ISA_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/isa.h"

/* op_info[].cls as bytes: read on every executed instruction */
static const uint8_t op_class[ISA_OPS_COUNT] __attribute__((unused)) = {
#define OP_CLASS(id, code, nm, fmt, cl) [ISA_##id] = cl,
    ISA_OPS(OP_CLASS)
#undef OP_CLASS
};

/* D13: byte address {R[b][3:0], R[a][7:0]}; D16: R[b][7:6] == 01 marks a sync access. */
static inline uint16_t mem_addr(const uint8_t *r, unsigned a, unsigned b)
{
    return (uint16_t)(((r[b] & 0xfu) << 8) | r[a]);
}

static inline bool mem_sync(const uint8_t *r, unsigned b) { return (r[b] >> 6) == 1; }

static inline void mem_operands(const uint8_t *r, unsigned a, unsigned b, isa_step_t *mem)
{
    mem->addr = mem_addr(r, a, b);
    mem->sync = mem_sync(r, b);
}

/* bnz: if R[a] ≠ 0, IP ← target. */
static inline bool bnz_taken(const uint8_t *r, unsigned a) { return r[a] != 0; }

/* The register work of one instruction that is not ld, st, bnz or ready
 * (D6–D10): the one definition of those opcodes, inlined with a constant op
 * into isa_run's loop and isa_exec_lanes's. Returns 1 for a div by zero (D8). */
static inline __attribute__((always_inline)) unsigned reg_work(uint8_t *restrict r,
                                                              unsigned core_id, unsigned op,
                                                              unsigned a, unsigned b, unsigned c)
{
    switch (op) {
    case ISA_ADD: r[c] = (uint8_t)(r[a] + r[b]); break;                     /* mod 256 */
    case ISA_SUB: r[c] = (uint8_t)(r[a] - r[b]); break;                     /* mod 256 */
    case ISA_MUL: {
        unsigned p = (unsigned)r[a] * r[b];                                   /* 16-bit product */
        r[c] = (uint8_t)p;
        r[(c + 1) & 0xf] = (uint8_t)(p >> 8);                                 /* c = 15 → R0 */
        break;
    }
    case ISA_DIV:
        if (r[b] == 0) {                                                      /* D8 */
            r[c] = 0xff;
            return 1;
        }
        r[c] = (uint8_t)(r[a] / r[b]);
        break;
    case ISA_CMPGE: r[c] = r[a] >= r[b]; break;                              /* D6: unsigned */
    case ISA_RSHFT: r[c] = (uint8_t)(r[a] >> (b & 7)); break;                /* D7 */
    case ISA_LSHFT: r[c] = (uint8_t)(r[a] << (b & 7)); break;                /* D7 */
    case ISA_AND: r[c] = r[a] & r[b]; break;
    case ISA_OR: r[c] = r[a] | r[b]; break;
    case ISA_XOR: r[c] = r[a] ^ r[b]; break;
    case ISA_SET_CONST:                                                       /* D9 */
        r[c] = c < 8 ? (uint8_t)(core_id & 0xf) : (uint8_t)(a << 4 | b);      /* const[7:0] */
        break;
    default: break;                                                           /* nop */
    }
    return 0;
}

#endif

/* isa_ops.h — the semantics of the opcodes as inline pieces (spec §4,
 * D6–D10, D13, D16): the register work, the memory operands, the branch test
 * and each opcode's latency class. Private to model/isa.c,
 * model/isa_run_body.h, model/core.c (the ISA's executors: isa.c and the
 * threaded run loop, which the core includes). */
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

/* The values of the opcodes (D6–D10, D13, D16), as functions of the
 * source registers' values: the one definition, used by reg_work below (one
 * register file) and by the warp's lanes (isa.c: a loop over the lanes of one
 * register, which the compiler turns into vector operations). */

/* D13: byte address {R[b][3:0], R[a][7:0]}; D16: R[b][7:6] == 01 marks a sync access. */
static inline uint16_t addr_of(uint8_t ra, uint8_t rb) { return (uint16_t)(((rb & 0xfu) << 8) | ra); }
static inline bool sync_of(uint8_t rb) { return (rb >> 6) == 1; }
/* bnz: if R[a] ≠ 0, IP ← target. */
static inline bool taken_of(uint8_t ra) { return ra != 0; }

static inline uint8_t add_of(uint8_t x, uint8_t y) { return (uint8_t)(x + y); }   /* mod 256 */
static inline uint8_t sub_of(uint8_t x, uint8_t y) { return (uint8_t)(x - y); }   /* mod 256 */
static inline uint16_t mul_of(uint8_t x, uint8_t y) { return (uint16_t)(x * y); } /* 16-bit
                                                        product: low byte to R[c], high to R[c+1] */
static inline bool div0_of(uint8_t y) { return y == 0; }                          /* D8 */
static inline uint8_t div_of(uint8_t x, uint8_t y) { return y ? (uint8_t)(x / y) : 0xff; }
static inline uint8_t cmpge_of(uint8_t x, uint8_t y) { return x >= y; }           /* D6: unsigned */
static inline uint8_t rshft_of(uint8_t x, unsigned b) { return (uint8_t)(x >> (b & 7)); } /* D7 */
static inline uint8_t lshft_of(uint8_t x, unsigned b) { return (uint8_t)(x << (b & 7)); } /* D7 */
static inline uint8_t and_of(uint8_t x, uint8_t y) { return x & y; }
static inline uint8_t or_of(uint8_t x, uint8_t y) { return x | y; }
static inline uint8_t xor_of(uint8_t x, uint8_t y) { return x ^ y; }
/* D9: set_const rD with c < 8 is the core id, else the constant {a, b} (const[7:0]). */
static inline uint8_t set_const_of(unsigned core_id, unsigned a, unsigned b, unsigned c)
{
    return c < 8 ? (uint8_t)(core_id & 0xf) : (uint8_t)(a << 4 | b);
}
/* The register that receives a mul's high byte: c = 15 → R0. */
static inline unsigned mul_high_reg(unsigned c) { return (c + 1) & 0xf; }

static inline uint16_t mem_addr(const uint8_t *r, unsigned a, unsigned b)
{
    return addr_of(r[a], r[b]);
}

static inline bool mem_sync(const uint8_t *r, unsigned b) { return sync_of(r[b]); }

static inline void mem_operands(const uint8_t *r, unsigned a, unsigned b, isa_step_t *mem)
{
    mem->addr = mem_addr(r, a, b);
    mem->sync = mem_sync(r, b);
}

static inline bool bnz_taken(const uint8_t *r, unsigned a) { return taken_of(r[a]); }

/* The register work of one instruction that is not ld, st, bnz or ready
 * on one register file, inlined with a constant op into isa_run's loop.
 * Returns 1 for a div by zero (D8). */
static inline __attribute__((always_inline)) unsigned reg_work(uint8_t *restrict r,
                                                              unsigned core_id, unsigned op,
                                                              unsigned a, unsigned b, unsigned c)
{
    switch (op) {
    case ISA_ADD: r[c] = add_of(r[a], r[b]); break;
    case ISA_SUB: r[c] = sub_of(r[a], r[b]); break;
    case ISA_MUL: {
        unsigned p = mul_of(r[a], r[b]);
        r[c] = (uint8_t)p;
        r[mul_high_reg(c)] = (uint8_t)(p >> 8);
        break;
    }
    case ISA_DIV:
        if (div0_of(r[b])) {
            r[c] = div_of(r[a], 0);
            return 1;
        }
        r[c] = div_of(r[a], r[b]);
        break;
    case ISA_CMPGE: r[c] = cmpge_of(r[a], r[b]); break;
    case ISA_RSHFT: r[c] = rshft_of(r[a], b); break;
    case ISA_LSHFT: r[c] = lshft_of(r[a], b); break;
    case ISA_AND: r[c] = and_of(r[a], r[b]); break;
    case ISA_OR: r[c] = or_of(r[a], r[b]); break;
    case ISA_XOR: r[c] = xor_of(r[a], r[b]); break;
    case ISA_SET_CONST: r[c] = set_const_of(core_id, a, b, c); break;
    default: break;                                                           /* nop */
    }
    return 0;
}

#endif

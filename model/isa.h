/* isa.h — the core instruction set (spec §4, D6–D11, D16): the single home of
 * instruction semantics. Pure functions over a register file; memory accesses
 * are not performed here but described (address, value) so that every executor
 * — the untimed ISS and the timed core — performs them its own way.
 * Invariant: isa_exec never reads or writes anything but its arguments. */
#ifndef TESSERA_ISA_H
#define TESSERA_ISA_H

#include <stdbool.h>
#include <stdint.h>

#include "model/sizes.h"
#include "model/xenum.h"

/* Assembly operand shapes (spec §4 and §5), for the assembler and disassembler. */
typedef enum isa_format {
    ISA_FMT_NONE,      /* nop, ready */
    ISA_FMT_RRR,       /* add a, b, c        — registers */
    ISA_FMT_RIR,       /* rshft a, b, c      — b is an immediate 0..15 (D7 uses b[2:0]) */
    ISA_FMT_LD,        /* ld [a, b], c */
    ISA_FMT_ST,        /* st [a, b], c */
    ISA_FMT_SET_CONST, /* set_const rD, id | set_const rD, imm (D9) */
    ISA_FMT_BNZ,       /* bnz target, a      — target in field b */
} isa_format_t;

/* Latency classes of the reference timing model (T6, T7), one list
 * (xenum.h): X(PREFIX, ID, "name", the gpu_desc_t field of its latency).
 * The core-local classes come first: isa_run adds their latency itself;
 * ld and st stop the run (their latency is the request's, sm.req). */
#define ISA_CLASSES(X)                                                                      \
    X(ISA_CLASS_, ALU, "alu", core_alu)                                                      \
    X(ISA_CLASS_, MUL, "mul", core_mul)                                                      \
    X(ISA_CLASS_, DIV, "div", core_div)                                                      \
    X(ISA_CLASS_, BRANCH, "branch", core_branch)                                             \
    X(ISA_CLASS_, READY, "ready", core_ready)                                                \
    X(ISA_CLASS_, LD, "ld", sm_req)                                                          \
    X(ISA_CLASS_, ST, "st", sm_req)

typedef enum isa_class { ISA_CLASSES(XENUM_ID) ISA_CLASS_COUNT } isa_class_t;
#define ISA_CLASS_LOCAL (ISA_CLASS_READY + 1) /* classes isa_run times itself */

/* The 16 opcodes (spec §4), one list: X(ID, opcode, "mnemonic", operand
 * format, latency class). Yields isa_op_t and the table behind
 * isa_mnemonic, isa_format and isa_class. */
#define ISA_OPS(X)                                                                          \
    X(NOP, 0x0, "nop", ISA_FMT_NONE, ISA_CLASS_ALU)                                          \
    X(ADD, 0x1, "add", ISA_FMT_RRR, ISA_CLASS_ALU)                                           \
    X(SUB, 0x2, "sub", ISA_FMT_RRR, ISA_CLASS_ALU)                                           \
    X(MUL, 0x3, "mul", ISA_FMT_RRR, ISA_CLASS_MUL)                                           \
    X(DIV, 0x4, "div", ISA_FMT_RRR, ISA_CLASS_DIV)                                           \
    X(CMPGE, 0x5, "cmpge", ISA_FMT_RRR, ISA_CLASS_ALU)                                       \
    X(RSHFT, 0x6, "rshft", ISA_FMT_RIR, ISA_CLASS_ALU)                                       \
    X(LSHFT, 0x7, "lshft", ISA_FMT_RIR, ISA_CLASS_ALU)                                       \
    X(AND, 0x8, "and", ISA_FMT_RRR, ISA_CLASS_ALU)                                           \
    X(OR, 0x9, "or", ISA_FMT_RRR, ISA_CLASS_ALU)                                             \
    X(XOR, 0xa, "xor", ISA_FMT_RRR, ISA_CLASS_ALU)                                           \
    X(LD, 0xb, "ld", ISA_FMT_LD, ISA_CLASS_LD)                                               \
    X(SET_CONST, 0xc, "set_const", ISA_FMT_SET_CONST, ISA_CLASS_ALU)                         \
    X(ST, 0xd, "st", ISA_FMT_ST, ISA_CLASS_ST)                                               \
    X(BNZ, 0xe, "bnz", ISA_FMT_BNZ, ISA_CLASS_BRANCH)                                        \
    X(READY, 0xf, "ready", ISA_FMT_NONE, ISA_CLASS_READY)

#define ISA_OP_ENUM(id, code, name, fmt, cls) ISA_##id = (code),
typedef enum isa_op { ISA_OPS(ISA_OP_ENUM) } isa_op_t;
#define ISA_OPS_COUNT 16 /* a 4-bit opcode: every value is an instruction */

static inline unsigned isa_opc(uint16_t w) { return w >> 12; }
static inline unsigned isa_fa(uint16_t w) { return (w >> 8) & 0xf; }
static inline unsigned isa_fb(uint16_t w) { return (w >> 4) & 0xf; }
static inline unsigned isa_fc(uint16_t w) { return w & 0xf; }
static inline uint16_t isa_make(unsigned op, unsigned a, unsigned b, unsigned c)
{
    return (uint16_t)(((op & 0xf) << 12) | ((a & 0xf) << 8) | ((b & 0xf) << 4) | (c & 0xf));
}
/* set_const rD, imm: F2 puts the 8-bit constant in [11:4]. */
static inline uint16_t isa_make_set_const(unsigned d, unsigned imm)
{
    return (uint16_t)((ISA_SET_CONST << 12) | ((imm & 0xff) << 4) | (d & 0xf));
}

const char *isa_mnemonic(isa_op_t op);     /* "add", "set_const", … */
isa_format_t isa_format(isa_op_t op);
isa_class_t isa_class(isa_op_t op);

/* What one executed instruction did, beyond its register writes. */
typedef struct isa_step {
    uint8_t cls;          /* isa_class_t of the instruction */
    uint8_t next_ip;      /* slot of the next instruction when !finished */
    bool finished;        /* the task ends after this instruction (D11) */
    bool div_by_zero;     /* a div by zero wrote 0xFF (D8) */
    bool sync;            /* ld/st whose high-address register has bits [7:6] = 01 (D16);
                             meaningful only when the caller enables atomics */
    uint8_t reg;          /* ld: destination register */
    uint8_t value;        /* st: the byte to store (read at issue, D10) */
    uint16_t addr;        /* ld/st: {R[b][3:0], R[a][7:0]} (D13) */
} isa_step_t;

/* Executes the instruction `word` in slot `ip` (0..15) of core `core_id` on
 * the register file `r`. ALU results are written to `r` at once; a ld leaves
 * its destination untouched until isa_ld_complete(). Never fails. */
void isa_exec(uint8_t r[ISA_REGS], unsigned core_id, unsigned ip, uint16_t word,
              isa_step_t *out /* OUT */);

/* An instruction's fields, extracted once (isa_decode) so that a loop that
 * executes the same slots many times does not decode them again. */
typedef struct isa_decoded {
    uint8_t op, a, b, c;      /* [15:12], [11:8], [7:4], [3:0] */
} isa_decoded_t;

static inline isa_decoded_t isa_decode(uint16_t w)
{
    return (isa_decoded_t){(uint8_t)isa_opc(w), (uint8_t)isa_fa(w), (uint8_t)isa_fb(w),
                           (uint8_t)isa_fc(w)};
}

/* Decodes a task's 16 instruction words. */
static inline void isa_decode_frame(const uint16_t code[ISA_SLOTS], isa_decoded_t out[ISA_SLOTS])
{
    for (unsigned i = 0; i < ISA_SLOTS; i++)
        out[i] = isa_decode(code[i]);
}

/* The op of the slot after the last (no instruction: reaching it is leaving
 * slot 15, which ends the task, D11), so that isa_run needs no test of the
 * slot number per instruction. */
#define ISA_OP_END ISA_OPS_COUNT
#define ISA_TASK_SLOTS (ISA_SLOTS + 1) /* a task as isa_run reads it */

/* Decodes a task's 16 instruction words for isa_run: the 16 slots, then
 * ISA_OP_END. */
static inline void isa_decode_task(const uint16_t code[ISA_SLOTS],
                                   isa_decoded_t out[ISA_TASK_SLOTS])
{
    isa_decode_frame(code, out);
    out[ISA_SLOTS] = (isa_decoded_t){ISA_OP_END, 0, 0, 0};
}

/* A run of core-local instructions (isa_run): executes instructions from
 * slot `ip` until one needs memory (ld/st: described in `last`, not counted
 * as finished), the task ends (ready or leaving slot 15, D11), or `budget`
 * instructions have run. Each executed instruction adds lat[class] to `t`. */
typedef struct isa_run {
    const isa_decoded_t *code;/* in: the task's 16 instructions and the end
                                 (ISA_TASK_SLOTS, isa_decode_task) */
    const uint64_t *lat;      /* in: latency by isa_class_t (ALU..READY) */
    uint64_t budget;          /* in: stop when n reaches it (the next is not run) */
    unsigned ip;              /* in/out: the next instruction's slot */
    uint64_t t;               /* in/out: when the next instruction starts */
    uint64_t n;               /* in/out: instructions executed */
    uint64_t div_by_zero;     /* in/out: D8 events */
    isa_step_t last;          /* out: the instruction that stopped the run */
    uint64_t taken[ISA_SLOTS];/* in/out: taken bnz by slot (the slot profile derives every
                                 slot's count from these: isa_slot_counts) */
    uint8_t last_ip;          /* out: the slot of the last instruction run when the run
                                 ended otherwise than at a ld/st (which is at ip); unchanged
                                 when none ran */
} isa_run_t;

typedef enum isa_stop {
    ISA_STOP_MEMORY,          /* last is a ld/st, executed up to its access; t is its start */
    ISA_STOP_FINISHED,        /* the task ended; t is when its last latency elapsed */
    ISA_STOP_BUDGET,          /* n == budget; ip is the instruction not run */
} isa_stop_t;

/* Runs instructions as described above; the semantics are isa_exec's. */
isa_stop_t isa_run(uint8_t r[ISA_REGS], unsigned core_id, isa_run_t *run);

/* How often each slot ran in a task that started at slot 0 and ran as
 * `run` says: from the taken bnz (run->taken) and the flow between slots —
 * a slot is entered by a taken bnz, by the one before it when that did not
 * branch or end the task, or at the start (slot 0). `end` is the slot whose
 * instruction ended the task (ready, slot 15, or a ld/st in slot 15), or
 * `next`, the slot the task would run next when it stopped before its end
 * (ISA_SLOTS: none), is given instead (end = ISA_SLOTS). Σ n = run->n. */
void isa_slot_counts(const isa_decoded_t code[ISA_SLOTS], const uint64_t taken[ISA_SLOTS],
                     unsigned end, unsigned next, uint64_t n[ISA_SLOTS] /* OUT */);

/* One decoded instruction on several cores at once (the lanes of a SIMT
 * warp, SIMT-SPEC S1). Their register files are laid out by register:
 * r[i][l] is lane l's R[i] (lane l's core id is l), so that one register of
 * every lane is 16 adjacent bytes and an instruction's register work is a
 * few vector operations on the host. */
#define ISA_LANES 16 /* lanes of a warp: one per core of the group */
typedef struct isa_lane_regs {
    _Alignas(16) uint8_t r[ISA_REGS][ISA_LANES];
} isa_lane_regs_t;

/* isa_exec_lanes does the register work of an instruction other than ld,
 * st, bnz and ready (those have no register work: their effect is the
 * caller's) on every lane of `lanes`, with the semantics of isa_run, and
 * returns the lanes whose div by zero wrote 0xFF (D8). isa_bnz_taken
 * returns the lanes of `lanes` on which the bnz `d` is taken. Registers of
 * other lanes are not written. */
uint16_t isa_exec_lanes(isa_lane_regs_t *rf, uint16_t lanes, isa_decoded_t d);
uint16_t isa_bnz_taken(const isa_lane_regs_t *rf, uint16_t lanes, isa_decoded_t d);
/* The operands of a ld/st on several lanes, as isa_run reads them. */
typedef struct isa_mem_lanes {
    uint16_t addr[ISA_LANES]; /* lane l's byte address {R[b][3:0], R[a][7:0]} (D13) */
    uint8_t value[ISA_LANES]; /* st: the byte lane l stores (read at issue, D10) */
    uint16_t sync;            /* the lanes whose R[b][7:6] = 01 (D16; meaningful only
                                 when the caller enables atomics) */
} isa_mem_lanes_t;

/* A ld/st `d` on the lanes of `lanes`: their addresses, and what `want`
 * asks for of ISA_MEM_VALUE (the store bytes) and ISA_MEM_SYNC (the sync
 * marks of `lanes`; out->sync is 0 when not asked for). Entries of other
 * lanes are their registers' too (every lane is computed at once); store
 * bytes not asked for are left as they were. A ld's destination is d.c on
 * every lane. */
enum { ISA_MEM_VALUE = 1, ISA_MEM_SYNC = 2 };
void isa_mem_lanes(const isa_lane_regs_t *rf, uint16_t lanes, isa_decoded_t d, unsigned want,
                   isa_mem_lanes_t *out /* OUT */);

/* Completes a ld described by `step` with the byte read from memory. */
static inline void isa_ld_complete(uint8_t r[ISA_REGS], const isa_step_t *step, uint8_t value)
{
    r[step->reg] = value;
}

#endif

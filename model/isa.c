/* isa.c — the semantics of the 16 opcodes (spec §4, D6–D11, D16): isa_run,
 * isa_exec and the SIMT unit's lane operations, built from the pieces of
 * isa_ops.h and the run loop of isa_run_body.h; no other file knows what an
 * opcode does. */
#include "model/isa.h"
#include "model/isa_ops.h"

#include <string.h>

static const struct {
    const char *name;
    isa_format_t format;
    isa_class_t cls;
} op_info[ISA_OPS_COUNT] = {
#define OP_INFO(id, code, nm, fmt, cl) [ISA_##id] = {nm, fmt, cl},
    ISA_OPS(OP_INFO)
#undef OP_INFO
};

const char *isa_mnemonic(isa_op_t op) { return op_info[op & 0xf].name; }
isa_format_t isa_format(isa_op_t op) { return op_info[op & 0xf].format; }
isa_class_t isa_class(isa_op_t op) { return op_info[op & 0xf].cls; }

/* The semantics of every opcode, once: the loop of isa_run
 * (model/isa_run_body.h, which the core's advance also includes: a function
 * with computed gotos is never inlined). isa_exec is a run of one
 * instruction. Each instruction does its register work (D10: sources are
 * read before destinations are written), adds its latency and goes to the
 * next slot; falling off slot 15 ends the task (D11). */
isa_stop_t isa_run(uint8_t r_[ISA_REGS], unsigned core_id, isa_run_t *run)
{
    uint8_t *restrict r = r_;
    isa_stop_t stop;
#include "model/isa_run_body.h"
    return stop;
}

uint16_t isa_exec_lanes(uint8_t *const regs[ISA_SLOTS], uint16_t lanes, isa_decoded_t d)
{
    unsigned a = d.a, b = d.b, c = d.c;
    uint16_t div0 = 0;
    switch (d.op) {
#define LANES(OP)                                                                           \
    case OP:                                                                                \
        if (lanes == 0xffff) { /* a whole warp of 16: a loop the compiler unrolls */        \
            for (unsigned l = 0; l < ISA_SLOTS; l++)                                        \
                div0 |= (uint16_t)(reg_work(regs[l], l, OP, a, b, c) << l);                 \
            break;                                                                          \
        }                                                                                   \
        for (uint16_t m = lanes; m; m &= m - 1) {                                           \
            unsigned l = (unsigned)__builtin_ctz(m);                                        \
            div0 |= (uint16_t)(reg_work(regs[l], l, OP, a, b, c) << l);                     \
        }                                                                                   \
        break;
    LANES(ISA_ADD) LANES(ISA_SUB) LANES(ISA_MUL) LANES(ISA_DIV) LANES(ISA_CMPGE)
    LANES(ISA_RSHFT) LANES(ISA_LSHFT) LANES(ISA_AND) LANES(ISA_OR) LANES(ISA_XOR)
    LANES(ISA_SET_CONST)
#undef LANES
    default: break; /* nop; the others are not register work */
    }
    return div0;
}

/* Runs BODY for each lane l of `lanes`; a whole warp of 16 as a loop the
 * compiler unrolls (the common case: no divergence). */
#define FOR_LANES(lanes, l, BODY)                                                           \
    do {                                                                                    \
        if ((lanes) == 0xffff) {                                                            \
            for (unsigned l = 0; l < ISA_SLOTS; l++) { BODY }                               \
        } else {                                                                            \
            for (uint16_t m_ = (lanes); m_; m_ &= m_ - 1) {                                 \
                unsigned l = (unsigned)__builtin_ctz(m_);                                   \
                BODY                                                                        \
            }                                                                               \
        }                                                                                   \
    } while (0)

uint16_t isa_bnz_taken(uint8_t *const regs[ISA_SLOTS], uint16_t lanes, isa_decoded_t d)
{
    unsigned taken = 0, a = d.a;
    FOR_LANES(lanes, l, taken |= (unsigned)bnz_taken(regs[l], a) << l;);
    return (uint16_t)taken;
}

void isa_mem_lanes(uint8_t *const regs[ISA_SLOTS], uint16_t lanes, isa_decoded_t d, unsigned want,
                   isa_mem_lanes_t *out)
{
    unsigned sync = 0, a = d.a, b = d.b, c = d.c;
    FOR_LANES(lanes, l, out->addr[l] = mem_addr(regs[l], a, b););
    if (want & ISA_MEM_VALUE) /* st: the byte to store (read at issue, D10) */
        FOR_LANES(lanes, l, out->value[l] = regs[l][c];);
    if (want & ISA_MEM_SYNC)
        FOR_LANES(lanes, l, sync |= (unsigned)mem_sync(regs[l], b) << l;);
    out->sync = (uint16_t)sync;
}

void isa_exec(uint8_t r[ISA_REGS], unsigned core_id, unsigned ip, uint16_t word,
              isa_step_t *out)
{
    static const uint64_t no_latency[ISA_CLASS_LOCAL];
    isa_run_t run = {.code = NULL, .lat = no_latency, .budget = 1, .ip = 0};
    isa_decoded_t code[ISA_TASK_SLOTS] = {{0}};
    code[ip & 0xf] = isa_decode(word);
    code[ISA_SLOTS].op = ISA_OP_END;
    run.code = code;
    run.ip = ip & 0xf;
    out->sync = false;
    run.last.sync = false;
    isa_stop_t stop = isa_run(r, core_id, &run);
    *out = run.last;
    out->cls = op_class[isa_opc(word)];
    out->div_by_zero = run.div_by_zero != 0;
    if (stop == ISA_STOP_MEMORY)
        out->next_ip = (uint8_t)(run.ip + 1);
    else if (stop == ISA_STOP_BUDGET)      /* one instruction ran and the task goes on */
        out->next_ip = (uint8_t)run.ip, out->finished = false;
    else                                   /* ready: IP ← 0; leaving slot 15: 16 */
        out->next_ip = run.ip == ISA_SLOTS ? ISA_SLOTS : 0;
}

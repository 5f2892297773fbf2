/* isa.c — the semantics of the 16 opcodes (spec §4, D6–D11, D16): isa_run,
 * isa_exec and the SIMT unit's lane operations, built from the pieces of
 * isa_ops.h and the run loop of isa_run_body.h; no other file knows what an
 * opcode does. */
#include "model/isa.h"
#include "model/isa_ops.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
    isa_step_t *last = &run->last;
    isa_stop_t stop;
#include "model/isa_run_body.h"
    return stop;
}

void isa_slot_counts(const isa_decoded_t code[ISA_SLOTS], const uint64_t taken[ISA_SLOTS],
                     unsigned end, unsigned next, uint64_t n[ISA_SLOTS])
{
    uint64_t into[ISA_SLOTS] = {1}; /* the start enters slot 0 */
    for (unsigned s = 0; s < ISA_SLOTS; s++)
        if (taken[s])
            into[code[s].b & (ISA_SLOTS - 1)] += taken[s];
    uint64_t seq = 0; /* what the slot before went on to its next */
    for (unsigned s = 0; s < ISA_SLOTS; s++) {
        n[s] = into[s] + seq - (s == next);
        seq = n[s] - taken[s] - (s == end);
    }
}

/* The lanes of `v` that are not 0, as a mask (bit l = lane l): one
 * compare and a byte mask with SSE2. */
static inline uint16_t nonzero_lanes(const uint8_t v[ISA_LANES])
{
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)v);
    return (uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128()));
#else
    unsigned m = 0;
    for (unsigned l = 0; l < ISA_LANES; l++)
        m |= (unsigned)(v[l] != 0) << l;
    return (uint16_t)m;
#endif
}

/* dst[l] = v[l] for the lanes of `lanes`: 16 bytes at once for a whole warp. */
static inline void write_lanes(uint8_t *restrict dst, const uint8_t *restrict v, uint16_t lanes)
{
    if (lanes == 0xffff) {
        memcpy(dst, v, ISA_LANES);
        return;
    }
    for (uint16_t m = lanes; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        dst[l] = v[l];
    }
}

/* Every lane's value of the instruction (isa_ops.h's functions on each lane's
 * sources: loops the compiler vectorises), then the active lanes' writes:
 * sources are read before any destination is written (D10). */
uint16_t isa_exec_lanes(isa_lane_regs_t *rf, uint16_t lanes, isa_decoded_t d)
{
    unsigned a = d.a, b = d.b, c = d.c;
    const uint8_t *x = rf->r[a], *y = rf->r[b];
    uint8_t v[ISA_LANES], hi[ISA_LANES], zero[ISA_LANES];
    uint16_t div0 = 0;
#define EACH_LANE(EXPR)                                                                         for (unsigned l = 0; l < ISA_LANES; l++)                                                        v[l] = (EXPR);                                                                          break
    switch (d.op) {
    case ISA_ADD: EACH_LANE(add_of(x[l], y[l]));
    case ISA_SUB: EACH_LANE(sub_of(x[l], y[l]));
    case ISA_CMPGE: EACH_LANE(cmpge_of(x[l], y[l]));
    case ISA_RSHFT: EACH_LANE(rshft_of(x[l], b));
    case ISA_LSHFT: EACH_LANE(lshft_of(x[l], b));
    case ISA_AND: EACH_LANE(and_of(x[l], y[l]));
    case ISA_OR: EACH_LANE(or_of(x[l], y[l]));
    case ISA_XOR: EACH_LANE(xor_of(x[l], y[l]));
    case ISA_SET_CONST: EACH_LANE(set_const_of(l, a, b, c));
    case ISA_MUL:
        for (unsigned l = 0; l < ISA_LANES; l++) {
            unsigned p = mul_of(x[l], y[l]);
            v[l] = (uint8_t)p;
            hi[l] = (uint8_t)(p >> 8);
        }
        write_lanes(rf->r[mul_high_reg(c)], hi, lanes);
        break;
    case ISA_DIV:
        for (unsigned l = 0; l < ISA_LANES; l++) {
            v[l] = div_of(x[l], y[l]);
            zero[l] = div0_of(y[l]);
        }
        div0 = nonzero_lanes(zero) & lanes;
        break;
    default: return 0; /* nop; the others are not register work */
    }
#undef EACH_LANE
    write_lanes(rf->r[c], v, lanes);
    return div0;
}

uint16_t isa_bnz_taken(const isa_lane_regs_t *rf, uint16_t lanes, isa_decoded_t d)
{
    uint8_t taken[ISA_LANES];
    for (unsigned l = 0; l < ISA_LANES; l++)
        taken[l] = taken_of(rf->r[d.a][l]);
    return nonzero_lanes(taken) & lanes;
}

void isa_mem_lanes(const isa_lane_regs_t *rf, uint16_t lanes, isa_decoded_t d, unsigned want,
                   isa_mem_lanes_t *out)
{
    const uint8_t *x = rf->r[d.a], *y = rf->r[d.b];
    for (unsigned l = 0; l < ISA_LANES; l++)
        out->addr[l] = addr_of(x[l], y[l]);
    if (want & ISA_MEM_VALUE) /* st: the byte to store (read at issue, D10) */
        memcpy(out->value, rf->r[d.c], ISA_LANES);
    out->sync = 0;
    if (want & ISA_MEM_SYNC) {
        uint8_t sync[ISA_LANES];
        for (unsigned l = 0; l < ISA_LANES; l++)
            sync[l] = sync_of(y[l]);
        out->sync = nonzero_lanes(sync) & lanes;
    }
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

/* isa.c — the semantics of the 16 opcodes (spec §4, D6–D11, D16). Every
 * executor calls isa_exec(); no other file knows what an opcode does. */
#include "model/isa.h"

static const struct {
    const char *name;
    isa_format_t format;
    isa_class_t cls;
} op_info[16] = {
    [ISA_NOP] = {"nop", ISA_FMT_NONE, ISA_CLASS_ALU},
    [ISA_ADD] = {"add", ISA_FMT_RRR, ISA_CLASS_ALU},
    [ISA_SUB] = {"sub", ISA_FMT_RRR, ISA_CLASS_ALU},
    [ISA_MUL] = {"mul", ISA_FMT_RRR, ISA_CLASS_MUL},
    [ISA_DIV] = {"div", ISA_FMT_RRR, ISA_CLASS_DIV},
    [ISA_CMPGE] = {"cmpge", ISA_FMT_RRR, ISA_CLASS_ALU},
    [ISA_RSHFT] = {"rshft", ISA_FMT_RIR, ISA_CLASS_ALU},
    [ISA_LSHFT] = {"lshft", ISA_FMT_RIR, ISA_CLASS_ALU},
    [ISA_AND] = {"and", ISA_FMT_RRR, ISA_CLASS_ALU},
    [ISA_OR] = {"or", ISA_FMT_RRR, ISA_CLASS_ALU},
    [ISA_XOR] = {"xor", ISA_FMT_RRR, ISA_CLASS_ALU},
    [ISA_LD] = {"ld", ISA_FMT_LD, ISA_CLASS_LD},
    [ISA_SET_CONST] = {"set_const", ISA_FMT_SET_CONST, ISA_CLASS_ALU},
    [ISA_ST] = {"st", ISA_FMT_ST, ISA_CLASS_ST},
    [ISA_BNZ] = {"bnz", ISA_FMT_BNZ, ISA_CLASS_BRANCH},
    [ISA_READY] = {"ready", ISA_FMT_NONE, ISA_CLASS_READY},
};

const char *isa_mnemonic(isa_op_t op) { return op_info[op & 0xf].name; }
isa_format_t isa_format(isa_op_t op) { return op_info[op & 0xf].format; }
isa_class_t isa_class(isa_op_t op) { return op_info[op & 0xf].cls; }

/* D13: byte address {R[b][3:0], R[a][7:0]}; D16: R[b][7:6] == 01 marks a sync access. */
static void mem_operands(const uint8_t r[ISA_REGS], unsigned a, unsigned b, isa_step_t *out)
{
    out->addr = (uint16_t)(((r[b] & 0xfu) << 8) | r[a]);
    out->sync = (r[b] >> 6) == 1;
}

void isa_exec(uint8_t r[ISA_REGS], unsigned core_id, unsigned ip, uint16_t word,
              isa_step_t *out)
{
    unsigned op = isa_opc(word), a = isa_fa(word), b = isa_fb(word), c = isa_fc(word);
    /* D10: every source is read before any destination is written. */
    unsigned ra = r[a], rb = r[b];

    out->cls = (uint8_t)op_info[op].cls;
    out->div_by_zero = false;
    out->sync = false;
    out->next_ip = (uint8_t)(ip + 1);

    switch (op) {
    case ISA_NOP: break;
    case ISA_ADD: r[c] = (uint8_t)(ra + rb); break;               /* mod 256 */
    case ISA_SUB: r[c] = (uint8_t)(ra - rb); break;               /* mod 256 */
    case ISA_MUL: {
        unsigned p = ra * rb;                                      /* 16-bit product */
        r[c] = (uint8_t)p;
        r[(c + 1) & 0xf] = (uint8_t)(p >> 8);                      /* c = 15 → R0 */
        break;
    }
    case ISA_DIV:
        if (rb == 0) {                                             /* D8 */
            r[c] = 0xff;
            out->div_by_zero = true;
        } else {
            r[c] = (uint8_t)(ra / rb);
        }
        break;
    case ISA_CMPGE: r[c] = ra >= rb ? 1 : 0; break;                /* D6: unsigned */
    case ISA_RSHFT: r[c] = (uint8_t)(ra >> (b & 7)); break;        /* D7: field b[2:0] */
    case ISA_LSHFT: r[c] = (uint8_t)(ra << (b & 7)); break;        /* D7, mod 256 */
    case ISA_AND: r[c] = (uint8_t)(ra & rb); break;
    case ISA_OR: r[c] = (uint8_t)(ra | rb); break;
    case ISA_XOR: r[c] = (uint8_t)(ra ^ rb); break;
    case ISA_LD:
        mem_operands(r, a, b, out);
        out->reg = (uint8_t)c;
        break;
    case ISA_SET_CONST:                                            /* D9 */
        r[c] = c < 8 ? (uint8_t)(core_id & 0xf) : (uint8_t)((word >> 4) & 0xff);
        break;
    case ISA_ST:
        mem_operands(r, a, b, out);
        out->value = r[c];
        break;
    case ISA_BNZ:
        if (ra != 0)
            out->next_ip = (uint8_t)b;                             /* taken: IP ← target */
        else if (ip == ISA_SLOTS - 1)
            out->next_ip = ISA_SLOTS;                              /* D11: not taken in slot 15 */
        out->finished = out->next_ip >= ISA_SLOTS;
        return;
    case ISA_READY:
        out->next_ip = 0;
        out->finished = true;
        return;
    }
    out->finished = out->next_ip >= ISA_SLOTS;                     /* D11: fell off slot 15 */
}

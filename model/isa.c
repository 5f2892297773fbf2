/* isa.c — the semantics of the 16 opcodes (spec §4, D6–D11, D16). Every
 * executor calls isa_exec(); no other file knows what an opcode does. */
#include "model/isa.h"

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

/* op_info[].cls as bytes: read on every executed instruction */
static const uint8_t op_class[ISA_OPS_COUNT] = {
#define OP_CLASS(id, code, nm, fmt, cl) [ISA_##id] = cl,
    ISA_OPS(OP_CLASS)
#undef OP_CLASS
};

const char *isa_mnemonic(isa_op_t op) { return op_info[op & 0xf].name; }
isa_format_t isa_format(isa_op_t op) { return op_info[op & 0xf].format; }
isa_class_t isa_class(isa_op_t op) { return op_info[op & 0xf].cls; }

/* The semantics of every opcode, once: the loop of isa_run. isa_exec is a
 * run of one instruction. Each case does its register work (D10: sources are
 * read before destinations are written), adds its latency and leaves the
 * next slot; falling off slot 15 ends the task (D11). */

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

/* isa_run is threaded: every instruction ends by jumping straight to the
 * next one's code (`goto *op_code[next op]`), so there is no loop head with a
 * shared dispatch and no per-instruction test of the slot: the decoded task
 * has a 17th slot (ISA_OP_END, isa_decode_task) whose code ends the task
 * (D11: left slot 15). The budget counts down from budget - n and is the one
 * test left per instruction. `s` is the slot running; `from`, set on the way
 * out, the slot of the last instruction run (its class goes to last->cls). */
isa_stop_t isa_run(uint8_t r_[ISA_REGS], unsigned core_id, isa_run_t *run)
{
    static const void *const op_code[ISA_OPS_COUNT + 1] = {
        [ISA_NOP] = &&op_nop,     [ISA_ADD] = &&op_add,     [ISA_SUB] = &&op_sub,
        [ISA_MUL] = &&op_mul,     [ISA_DIV] = &&op_div,     [ISA_CMPGE] = &&op_cmpge,
        [ISA_RSHFT] = &&op_rshft, [ISA_LSHFT] = &&op_lshft, [ISA_AND] = &&op_and,
        [ISA_OR] = &&op_or,       [ISA_XOR] = &&op_xor,     [ISA_LD] = &&op_ld,
        [ISA_SET_CONST] = &&op_set_const, [ISA_ST] = &&op_st, [ISA_BNZ] = &&op_bnz,
        [ISA_READY] = &&op_ready, [ISA_OP_END] = &&op_end,
    };
    uint8_t *restrict r = r_;
    const isa_decoded_t *restrict code = run->code;
    const uint64_t *restrict lat = run->lat;
    const isa_decoded_t *s = &code[run->ip], *from;
    uint64_t t = run->t, left = run->budget - run->n;
    isa_step_t *last = &run->last;
    isa_stop_t stop;
    unsigned cls = ISA_CLASS_ALU; /* of the last instruction run: none ran yet */
    if (left == 0) {
        stop = ISA_STOP_BUDGET;
        goto out_none;
    }
/* the next instruction in sequence, or the budget's stop */
#define NEXT()                                                                              \
    do {                                                                                    \
        s++;                                                                                \
        if (__builtin_expect(--left == 0, 0))                                               \
            goto budget_seq;                                                                \
        goto *op_code[s->op];                                                               \
    } while (0)
    goto *op_code[s->op];
#define WORK(LABEL, OP, CLS)                                                                \
    LABEL:                                                                                  \
        if (reg_work(r, core_id, OP, s->a, s->b, s->c))                                     \
            run->div_by_zero++; /* D8 (only a div can) */                                   \
        t += lat[CLS];                                                                      \
        NEXT();
    WORK(op_nop, ISA_NOP, ISA_CLASS_ALU)
    WORK(op_add, ISA_ADD, ISA_CLASS_ALU)
    WORK(op_sub, ISA_SUB, ISA_CLASS_ALU)
    WORK(op_mul, ISA_MUL, ISA_CLASS_MUL)
    WORK(op_div, ISA_DIV, ISA_CLASS_DIV)
    WORK(op_cmpge, ISA_CMPGE, ISA_CLASS_ALU)
    WORK(op_rshft, ISA_RSHFT, ISA_CLASS_ALU)
    WORK(op_lshft, ISA_LSHFT, ISA_CLASS_ALU)
    WORK(op_and, ISA_AND, ISA_CLASS_ALU)
    WORK(op_or, ISA_OR, ISA_CLASS_ALU)
    WORK(op_xor, ISA_XOR, ISA_CLASS_ALU)
    WORK(op_set_const, ISA_SET_CONST, ISA_CLASS_ALU)
#undef WORK
op_bnz:
    t += lat[ISA_CLASS_BRANCH];
    if (bnz_taken(r, s->a)) {                                          /* taken: IP ← target */
        const isa_decoded_t *bnz = s;
        s = &code[s->b];
        if (__builtin_expect(--left == 0, 0)) {
            from = bnz;
            goto budget;
        }
        goto *op_code[s->op];
    }
    NEXT();                          /* not taken in slot 15: the task ends (D11) */
op_ld:
    mem_operands(r, s->a, s->b, last);
    last->reg = s->c;
    cls = ISA_CLASS_LD;
    goto memory;
op_st:
    mem_operands(r, s->a, s->b, last);
    last->value = r[s->c];
    cls = ISA_CLASS_ST;
memory:                                  /* the latency is the memory system's */
    left--;
    last->cls = (uint8_t)cls;
    last->finished = s == &code[ISA_SLOTS - 1];
    stop = ISA_STOP_MEMORY;
    goto out;
op_ready:                                                              /* IP ← 0 */
    t += lat[ISA_CLASS_READY];
    left--;
    from = s;
    goto finished;
op_end:                                                    /* D11: left slot 15 */
    from = s - 1;
    goto finished;
budget_seq:
    from = s - 1;
budget:
    if (s->op == ISA_OP_END)  /* the instruction that reached the budget left slot 15 */
        goto finished;
    stop = ISA_STOP_BUDGET;
    goto out_ran;
finished:
    stop = ISA_STOP_FINISHED;
    last->finished = true;
out_ran:
    cls = op_class[from->op];
out_none:
    last->cls = (uint8_t)cls;
    if (stop == ISA_STOP_BUDGET)
        last->finished = false;
out:
#undef NEXT
    run->ip = (unsigned)(s - code);
    run->t = t;
    run->n = run->budget - left;
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

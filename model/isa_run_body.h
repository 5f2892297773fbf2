/* isa_run_body.h — the body of isa_run (model/isa.c), threaded: included
 * inside a function, so that a caller on the hot path (the core's advance)
 * runs it without a call — GCC never inlines a function with computed gotos.
 * In scope before it: uint8_t *restrict r (the register file), unsigned
 * core_id, isa_run_t *run, isa_step_t *last (where the instruction that
 * stopped the run is described: &run->last for isa_run, a local of the
 * core's advance, which hands it to its request); after it,
 * isa_stop_t stop holds how the run ended and *run and *last are updated as
 * isa_run describes. The opcodes' register work,
 * operands and classes are model/isa_ops.h's; the run's control is here,
 * once. No include guard: each including function gets its own copy. Private to
 * model/isa.c, model/core.c.
 *
 * Threaded: every instruction ends by jumping straight to the next one's
 * code (`goto *op_code[next op]`), so there is no loop head with a shared
 * dispatch and no per-instruction test of the slot: the decoded task has a
 * 17th slot (ISA_OP_END, isa_decode_task) whose code ends the task (D11: left
 * slot 15). The budget counts down from budget - n and is the one test left
 * per instruction. `s` is the slot running; `from`, set on the way out, the
 * slot of the last instruction run (its class goes to last->cls). */
    static const void *const op_code[ISA_OPS_COUNT + 1] = {
        [ISA_NOP] = &&op_nop,     [ISA_ADD] = &&op_add,     [ISA_SUB] = &&op_sub,
        [ISA_MUL] = &&op_mul,     [ISA_DIV] = &&op_div,     [ISA_CMPGE] = &&op_cmpge,
        [ISA_RSHFT] = &&op_rshft, [ISA_LSHFT] = &&op_lshft, [ISA_AND] = &&op_and,
        [ISA_OR] = &&op_or,       [ISA_XOR] = &&op_xor,     [ISA_LD] = &&op_ld,
        [ISA_SET_CONST] = &&op_set_const, [ISA_ST] = &&op_st, [ISA_BNZ] = &&op_bnz,
        [ISA_READY] = &&op_ready, [ISA_OP_END] = &&op_end,
    };
    const isa_decoded_t *restrict code = run->code;
    const uint64_t *restrict lat = run->lat;
    const isa_decoded_t *s = &code[run->ip], *from;
    uint64_t t = run->t, left = run->budget - run->n;
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
        run->taken[s - code]++;
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
    run->last_ip = (uint8_t)(from - code);
out_none:
    last->cls = (uint8_t)cls;
    if (stop == ISA_STOP_BUDGET)
        last->finished = false;
out:
#undef NEXT
    run->ip = (unsigned)(s - code);
    run->t = t;
    run->n = run->budget - left;

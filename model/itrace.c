/* itrace.c — the instruction trace's text (itrace.h). One line per record:
 *   WHEN fF cC sS | DISASM | WRITES | MEM          (a core)
 *   WHEN fF wW lanes=0xMMMM sS | DISASM | WRITES | MEM   (a SIMT warp)
 * WHEN is cycles (a fraction only when a time is not a whole cycle) or, for
 * the ISS, the instruction's ordinal; WRITES is "-" or "rN=0xVV" per
 * register written; MEM is "-" or "ld|st 0xAAA bank B value 0xVV". On a
 * warp, every per-lane value is a comma-separated list over the active
 * lanes, lowest lane first. */
#include "model/itrace.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

uint16_t itrace_writes(uint16_t w)
{
    unsigned op = isa_opc(w), c = isa_fc(w);
    if (op == ISA_NOP || op == ISA_ST || op == ISA_BNZ || op == ISA_READY)
        return 0;
    if (op == ISA_MUL)
        return (uint16_t)((1u << c) | (1u << ((c + 1) & 0xf)));
    return (uint16_t)(1u << c);
}

int isa_disasm(uint16_t w, char *buf, size_t size)
{
    unsigned op = isa_opc(w), a = isa_fa(w), b = isa_fb(w), c = isa_fc(w);
    const char *m = isa_mnemonic((isa_op_t)op);
    switch (isa_format((isa_op_t)op)) {
    case ISA_FMT_NONE: return (w & 0x0fff) ? snprintf(buf, size, ".word 0x%04x", (unsigned)w)
                                           : snprintf(buf, size, "%s", m);
    case ISA_FMT_RRR: return snprintf(buf, size, "%s r%u, r%u, r%u", m, a, b, c);
    case ISA_FMT_RIR: return snprintf(buf, size, "%s r%u, %u, r%u", m, a, b, c);
    case ISA_FMT_LD:
    case ISA_FMT_ST: return snprintf(buf, size, "%s [r%u, r%u], r%u", m, a, b, c);
    case ISA_FMT_SET_CONST:
        if (c < 8)
            return snprintf(buf, size, "set_const r%u, id", c);
        return snprintf(buf, size, "set_const r%u, 0x%02x", c, (w >> 4) & 0xffu);
    case ISA_FMT_BNZ: break;
    }
    return snprintf(buf, size, "bnz %u, r%u", b, a);
}

/* Appends with snprintf semantics; `*at` never passes size - 1. */
static void put(char *buf, size_t size, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t size, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = *at < size ? vsnprintf(buf + *at, size - *at, fmt, ap) : 0;
    va_end(ap);
    *at += n > 0 ? (size_t)n : 0;
    if (*at >= size)
        *at = size - 1;
}

/* One per-lane byte list: "0x12" or "0x12,0x13,…" over the active lanes. */
static void put_lanes8(char *buf, size_t size, size_t *at, const itrace_rec_t *r,
                       const uint8_t *v, size_t stride, bool hex)
{
    bool first = true;
    for (unsigned l = 0; l < ITRACE_LANES; l++) {
        if (!(r->lanes & (1u << l)))
            continue;
        unsigned x = v[l * stride];
        put(buf, size, at, hex ? "%s0x%02x" : "%s%u", first ? "" : ",", x);
        first = false;
    }
}

void itrace_format(const itrace_rec_t *r, uint64_t period_ps, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    if (!period_ps)
        put(buf, size, &at, "%" PRIu64, r->when);
    else if (r->when % period_ps == 0)
        put(buf, size, &at, "%" PRIu64, r->when / period_ps);
    else
        put(buf, size, &at, "%.3f", (double)r->when / (double)period_ps);
    if (r->simt)
        put(buf, size, &at, " f%u w%u lanes=0x%04x s%u | ", r->frame, r->unit, r->lanes, r->slot);
    else
        put(buf, size, &at, " f%u c%u s%u | ", r->frame, r->unit, r->slot);
    char text[48];
    isa_disasm(r->word, text, sizeof text);
    put(buf, size, &at, "%s |", text);
    itrace_rec_t one = *r;
    if (!r->simt)
        one.lanes = 1;
    if (!r->wmask)
        put(buf, size, &at, " -");
    for (unsigned reg = 0; reg < ISA_REGS; reg++) {
        if (!(r->wmask & (1u << reg)))
            continue;
        put(buf, size, &at, " r%u=", reg);
        put_lanes8(buf, size, &at, &one, &r->regs[0][reg], ISA_REGS, true);
    }
    if (!r->mem) {
        put(buf, size, &at, " | -");
        return;
    }
    put(buf, size, &at, " | %s ", r->store ? "st" : "ld");
    bool first = true;
    for (unsigned l = 0; l < ITRACE_LANES; l++)
        if (one.lanes & (1u << l)) {
            put(buf, size, &at, "%s0x%03x", first ? "" : ",", r->addr[l]);
            first = false;
        }
    put(buf, size, &at, " bank ");
    put_lanes8(buf, size, &at, &one, r->bank, 1, false);
    put(buf, size, &at, " value ");
    put_lanes8(buf, size, &at, &one, r->value, 1, true);
}

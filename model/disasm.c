/* disasm.c — the disassembler: a tm_program_t (and SM bytes) → assembly source
 * (spec §5) that assembles back to the identical 2048-byte image and SM bytes.
 * Invariant: a word is printed as a mnemonic only when the assembler encodes
 * that text to the word itself (otherwise `.word`), and a task prints the
 * shortest prefix that the §5 padding rule extends to its 16 words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/asm.h"
#include "model/isa.h"
#include "model/text.h"

/* ---- instructions ---------------------------------------------------- */

/* True when the mnemonic form of `w` assembles back to `w` (unused fields 0, D9). */
static bool canonical(uint16_t w)
{
    switch (isa_format((isa_op_t)isa_opc(w))) {
    case ISA_FMT_NONE: return (w & 0x0fff) == 0;
    case ISA_FMT_SET_CONST: return isa_fc(w) >= 8 || ((w >> 4) & 0xff) == 0;
    case ISA_FMT_BNZ: return isa_fc(w) == 0;
    case ISA_FMT_RRR:
    case ISA_FMT_RIR:
    case ISA_FMT_LD:
    case ISA_FMT_ST: return true; /* every field is an operand */
    }
    return true;
}

/* §5 padding of the first n words, compared with all 16. */
static bool repads_to(const uint16_t *w, unsigned n)
{
    uint16_t pad[TM_SLOTS] = {0};
    memcpy(pad, w, n * sizeof *w);
    if (n < TM_SLOTS && isa_opc(w[n - 1]) != ISA_READY)
        pad[n] = isa_make(ISA_READY, 0, 0, 0);
    return memcmp(pad, w, sizeof pad) == 0;
}

static unsigned trimmed_len(const uint16_t *w)
{
    unsigned n = 1;
    while (n < TM_SLOTS && !repads_to(w, n))
        n++;
    return n;
}

/* Prints one instruction; bnz targets below `n` (the printed slots) are labels. */
static void print_instr(text_t *b, uint16_t w, unsigned n)
{
    unsigned op = isa_opc(w), a = isa_fa(w), fb = isa_fb(w), c = isa_fc(w);
    const char *m = isa_mnemonic((isa_op_t)op);
    if (!canonical(w)) {
        text_printf(b, "  .word 0x%04x\n", (unsigned)w);
        return;
    }
    switch (isa_format((isa_op_t)op)) {
    case ISA_FMT_NONE: text_printf(b, "  %s\n", m); break;
    case ISA_FMT_RRR: text_printf(b, "  %s r%u, r%u, r%u\n", m, a, fb, c); break;
    case ISA_FMT_RIR: text_printf(b, "  %s r%u, %u, r%u\n", m, a, fb, c); break;
    case ISA_FMT_LD:
    case ISA_FMT_ST: text_printf(b, "  %s [r%u, r%u], r%u\n", m, a, fb, c); break;
    case ISA_FMT_SET_CONST:
        if (c < 8)
            text_printf(b, "  set_const r%u, id\n", c);
        else
            text_printf(b, "  set_const r%u, 0x%02x\n", c, (w >> 4) & 0xffu);
        break;
    case ISA_FMT_BNZ:
        if (fb < n)
            text_printf(b, "  bnz L%u, r%u\n", fb, a);
        else /* the target is in the padding, which has no printed line */
            text_printf(b, "  bnz %u, r%u\n", fb, a);
        break;
    }
}

static void print_task(text_t *b, const tm_program_t *p, unsigned frame)
{
    const uint16_t *w = p->code[frame];
    unsigned n = trimmed_len(w), targets = 0;
    for (unsigned s = 0; s < n; s++)
        if (isa_opc(w[s]) == ISA_BNZ && canonical(w[s]) && isa_fb(w[s]) < n)
            targets |= 1u << isa_fb(w[s]);
    text_printf(b, "; frame %u\n", frame);
    for (unsigned s = 0; s < n; s++) {
        if (targets & (1u << s))
            text_printf(b, "L%u:\n", s);
        print_instr(b, w[s], n);
    }
}

/* ---- groups, tail, data ---------------------------------------------- */

static void print_hex(text_t *b, const uint8_t *bytes, size_t n)
{
    text_printf(b, "0x");
    for (size_t i = 0; i < n; i++)
        text_printf(b, "%02x", (unsigned)bytes[i]);
}

static bool all_zero(const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (bytes[i])
            return false;
    return true;
}

/* The CF: init_r0 lists every core with a non-zero byte or an Init_R0_Vect bit;
 * init_mask, hdr and reserved appear only when the short form would differ. */
static void print_group_line(text_t *b, const tm_group_t *g)
{
    unsigned listed = g->init_vect;
    for (unsigned i = 0; i < GPU_CORES; i++)
        if (g->init_r0[i])
            listed |= 1u << i;
    text_printf(b, ".group cores=0x%04x fence=%s", (unsigned)g->cores, tm_fence_name(g->fence));
    if (listed) {
        const char *sep = "";
        text_printf(b, " init_r0={");
        for (unsigned i = 0; i < GPU_CORES; i++) {
            if (!(listed & (1u << i)))
                continue;
            text_printf(b, "%s%u:0x%02x", sep, i, (unsigned)g->init_r0[i]);
            sep = ", ";
        }
        text_printf(b, "}");
    }
    if (listed != g->init_vect)
        text_printf(b, " init_mask=0x%04x", (unsigned)g->init_vect);
    if (g->hdr_reserved)
        text_printf(b, " hdr=0x%02x", (unsigned)g->hdr_reserved);
    if (!all_zero(g->reserved, sizeof g->reserved)) {
        text_printf(b, " reserved=");
        print_hex(b, g->reserved, sizeof g->reserved);
    }
    text_printf(b, "\n");
}

static void print_tail(text_t *b, const tm_program_t *p)
{
    if (p->n_frames >= TM_FRAMES)
        return;
    size_t n = TM_BYTES - (size_t)p->n_frames * TM_FRAME_BYTES;
    while (n > 0 && p->tail[n - 1] == 0)
        n--;
    if (n == 0)
        return;
    text_printf(b, "\n; bytes from the end marker (frame %u) on\n.tail ", p->n_frames);
    print_hex(b, p->tail, n);
    text_printf(b, "\n");
}

/* Runs of non-zero bytes, at most 16 per line. */
static void print_data(text_t *b, const uint8_t *sm)
{
    bool first = true;
    for (unsigned a = 0; a < SM_BYTES;) {
        if (!sm[a]) {
            a++;
            continue;
        }
        if (first)
            text_printf(b, "\n; Shared Memory\n");
        first = false;
        text_printf(b, ".data 0x%03x: 0x%02x", a, (unsigned)sm[a]);
        unsigned end = a + 16 < SM_BYTES ? a + 16 : SM_BYTES;
        for (a++; a < end && sm[a]; a++)
            text_printf(b, ", 0x%02x", (unsigned)sm[a]);
        text_printf(b, "\n");
    }
}

char *asm_disassemble(const tm_program_t *prog, const uint8_t *sm)
{
    text_t b = {0};
    text_printf(&b, "; disassembled by tessera\n");
    for (unsigned i = 0; i < prog->n_groups && i < TM_FRAMES; i++) {
        const tm_group_t *g = &prog->groups[i];
        text_printf(&b, "\n");
        print_group_line(&b, g);
        for (unsigned k = 1; k <= g->if_num && g->cf + k < TM_FRAMES; k++) {
            if (k > 1)
                text_printf(&b, ".task\n");
            print_task(&b, prog, g->cf + k);
        }
    }
    if (sm)
        print_data(&b, sm);
    print_tail(&b, prog);
    return text_take(&b);
}

/* disasm.c — the disassembler: a tm_program_t (and SM bytes) → assembly source
 * (spec §5) that assembles back to the identical 2048-byte image and SM bytes.
 * Invariant: a word is printed as a mnemonic only when the assembler encodes
 * that text to the word itself (otherwise `.word`), and a task prints the
 * shortest prefix that the §5 padding rule extends to its 16 words. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"
#include "model/asm.h"
#include "model/isa.h"

/* A growing text; `oom` sticks once an allocation failed. */
typedef struct sbuf {
    char *buf;
    size_t len, cap;
    bool oom;
} sbuf_t;

static void sb_printf(sbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(sbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = b->oom ? -1 : vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0 || b->len + (size_t)n < b->cap) {
        b->len += n < 0 ? 0 : (size_t)n;
        return;
    }
    size_t cap = (b->cap + (size_t)n + 1) * 2;
    char *nb = tess_realloc(b->buf, cap);
    if (!nb) {
        b->oom = true;
        return;
    }
    b->buf = nb;
    b->cap = cap;
    va_start(ap, fmt);
    vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

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
static void print_instr(sbuf_t *b, uint16_t w, unsigned n)
{
    unsigned op = isa_opc(w), a = isa_fa(w), fb = isa_fb(w), c = isa_fc(w);
    const char *m = isa_mnemonic((isa_op_t)op);
    if (!canonical(w)) {
        sb_printf(b, "  .word 0x%04x\n", (unsigned)w);
        return;
    }
    switch (isa_format((isa_op_t)op)) {
    case ISA_FMT_NONE: sb_printf(b, "  %s\n", m); break;
    case ISA_FMT_RRR: sb_printf(b, "  %s r%u, r%u, r%u\n", m, a, fb, c); break;
    case ISA_FMT_RIR: sb_printf(b, "  %s r%u, %u, r%u\n", m, a, fb, c); break;
    case ISA_FMT_LD:
    case ISA_FMT_ST: sb_printf(b, "  %s [r%u, r%u], r%u\n", m, a, fb, c); break;
    case ISA_FMT_SET_CONST:
        if (c < 8)
            sb_printf(b, "  set_const r%u, id\n", c);
        else
            sb_printf(b, "  set_const r%u, 0x%02x\n", c, (w >> 4) & 0xffu);
        break;
    case ISA_FMT_BNZ:
        if (fb < n)
            sb_printf(b, "  bnz L%u, r%u\n", fb, a);
        else /* the target is in the padding, which has no printed line */
            sb_printf(b, "  bnz %u, r%u\n", fb, a);
        break;
    }
}

static void print_task(sbuf_t *b, const tm_program_t *p, unsigned frame)
{
    const uint16_t *w = p->code[frame];
    unsigned n = trimmed_len(w), targets = 0;
    for (unsigned s = 0; s < n; s++)
        if (isa_opc(w[s]) == ISA_BNZ && canonical(w[s]) && isa_fb(w[s]) < n)
            targets |= 1u << isa_fb(w[s]);
    sb_printf(b, "; frame %u\n", frame);
    for (unsigned s = 0; s < n; s++) {
        if (targets & (1u << s))
            sb_printf(b, "L%u:\n", s);
        print_instr(b, w[s], n);
    }
}

/* ---- groups, tail, data ---------------------------------------------- */

static void print_hex(sbuf_t *b, const uint8_t *bytes, size_t n)
{
    sb_printf(b, "0x");
    for (size_t i = 0; i < n; i++)
        sb_printf(b, "%02x", (unsigned)bytes[i]);
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
static void print_group_line(sbuf_t *b, const tm_group_t *g)
{
    unsigned listed = g->init_vect;
    for (unsigned i = 0; i < GPU_CORES; i++)
        if (g->init_r0[i])
            listed |= 1u << i;
    sb_printf(b, ".group cores=0x%04x fence=%s", (unsigned)g->cores, tm_fence_name(g->fence));
    if (listed) {
        const char *sep = "";
        sb_printf(b, " init_r0={");
        for (unsigned i = 0; i < GPU_CORES; i++) {
            if (!(listed & (1u << i)))
                continue;
            sb_printf(b, "%s%u:0x%02x", sep, i, (unsigned)g->init_r0[i]);
            sep = ", ";
        }
        sb_printf(b, "}");
    }
    if (listed != g->init_vect)
        sb_printf(b, " init_mask=0x%04x", (unsigned)g->init_vect);
    if (g->hdr_reserved)
        sb_printf(b, " hdr=0x%02x", (unsigned)g->hdr_reserved);
    if (!all_zero(g->reserved, sizeof g->reserved)) {
        sb_printf(b, " reserved=");
        print_hex(b, g->reserved, sizeof g->reserved);
    }
    sb_printf(b, "\n");
}

static void print_tail(sbuf_t *b, const tm_program_t *p)
{
    if (p->n_frames >= TM_FRAMES)
        return;
    size_t n = TM_BYTES - (size_t)p->n_frames * TM_FRAME_BYTES;
    while (n > 0 && p->tail[n - 1] == 0)
        n--;
    if (n == 0)
        return;
    sb_printf(b, "\n; bytes from the end marker (frame %u) on\n.tail ", p->n_frames);
    print_hex(b, p->tail, n);
    sb_printf(b, "\n");
}

/* Runs of non-zero bytes, at most 16 per line. */
static void print_data(sbuf_t *b, const uint8_t *sm)
{
    bool first = true;
    for (unsigned a = 0; a < SM_BYTES;) {
        if (!sm[a]) {
            a++;
            continue;
        }
        if (first)
            sb_printf(b, "\n; Shared Memory\n");
        first = false;
        sb_printf(b, ".data 0x%03x: 0x%02x", a, (unsigned)sm[a]);
        unsigned end = a + 16 < SM_BYTES ? a + 16 : SM_BYTES;
        for (a++; a < end && sm[a]; a++)
            sb_printf(b, ", 0x%02x", (unsigned)sm[a]);
        sb_printf(b, "\n");
    }
}

char *asm_disassemble(const tm_program_t *prog, const uint8_t *sm)
{
    sbuf_t b = {tess_malloc(4096), 0, 4096, false};
    if (!b.buf)
        return NULL;
    sb_printf(&b, "; disassembled by tessera\n");
    for (unsigned i = 0; i < prog->n_groups && i < TM_FRAMES; i++) {
        const tm_group_t *g = &prog->groups[i];
        sb_printf(&b, "\n");
        print_group_line(&b, g);
        for (unsigned k = 1; k <= g->if_num && g->cf + k < TM_FRAMES; k++) {
            if (k > 1)
                sb_printf(&b, ".task\n");
            print_task(&b, prog, g->cf + k);
        }
    }
    if (sm)
        print_data(&b, sm);
    print_tail(&b, prog);
    if (b.oom) {
        tess_free(b.buf);
        return NULL;
    }
    return b.buf;
}

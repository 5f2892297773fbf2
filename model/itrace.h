/* itrace.h — the instruction trace: one record per executed instruction,
 * from the timed model (gpu_set_itrace) and the ISS (iss_desc_t), and its
 * one text line (docs/USER-GUIDE.md, "Instruction trace": the format is
 * stable, a tool may parse it). A record describes a core, or a SIMT warp
 * and the lanes that executed; registers written and, for ld/st, the
 * address, bank and value, per lane. Records are valid only during the
 * callback. */
#ifndef TESSERA_ITRACE_H
#define TESSERA_ITRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/isa.h"

#define ITRACE_LANES 16

typedef struct itrace_rec {
    uint64_t when;            /* timed: start in ps; ISS: the instruction's ordinal */
    uint8_t frame;            /* TM frame of the task */
    uint8_t unit;             /* the core, or (simt) the warp */
    bool simt;                /* a warp: `lanes` says which lanes executed */
    uint16_t lanes;           /* simt: active lanes (bit l); else 1 */
    uint8_t slot;             /* the instruction's slot (IP) */
    uint16_t word;            /* the instruction */
    uint16_t wmask;           /* registers written (bit r) */
    const uint8_t (*regs)[ISA_REGS]; /* the register files after it, by lane (core: [0]) */
    bool mem, store;          /* a ld or st */
    uint16_t addr[ITRACE_LANES];  /* ld/st: address per lane (core: [0]) */
    uint8_t bank[ITRACE_LANES];   /* its bank */
    uint8_t value[ITRACE_LANES];  /* the byte read or written */
} itrace_rec_t;

typedef void (*itrace_fn)(void *user, const itrace_rec_t *rec);

/* The registers an instruction writes when it completes (ld: its
 * destination, at the answer; mul: c and c+1; none for st, bnz, nop,
 * ready). */
uint16_t itrace_writes(uint16_t word);

/* One instruction as assembly text ("add r1, r2, r3", "bnz 3, r4"); a
 * non-canonical word as ".word 0x…". Returns the length (snprintf). */
int isa_disasm(uint16_t word, char *buf, size_t size);

/* The record's line, without a newline, into buf (at least ITRACE_LINE_MAX
 * bytes): `when` printed as cycles of `period_ps` (0: as the ordinal). */
#define ITRACE_LINE_MAX 1024
void itrace_format(const itrace_rec_t *rec, uint64_t period_ps, char *buf, size_t size);

#endif

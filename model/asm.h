/* asm.h — the assembly language of spec §5: assembler and disassembler.
 * The assembler builds a tm_program_t and the SM bytes of `.data` lines; the
 * disassembler prints source that assembles back to the identical image
 * (asm_assemble(asm_disassemble(p)) == p, byte for byte, for every program
 * tm_parse accepts). */
#ifndef TESSERA_ASM_H
#define TESSERA_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/base/diag.h"
#include "model/tm.h"

typedef struct asm_output {
    tm_program_t prog;          /* the program */
    uint8_t sm[SM_BYTES];       /* bytes given by .data lines (0 elsewhere) */
    uint8_t sm_set[SM_BYTES];   /* 1 where a .data line gave the byte */
    unsigned data_bytes;        /* how many bytes .data lines gave */
} asm_output_t;

/* Assembles `len` bytes of source text named `filename`. On error returns
 * TESS_EINPUT with "file:line:column: what was expected" in `diag` and `out`
 * undefined. Warnings (e.g. init_r0 for a core not in the group, D3) go to
 * `diag` as well. */
int asm_assemble(asm_output_t *out /* OUT */, const char *src, size_t len,
                 const char *filename, diag_t *diag);

/* A source file larger than this is refused unread (16 MiB: the Task Memory
 * holds 512 instructions; this leaves room for comments and .data). */
#define ASM_SOURCE_MAX (16u << 20)

/* Reads (at most ASM_SOURCE_MAX + 1 bytes, infile.h) and assembles a file. */
int asm_assemble_file(asm_output_t *out /* OUT */, const char *path, diag_t *diag);

/* Options of asm_assemble_ex (zero: the defaults). */
typedef struct asm_opts {
    char **listing;   /* OUT, nullable: the listing (asm_assemble_listing) */
    bool no_include;  /* .include is an error (nothing outside the text is read) */
} asm_opts_t;

int asm_assemble_ex(asm_output_t *out /* OUT */, const char *src, size_t len,
                    const char *filename, const asm_opts_t *opts /* nullable */, diag_t *diag);

/* The same, and when `listing` is not NULL the listing of the assembly into
 * *listing (malloc'd, the caller frees; NULL on error): every line read, its
 * file:line, the frame and slot it filled with the word, the lines made by
 * macros and repetitions marked '+' per level, the readies the §5 rule added. */
int asm_assemble_listing(asm_output_t *out /* OUT */, const char *src, size_t len,
                         const char *filename, char **listing /* OUT, nullable */,
                         diag_t *diag);
int asm_assemble_file_listing(asm_output_t *out /* OUT */, const char *path,
                              char **listing /* OUT, nullable */, diag_t *diag);

/* Disassembles `prog`; when `sm` is not NULL, non-zero SM bytes become `.data`
 * lines. Returns a malloc'd NUL-terminated text the caller frees, or NULL when
 * out of memory. */
char *asm_disassemble(const tm_program_t *prog, const uint8_t *sm /* nullable */);

#endif

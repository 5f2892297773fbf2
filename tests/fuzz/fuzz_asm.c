/* fuzz_asm.c — libFuzzer target for the assembler (spec §5): bytes as source
 * text → asm_assemble; an accepted program goes on through tm_encode →
 * tm_parse → asm_disassemble → asm_assemble, which must give the same image.
 * The properties live in fuzz_checks.c (shared with tests/test_fuzz_regress.c);
 * a violated one aborts with its message so libFuzzer keeps the input. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[FUZZ_WHY_MAX];
    if (fuzz_check_asm(data, size, why, sizeof why) == FUZZ_VIOLATED) {
        fprintf(stderr, "fuzz_asm: property violated: %s\n", why);
        abort();
    }
    return 0;
}

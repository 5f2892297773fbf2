/* fuzz_tm.c — libFuzzer target for the Task Memory loader (spec §2, D1–D3):
 * bytes → tm_parse, then the encode and disassemble/re-assemble round trips;
 * and bytes → sm_image_parse.
 * The properties live in fuzz_checks.c (shared with tests/test_fuzz_regress.c);
 * a violated one aborts with its message so libFuzzer keeps the input. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[FUZZ_WHY_MAX];
    if (fuzz_check_tm(data, size, why, sizeof why) == FUZZ_VIOLATED) {
        fprintf(stderr, "fuzz_tm: property violated: %s\n", why);
        abort();
    }
    return 0;
}

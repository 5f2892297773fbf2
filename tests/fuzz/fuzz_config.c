/* fuzz_config.c — libFuzzer target for the configuration parser: bytes →
 * cfg_load_string, then the cfg_format and -s round trips; and the text as one
 * -s argument.
 * The properties live in fuzz_checks.c (shared with tests/test_fuzz_regress.c);
 * a violated one aborts with its message so libFuzzer keeps the input. */
#include <stdio.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[FUZZ_WHY_MAX];
    if (fuzz_check_config(data, size, why, sizeof why) == FUZZ_VIOLATED) {
        fprintf(stderr, "fuzz_config: property violated: %s\n", why);
        abort();
    }
    return 0;
}

/* interleaved.c — the built-in bank mapping `interleaved` as a plugin: the
 * bottom k = log2(banks) address bits pick the bank. Rows identical to
 * `-s sm.bank_map=interleaved` (tests/test_policy.c). */
#include "api/tessera_policy.h"

static unsigned bank_of(void *state, unsigned addr, unsigned banks)
{
    (void)state;
    return addr & (banks - 1);
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_BANK_MAP,
    .name = "interleaved",
    .bank_of = bank_of,
};

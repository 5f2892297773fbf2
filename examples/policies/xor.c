/* xor.c — the built-in bank mapping `xor` as a plugin: with k = log2(banks),
 * addr[k-1:0] XOR addr[2k-1:k], which spreads strided accesses over the
 * banks. Rows identical to `-s sm.bank_map=xor` (tests/test_policy.c). */
#include "api/tessera_policy.h"

static unsigned bank_of(void *state, unsigned addr, unsigned banks)
{
    (void)state;
    unsigned k = (unsigned)__builtin_ctz(banks);
    return (addr ^ (addr >> k)) & (banks - 1);
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_BANK_MAP,
    .name = "xor",
    .bank_of = bank_of,
};

/* bad_bank.c — a bank mapping that maps address 0x123 to bank `banks`, one
 * past the last (tests/test_policy.c: the run ends with status error at
 * cycle 0). */
#include "api/tessera_policy.h"

static unsigned bank_of(void *state, unsigned addr, unsigned banks)
{
    (void)state;
    return addr == 0x123 ? banks : addr & (banks - 1);
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_BANK_MAP,
    .name = "bad_bank",
    .bank_of = bank_of,
};

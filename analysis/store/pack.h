/* pack.h — the layout of sm_access_packs.data (docs/SCHEMA.md): the one
 * home of its radices, for the recorder that encodes the packs, the
 * sm_accesses view and the latency views that decode them in SQL, and the
 * readers that decode them in C. Each access of a pack is one integer
 *
 *   q = ((((((t * done_n + d - done_dt) * arrive_n + a - arrive_dt)
 *       * wait_n + g - wait_dt) * B + bank') * PACK_ADDR_N + addr)
 *       * PACK_VALUE_N + value) * PACK_FLAGS_N + sync * 2 + is_store
 *
 * with t, a, g, d the request (from base_ps), arrive, wait and done offsets
 * in units of scale_ps; B = the run's bank count (its sm.banks parameter;
 * PACK_BANK_N for runs without one) and bank' the bank when bank_shift is
 * NULL, else B = 1 and the bank is (addr >> bank_shift) % B. A pack of
 * one access (irregular times, or ranges too wide for a 63-bit q) has
 * t = 0, radices 1, and its times in the offsets, which may then be
 * negative or NULL. The literals are plain numbers so that SQL can use
 * them as text (PACK_SQL); the assertions tie the derived ones together. */
#ifndef TESSERA_PACK_H
#define TESSERA_PACK_H

#define PACK_FLAGS_N 4            /* is_store | sync << 1 */
#define PACK_VALUE_N 256          /* the byte stored or loaded */
#define PACK_ADDR_N 4096          /* SM byte addresses */
#define PACK_BANK_N 16            /* SM banks of a run that does not say (D13) */
#define PACK_BANK_MAX 64          /* sm.banks at most */
#define PACK_ADDR_UNIT 1024       /* PACK_FLAGS_N * PACK_VALUE_N: q / this % PACK_ADDR_N = addr */
#define PACK_BANK_UNIT 4194304    /* PACK_ADDR_UNIT * PACK_ADDR_N: the digits of bank and times */

_Static_assert(PACK_ADDR_UNIT == PACK_FLAGS_N * PACK_VALUE_N, "pack layout");
_Static_assert(PACK_BANK_UNIT == PACK_ADDR_UNIT * PACK_ADDR_N, "pack layout");

#define PACK_SQL_(x) #x
#define PACK_SQL(x) PACK_SQL_(x)  /* a constant above as SQL text: PACK_SQL(PACK_ADDR_N) */

#endif

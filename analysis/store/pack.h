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

/* The digits of q, least significant first: X(A, digit, radix, offset,
 * place), the digit's radix, the offset added to it and its place value as
 * expressions over the constants above and the pack's columns R(A, column)
 * — bank_n the bank digit's radix, B when bank_shift is NULL, else 1 (the
 * readers compute it); t, the request, is q / PACK_T_PLACE. The one
 * description of the layout, in its order: the recorder's encoder
 * (recorder/rec_encode.c, REC_LOW in rec_int.h), the views (views.c) and
 * the C reader (present/run_acc.c) are made from it, and tests/test_packs.c
 * checks that they agree. Changing it changes the data: bump
 * DB_SCHEMA_VERSION with a migration. */
#define PACK_DIGITS(X, R, A)                                                     \
    X(A, flags, PACK_FLAGS_N, 0, 1)                                              \
    X(A, value, PACK_VALUE_N, 0, PACK_FLAGS_N)                                   \
    X(A, addr, PACK_ADDR_N, 0, PACK_ADDR_UNIT)                                   \
    X(A, bank, R(A, bank_n), 0, PACK_BANK_UNIT)                                  \
    X(A, wait, R(A, wait_n), R(A, wait_dt), PACK_BANK_UNIT * R(A, bank_n))       \
    X(A, arrive, R(A, arrive_n), R(A, arrive_dt),                                \
      PACK_BANK_UNIT * R(A, bank_n) * R(A, wait_n))                              \
    X(A, done, R(A, done_n), R(A, done_dt),                                      \
      PACK_BANK_UNIT * R(A, bank_n) * R(A, wait_n) * R(A, arrive_n))
#define PACK_T_PLACE(R, A)                                                       \
    (PACK_BANK_UNIT * R(A, bank_n) * R(A, wait_n) * R(A, arrive_n) * R(A, done_n))

/* The flags digit: is_store | sync << 1. */
#define PACK_FLAG_STORE 1
#define PACK_FLAG_SYNC 2

/* A column R(A, c) as SQL text: the column itself (the SQL that decodes
 * names the pack's columns so, bank_n among them), and a digit decoded in
 * SQL from q: offset + q / place % radix. */
#define PACK_SQL_COL(A, c) c
#define PACK_SQL_DIGIT(A, digit, radix, offset, place)                           \
    " " PACK_SQL((offset) + A / (place) % (radix)) " AS " #digit ","

#endif

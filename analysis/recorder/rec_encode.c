/* rec_encode.c — the text of sm_access_packs.data (the layout: store/pack.h;
 * why: rec_pack.c) and of event_packs.data (store/evpack.h; rec_events.c),
 * made on the writer thread. Pure functions of their
 * arguments; no allocation; never more than REC_RADIX_MAX bytes per access
 * plus the brackets (and the digit writer may scribble up to REC_TEXT_SLACK
 * bytes past the end: it writes eight digits at a time). */
#include <string.h>

#include "analysis/recorder/rec_int.h"
#include "analysis/store/evpack.h"
#include "analysis/store/pack.h"

static const char digits2[] = "00010203040506070809101112131415161718192021222324"
                              "25262728293031323334353637383940414243444546474849"
                              "50515253545556575859606162636465666768697071727374"
                              "75767778798081828384858687888990919293949596979899";

/* Exactly four digits of v < 10000. */
static inline void put4(char *o, uint32_t v)
{
    memcpy(o, digits2 + 2 * (v / 100), 2);
    memcpy(o + 2, digits2 + 2 * (v % 100), 2);
}

/* The digits of v < 10000. */
static inline char *put_small(char *o, uint32_t v)
{
    if (v < 10) {
        *o = (char)('0' + v);
        return o + 1;
    }
    if (v < 100) {
        memcpy(o, digits2 + 2 * v, 2);
        return o + 2;
    }
    if (v < 1000) {
        o[0] = (char)('0' + v / 100);
        memcpy(o + 1, digits2 + 2 * (v % 100), 2);
        return o + 3;
    }
    put4(o, v);
    return o + 4;
}

static char *put_big(char *o, uint64_t v);

/* Decimal digits of v at o; returns the end. Eight digits at a time, each
 * group by two-digit table lookups (no division instruction). */
static inline char *put_u64(char *o, uint64_t v)
{
    if (v < 10000)
        return put_small(o, (uint32_t)v);
    if (v < 100000000) {
        o = put_small(o, (uint32_t)v / 10000);
        put4(o, (uint32_t)v % 10000);
        return o + 4;
    }
    return put_big(o, v);
}

static char *put_big(char *o, uint64_t v)
{
    uint32_t lo = (uint32_t)(v % 100000000);
    o = put_u64(o, v / 100000000);
    put4(o, lo / 10000);
    put4(o + 4, lo % 10000);
    return o + 8;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The eight decimal digits of v < 10^8 as the bytes 0-9 of a word, the
 * first digit in the lowest byte (little-endian: the order of the text):
 * two four-digit halves in two 32-bit lanes, each split in two-digit and
 * then one-digit lanes by multiplications with reciprocals (x * 10486 >> 20
 * = x / 100 for x < 10^4, x * 103 >> 10 = x / 10 for x < 100) — a dozen
 * instructions for eight digits, no table, no division. */
static inline uint64_t digits8(uint32_t v)
{
    uint64_t merged = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
    uint64_t hundred = ((merged * 10486) >> 20) & (UINT64_C(0x7F) << 32 | 0x7F);
    uint64_t pairs = (merged - 100 * hundred) << 16 | hundred; /* 16-bit lanes */
    uint64_t tens = ((pairs * 103) >> 10) & UINT64_C(0x000F000F000F000F);
    return tens | (pairs - 10 * tens) << 8;
}

#define ASCII_ZEROS UINT64_C(0x3030303030303030)

/* The digits of 0 < v < 10^8 without leading zeros; writes 8 bytes. */
static inline char *put_digits8_lead(char *o, uint32_t v)
{
    uint64_t d = digits8(v);
    unsigned zeros = (unsigned)__builtin_ctzll(d) / 8; /* the first nonzero digit */
    d = (d >> (8 * zeros)) + ASCII_ZEROS;
    memcpy(o, &d, 8);
    return o + 8 - zeros;
}

/* Decimal digits of v at o; returns the end; may write up to
 * REC_TEXT_SLACK bytes past it. */
static inline char *put_u64_fast(char *o, uint64_t v)
{
    if (v >= UINT64_C(10000000000000000))
        return put_u64(o, v);
    uint32_t hi = (uint32_t)(v / 100000000), lo = (uint32_t)(v % 100000000);
    if (!hi) {
        if (!lo) {
            *o = '0';
            return o + 1;
        }
        return put_digits8_lead(o, lo);
    }
    if (hi < 100) /* most of an access pack's integers: 9 or 10 digits */
        o = put_small(o, hi);
    else
        o = put_digits8_lead(o, hi);
    uint64_t d = digits8(lo) + ASCII_ZEROS;
    memcpy(o, &d, 8);
    return o + 8;
}
#else
#define put_u64_fast put_u64
#endif

/* The place values of a pack row's digits (store/pack.h's PACK_DIGITS)
 * as locals pl_DIGIT and pl_t, over the row's radices as locals rx_COLUMN. */
#define ENC_COL(A, c) rx_##c
#define ENC_PLACE(A, digit, radix, offset, place) const uint64_t pl_##digit = (place);

static char *put_radix(const rec_pack_row_t *r, const rec_times_t *times, const uint64_t *low,
                       char *o)
{
    bool bank = r->bank_shift < 0;
    const uint64_t rx_bank_n = bank ? r->banks : 1, rx_wait_n = r->wait_n;
    const uint64_t rx_arrive_n = r->arrive_n, rx_done_n = r->done_n;
    PACK_DIGITS(ENC_PLACE, ENC_COL, )
    const uint64_t pl_t = PACK_T_PLACE(ENC_COL, );
    (void)pl_flags, (void)pl_value, (void)pl_addr; /* in low[], by REC_LOW */
    /* the offsets' share, taken once: q = Σ (digit - offset) * place */
    uint64_t off = (uint64_t)(uint32_t)r->done_dt * pl_done +
                   (uint64_t)(uint32_t)r->arrive_dt * pl_arrive +
                   (uint64_t)(uint32_t)r->wait_dt * pl_wait;
    *o++ = '[';
    for (uint32_t i = 0; i < r->n; i++) {
        const rec_times_t *e = &times[i];
        uint64_t q = (uint64_t)e->t * pl_t + (uint64_t)e->d * pl_done +
                     (uint64_t)e->a * pl_arrive + (uint64_t)e->g * pl_wait - off;
        if (bank)
            q += (low[i] >> 32) * pl_bank;
        o = put_u64_fast(o, q + (uint32_t)low[i]);
        *o++ = ',';
    }
    o[-1] = ']';
    return o;
}

size_t rec_encode_pack(const rec_pack_row_t *row, const rec_times_t *times, const uint64_t *low,
                       char *out)
{
    return (size_t)(put_radix(row, times, low, out) - out);
}

size_t rec_encode_one(unsigned banks, unsigned bank, unsigned addr, unsigned value,
                      unsigned flags, char *out)
{
    /* a pack of one access: its times are in the row, their radices 1 */
    const uint64_t rx_bank_n = banks, rx_wait_n = 1, rx_arrive_n = 1;
    PACK_DIGITS(ENC_PLACE, ENC_COL, )
    (void)pl_wait, (void)pl_arrive, (void)pl_done;
    char *o = out;
    *o++ = '[';
    o = put_u64(o, flags % PACK_FLAGS_N * pl_flags + value % PACK_VALUE_N * pl_value +
                       addr % PACK_ADDR_N * pl_addr + bank % banks * pl_bank);
    *o++ = ']';
    return (size_t)(o - out);
}

size_t rec_encode_events(const rec_evpack_t *p, char *out)
{
    const uint64_t rx_prio_n = (uint64_t)(p->prio_max - p->prio_min) + 1;
    const uint64_t rx_names_n = (uint64_t)p->name_max + 1;
    EVPACK_DIGITS(ENC_PLACE, ENC_COL, )
    const uint64_t pl_t = EVPACK_T_PLACE(ENC_COL, );
    char *o = out;
    *o++ = '[';
    for (uint32_t i = 0; i < p->n; i++) {
        const rec_ev_raw_t *e = &p->raw[i];
        o = put_u64_fast(o, (uint64_t)e->t * pl_t + (uint64_t)(e->prio - p->prio_min) * pl_prio +
                                e->name * pl_name_id);
        *o++ = ',';
    }
    o[-1] = ']';
    return (size_t)(o - out);
}

char *rec_put_u64(char *out, uint64_t v) { return put_u64_fast(out, v); }

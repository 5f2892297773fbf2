/* rec_encode.c — the text of sm_access_packs.data (the layout: store/pack.h;
 * why: rec_pack.c) and of event_packs.data (store/evpack.h; rec_events.c),
 * made on the writer thread. Pure functions of their
 * arguments; no allocation; never more than REC_RADIX_MAX bytes per access
 * plus the brackets. */
#include <string.h>

#include "analysis/recorder/rec_int.h"
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

static char *put_radix(const rec_pack_row_t *r, const rec_raw_t *raw, char *o)
{
    bool bank = r->bank_shift < 0;
    *o++ = '[';
    for (uint32_t i = 0; i < r->n; i++) {
        const rec_raw_t *e = &raw[i];
        uint64_t q = (uint64_t)e->t * r->done_n + (uint64_t)(e->d - r->done_dt);
        q = q * r->arrive_n + (uint64_t)(e->a - r->arrive_dt);
        q = q * r->wait_n + (uint64_t)(e->g - r->wait_dt);
        if (bank)
            q = q * r->banks + e->bank;
        q = ((q * PACK_ADDR_N + e->addr) * PACK_VALUE_N + e->value) * PACK_FLAGS_N + e->flags;
        o = put_u64(o, q);
        *o++ = ',';
    }
    o[-1] = ']';
    return o;
}

size_t rec_encode_pack(const rec_pack_row_t *row, const rec_raw_t *raw, char *out)
{
    return (size_t)(put_radix(row, raw, out) - out);
}

size_t rec_encode_one(unsigned banks, unsigned bank, unsigned addr, unsigned value,
                      unsigned flags, char *out)
{
    char *o = out;
    *o++ = '[';
    uint64_t q = (uint64_t)(bank % banks) * PACK_ADDR_N + addr % PACK_ADDR_N;
    o = put_u64(o, (q * PACK_VALUE_N + value % PACK_VALUE_N) * PACK_FLAGS_N + flags % PACK_FLAGS_N);
    *o++ = ']';
    return (size_t)(o - out);
}

size_t rec_encode_events(const rec_evpack_t *p, char *out)
{
    uint64_t prio_n = (uint64_t)(p->prio_max - p->prio_min) + 1;
    uint64_t names_n = (uint64_t)p->name_max + 1;
    char *o = out;
    *o++ = '[';
    for (uint32_t i = 0; i < p->n; i++) {
        const rec_ev_raw_t *e = &p->raw[i];
        o = put_u64(o, ((uint64_t)e->t * prio_n + (uint64_t)(e->prio - p->prio_min)) * names_n +
                           e->name);
        *o++ = ',';
    }
    o[-1] = ']';
    return (size_t)(o - out);
}

char *rec_put_u64(char *out, uint64_t v) { return put_u64(out, v); }

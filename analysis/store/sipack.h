/* sipack.h — the layout of simt_issue_packs.data (schema version 10) and
 * simt_mem_packs.data (version 11; docs/SCHEMA.md): the one home of its
 * rules, for the recorder that encodes the SIMT unit's issue port and warp
 * ld/st (recorder/rec_simt.c) and the simt_issue and simt_mem views that
 * decode them in SQL (views.c) and the viewer that decodes them in C
 * (analysis/view/vw_simt.c), all from the lists below. A pack holds n entries in the order they
 * were recorded (issues as they issued, ld/st as they completed), as a JSON
 * array with one integer per entry,
 *
 *   q = ((…((t * frame_n + frame - frame0) * slot_n + slot - slot0) …)
 *        * last_n + last - last0)
 *
 * over the pack's fields in their order (SIPACK_ISSUE_FIELDS,
 * SIPACK_MEM_FIELDS below) with t = (time_ps - base_ps) /
 * scale_ps (the time: an issue's time_ps, a ld/st's issue_ps; base_ps the
 * pack's earliest, scale_ps the clock period, or 1 when a time or latency
 * of the pack is not a whole number of cycles), f0 the smallest value of
 * field f in the pack and f_n the radix of f - f0: the largest value less
 * f0, plus one (readers take f0 + f_n - 1 as the largest). The row stores
 * each field's place value f_unit (the last field's 1, each unit the next
 * one times the next radix, t_unit the first one times frame_n), so that
 * the views decode every field alike:
 *
 *   f = f0 + q / f_unit % f_n,   time_ps = base_ps + scale_ps * (q / t_unit),
 *
 * An issue's op is an id of the run's simt_op_names (the ISA's opcode);
 * lanes (the bits of active) is a field of its own, so that SQL need not
 * count bits. A ld/st's op is 0 (ld) or 1 (st), its latency done_ps -
 * issue_ps in units of scale_ps (done_ps = time_ps + scale_ps * latency).
 * A pack ends before its radices would need more than SIPACK_BITS bits, so
 * q < 2^62; an entry alone always fits. */
#ifndef TESSERA_SIPACK_H
#define TESSERA_SIPACK_H

#include <stdint.h>

#define SIPACK_MAX 4096           /* entries per pack at most */
#define SIPACK_BITS 62            /* bits of q at most */
#define SIPACK_T_BITS 24          /* t (and the first entry's time's offset) below 2^this */

/* The fields of each kind, in their order (the first the most significant
 * after t): X(A, field, SHOW), A passed through. The one list of the
 * layout: the pack tables' columns (f0, f_n, f_unit of each, tables.h), the
 * recorder's entries (rec_simt.c, by SIPACK_I_f / SIPACK_M_f), the views'
 * columns (views.c) and the C readers (analysis/view/vw_simt.c) all come
 * from it. SHOW says what the views make of the value: PLAIN the value
 * itself, OPNAME an id of the run's simt_op_names (the mnemonic), LDST 0 ld,
 * 1 st, LATENCY a duration in scale_ps units after the time digit (shown as
 * issue_ps and done_ps). Changing a list changes the tables: bump
 * DB_SCHEMA_VERSION with a migration. */
#define SIPACK_ISSUE_FIELDS(X, A) SIPACK_ISSUE_FIELDS_V10(X, A)
#define SIPACK_MEM_FIELDS(X, A) SIPACK_MEM_FIELDS_V11(X, A)
/* The lists as the versions that made the packs laid them out: 10 the
 * issue port's, 11 the ld/st's. Frozen: the migrations to those versions
 * (schema.c) are built from these, never from the current lists above, so
 * that a later change of layout (a new list above, a schema version and a
 * migration of its own) leaves what an old file's migration does alone
 * (tests/test_views.c test_pack_migrations_frozen). Never edit them. */
#define SIPACK_ISSUE_FIELDS_V10(X, A)                                            \
    X(A, frame, PLAIN) X(A, slot, PLAIN) X(A, op, OPNAME) X(A, ord, PLAIN)       \
    X(A, depth, PLAIN) X(A, eligible, PLAIN) X(A, active, PLAIN)                 \
    X(A, mask, PLAIN) X(A, lanes, PLAIN)
#define SIPACK_MEM_FIELDS_V11(X, A)                                              \
    X(A, frame, PLAIN) X(A, slot, PLAIN) X(A, op, LDST) X(A, lanes, PLAIN)       \
    X(A, active, PLAIN) X(A, requests, PLAIN) X(A, replays, PLAIN)               \
    X(A, banks, PLAIN) X(A, latency, LATENCY)

#define SIPACK_I_(A, f, show) SIPACK_I_##f,
#define SIPACK_M_(A, f, show) SIPACK_M_##f,
enum { SIPACK_ISSUE_FIELDS(SIPACK_I_, ) SIPACK_ISSUE_N };
enum { SIPACK_MEM_FIELDS(SIPACK_M_, ) SIPACK_MEM_N };
#define SIPACK_FIELDS_MAX 9       /* fields of a kind at most */
_Static_assert(SIPACK_ISSUE_N <= SIPACK_FIELDS_MAX && SIPACK_MEM_N <= SIPACK_FIELDS_MAX,
               "SIMT pack fields");

/* The SQL of the views (json_each(p.data) AS j over a pack row p): field f
 * of an entry, and its time digit. */
#define SIPACK_SQL_FIELD(f) " p." #f "0 + j.value / p." #f "_unit % p." #f "_n"
#define SIPACK_SQL_T " (j.value / p.t_unit)"

/* The same in C, for a pack row's place values (unit[k] of field k,
 * unit[fields] of t): the place values from the radices r[k] = f_n (the
 * last field's 1, each the next one's times its radix); an entry from its
 * fields f, the pack's smallest values f0 and the radices (t already less
 * the pack's smallest: the formula above, term by term, which a compiler
 * keeps scalar); and back. */
static inline void sipack_units(unsigned fields, const uint64_t *r, uint64_t *unit)
{
    uint64_t u = 1;
    for (unsigned k = fields; k-- > 0;) {
        unit[k] = u;
        u *= r[k];
    }
    unit[fields] = u;
}

static inline uint64_t sipack_encode(unsigned fields, const uint64_t *r, uint64_t t,
                                     const uint64_t *f, const uint64_t *f0)
{
    uint64_t q = t;
    for (unsigned k = 0; k < fields; k++)
        q = q * r[k] + (f[k] - f0[k]);
    return q;
}

static inline uint64_t sipack_t(uint64_t q, uint64_t t_unit) { return q / t_unit; }

static inline int64_t sipack_field(uint64_t q, int64_t f0, uint64_t f_n, uint64_t f_unit)
{
    return f0 + (int64_t)(q / f_unit % f_n);
}

#endif

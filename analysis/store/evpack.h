/* evpack.h — the layout of event_packs.data (docs/SCHEMA.md, schema version
 * 9): the one home of its rules, for the recorder that encodes the kernel's
 * event log (recorder/rec_events.c) and the `events` view that decodes it in
 * SQL (views.c). A pack holds n consecutive events, seq0 … seq0 + n - 1, as
 * a JSON array with one integer per event,
 *
 *   q = (t * prio_n + prio - prio0) * names_n + name_id
 *
 * with t = (time_ps - base_ps) / scale_ps (scale_ps the run's clock period,
 * or 1 when a time of the pack is not a whole cycle after base_ps), prio0
 * and prio_n the range of the pack's priorities, name_id the event name's id
 * in event_names (id >= 1, 0: no name) and names_n one more than the largest
 * id of the pack. In a pack of several events t and name_id stay below
 * 2^EVPACK_BITS, so q < 2^56; a name id past that is a pack of its own
 * (t = 0, prio_n = 1: q = name_id). The events view:
 *
 *   seq = seq0 + i, time_ps = base_ps + scale_ps * (q / names_n / prio_n),
 *   prio = prio0 + q / names_n % prio_n, name = event_names.name of q % names_n. */
#ifndef TESSERA_EVPACK_H
#define TESSERA_EVPACK_H

#define EVPACK_MAX 4096           /* events per pack at most */
#define EVPACK_BITS 24            /* t and name ids of a shared pack below 2^this */

/* The digits of q, least significant first, as store/pack.h's PACK_DIGITS:
 * X(A, digit, radix, offset, place) over the pack's columns R(A, column);
 * t is q / EVPACK_T_PLACE. The one description of the layout, in its order:
 * the recorder's encoder (recorder/rec_encode.c) and the events view
 * (views.c) are made from it, tests/test_packs.c checks that they agree.
 * Changing it changes the data: bump DB_SCHEMA_VERSION with a migration. */
#define EVPACK_DIGITS(X, R, A)                                                   \
    X(A, name_id, R(A, names_n), 0, 1)                                           \
    X(A, prio, R(A, prio_n), R(A, prio0), R(A, names_n))
#define EVPACK_T_PLACE(R, A) (R(A, names_n) * R(A, prio_n))

#endif

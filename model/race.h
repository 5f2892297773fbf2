/* race.h — the race detector: two accesses to one SM byte from different
 * cores, at least one a store, whose tasks the program does not order. The
 * order is the program's, not a run's (so the untimed and the timed executor
 * report the same races): task A precedes a later task B when their core masks
 * intersect (D15), when A's group is acq (issue rule 2), when B's group is rel
 * (issue rule 3), and transitively; two cores of one task are never ordered.
 * Two D16 atomic accesses (ld_sync/st_sync) do not race with each other. */
#ifndef TESSERA_RACE_H
#define TESSERA_RACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/tm.h"

/* One static access: an instruction of a task on a core. */
typedef struct race_site {
    uint8_t frame;            /* the task's IF frame index */
    uint8_t core;             /* 0..15 */
    uint8_t slot;             /* the ld/st's instruction slot 0..15 */
    bool is_store;            /* st (else ld) */
    bool sync;                /* D16 ld_sync / st_sync */
} race_site_t;

/* The access's op as the races table and race_format spell it: "ld", "st",
 * "ld_sync" or "st_sync". */
const char *race_op_name(const race_site_t *s);

/* One race, reported once: `a` sorts before `b` (frame, core, slot, ld before st). */
typedef struct race_pair {
    uint16_t addr;            /* the byte's 12-bit address */
    race_site_t a, b;
} race_pair_t;

typedef struct race_det race_det_t;

/* A detector for `tm`'s tasks (the ordering is computed here, once). Returns
 * NULL when memory runs out. Free with race_destroy. */
race_det_t *race_create(const tm_program_t *tm);
void race_destroy(race_det_t *r);

/* Notes one access. Cheap when the site was already seen on that byte. Never
 * fails: an allocation failure is remembered and reported by race_status. */
void race_access(race_det_t *r, unsigned frame, unsigned core, unsigned slot, bool is_store,
                 bool sync, unsigned addr);

/* TESS_OK, or TESS_ENOMEM when some access could not be recorded (the list
 * may then miss races). */
int race_status(const race_det_t *r);

/* True when the program orders task frame `a` before or after task frame `b`
 * (false for a == b: the cores of one task are never ordered). */
bool race_ordered(const race_det_t *r, unsigned a, unsigned b);

/* The races found so far, sorted by (addr, a, b); valid until the next
 * race_access or race_destroy. */
size_t race_count(race_det_t *r);
const race_pair_t *race_get(race_det_t *r, size_t i);

/* Writes "0x123: frame 2 core 0 slot 3 st / frame 5 core 4 slot 1 ld" to buf. */
void race_format(const race_pair_t *p, char *buf, size_t size);

#endif

/* ivl.h — interval statistics: per-unit counters split over fixed-length
 * intervals of simulated time (record.interval), or over one window
 * (record.from_ps/to_ps). Fed by the components at the same points where
 * they add to their whole-run counters, with the same amounts, so that the
 * intervals of a unit sum exactly to its counter: a time span is split at
 * interval boundaries, a count falls in the interval of its moment. */
#ifndef TESSERA_IVL_H
#define TESSERA_IVL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/sim.h"
#include "model/sizes.h"
#include "model/tm.h"

#define IVL_BANKS SM_BANKS_MAX
/* Intervals kept at most (record.interval): a run longer than that many
 * intervals has them merged pairwise, doubling their length as often as
 * needed, so that memory (10 MiB at most) and the intervals rows stay
 * bounded however long the run — an endless loop included. */
#define IVL_MAX_INTERVALS 4096

typedef enum ivl_field {
    IVL_CORE_BUSY = 0,        /* ps a core ran a task (counter coreN.busy_ps) */
    IVL_CORE_INSTR,           /* instructions started (coreN.instructions) */
    IVL_CORE_WAIT,            /* ps blocked on SM accesses (coreN.sm_wait_ps) */
    IVL_BANK_BUSY,            /* ps a bank served accesses (bankN.busy_ps) */
    IVL_BANK_CONFLICTS,       /* accesses granted after waiting (bankN.conflicts) */
    IVL_SIMT_ISSUED,          /* unit 0: warp instructions issued (simt.warp_instructions) */
    IVL_SIMT_STALL,           /* unit = gpu_simt_stall_t: ps warps stalled for that reason
                                 (simt.stall_<reason>_cycles × the period) */
    IVL_FIELDS
} ivl_field_t;

/* One interval: a value per field and unit (cores for core fields, banks for bank ones). */
typedef struct ivl_bucket {
    uint64_t v[IVL_FIELDS][GPU_CORES > IVL_BANKS ? GPU_CORES : IVL_BANKS];
} ivl_bucket_t;

typedef struct ivl {
    sim_time_t origin;        /* ro: where interval 0 starts */
    sim_time_t len;           /* ro: the interval's length in ps (> 0), asked << coarsened */
    sim_time_t asked;         /* ro: the length asked for (record.interval), 0 for a window */
    unsigned coarsened;       /* ro: how many times the intervals were merged pairwise */
    sim_time_t lo, hi;        /* ro: only [lo, hi) is counted (a window); hi = SIM_TIME_NEVER: all */
    ivl_bucket_t *b;          /* private: intervals 0 … n-1 (ivl_bucket) */
    size_t n;                 /* ro: intervals counted in so far */
    size_t cap;               /* private: room in b */
    bool failed;              /* ro: out of memory: the figures are incomplete */
    ivl_bucket_t *last;       /* private: the interval ivl_add counted in last (NULL: none) */
    sim_time_t last_from, last_end; /* private: its bounds */
    unsigned banks;           /* ro: the run's banks (sm.banks): ivl_set_units */
    bool simt;                /* ro: core.model = simt: the SIMT fields are counted */
    bool groups;              /* ro: and simt.reconvergence = barrier: the barrier reason
                                 is one of them (S14) */
} ivl_t;

/* Intervals of `len` ps from 0 on (every one counted; at most
 * IVL_MAX_INTERVALS of them: then merged pairwise, len doubled). */
void ivl_init_intervals(ivl_t *iv, sim_time_t len);
/* One interval, the window [from, to) (to = 0: to the end of the run). */
void ivl_init_window(ivl_t *iv, sim_time_t from, sim_time_t to);
void ivl_free(ivl_t *iv);

/* What the run counts (the machine tells it when it is attached,
 * gpu_set_intervals): `banks` banks (sm.banks), the SIMT fields when
 * `simt` (core.model = simt), the barrier reason among them when `groups`
 * (simt.reconvergence = barrier, S14). */
static inline void ivl_set_units(ivl_t *iv, unsigned banks, bool simt, bool groups)
{
    iv->banks = banks;
    iv->simt = simt;
    iv->groups = groups;
}

/* Adds the part of [from, to) inside the counted range to `unit`'s `field`,
 * split at interval boundaries. */
void ivl_span(ivl_t *iv, ivl_field_t field, unsigned unit, sim_time_t from, sim_time_t to);
/* Adds `n` at moment `at` (if counted). */
void ivl_add(ivl_t *iv, ivl_field_t field, unsigned unit, sim_time_t at, uint64_t n);

/* Intervals (not a window) merged pairwise until [origin, stop) is at most
 * IVL_MAX_INTERVALS of them: what the rows up to the run's stop need. */
void ivl_reach(ivl_t *iv, sim_time_t stop);

/* Interval i's values: all zero for i >= n (an interval nothing was
 * counted in, up to the run's stop). */
const ivl_bucket_t *ivl_bucket(const ivl_t *iv, size_t i);

/* Interval i's bounds (the window's own bounds, the last one cut at `stop`). */
sim_time_t ivl_from(const ivl_t *iv, size_t i);
sim_time_t ivl_to(const ivl_t *iv, size_t i, sim_time_t stop);

#endif

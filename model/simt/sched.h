/* sched.h — the SIMT unit's warp schedulers (SIMT-SPEC S6): the order in
 * which a scheduler considers the eligible warps of one cycle, given what it
 * knows of the last issuing cycle. Pure functions over warp ages; no time.
 * A scheduler is one entry of SIMT_SCHEDS (simt.h, public: the
 * configuration's simt.scheduler) and one function in sched.c (a switch
 * over the list without default: a new entry without its function does not
 * compile). Tested on their own (tests/test_simt_flow.c). Private to
 * model/simt/. */
#ifndef TESSERA_SIMT_SCHED_H
#define TESSERA_SIMT_SCHED_H

#include <stdint.h>

#include "model/simt/simt.h"
#include "model/simt/stack.h"

/* What a scheduler knows about the last issuing cycle: the ages of the warps
 * chosen in it, in the order they were chosen (n = 0: no issuing cycle yet).
 * Ages identify warps (S1: distinct); a retired warp's age stays valid here. */
typedef struct simt_last {
    uint8_t n;
    uint64_t age[SIMT_WARPS_MAX];
} simt_last_t;

/* S6: orders the n eligible warps given by their ages (distinct, any order)
 * for `policy` (a simt_sched_t); writes to order[0..n) the indices into
 * age[] in the order the scheduler considers them (the first issue_width of
 * them issue). */
void simt_sched_order(unsigned policy, const uint64_t *age, unsigned n, const simt_last_t *last,
                      uint8_t *order /* OUT: n entries */);

#endif

/* sched.c — the warp schedulers of SIMT-SPEC S6 (see sched.h): one function
 * per entry of SIMT_SCHEDS, chosen by a switch over the list. Each orders
 * the eligible warps by age and by the last issuing cycle's choices. */
#include "model/simt/sched.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

const char *const simt_sched_names[] = {SIMT_SCHEDS(XENUM_NAME)[SIMT_SCHED_COUNT] = NULL};

/* Indices 0..n-1 sorted by age, oldest first (n <= 16: insertion sort). */
static void by_age(const uint64_t *age, unsigned n, uint8_t *idx)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned j = i;
        for (; j > 0 && age[idx[j - 1]] > age[i]; j--)
            idx[j] = idx[j - 1];
        idx[j] = (uint8_t)i;
    }
}

/* oldest: oldest first. */
static void oldest(const uint64_t *age, unsigned n, const simt_last_t *last,
                   const uint8_t *sorted, uint8_t *order)
{
    (void)age, (void)last;
    memcpy(order, sorted, n);
}

/* rr: in age order from the first warp younger than the last one chosen in
 * the last issuing cycle, wrapping to the oldest. */
static void rr(const uint64_t *age, unsigned n, const simt_last_t *last, const uint8_t *sorted,
               uint8_t *order)
{
    uint64_t after = last->age[last->n - 1]; /* the last warp chosen then */
    unsigned first = 0;
    while (first < n && age[sorted[first]] <= after)
        first++;
    for (unsigned i = 0; i < n; i++)
        order[i] = sorted[(first + i) % n];
}

/* gto: the last issuing cycle's warps first, in their order, then the
 * others oldest first. */
static void gto(const uint64_t *age, unsigned n, const simt_last_t *last, const uint8_t *sorted,
                uint8_t *order)
{
    bool used[SIMT_WARPS_MAX] = {false};
    unsigned k = 0;
    for (unsigned j = 0; j < last->n; j++)
        for (unsigned i = 0; i < n; i++)
            if (age[i] == last->age[j] && !used[i]) {
                used[i] = true;
                order[k++] = (uint8_t)i;
            }
    for (unsigned i = 0; i < n; i++)
        if (!used[sorted[i]])
            order[k++] = sorted[i];
}

void simt_sched_order(unsigned policy, const uint64_t *age, unsigned n, const simt_last_t *last,
                      uint8_t *order)
{
    uint8_t sorted[SIMT_WARPS_MAX];
    assert(n <= SIMT_WARPS_MAX && policy < SIMT_SCHED_COUNT);
    by_age(age, n, sorted);
    if (last->n == 0) { /* no issuing cycle yet: every scheduler takes the oldest first */
        memcpy(order, sorted, n);
        return;
    }
    switch ((simt_sched_t)policy) {
    case SIMT_SCHED_RR: rr(age, n, last, sorted, order); return;
    case SIMT_SCHED_GTO: gto(age, n, last, sorted, order); return;
    case SIMT_SCHED_OLDEST: oldest(age, n, last, sorted, order); return;
    case SIMT_SCHED_COUNT: break;
    }
    assert(!"simt_sched_order: not a scheduler"); /* gpu_desc_check keeps it in range */
    memcpy(order, sorted, n);
}

/* evq.h — Private to events/sim.c, events/evq.c: the event queue, a 4-ary min-heap of 128-bit keys.
 * Invariant: key[i] <= key[c] for every child c of i, and ev[i]->slot == i + 1
 * for every i < n. A key packs (time << 64 | prio << 56 | seq), so comparing
 * keys is comparing (time, priority, sequence) and two keys are never equal.
 * Keys and event pointers live in two arrays; the four children of a node
 * share one 64-byte line of keys (the root sits at physical index 3 of an
 * aligned block), and key[n .. n+3] always hold EVQ_KEY_MAX so the hot loop
 * compares four children without looking at n.
 *
 * Why this structure — measured during design with the hold benchmark run
 * through sim_run, each callback rescheduling its own event (millions of
 * events per CPU-second, medians of 5 interleaved runs, noisy 2-core VM):
 *
 *   structure                                  P=10   P=1000  P=100000
 *   binary heap, 128-bit key compares          47.2    20.4      3.8
 *   4-ary heap, 128-bit key compares           41.7    14.3      5.0
 *   4-ary heap, time-first compares (this)     45.1    27.8      5.4
 *   8-ary heap, 128-bit key compares           39.9    14.0      4.5
 *   8-ary heap, time-first compares            53.6    24.0      3.9
 *   this heap, pop + push instead of in-place  39.0    22.7       -
 *     (in-place in that session: 47.1 and 26.1)
 *   calendar queue, 1024 buckets, width tuned   -      28.6       -
 *     by hand (1 ps: 26.7, 8 ps: 27.4, 32 ps: 19.7; this heap: 24.5)
 *
 * A sift is a chain of dependent loads and compares, one link per level:
 * four children per level halve the depth of a binary heap and share one
 * cache line, and comparing 64-bit times (whole keys only on equal times)
 * shortens each link; the compiler turns 128-bit selects into branches or
 * stack traffic. Eight children save a level at P=1000 but cost more per
 * level. The calendar queue wins ~15% only with a hand-tuned bucket width,
 * degrades fast with a wrong one, needs 16 more bytes per event for its
 * lists, and the heuristics that pick the width have known bad cases
 * (bimodal or drifting increments), so the heap stays.
 * A pairing heap ran at a third of this heap's speed (pointer chasing). */
#ifndef TESSERA_EVQ_H
#define TESSERA_EVQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/sim.h"

__extension__ typedef unsigned __int128 evq_key_t;

#define EVQ_ARITY 4
#define EVQ_KEY_MAX (~(evq_key_t)0)
#define EVQ_SEQ_BITS 56
#define EVQ_SEQ_MAX ((UINT64_C(1) << EVQ_SEQ_BITS) - 1)

typedef struct evq {
    evq_key_t *key;       /* key[i] of node i; points 3 entries into the block */
    sim_event_t **ev;     /* ev[i], the event of node i */
    void *block;          /* the aligned allocation behind key */
    uint32_t n;           /* nodes in use (sim.c: pending + the running event) */
    uint32_t cap;         /* nodes that fit without growing */
} evq_t;

/* The key of (time, priority, sequence); seq <= EVQ_SEQ_MAX. */
static inline evq_key_t evq_make_key(sim_time_t t, uint8_t prio, uint64_t seq)
{
    return ((evq_key_t)t << 64) | ((uint64_t)prio << EVQ_SEQ_BITS) | seq;
}

static inline sim_time_t evq_key_time(evq_key_t k) { return (sim_time_t)(k >> 64); }

/* Prepares an empty queue (allocates nothing). */
void evq_init(evq_t *q);
/* Frees the arrays; events still queued are left as they are. */
void evq_fini(evq_t *q);
/* Makes room for `n` nodes. Returns 0, or -1 when memory is short (the queue
 * is unchanged). */
int evq_reserve(evq_t *q, size_t n);

/* Fills node i and points the event back at it. */
static inline void evq_place(evq_t *q, uint32_t i, evq_key_t k, sim_event_t *e)
{
    q->key[i] = k;
    q->ev[i] = e;
    e->slot = i + 1;
}

static inline uint64_t evq_hi(evq_key_t k) { return (uint64_t)(k >> 64); }

/* Index of the smallest of the four children starting at c, exactly, for
 * the rare group where two compared times are equal. */
static inline uint32_t evq_min4_exact(const evq_key_t *key, uint32_t c)
{
    uint32_t a = key[c + 1] < key[c] ? c + 1 : c;
    uint32_t b = key[c + 3] < key[c + 2] ? c + 3 : c + 2;
    return key[b] < key[a] ? b : a;
}

/* Index of the smallest of the four children starting at c, its time in
 * *tm (padding holds EVQ_KEY_MAX, so a group that runs past n is still four
 * keys). Compares times only, 64-bit and branch-free, and falls back to whole
 * keys when a comparison meets equal times: this shortens the dependency
 * chain per level, which is what a sift costs. */
static inline uint32_t evq_min4(const evq_key_t *key, uint32_t c, uint64_t *tm)
{
    const uint64_t *w = (const uint64_t *)(const void *)&key[c];
    uint64_t t0 = w[1], t1 = w[3], t2 = w[5], t3 = w[7];   /* high halves */
    uint32_t m;
    if (__builtin_expect((t0 == t1) | (t2 == t3), 0)) {
        m = evq_min4_exact(key, c);
        *tm = evq_hi(key[m]);
        return m;
    }
    uint32_t a = t1 < t0 ? c + 1 : c;
    uint32_t b = t3 < t2 ? c + 3 : c + 2;
    uint64_t ta = t1 < t0 ? t1 : t0;
    uint64_t tb = t3 < t2 ? t3 : t2;
    if (__builtin_expect(ta == tb, 0)) {
        *tm = ta;
        return key[b] < key[a] ? b : a;
    }
    *tm = tb < ta ? tb : ta;
    return tb < ta ? b : a;
}

/* Puts (k, e) into the hole at i, moving larger parents down. */
static inline void evq_sift_up(evq_t *q, uint32_t i, evq_key_t k, sim_event_t *e)
{
    while (i > 0) {
        uint32_t p = (i - 1) / 4;
        if (!(k < q->key[p]))
            break;
        evq_place(q, i, q->key[p], q->ev[p]);
        i = p;
    }
    evq_place(q, i, k, e);
}

/* Heaps above this many nodes overflow L1 (16 bytes of key per node):
 * their sifts prefetch the grandchildren, smaller ones save the work. */
#define EVQ_PREFETCH_NODES 2048

/* The sift-down loop; `prefetch` is a constant in each of its two copies. */
static inline __attribute__((always_inline)) uint32_t
evq_descend(evq_t *q, uint32_t i, evq_key_t k, bool prefetch)
{
    evq_key_t *key = q->key;
    uint32_t n = q->n;
    uint64_t kt = evq_hi(k);
    for (uint32_t c = 4 * i + 1; c < n; c = 4 * i + 1) {
        if (prefetch && (uint64_t)c * 4 + 1 < n) {
            const evq_key_t *g = &key[4 * c + 1];
            __builtin_prefetch(g);
            __builtin_prefetch(g + 4);
            __builtin_prefetch(g + 8);
            __builtin_prefetch(g + 12);
        }
        uint64_t mt;
        uint32_t m = evq_min4(key, c, &mt);
        if (mt > kt || (__builtin_expect(mt == kt, 0) && k < key[m]))
            break;
        evq_place(q, i, key[m], q->ev[m]);
        i = m;
    }
    return i;
}

/* Puts (k, e) into the hole at i, moving smaller children up. */
static inline __attribute__((always_inline)) void
evq_sift_down(evq_t *q, uint32_t i, evq_key_t k, sim_event_t *e)
{
    if (q->n > EVQ_PREFETCH_NODES)
        i = evq_descend(q, i, k, true);
    else
        i = evq_descend(q, i, k, false);
    evq_place(q, i, k, e);
}

/* Adds `e` with key `k`. Returns 0, or -1 when the queue cannot grow (the
 * queue is unchanged and `e` is not queued). */
static inline int evq_push(evq_t *q, sim_event_t *e, evq_key_t k)
{
    if (q->n == q->cap && evq_reserve(q, (size_t)q->cap * 2 + 60) != 0)
        return -1;
    uint32_t i = q->n++;
    evq_sift_up(q, i, k, e);
    return 0;
}

/* Removes node i and restores the invariant. */
static inline void evq_remove_at(evq_t *q, uint32_t i)
{
    uint32_t last = --q->n;
    q->ev[i]->slot = 0;
    if (i != last) {
        evq_key_t k = q->key[last];
        sim_event_t *e = q->ev[last];
        q->key[last] = EVQ_KEY_MAX;
        if (i > 0 && k < q->key[(i - 1) / 4])
            evq_sift_up(q, i, k, e);
        else
            evq_sift_down(q, i, k, e);
    } else {
        q->key[last] = EVQ_KEY_MAX;
    }
}

/* Removes the root, whose event is not touched (its slot is already 0). */
static inline void evq_pop_root(evq_t *q)
{
    uint32_t last = --q->n;
    evq_key_t k = q->key[last];
    sim_event_t *e = q->ev[last];
    q->key[last] = EVQ_KEY_MAX;
    if (last)
        evq_sift_down(q, 0, k, e);
}

/* Gives node i the key k and restores the invariant. */
static inline void evq_rekey_at(evq_t *q, uint32_t i, evq_key_t k)
{
    sim_event_t *e = q->ev[i];
    if (k < q->key[i])
        evq_sift_up(q, i, k, e);
    else
        evq_sift_down(q, i, k, e);
}

#endif

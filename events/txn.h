/* txn.h — transactions: the unit components trade (DESIGN "transactions").
 * A transaction carries a kind, its source and destination components, the
 * payload of a request or answer, and the timestamps of its life. They come
 * from a txn_pool_t and go back to it; the pool grows by chunks, never per
 * transaction, and in debug builds catches use after release. */
#ifndef TESSERA_TXN_H
#define TESSERA_TXN_H

#include <stddef.h>
#include <stdint.h>

#include "events/sim.h"

struct port;

typedef struct txn {
    sim_event_t ev;           /* private: delivery while in flight on a port */
    const struct port *port;  /* private: the port it travels on */
    union {
        struct txn *next_free; /* private: pool free list (while free) */
        struct txn *next_held; /* while live: free for the component holding it to chain
                                  it (the SM's waiting requests); NULL from txn_alloc */
    };
    uint32_t magic;           /* private: live/free marker for the debug check */
    uint16_t kind;            /* rw: what it is (the model's enum) */
    uint16_t src;             /* rw: sending component id */
    uint16_t dst;             /* rw: receiving component id */
    uint16_t core;            /* rw: the core it concerns */
    uint16_t frame;           /* rw: the Task Memory frame it concerns */
    uint16_t flags;           /* rw: kind-specific */
    uint32_t addr;            /* rw: address (SM requests) */
    uint64_t data;            /* rw: payload (value read or written, a mask …) */
    void *user;               /* rw: free for the owner */
    sim_time_t t_created;     /* rw: when it was allocated (set by txn_alloc) */
    sim_time_t t_sent;        /* rw: when it left its source (set by port_send) */
    sim_time_t t_arrived;     /* rw: when it reached its destination (set on delivery) */
    sim_time_t t_granted;     /* rw: when a shared resource accepted it */
    sim_time_t t_done;        /* rw: when its effect completed */
} txn_t;

typedef struct txn_chunk txn_chunk_t;

typedef struct txn_pool {
    sim_t *sim;               /* private: for t_created */
    txn_t *free_list;         /* private */
    txn_chunk_t *chunks;      /* private */
    size_t chunk_size;        /* private */
    size_t live;              /* ro: allocated and not released */
    size_t capacity;          /* ro: transactions owned by the pool */
} txn_pool_t;

/* Prepares a pool of `initial` transactions (0: a default chunk) for `sim`.
 * Returns TESS_OK or TESS_ENOMEM (the pool is then empty but usable). */
int txn_pool_init(txn_pool_t *pool, sim_t *sim, size_t initial);
/* Frees every chunk; transactions still live are released with it. */
void txn_pool_fini(txn_pool_t *pool);

/* A zeroed transaction with t_created = now; NULL when the pool cannot grow. */
txn_t *txn_alloc(txn_pool_t *pool);
/* Returns `t` to the pool; it must be live and not in flight. */
void txn_release(txn_pool_t *pool, txn_t *t);

/* Debug builds: asserts that `t` is live (allocated, not released). Release
 * builds: nothing. */
void txn_check(const txn_t *t);

#endif

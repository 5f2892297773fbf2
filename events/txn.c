/* txn.c — the transaction pool: chunks of txn_t threaded on a free list.
 * Invariant: every transaction the pool owns is either live (magic
 * TXN_MAGIC_LIVE, handed out by txn_alloc) or on the free list (magic
 * TXN_MAGIC_FREE); capacity = live + free. The pool grows one chunk at a time
 * and never frees a chunk before txn_pool_fini, so once warm it does not
 * allocate. Debug builds poison a released transaction's payload. */
#include "events/txn.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"

#define TXN_MAGIC_LIVE 0x54584e4cu   /* "TXNL" */
#define TXN_MAGIC_FREE 0xdeadf7eeu
#define TXN_CHUNK_DEFAULT 256
#define TXN_POISON 0xa5

struct txn_chunk {
    txn_chunk_t *next;        /* the chunk allocated before this one */
    size_t count;             /* transactions in txns[] */
    txn_t txns[];
};

/* Adds a chunk of `count` transactions to the free list; TESS_ENOMEM leaves
 * the pool unchanged. */
static int grow(txn_pool_t *pool, size_t count)
{
    if (count > (SIZE_MAX - sizeof(txn_chunk_t)) / sizeof(txn_t))
        return TESS_ENOMEM;
    txn_chunk_t *c = tess_malloc(sizeof *c + count * sizeof(txn_t));
    if (!c)
        return TESS_ENOMEM;
    c->next = pool->chunks;
    c->count = count;
    pool->chunks = c;
    for (size_t i = count; i-- > 0;) {
        txn_t *t = &c->txns[i];
        memset(t, 0, sizeof *t);
        t->magic = TXN_MAGIC_FREE;
        t->next_free = pool->free_list;
        pool->free_list = t;
    }
    pool->capacity += count;
    return TESS_OK;
}

int txn_pool_init(txn_pool_t *pool, sim_t *sim, size_t initial)
{
    memset(pool, 0, sizeof *pool);
    pool->sim = sim;
    pool->chunk_size = TXN_CHUNK_DEFAULT;
    return grow(pool, initial ? initial : TXN_CHUNK_DEFAULT);
}

void txn_pool_fini(txn_pool_t *pool)
{
    txn_chunk_t *c = pool->chunks;
    while (c) {
        txn_chunk_t *next = c->next;
        tess_free(c);
        c = next;
    }
    pool->chunks = NULL;
    pool->free_list = NULL;
    pool->live = 0;
    pool->capacity = 0;
}

txn_t *txn_alloc(txn_pool_t *pool)
{
    if (!pool->free_list && grow(pool, pool->chunk_size) != TESS_OK)
        return NULL;
    txn_t *t = pool->free_list;
    assert(t->magic == TXN_MAGIC_FREE && "transaction pool free list corrupted");
    pool->free_list = t->next_free;
    memset(t, 0, sizeof *t);
    t->magic = TXN_MAGIC_LIVE;
    t->t_created = sim_now(pool->sim);
    pool->live++;
    return t;
}

/* Debug builds: fills what the owner may read (everything after the private
 * fields) so that a use after release reads garbage, not stale values. */
static void poison(txn_t *t)
{
#ifndef NDEBUG
    memset(&t->kind, TXN_POISON, sizeof *t - offsetof(txn_t, kind));
#else
    (void)t;
#endif
}

void txn_release(txn_pool_t *pool, txn_t *t)
{
    txn_check(t);
    assert(!sim_event_pending(&t->ev) && "transaction released while in flight");
    assert(pool->live > 0);
    poison(t);
    t->magic = TXN_MAGIC_FREE;
    t->port = NULL;
    t->next_free = pool->free_list;
    pool->free_list = t;
    pool->live--;
}

void txn_check(const txn_t *t)
{
#ifndef NDEBUG
    assert(t && "NULL transaction");
    assert(t->magic != TXN_MAGIC_FREE && "transaction used after txn_release");
    assert(t->magic == TXN_MAGIC_LIVE && "not a transaction from a pool");
#else
    (void)t;
#endif
}

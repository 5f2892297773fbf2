/* evq.c — the cold half of the event queue (evq.h): creating and growing the
 * arrays. Growth copies into a fresh 64-byte aligned block so that each group
 * of four children stays on one cache line; padding after n holds EVQ_KEY_MAX. */
#include "events/evq.h"

#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"

#define EVQ_ALIGN 64
#define EVQ_ROOT 3              /* physical index of node 0 in the block */
#define EVQ_PAD 4               /* EVQ_KEY_MAX keys kept after the last node */
#define EVQ_MAX_NODES (UINT32_C(1) << 30)   /* 4 * index + 4 fits in 32 bits */

void evq_init(evq_t *q)
{
    memset(q, 0, sizeof *q);
}

void evq_fini(evq_t *q)
{
    tess_free(q->block);
    tess_free(q->ev);
    evq_init(q);
}

static size_t block_bytes(size_t cap)
{
    size_t bytes = (cap + EVQ_ROOT + EVQ_PAD) * sizeof(evq_key_t);
    return (bytes + EVQ_ALIGN - 1) / EVQ_ALIGN * EVQ_ALIGN;
}

int evq_reserve(evq_t *q, size_t n)
{
    if (n <= q->cap)
        return 0;
    if (n > EVQ_MAX_NODES)
        return -1;
    void *block = aligned_alloc(EVQ_ALIGN, block_bytes(n));
    if (!block)
        return -1;
    sim_event_t **ev = tess_realloc(q->ev, n * sizeof *ev);
    if (!ev) {
        tess_free(block);
        return -1;
    }
    evq_key_t *key = (evq_key_t *)block + EVQ_ROOT;
    if (q->n)
        memcpy(key, q->key, q->n * sizeof *key);
    for (size_t i = q->n; i < n + EVQ_PAD; i++)
        key[i] = EVQ_KEY_MAX;
    tess_free(q->block);
    q->block = block;
    q->key = key;
    q->ev = ev;
    q->cap = (uint32_t)n;
    return 0;
}

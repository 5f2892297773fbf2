/* two_level.c — a two-level warp scheduler (Narasiman et al., "Improving GPU
 * Performance via Large Warps and Two-Level Warp Scheduling", MICRO 2011;
 * the active/pending form of Gebhart et al., ISCA 2011): only a small active
 * set of warps (plugin.two_level.active, default 2) is scheduled, round-robin
 * after the active warp that issued last; a warp that waits on memory is
 * swapped out to the tail of the pending queue, and the first pending warps
 * not waiting on memory fill the active set in queue order (new warps join
 * the queue oldest first). So a few warps issue at a time and reach their
 * long-latency loads at different times, instead of all together as under
 * round-robin. The interface asks for an order of all eligible warps, so
 * pending warps follow the active ones, oldest first: one of them issues in
 * a cycle where no active warp can (the hardware would leave it idle).
 * Not a Tessera built-in; its timeline is checked by hand in
 * tests/test_policy.c. */
#include <stdlib.h>

#include "api/tessera_policy.h"

#define MAX 16

static const char *const params[] = {"active", NULL};

typedef struct two_level {
    unsigned size;            /* plugin.two_level.active */
    uint64_t active[MAX];     /* ages, in round-robin order */
    unsigned n_active;
    uint64_t pending[MAX];    /* ages, queue order */
    unsigned n_pending;
} two_level_t;

static int create(const tessera_host_t *host, void **state)
{
    const char *v = host->param(host, "active");
    char *end = NULL;
    unsigned long size = v ? strtoul(v, &end, 10) : 2;
    if (v && (*v == 0 || *end != 0 || size < 1 || size > MAX)) {
        host->fail(host, "plugin.two_level.active must be 1..16");
        return 1;
    }
    two_level_t *s = calloc(1, sizeof *s);
    if (!s)
        return 1;
    s->size = (unsigned)size;
    *state = s;
    return 0;
}

static void destroy(void *state) { free(state); }

/* The resident warp of age `age` in the call, or NULL. */
static const tessera_warp_t *find(const tessera_sched_call_t *c, uint64_t age, int *eligible)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->warp[i].age_ps == age)
            return *eligible = 1, &c->warp[i];
    for (unsigned i = 0; i < c->n_waiting; i++)
        if (c->waiting[i].age_ps == age)
            return *eligible = 0, &c->waiting[i];
    return NULL;
}

static int listed(const uint64_t *list, unsigned n, uint64_t age)
{
    for (unsigned i = 0; i < n; i++)
        if (list[i] == age)
            return 1;
    return 0;
}

/* Appends the warps of w[0..n) not yet in the sets to the queue, oldest first. */
static void enqueue_new(two_level_t *s, const tessera_warp_t *w, unsigned n)
{
    for (;;) {
        const tessera_warp_t *oldest = NULL;
        for (unsigned i = 0; i < n; i++)
            if (!listed(s->active, s->n_active, w[i].age_ps) &&
                !listed(s->pending, s->n_pending, w[i].age_ps) &&
                (!oldest || w[i].age_ps < oldest->age_ps))
                oldest = &w[i];
        if (!oldest)
            return;
        s->pending[s->n_pending++] = oldest->age_ps;
    }
}

/* Brings the sets up to date: warps gone leave, warps waiting on memory go
 * to the queue's tail (those that issued first, first), new warps join it,
 * and the queue's first warps not waiting on memory fill the active set. */
static void update(two_level_t *s, const tessera_sched_call_t *c)
{
    uint64_t demoted[MAX], last_issue[MAX];
    unsigned nd = 0, na = 0, np = 0;
    int e;
    for (unsigned i = 0; i < s->n_pending; i++)
        if (find(c, s->pending[i], &e))
            s->pending[np++] = s->pending[i];
    s->n_pending = np;
    for (unsigned i = 0; i < s->n_active; i++) {
        const tessera_warp_t *w = find(c, s->active[i], &e);
        if (!w)
            continue;
        if (!w->mem_pending) {
            s->active[na++] = s->active[i];
            continue;
        }
        unsigned j = nd++; /* insertion by (last issue, age) */
        for (; j > 0 && (last_issue[j - 1] > w->last_issue_ps ||
                         (last_issue[j - 1] == w->last_issue_ps && demoted[j - 1] > w->age_ps));
             j--)
            demoted[j] = demoted[j - 1], last_issue[j] = last_issue[j - 1];
        demoted[j] = w->age_ps, last_issue[j] = w->last_issue_ps;
    }
    s->n_active = na;
    for (unsigned i = 0; i < nd; i++)
        s->pending[s->n_pending++] = demoted[i];
    enqueue_new(s, c->warp, c->n);
    enqueue_new(s, c->waiting, c->n_waiting);
    np = 0;
    for (unsigned i = 0; i < s->n_pending; i++) {
        const tessera_warp_t *w = find(c, s->pending[i], &e);
        if (s->n_active < s->size && !w->mem_pending)
            s->active[s->n_active++] = s->pending[i];
        else
            s->pending[np++] = s->pending[i];
    }
    s->n_pending = np;
}

static int schedule(void *state, const tessera_sched_call_t *c, uint8_t *order)
{
    two_level_t *s = state;
    update(s, c);
    unsigned start = 0, k = 0; /* round-robin after the active warp that issued last */
    for (unsigned j = 0; j < c->n_last; j++)
        for (unsigned a = 0; a < s->n_active; a++) {
            int e;
            const tessera_warp_t *w = find(c, s->active[a], &e);
            if (w && w->slot == c->last[j])
                start = a + 1;
        }
    uint32_t used = 0;
    for (unsigned i = 0; i < s->n_active; i++) {
        uint64_t age = s->active[(start + i) % s->n_active];
        for (unsigned w = 0; w < c->n; w++)
            if (c->warp[w].age_ps == age)
                used |= 1u << w, order[k++] = (uint8_t)w;
    }
    while (k < c->n) { /* the pending warps, oldest first */
        unsigned best = c->n;
        for (unsigned w = 0; w < c->n; w++)
            if (!(used >> w & 1) && (best == c->n || c->warp[w].age_ps < c->warp[best].age_ps))
                best = w;
        used |= 1u << best;
        order[k++] = (uint8_t)best;
    }
    return 0;
}

TESSERA_POLICY_EXPORT = {
    .abi = TESSERA_POLICY_ABI,
    .kind = TESSERA_POLICY_SCHEDULER,
    .name = "two_level",
    .params = params,
    .create = create,
    .destroy = destroy,
    .schedule = schedule,
};

/* sm.c — the Shared Memory banks (D13, D14, D16, T7, T8). Each bank keeps the
 * requests posted to it (at most one per core, cores block on their access)
 * and one grant event at the earliest moment it can serve one of them; at
 * that moment it lets the arbiter choose among the requests that have
 * arrived, performs the access (it takes effect at the grant), and answers
 * the core. Requests that arrive at the instant the bank frees compete with
 * those already waiting, because grants run after arrivals (GPU_PRIO_*). */
#include "model/sm.h"

#include <assert.h>
#include <string.h>

#include "model/gpu_impl.h"

static void grant_cb(sim_t *sim, sim_event_t *ev);

void sm_init(sm_t *sm, struct gpu *g, const uint8_t initial[SM_BYTES])
{
    memset(sm, 0, sizeof *sm);
    sm->gpu = g;
    memcpy(sm->mem, initial, SM_BYTES);
    for (unsigned i = 0; i < SM_BANKS; i++) {
        bank_t *b = &sm->banks[i];
        b->sm = sm;
        b->id = (uint8_t)i;
        b->last = -1;
        b->lock_core = -1;
        rng_seed(&b->rng, g->desc.seed, 0x200 + i);
        sim_event_init(&b->grant_ev, grant_cb, b, GPU_PRIO_SM_GRANT, "bank.grant");
    }
}

unsigned sm_bank_of(const sm_t *sm, unsigned addr)
{
    if (sm->gpu->desc.bank_map == GPU_MAP_INTERLEAVED)
        return addr & 0xf;          /* bank = addr[3:0], row = addr[11:4] */
    return (addr >> 8) & 0xf;       /* D13: bank = addr[11:8], row = addr[7:0] */
}

/* D16: while another core holds this bank's lock, accesses to the locked byte
 * wait, and so does any ld_sync (one sequence per bank at a time). */
static bool blocked(const bank_t *b, const txn_t *t)
{
    if (b->lock_core < 0 || b->lock_core == t->core)
        return false;
    if (t->addr == b->lock_addr)
        return true;
    return (t->flags & GPU_TXN_SYNC) && !(t->flags & GPU_TXN_STORE);
}

/* Cores whose request could be granted once it has arrived. */
static uint16_t grantable(const bank_t *b)
{
    uint16_t m = b->pending;
    if (b->lock_core < 0)
        return m;
    for (uint16_t rest = m; rest; rest &= rest - 1) {
        unsigned c = (unsigned)__builtin_ctz(rest);
        if (blocked(b, b->req[c]))
            m &= (uint16_t)~(1u << c);
    }
    return m;
}

static sim_time_t max_time(sim_time_t a, sim_time_t b) { return a > b ? a : b; }

/* Keeps the invariant: the grant event is pending exactly when a grantable
 * request exists, at max(now, bank free, its earliest arrival). */
static void bank_schedule(bank_t *b)
{
    sim_t *sim = b->sm->gpu->sim;
    uint16_t m = grantable(b);
    if (!m) {
        sim_cancel(sim, &b->grant_ev);
        return;
    }
    sim_time_t earliest = SIM_TIME_NEVER;
    for (; m; m &= m - 1) {
        sim_time_t a = b->req[__builtin_ctz(m)]->t_arrived;
        earliest = a < earliest ? a : earliest;
    }
    sim_time_t at = max_time(max_time(earliest, b->free_ps), sim_now(sim));
    if (!sim_event_pending(&b->grant_ev) || b->grant_ev.time != at)
        sim_schedule(sim, &b->grant_ev, at);
}

void sm_post(sm_t *sm, txn_t *t)
{
    bank_t *b = &sm->banks[sm_bank_of(sm, t->addr)];
    assert(!(b->pending & (1u << t->core)));
    b->req[t->core] = t;
    b->pending |= (uint16_t)(1u << t->core);
    if (blocked(b, t))
        return;
    sim_time_t at = max_time(max_time(t->t_arrived, b->free_ps), sim_now(sm->gpu->sim));
    if (!sim_event_pending(&b->grant_ev) || b->grant_ev.time > at)
        sim_schedule(sm->gpu->sim, &b->grant_ev, at);
}

void sm_on_request(void *sm, txn_t *t)
{
    sm_post(sm, t);
}

/* The index of the k-th set bit of m (k from 0). */
static unsigned nth_bit(uint16_t m, unsigned k)
{
    while (k--)
        m &= m - 1;
    return (unsigned)__builtin_ctz(m);
}

/* T8: which of the arrived requests `m` (non-empty) the bank serves. */
static unsigned arbitrate(bank_t *b, uint16_t m)
{
    switch (b->sm->gpu->desc.arbiter) {
    case GPU_ARB_RR: {
        unsigned start = (unsigned)(b->last + 1) & 0xf; /* core 0 before the first grant */
        uint16_t rot = (uint16_t)((m >> start) | (m << (16 - start)));
        return ((unsigned)__builtin_ctz(rot) + start) & 0xf;
    }
    case GPU_ARB_FIFO: {
        unsigned best = (unsigned)__builtin_ctz(m); /* ties: the lowest core id */
        for (uint16_t rest = m & (m - 1); rest; rest &= rest - 1) {
            unsigned c = (unsigned)__builtin_ctz(rest);
            if (b->req[c]->t_arrived < b->req[best]->t_arrived)
                best = c;
        }
        return best;
    }
    case GPU_ARB_RANDOM:
        return nth_bit(m, (unsigned)rng_below(&b->rng, (uint64_t)__builtin_popcount(m)));
    default: /* GPU_ARB_FIXED: the lowest core id */
        return (unsigned)__builtin_ctz(m);
    }
}

/* D16: ld_sync takes a free lock; the owner's st_sync to the byte frees it. */
static void update_lock(bank_t *b, const txn_t *t)
{
    if (!(t->flags & GPU_TXN_SYNC))
        return;
    if (!(t->flags & GPU_TXN_STORE)) {
        if (b->lock_core < 0) {
            b->lock_core = (int8_t)t->core;
            b->lock_addr = (uint16_t)t->addr;
            b->lock_acquires++;
        }
    } else if (b->lock_core == t->core && b->lock_addr == t->addr) {
        b->lock_core = -1;
    }
}

static void trace_access(bank_t *b, const txn_t *t)
{
    gpu_tr_access_t r = {
        .frame = (uint8_t)t->frame,
        .core = (uint8_t)t->core,
        .is_store = (t->flags & GPU_TXN_STORE) != 0,
        .sync = (t->flags & GPU_TXN_SYNC) != 0,
        .bank = b->id,
        .value = (uint8_t)t->data,
        .addr = (uint16_t)t->addr,
        .request_ps = t->t_created,
        .arrive_ps = t->t_arrived,
        .grant_ps = t->t_granted,
        .done_ps = t->t_done,
    };
    sim_trace(b->sm->gpu->sim, GPU_TR_ACCESS, &r);
}

/* Performs `t` now (T7: the read or write takes effect at the grant). */
static void serve(bank_t *b, txn_t *t, sim_time_t now)
{
    struct gpu *g = b->sm->gpu;
    uint8_t *byte = &b->sm->mem[t->addr];
    if (t->flags & GPU_TXN_STORE)
        *byte = (uint8_t)t->data;
    else
        t->data = *byte;
    if (g->desc.atomics)
        update_lock(b, t);
    sim_time_t service = gpu_cycles(g, lat_sample(&g->desc.sm_bank, &b->rng));
    sim_time_t resp = gpu_cycles(g, lat_sample(&g->desc.sm_resp, &b->rng));
    t->t_granted = now;
    t->t_done = now + service + resp;
    b->free_ps = now + service;
    sim_time_t wait = now - t->t_arrived;
    b->accesses++;
    b->conflicts += wait > 0;
    b->wait_ps += wait;
    b->max_wait_ps = wait > b->max_wait_ps ? wait : b->max_wait_ps;
    b->busy_ps += service;
    if (g->trace & GPU_TRACE_ACCESSES)
        trace_access(b, t);
}

static void grant_cb(sim_t *sim, sim_event_t *ev)
{
    bank_t *b = ev->data;
    struct gpu *g = b->sm->gpu;
    sim_time_t now = sim_now(sim);
    uint16_t arrived = 0;
    for (uint16_t m = grantable(b); m; m &= m - 1) {
        unsigned c = (unsigned)__builtin_ctz(m);
        if (b->req[c]->t_arrived <= now)
            arrived |= (uint16_t)(1u << c);
    }
    assert(arrived && b->free_ps <= now);
    unsigned c = arbitrate(b, arrived);
    txn_t *t = b->req[c];
    b->req[c] = NULL;
    b->pending &= (uint16_t)~(1u << c);
    b->last = (int8_t)c;
    serve(b, t, now);
    if (g->desc.timing == GPU_TIMING_STEPPED)
        port_send(&g->cores[c].resp_port, t, t->t_done - now);
    else
        core_on_answer(&g->cores[c], t); /* the core may post here again */
    bank_schedule(b);
}

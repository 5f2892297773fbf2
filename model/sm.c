/* sm.c — the Shared Memory banks (D13, D14, D16, T7, T8). Each bank keeps the
 * requests posted to it (each requester's earliest in req[], any later ones
 * of the same requester behind it in sm->more[]: a core blocks on its access, a
 * block in front of the SM need not) and the earliest moment it can serve
 * one of them; at that moment it lets
 * the arbiter choose among the requests that have arrived, performs the
 * access (it takes effect at the grant), and answers the core. Requests that
 * arrive at the instant the bank frees compete with those already waiting,
 * because grants run after arrivals (GPU_PRIO_*). One SM event serves all
 * banks due at a picosecond: a grant at T answers at T + sm.bank + sm.resp
 * (sm.bank >= 1 cycle), so nothing it causes can be due at T itself, and the
 * banks of one picosecond are independent (different bytes). */
#include "model/sm.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "model/gpu_impl.h"

static void grant_cb(sim_t *sim, sim_event_t *ev);
static void grant_plugin_cb(sim_t *sim, sim_event_t *ev);

/* sm->arbiter when sm.arbiter is a plugin (beyond gpu_arbiter_t's values). */
#define SM_ARB_PLUGIN GPU_ARB_COUNT

/* The bank of every address from the sm.bank_map plugin, in address order
 * (policy.h): an answer out of range ends the run (bank 0 stands in). */
static void map_by_plugin(sm_t *sm, struct gpu *g)
{
    policy_run_t *p = sm->map_run;
    for (unsigned a = 0; a < SM_BYTES; a++) {
        unsigned bank = policy_bank_of(p, a, sm->nbanks);
        if (bank >= sm->nbanks || policy_failed(p)) {
            char what[96];
            snprintf(what, sizeof what, "address 0x%03x mapped to bank %u, not in 0..%u", a, bank,
                     sm->nbanks - 1u);
            gpu_policy_error(g, p, "bank_of", 0, what);
            bank = 0;
        }
        sm->bank_of[a] = (uint8_t)bank;
    }
}

void sm_init(sm_t *sm, struct gpu *g, const uint8_t initial[SM_BYTES], policy_run_t *arbiter,
             policy_run_t *bank_map)
{
    memset(sm, 0, sizeof *sm);
    sm->gpu = g;
    sm->sim = g->sim;
    sm->arb_run = arbiter;
    sm->map_run = bank_map;
    sm->stepped = gpu_stepped(&g->desc);
    sm->atomics = g->desc.atomics;
    sm->nbanks = g->desc.banks;
    if (policy_plugged(bank_map))
        map_by_plugin(sm, g);
    else
        for (unsigned a = 0; a < SM_BYTES; a++)
            sm->bank_of[a] = (uint8_t)gpu_bank_of(g->desc.bank_map, g->desc.banks, a);
    sm->arbiter = policy_plugged(arbiter) ? SM_ARB_PLUGIN : g->desc.arbiter;
    memcpy(sm->mem, initial, SM_BYTES);
    sm->lat_fixed = lat_is_fixed(&g->desc.sm_bank) && lat_is_fixed(&g->desc.sm_resp);
    sm->bank_ps = gpu_cycles(g, g->desc.sm_bank.lo);
    sm->resp_ps = gpu_cycles(g, g->desc.sm_resp.lo);
    for (unsigned i = 0; i < sm->nbanks; i++) {
        bank_t *b = &sm->banks[i];
        b->sm = sm;
        b->id = (uint8_t)i;
        b->last = -1;
        b->lock_core = -1;
        rng_seed(&b->rng, g->desc.seed, RNG_STREAM_BANK(i));
        b->min_arrive = SIM_TIME_NEVER;
        sm->next[i] = SIM_TIME_NEVER;
    }
    /* a plugin arbiter is asked at every grant: its own copy of the grant loop,
       so that the built-ins' grants test nothing more */
    sim_event_init(&sm->grant_ev, sm->arbiter == SM_ARB_PLUGIN ? grant_plugin_cb : grant_cb, sm,
                   GPU_PRIO_SM_GRANT, "sm.grant");
    sm_set_observed(sm, false);
}

void sm_set_observed(sm_t *sm, bool on)
{
    sm->observed = on;
    sm->plain = !sm->atomics && sm->lat_fixed && !on && !sm->held;
}

unsigned sm_bank_of(const sm_t *sm, unsigned addr) { return sm->bank_of[addr % SM_BYTES]; }

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
static inline uint16_t grantable(const bank_t *b)
{
    uint16_t m = b->pending;
    if (__builtin_expect(b->lock_core < 0, 1))
        return m;
    for (uint16_t rest = m; rest; rest &= rest - 1) {
        unsigned c = (unsigned)__builtin_ctz(rest);
        if (blocked(b, b->req[c]))
            m &= (uint16_t)~(1u << c);
    }
    return m;
}

static sim_time_t max_time(sim_time_t a, sim_time_t b) { return a > b ? a : b; }

/* When bank b, which has just granted, can next grant: max(bank free,
 * earliest grantable arrival), or SIM_TIME_NEVER (the grant set free_ps to
 * now + service, so now need not be looked at). Without a lock every pending
 * request is grantable and the earliest arrival is kept (min_arrive): O(1). */
static sim_time_t bank_next(const bank_t *b, sim_time_t now)
{
    assert(b->free_ps >= now);
    (void)now;
    sim_time_t from = b->free_ps;
    if (__builtin_expect(b->lock_core < 0, 1))
        return b->pending ? max_time(from, b->min_arrive) : SIM_TIME_NEVER;
    uint16_t m = grantable(b);
    if (!m)
        return SIM_TIME_NEVER;
    sim_time_t earliest = SIM_TIME_NEVER;
    for (; m; m &= m - 1) {
        sim_time_t a = b->arrive[__builtin_ctz(m)];
        if (a <= from)
            return from; /* a request waits already: the bank grants when free */
        earliest = a < earliest ? a : earliest;
    }
    return earliest;
}

/* Recomputes min_arrive after a grant took a request that arrived at it:
 * unchanged when another pending request arrived then too (the lanes of a
 * warp arrive together: the walk stops at the first). */
static void bank_min_arrive(bank_t *b)
{
    sim_time_t was = b->min_arrive, earliest = SIM_TIME_NEVER;
    for (uint16_t m = b->pending; m; m &= m - 1) {
        sim_time_t a = b->arrive[__builtin_ctz(m)];
        if (a == was)
            return;
        earliest = a < earliest ? a : earliest;
    }
    b->min_arrive = earliest;
}

/* Keeps the SM event at `at`, the earliest next[] (SIM_TIME_NEVER: none). */
static void sm_reschedule(sm_t *sm, sim_time_t at)
{
    sim_t *sim = sm->sim;
    if (at == SIM_TIME_NEVER)
        sim_cancel(sim, &sm->grant_ev);
    else if (!sim_event_pending(&sm->grant_ev) || sm->grant_ev.time != at)
        sim_schedule(sim, &sm->grant_ev, at);
}

void sm_attach(sm_t *sm, unsigned id, port_recv_fn recv, void *owner)
{
    bool direct = !sm->stepped && sm->gpu->horizon == SIM_TIME_NEVER;
    link_init(&sm->answer[id], sm->sim, direct, GPU_PRIO_ANSWER, recv, owner, "sm->core");
}

void sm_bound(sm_t *sm)
{
    for (unsigned id = 0; id < GPU_CORES; id++)
        sm->answer[id].direct = false;
}

/* Requester c's request `t` comes while c has one posted at bank `id`: the
 * later of the two (by arrival, then by posting) waits in sm->more[id], kept
 * in arrival order. Normally that is `t`; one that arrives before the posted
 * one (decoupled timing with a drawn sm.req: posted later, due earlier)
 * takes its place, and the displaced one goes before every waiting request
 * of its arrival (it was posted before them). True when `t` is to be the
 * posted one (the caller goes on as for a first request), false when it
 * waits. */
static inline bool wait_behind(sm_t *sm, unsigned id, txn_t *t)
{
    const bank_t *b = &sm->banks[id];
    unsigned c = t->core;
    bool first = t->t_arrived < b->arrive[c];
    txn_t *w = first ? b->req[c] : t;
    sim_time_t a = first ? b->arrive[c] : t->t_arrived;
    txn_t **at = &sm->more[id];
    while (*at && (first ? (*at)->t_arrived < a : (*at)->t_arrived <= a))
        at = &(*at)->next_held;
    w->next_held = *at;
    *at = w;
    sm->held++;
    sm->plain = false; /* the grants look for the waiting requests (serve_as) */
    return first;
}

/* After a grant to requester c at bank `id`: c's next waiting request, if
 * any, becomes its posted one (the first of c's in sm->more[id]). */
static __attribute__((noinline, cold)) void post_next(sm_t *sm, unsigned id, unsigned c)
{
    bank_t *b = &sm->banks[id];
    txn_t **at = &sm->more[id];
    while (*at && (*at)->core != c)
        at = &(*at)->next_held;
    txn_t *t = *at;
    if (!t)
        return; /* others wait, none of c's */
    *at = t->next_held;
    t->next_held = NULL;
    if (!--sm->held)
        sm_set_observed(sm, sm->observed); /* plain again, unless for something else */
    b->req[c] = t;
    b->arrive[c] = t->t_arrived;
    b->pending |= (uint16_t)(1u << c);
    b->min_arrive = t->t_arrived < b->min_arrive ? t->t_arrived : b->min_arrive;
}

/* Posts `t` as its requester's request at bank `id` (it has none there). */
static inline __attribute__((always_inline)) void post(sm_t *sm, unsigned id, txn_t *t)
{
    bank_t *b = &sm->banks[id];
    b->req[t->core] = t;
    b->arrive[t->core] = t->t_arrived;
    b->pending |= (uint16_t)(1u << t->core);
    b->min_arrive = t->t_arrived < b->min_arrive ? t->t_arrived : b->min_arrive;
    if (blocked(b, t))
        return;
    assert(t->t_arrived >= sim_now(sm->sim)); /* so the grant is not before now */
    sim_time_t at = max_time(t->t_arrived, b->free_ps);
    if (at >= sm->next[id])
        return;
    sm->next[id] = at;
    sm->active |= UINT64_C(1) << id;
    /* during the SM event every new time is later than now; it reschedules at its end */
    if (sm->granting)
        sm->posted_min = at < sm->posted_min ? at : sm->posted_min;
    else if (!sim_event_pending(&sm->grant_ev) || sm->grant_ev.time > at)
        sim_schedule(sm->sim, &sm->grant_ev, at);
}

/* A request whose requester has one posted at its bank already. */
static __attribute__((noinline, cold)) void post_behind(sm_t *sm, unsigned id, txn_t *t)
{
    if (wait_behind(sm, id, t))
        post(sm, id, t); /* it arrives first: posted in the other's place */
}

void sm_on_request(void *self, txn_t *t)
{
    sm_t *sm = self;
    assert(t->addr < SM_BYTES && t->core < GPU_CORES);
    unsigned id = sm->bank_of[t->addr];
    assert(!(sm->banks[id].pending & (1u << t->core)) && "one in flight: sm_on_request_queued");
    post(sm, id, t);
}

void sm_on_request_queued(void *self, txn_t *t)
{
    sm_t *sm = self;
    assert(t->addr < SM_BYTES && t->core < GPU_CORES);
    unsigned id = sm->bank_of[t->addr];
    if (sm->banks[id].pending & (1u << t->core))
        post_behind(sm, id, t);
    else
        post(sm, id, t);
}

/* The index of the k-th set bit of m (k from 0). */
static unsigned nth_bit(uint16_t m, unsigned k)
{
    while (k--)
        m &= m - 1;
    return (unsigned)__builtin_ctz(m);
}

/* The first core of `order` (bits, lowest first; `shift` rotates back to core
 * ids) whose request has arrived by now; -1 when none. */
static int first_arrived(const bank_t *b, uint16_t order, unsigned shift, sim_time_t now)
{
    for (; order; order &= order - 1) {
        unsigned c = ((unsigned)__builtin_ctz(order) + shift) & 0xf;
        if (b->arrive[c] <= now)
            return (int)c;
    }
    return -1;
}

/* The sm.arbiter plugin chooses among the grantable requests `m` that have
 * arrived by now (policy.h); an answer that is not one of them ends the run
 * (the lowest of them stands in). Out of line: only a plugin run gets here. */
static __attribute__((noinline, cold)) unsigned arbitrate_plugin(bank_t *b, uint16_t m,
                                                                  sim_time_t now)
{
    struct gpu *g = b->sm->gpu;
    policy_run_t *p = b->sm->arb_run;
    tessera_arb_request_t req[GPU_CORES];
    unsigned n = 0;
    uint16_t arrived = 0;
    for (; m; m &= m - 1) {
        unsigned c = (unsigned)__builtin_ctz(m);
        const txn_t *t = b->req[c];
        if (b->arrive[c] > now)
            continue;
        arrived |= (uint16_t)(1u << c);
        req[n++] = (tessera_arb_request_t){
            .requester = (uint8_t)c, .frame = (uint8_t)t->frame,
            .is_store = (t->flags & GPU_TXN_STORE) != 0, .sync = (t->flags & GPU_TXN_SYNC) != 0,
            .addr = (uint16_t)t->addr, .request_ps = t->t_created, .arrive_ps = b->arrive[c],
        };
    }
    uint64_t cycle = now / g->desc.period_ps;
    tessera_arb_call_t call = {.now_ps = now, .cycle = cycle, .bank = b->id, .last = b->last,
                               .n = n, .req = req};
    int c = policy_arbitrate(p, &call);
    if (c >= 0 && c < GPU_CORES && (arrived >> c & 1) && !policy_failed(p))
        return (unsigned)c;
    char what[128];
    snprintf(what, sizeof what, "bank %u granted requester %d, which is not among the %u waiting "
             "(the lowest of them stands in)", b->id, c, n);
    gpu_policy_error(g, p, "arbitrate", cycle, what);
    return (unsigned)__builtin_ctz(arrived);
}

/* T8: which of the grantable requests `m` that have arrived by now the bank
 * serves (at least one has arrived). One case per entry of GPU_ARBITERS and
 * no default: a new arbiter does not compile until it has a behaviour here
 * (tests/test_timing.c checks that each one's is its own). */
static unsigned arbitrate(bank_t *b, uint16_t m, sim_time_t now)
{
    switch ((gpu_arbiter_t)b->sm->arbiter) {
    case GPU_ARB_FIXED: /* the lowest core id */
        return (unsigned)first_arrived(b, m, 0, now);
    case GPU_ARB_RR: {
        unsigned start = (unsigned)(b->last + 1) & 0xf; /* core 0 before the first grant */
        uint16_t rot = (uint16_t)(((unsigned)m >> start) | ((unsigned)m << (GPU_CORES - start)));
        return (unsigned)first_arrived(b, rot, start, now);
    }
    case GPU_ARB_FIFO: {
        int best = -1; /* oldest arrival; ties: the lowest core id */
        for (; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            if (b->arrive[c] <= now && (best < 0 || b->arrive[c] < b->arrive[best]))
                best = c;
        }
        return (unsigned)best;
    }
    case GPU_ARB_RANDOM: {
        uint16_t arrived = 0;
        for (uint16_t rest = m; rest; rest &= rest - 1)
            if (b->arrive[__builtin_ctz(rest)] <= now)
                arrived |= (uint16_t)(rest & -rest);
        if (!(arrived & (arrived - 1)))
            return (unsigned)__builtin_ctz(arrived); /* no draw: one choice, in every mode */
        return nth_bit(arrived, (unsigned)rng_below(&b->rng, (uint64_t)__builtin_popcount(arrived)));
    }
    case GPU_ARB_COUNT: /* SM_ARB_PLUGIN: grant_plugin_cb asks the plugin itself */
        break;
    }
    assert(!"arbiter out of range (gpu_desc_check rejects it)");
    return (unsigned)__builtin_ctz(m);
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

/* The access record through the trace hook. */
static __attribute__((noinline)) void trace_access_hook(bank_t *b, const txn_t *t)
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
    sim_trace(b->sm->sim, GPU_TR_ACCESS, &r);
}

/* The access record, written field by field into the access sink when
 * there is one (no call, no dispatch, no copy: level mem records every
 * access), else through the trace hook. Everything is loaded after the
 * call that makes room and before the first store: the record's byte fields
 * could alias the transaction as far as the compiler knows. */
static inline void trace_access(struct gpu *g, bank_t *b, const txn_t *t)
{
    gpu_access_sink_t *sink = g->access_sink;
    if (!sink) {
        trace_access_hook(b, t);
        return;
    }
    if (__builtin_expect(sink->next == sink->end, 0))
        sink->full(sink); /* first, so that nothing lives across the call */
    uint8_t frame = (uint8_t)t->frame, core = (uint8_t)t->core, bank = b->id;
    uint8_t value = (uint8_t)t->data, flags = (uint8_t)t->flags;
    uint16_t addr = (uint16_t)t->addr;
    sim_time_t req = t->t_created, arr = t->t_arrived, grant = t->t_granted, done = t->t_done;
    gpu_tr_access_t *r = sink->next++;
    r->frame = frame;
    r->core = core;
    r->is_store = (flags & GPU_TXN_STORE) != 0;
    r->sync = (flags & GPU_TXN_SYNC) != 0;
    r->bank = bank;
    r->value = value;
    r->addr = addr;
    r->request_ps = req;
    r->arrive_ps = arr;
    r->grant_ps = grant;
    r->done_ps = done;
}

/* The service and answer latencies of one grant (sm.bank, sm.resp), drawn
 * (returned, not written through pointers: the fixed latencies' locals
 * then stay in registers). */
typedef struct grant_lat {
    sim_time_t service, resp;
} grant_lat_t;

static __attribute__((noinline)) grant_lat_t drawn_latencies(bank_t *b)
{
    struct gpu *g = b->sm->gpu;
    grant_lat_t l;
    l.service = gpu_cycles(g, lat_sample(&g->desc.sm_bank, &b->rng));
    l.resp = gpu_cycles(g, lat_sample(&g->desc.sm_resp, &b->rng));
    return l;
}

/* A grant that found its request waiting: the bank's conflict figures. */
static void count_wait(bank_t *b, sim_time_t wait)
{
    b->conflicts++;
    b->wait_ps += wait;
    b->max_wait_ps = wait > b->max_wait_ps ? wait : b->max_wait_ps;
}

/* What interval statistics see of a grant. */
static __attribute__((noinline, cold)) void observe_ivl(struct gpu *g, const bank_t *b,
                                                         sim_time_t now, sim_time_t service,
                                                         sim_time_t wait)
{
    gpu_ivl_span(g, IVL_BANK_BUSY, b->id, now, now + service);
    gpu_ivl_add(g, IVL_BANK_CONFLICTS, b->id, now, wait > 0);
}

/* What interval statistics and the access trace see of a grant. The
 * interval part out of line: inlined, its register saves and stack frame
 * cost every traced access ~20 host instructions (level mem records them
 * all). */
static __attribute__((noinline, cold)) void observe(bank_t *b, const txn_t *t, sim_time_t now,
                                                     sim_time_t service, sim_time_t wait)
{
    struct gpu *g = b->sm->gpu;
    if (g->ivl[0] || g->ivl[1])
        observe_ivl(g, b, now, service, wait);
    if (g->trace & GPU_TRACE_ACCESSES)
        trace_access(g, b, t);
}

/* Performs `t`, which arrived at `arrived`, now (T7: the read or write takes
 * effect at the grant). The fields are read into locals first: the
 * transaction could alias the bank as far as the compiler knows. */
static inline __attribute__((always_inline)) void serve_as(sm_t *sm, bank_t *b, txn_t *t,
                                                           sim_time_t arrived, sim_time_t now,
                                                           bool plain)
{
    uint8_t *byte = &sm->mem[t->addr];
    if (t->flags & GPU_TXN_STORE)
        *byte = (uint8_t)t->data;
    else
        t->data = *byte;
    if (!plain && sm->atomics)
        update_lock(b, t);
    grant_lat_t lat = {sm->bank_ps, sm->resp_ps};
    if (!plain && !sm->lat_fixed)
        lat = drawn_latencies(b);
    sim_time_t service = lat.service, wait = now - arrived;
    t->t_granted = now;
    t->t_done = now + service + lat.resp;
    b->free_ps = now + service;
    b->accesses++;
    b->busy_ps += service;
    if (wait) /* most grants find their request just arrived */
        count_wait(b, wait);
    if (!plain && sm->observed)
        observe(b, t, now, service, wait);
    if (!plain && sm->held) /* before the answer: the requester may post again within it */
        post_next(sm, b->id, t->core);
}

/* serve_as, written out once for the plain SM (sm->plain: no atomics, fixed
 * latencies, nobody observing), which then tests none of them per grant. */
static inline void serve(sm_t *sm, bank_t *b, txn_t *t, sim_time_t arrived, sim_time_t now)
{
    if (__builtin_expect(sm->plain, 1))
        serve_as(sm, b, t, arrived, now, true);
    else
        serve_as(sm, b, t, arrived, now, false);
}

/* Bank b grants one of the requests that have arrived by now; `plugin`: the
 * sm.arbiter plugin chooses, also when one request is grantable. */
static inline __attribute__((always_inline)) void grant_one(sm_t *sm, bank_t *b, sim_time_t now,
                                                            bool plugin)
{
    uint16_t m = grantable(b);
    assert(m && b->free_ps <= now);
    unsigned c = plugin            ? arbitrate_plugin(b, m, now)
                 : m & (m - 1) ? arbitrate(b, m, now)
                               : (unsigned)__builtin_ctz(m);
    assert(c < GPU_CORES && b->arrive[c] <= now);
    txn_t *t = b->req[c]; /* req[c] stays as it is: only pending cores' are read */
    sim_time_t arrived = b->arrive[c];
    b->pending &= (uint16_t)~(1u << c);
    if (arrived == b->min_arrive)
        bank_min_arrive(b);
    b->last = (int8_t)c;
    serve(sm, b, t, arrived, now);
    link_send(&sm->answer[c], t, t->t_done); /* decoupled: the requester may post
                                                again within, due after now */
}

/* The SM event: every bank due now grants. When the next of them is due
 * before anything else happens (sim_continue), it goes on at that time in
 * place: a bank that many requesters contend for grants at successive
 * picoseconds, each a grant of its own. `plugin`: sm.arbiter is a plugin,
 * asked at every grant (grant_plugin_cb). */
static inline __attribute__((always_inline)) GPU_NO_SLP void grant_loop(sim_t *sim,
                                                                         sim_event_t *ev,
                                                                         bool plugin)
{
    sm_t *sm = ev->data;
    sim_time_t now = sim_now(sim), at;
    for (;;) {
        at = SIM_TIME_NEVER;
        sm->granting = true;
        sm->posted_min = SIM_TIME_NEVER;
        /* `at` gathers min(next) on the way; requests posted meanwhile (the
           answered cores run on within the grant) gather theirs in posted_min */
        for (uint64_t m = sm->active; m; m &= m - 1) {
            unsigned id = (unsigned)__builtin_ctzll(m);
            sim_time_t next = sm->next[id];
            if (next == now) {
                bank_t *b = &sm->banks[id];
                grant_one(sm, b, now, plugin);
                next = sm->next[id] = bank_next(b, now);
                assert(next > now);
                if (next == SIM_TIME_NEVER)
                    sm->active &= ~(UINT64_C(1) << id);
            }
            at = next < at ? next : at;
        }
        sm->granting = false;
        at = at < sm->posted_min ? at : sm->posted_min;
        if (at == SIM_TIME_NEVER || !sim_continue(sim, ev, at))
            break;
        now = at;
    }
    if (!plugin) {
        sm_reschedule(sm, at);
        return;
    }
    /* the event is not pending here (sim_continue keeps it off the queue;
       requests posted while granting wait in posted_min): no need to cancel
       it, and no second call site for what grant_cb inlines (sim_cancel) */
    assert(!sim_event_pending(ev));
    if (at != SIM_TIME_NEVER)
        sim_schedule(sim, ev, at);
}

static GPU_NO_SLP void grant_cb(sim_t *sim, sim_event_t *ev) { grant_loop(sim, ev, false); }

/* The SM event when sm.arbiter is a plugin. */
static void grant_plugin_cb(sim_t *sim, sim_event_t *ev) { grant_loop(sim, ev, true); }

/* --- what the machine reads of the SM ------------------------------------- */

void sm_get_totals(const sm_t *sm, sm_totals_t *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < sm->nbanks; i++) {
        const bank_t *b = &sm->banks[i];
        out->accesses += b->accesses;
        out->conflicts += b->conflicts;
        out->conflict_ps += b->wait_ps;
    }
}

void sm_counters(const sm_t *sm)
{
    for (unsigned i = 0; i < sm->nbanks; i++) {
        const bank_t *b = &sm->banks[i];
        gpu_counter(sm->sim, GPU_CTR_BANK_ACCESSES, i, b->accesses);
        gpu_counter(sm->sim, GPU_CTR_BANK_CONFLICTS, i, b->conflicts);
        gpu_counter(sm->sim, GPU_CTR_BANK_WAIT_PS, i, b->wait_ps);
        gpu_counter(sm->sim, GPU_CTR_BANK_MAX_WAIT_PS, i, b->max_wait_ps);
        gpu_counter(sm->sim, GPU_CTR_BANK_BUSY_PS, i, b->busy_ps);
        gpu_counter(sm->sim, GPU_CTR_BANK_LOCK_ACQUIRES, i, b->lock_acquires);
    }
}

const uint8_t *sm_bytes(const sm_t *sm) { return sm->mem; }

sim_time_t sm_last_arrival(const sm_t *sm)
{
    sim_time_t last = 0;
    for (unsigned i = 0; i < sm->nbanks; i++) {
        const bank_t *b = &sm->banks[i];
        for (uint16_t m = b->pending; m; m &= m - 1) {
            sim_time_t a = b->arrive[__builtin_ctz(m)];
            last = a > last ? a : last;
        }
        for (const txn_t *t = sm->more[i]; t; t = t->next_held) /* no earlier than its req[] */
            last = t->t_arrived > last ? t->t_arrived : last;
    }
    return last;
}

bool sm_first_waiter(const sm_t *sm, sm_waiter_t *out)
{
    for (unsigned i = 0; i < sm->nbanks; i++) {
        const bank_t *b = &sm->banks[i];
        if (!b->pending)
            continue;
        unsigned c = (unsigned)__builtin_ctz(b->pending);
        *out = (sm_waiter_t){.bank = i, .requester = c, .frame = b->req[c]->frame,
                             .lock_addr = b->lock_addr, .lock_owner = b->lock_core};
        return true;
    }
    return false;
}

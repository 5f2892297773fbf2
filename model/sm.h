/* sm.h — the Shared Memory: 4096 bytes in sm.banks banks (16 by D13), each
 * serving one request at a time (D13, D14, T7, T8), under the high,
 * interleaved or xor mapping, with the arbiters fixed, rr, fifo, random and
 * the atomic sequences of D16. A request is a txn_t posted with its arrival
 * time. Each bank knows when it can next grant (max of bank free and its
 * earliest grantable arrival); the SM has one event, at the earliest of
 * those, which serves every bank due at that picosecond — so an access costs
 * at most one event, and cores in lockstep share it. Invariants: next[b] is
 * that time for bank b (SIM_TIME_NEVER when nothing is grantable), the SM
 * event is pending at min(next) whenever some next[b] is finite, and each
 * bank's min_arrive is the earliest arrival of its pending requests, so
 * that without a D16 lock its next grant is max(free, now, min_arrive) in
 * O(1). */
#ifndef TESSERA_SM_H
#define TESSERA_SM_H

#include <stdbool.h>
#include <stdint.h>

#include "events/port.h"
#include "events/sim.h"
#include "events/txn.h"
#include "model/latency.h"
#include "model/link.h"
#include "model/rng.h"
#include "model/sizes.h"
#include "model/tm.h"

struct gpu;
struct sm;

typedef struct bank {
    struct sm *sm;            /* ro */
    uint8_t id;               /* ro */
    int8_t last;              /* rr: last core granted, -1 before the first grant */
    int8_t lock_core;         /* D16: core holding this bank's lock, -1 when free */
    uint16_t lock_addr;       /* D16: the locked byte */
    uint16_t pending;         /* requesters with a request posted here */
    txn_t *req[GPU_CORES];    /* the posted request of each pending requester: its earliest
                                 (any later ones wait in sm_t.more[id]) */
    sim_time_t arrive[GPU_CORES]; /* its arrival time (kept here: the hot loops stay local) */
    sim_time_t free_ps;       /* the current service ends */
    sim_time_t min_arrive;    /* the earliest arrival among the pending requests,
                                 SIM_TIME_NEVER when none (kept on post and grant) */
    rng_t rng;                /* this bank's draws (sm.bank, sm.resp, random arbiter) */
    /* totals */
    uint64_t accesses, conflicts, lock_acquires;
    sim_time_t wait_ps, max_wait_ps, busy_ps;
} bank_t;

typedef struct sm {
    struct gpu *gpu;          /* ro */
    sim_t *sim;               /* ro: gpu->sim */
    /* the configuration the hot path reads, copied from gpu->desc */
    bool stepped;             /* timing = stepped: its answer links deliver as events */
    bool atomics;             /* D16 */
    uint8_t nbanks;           /* sm.banks (a power of two) */
    uint8_t arbiter;          /* gpu_arbiter_t */
    bool lat_fixed;           /* sm.bank and sm.resp are fixed numbers */
    sim_time_t bank_ps, resp_ps; /* their values in ps when fixed */
    uint8_t mem[SM_BYTES];    /* contents by byte address (the mapping only picks banks) */
    uint8_t bank_of[SM_BYTES];/* the bank of each address under the mapping (one load on
                                 the hot path, cheaper than any formula) */
    sim_time_t next[SM_BANKS_MAX]; /* when each bank next grants, SIM_TIME_NEVER: nothing to */
    uint64_t active;          /* banks whose next[] is finite */
    sim_event_t grant_ev;     /* serves every bank whose next[] is now */
    bool granting;            /* grant_ev's callback runs (it reschedules at its end) */
    bool observed;            /* interval statistics or the access trace want each grant
                                 (gpu_set_trace, gpu_set_intervals keep it: sm_set_observed) */
    bool plain;               /* no atomics, fixed latencies, not observed, no request
                                 waiting in more[]: a grant tests none of the four (kept
                                 by sm_set_observed and the waiting lists) */
    sim_time_t posted_min;    /* while granting: the earliest next[] a request set */
    bank_t banks[SM_BANKS_MAX]; /* the first nbanks are used */
    link_t answer[GPU_CORES]; /* to each requester id, wired by sm_attach */
    /* by bank: the requests that wait behind their requester's posted one (a
       requester with several in flight: a cache's misses, an LSU's passes),
       all requesters' in one list (txn_t.next_held) in arrival order, ties in
       posting order; each becomes its requester's req[] when the one before
       it is granted. Nothing is allocated: the list runs through them. Kept
       out of bank_t: a larger bank costs the grant's hot path (its address
       arithmetic, +12 % host instructions on bench.s). */
    txn_t *more[SM_BANKS_MAX];
    uint32_t held;            /* requests waiting in more[] (the SM is not plain then) */
    struct policy_run *arb_run, *map_run; /* ro: sm.arbiter's and sm.bank_map's plugin runs */
} sm_t;

/* `arbiter`, `bank_map`: the plugin runs of sm.arbiter and sm.bank_map
 * (policy.h; impl NULL: the built-in one of the description). */
struct policy_run;
void sm_init(sm_t *sm, struct gpu *gpu, const uint8_t initial[SM_BYTES],
             struct policy_run *arbiter, struct policy_run *bank_map);

/* The bank serving byte address `addr` under the configured mapping. */
unsigned sm_bank_of(const sm_t *sm, unsigned addr);

/* Whether each grant is observed (interval statistics, the access trace). */
void sm_set_observed(sm_t *sm, bool on);

/* Wires the answers to requester `id` (0..GPU_CORES-1: a core, a lane):
 * recv(owner, txn) gets each served request with t_granted and t_done set,
 * within the grant (decoupled mode, unbounded run) or as an event at t_done
 * (stepped, or the run has a horizon: an answer due after it never arrives). */
void sm_attach(sm_t *sm, unsigned id, port_recv_fn recv, void *owner);

/* The run has a horizon (gpu_set_horizon): every answer from now on is an
 * event at its t_done, as in stepped mode. */
void sm_bound(sm_t *sm);

/* The request receivers (the requesters' links end here): `t` is a
 * GPU_TXN_SM_REQ from requester t->core, t_arrived = when it reaches its
 * bank (>= now). Requests may be posted in call order rather than time
 * order (decoupled timing: another requester may later post one that
 * arrives earlier): a bank decides only at its grant, when everything due
 * by then has been posted.
 * sm_on_request_queued: a requester may have any number of requests in
 * flight, to one bank or several (a cache with several misses, an LSU
 * sending passes): each bank serves one requester's requests in the order
 * they arrive (ties: the order they were posted), its arbiter choosing among
 * the requesters (T8) whose earliest request has arrived. A block in front
 * of the SM is wired to it; nothing in the SM changes for it.
 * sm_on_request: the same for a requester that has at most one request in
 * flight (a core, a lane: they block on their access, T7) — what the hot
 * paths are wired to, as it tests nothing for a second one (asserted). */
void sm_on_request(void *sm, txn_t *t);
void sm_on_request_queued(void *sm, txn_t *t);

/* What the machine reads of the SM (gpu.c: statistics, counters, the
 * final state, a stuck run's description). */
typedef struct sm_totals {
    uint64_t accesses, conflicts;
    sim_time_t conflict_ps;
} sm_totals_t;
void sm_get_totals(const sm_t *sm, sm_totals_t *out);
/* Each bank's end-of-run counters (GPU_COUNTERS_BANK, gpu_counters.h)
 * through the trace hook. */
void sm_counters(const sm_t *sm);
/* The SM's bytes now. */
const uint8_t *sm_bytes(const sm_t *sm);
/* The latest arrival among the requests still waiting (0: none). */
sim_time_t sm_last_arrival(const sm_t *sm);
/* A request still waiting in the lowest bank that has one: true, with its
 * bank, requester and frame, and the bank's D16 lock (its owner, -1 when
 * free, and byte); false when no request waits. */
typedef struct sm_waiter {
    unsigned bank, requester, frame, lock_addr;
    int lock_owner;
} sm_waiter_t;
bool sm_first_waiter(const sm_t *sm, sm_waiter_t *out);

#endif

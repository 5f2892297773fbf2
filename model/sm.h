/* sm.h — the Shared Memory: 4096 bytes in 16 banks, each serving one request
 * at a time (D13, D14, T7, T8), with the arbiters fixed, rr, fifo, random and
 * the atomic sequences of D16. A request is a txn_t posted with its arrival
 * time; each bank has one grant event at max(bank free, earliest arrival), so
 * an uncontended access costs one event. Invariant: a bank's grant event is
 * pending exactly when some posted request can be granted. */
#ifndef TESSERA_SM_H
#define TESSERA_SM_H

#include <stdbool.h>
#include <stdint.h>

#include "events/sim.h"
#include "events/txn.h"
#include "model/latency.h"
#include "model/rng.h"
#include "model/tm.h"

struct gpu;
struct sm;

#define SM_BANKS 16

typedef struct bank {
    struct sm *sm;            /* ro */
    uint8_t id;               /* ro */
    int8_t last;              /* rr: last core granted, -1 before the first grant */
    int8_t lock_core;         /* D16: core holding this bank's lock, -1 when free */
    uint16_t lock_addr;       /* D16: the locked byte */
    uint16_t pending;         /* cores with a request posted here */
    txn_t *req[GPU_CORES];    /* the posted request of each pending core */
    sim_time_t free_ps;       /* the current service ends */
    sim_event_t grant_ev;     /* arbitration among arrived requests */
    rng_t rng;                /* this bank's draws (sm.bank, sm.resp, random arbiter) */
    /* totals */
    uint64_t accesses, conflicts, lock_acquires;
    sim_time_t wait_ps, max_wait_ps, busy_ps;
} bank_t;

typedef struct sm {
    struct gpu *gpu;          /* ro */
    uint8_t mem[SM_BYTES];    /* contents by byte address (the mapping only picks banks) */
    bank_t banks[SM_BANKS];
} sm_t;

void sm_init(sm_t *sm, struct gpu *gpu, const uint8_t initial[SM_BYTES]);

/* The bank serving byte address `addr` under the configured mapping. */
unsigned sm_bank_of(const sm_t *sm, unsigned addr);

/* Posts request `t` (t_arrived = when it reaches its bank, >= now). The bank
 * answers through core_on_answer. Used directly by decoupled cores and as
 * the receiver of the request ports of stepped ones. */
void sm_post(sm_t *sm, txn_t *t);
void sm_on_request(void *sm, txn_t *t);

#endif

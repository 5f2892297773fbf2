/* port.h — a one-way link between two components with a latency.
 * port_send(port, txn, extra) delivers txn to the receiver at
 * now + latency + extra (TLM's annotated delay; SST's and Akita's links).
 * A zero-latency delivery runs after the current event, never inside it
 * (SystemC's delta cycle): the sender finishes before the receiver reacts.
 * The receiver owns the transaction once it is delivered. */
#ifndef TESSERA_PORT_H
#define TESSERA_PORT_H

#include "events/sim.h"
#include "events/txn.h"

/* The one receive shape: the owner given to port_init and the transaction. */
typedef void (*port_recv_fn)(void *owner, txn_t *txn);

typedef struct port {
    sim_t *sim;               /* ro */
    sim_time_t latency;       /* rw: picoseconds added to every send */
    port_recv_fn recv;        /* ro: the receiver */
    void *owner;              /* ro: passed to recv */
    const char *name;         /* ro: for logs ("core3->ts") */
    uint8_t prio;             /* ro: priority of deliveries among same-time events */
    uint64_t sent;            /* ro: transactions sent so far */
} port_t;

void port_init(port_t *port, sim_t *sim, sim_time_t latency, uint8_t prio,
               port_recv_fn recv, void *owner, const char *name);

/* Sends `txn` (live, not in flight): sets t_sent = now and delivers it at
 * now + latency + extra_delay, setting t_arrived. Never fails (see
 * sim_schedule for the out-of-memory case). */
void port_send(port_t *port, txn_t *txn, sim_time_t extra_delay);

#endif

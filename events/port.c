/* port.c — latency links between components (port.h).
 * A transaction in flight is a pending event embedded in it (txn->ev) whose
 * callback stamps t_arrived and hands it to the receiver. Invariant: a
 * transaction is on at most one port at a time (its event is pending at most
 * once), and a delivery scheduled during an event runs after that event
 * because the kernel gives it a later sequence number. */
#include "events/port.h"

#include <assert.h>

void port_init(port_t *port, sim_t *sim, sim_time_t latency, uint8_t prio,
               port_recv_fn recv, void *owner, const char *name)
{
    assert(recv && "a port needs a receiver");
    port->sim = sim;
    port->latency = latency;
    port->recv = recv;
    port->owner = owner;
    port->name = name;
    port->prio = prio;
    port->sent = 0;
}

static void deliver(sim_t *sim, sim_event_t *ev)
{
    txn_t *txn = container_of(ev, txn_t, ev);
    const port_t *port = txn->port;
#ifndef NDEBUG
    txn_check(txn);
#endif
    txn->t_arrived = sim_now(sim);
    port->recv(port->owner, txn);
}

void port_send(port_t *port, txn_t *txn, sim_time_t extra_delay)
{
#ifndef NDEBUG
    txn_check(txn);
#endif
    assert(!sim_event_pending(&txn->ev) && "transaction already in flight");
    sim_t *sim = port->sim;
    sim_time_t now = sim_now(sim);
    txn->port = port;
    txn->t_sent = now;
    /* Not sim_event_init: the event may be the one running (the receiver
     * forwards the transaction it was just handed), whose fields the kernel
     * still uses. */
    txn->ev.cb = deliver;
    txn->ev.data = txn;
    txn->ev.name = port->name;
    txn->ev.prio = port->prio;
    port->sent++;
    sim_schedule(sim, &txn->ev, now + port->latency + extra_delay);
}

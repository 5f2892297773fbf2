/* link.h — a one-way connection between two components that hides the
 * timing mode (chips-style: blocks meet at pins, gpu.c wires them). The
 * sender says when the transaction arrives; the link either calls the
 * receiver at once with t_arrived set to that time (decoupled mode, TLM-2.0
 * loosely timed: the receiver accepts a future-dated arrival) or carries it
 * as an event on a port that delivers it at that time (stepped mode). The
 * receiver is the owner and function given at wiring, so neither end knows
 * what sits on the other. */
#ifndef TESSERA_LINK_H
#define TESSERA_LINK_H

#include <stdbool.h>

#include "events/port.h"
#include "events/sim.h"
#include "events/txn.h"

typedef struct link {
    port_t port;              /* ro: the receiver (recv, owner); stepped: the way it travels */
    bool direct;              /* ro: decoupled mode: call the receiver within the send */
} link_t;

/* Wires `l` to the receiver `recv(owner, txn)`. direct: decoupled mode;
 * otherwise deliveries are events of priority `prio` on `sim`. */
static inline void link_init(link_t *l, sim_t *sim, bool direct, uint8_t prio,
                             port_recv_fn recv, void *owner, const char *name)
{
    port_init(&l->port, sim, 0, prio, recv, owner, name);
    l->direct = direct;
}

/* Sends `t` so that it reaches the receiver at `at` (>= now). Direct: the
 * receiver runs inside this call and sees t_arrived = at (t_sent is the
 * sender's to stamp); stepped: port_send, which stamps t_sent = now and
 * t_arrived on delivery. */
static inline void link_send(link_t *l, txn_t *t, sim_time_t at)
{
    if (l->direct) {
        t->t_arrived = at;
        l->port.recv(l->port.owner, t);
        return;
    }
    port_send(&l->port, t, at - sim_now(l->port.sim));
}

/* link_send for a sender that knows the receiver it is wired to in the
 * common case (`usual`, e.g. the SM for a core's requests): a direct link to
 * it calls it by name, which the compiler may inline into the sender (one
 * call less per transaction on the hot path); any other wiring goes through
 * link_send. The same transaction reaches the same receiver either way. */
static inline __attribute__((always_inline)) void link_send_usual(link_t *l, txn_t *t,
                                                                  sim_time_t at,
                                                                  port_recv_fn usual)
{
    if (l->direct && l->port.recv == usual) {
        t->t_arrived = at;
        usual(l->port.owner, t);
        return;
    }
    link_send(l, t, at);
}

#endif

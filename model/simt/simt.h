/* simt.h — the SIMT unit (SIMT-SPEC S1–S10): with core.model = simt it
 * stands in place of the 16 cores between the TS and the SM. Each task is a
 * warp whose lanes are the group's cores; lane i keeps core i's task
 * bookkeeping (through core.h's lane functions, so READY, core-task records
 * and counters read exactly as for cores), and the unit has its own link to
 * the SM for each lane. The unit is a pipeline of stages, one file each in
 * model/simt/ (unit.h lists them). Both timing modes give the same
 * timestamps (tests/test_equivalence.c). */
#ifndef TESSERA_SIMT_H
#define TESSERA_SIMT_H

#include <stdbool.h>

#include "events/port.h"
#include "events/txn.h"
#include "model/engine.h"
#include "model/xenum.h"

struct gpu;
struct sm;
typedef struct simt simt_t;

/* S6 schedulers, one list (xenum.h): X(PREFIX, ID, "name", "what it does");
 * yields simt_sched_t, SIMT_SCHED_COUNT and simt_sched_names[]
 * (simt.scheduler). Each has its order function in sched.c. */
#define SIMT_SCHEDS(X)                                                                      \
    X(SIMT_SCHED_, RR, "rr", "round-robin in age order after the last warp chosen")          \
    X(SIMT_SCHED_, GTO, "gto",                                                              \
      "greedy then oldest (the warps chosen last time keep the port while they can)")        \
    X(SIMT_SCHED_, OLDEST, "oldest", "oldest first")

/* S12 register-file arbiters, one list (xenum.h): which pending read each
 * register-file bank serves in a cycle; yields simt_rf_arbiter_t,
 * SIMT_RF_COUNT and simt_rf_arbiter_names[] (simt.rf_arbiter). Each has its
 * function in collect.c. */
#define SIMT_RF_ARBITERS(X)                                                                 \
    X(SIMT_RF_, OLDEST, "oldest",                                                           \
      "the earliest-issued instruction's lowest register (S12)")                            \
    X(SIMT_RF_, RR, "rr",                                                                   \
      "round-robin over the collectors, from the one after the collector the bank served "  \
      "last (GPGPU-Sim's operand collector), then that instruction's lowest register")

typedef enum simt_rf_arbiter { SIMT_RF_ARBITERS(XENUM_ID) SIMT_RF_COUNT } simt_rf_arbiter_t;
extern const char *const simt_rf_arbiter_names[SIMT_RF_COUNT + 1];

/* The largest values of the unit's sized keys (gpu_desc_check). */
#define SIMT_IBUFFER_MAX 8  /* simt.ibuffer: I-buffer entries per warp (S11) */
#define SIMT_FETCH_MAX 4    /* simt.fetch_width: slots one fetch brings (S11) */

typedef enum simt_sched { SIMT_SCHEDS(XENUM_ID) SIMT_SCHED_COUNT } simt_sched_t;
extern const char *const simt_sched_names[SIMT_SCHED_COUNT + 1];

/* Builds the unit for `gpu`; `cores` (initialised) hold the lanes' state
 * (reached through core.h's lane functions), `sched` is simt.scheduler's
 * plugin run (policy.h; impl NULL: a built-in scheduler). Returns NULL when
 * out of memory (nothing is left allocated). simt_destroy(NULL) does
 * nothing. */
struct core;
struct policy_run;
simt_t *simt_create(struct gpu *gpu, struct core *cores, struct policy_run *sched);
void simt_destroy(simt_t *u);

/* Makes `e` the unit as the machine's execution engine (engine.h): task
 * starts become warps; statistics and per-lane reports are the lanes'
 * (their cores'), with the warps' partial records and the "simt" counters
 * added at the end of the run; the registers are the unit's own. Call after cores_engine(e, …): the
 * lanes' operations are delegated to the engine `e` held then. */
void simt_engine(engine_t *e, simt_t *u);

/* Connects each lane's SM requests to on_request(mem, txn), through a link
 * of the machine's timing mode (kind GPU_TXN_SM_REQ, core = the lane,
 * t_arrived = when it reaches its bank). The answer must come back to
 * simt_answer_receiver(u). `sm` is the SM's public face, asked for its bank
 * mapping (sm_bank_of: S8's replays, the trace's banks). */
void simt_wire(simt_t *u, port_recv_fn on_request, void *mem, const struct sm *sm);

/* Interval statistics wanted (record.interval or the window): the unit
 * counts each issue in them; the SM's answers must then come to
 * simt_on_answer_ivl (simt_answer_receiver). */
void simt_set_intervals(simt_t *u, bool on);

/* The receiver the SM's answers to every lane must be attached to now:
 * simt_on_answer_ivl with interval statistics, simt_on_answer otherwise
 * (under simt.reconvergence = barrier the thread groups' own: the stack's
 * answer path tests nothing). */
port_recv_fn simt_answer_receiver(const simt_t *u);

/* The SM's answer receiver for every lane (sm_attach): lane t->core, within
 * the grant (decoupled) or at t_done (stepped). */
void simt_on_answer(void *unit, txn_t *t);
/* The same, with interval statistics: each lane's SM wait is added to its
 * intervals first. */
void simt_on_answer_ivl(void *unit, txn_t *t);

/* S9: writes into buf a description of an intra-warp lock deadlock if lane
 * `waiting` and lane `holder` belong to one warp; returns false otherwise. */
bool simt_describe_deadlock(const simt_t *u, unsigned waiting, unsigned holder, unsigned bank,
                            unsigned addr, char *buf, unsigned n);

#endif

/* iss.h — the untimed reference executor. Runs the program in program order,
 * one task at a time, the cores of a task in core order, each to its end;
 * groups apply their R0 initialisation when reached (D3). Exact for race-free
 * programs; the timed model must produce the same final state for them. */
#ifndef TESSERA_ISS_H
#define TESSERA_ISS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/arch.h"
#include "model/itrace.h"
#include "events/base/diag.h"
#include "model/race.h"
#include "model/tm.h"

typedef struct iss_desc {
    uint64_t budget;          /* D12 instructions per core per task; 0 = 2^26 */
    itrace_fn itrace;         /* every instruction executed, when not NULL (itrace.h: `when`
                                 is its ordinal in the run, from 0) */
    void *itrace_user;
    uint8_t banks, bank_map;  /* for the trace's bank column (0 banks: D13's 16, high) */
    race_det_t *races;        /* when set, every access is noted for race detection */
    bool atomics;             /* D16: ld_sync/st_sync are atomic (for the race detector) */
} iss_desc_t;

typedef struct iss_stats {
    uint64_t instructions;    /* executed, `ready` included */
    uint64_t tasks;           /* IFs run */
    uint64_t core_tasks;      /* (IF, core) pairs run */
    uint64_t loads, stores;
    uint64_t div_by_zero;     /* D8 */
} iss_stats_t;

/* Runs `tm` on `state` (prepared with arch_reset). Returns TESS_OK, or
 * TESS_EWATCHDOG with "frame F, core C, IP I: …" in diag when a task exceeds
 * the budget; the state and statistics are then those reached so far. */
int iss_run(const tm_program_t *tm, arch_state_t *state, const iss_desc_t *desc,
            iss_stats_t *stats /* OUT */, diag_t *diag);

#endif

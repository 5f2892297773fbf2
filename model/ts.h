/* ts.h — the Task Scheduler (spec §3, T1–T5, D3, D5, D15): decodes frames in
 * program order, applies CFs, issues tasks over the shared code bus when the
 * issue rules hold, collects READY. Policy inorder is lookahead with a window
 * of one frame. Every interval a decoded frame waits is attributed to one
 * reason (gpu_stall_reason_t). Invariant: frames before `head` are issued
 * (IF) or in effect (CF); only frames below `next_decode` are decoded. */
#ifndef TESSERA_TS_H
#define TESSERA_TS_H

#include <stdbool.h>
#include <stdint.h>

#include "events/port.h"
#include "events/sim.h"
#include "model/engine.h"
#include "model/gpu_trace.h"
#include "model/latency.h"
#include "model/rng.h"
#include "model/tm.h"

struct gpu;

typedef enum ts_frame_state {
    TSF_PENDING = 0,  /* not decoded yet */
    TSF_DECODING,
    TSF_DECODED,      /* waiting to be issued / to take effect */
    TSF_ISSUED,       /* IF: its code is on the bus */
    TSF_RUNNING,      /* IF: its cores run it */
    TSF_DONE,         /* IF: complete; CF: in effect */
} ts_frame_state_t;

#define TS_NO_STALL 0xff

typedef struct ts_frame {
    uint8_t state;            /* ts_frame_state_t */
    uint8_t grp;              /* index into tm->groups */
    uint8_t stall;            /* current wait reason, or TS_NO_STALL */
    uint8_t stall_blocker;    /* the frame it waits for, or 0xff */
    uint16_t exec_mask;       /* IF: cores whose READY is still due */
    sim_time_t decode_start, decoded, issued, started, completed;
    sim_time_t stall_since;
} ts_frame_t;

typedef struct ts {
    struct gpu *gpu;          /* ro */
    const engine_t *engine;   /* ro: what runs the tasks (ts_attach) */
    const tm_program_t *tm;   /* ro */
    unsigned n;               /* frames of the program */
    unsigned window;          /* frames that may be decoded ahead of head (1 = inorder) */
    unsigned head;            /* first frame not issued / not in effect */
    unsigned next_decode;     /* next frame to decode */
    int xfer_frame;           /* IF on the code bus, -1 when the bus is free */
    unsigned done;            /* frames finished (IF complete, CF in effect) */
    uint16_t r0_pending[TM_FRAMES]; /* by CF of an IF_Num = 0 group: cores still to init (D3) */
    ts_frame_t f[TM_FRAMES];
    sim_event_t decode_ev, xfer_ev, eval_ev;
    rng_t rng;
    sim_time_t last_ready;    /* when the last READY arrived (runs.end_ps) */
    uint64_t tasks_issued, bus_busy_ps;
    sim_time_t stall_ps[GPU_STALL_REASONS]; /* total waiting by reason */
} ts_t;

void ts_init(ts_t *ts, struct gpu *gpu, const tm_program_t *tm);
/* Wires the engine the TS starts tasks on and sets R0 through (D3, T4);
 * its READYs must reach ts_on_ready. */
void ts_attach(ts_t *ts, const engine_t *engine);
/* Schedules the decode of frame 0 (or finishes at once for an empty program). */
void ts_start(ts_t *ts);
/* READY receiver: t->core finished its task of frame t->frame. */
void ts_on_ready(void *ts, txn_t *t);
/* Every frame is finished and every R0 initialisation applied. */
bool ts_finished(const ts_t *ts);
/* End of run: closes open stall intervals and reports unfinished frames. */
void ts_report_partial(ts_t *ts);

/* End of run: the TS's counters (GPU_COUNTERS_TS, gpu_counters.h) through
 * the trace hook. */
void ts_counters(const ts_t *ts);

/* What the machine reads of the TS (gpu.c: statistics, a stuck run's
 * description); inline, as they are read per run, not per event. */
/* When the last READY arrived so far (the run's end: runs.end_ps). */
static inline sim_time_t ts_last_ready(const ts_t *ts) { return ts->last_ready; }
/* Frames finished so far (IF complete, CF in effect), of ts_frames(). */
static inline unsigned ts_done(const ts_t *ts) { return ts->done; }
/* Frames of the program. */
static inline unsigned ts_frames(const ts_t *ts) { return ts->n; }
/* Tasks issued so far (one per IF whose code went over the bus). */
static inline uint64_t ts_tasks_issued(const ts_t *ts) { return ts->tasks_issued; }

#endif

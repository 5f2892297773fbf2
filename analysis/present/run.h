/* run.h — one recorded run read back from the statistics database
 * (docs/SCHEMA.md), for the pictures and traces (timeline.h, export.h): the
 * runs row and its small relations, and the SM accesses streamed from their
 * packs.
 * Invariant: a tl_run_t holds a read-only connection and the run's small
 * relations (frames, stalls, core tasks: at most 64 frames, so at most ~1000
 * core tasks); SM accesses, which may be millions, are only ever streamed. */
#ifndef TESSERA_RUN_H
#define TESSERA_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "events/base/diag.h"

#define TL_CORES 16
#define TL_MAX_FRAMES 64          /* Task Memory frames */
#define TL_BANKS_MAX 64           /* sm.banks at most */
#define TL_NONE (-1)              /* a time column that is NULL ("not reached") */

/* What the `runs` row says, plus what the pictures derive from it. */
typedef struct tl_info {
    int64_t run_id;           /* ro */
    const char *program;      /* ro: the program's path ("" when unknown) */
    const char *status;       /* ro: 'ok', 'running', 'watchdog', … */
    const char *started_at;   /* ro: ISO-8601 UTC ("" when unknown) */
    const char *level_name;   /* ro: 'summary', 'tasks', 'mem', 'events' */
    int level;                /* ro: rec_level_t; REC_MEM and above have accesses */
    uint64_t period_ps;       /* ro: the clock period (1000 when not recorded) */
    uint64_t end_ps;          /* ro: runs.end_ps, or the last time recorded if later */
    uint64_t rec_from_ps;     /* ro: the recording window (record.from_ps) … */
    uint64_t rec_to_ps;       /* ro: … and its end, 0: until the end of the run */
    uint64_t bank_ps;         /* ro: bank service time (sm.bank) when fixed, else 0 */
    uint64_t resp_ps;         /* ro: sm.resp when fixed, else UINT64_MAX */
    unsigned banks;           /* ro: sm.banks (16 when not recorded: D13) */
    bool ordinals;            /* ro: every frame from 0 is recorded: labels are IF/CF ordinals */
} tl_info_t;

/* A frame (`frames`); times are TL_NONE when NULL. */
typedef struct tl_frame {
    unsigned frame;           /* frame index in TM, 0–63 */
    bool is_if;               /* IF (a task) or CF */
    unsigned mask;            /* the group's Core_Active_Vect */
    char fence[4];            /* "no", "acq", "rel" */
    int64_t decode_start, decode, issue, start, complete;
    char label[16];           /* "F5": the frame index, as SQL and the report name it */
    char ordinal[16];         /* "IF3", "CF1" (ordinals as in the spec's figures), or ""
                                 when earlier frames are missing */
    char title[40];           /* "frame 5 (IF3)" or "frame 5": tooltips */
    int number;               /* the IF/CF ordinal (the frame index without ordinals):
                                 picks the colour */
} tl_frame_t;

/* One core's part of a task (`core_tasks`); times are TL_NONE when NULL. */
typedef struct tl_task {
    unsigned frame, core;
    int64_t start, finish, ready;
    int64_t instructions, sm_ops, sm_wait_ps, sm_conflict_ps;
    bool complete;
    const tl_frame_t *f;      /* its frame (NULL when not recorded) */
} tl_task_t;

/* A frame's stall (`stalls`). */
typedef struct tl_stall {
    unsigned frame;
    char reason[8];           /* "decode", "mask", "acq", "rel", "bus", "order" */
    int blocker;              /* the frame waited for, or -1 */
    int64_t from, to;
} tl_stall_t;

typedef struct tl_run tl_run_t;

/* Opens the database at `path` read-only and reads run `run_id` (0: the
 * latest). Returns NULL with the reason in diag: TESS_EIO (no such file),
 * TESS_EDB (not a Tessera database, unknown schema, SQLite failure),
 * TESS_EINPUT (no such run), TESS_ENOMEM. Never modifies the file. */
tl_run_t *tl_run_open(const char *path, int64_t run_id, diag_t *diag);
void tl_run_close(tl_run_t *run);            /* NULL is fine */

const tl_info_t *tl_run_info(const tl_run_t *run);
const tl_frame_t *tl_run_frames(const tl_run_t *run, unsigned *n /* OUT */);
const tl_task_t *tl_run_tasks(const tl_run_t *run, unsigned *n /* OUT */); /* by core, start */
const tl_stall_t *tl_run_stalls(const tl_run_t *run, unsigned *n /* OUT */);
const tl_frame_t *tl_run_frame(const tl_run_t *run, unsigned frame); /* NULL: not recorded */

/* The window [*t0, *t1) a picture covers: [from, to) as asked, where 0
 * means the recording window's bounds, else the whole run. TESS_EINPUT
 * (message in diag) when it is empty. */
int tl_run_window(const tl_run_t *run, uint64_t from, uint64_t to, int64_t *t0 /* OUT */,
                  int64_t *t1 /* OUT */, diag_t *diag);

/* TESS_EINPUT with a message naming the run when it holds no tasks to draw
 * (recorded at level summary); TESS_OK otherwise. */
int tl_run_need_tasks(const tl_run_t *run, diag_t *diag);

/* The SIMT issue port of the run (core.model = simt, level events): *slots
 * = its issue slots per cycle (simt.issue_width, or more if more were used:
 * 1 to 16), 0 when the run has no issue records. TESS_EDB on failure. */
int tl_run_issue_slots(tl_run_t *run, unsigned *slots /* OUT */, diag_t *diag);

/* *groups = the run is a SIMT run under simt.reconvergence = barrier (S14:
 * simt_issue.depth counts its warps' thread groups, simt_waits holds their
 * waits at convergence barriers). TESS_EDB on failure. */
int tl_run_thread_groups(tl_run_t *run, bool *groups /* OUT */, diag_t *diag);

/* A thread group's wait at a convergence barrier (a row of simt_waits). */
typedef struct tl_wait {
    unsigned frame, slot;     /* the warp's frame; the barrier's slot */
    uint16_t lanes;           /* the group's lanes */
    int64_t from, to;         /* ps; to = TL_NONE: still waiting when the run ended */
} tl_wait_t;

/* Calls fn(arg, wait) for each wait of a run under thread groups
 * (tl_run_thread_groups) that overlaps [t0, t1), by `from` then frame; a
 * non-zero return of fn stops there and is returned. TESS_EDB on failure. */
typedef int (*tl_wait_fn)(void *arg, const tl_wait_t *wait);
int tl_run_waits(tl_run_t *run, int64_t t0, int64_t t1, tl_wait_fn fn, void *arg, diag_t *diag);

/* For the pictures and traces: the run's read-only connection as a prepared
 * statement with the run id bound to ?1 (NULL with TESS_EDB in diag), the
 * error of that connection as TESS_EDB in diag, a nullable time column, and
 * growing an array to hold n + 1 elements. */
struct sqlite3_stmt;
struct sqlite3_stmt *tl_run_prepare(tl_run_t *run, const char *sql, diag_t *diag);
int tl_run_fail(tl_run_t *run, const char *what, diag_t *diag);
int64_t tl_col_time(struct sqlite3_stmt *st, int col);
bool tl_grow(void **array, unsigned *cap, unsigned n, size_t size);

/* Prepares "SELECT cols FROM simt_issue … ORDER BY order" for the run's
 * issues with t0 <= time_ps < t1, reading only the packs of that window
 * (a file of schema version 10 or later); NULL on failure, said in diag. */
struct sqlite3_stmt *tl_run_issue_window(tl_run_t *run, const char *cols, const char *order,
                                         int64_t t0, int64_t t1, diag_t *diag);

#define EXP_ALL_ACCESSES UINT64_MAX

/* --- SM accesses, streamed --------------------------------------------------------- */

/* One SM access (`sm_accesses`); times are TL_NONE when NULL. */
typedef struct exp_access {
    unsigned frame, core, bank, addr, value;
    bool store, sync;
    int64_t idx, request, arrive, grant, done;
} exp_access_t;

/* When the bank that served `a` became free again: grant + sm.bank when that
 * latency is fixed, else done - sm.resp when that one is, else one cycle. */
int64_t exp_bank_free(const tl_run_t *run, const exp_access_t *a);

/* A stream of accesses. Which ones: those overlapping [from, to) (to 0: no
 * end), of one core task when frame and core are >= 0, and requested before
 * cut (0: no cut). Rows of one core task come in program order. A reader
 * that knows which pack rows hold the window (the viewer keeps their times)
 * gives their rowids' range [row_lo, row_hi] so that only those are read
 * (row_hi 0: every pack of the run is looked at); packs then come in rowid
 * order, a core task's still in program order (they were written so). */
typedef struct exp_acc_filter {
    uint64_t from, to, cut;
    int frame, core;
    int64_t row_lo, row_hi;
    /* When set, told of each pack row as it is read, before its accesses:
     * its rowid and times (base INT64_MIN, end INT64_MAX when unknown), so
     * that a reader can keep where the packs lie in the same pass (the
     * viewer's summary). false: out of memory, the stream fails so. */
    bool (*on_pack)(void *arg, int64_t rowid, int64_t base_ps, int64_t end_ps);
    void *pack_arg;
} exp_acc_filter_t;
typedef struct exp_acc_iter exp_acc_iter_t;

/* Starts a stream; NULL with TESS_EDB/TESS_ENOMEM in diag on failure. */
exp_acc_iter_t *exp_acc_begin(tl_run_t *run, const exp_acc_filter_t *f, diag_t *diag);
/* 1: *a is the next access; 0: the end; -1: TESS_EDB (TESS_ENOMEM from
 * on_pack) in diag. */
int exp_acc_next(exp_acc_iter_t *it, exp_access_t *a /* OUT */, diag_t *diag);
void exp_acc_end(exp_acc_iter_t *it);        /* NULL is fine */

/* Where to cut a stream so that it holds at most `max` of the accesses
 * overlapping [from, to), keeping the earliest requested: one pass over the
 * pack rows, then one over about `max` accesses (8 bytes of memory each). */
typedef struct exp_acc_cut {
    uint64_t cut;             /* keep the accesses requested before this; 0: keep all */
    uint64_t kept;            /* at most this many are kept (0: none, skip them) */
    uint64_t total;           /* accesses of the packs overlapping the window */
} exp_acc_cut_t;
int exp_acc_cut(tl_run_t *run, uint64_t from, uint64_t to, uint64_t max,
                exp_acc_cut_t *out /* OUT */, diag_t *diag);

#endif

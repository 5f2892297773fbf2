/* rec_int.h — the recorder's internals (Private to analysis/recorder/;
 * tests too), shared by rec.c (the API and a run's life), rec_hook.c (the
 * trace hook and the access sink, on the simulation's thread), rec_writer.c
 * (the writer thread), rec_pack.c (access packing, on the writer thread),
 * rec_events.c and rec_simt.c (event log and SIMT issue port and ld/st
 * packing, on the writer thread), rec_encode.c (the packs' text) and rec_ckpt.c (the
 * checkpointer thread).
 * Invariant: between rec_begin_run() and rec_end_run() the SQLite
 * connection and the packs belong to the writer thread alone (the
 * checkpointer has its own); outside a run the connection belongs to the
 * caller's thread alone. */
#ifndef TESSERA_REC_INT_H
#define TESSERA_REC_INT_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/recorder/rec.h"
#include "analysis/store/pack.h"
#include "analysis/store/schema.h"
#include "analysis/store/sipack.h"
#include "model/gpu_trace.h"
#include "model/tm.h"

#define REC_PACK_MAX 4096          /* accesses per sm_access_packs row at most */
#define REC_SPAN_MAX 1000          /* request times of a pack span fewer cycles */
#define REC_RADIX_MAX 21           /* bytes of one access in a pack's data at most */
#define REC_TEXT_SLACK 8           /* bytes after a pack's text the digit writer may scribble on */
#define REC_BATCH_ROWS 8192        /* rows per batch */
#define REC_BATCH_ACCS 65536       /* SM accesses per batch */
#define REC_BATCH_EVS 65536        /* kernel events per batch */
#define REC_BATCH_TEXT (256u << 10) /* string bytes per batch */
#define REC_TXN_BATCHES 4          /* batches per transaction at most (rec_writer.c) */
#define REC_BATCHES 8              /* batches in all: one filling, up to seven with the
                                      writer — enough for the simulation to run on through
                                      most of a checkpoint's fsync (3 measured 1.2x slower
                                      in wall time on bench.s, 10 MB less peak memory) */

/* What a batch row is. */
typedef enum rec_row_kind {
    REC_ROW_FRAME = 0,        /* u.frame → frames */
    REC_ROW_STALL,            /* u.stall → stalls */
    REC_ROW_TASK,             /* u.task → core_tasks; ends the core's pack */
    REC_ROW_TASK_END,         /* u.task: ends the core's pack, not recorded */
    REC_ROW_COUNTER,          /* u.counter → counters */
    REC_ROW_EVENT_NAME,       /* u.name_id, text → event_names */
    REC_ROW_SIMT_WARP,        /* u.warp → simt_warps */
    REC_ROW_SIMT_MEM,         /* u.smem → simt_mem_packs (rec_simt.c) */
    REC_ROW_SIMT_ISSUE,       /* u.issue → simt_issue_packs (rec_simt.c) */
    REC_ROW_SLOT,             /* u.slot → slot_counts */
    REC_ROW_SIMT_WAIT,        /* u.wait → simt_waits */
} rec_row_kind_t;

/* A row handed to the writer. Strings live in the batch's text arena. */
typedef struct rec_row {
    uint8_t kind;             /* rec_row_kind_t */
    uint32_t acc_index;       /* accesses of the batch that came before it */
    uint32_t text_off;        /* counter component, event name */
    uint32_t text_len;        /* its length; UINT32_MAX: NULL */
    uint32_t text2_off;       /* counter name (NUL-terminated) */
    union {
        gpu_tr_frame_t frame;
        gpu_tr_stall_t stall;
        gpu_tr_core_task_t task;
        uint64_t counter;     /* the counter's value */
        uint32_t name_id;     /* an event name's id in the run's dictionary */
        gpu_tr_simt_warp_t warp;
        gpu_tr_simt_mem_t smem;
        gpu_tr_simt_issue_t issue;
        gpu_tr_slot_t slot;
        gpu_tr_simt_wait_t wait;
    } u;
} rec_row_t;

/* An access's flags digit (store/pack.h): is_store | sync << 1. */
static inline unsigned rec_acc_flags(const gpu_tr_access_t *a)
{
    return (a->is_store & 1u) | (a->sync & 1u) << 1;
}

/* Can the packer hold the access's times: ordered, below 2^63, each of the
 * three intervals below 2^32 ps? (Differences taken modulo 2^64: with request
 * and done below 2^63, three below 2^32 make request <= arrive <= grant <=
 * done.) Anything else is packed alone (rec_pack_odd). */
static inline bool rec_acc_regular(const gpu_tr_access_t *a)
{
    uint64_t da = a->arrive_ps - a->request_ps, dg = a->grant_ps - a->arrive_ps;
    uint64_t dd = a->done_ps - a->grant_ps;
    return !((da | dg | dd) >> 32 | (a->request_ps | a->done_ps) >> 63);
}

/* A kernel event as the hook hands it over: its name an id of the run's
 * dictionary (rec_t.names; 0: no name), defined by an earlier
 * REC_ROW_EVENT_NAME row. */
typedef struct rec_ev {
    sim_time_t time_ps;
    uint64_t seq;
    uint32_t name;
    uint8_t prio;
} rec_ev_t;

/* Rows, accesses, events and strings, written by the writer in one
 * transaction. The accesses are the trace's records as the model appended
 * them (rec_t.sink), unchecked: the writer checks them (rec_pack.c). */
typedef struct rec_batch {
    rec_row_t *rows;          /* REC_BATCH_ROWS of them */
    size_t nrows;
    gpu_tr_access_t *acc;     /* REC_BATCH_ACCS of them */
    size_t nacc;
    rec_ev_t *ev;             /* REC_BATCH_EVS of them */
    size_t nev;
    char *text;               /* REC_BATCH_TEXT bytes */
    size_t len;
} rec_batch_t;

/* One sm_access_packs row. Its data is a JSON array with one integer per
 * access in the layout of store/pack.h; t, a, g, d as in rec_times_t. */
typedef struct rec_pack_row {
    uint8_t frame, core;      /* the core task */
    uint16_t part;            /* 0, 1, … within the core task */
    uint32_t n;               /* accesses packed */
    uint32_t idx0;            /* index in the task of the first of them */
    sim_time_t base_ps;       /* request time of the first (NEVER: unknown) */
    sim_time_t scale_ps;      /* unit of the packed times: period_ps, or 1 */
    sim_time_t end_ps;        /* latest done time (NEVER: unknown) */
    int8_t bank_shift;        /* 12 - log2(banks) (high: 8 with 16 banks) or 0
                                 (interleaved), or -1 when the entry has the bank */
    uint8_t banks;            /* the run's sm.banks: the bank digit's radix */
    uint8_t unknown;          /* REC_DT_* bits: that offset is NULL */
    uint32_t arrive_n, wait_n, done_n; /* radices, >= 1 */
    int64_t arrive_dt, wait_dt, done_dt; /* offsets, in units of scale_ps */
} rec_pack_row_t;

#define REC_DT_ARRIVE 1u
#define REC_DT_WAIT 2u
#define REC_DT_DONE 4u

/* The times of one access of an open pack, in units of the pack's scale:
 * one 16-byte entry, so that the pack's ranges are taken at its close four
 * at a time (rec_pack.c). */
typedef struct rec_times {
    uint32_t t;               /* request - base */
    uint32_t a;               /* arrive - request */
    uint32_t g;               /* grant - arrive: the wait for the bank */
    uint32_t d;               /* done - grant */
} rec_times_t;

/* The rest of an access of an open pack: the bank above bit 32, below it
 * the low digits of its integer (store/pack.h), addr * PACK_ADDR_UNIT +
 * value * PACK_FLAGS_N + flags (flags: is_store | sync << 1). */
#define REC_LOW(bank, addr, value, flags)                                                   \
    ((uint64_t)(bank) << 32 | ((uint32_t)(addr) * PACK_ADDR_UNIT + (uint32_t)(value) *     \
                               PACK_FLAGS_N + (uint32_t)(flags)))

/* One core's open pack: its entries in two arrays (times, low digits).
 * The ranges and the bank map are found when it closes; only the latest
 * done time is kept on the way. */
typedef struct rec_pack {
    rec_pack_row_t row;       /* what the row will say (n = 0: no pack open) */
    int task_frame;           /* frame of the core's current task, -1 none */
    uint16_t next_part;       /* part number of the next pack of the task */
    uint32_t task_n;          /* accesses of the task packed so far */
    rec_times_t *times;       /* REC_PACK_MAX entries */
    uint64_t *low;            /* REC_PACK_MAX entries (REC_LOW) */
} rec_pack_t;

/* One event of the open event pack (store/evpack.h). */
typedef struct rec_ev_raw {
    uint32_t t;               /* (time - base_ps) / scale_ps */
    uint32_t name;            /* name id */
    uint8_t prio;
} rec_ev_raw_t;

/* The open event pack (n = 0: none). */
typedef struct rec_evpack {
    uint64_t seq0;            /* seq of its first event */
    uint32_t n;
    sim_time_t base_ps;       /* time of its first event */
    uint64_t scale_ps;        /* unit of t: period_ps, or 1 */
    uint8_t prio_min, prio_max;
    uint32_t name_max;        /* largest name id */
    rec_ev_raw_t *raw;        /* EVPACK_MAX entries */
} rec_evpack_t;

/* An open pack of the SIMT unit's records (store/sipack.h; rec_simt.c): a
 * time and up to REC_RP_FIELDS fields per entry, each field with the
 * pack's range (n = 0: none open). Times are kept as offsets in scale_ps
 * units from the first entry's, so that the pack's base, its earliest
 * time, is known only when it closes; a field flagged in `durations` is a
 * span of ps, kept in scale_ps units like the times. */
#define REC_RP_FIELDS SIPACK_FIELDS_MAX

typedef struct rec_rp_raw {
    int32_t t;                /* (time - first_ps) / scale_ps */
    uint64_t f[REC_RP_FIELDS];
} rec_rp_raw_t;

typedef struct rec_rpack {
    uint32_t n;
    unsigned fields;          /* fields per entry */
    unsigned durations;       /* bit k: field k is a duration in ps */
    rec_table_t table;        /* where its rows go */
    const char *what;         /* for error messages */
    sim_time_t first_ps;      /* the first entry's time */
    uint64_t scale_ps;        /* unit of t and of durations: period_ps, or 1 */
    int32_t tmin, tmax;       /* the entries' t range */
    uint64_t lo[REC_RP_FIELDS], hi[REC_RP_FIELDS]; /* each field's range */
    rec_rp_raw_t *raw;        /* SIPACK_MAX entries */
} rec_rpack_t;

/* The open SIMT pack of each kind, and the mnemonics the run's
 * simt_op_names has. */
typedef struct rec_simt_packs {
    rec_rpack_t issue;        /* → simt_issue_packs */
    rec_rpack_t mem;          /* → simt_mem_packs */
    bool op_seen[256];
} rec_simt_packs_t;

/* An event name the hook has seen: its pointer, a copy of its text (a
 * pointer may be reused for another name) and its id. */
typedef struct rec_name {
    const char *ptr;
    char *copy;
    uint32_t id;
} rec_name_t;

/* The run's dictionary of event names (hook thread): open addressing on
 * the pointer, cap a power of two. */
typedef struct rec_names {
    rec_name_t *slot;
    size_t cap, used;
    uint32_t next_id;         /* the id of the next new name */
    bool failed;              /* out of memory: the run's recording failed */
} rec_names_t;

/* Exact division by a constant d = odd << shift: v is a multiple of d iff
 * its low `shift` bits are 0 and (v >> shift) * inv <= max, which is then
 * the quotient (Granlund and Montgomery, "Division by invariant integers
 * using multiplication", §9) — a multiply instead of a divide. */
typedef struct rec_div {
    unsigned shift;           /* trailing zero bits of d */
    uint64_t inv;             /* inverse of d's odd part modulo 2^64 */
    uint64_t max;             /* UINT64_MAX / d's odd part */
    uint64_t max_d;           /* UINT64_MAX / d */
} rec_div_t;

static inline void rec_div_init(rec_div_t *d, uint64_t s)
{
    d->shift = 0;
    while (!(s & 1)) {
        s >>= 1;
        d->shift++;
    }
    uint64_t x = s; /* Newton's iteration doubles the correct low bits: 3, 6, … 96 */
    for (unsigned i = 0; i < 5; i++)
        x *= 2 - s * x;
    d->inv = x;
    d->max = UINT64_MAX / s;
    d->max_d = d->max >> d->shift;
}

/* For many values at once: v is a multiple of d iff the rotation of v * inv
 * by `shift` bits is at most max_d, which is then the quotient (Hacker's
 * Delight, 10-16): a multiply and a rotate. */
static inline uint64_t rec_div_rotated(const rec_div_t *d, uint64_t v)
{
    uint64_t x = v * d->inv;
    return x >> d->shift | x << ((64 - d->shift) & 63);
}

/* Is v a multiple of d? Then *q = v / d. */
static inline bool rec_div_exact(const rec_div_t *d, uint64_t v, uint64_t *q)
{
    if (v & ((UINT64_C(1) << d->shift) - 1))
        return false;
    *q = (v >> d->shift) * d->inv;
    return *q <= d->max;
}

/* The checkpointer (rec_ckpt.c): a thread with its own connection that
 * copies the WAL into the database during a run, asked by the writer's
 * commits (SQLite's WAL hook). mu guards want, busy, copied and stop. */
#define REC_CKPT_BYTES (16 << 20) /* a checkpoint every 16 MiB of WAL (64 measured the same) */

typedef struct rec_ckpt {
    sqlite3 *db;              /* its connection (opened at the first run), or NULL */
    pthread_t thread;
    bool running;             /* the thread was started and not joined */
    bool locks;               /* mu and cv exist */
    pthread_mutex_t mu;
    pthread_cond_t cv;        /* want or stop set; busy cleared */
    bool want;                /* the writer asks for a checkpoint */
    bool busy;                /* the checkpointer is copying */
    int copied;               /* WAL pages its last pass had copied (0: none since the WAL
                                 started over) */
    bool stop;                /* the run ends: exit */
    int interval;             /* bytes in pages */
    int auto_interval;        /* REC_CKPT_BYTES in pages: SQLite's automatic checkpoint's */
    size_t bytes;             /* a checkpoint every this many bytes of WAL (0:
                                 REC_CKPT_BYTES; tests set less) */
} rec_ckpt_t;

/* Starts the checkpointer for a run on the writer's connection `wdb` (from
 * the caller's thread, before the writer's first commit), or leaves SQLite's
 * automatic checkpoint when it cannot; last asks for a pass over what the
 * writer left (the writer has stopped; the run's end builds the indexes
 * meanwhile); stop joins it and gives the automatic checkpoint back; free
 * stops it if needed and closes its connection (after the last run). */
void rec_ckpt_start(rec_ckpt_t *c, sqlite3 *wdb);
void rec_ckpt_last(rec_ckpt_t *c);
void rec_ckpt_stop(rec_ckpt_t *c, sqlite3 *wdb);
void rec_ckpt_free(rec_ckpt_t *c, sqlite3 *wdb);

/* The writer thread, its bounded queue of full batches, and the packs. */
typedef struct rec_writer {
    sqlite3 *db;              /* the recorder's connection */
    const char *path;         /* the database path, for messages */
    int64_t run_id;           /* the run the rows belong to */
    sqlite3_stmt *ins[REC_TABLES]; /* prepared INSERT per table */
    pthread_t thread;
    bool running;             /* the thread was started and not joined */
    pthread_mutex_t mu;       /* guards everything down to errmsg */
    pthread_cond_t cv_work;   /* signalled when a batch is queued or stop is set */
    pthread_cond_t cv_free;   /* signalled when a batch is free again */
    rec_batch_t *queue[REC_BATCHES]; /* full batches, oldest first */
    unsigned qhead, qcount;
    rec_batch_t *spare[REC_BATCHES]; /* empty batches */
    unsigned nspare;
    bool stop;                /* finish the queue and exit */
    atomic_bool failed;       /* a write failed: later batches are dropped */
    char errmsg[512];         /* why it failed */
    rec_batch_t store[REC_BATCHES]; /* the batches themselves */
    /* packing, on the writer thread (rec_pack.c) */
    rec_pack_t packs[GPU_CORES];
    uint64_t period_ps;       /* the run's clock period (1 when unknown) */
    unsigned banks;           /* the run's sm.banks (a power of two) */
    unsigned bank_hi_shift;   /* 12 - log2(banks) */
    rec_div_t period_div;     /* division by period_ps */
    sim_time_t span_ps;       /* REC_SPAN_MAX cycles, at most 2^32 - 1 ps */
    char *text;               /* a pack's text while its row is written */
    rec_evpack_t evp;         /* the open event pack (rec_events.c) */
    rec_simt_packs_t sip;     /* the open SIMT packs (rec_simt.c) */
    rec_ckpt_t ckpt;          /* the checkpointer (rec_ckpt.c) */
} rec_writer_t;

#define REC_DISCARD 16 /* accesses appended to nowhere outside a run */

struct rec {
    gpu_access_sink_t sink;   /* the current batch's free accesses (next: the batch's nacc);
                                 outside a run, discard */
    gpu_tr_access_t discard[REC_DISCARD];
    sqlite3 *db;
    char *path;               /* as given to rec_open */
    rec_opts_t opts;          /* level and window */
    bool windowed;            /* the window is not [0, end) */
    bool in_run;              /* between rec_begin_run and rec_end_run */
    bool dropping;            /* the writer failed: the hook ignores records */
    int64_t run_id;           /* the run in progress */
    rec_batch_t *cur;         /* the batch being filled */
    rec_names_t names;        /* event names of the run (rec_hook.c) */
    rec_counts_t counts;
    rec_writer_t w;
};

/* rec_writer.c. init/destroy bracket the recorder's life (prepares the
 * INSERTs; TESS_EDB/TESS_ENOMEM, nothing left on failure). start launches
 * the thread for a run and gives the first empty batch; TESS_ENOMEM when
 * memory or the thread is missing (nothing left). */
int rec_writer_init(rec_writer_t *w, sqlite3 *db, const char *path, diag_t *diag);
void rec_writer_destroy(rec_writer_t *w);
int rec_writer_start(rec_writer_t *w, int64_t run_id, uint64_t period_ps,
                     rec_batch_t **first /* OUT */, diag_t *diag);
/* Queues a full batch and returns an empty one, blocking while the writer
 * holds every batch. Never fails. */
rec_batch_t *rec_writer_swap(rec_writer_t *w, rec_batch_t *full);
/* Queues the last batch, waits for the writer to write everything (open
 * packs included) and stops it. TESS_OK, or TESS_EDB with the writer's
 * failure in diag. */
int rec_writer_finish(rec_writer_t *w, rec_batch_t *last, diag_t *diag);
bool rec_writer_failed(rec_writer_t *w);
/* Inserts a pack row with its data (writer thread); false after a failure. */
bool rec_writer_put_pack(rec_writer_t *w, const rec_pack_row_t *row, const char *data,
                         size_t len);

/* rec_pack.c (writer thread): packs one access (or n; an access of no core,
 * core >= GPU_CORES, is dropped); packs one that is not rec_acc_regular;
 * closes a core's pack at the end of its task; closes every open pack (end
 * of run). false once an INSERT failed. */
bool rec_pack_access(rec_writer_t *w, const gpu_tr_access_t *a);
/* Packs n accesses in order (what rec_pack_access does to each). */
bool rec_pack_accesses(rec_writer_t *w, const gpu_tr_access_t *a, size_t n);
bool rec_pack_odd(rec_writer_t *w, const gpu_tr_access_t *a);
bool rec_pack_end_task(rec_writer_t *w, unsigned core, unsigned frame);
bool rec_pack_flush(rec_writer_t *w);
/* Resets the packs for a run; allocates their buffers once. TESS_ENOMEM. */
int rec_pack_reset(rec_writer_t *w, uint64_t period_ps);
void rec_pack_free(rec_writer_t *w);

/* rec_events.c (writer thread): packs one kernel event; writes the open
 * pack (end of run). false once an INSERT failed. reset allocates the pack's
 * buffer once (TESS_ENOMEM). */
bool rec_events_put(rec_writer_t *w, const rec_ev_t *e);
bool rec_events_flush(rec_writer_t *w);
int rec_events_reset(rec_writer_t *w);
void rec_events_free(rec_writer_t *w);
/* Inserts an event pack row with its data (rec_writer.c). */
bool rec_writer_put_events(rec_writer_t *w, const rec_evpack_t *p, const char *data,
                           size_t len);

/* rec_simt.c (writer thread), as rec_events.c for the SIMT issue port and
 * warp ld/st; the rows of simt_issue_packs, simt_mem_packs and
 * simt_op_names (rec_writer.c). put_rpack's unit holds each field's place
 * value, then t's. */
bool rec_simt_issue_put(rec_writer_t *w, const gpu_tr_simt_issue_t *i);
bool rec_simt_mem_put(rec_writer_t *w, const gpu_tr_simt_mem_t *m);
bool rec_simt_flush(rec_writer_t *w);
int rec_simt_reset(rec_writer_t *w);
void rec_simt_free(rec_writer_t *w);
bool rec_writer_put_rpack(rec_writer_t *w, const rec_rpack_t *p, sim_time_t base_ps,
                          const uint64_t unit[REC_RP_FIELDS + 1], const char *data, size_t len);
bool rec_writer_put_op(rec_writer_t *w, unsigned id, const char *name);

/* rec_hook.c: the sink at the discard area (outside a run; sets its full
 * callback), at the current batch's start (a run begins); seal sets the
 * current batch's nacc from the sink and counts its accesses (before the
 * batch is handed over). */
void rec_sink_idle(rec_t *rec);
void rec_sink_start(rec_t *rec);
void rec_seal(rec_t *rec);
/* rec_hook.c: forgets the run's event names (between runs, at close). */
void rec_names_clear(rec_names_t *d);

/* rec_encode.c: the data of a pack from its raw entries and planned
 * radices (at most n * REC_RADIX_MAX + 2 bytes, and up to REC_TEXT_SLACK bytes
 * after them may be written), and of a pack of one access
 * whose times are all in the row (at most REC_RADIX_MAX + 2). Return the
 * length. */
size_t rec_encode_pack(const rec_pack_row_t *row, const rec_times_t *times, const uint64_t *low,
                       char *out);
size_t rec_encode_one(unsigned banks, unsigned bank, unsigned addr, unsigned value,
                      unsigned flags, char *out);
/* The data of an event pack (at most n * 18 + 2 bytes; store/evpack.h). */
size_t rec_encode_events(const rec_evpack_t *p, char *out);
/* The decimal digits of v at out; returns their end. */
char *rec_put_u64(char *out, uint64_t v);

/* Does [s, e) overlap the window [from, to)? An instant (s = e) must lie in
 * it; e = SIM_TIME_NEVER is an interval still open. */
static inline bool rec_keep(const rec_t *rec, sim_time_t s, sim_time_t e)
{
    if (!rec->windowed)
        return true;
    return (rec->opts.to_ps == 0 || s < rec->opts.to_ps) &&
           (e > rec->opts.from_ps || s >= rec->opts.from_ps);
}

#endif

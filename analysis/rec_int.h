/* rec_int.h — the recorder's internals, shared by rec.c (the API and a run's
 * life), rec_schema.c (the SQL), rec_writer.c (the writer thread) and
 * rec_pack.c (the trace hook and access packing). Invariant: between
 * rec_begin_run() and rec_end_run() the SQLite connection belongs to the
 * writer thread alone; outside a run, to the caller's thread alone. */
#ifndef TESSERA_REC_INT_H
#define TESSERA_REC_INT_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "analysis/rec.h"
#include "model/gpu_trace.h"
#include "model/tm.h"

#define REC_APP_ID 0x54455353      /* PRAGMA application_id: "TESS" */
#define REC_SCHEMA_VERSION 1       /* PRAGMA user_version written by this code */

#define REC_PACK_MAX 4096          /* accesses per sm_access_packs row at most */
#define REC_ENTRY_MAX 160          /* bytes of one packed access at most */
#define REC_PACK_BYTES (REC_PACK_MAX * 40 + REC_ENTRY_MAX) /* a core's pack buffer */
#define REC_BATCH_ROWS 8192        /* rows per batch */
#define REC_BATCH_TEXT (2u << 20)  /* text bytes per batch */
#define REC_BATCHES 3              /* batches in all: one filling, two with the writer */

typedef enum rec_row_kind {
    REC_ROW_FRAME = 0,
    REC_ROW_STALL,
    REC_ROW_TASK,
    REC_ROW_PACK,
    REC_ROW_COUNTER,
    REC_ROW_EVENT,
    REC_ROW_KINDS
} rec_row_kind_t;

/* One sm_access_packs row (its data is the row's text). */
typedef struct rec_pack_row {
    uint8_t frame, core;      /* the core task */
    uint16_t part;            /* 0, 1, … within the core task */
    uint32_t n;               /* accesses packed */
    uint32_t idx0;            /* index in the task of the first of them */
    sim_time_t base_ps;       /* request time of the first */
    sim_time_t scale_ps;      /* unit of the packed times: period_ps, or 1 */
    sim_time_t end_ps;        /* latest done time (SIM_TIME_NEVER: unknown) */
} rec_pack_row_t;

/* A row handed to the writer. Strings live in the batch's text arena. */
typedef struct rec_row {
    uint8_t kind;             /* rec_row_kind_t */
    uint32_t text_off;        /* pack data, counter component, event name */
    uint32_t text_len;        /* its length; UINT32_MAX: NULL */
    uint32_t text2_off;       /* counter name (NUL-terminated) */
    union {
        gpu_tr_frame_t frame;
        gpu_tr_stall_t stall;
        gpu_tr_core_task_t task;
        rec_pack_row_t pack;
        uint64_t counter;     /* the counter's value */
        sim_trace_event_t event; /* name unused: see text_off */
    } u;
} rec_row_t;

/* Rows and their text, written by the writer in one transaction. */
typedef struct rec_batch {
    rec_row_t *rows;          /* REC_BATCH_ROWS of them */
    size_t nrows;
    char *text;               /* REC_BATCH_TEXT bytes */
    size_t len;
} rec_batch_t;

/* The writer thread and its bounded queue of full batches. */
typedef struct rec_writer {
    sqlite3 *db;              /* the recorder's connection */
    const char *path;         /* the database path, for messages */
    int64_t run_id;           /* the run the rows belong to */
    sqlite3_stmt *ins[REC_ROW_KINDS]; /* prepared INSERT per row kind */
    pthread_t thread;
    bool running;             /* the thread was started and not joined */
    pthread_mutex_t mu;       /* guards everything below */
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
} rec_writer_t;

/* One core's open pack: accesses since the pack was opened, as JSON. */
typedef struct rec_pack {
    rec_pack_row_t row;       /* what the row will say (n = 0: no pack open) */
    int task_frame;           /* frame of the core's current task, -1 none */
    uint16_t next_part;       /* part number of the next pack of the task */
    uint32_t task_n;          /* accesses of the task packed so far */
    size_t len;               /* bytes in buf ("[" + entries) */
    char *buf;                /* REC_PACK_BYTES */
} rec_pack_t;

/* Exact division by a constant d = odd << shift: v is a multiple of d iff
 * its low `shift` bits are 0 and (v >> shift) * inv <= max, which is then
 * the quotient (Granlund and Montgomery, "Division by invariant integers
 * using multiplication", §9) — a multiply instead of a divide. */
typedef struct rec_div {
    unsigned shift;           /* trailing zero bits of d */
    uint64_t inv;             /* inverse of d's odd part modulo 2^64 */
    uint64_t max;             /* UINT64_MAX / d's odd part */
} rec_div_t;

struct rec {
    sqlite3 *db;
    char *path;               /* as given to rec_open */
    rec_opts_t opts;          /* level and window */
    bool windowed;            /* the window is not [0, end) */
    bool in_run;              /* between rec_begin_run and rec_end_run */
    bool dropping;            /* the writer failed: the hook ignores records */
    int64_t run_id;           /* the run in progress */
    uint64_t period_ps;       /* its clock period (1 when unknown) */
    rec_div_t period_div;     /* division by period_ps */
    rec_batch_t *cur;         /* the batch being filled */
    rec_counts_t counts;
    rec_pack_t packs[GPU_CORES];
    rec_writer_t w;
};

/* rec_schema.c: checks, creates or migrates the schema of an open database.
 * Returns TESS_OK, or TESS_EDB/TESS_EIO with diag naming rec->path; on
 * failure a file that was not a Tessera database is left untouched. */
int rec_schema_open(sqlite3 *db, const char *path, diag_t *diag);
/* Builds the indexes (after a run). */
int rec_schema_index(sqlite3 *db, const char *path, diag_t *diag);
/* The INSERT text of a row kind, with run_id as parameter 1. */
const char *rec_schema_insert(rec_row_kind_t kind);
/* Reports the connection's last error as TESS_EDB "path: what: errmsg". */
int rec_db_fail(sqlite3 *db, const char *path, const char *what, diag_t *diag);
/* Runs SQL without results; TESS_OK or rec_db_fail(). */
int rec_exec(sqlite3 *db, const char *path, const char *sql, diag_t *diag);

/* rec_writer.c. init/destroy bracket the recorder's life (prepares the
 * INSERTs; TESS_EDB/TESS_ENOMEM, nothing left on failure). start launches
 * the thread for a run and gives the first empty batch; TESS_ENOMEM when
 * the thread cannot start (nothing left). */
int rec_writer_init(rec_writer_t *w, sqlite3 *db, const char *path, diag_t *diag);
void rec_writer_destroy(rec_writer_t *w);
int rec_writer_start(rec_writer_t *w, int64_t run_id, rec_batch_t **first /* OUT */,
                     diag_t *diag);
/* Queues a full batch and returns an empty one, blocking while the writer
 * holds every batch. Never fails. */
rec_batch_t *rec_writer_swap(rec_writer_t *w, rec_batch_t *full);
/* Queues the last batch, waits for the writer to write everything and stops
 * it. Returns TESS_OK, or TESS_EDB with the writer's failure in diag. */
int rec_writer_finish(rec_writer_t *w, rec_batch_t *last, diag_t *diag);
bool rec_writer_failed(rec_writer_t *w);

/* rec_pack.c: closes every open pack (end of run). */
void rec_pack_flush(rec_t *rec);
/* Resets the packs for a new run; allocates their buffers once. TESS_ENOMEM. */
int rec_pack_reset(rec_t *rec);
void rec_pack_free(rec_t *rec);

#endif

/* tessera.h — the run API: one simulation of a program under a configuration,
 * optionally recorded into a statistics database, from creation to verdict.
 * `tessera run` is a thin shell over it, as is every point of `tessera sweep`
 * and examples/embed.c. A binding (ctypes, cffi) needs only this header:
 * an opaque handle, plain types, a result code plus a message accessor, and
 * tessera_stop() to interrupt a run from another thread or a signal handler.
 *
 *   tessera_t *t = tessera_new();
 *   tessera_set(t, "sm.arbiter=rr");            // configuration: keys of docs/CONFIG.md
 *   tessera_load(t, "examples/matmul.s", NULL);  // the program
 *   tessera_record(t, "study.db");               // optional: record the run
 *   int rc = tessera_run(t, 0);                  // simulate; rc is the exit code
 *   tessera_counters_t c; tessera_counters(t, &c);
 *   tessera_free(t);
 *
 * Every function returning int returns a tess_err_t (events/base/err.h):
 * TESS_OK, or a failure whose message tessera_errmsg() gives. Configuration
 * and loading are refused once the run has started; a run is simulated once. */
#ifndef TESSERA_API_H
#define TESSERA_API_H

#include <stddef.h>
#include <stdint.h>

#include "api/tessera_policy.h"
#include "config/cfg.h"
#include "model/arch.h"
#include "model/itrace.h"
#include "model/race.h"

typedef struct tessera tessera_t;

/* A new run with the default configuration (spec §6) and no program; NULL
 * when out of memory. Release it with tessera_free. */
tessera_t *tessera_new(void);

/* Releases everything the run holds (closing its database). NULL is fine. */
void tessera_free(tessera_t *t);

/* --- configuration (before tessera_run) ----------------------------------------- */

/* Applies an INI file on top of the configuration (cfg_load_file). */
int tessera_config_file(tessera_t *t, const char *path);

/* Applies one "section.key=value" (cfg_set), e.g. "sm.bank=4". */
int tessera_set(tessera_t *t, const char *assignment);

/* Replaces the whole configuration by a copy of `cfg` (for C programs). */
int tessera_configure(tessera_t *t, const cfg_t *cfg);

/* What a command line gives: `path` (NULL: none), then each of the n
 * assignments in order, then the cross-key checks (cfg_apply_cli). */
int tessera_config_cli(tessera_t *t, const char *path, char *const *sets, int n);

/* Hands decision point `key` ("sm.arbiter", "sm.bank_map", "simt.scheduler")
 * to `policy`, a descriptor in memory (api/tessera_policy.h: a binding's
 * callbacks, as python/tessera does with a callable), checked as a loaded
 * plugin is; the run records KEY = `label` ("python:NAME": not a file, no
 * KEY.sha256) and KEY.plugin = its name. The descriptor must outlive the
 * run. TESS_EINPUT (an unknown key, a bad label), TESS_EUSAGE (the
 * descriptor's ABI, kind, name or callback). Setting the key again (a
 * built-in name, plugin:PATH) replaces it. */
int tessera_set_policy(tessera_t *t, const char *key, const tessera_policy_t *policy,
                       const char *label);

/* The effective configuration (valid until the next configuring call). */
const cfg_t *tessera_config(const tessera_t *t);

/* --- program --------------------------------------------------------------------- */

/* Loads PROG (.s or .tm) and, when mem_path is not NULL, a 4096-byte SM image
 * (program_load). TESS_EINPUT names the file and line; TESS_EIO. */
int tessera_load(tessera_t *t, const char *path, const char *mem_path);

/* Assembles `source` (NUL-terminated assembly of spec §5); `name` stands for
 * the file in messages and in the database's runs.program. */
int tessera_load_source(tessera_t *t, const char *source, const char *name);

/* Assembles `source` (NUL-terminated assembly of spec §5 with its macros;
 * `name` stands for the file in messages and .include is relative to it) as
 * `tessera asm` does, without a run: the 2048-byte Task Memory image into tm
 * and the 4096-byte SM image of its .data lines into sm (either may be NULL).
 * Returns TESS_OK, or TESS_EINPUT / TESS_EIO / TESS_ENOMEM with the command's
 * message ("name:line:column: ...") in msg (msg_size bytes, NUL-terminated;
 * msg may be NULL); tm and sm are left as they were on failure. Warnings are
 * dropped. Thread-safe (no handle). */
int tessera_assemble(const char *source, const char *name, uint8_t *tm /* OUT */,
                     uint8_t *sm /* OUT */, char *msg /* OUT */, size_t msg_size);

/* --- recording --------------------------------------------------------------------- */

/* Records the run into the SQLite database `db_path` (created when missing,
 * appended to otherwise) at the configured record.level; without this call
 * (or with NULL) nothing is recorded. tessera_run opens and checks the
 * database after the machine is built and before the first event, so a
 * rejected configuration never creates a database file. An empty path or
 * ":memory:" (a database SQLite throws away at exit) is refused here:
 * TESS_EUSAGE. */
int tessera_record(tessera_t *t, const char *db_path);

/* Feeds every SM access of the run to a race detector (model/race.h):
 * tessera_races() lists, after the run, the accesses to one byte from
 * different cores, one a store, in tasks the program does not order. */
int tessera_detect_races(tessera_t *t);

/* Reports every instruction the run executes to fn(user, record)
 * (model/itrace.h: `when` in ps); the timestamps do not change. */
int tessera_itrace(tessera_t *t, itrace_fn fn, void *user);

/* --- running ------------------------------------------------------------------------- */

enum {
    TESSERA_SIGNALS = 1u << 0,  /* SIGINT/SIGTERM stop the run between two events */
    TESSERA_PROGRESS = 1u << 1, /* the progress line even when stderr is not a terminal
                                   (otherwise sim.progress decides) */
};

/* Builds the machine, begins the recorded run, simulates under the libev
 * driver with the configured limits (sim.time_limit, sim.wall_limit,
 * sim.pace) and progress line (sim.progress), and records the outcome.
 * Returns the verdict as an exit code: TESS_OK (every frame completed),
 * TESS_EWATCHDOG, TESS_EINTERRUPTED (a signal, tessera_stop, or a limit),
 * TESS_EDEADLOCK, TESS_ENOMEM; or the code of a failure before the first
 * event (TESS_EINPUT: the configuration does not fit the model; TESS_EDB…)
 * or while committing the run (TESS_EDB). A stopped or watchdog run still
 * commits what it recorded, with its status. */
int tessera_run(tessera_t *t, unsigned flags);

/* Asks the run to stop between two events, as SIGINT would; `signal` is the
 * signal that asked, for the message ("interrupted by signal 2"), or 0.
 * Safe from a signal handler and from another thread; called before
 * tessera_run, the run stops before its first event and is recorded as
 * interrupted. */
void tessera_stop(tessera_t *t, int signal);

/* --- results ---------------------------------------------------------------------------- */

/* The run's status as recorded in runs.status (one of DB_STATUSES, the list
 * in analysis/store/db.h that the recorder and the binding use too): "ok", "watchdog",
 * "interrupted" (a signal or tessera_stop), "time_limit", "wall_limit", "record_limit",
 * "time_overflow" (past 2^63 ps, exit code 4), "deadlock" or "error" (also
 * when the run's end could not be recorded); "" before tessera_run has simulated. */
const char *tessera_status(const tessera_t *t);

/* Why the run did not end "ok" (runs.error), or "". */
const char *tessera_outcome_msg(const tessera_t *t);

/* The message of the last failed call, or "". */
const char *tessera_errmsg(const tessera_t *t);

/* The summary counters of the run (zero before tessera_run; period_ps is
 * the configured clock period). */
typedef struct tessera_counters {
    uint64_t period_ps;       /* the clock period */
    uint64_t end_ps;          /* the last READY (0: none) */
    uint64_t now_ps;          /* the simulated time reached */
    uint64_t stop_ps;         /* where the run stopped (runs.stop_ps): end_ps when it
                                 finished, the limit for sim.time_limit, else now_ps */
    uint64_t frames, tasks, core_tasks;
    uint64_t instructions;
    uint64_t sm_accesses, sm_conflicts, sm_conflict_ps;
    uint64_t events;          /* events simulated */
    double wall_s;            /* wall-clock seconds simulating */
    int64_t run_id;           /* runs.id in the database; 0 when not recorded */
} tessera_counters_t;

int tessera_counters(const tessera_t *t, tessera_counters_t *out /* OUT */);

/* The race detector of tessera_detect_races (after tessera_run), or NULL. */
race_det_t *tessera_races(const tessera_t *t);

/* The final registers and Shared Memory (after tessera_run). */
int tessera_state(const tessera_t *t, arch_state_t *out /* OUT */);

#endif

/* tables.h — the columns of every table of a statistics database, declared
 * once (docs/SCHEMA.md describes them): schema.c derives the CREATE TABLEs
 * and the shape check from these lists, the recorder its INSERTs and the
 * parameter numbers it binds. Private to analysis/store/,
 * analysis/recorder/. Every table starts with run_id, which is not
 * listed. A list is T(C, G): C(name, type) a stored column, G(name, type) a
 * generated one (never inserted). Adding a column: append it to its list
 * and bump DB_SCHEMA_VERSION with a migration (schema.c, docs/SCHEMA.md). */
#ifndef TESSERA_TABLES_H
#define TESSERA_TABLES_H

#include "analysis/store/sipack.h"
#include "tessera_names.h" /* the model's stall reasons (cmake/gen-names.c) */

#define DB_RUN_FK "INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE"

#define DB_RUNS(C, G)                                                            \
    C(program, "TEXT") C(program_sha256, "TEXT") C(config, "TEXT")               \
    C(status, "TEXT NOT NULL") C(end_ps, "INTEGER") C(events, "INTEGER")         \
    C(wall_s, "REAL") C(version, "TEXT NOT NULL") C(started_at, "TEXT NOT NULL") \
    C(data_sha256, "TEXT") C(error, "TEXT") C(level, "TEXT NOT NULL")            \
    C(period_ps, "INTEGER") C(finished_at, "TEXT") C(from_ps, "INTEGER")         \
    C(to_ps, "INTEGER") C(stop_ps, "INTEGER") C(uid, "TEXT")

/* value has no declared type (no affinity): a number is stored as an INTEGER
 * or REAL, anything else as TEXT (schema_bind_value, version 3). */
#define DB_PARAMS(C, G) C(key, "TEXT NOT NULL") C(value, "")

#define DB_COUNTERS(C, G)                                                        \
    C(component, "TEXT NOT NULL") C(name, "TEXT NOT NULL") C(value, "INTEGER")

#define DB_FRAMES(C, G)                                                          \
    C(frame, "INTEGER NOT NULL") C(kind, "TEXT NOT NULL") C(grp, "INTEGER")      \
    C(mask, "INTEGER") C(fence, "TEXT") C(decode_ps, "INTEGER")                  \
    C(issue_ps, "INTEGER") C(start_ps, "INTEGER") C(complete_ps, "INTEGER")      \
    C(decode_start_ps, "INTEGER") C(complete, "INTEGER NOT NULL")                \
    G(mask_hex, "TEXT GENERATED ALWAYS AS (printf('%04x', mask)) VIRTUAL")

#define DB_STALLS(C, G)                                                          \
    C(frame, "INTEGER NOT NULL") C(reason, "TEXT NOT NULL") C(blocker, "INTEGER") \
    C(from_ps, "INTEGER") C(to_ps, "INTEGER")

#define DB_CORE_TASKS(C, G)                                                      \
    C(frame, "INTEGER NOT NULL") C(core, "INTEGER NOT NULL") C(start_ps, "INTEGER") \
    C(finish_ps, "INTEGER") C(ready_ps, "INTEGER") C(instructions, "INTEGER")    \
    C(sm_ops, "INTEGER") C(sm_wait_ps, "INTEGER") C(sm_conflict_ps, "INTEGER")   \
    C(complete, "INTEGER NOT NULL")

/* The packed SM accesses (the layout of data: store/pack.h). */
#define DB_SM_ACCESS_PACKS(C, G)                                                 \
    C(frame, "INTEGER NOT NULL") C(core, "INTEGER NOT NULL")                     \
    C(part, "INTEGER NOT NULL") C(idx0, "INTEGER NOT NULL") C(n, "INTEGER NOT NULL") \
    C(base_ps, "INTEGER") C(scale_ps, "INTEGER NOT NULL") C(end_ps, "INTEGER")   \
    C(bank_shift, "INTEGER") C(arrive_dt, "INTEGER") C(arrive_n, "INTEGER NOT NULL") \
    C(wait_dt, "INTEGER") C(wait_n, "INTEGER NOT NULL") C(done_dt, "INTEGER")    \
    C(done_n, "INTEGER NOT NULL") C(data, "TEXT NOT NULL")

/* The kernel's event log, packed (version 9; the layout: store/evpack.h):
 * the `events` view expands it. event_names is the run's dictionary of
 * event names (id >= 1; id 0 is an event without a name). */
#define DB_EVENT_PACKS(C, G)                                                     \
    C(seq0, "INTEGER NOT NULL") C(n, "INTEGER NOT NULL") C(base_ps, "INTEGER")   \
    C(scale_ps, "INTEGER NOT NULL") C(prio0, "INTEGER") C(prio_n, "INTEGER NOT NULL") \
    C(names_n, "INTEGER NOT NULL") C(data, "TEXT NOT NULL")

#define DB_EVENT_NAMES(C, G) C(id, "INTEGER NOT NULL") C(name, "TEXT NOT NULL")

/* Each race the detector found (model/race.h), with --races: both accesses
 * as (frame, core, slot, op), a sorting before b. */
#define DB_RACES(C, G)                                                           \
    C(addr, "INTEGER NOT NULL") C(a_frame, "INTEGER NOT NULL")                   \
    C(a_core, "INTEGER NOT NULL") C(a_slot, "INTEGER NOT NULL")                  \
    C(a_op, "TEXT NOT NULL") C(b_frame, "INTEGER NOT NULL")                      \
    C(b_core, "INTEGER NOT NULL") C(b_slot, "INTEGER NOT NULL")                  \
    C(b_op, "TEXT NOT NULL")

/* Interval statistics (record.interval; model/ivl.h): one row per interval
 * and unit; for a core busy_ps, instructions and sm_wait_ps, for a bank
 * busy_ps and conflicts (the others NULL). kind 'window': the one interval
 * record.from_ps/to_ps. */
#define DB_INTERVALS(C, G)                                                       \
    C(kind, "TEXT NOT NULL") C(idx, "INTEGER NOT NULL") C(from_ps, "INTEGER NOT NULL") \
    C(to_ps, "INTEGER NOT NULL") C(unit, "TEXT NOT NULL") C(busy_ps, "INTEGER")  \
    C(instructions, "INTEGER") C(sm_wait_ps, "INTEGER") C(conflicts, "INTEGER")

/* SIMT (core.model = simt, SIMT-SPEC "Counting", version 6): one warp per
 * row at level tasks (gpu_tr_simt_warp_t; stall_*_cycles by reason), one
 * warp ld/st per row at level mem (gpu_tr_simt_mem_t: a table up to version
 * 10, since then the simt_mem view's columns), one issued warp instruction
 * per row at level events (gpu_tr_simt_issue_t: a table up to version 9,
 * since then the simt_issue view's columns). Version 13: max_groups,
 * barriers and stall_barrier_cycles of simt.reconvergence = barrier runs
 * (S14; NULL for the stack's, whose max_stack_depth is NULL for them);
 * version 14 the pipeline's stall reasons (S11, S12); a reason newer than
 * 14 has its column after these (DB_STALLS_SINCE_V14). */
#define DB_SIMT_WARPS(C, G) DB_SIMT_WARPS_V14(C, G) DB_STALLS_SINCE_V14(C)
/* simt_warps as version 14 made it (frozen: never edit). */
#define DB_SIMT_WARPS_V14(C, G)                                                  \
    DB_SIMT_WARPS_V6(C, G)                                                       \
    C(max_groups, "INTEGER") C(barriers, "INTEGER") C(stall_barrier_cycles, "INTEGER") \
    C(stall_fetch_cycles, "INTEGER") C(stall_collector_cycles, "INTEGER")
/* simt_warps as versions 6 to 12 made it (the migration to 6 creates it so). */
#define DB_SIMT_WARPS_V6(C, G)                                                   \
    C(frame, "INTEGER NOT NULL") C(mask, "INTEGER") C(lanes, "INTEGER")          \
    C(start_ps, "INTEGER") C(end_ps, "INTEGER")                                  \
    C(warp_instructions, "INTEGER") C(lane_instructions, "INTEGER")              \
    C(divergent_branches, "INTEGER") C(max_stack_depth, "INTEGER")               \
    C(resident_cycles, "INTEGER") C(issued_cycles, "INTEGER")                    \
    C(stall_memory_cycles, "INTEGER") C(stall_execute_cycles, "INTEGER")         \
    C(stall_issue_cycles, "INTEGER") C(mem_instructions, "INTEGER")              \
    C(requests, "INTEGER") C(replays, "INTEGER") C(complete, "INTEGER NOT NULL")

#define DB_SIMT_MEM(C, G)                                                        \
    C(frame, "INTEGER NOT NULL") C(slot, "INTEGER NOT NULL") C(op, "TEXT NOT NULL") \
    C(lanes, "INTEGER") C(active, "INTEGER") C(requests, "INTEGER")              \
    C(replays, "INTEGER") C(banks, "INTEGER") C(issue_ps, "INTEGER")             \
    C(done_ps, "INTEGER")

#define DB_SIMT_ISSUE(C, G)                                                      \
    C(time_ps, "INTEGER NOT NULL") C(frame, "INTEGER NOT NULL")                  \
    C(slot, "INTEGER NOT NULL") C(op, "TEXT") C(ord, "INTEGER")                  \
    C(depth, "INTEGER") C(eligible, "INTEGER") C(active, "INTEGER")              \
    C(mask, "INTEGER") C(lanes, "INTEGER")

/* The issued warp instructions, packed (version 10; the layout:
 * store/sipack.h): the simt_issue view expands them (its columns are
 * DB_SIMT_ISSUE's). Each field f of an issue (SIPACK_ISSUE_FIELDS) has its pack's smallest value
 * f0, radix f_n and place value f_unit; simt_op_names is the run's
 * dictionary of mnemonics. */
#define DB_SI_FIELD_X(C, f, show) DB_SI_FIELD_V10(C, f) /* over sipack.h's lists */
#define DB_SIMT_ISSUE_PACKS(C, G) DB_SIMT_PACK_V10(C, SIPACK_ISSUE_FIELDS(DB_SI_FIELD_X, C))
/* The two pack tables as versions 10 and 11 made them, which the migrations
 * to those versions create and fill (frozen, as sipack.h's _V10/_V11 lists:
 * never edit; today's tables are made of the same columns around today's
 * fields). A field's three columns; the columns of a SIMT pack table around
 * its FIELDS (sipack.h). */
#define DB_SI_FIELD_V10(C, f)                                                    \
    C(f##0, "INTEGER") C(f##_n, "INTEGER NOT NULL") C(f##_unit, "INTEGER NOT NULL")
#define DB_SI_FIELD_V10_X(C, f, show) DB_SI_FIELD_V10(C, f)
#define DB_SIMT_PACK_V10(C, FIELDS)                                              \
    C(n, "INTEGER NOT NULL") C(base_ps, "INTEGER") C(scale_ps, "INTEGER NOT NULL") \
    C(t_unit, "INTEGER NOT NULL") FIELDS C(data, "TEXT NOT NULL")
#define DB_SIMT_ISSUE_PACKS_V10(C, G)                                            \
    DB_SIMT_PACK_V10(C, SIPACK_ISSUE_FIELDS_V10(DB_SI_FIELD_V10_X, C))
#define DB_SIMT_MEM_PACKS_V11(C, G)                                              \
    DB_SIMT_PACK_V10(C, SIPACK_MEM_FIELDS_V11(DB_SI_FIELD_V10_X, C))

/* The warp ld/st, packed (version 11) in the same layout (store/sipack.h):
 * the simt_mem view expands them (its columns are DB_SIMT_MEM's). The time
 * digit is issue_ps; op is 0 (ld) or 1 (st), latency is done_ps - issue_ps
 * in units of scale_ps. The leading columns and data are those of
 * simt_issue_packs, in the same places (the writer binds both alike). */
#define DB_SIMT_MEM_PACKS(C, G) DB_SIMT_PACK_V10(C, SIPACK_MEM_FIELDS(DB_SI_FIELD_X, C))

#define DB_SIMT_OP_NAMES(C, G) C(id, "INTEGER NOT NULL") C(name, "TEXT NOT NULL")

/* The slot profile (version 14; gpu_tr_slot_t): one row per frame, core
 * (NULL: the SIMT unit) and slot charged with anything over the run, at
 * level tasks and above; the slot_profile view is the contract. MIMD rows
 * have execute_ps and sm_wait_ps, SIMT rows issued_cycles and the stall
 * cycles (the others NULL), a column stall_NAME_cycles per reason: version
 * 14's six, then one per newer reason (DB_STALLS_SINCE_V14). */
#define DB_SLOT_COUNTS(C, G) DB_SLOT_COUNTS_V14(C, G) DB_STALLS_SINCE_V14(C)
/* slot_counts as version 14 made it, which the migration to 14 creates
 * (frozen: never edit). */
#define DB_SLOT_COUNTS_V14(C, G)                                                 \
    C(frame, "INTEGER NOT NULL") C(core, "INTEGER") C(slot, "INTEGER NOT NULL")  \
    C(word, "INTEGER") C(text, "TEXT") C(tasks, "INTEGER")                       \
    C(instructions, "INTEGER") C(lane_instructions, "INTEGER")                   \
    C(issued_cycles, "INTEGER") C(stall_memory_cycles, "INTEGER")                \
    C(stall_execute_cycles, "INTEGER") C(stall_issue_cycles, "INTEGER")          \
    C(stall_fetch_cycles, "INTEGER") C(stall_collector_cycles, "INTEGER")        \
    C(stall_barrier_cycles, "INTEGER") C(execute_ps, "INTEGER") C(sm_wait_ps, "INTEGER")

/* Adding a stall reason (docs/ARCHITECTURE.md): its entry at the end of
 * the model's GPU_SIMT_STALL_LIST gives simt_warps and slot_counts its
 * column stall_NAME_cycles after version 14's (DB_STALLS_SINCE_V14, from
 * tessera_names.h), the recorder binds it by reason (rec_writer.c) and the
 * views' per-reason columns follow the list; DB_SCHEMA_VERSION + 1 with no
 * step of its own (migrations[] NULL): the generic step (schema_add_stalls,
 * run after every step to version 14 and later) adds each reason's column a
 * file lacks — 0 in the old SIMT rows (they had no such stall), NULL in the
 * MIMD rows of slot_counts, as in the rows a run writes — and a reader of an
 * older file sees the same through TEMP views. A reason only thread groups
 * have (NULL in the stack's rows, as barrier) needs a rule of its own. */
#define DB_SLOT_STALL(C, name) C(stall_##name##_cycles, "INTEGER")
#define DB_STALLS_SINCE_V14(C) GEN_SIMT_STALLS_SINCE_V14(DB_SLOT_STALL, C)

/* A thread group's wait at a convergence barrier (version 15; simt.
 * reconvergence = barrier, level events; gpu_tr_simt_wait_t): the warp, the
 * wait point's slot, the group's lanes, from when its next slot was the
 * wait point to the barrier's completion (NULL: the run ended first). */
#define DB_SIMT_WAITS(C, G)                                                      \
    C(frame, "INTEGER NOT NULL") C(slot, "INTEGER NOT NULL") C(lanes, "INTEGER NOT NULL") \
    C(from_ps, "INTEGER NOT NULL") C(to_ps, "INTEGER")

/* Every table, in creation order: X(name, LIST, run_id's type). */
#define DB_TABLES(X)                                                             \
    X(runs, DB_RUNS, "INTEGER PRIMARY KEY")                                      \
    X(params, DB_PARAMS, DB_RUN_FK)                                              \
    X(counters, DB_COUNTERS, DB_RUN_FK)                                          \
    X(frames, DB_FRAMES, DB_RUN_FK)                                              \
    X(stalls, DB_STALLS, DB_RUN_FK)                                              \
    X(core_tasks, DB_CORE_TASKS, DB_RUN_FK)                                      \
    X(sm_access_packs, DB_SM_ACCESS_PACKS, DB_RUN_FK)                            \
    X(event_packs, DB_EVENT_PACKS, DB_RUN_FK)                                    \
    X(event_names, DB_EVENT_NAMES, DB_RUN_FK)                                    \
    X(races, DB_RACES, DB_RUN_FK)                                                \
    X(intervals, DB_INTERVALS, DB_RUN_FK)                                        \
    X(simt_warps, DB_SIMT_WARPS, DB_RUN_FK)                                      \
    X(simt_mem_packs, DB_SIMT_MEM_PACKS, DB_RUN_FK)                              \
    X(simt_issue_packs, DB_SIMT_ISSUE_PACKS, DB_RUN_FK)                          \
    X(simt_op_names, DB_SIMT_OP_NAMES, DB_RUN_FK)                                \
    X(slot_counts, DB_SLOT_COUNTS, DB_RUN_FK)                                    \
    X(simt_waits, DB_SIMT_WAITS, DB_RUN_FK)

/* Helpers for the lists: nothing; a column's name as text; "?" for it. */
#define DB_NONE(name, type)
#define DB_COL_NAME(name, type) ", " #name
#define DB_COL_PARAM(name, type) ", ?"

/* "INSERT INTO t(run_id, c1, …) VALUES(?1, ?, …)": run_id is parameter 1,
 * the columns of LIST follow in order (numbered as below). */
#define DB_INSERT_SQL(table, LIST)                                               \
    "INSERT INTO " #table "(run_id" LIST(DB_COL_NAME, DB_NONE) ") VALUES(?1"     \
    LIST(DB_COL_PARAM, DB_NONE) ")"

/* The parameter numbers of DB_INSERT_SQL follow the list: with
 * `#define F(name, type) F_##name,`, `enum { F_run_id = 1, DB_FRAMES(F,
 * DB_NONE) }` gives F_frame = 2, F_kind = 3, … (recorder/rec_writer.c). */

#endif

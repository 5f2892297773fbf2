/* views.c — the SQL of the analysis views (docs/SCHEMA.md, "Analysis
 * views") and of sm_accesses, events, simt_issue and simt_mem (the packed
 * relations expanded).
 * Each view is written once, as a SELECT, in one list; schema.c creates them in the file (a new file, or after a version
 * bump, when every view is dropped and re-created) or as TEMP views of a
 * read-only connection to an older file. Invariant: every view keeps run_id as a
 * column that reaches the indexed tables unchanged (a plain column, a
 * GROUP BY term or a window's PARTITION BY), so `WHERE run_id = N` is pushed
 * down to the (run_id, …) indexes and a view over frames, stalls,
 * core_tasks, counters or params costs a few index lookups per run. */
#include <stddef.h>

#include "analysis/store/views.h"
#include "tessera_names.h" /* generated from the model's lists (cmake/gen-names.c) */
#include "analysis/store/db.h"
#include "analysis/store/evpack.h"
#include "analysis/store/pack.h"
#include "analysis/store/runkey.h"
#include "analysis/store/sipack.h"

/* The packs with their run's bank count, one indexed lookup per pack (the
 * radix of the bank digit; runs recorded before sm.banks have 16). */
#define PACK_FROM                                                                \
    "sm_access_packs AS p LEFT JOIN params AS nbk ON nbk.run_id = p.run_id"      \
    " AND nbk.key = " DB_SQL_TEXT(GEN_KEY_SM_BANKS)
#define PACK_NB "coalesce(CAST(nbk.value AS INTEGER), " PACK_SQL(PACK_BANK_N) ")"

/* The columns of an access pack that its digits refer to (PACK_DIGITS'
 * R), bank_n among them, beside the pack's own. */
#define PACK_COLS                                                                \
    "p.base_ps AS base_ps, p.scale_ps AS scale_ps, p.bank_shift AS bank_shift,"  \
    " p.arrive_dt AS arrive_dt, p.arrive_n AS arrive_n, p.wait_dt AS wait_dt,"   \
    " p.wait_n AS wait_n, p.done_dt AS done_dt, p.done_n AS done_n,"             \
    " " PACK_NB " AS nb, CASE WHEN p.bank_shift IS NULL THEN " PACK_NB          \
    " ELSE 1 END AS bank_n"

/* sm_accesses: one row per access of the packs, its digits decoded with
 * integer arithmetic as pack.h's PACK_DIGITS say. A single SELECT, not a
 * UNION: SQLite then computes only the columns a query uses (a compound
 * view computes every column of every row). */
#define SM_ACCESSES                                                              \
    "SELECT run_id, frame, core, idx,"                                           \
    "  CASE flags % 2 WHEN 0 THEN 'ld' ELSE 'st' END AS op, flags / 2 % 2 AS sync," \
    "  addr, CASE WHEN bank_shift IS NULL THEN bank"                             \
    "   ELSE (addr >> bank_shift) % nb END AS bank, value,"                      \
    "  base_ps + scale_ps * t AS request_ps,"                                    \
    "  base_ps + scale_ps * (t + arrive) AS arrive_ps,"                          \
    "  base_ps + scale_ps * (t + arrive + wait) AS grant_ps,"                    \
    "  base_ps + scale_ps * (t + arrive + wait + done) AS done_ps,"              \
    "  scale_ps * wait AS wait_ps"                                               \
    " FROM (SELECT *," PACK_DIGITS(PACK_SQL_DIGIT, PACK_SQL_COL, q)              \
    "  q / " PACK_SQL(PACK_T_PLACE(PACK_SQL_COL, )) " AS t"                      \
    "  FROM (SELECT p.run_id AS run_id, p.frame AS frame, p.core AS core,"       \
    "    p.idx0 + j.key AS idx, j.value AS q, " PACK_COLS                        \
    "   FROM " PACK_FROM ", json_each(p.data) AS j))"

/* events: the kernel's event log, one row per event of the packs, its
 * digits decoded as evpack.h's EVPACK_DIGITS say, its name from the run's
 * dictionary (none: NULL). One SELECT, as sm_accesses. */
#define EV_COL(A, c) p.c
#define EV_SQL(A, radix, offset, place) PACK_SQL((offset) + A / (place) % (radix))
#define EV_DIGIT(A, digit, radix, offset, place) EV_##digit(EV_SQL(A, radix, offset, place))
#define EV_name_id(x)
#define EV_prio(x) " " x " AS prio,"
#define EV_NAME_ID(A, digit, radix, offset, place) EV_ID_##digit(EV_SQL(A, radix, offset, place))
#define EV_ID_name_id(x) " " x
#define EV_ID_prio(x)
#define EVENTS                                                                   \
    "SELECT p.run_id AS run_id, p.seq0 + j.key AS seq,"                          \
    " p.base_ps + p.scale_ps * (" PACK_SQL(j.value / EVPACK_T_PLACE(EV_COL, )) ") AS time_ps," \
    EVPACK_DIGITS(EV_DIGIT, EV_COL, j.value) " nm.name AS name"                 \
    " FROM event_packs AS p JOIN json_each(p.data) AS j"                         \
    " LEFT JOIN event_names AS nm ON nm.run_id = p.run_id"                       \
    " AND nm.id =" EVPACK_DIGITS(EV_NAME_ID, EV_COL, j.value)

/* simt_issue and simt_mem: the SIMT issue port and the warp ld/st, one row
 * per entry of the packs, a column per field of sipack.h's lists as its
 * SHOW says (an issue's mnemonic from the run's dictionary; a ld/st's
 * latency as issue_ps, the time, and done_ps). One SELECT, as sm_accesses. */
#define SI_TIME_PS " p.base_ps + p.scale_ps *" SIPACK_SQL_T
#define SI_COL(A, f, show) SI_COL_##show(f)
#define SI_COL_PLAIN(f) "," SIPACK_SQL_FIELD(f) " AS " #f
#define SI_COL_OPNAME(f) ", o.name AS " #f
#define SI_COL_LDST(f) ", CASE" SIPACK_SQL_FIELD(f) " WHEN 0 THEN 'ld' ELSE 'st' END AS " #f
#define SI_COL_LATENCY(f) "," SI_TIME_PS " AS issue_ps,"                         \
    " p.base_ps + p.scale_ps * (j.value / p.t_unit +" SIPACK_SQL_FIELD(f) ") AS done_ps"
#define SIMT_ISSUE                                                               \
    "SELECT p.run_id AS run_id," SI_TIME_PS " AS time_ps"                        \
    SIPACK_ISSUE_FIELDS(SI_COL, )                                                \
    " FROM simt_issue_packs AS p JOIN json_each(p.data) AS j"                    \
    " LEFT JOIN simt_op_names AS o ON o.run_id = p.run_id"                       \
    " AND o.id =" SIPACK_SQL_FIELD(op)

/* simt_issue of run ?1 in the window [?2, ?3): the view's SELECT over the
 * packs that can hold such issues only. Packs are in issue order, each from
 * its base_ps up to the next one's, so the first that can is the last to
 * start before ?2 (an earlier one ends by its successor's base_ps); the
 * index on (run_id, base_ps) finds them without decoding the others. */
#define SIMT_ISSUE_WINDOW                                                        \
    "SELECT * FROM (" SIMT_ISSUE " WHERE p.run_id = ?1 AND p.base_ps < ?3"       \
    " AND p.base_ps >= coalesce((SELECT max(w.base_ps) FROM simt_issue_packs"    \
    " AS w WHERE w.run_id = ?1 AND w.base_ps < ?2), -1))"                         \
    " WHERE time_ps >= ?2 AND time_ps < ?3"

const char db_simt_issue_window[] = SIMT_ISSUE_WINDOW;

#define SIMT_MEM                                                                 \
    "SELECT p.run_id AS run_id" SIPACK_MEM_FIELDS(SI_COL, )                      \
    " FROM simt_mem_packs AS p JOIN json_each(p.data) AS j"

/* ps → cycles of the run's clock: an integer when exact (always, with the
 * model's whole-cycle latencies), else a real; NULL stays NULL. */
#define CYC(x) "CASE WHEN (" x ") % period_ps = 0 THEN (" x ") / period_ps" \
               " ELSE 1.0 * (" x ") / period_ps END"

/* Nearest-rank percentile P of the values v ranked 1..n in ascending order:
 * the value of rank ceil(P * n / 100). */
#define RANK(p, rank, n) "(" rank ") >= (" #p " * (" n ") + 99) / 100"

/* The two percentile views' shared columns: min, p50, p95, p99 and max of
 * the values v (rank: the rank of the row's v, n: how many; windows w over
 * the run) as NAME_ps, and the same in cycles of columns q NAME_ps. */
#define PCT(p, v, rank, n) "  min(CASE WHEN " RANK(p, rank, n) " THEN " v " END) OVER w AS p" #p "_ps,"
#define PCT_WINDOWS(v, rank, n)                                                  \
    "  min(" v ") OVER w AS min_ps," PCT(50, v, rank, n) PCT(95, v, rank, n)     \
    PCT(99, v, rank, n) "  max(" v ") OVER w AS max_ps,"
#define PCT_CYCLES(q)                                                            \
    " " CYC(q "min_ps") " AS min_cycles, " CYC(q "p50_ps") " AS p50_cycles,"     \
    " " CYC(q "p95_ps") " AS p95_cycles,"                                        \
    " " CYC(q "p99_ps") " AS p99_cycles, " CYC(q "max_ps") " AS max_cycles"

/* One IF per row: the four parts of its latency (decode, waiting to be
 * issued, code transfer, execution) and their sum. */
#define TASK_LATENCY                                                             \
    "SELECT *, " CYC("decoding_ps") " AS decoding_cycles,"                       \
    " " CYC("waiting_ps") " AS waiting_cycles,"                                  \
    " " CYC("transfer_ps") " AS transfer_cycles,"                                \
    " " CYC("execution_ps") " AS execution_cycles,"                              \
    " " CYC("total_ps") " AS total_cycles"                                       \
    " FROM (SELECT f.run_id AS run_id, f.frame AS frame, f.grp AS grp,"          \
    "  f.mask AS mask, f.mask_hex AS mask_hex, f.fence AS fence,"                \
    "  f.complete AS complete, f.decode_start_ps AS decode_start_ps,"            \
    "  f.decode_ps AS decode_ps, f.issue_ps AS issue_ps, f.start_ps AS start_ps," \
    "  f.complete_ps AS complete_ps,"                                            \
    "  f.decode_ps - f.decode_start_ps AS decoding_ps,"                          \
    "  f.issue_ps - f.decode_ps AS waiting_ps,"                                  \
    "  f.start_ps - f.issue_ps AS transfer_ps,"                                  \
    "  f.complete_ps - f.start_ps AS execution_ps,"                              \
    "  f.complete_ps - f.decode_start_ps AS total_ps, r.period_ps AS period_ps"  \
    "  FROM frames AS f JOIN runs AS r USING (run_id) WHERE f.kind = 'IF')"

/* The counters of the model pivoted, a column per counter (named as it
 * is), from tessera_names.h's lists (model/gpu_counters.h): one counter,
 * after a comma; a numbered unit's (core0…core15, bank0…), one row per
 * unit, its number in `unit`; the pivot's counter `id` of unit core (K),
 * bank (B) or simt (S). */
#define CNT(name) "max(CASE c.name WHEN '" name "' THEN c.value END) AS " name
#define CNT_COL(name, literal) ", " CNT(literal)
#define PIVOT(UNIT)                                                              \
    "SELECT c.run_id AS run_id,"                                                 \
    " CAST(substr(c.component, " GEN_UNIT_##UNIT##_NUMBER_AT ") AS INTEGER) AS unit" \
    GEN_CTRS_##UNIT(CNT_COL, CNT_COL) " FROM counters AS c"                      \
    " WHERE c.component GLOB '" GEN_UNIT_##UNIT##_GLOB "' GROUP BY 1, 2"
#define CORE_PIVOT PIVOT(CORE)
#define BANK_PIVOT PIVOT(BANK)
#define K(id) "k." GEN_CTR_CORE_##id
#define B(id) "b." GEN_CTR_BANK_##id
#define S(id) GEN_CTR_SIMT_##id

/* Where a run stopped: stop_ps (its last READY when it finished), or for a
 * run of a version before stop_ps that did not finish, its last READY. */
#define STOP(r) "coalesce(" r ".stop_ps, " r ".end_ps)"

/* A share of the run's length (up to its stop); NULL when it has none. */
#define SHARE(x) "CASE WHEN " STOP("r") " > 0 THEN 1.0 * (" x ") / " STOP("r") " END"

#define CORE_UTILIZATION                                                         \
    "SELECT k.run_id AS run_id, k.unit AS core, " K(TASKS) " AS tasks,"          \
    " " K(BUSY_PS) " AS busy_ps, " CYC(K(BUSY_PS)) " AS busy_cycles,"            \
    " " SHARE(K(BUSY_PS)) " AS share, " K(INSTRUCTIONS) " AS instructions,"      \
    " " K(SM_OPS) " AS sm_ops, " K(SM_WAIT_PS) " AS sm_wait_ps,"                 \
    " " CYC(K(SM_WAIT_PS)) " AS sm_wait_cycles,"                                 \
    " " K(SM_CONFLICT_PS) " AS sm_conflict_ps,"                                  \
    " " CYC(K(SM_CONFLICT_PS)) " AS sm_conflict_cycles"                          \
    " FROM (" CORE_PIVOT ") AS k JOIN runs AS r ON r.run_id = k.run_id"

#define BANK_UTILIZATION                                                         \
    "SELECT b.run_id AS run_id, b.unit AS bank, " B(ACCESSES) " AS accesses,"    \
    " " B(BUSY_PS) " AS busy_ps, " CYC(B(BUSY_PS)) " AS busy_cycles,"            \
    " " SHARE(B(BUSY_PS)) " AS share, " B(LOCK_ACQUIRES) " AS lock_acquires"     \
    " FROM (" BANK_PIVOT ") AS b JOIN runs AS r ON r.run_id = b.run_id"

#define BANK_CONFLICTS                                                           \
    "SELECT b.run_id AS run_id, b.unit AS bank, " B(ACCESSES) " AS accesses,"    \
    " " B(CONFLICTS) " AS conflicts,"                                            \
    " CASE WHEN " B(ACCESSES) " > 0 THEN 1.0 * " B(CONFLICTS) " / " B(ACCESSES) " END" \
    "  AS conflict_share,"                                                       \
    " " B(WAIT_PS) " AS wait_ps, " CYC(B(WAIT_PS)) " AS wait_cycles,"            \
    " CASE WHEN " B(ACCESSES) " > 0 THEN 1.0 * " B(WAIT_PS) " / " B(ACCESSES) " END" \
    "  AS mean_wait_ps,"                                                         \
    " CASE WHEN " B(ACCESSES) " > 0 THEN 1.0 * " B(WAIT_PS) " / " B(ACCESSES) " / period_ps END" \
    "  AS mean_wait_cycles,"                                                     \
    " CASE WHEN " B(CONFLICTS) " > 0 THEN 1.0 * " B(WAIT_PS) " / " B(CONFLICTS) " END" \
    "  AS mean_conflict_wait_ps,"                                                \
    " " B(MAX_WAIT_PS) " AS max_wait_ps, " CYC(B(MAX_WAIT_PS)) " AS max_wait_cycles" \
    " FROM (" BANK_PIVOT ") AS b JOIN runs AS r ON r.run_id = b.run_id"

/* Waiting to be issued (IF) or to take effect (CF), per reason; decoding is
 * not waiting (it is task_latency's decoding_ps). */
#define FENCE_STALLS                                                             \
    "SELECT run_id, reason, stalls, frames, total_ps,"                           \
    " " CYC("total_ps") " AS total_cycles, max_ps, " CYC("max_ps") " AS max_cycles," \
    " 1.0 * total_ps / sum(total_ps) OVER (PARTITION BY run_id) AS share"        \
    " FROM (SELECT s.run_id AS run_id, s.reason AS reason, count(*) AS stalls,"  \
    "  count(DISTINCT s.frame) AS frames, sum(s.to_ps - s.from_ps) AS total_ps,"  \
    "  max(s.to_ps - s.from_ps) AS max_ps, r.period_ps AS period_ps"             \
    "  FROM stalls AS s JOIN runs AS r USING (run_id)"                           \
    "  WHERE s.reason <> " GEN_STALL_DECODE " GROUP BY s.run_id, s.reason)"

/* Per reason a frame waits for (the TS's stall reasons but decode, from
 * model/gpu_trace.h's list through the generated tessera_names.h): its
 * waiting within a frame's stall rows, that in ps and in cycles. */
#define WAIT(name, literal)                                                      \
    " coalesce(sum(CASE s.reason WHEN " literal " THEN s.to_ps - s.from_ps END), 0)" \
    " AS " #name "_ps,"
#define WAIT_PS(name, literal) " " #name "_ps,"
#define WAIT_CYCLES(name, literal) ", " CYC(#name "_ps") " AS " #name "_cycles"

/* One frame per row: its waiting (issue - decode end) and the same time
 * attributed to the reasons it waited for. */
#define FRAME_STALLS                                                             \
    "SELECT run_id, frame, kind, grp, fence, decode_ps, issue_ps, waiting_ps,"   \
    GEN_STALL_WAITS(WAIT_PS) " attributed_ps,"                                   \
    " waiting_ps - attributed_ps AS unattributed_ps,"                            \
    " " CYC("waiting_ps") " AS waiting_cycles" GEN_STALL_WAITS(WAIT_CYCLES)      \
    " FROM (SELECT f.run_id AS run_id, f.frame AS frame, f.kind AS kind,"        \
    "  f.grp AS grp, f.fence AS fence, f.decode_ps AS decode_ps,"                \
    "  f.issue_ps AS issue_ps, f.issue_ps - f.decode_ps AS waiting_ps,"          \
    GEN_STALL_WAITS(WAIT)                                                        \
    "  coalesce(sum(s.to_ps - s.from_ps), 0) AS attributed_ps,"                  \
    "  r.period_ps AS period_ps"                                                 \
    "  FROM frames AS f JOIN runs AS r USING (run_id)"                           \
    "  LEFT JOIN stalls AS s ON s.run_id = f.run_id AND s.frame = f.frame"       \
    "   AND s.reason <> " GEN_STALL_DECODE                                       \
    "  GROUP BY f.run_id, f.frame)"

/* The step function "cores busy" (from a core task's start to its finish,
 * i.e. until it sends READY), one row per change point. */
#define PARALLELISM                                                              \
    "SELECT p.run_id AS run_id, p.time_ps AS time_ps,"                           \
    " p.active_cores AS active_cores,"                                           \
    " coalesce(p.next_ps, CASE WHEN " STOP("r") " >= p.time_ps THEN " STOP("r") " END)" \
    "  AS until_ps,"                                                             \
    " coalesce(p.next_ps, CASE WHEN " STOP("r") " >= p.time_ps THEN " STOP("r") " END)" \
    "  - p.time_ps AS duration_ps"                                               \
    " FROM (SELECT run_id, t AS time_ps, sum(d) OVER w AS active_cores,"         \
    "  lead(t) OVER w AS next_ps"                                                \
    "  FROM (SELECT c.run_id AS run_id,"                                         \
    "    CASE e.d WHEN 1 THEN c.start_ps ELSE c.finish_ps END AS t, sum(e.d) AS d" \
    "   FROM core_tasks AS c, (SELECT 1 AS d UNION ALL SELECT -1) AS e"          \
    "   WHERE t IS NOT NULL GROUP BY 1, 2 HAVING sum(e.d) <> 0)"                 \
    "  WINDOW w AS (PARTITION BY run_id ORDER BY t)) AS p"                       \
    " JOIN runs AS r ON r.run_id = p.run_id"

/* A parameter (its key from tessera_names.h: PARAM(SECTION_NAME) is
 * GEN_KEY_SECTION_NAME's), a counter (COUNTER(UNIT, ID) is
 * GEN_CTR_UNIT_ID of unit GEN_UNIT_UNIT), or a sum of counters of one run
 * (GLOB patterns). */
#define PARAM(key) "(SELECT value FROM params AS p" \
                   " WHERE p.run_id = r.run_id AND p.key = " DB_SQL_TEXT(GEN_KEY_##key) ")"
#define COUNTER(unit, id) "(SELECT value FROM counters AS c WHERE c.run_id = r.run_id" \
                          " AND c.component = '" GEN_UNIT_##unit "'"                   \
                          " AND c.name = '" GEN_CTR_##unit##_##id "')"
#define COUNTERS(glob, name) "(SELECT sum(value) FROM counters AS c" \
                             " WHERE c.run_id = r.run_id AND c.component GLOB '" glob "'" \
                             " AND c.name GLOB '" name "')"

/* A simt.* key of a SIMT run; NULL for a MIMD run (recorded there, without
 * effect), so that MIMD runs group together whatever their simt.* keys. */
#define SIMT_RUN "CASE WHEN " PARAM(CORE_MODEL) " = " DB_SQL_TEXT(GEN_MODEL_SIMT)
#define SIMT_PARAM(key) SIMT_RUN " THEN " PARAM(key) " END"

/* A run recorded before a key existed had what it now defaults to: D13's 16
 * banks (as the packs read it, PACK_BANK_N), the MIMD machine, the stack. */
#define RUN_SUMMARY                                                              \
    "SELECT *, " CYC("end_ps") " AS end_cycles, " CYC("stop_ps") " AS stop_cycles," \
    " " CYC("conflict_ps") " AS conflict_cycles,"                                \
    " " CYC("waiting_ps") " AS waiting_cycles,"                                  \
    " CASE WHEN stop_ps > 0 THEN 1.0 * busy_ps / stop_ps END AS mean_parallelism" \
    " FROM (SELECT r.run_id AS run_id, r.program AS program,"                    \
    "  r.status AS status, r.error AS error, r.level AS level,"                  \
    "  r.started_at AS started_at, r.wall_s AS wall_s, r.events AS events,"      \
    "  " PARAM(TS_POLICY) " AS policy, " PARAM(TS_WINDOW) " AS ts_window,"       \
    "  " PARAM(SM_ARBITER) " AS arbiter, " PARAM(SM_BANK_MAP) " AS bank_map,"     \
    "  coalesce(" PARAM(SM_BANKS) ", " DB_SQL_TEXT(PACK_SQL(PACK_BANK_N)) ") AS banks," \
    "  " PARAM(SM_ATOMICS) " AS atomics, " PARAM(CORE_TIMING) " AS timing,"      \
    "  " PARAM(TS_DECODE) " AS ts_decode, " PARAM(TS_XFER) " AS ts_xfer,"        \
    "  " PARAM(TS_READY) " AS ts_ready, " PARAM(SM_REQ) " AS sm_req,"            \
    "  " PARAM(SM_BANK) " AS sm_bank, " PARAM(SM_RESP) " AS sm_resp,"            \
    "  " PARAM(SIM_SEED) " AS seed,"                                             \
    "  coalesce(" PARAM(CORE_MODEL) ", " DB_SQL_TEXT(GEN_MODEL_MIMD) ") AS core_model," \
    "  " SIMT_PARAM(SIMT_SCHEDULER) " AS simt_scheduler,"                        \
    "  " SIMT_PARAM(SIMT_ISSUE_WIDTH) " AS simt_issue_width,"                    \
    "  " SIMT_PARAM(SIMT_SCOREBOARD) " AS simt_scoreboard,"                      \
    "  " SIMT_PARAM(SIMT_BROADCAST) " AS simt_broadcast,"                        \
    "  " SIMT_RUN " THEN coalesce(" PARAM(SIMT_RECONVERGENCE) ", "               \
    DB_SQL_TEXT(GEN_RECONV_STACK) ") END AS simt_reconvergence,"                 \
    "  " COUNTER(SIMT, WARP_INSTRUCTIONS) " AS warp_instructions,"               \
    "  " COUNTER(SIMT, LANE_INSTRUCTIONS) " * 1.0 / " COUNTER(SIMT, LANE_SLOTS)  \
    "   AS simt_efficiency,"                                                     \
    "  " COUNTER(SIMT, ISSUE_UTIL_PPM) " / 1e6 AS issue_utilization,"            \
    "  r.period_ps AS period_ps, r.end_ps AS end_ps, " STOP("r") " AS stop_ps,"  \
    "  " COUNTER(GPU, FRAMES) " AS frames,"                                      \
    "  " COUNTER(GPU, TASKS) " AS tasks,"                                        \
    "  " COUNTER(GPU, CORE_TASKS) " AS core_tasks,"                              \
    "  " COUNTER(GPU, INSTRUCTIONS) " AS instructions,"                          \
    "  " COUNTER(GPU, SM_ACCESSES) " AS sm_accesses,"                            \
    "  " COUNTER(GPU, CONFLICTS) " AS conflicts,"                                \
    "  " COUNTER(GPU, CONFLICT_PS) " AS conflict_ps,"                            \
    "  " COUNTERS(GEN_UNIT_TS, GEN_CTR_TS_STALL_GLOB) " - " COUNTER(TS, STALL_DECODE) \
    "   AS waiting_ps,"                                                          \
    "  " COUNTERS(GEN_UNIT_CORE_GLOB, GEN_CTR_CORE_BUSY_PS) " AS busy_ps"        \
    "  FROM runs AS r)"

/* Percentiles of the total latency of the complete tasks of each run.
 * Window functions only, no GROUP BY over a subquery: SQLite pushes
 * `run_id = N` down through windows partitioned by run_id, not through an
 * aggregate over a subquery. One row per run: the partition's first. */
#define TASK_LATENCY_PERCENTILES                                                 \
    "SELECT run_id, tasks, min_ps, p50_ps, p95_ps, p99_ps, max_ps, mean_ps,"     \
    PCT_CYCLES("") " FROM (SELECT run_id, n AS tasks, rn, period_ps,"            \
    PCT_WINDOWS("total_ps", "rn", "n") " avg(total_ps) OVER w AS mean_ps"        \
    "  FROM (SELECT run_id, total_ps, period_ps,"                                \
    "   row_number() OVER (PARTITION BY run_id ORDER BY total_ps) AS rn,"        \
    "   count(*) OVER (PARTITION BY run_id) AS n"                                \
    "   FROM task_latency WHERE complete AND total_ps IS NOT NULL)"              \
    "  WINDOW w AS (PARTITION BY run_id))"                                       \
    " WHERE rn = 1"

/* Access latency = done_ps - request_ps = scale_ps * (arrive + wait + done),
 * read from the packs directly (see sm_access_packs): a pack whose three
 * radices are 1 holds accesses of one latency and needs no unpacking; the
 * others are counted per distinct latency inside the pack (a small
 * in-memory sort), and the per-pack counts are then added up. Sorting every
 * access of a 12 M-access run instead takes ~20 times longer. */
#define PACK_LAT_DIGIT(A, digit, radix, offset, place) PACK_LAT_##digit(radix, place)
#define PACK_LAT_flags(radix, place)
#define PACK_LAT_value(radix, place)
#define PACK_LAT_addr(radix, place)
#define PACK_LAT_bank(radix, place)
#define PACK_LAT_wait(radix, place) " + " PACK_SQL(q / (place) % (radix))
#define PACK_LAT_arrive PACK_LAT_wait
#define PACK_LAT_done PACK_LAT_wait
#define SM_LATENCY_HISTOGRAM                                                     \
    "SELECT p.run_id AS run_id, e.value ->> 0 AS latency_ps,"                    \
    " sum(e.value ->> 1) AS accesses"                                            \
    " FROM " PACK_FROM ", json_each("                                            \
    "  CASE WHEN p.wait_n = 1 AND p.arrive_n = 1 AND p.done_n = 1"               \
    "  THEN json_array(json_array("                                              \
    "   p.scale_ps * (p.arrive_dt + p.wait_dt + p.done_dt), p.n))"               \
    "  ELSE (SELECT json_group_array(json_array(lat, n)) FROM"                    \
    "   (SELECT scale_ps * (arrive_dt + wait_dt + done_dt"                       \
    PACK_DIGITS(PACK_LAT_DIGIT, PACK_SQL_COL, q) ") AS lat, count(*) AS n"        \
    "    FROM (SELECT j.value AS q, " PACK_COLS " FROM json_each(p.data) AS j)"   \
    "    GROUP BY 1)) END)"                                                      \
    "  AS e"                                                                     \
    " WHERE e.value ->> 0 IS NOT NULL GROUP BY p.run_id, e.value ->> 0"

#define SM_LATENCY_PERCENTILES                                                   \
    "SELECT q.run_id AS run_id, q.accesses AS accesses, q.min_ps AS min_ps,"     \
    " q.p50_ps AS p50_ps, q.p95_ps AS p95_ps, q.p99_ps AS p99_ps,"               \
    " q.max_ps AS max_ps, q.mean_ps AS mean_ps,"                                 \
    PCT_CYCLES("q.") ", q.mean_ps / period_ps AS mean_cycles"                   \
    " FROM (SELECT run_id, total AS accesses, rn,"                               \
    PCT_WINDOWS("latency_ps", "cum", "total")                                    \
    "  1.0 * sum(latency_ps * accesses) OVER w / total AS mean_ps"               \
    "  FROM (SELECT run_id, latency_ps, accesses,"                               \
    "   row_number() OVER (PARTITION BY run_id ORDER BY latency_ps) AS rn,"      \
    "   sum(accesses) OVER (PARTITION BY run_id ORDER BY latency_ps) AS cum,"    \
    "   sum(accesses) OVER (PARTITION BY run_id) AS total"                       \
    "   FROM sm_latency_histogram)"                                              \
    "  WINDOW w AS (PARTITION BY run_id)) AS q"                                  \
    " JOIN runs AS r ON r.run_id = q.run_id WHERE q.rn = 1"

/* SIMT (core.model = simt; SIMT-SPEC "Counting"). One warp per row:
 * SIMT efficiency = lane instructions / (warp instructions x the warp's
 * lanes), lane utilisation = lane instructions / (warp instructions x 16),
 * its stall cycles by reason, replays per warp ld/st. */
#define RATIO(a, b) "CASE WHEN (" b ") > 0 THEN 1.0 * (" a ") / (" b ") END"
/* Over tessera_names.h's lists of stall reasons X(name, 'name'): nothing; a
 * reason's column stall_NAME_cycles, followed or preceded by a comma. */
#define NONE(name, literal)
#define STALL_COL(name, literal) " stall_" #name "_cycles,"
#define STALL_COL_AFTER(name, literal) ", stall_" #name "_cycles"
#define SIMT_WARP_EFFICIENCY                                                     \
    "SELECT run_id, frame, mask, printf('%04x', mask) AS mask_hex, lanes,"       \
    " warp_instructions, lane_instructions,"                                     \
    " " RATIO("lane_instructions", "warp_instructions * lanes") " AS simt_efficiency," \
    " " RATIO("lane_instructions", "warp_instructions * 16") " AS lane_utilization," \
    " divergent_branches, max_stack_depth, start_ps, end_ps, resident_cycles,"   \
    " issued_cycles," GEN_SIMT_STALLS_BY(STALL_COL, NONE)                        \
    " mem_instructions, requests, replays,"                                      \
    " " RATIO("replays", "mem_instructions") " AS replays_per_mem, complete,"    \
    " max_groups, barriers" GEN_SIMT_STALLS_BY(NONE, STALL_COL_AFTER)            \
    " FROM simt_warps"

/* The end-of-run counters of unit simt, one row per SIMT run. */
#define SIMT_PIVOT                                                               \
    "SELECT c.run_id AS run_id" GEN_CTRS_SIMT(CNT_COL, CNT_COL)                  \
    " FROM counters AS c WHERE c.component = '" GEN_UNIT_SIMT "' GROUP BY c.run_id"

/* Per SIMT run: the same figures over every warp, and the issue port's
 * utilisation (warp instructions / (run cycles x issue width)). A reason of
 * every SIMT run whose counter a run lacks (recorded before the reason
 * existed: fetch and collector before version 14) had none of it: 0; the
 * thread groups' barrier stays NULL for the stack's runs. Over
 * GEN_CTRS_SIMT_STALL (X(reason, "its counter")): a reason's column. */
#define STALL_OR0(name, counter) " coalesce(" counter ", 0) AS stall_" #name "_cycles,"
#define STALL_AS(name, counter) " " counter " AS stall_" #name "_cycles,"
#define SIMT_EFFICIENCY                                                          \
    "SELECT run_id, " S(WARPS) " AS warps, " S(WARP_INSTRUCTIONS) " AS warp_instructions," \
    " " S(LANE_INSTRUCTIONS) " AS lane_instructions, " S(LANE_SLOTS) " AS lane_slots," \
    " " RATIO(S(LANE_INSTRUCTIONS), S(LANE_SLOTS)) " AS simt_efficiency,"        \
    " " RATIO(S(LANE_INSTRUCTIONS), S(WARP_INSTRUCTIONS) " * 16") " AS lane_utilization," \
    " " S(ISSUE_WIDTH) " AS issue_width, " S(RUN_CYCLES) " AS run_cycles,"       \
    " " S(ISSUE_CYCLES) " AS issue_cycles,"                                      \
    " " RATIO(S(WARP_INSTRUCTIONS), S(RUN_CYCLES) " * " S(ISSUE_WIDTH))          \
    " AS issue_utilization,"                                                     \
    " " RATIO(S(ISSUE_CYCLES), S(RUN_CYCLES)) " AS issue_busy_share,"            \
    " " S(DIVERGENT_BRANCHES) " AS divergent_branches,"                          \
    " " S(RESIDENT_CYCLES) " AS resident_cycles, " S(ISSUED_CYCLES) " AS issued_cycles," \
    GEN_CTRS_SIMT_STALL(STALL_OR0, NONE)                                         \
    " " S(MEM_INSTRUCTIONS) " AS mem_instructions, " S(REQUESTS) " AS requests," \
    " " S(REPLAYS) " AS replays,"                                                \
    " " RATIO(S(REPLAYS), S(MEM_INSTRUCTIONS)) " AS replays_per_mem,"            \
    GEN_CTRS_SIMT_STALL(NONE, STALL_AS) " " S(MAX_GROUPS) " AS max_groups,"      \
    " " S(BARRIERS) " AS barriers"                                               \
    " FROM (" SIMT_PIVOT ")"

/* Per SIMT run and reason: the warps' resident cycles spent stalled, and
 * their share of all resident cycles (issued cycles are the rest). The
 * reasons are model/gpu_trace.h's list (generated into tessera_names.h),
 * each with its column stall_NAME_cycles: the cycles of reason r of
 * simt_efficiency's row e, and the reasons as rows (a first SELECT of none
 * names the column). */
#define STALL_WHEN(name, literal) " WHEN " literal " THEN e.stall_" #name "_cycles"
#define STALL_OF(r) "CASE " r GEN_SIMT_STALLS(STALL_WHEN) " END"
#define STALL_ROW(name, literal) " UNION ALL SELECT " literal
#define SIMT_STALLS                                                              \
    "SELECT e.run_id AS run_id, s.reason AS reason,"                             \
    " " STALL_OF("s.reason") " AS cycles,"                                       \
    " " RATIO(STALL_OF("s.reason"), "e.resident_cycles") " AS share"              \
    " FROM simt_efficiency AS e,"                                                \
    " (SELECT NULL AS reason WHERE 0" GEN_SIMT_STALLS(STALL_ROW) ") AS s"         \
    " WHERE s.reason <> " GEN_SIMT_STALL_BARRIER " OR e.stall_barrier_cycles IS NOT NULL"

/* The slot profile (slot_counts): per run, frame, core (NULL: the SIMT unit)
 * and slot, the instruction, its counts and the cycles charged to it —
 * SIMT: issued + stall cycles; MIMD: execute + SM wait — in cycles; its
 * share of the run's charged cycles and its rank among the run's slots by
 * cycles (1: the hottest). The stall reasons in the profile's order
 * (tessera_names.h's GEN_SLOT_STALLS); the thread groups' barrier, NULL in
 * the stack's rows, counts 0 there. */
#define SLOT_PLUS(name, literal) " + s.stall_" #name "_cycles"
#define SLOT_PLUS_OR0(name, literal) " + coalesce(s.stall_" #name "_cycles, 0)"
#define SLOT_CYCLES                                                              \
    "CASE WHEN s.core IS NULL THEN s.issued_cycles"                              \
    GEN_SLOT_STALLS(SLOT_PLUS, SLOT_PLUS_OR0)                                    \
    " ELSE " CYC("s.execute_ps + s.sm_wait_ps") " END"
#define SLOT_COL(name, literal) "  s.stall_" #name "_cycles AS stall_" #name "_cycles,"
#define SLOT_PROFILE                                                             \
    "SELECT run_id, frame, core, slot, text, op, tasks, instructions,"           \
    " lane_instructions, cycles, " RATIO("cycles", "sum(cycles) OVER w") " AS share," \
    " rank() OVER (w ORDER BY cycles DESC) AS hot_rank, issued_cycles,"          \
    GEN_SLOT_STALLS(STALL_COL, STALL_COL) " execute_cycles, sm_wait_cycles,"     \
    " execute_ps, sm_wait_ps"                                                    \
    " FROM (SELECT s.run_id AS run_id, s.frame AS frame, s.core AS core,"        \
    "  s.slot AS slot, s.text AS text,"                                          \
    "  substr(s.text, 1, instr(s.text || ' ', ' ') - 1) AS op, s.tasks AS tasks," \
    "  s.instructions AS instructions, s.lane_instructions AS lane_instructions," \
    "  " SLOT_CYCLES " AS cycles, s.issued_cycles AS issued_cycles,"             \
    GEN_SLOT_STALLS(SLOT_COL, SLOT_COL)                                          \
    "  " CYC("s.execute_ps") " AS execute_cycles, " CYC("s.sm_wait_ps") " AS sm_wait_cycles," \
    "  s.execute_ps AS execute_ps, s.sm_wait_ps AS sm_wait_ps"                   \
    "  FROM slot_counts AS s JOIN runs AS r ON r.run_id = s.run_id)"             \
    " WINDOW w AS (PARTITION BY run_id)"

/* Per SIMT run, kind (ld/st) and replay count: how many warp ld/st replayed
 * that often (level mem), their lanes and SM requests. */
#define SIMT_REPLAYS                                                             \
    "SELECT run_id, op, replays, count(*) AS instructions, sum(active) AS lanes," \
    " sum(requests) AS requests, avg(banks) AS mean_banks,"                      \
    " avg(done_ps - issue_ps) AS mean_latency_ps,"                               \
    " avg(done_ps - issue_ps) / (SELECT period_ps FROM runs AS r"                \
    "  WHERE r.run_id = m.run_id) AS mean_latency_cycles"                        \
    " FROM simt_mem AS m GROUP BY run_id, op, replays"

/* The analysis views, in dependency order: V(name, select). */
/* Utilisation over time from the intervals table: one row per run, kind and
 * interval; shares are of 16 units x the interval's length. A SIMT run's
 * rows (units 'simt', 'simt.<reason>') add the issue port's utilisation
 * (warp instructions / (cycles x simt.issue_width)) and the warps' stall
 * cycles by reason, with their share of the warps' resident cycles (issued
 * + stalled); NULL for a MIMD run. */
#define SHARE16(x) "1.0 * (" x ") / (16 * (to_ps - from_ps))"
/* per SIMT stall reason (tessera_names.h's list): its ps from the unit
 * 'simt.<reason>' (NULL: none, e.g. barrier under the stack), then in
 * cycles and as a share, and its part of the resident time */
#define IVL_STALL(name, literal)                                                 \
    "  sum(CASE WHEN i.unit = '" GEN_UNIT_SIMT_REASON #name "' THEN i.busy_ps END) AS stall_" #name "_ps,"
#define IVL_STALL_OUT(name, literal)                                             \
    " " CYC("stall_" #name "_ps") " AS stall_" #name "_cycles,"                   \
    " " RATIO("stall_" #name "_ps", "resident_ps") " AS stall_" #name "_share,"
#define IVL_RESIDENT(name, literal) " + coalesce(stall_" #name "_ps, 0)"
#define UTILIZATION_OVER_TIME                                                    \
    "SELECT run_id, kind, idx, from_ps, to_ps, " CYC("from_ps") " AS from_cycles," \
    " " CYC("to_ps") " AS to_cycles, instructions, conflicts,"                    \
    " " SHARE16("core_busy_ps") " AS core_busy_share,"                           \
    " " SHARE16("sm_wait_ps") " AS sm_wait_share,"                               \
    " 1.0 * bank_busy_ps / (banks * (to_ps - from_ps)) AS bank_busy_share,"      \
    " warp_instructions, " RATIO("warp_instructions * period_ps", "(to_ps - from_ps) * issue_width") \
    " AS issue_utilization," GEN_SIMT_STALLS(IVL_STALL_OUT)                       \
    " " CYC("resident_ps") " AS resident_cycles"                                 \
    " FROM (SELECT *, warp_instructions * period_ps"                             \
    GEN_SIMT_STALLS(IVL_RESIDENT) " AS resident_ps"                               \
    "  FROM (SELECT i.run_id AS run_id, i.kind AS kind, i.idx AS idx,"           \
    "  min(i.from_ps) AS from_ps, max(i.to_ps) AS to_ps, r.period_ps AS period_ps," \
    "  sum(CASE WHEN i.unit GLOB '" GEN_UNIT_CORE "*' THEN i.busy_ps END) AS core_busy_ps," \
    "  sum(CASE WHEN i.unit GLOB '" GEN_UNIT_CORE "*' THEN i.instructions END) AS instructions," \
    "  sum(i.sm_wait_ps) AS sm_wait_ps,"                                         \
    "  sum(CASE WHEN i.unit GLOB '" GEN_UNIT_BANK "*' THEN i.busy_ps END) AS bank_busy_ps," \
    "  sum(i.conflicts) AS conflicts,"                                           \
    "  count(CASE WHEN i.unit GLOB '" GEN_UNIT_BANK "*' THEN 1 END) AS banks,"   \
    "  sum(CASE WHEN i.unit = '" GEN_UNIT_SIMT "' THEN i.instructions END) AS warp_instructions," \
    GEN_SIMT_STALLS(IVL_STALL)                                                   \
    "  (SELECT coalesce(CAST(p.value AS INTEGER), 1) FROM params AS p"           \
    "   WHERE p.run_id = i.run_id AND p.key = " DB_SQL_TEXT(GEN_KEY_SIMT_ISSUE_WIDTH) ") AS issue_width" \
    "  FROM intervals AS i JOIN runs AS r USING (run_id)"                        \
    "  GROUP BY i.run_id, i.kind, i.idx))"

/* One row per point of a study — the runs that share a run key (runkey.h:
 * program, data, effective configuration, version) — with an 'ok' run: the
 * latest of them, and how many runs and 'ok' runs the point has. */
#define OK DB_SQL_TEXT(DB_STATUS_OK_NAME)
#define LATEST_OK_RUNS                                                           \
    "SELECT max(CASE WHEN status = " OK " THEN run_id END) AS run_id,"           \
    " count(CASE WHEN status = " OK " THEN 1 END) AS ok_runs, count(*) AS runs" \
    " FROM runs GROUP BY " RUNKEY_COLUMNS " HAVING ok_runs > 0"

#define REC_VIEWS(V)                                                             \
    V("task_latency", TASK_LATENCY)                                              \
    V("utilization_over_time", UTILIZATION_OVER_TIME)                            \
    V("core_utilization", CORE_UTILIZATION)                                      \
    V("bank_utilization", BANK_UTILIZATION)                                      \
    V("bank_conflicts", BANK_CONFLICTS)                                          \
    V("fence_stalls", FENCE_STALLS)                                              \
    V("frame_stalls", FRAME_STALLS)                                              \
    V("parallelism", PARALLELISM)                                                \
    V("run_summary", RUN_SUMMARY)                                                \
    V("latest_ok_runs", LATEST_OK_RUNS)                                          \
    V("task_latency_percentiles", TASK_LATENCY_PERCENTILES)                      \
    V("sm_latency_histogram", SM_LATENCY_HISTOGRAM)                              \
    V("sm_latency_percentiles", SM_LATENCY_PERCENTILES)                          \
    V("simt_warp_efficiency", SIMT_WARP_EFFICIENCY)                              \
    V("simt_efficiency", SIMT_EFFICIENCY)                                        \
    V("simt_stalls", SIMT_STALLS)                                                \
    V("simt_replays", SIMT_REPLAYS)                                              \
    V("slot_profile", SLOT_PROFILE)

/* Every view of the file: the one list (docs/SCHEMA.md, "Schema evolution"). */
#define DB_VIEWS(V)                                                              \
    V("sm_accesses", SM_ACCESSES) V("events", EVENTS) V("simt_issue", SIMT_ISSUE)        \
    V("simt_mem", SIMT_MEM) REC_VIEWS(V)

#define VIEW_ENTRY(name, select) {name, select},
#define VIEW_NAME(name, select) name,

const db_view_t db_views[] = {DB_VIEWS(VIEW_ENTRY) {NULL, NULL}};
const char *const rec_view_names[] = {REC_VIEWS(VIEW_NAME) NULL};

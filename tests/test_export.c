/* test_export.c — `tessera export` end to end and the access stream under it:
 * databases recorded by running programs through the built binary; the
 * Perfetto JSON is loaded into SQLite (json_each) and checked against the
 * run's own tables (tracks, one X event per core task with its exact times,
 * flows that pair up, accesses on bank tracks, the --max-accesses cut); the
 * VCD is parsed (header, ascending times, the spec's §6 task, every core's
 * busy intervals and every bank's busy time against the database); the
 * C decoder of the access packs is compared with the sm_accesses view. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/present/export.h"
#include "events/base/err.h"
#include "tests/simt_programs.h"
#include "tessera_names.h" /* the model's counters and units (cmake/gen-names.c) */
#include "tests/testutil.h"

/* The spec's §6 example: one task on core 0, starts at 6000 ps, READY sent at 8000. */
static const char s6_prog[] = ".group cores=0x0001 fence=no\n  set_const r8, 1\n  ready\n";

/* Loops with loads and stores on every core: some bank conflicts, 8192 accesses. */
static const char loop_prog[] =
    ".group cores=0xffff fence=no\n"
    "  set_const r7, id\n  set_const r10, 1\n  set_const r9, 0\n  set_const r8, 3\n"
    "loop:\n  ld [r9, r7], r1\n  add r1, r10, r1\n  st [r9, r8], r1\n"
    "  sub r9, r10, r9\n  bnz loop, r9\n";

/* Records a program into database `name` once (test_record_once); a run
 * that the watchdog ends is recorded as such. */
static const char *record(const char *name, const char *prog, const char *text,
                          const char *opts)
{
    return test_record_once(name, prog, text, opts, TESS_EWATCHDOG);
}

static const char *example1(void) { return record("ex1.db", "examples/example1.s", NULL, NULL); }
static const char *s6(void) { return record("s6.db", NULL, s6_prog, NULL); }

/* Runs `tessera export DB ARGS`; the message in *msg when wanted. */
static int export(const char *db, const char *args, char **msg)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "export '%s' %s", db, args);
    return test_run_tessera(cmd, msg);
}

static int64_t q(sqlite3 *h, const char *sql);

/* Exports the Perfetto JSON of `db` and opens `db` with the trace's events
 * in temp tables: raw(k, ph, tid, name, cat, ts, ts_text, args), every event
 * in file order, and ev(ph, tid, name, cat, ts, dur, id, bp, frame, args),
 * where a slice (a B event and its E, written right after it) is one row of
 * ph 'X' with its duration in µs, as exact as the text. */
static sqlite3 *perfetto(const char *db, const char *extra, char **msg)
{
    char args[2048], name[32];
    static unsigned traces; /* each kept (scripts/realtools.sh opens them in speedscope) */
    snprintf(name, sizeof name, "trace-%u.json", ++traces);
    const char *json = test_tmp_path(name);
    unlink(json);
    snprintf(args, sizeof args, "--perfetto '%s' %s", json, extra ? extra : "");
    CU_ASSERT_EQUAL(export(db, args, msg), 0);
    char *text = (char *)test_read_file(json, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    sqlite3 *h = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_prepare_v2(h,
        "CREATE TEMP TABLE raw AS SELECT CAST(key AS INTEGER) AS k,"
        " json_extract(value, '$.ph') AS ph, json_extract(value, '$.tid') AS tid,"
        " json_extract(value, '$.name') AS name, json_extract(value, '$.cat') AS cat,"
        " json_extract(value, '$.ts') AS ts, json_extract(value, '$.dur') AS dur,"
        " json_extract(value, '$.id') AS id, json_extract(value, '$.bp') AS bp,"
        " json_extract(value, '$.args.frame') AS frame, json_extract(value, '$.args') AS args"
        " FROM json_each(?1, '$.traceEvents') WHERE json_valid(?1)", -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
    CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    free(text);
    CU_ASSERT_EQUAL(sqlite3_exec(h,
        "CREATE TEMP TABLE ev AS"
        " SELECT 'X' AS ph, b.tid, b.name, b.cat, b.ts, round(e.ts - b.ts, 6) AS dur, NULL AS id,"
        " NULL AS bp, b.frame, b.args FROM raw AS b JOIN raw AS e ON e.k = b.k + 1"
        " WHERE b.ph = 'B' AND e.ph = 'E'"
        " UNION ALL SELECT ph, tid, name, cat, ts, dur, id, bp, frame, args FROM raw"
        " WHERE ph NOT IN ('B', 'E')", NULL, NULL, NULL), SQLITE_OK);
    /* Every B has its E right after it: same track, name and args. */
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM raw WHERE ph IN ('X', 'E')") , q(h,
        "SELECT count(*) FROM raw AS b JOIN raw AS e ON e.k = b.k + 1 WHERE b.ph = 'B' AND"
        " e.ph = 'E' AND e.tid = b.tid AND e.name = b.name AND e.cat IS NULL AND"
        " e.args = b.args AND e.ts >= b.ts"));
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM raw WHERE ph = 'B'"),
                    q(h, "SELECT count(*) FROM raw WHERE ph = 'E'"));
    return h;
}

static int64_t q(sqlite3 *h, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t v = -1;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(h));
    if (st && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* --- Perfetto ------------------------------------------------------------------------ */

static void test_perfetto_is_valid_json(void)
{
    const char *json = test_tmp_path("valid.json");
    char args[1200];
    snprintf(args, sizeof args, "--perfetto '%s'", json);
    CU_ASSERT_EQUAL(export(example1(), args, NULL), 0);
    char *text = (char *)test_read_file(json, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    sqlite3 *h = NULL;
    sqlite3_open(":memory:", &h);
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(h, "SELECT json_valid(?1), json_extract(?1, '$.displayTimeUnit'),"
                          " json_array_length(?1, '$.traceEvents')", -1, &st, NULL);
    sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
    CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_ROW);
    CU_ASSERT_EQUAL(sqlite3_column_int(st, 0), 1);
    CU_ASSERT_STRING_EQUAL((const char *)sqlite3_column_text(st, 1), "ns");
    CU_ASSERT(sqlite3_column_int(st, 2) > 200);
    sqlite3_finalize(st);
    sqlite3_close(h);
    free(text);
}

static void test_perfetto_tracks(void)
{
    sqlite3 *h = perfetto(example1(), NULL, NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'M' AND name = 'process_name'"
                         " AND json_extract(args, '$.name') = 'GPU'"), 1);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'M' AND name = 'thread_name'"
                         " AND json_extract(args, '$.name') = 'TS' AND tid = 1"), 1);
    CU_ASSERT_EQUAL(q(h, "SELECT count(DISTINCT tid) FROM ev WHERE ph = 'M' AND name ="
                         " 'thread_name' AND json_extract(args, '$.name') ="
                         " 'core ' || (tid - 100)"), 16);
    CU_ASSERT_EQUAL(q(h, "SELECT count(DISTINCT tid) FROM ev WHERE ph = 'M' AND name ="
                         " 'thread_name' AND json_extract(args, '$.name') ="
                         " 'bank ' || (tid - 200)"), 16);
    /* every event is on a named track */
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph <> 'M' AND tid NOT IN"
                         " (SELECT tid FROM ev WHERE name = 'thread_name')"), 0);
    sqlite3_close(h);
}

/* One X event per core task, on its core's track, with its exact start and
 * length (µs in the trace, ps in the database). */
static void test_perfetto_core_tasks(void)
{
    sqlite3 *h = perfetto(example1(), NULL, NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND cat = 'task'"), 48);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM core_tasks AS t JOIN ev AS e ON e.ph = 'X'"
                         " AND e.cat = 'task' AND e.tid = 100 + t.core AND e.frame = t.frame"
                         " AND abs(e.ts * 1e6 - t.start_ps) < 0.5"
                         " AND abs(e.dur * 1e6 - (t.finish_ps - t.start_ps)) < 0.5"), 48);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND cat = 'task' AND"
                         " name = 'F' || ev.frame AND json_extract(args, '$.ordinal') = 'IF' ||"
                         " (SELECT count(*) FROM frames WHERE kind = 'IF'"
                         " AND frames.frame < ev.frame)"), 48); /* Fn: frame n; IFk ordinal */
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND cat = 'ready'"), 48);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND tid = 2"), 6);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'i' AND name IN"
                         " ('F0 (acq)', 'F5 (acq)')"), 2);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND cat = 'stall' AND"
                         " name = 'F7 waits (mask)' AND json_extract(args, '$.blocker') ="
                         " 'F6'"), 1);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND cat = 'stall' AND"
                         " name = 'F5 waits (acq)' AND ts = 0.089 AND dur = 0.029"), 1);
    sqlite3_close(h);
}

/* §6: a single task on core 0 from 6000 to 8000 ps: ts 0.006 µs, dur 0.002 µs. */
static void test_perfetto_s6_hand_computed(void)
{
    sqlite3 *h = perfetto(s6(), NULL, NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND tid = 100 AND"
                         " name = 'F1' AND ts = 0.006 AND dur = 0.002"), 1);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND tid = 100 AND"
                         " name = 'READY' AND ts = 0.008 AND dur = 0.001"), 1);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND tid = 2 AND"
                         " ts = 0.002 AND dur = 0.004"), 1); /* the code transfer */
    sqlite3_close(h);
}

/* SIMT-SPEC E1 on the SIMT unit at level events: the issue port track holds
 * the warp's 8 instructions, one cycle each, at cycles 6, 7, 8, 9 (all four
 * lanes), 10, 11 (even lanes 0, 2: active 0005, inside the divergence),
 * 12 (odd lanes: the mul, 000a) and 14 (ready, reconverged: 000f). The
 * cycle 13 gap is the mul's second cycle (an execute stall). */
static void test_perfetto_simt_issue_port(void)
{
    const char *db = record("simt-e1.db", NULL, SIMT_E1,
                            "-s core.model=simt -s record.level=events");
    sqlite3 *h = perfetto(db, NULL, NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'M' AND tid = 400"
                         " AND args ->> '$.name' = 'issue port'"), 1);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND tid = 400"
                         " AND dur = 0.001"), 8);
    CU_ASSERT_EQUAL(q(h, "SELECT group_concat(CAST(round(ts * 1000) AS INTEGER) || ':' ||"
                         " (args ->> '$.active') || ':' || cat, ' ') = '6:000f:issue"
                         " 7:000f:issue 8:000f:issue 9:000f:issue 10:0005:diverged"
                         " 11:0005:diverged 12:000a:diverged 14:000f:issue'"
                         " FROM (SELECT * FROM ev WHERE ph = 'X' AND tid = 400 ORDER BY ts)"),
                    1);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE tid = 400 AND name = 'F1 mul'"), 1);
    sqlite3_close(h);
    /* below level events there is no issue port */
    h = perfetto(s6(), NULL, NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE tid >= 400"), 0);
    sqlite3_close(h);
}

/* Each flow: s on the TS code bus, t on the core, f on the core (READY). */
static void test_perfetto_flows_pair_up(void)
{
    sqlite3 *h = perfetto(example1(), NULL, NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(DISTINCT id) FROM ev WHERE ph IN ('s', 't', 'f')"), 48);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM (SELECT id FROM ev WHERE ph IN ('s','t','f')"
                         " GROUP BY id HAVING sum(ph = 's') = 1 AND sum(ph = 't') = 1"
                         " AND sum(ph = 'f') = 1 AND max(CASE ph WHEN 's' THEN ts END) <"
                         " max(CASE ph WHEN 't' THEN ts END) AND max(CASE ph WHEN 't'"
                         " THEN ts END) < max(CASE ph WHEN 'f' THEN ts END))"), 48);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 's' AND tid <> 2"), 0);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'f' AND (tid < 100 OR"
                         " bp <> 'e')"), 0);
    /* each flow point lies inside a slice of its track */
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev AS p WHERE p.ph IN ('s', 't', 'f') AND"
                         " NOT EXISTS (SELECT 1 FROM ev AS x WHERE x.ph = 'X' AND"
                         " x.tid = p.tid AND x.ts < p.ts AND p.ts < x.ts + x.dur)"), 0);
    sqlite3_close(h);
}

static void test_perfetto_accesses_on_banks(void)
{
    sqlite3 *h = perfetto(example1(), NULL, NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'X' AND cat = 'sm'"), 96);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE cat = 'sm' AND tid <> 200"), 0);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM sm_accesses AS a JOIN ev AS e ON"
                         " e.cat = 'sm' AND e.frame = a.frame AND"
                         " json_extract(e.args, '$.idx') = a.idx AND e.name = 'core ' ||"
                         " a.core || ' ' || a.op AND abs(e.ts * 1e6 - a.grant_ps) < 0.5 AND"
                         " abs(e.dur * 1e6 - 1000) < 0.5"), 96);
    sqlite3_close(h);
}

/* Slices are B/E pairs, each track's in time order in the file (the
 * format's rule), so that no viewer can misorder back-to-back slices: with
 * X events speedscope computed ts + dur in binary floating point (0.016 +
 * 0.001 > 0.017) and stacked a bank's next access inside the previous one.
 * The loop program has conflicts (grants out of request order) and bank
 * accesses back to back; stages.s under lookahead issues frames out of order. */
static void slices_in_time_order(const char *db, const char *extra, bool back_to_back)
{
    sqlite3 *h = perfetto(db, extra, NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM raw WHERE ph = 'X'"), 0);
    CU_ASSERT(q(h, "SELECT count(*) FROM raw WHERE ph = 'B'") > 0);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM (SELECT ts, lag(ts) OVER (PARTITION BY tid"
                         " ORDER BY k) AS prev FROM raw WHERE ph IN ('B', 'E'))"
                         " WHERE ts < prev"), 0);
    /* An E and the next B of its track at one time: equal, not 1 ulp apart. */
    int64_t touching = q(h, "SELECT count(*) FROM (SELECT ph, ts, lead(ph) OVER w AS nph,"
                            " lead(ts) OVER w AS nts FROM raw WHERE ph IN ('B', 'E') WINDOW w"
                            " AS (PARTITION BY tid ORDER BY k)) WHERE ph = 'E' AND nph = 'B'"
                            " AND abs(nts - ts) < 1e-7");
    CU_ASSERT_EQUAL(touching, q(h, "SELECT count(*) FROM (SELECT ph, ts, lead(ph) OVER w AS nph,"
                                   " lead(ts) OVER w AS nts FROM raw WHERE ph IN ('B', 'E')"
                                   " WINDOW w AS (PARTITION BY tid ORDER BY k)) WHERE ph = 'E'"
                                   " AND nph = 'B' AND nts = ts"));
    if (back_to_back)
        CU_ASSERT(q(h, "SELECT count(*) FROM (SELECT ph, ts, tid, lead(ph) OVER w AS nph,"
                       " lead(ts) OVER w AS nts FROM raw WHERE ph IN ('B', 'E') WINDOW w AS"
                       " (PARTITION BY tid ORDER BY k)) WHERE ph = 'E' AND nph = 'B' AND"
                       " nts = ts AND tid >= 200") > 100);
    sqlite3_close(h);
}

static void test_perfetto_slices_in_time_order(void)
{
    slices_in_time_order(example1(), NULL, false);
    slices_in_time_order(record("loop.db", NULL, loop_prog, NULL), "--max-accesses all", true);
    slices_in_time_order(record("look.db", "examples/stages.s", NULL,
                                "-s ts.policy=lookahead -s ts.window=8"), NULL, false);
}

static void test_perfetto_max_accesses(void)
{
    const char *db = record("loop.db", NULL, loop_prog, NULL);
    char *msg = NULL;
    sqlite3 *h = perfetto(db, "--max-accesses 1000", &msg);
    int64_t n = q(h, "SELECT count(*) FROM ev WHERE cat = 'sm'");
    CU_ASSERT(n > 900 && n <= 1000); /* the earliest requested: ties at the cut are left out */
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph = 'i' AND name LIKE"
                         " 'SM accesses not exported%'"), 1);
    CU_ASSERT(msg && strstr(msg, "of about 8192 SM accesses exported"));
    free(msg);
    sqlite3_close(h);
    h = perfetto(db, "--max-accesses 0", NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE cat = 'sm'"), 0);
    sqlite3_close(h);
    h = perfetto(db, "--max-accesses all", NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE cat = 'sm'"), 8192);
    sqlite3_close(h);
}

static void test_perfetto_level_tasks_and_window(void)
{
    const char *db = record("tasks.db", "examples/example1.s", NULL, "-s record.level=tasks");
    sqlite3 *h = perfetto(db, NULL, NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE cat = 'task' AND ph = 'X'"), 48);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE tid >= 200"), 0);
    sqlite3_close(h);
    h = perfetto(example1(), "--from-ps 100000", NULL);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE cat = 'task' AND name = 'F1'"), 0);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE cat = 'task' AND ph = 'X' AND"
                         " name = 'F7'"), 8);
    CU_ASSERT_EQUAL(q(h, "SELECT count(*) FROM ev WHERE ph <> 'M' AND ts < 0.1"), 0);
    sqlite3_close(h);
}

/* --- VCD -------------------------------------------------------------------------------- */

#define MAX_VARS 200

typedef struct vcd_var {
    char id[8], name[32];
    unsigned width;
} vcd_var_t;

/* A parsed VCD: its variables and, per variable, its value changes. */
typedef struct vcd {
    char *text;
    vcd_var_t var[MAX_VARS];
    unsigned n_var;
    bool ascending, header;
} vcd_t;

static int var_of(const vcd_t *v, const char *name)
{
    for (unsigned i = 0; i < v->n_var; i++)
        if (!strcmp(v->var[i].name, name))
            return (int)i;
    return -1;
}

static void vcd_read(vcd_t *v, const char *path)
{
    memset(v, 0, sizeof *v);
    v->text = (char *)test_read_file(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v->text);
    v->header = strstr(v->text, "$date ") && strstr(v->text, "$version Tessera") &&
                strstr(v->text, "$timescale 1 ps $end") &&
                strstr(v->text, "$scope module gpu $end") &&
                strstr(v->text, "$enddefinitions $end");
    for (char *p = v->text; (p = strstr(p, "$var wire ")) && v->n_var < MAX_VARS; p++) {
        vcd_var_t *x = &v->var[v->n_var++];
        sscanf(p, "$var wire %u %7s %31s", &x->width, x->id, x->name);
    }
    v->ascending = true;
    long long last = -1, t;
    for (char *p = strstr(v->text, "$enddefinitions"); p && (p = strchr(p, '\n')); p++)
        if (p[1] == '#' && sscanf(p + 2, "%lld", &t) == 1)
            v->ascending = v->ascending && t > last, last = t;
}

/* The 1-bit signal's intervals at 1 as "a-b," pairs, in *out. */
static void vcd_intervals(const vcd_t *v, const char *name, char *out, size_t size)
{
    int k = var_of(v, name);
    out[0] = 0;
    CU_ASSERT_FATAL(k >= 0);
    long long t = 0, from = -1;
    size_t o = 0;
    for (char *p = strstr(v->text, "$enddefinitions"); p && (p = strchr(p, '\n')); p++) {
        const char *line = p + 1;
        if (*line == '#') {
            sscanf(line + 1, "%lld", &t);
            continue;
        }
        size_t n = strcspn(line, "\n");
        if ((*line != '0' && *line != '1') || n != 1 + strlen(v->var[k].id) ||
            strncmp(line + 1, v->var[k].id, n - 1))
            continue;
        if (*line == '1' && from < 0)
            from = t;
        else if (*line == '0' && from >= 0 && o < size)
            o += (size_t)snprintf(out + o, size - o, "%lld-%lld,", from, t), from = -1;
    }
}

static void vcd_export(const char *db, const char *name, const char *extra, vcd_t *v)
{
    char args[2048];
    const char *path = test_tmp_path(name);
    snprintf(args, sizeof args, "--vcd '%s' %s", path, extra ? extra : "");
    CU_ASSERT_EQUAL(export(db, args, NULL), 0);
    vcd_read(v, path);
}

static void test_vcd_header_and_order(void)
{
    vcd_t v;
    vcd_export(example1(), "ex1.vcd", NULL, &v);
    CU_ASSERT(v.header);
    CU_ASSERT(v.ascending);
    static const char *const names[] = {"exec_mask", "bus_busy", "frame1_exec_mask",
                                        "frame7_exec_mask", "core0_busy", "core15_busy",
                                        "core7_task", "core3_smwait", "bank0_busy",
                                        "bank15_busy"};
    static const unsigned widths[] = {16, 1, 16, 16, 1, 1, 8, 1, 1, 1};
    for (unsigned i = 0; i < 10; i++) {
        int k = var_of(&v, names[i]);
        CU_ASSERT(k >= 0);
        CU_ASSERT(k < 0 || v.var[k].width == widths[i]);
    }
    CU_ASSERT_EQUAL(var_of(&v, "frame0_exec_mask"), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(v.text, "#0\n$dumpvars\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(v.text, "\n#173000\n"));
    free(v.text);
}

/* The changes of vector variable `name`: "t:value t:value …" (the initial
 * values at 0 included). */
static void vcd_values(const vcd_t *v, const char *name, char *out, size_t size)
{
    int k = var_of(v, name);
    out[0] = 0;
    CU_ASSERT_FATAL(k >= 0);
    long long t = 0;
    size_t o = 0, idn = strlen(v->var[k].id);
    for (char *p = strstr(v->text, "$enddefinitions"); p && (p = strchr(p, '\n')); p++) {
        const char *line = p + 1;
        size_t n = strcspn(line, "\n");
        if (*line == '#')
            sscanf(line + 1, "%lld", &t);
        else if (*line == 'b' && n > idn + 2 && line[n - idn - 1] == ' ' &&
                 !strncmp(line + n - idn, v->var[k].id, idn) && o < size)
            o += (size_t)snprintf(out + o, size - o, "%s%lld:%.*s", o ? " " : "", t,
                                  (int)(n - idn - 2), line + 1);
    }
}

/* SIMT-SPEC E1 at level events (the issue cycles as in
 * test_perfetto_simt_issue_port): issue_warp holds IF0 from 6 to 13 and in
 * cycle 14 (z in cycle 13, the mul's second cycle, and after 15);
 * issue_active is 1111 for cycles 6-9, 0101 (even lanes) for 10-11, 1010
 * (odd lanes) for 12, 1111 for 14. A MIMD run has neither signal. */
static void test_vcd_simt_issue_port(void)
{
    const char *db = record("simt-e1.db", NULL, SIMT_E1,
                            "-s core.model=simt -s record.level=events");
    vcd_t v;
    char got[512];
    vcd_export(db, "simt-e1.vcd", NULL, &v);
    vcd_values(&v, "issue_warp", got, sizeof got);
    CU_ASSERT_STRING_EQUAL(got, "0:z 6000:1 13000:z 14000:1 15000:z");
    vcd_values(&v, "issue_active", got, sizeof got);
    CU_ASSERT_STRING_EQUAL(got, "0:0 6000:1111 10000:101 12000:1010 13000:0 14000:1111 15000:0");
    free(v.text);
    vcd_export(example1(), "ex1-noissue.vcd", NULL, &v);
    CU_ASSERT_EQUAL(var_of(&v, "issue_warp"), -1);
    free(v.text);
}

/* Dual issue (the program and cycles of test_timeline.c's
 * test_simt_dual_issue_port): slot 0 holds F1 at cycles 6-9 and F3 at 10-16,
 * slot 1 (issue_warp_1) F1 at 10-12; issue_active is both warps' lanes
 * (0x3 | 0xc) while both issue, F3's alone from 13 to 16. */
static void test_vcd_simt_dual_issue(void)
{
    const char *db = record("simt-dual.db", NULL, SIMT_DUAL,
                            "-s core.model=simt -s record.level=events -s simt.issue_width=2");
    vcd_t v;
    char got[512];
    vcd_export(db, "simt-dual.vcd", NULL, &v);
    vcd_values(&v, "issue_warp", got, sizeof got);
    CU_ASSERT_STRING_EQUAL(got, "0:z 6000:1 10000:11 17000:z");
    vcd_values(&v, "issue_warp_1", got, sizeof got);
    CU_ASSERT_STRING_EQUAL(got, "0:z 10000:1 13000:z");
    vcd_values(&v, "issue_active", got, sizeof got);
    CU_ASSERT_STRING_EQUAL(got, "0:0 6000:11 10000:1111 13000:1100 17000:0");
    free(v.text);
}

/* §6: core0_busy rises at #6000 and falls at #8000; the task's EXEC_MASK
 * holds core 0 from the issue (2000) to the READY (9000). */
static void test_vcd_s6_hand_computed(void)
{
    vcd_t v;
    char got[256], line[64];
    vcd_export(s6(), "s6.vcd", NULL, &v);
    vcd_intervals(&v, "core0_busy", got, sizeof got);
    CU_ASSERT_STRING_EQUAL(got, "6000-8000,");
    vcd_intervals(&v, "bus_busy", got, sizeof got);
    CU_ASSERT_STRING_EQUAL(got, "2000-6000,");
    int k = var_of(&v, "frame1_exec_mask");
    CU_ASSERT_FATAL(k >= 0);
    snprintf(line, sizeof line, "#2000\n1");
    CU_ASSERT_PTR_NOT_NULL(strstr(v.text, line));
    snprintf(line, sizeof line, "b1 %s\n", v.var[k].id);
    CU_ASSERT_PTR_NOT_NULL(strstr(strstr(v.text, "#2000\n"), line));
    snprintf(line, sizeof line, "b0 %s\n", v.var[k].id);
    CU_ASSERT_PTR_NOT_NULL(strstr(strstr(v.text, "#9000\n"), line));
    k = var_of(&v, "core0_task");
    snprintf(line, sizeof line, "b1 %s\n", v.var[k].id); /* frame 1 */
    CU_ASSERT_PTR_NOT_NULL(strstr(strstr(v.text, "#6000\n"), line));
    free(v.text);
}

static int64_t q_bound(sqlite3 *h, const char *sql, int64_t a)
{
    sqlite3_stmt *st = NULL;
    int64_t v = -1;
    sqlite3_prepare_v2(h, sql, -1, &st, NULL);
    sqlite3_bind_int64(st, 1, a);
    if (st && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Every core's busy intervals are its core tasks; every bank's busy time
 * adds up to its busy_ps counter. */
static void vcd_matches_database(const char *db, const char *name)
{
    vcd_t v;
    char got[8192], want[8192], sig[32];
    vcd_export(db, name, "--max-accesses all", &v);
    CU_ASSERT(v.ascending);
    sqlite3 *h = NULL;
    sqlite3_open(db, &h);
    for (unsigned c = 0; c < 16; c++) {
        snprintf(sig, sizeof sig, "core%u_busy", c);
        vcd_intervals(&v, sig, got, sizeof got);
        sqlite3_stmt *st = NULL;
        sqlite3_prepare_v2(h, "SELECT start_ps, finish_ps FROM core_tasks WHERE core = ?1"
                              " ORDER BY start_ps", -1, &st, NULL);
        sqlite3_bind_int(st, 1, (int)c);
        size_t o = 0;
        want[0] = 0;
        while (sqlite3_step(st) == SQLITE_ROW && o < sizeof want)
            o += (size_t)snprintf(want + o, sizeof want - o, "%lld-%lld,",
                                  (long long)sqlite3_column_int64(st, 0),
                                  (long long)sqlite3_column_int64(st, 1));
        sqlite3_finalize(st);
        CU_ASSERT_STRING_EQUAL(got, want);
    }
    for (unsigned b = 0; b < 16; b++) {
        snprintf(sig, sizeof sig, "bank%u_busy", b);
        vcd_intervals(&v, sig, got, sizeof got);
        long long total = 0, x, y;
        for (char *p = got; sscanf(p, "%lld-%lld,", &x, &y) == 2; p = strchr(p, ',') + 1)
            total += y - x;
        CU_ASSERT_EQUAL(total, q_bound(h, "SELECT value FROM counters"
                                          " WHERE name = '" GEN_CTR_BANK_BUSY_PS "'"
                                          " AND component = '" GEN_UNIT_BANK "' || ?1", b));
    }
    sqlite3_close(h);
    free(v.text);
}

static void test_vcd_matches_database(void)
{
    vcd_matches_database(example1(), "ex1-all.vcd");
    vcd_matches_database(record("loop.db", NULL, loop_prog, NULL), "loop-all.vcd");
}

static void test_vcd_cut_and_window(void)
{
    vcd_t v;
    vcd_export(record("loop.db", NULL, loop_prog, NULL), "cut.vcd", "--max-accesses 100", &v);
    CU_ASSERT(v.ascending);
    CU_ASSERT_PTR_NOT_NULL(strstr(v.text, "are not exported (x)"));
    int k = var_of(&v, "bank3_busy");
    char x[16];
    snprintf(x, sizeof x, "\nx%s\n", k >= 0 ? v.var[k].id : "?");
    CU_ASSERT_PTR_NOT_NULL(strstr(v.text, x));
    free(v.text);
    vcd_export(example1(), "win.vcd", "--from-ps 100000 --to-ps 150000", &v);
    CU_ASSERT(v.ascending);
    CU_ASSERT_PTR_NOT_NULL(strstr(v.text, "#100000\n$dumpvars\n"));
    CU_ASSERT_PTR_NULL(strstr(v.text, "\n#99000\n"));
    CU_ASSERT_PTR_NULL(strstr(v.text, "\n#151000\n"));
    free(v.text);
}

/* --- the access stream ------------------------------------------------------------------ */

/* The C decoder of the packs gives exactly the sm_accesses view's rows. */
static void decoder_matches_view(const char *db)
{
    diag_t d = {0};
    tl_run_t *run = tl_run_open(db, 0, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(run);
    sqlite3 *h = NULL;
    sqlite3_open(db, &h);
    sqlite3_stmt *st = NULL;
    CU_ASSERT_EQUAL_FATAL(sqlite3_prepare_v2(h,
        "SELECT frame, core, idx, op = 'st', sync, addr, bank, value, request_ps, arrive_ps,"
        " grant_ps, done_ps FROM sm_accesses WHERE run_id = (SELECT max(run_id) FROM runs)"
        " ORDER BY frame, core, idx", -1, &st, NULL), SQLITE_OK);
    exp_acc_filter_t f = {.frame = -1, .core = -1};
    exp_acc_iter_t *it = exp_acc_begin(run, &f, &d);
    exp_access_t a;
    unsigned n = 0, bad = 0;
    int view;
    while ((view = sqlite3_step(st)) == SQLITE_ROW && exp_acc_next(it, &a, &d) == 1) {
        int64_t want[12], got[12] = {a.frame, a.core, a.idx, a.store, a.sync, a.addr,
                                     a.bank, a.value, a.request, a.arrive, a.grant, a.done};
        for (int i = 0; i < 12; i++) {
            want[i] = sqlite3_column_type(st, i) == SQLITE_NULL ? TL_NONE
                                                               : sqlite3_column_int64(st, i);
            bad += want[i] != got[i];
        }
        n++;
    }
    CU_ASSERT(n > 0);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(view, SQLITE_DONE);             /* as many rows … */
    CU_ASSERT_EQUAL(exp_acc_next(it, &a, &d), 0);   /* … on both sides */
    exp_acc_end(it);
    sqlite3_finalize(st);
    sqlite3_close(h);
    tl_run_close(run);
}

static void test_decoder_matches_view(void)
{
    decoder_matches_view(example1());
    decoder_matches_view(record("odd.db", NULL, loop_prog,
        "-s sm.bank_map=interleaved -s sm.arbiter=random -s sm.bank=uniform:1..3"
        " -s sm.req=choice:0,1,5 -s clock.period_ps=700"));
    decoder_matches_view(record("dog.db", NULL, loop_prog, "-s core.budget=300"));
}

/* --- errors ----------------------------------------------------------------------------- */

static void test_errors(void)
{
    char args[2048], out[1024], *msg = NULL;
    snprintf(out, sizeof out, "%s", test_tmp_path("err.json"));
    snprintf(args, sizeof args, "--perfetto '%s'", out);
    CU_ASSERT_EQUAL(export(test_tmp_path("missing.db"), args, NULL), 5);
    test_write_file(test_tmp_path("text.db"), "not sqlite at all\n", 18);
    CU_ASSERT_EQUAL(export(test_tmp_path("text.db"), args, NULL), 6);
    snprintf(args, sizeof args, "--run 7 --vcd '%s'", out);
    CU_ASSERT_EQUAL(export(example1(), args, &msg), 2);
    CU_ASSERT(msg && strstr(msg, "no run 7"));
    free(msg);
    const char *db = record("summary.db", "examples/example1.s", NULL, "-s record.level=summary");
    snprintf(args, sizeof args, "--perfetto '%s'", out);
    CU_ASSERT_EQUAL(export(db, args, &msg), 2);
    CU_ASSERT(msg && strstr(msg, "level summary"));
    free(msg);
    CU_ASSERT_EQUAL(access(out, F_OK), -1); /* nothing left behind */
    CU_ASSERT_EQUAL(export(example1(), "--vcd /nonexistent-dir/x.vcd", NULL), 5);
}

static void test_usage_errors(void)
{
    CU_ASSERT_EQUAL(test_run_tessera("export", NULL), 1);
    CU_ASSERT_EQUAL(export(example1(), "", NULL), 1); /* neither output */
    CU_ASSERT_EQUAL(export(example1(), "--vcd x.vcd --max-accesses lots", NULL), 1);
    CU_ASSERT_EQUAL(export(example1(), "--vcd x.vcd --run 0", NULL), 1);
    CU_ASSERT_EQUAL(export(example1(), "--vcd", NULL), 1);
    char *out = NULL;
    CU_ASSERT_EQUAL(test_run_tessera("export --help", &out), 0);
    CU_ASSERT(out && strstr(out, "--max-accesses"));
    free(out);
}

int main(void)
{
    static const test_case_t json[] = {
        TEST(test_perfetto_is_valid_json),      TEST(test_perfetto_tracks),
        TEST(test_perfetto_core_tasks),         TEST(test_perfetto_s6_hand_computed),
        TEST(test_perfetto_flows_pair_up),      TEST(test_perfetto_accesses_on_banks),
        TEST(test_perfetto_max_accesses),       TEST(test_perfetto_level_tasks_and_window),
        TEST(test_perfetto_slices_in_time_order), TEST(test_perfetto_simt_issue_port),
        TEST_END};
    static const test_case_t vcd[] = {
        TEST(test_vcd_header_and_order), TEST(test_vcd_s6_hand_computed),
        TEST(test_vcd_simt_issue_port),
        TEST(test_vcd_simt_dual_issue),
        TEST(test_vcd_matches_database), TEST(test_vcd_cut_and_window), TEST_END};
    static const test_case_t stream[] = {TEST(test_decoder_matches_view), TEST_END};
    static const test_case_t errors[] = {TEST(test_errors), TEST(test_usage_errors), TEST_END};
    static const test_suite_t suites[] = {
        {"perfetto", json}, {"vcd", vcd}, {"access stream", stream}, {"export errors", errors},
        {NULL, NULL}};
    return test_run_suites(suites);
}

"""test_view.py — `tessera view`'s server (analysis/view/) against the built
command, without a browser: what the API answers equals what SQL says
(runs, tasks, the accesses of a window and of a task, bank busy time against
the counters), the hostile requests (path traversal, bad ids and windows,
oversized and malformed requests, other methods, a foreign Host), many
clients at once, a database being written while it is served, missing and
corrupt files (also removed or overwritten while served), files of every older
schema version, the address and port options, and
SIGINT/SIGTERM stopping it cleanly (exit 0), also in the middle of a
request. Run by ctest (test `view_server`) with TESSERA_EXE set; the
sanitizer build runs it too, so a sanitizer report fails the exit status.
The browser test is scripts/view-check.js (scripts/realtools.sh view)."""
import http.client
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
import unittest

TREE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXE = os.environ.get("TESSERA_EXE") or os.path.join(TREE, "build", "tessera")


def run(*args, **kw):
    return subprocess.run([EXE] + list(args), cwd=TREE, capture_output=True, text=True, **kw)


class Server:
    """A `tessera view DB --port 0` in the background; stop() sends a signal."""

    def __init__(self, db, *extra):
        self.p = subprocess.Popen([EXE, "view", db, "--port", "0", *extra], cwd=TREE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.p.stdout.readline()
        if "http://" not in line:
            self.p.kill()
            raise AssertionError(f"no address printed: {line!r} {self.p.stderr.read()!r}")
        self.url = line.split("http://")[1].split("/")[0]
        self.host, self.port = self.url.rsplit(":", 1)
        self.port = int(self.port)

    def get(self, path, headers=None, method="GET", body=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, r.getheader("Content-Type"), data

    def api(self, path):
        status, _, data = self.get(path)
        return status, json.loads(data)

    def raw(self, data, timeout=30):
        """Sends raw bytes; the answer's first line ('' if closed without one,
        or none came within the timeout)."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        try:
            s.sendall(data)
        except OSError:
            pass
        out = b""
        try:
            while b"\r\n" not in out:
                got = s.recv(4096)
                if not got:
                    break
                out += got
        except OSError:
            pass
        s.close()
        return out.split(b"\r\n")[0].decode("latin-1")

    def stop(self, sig=signal.SIGINT):
        self.p.send_signal(sig)
        try:
            out, err = self.p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            raise AssertionError("the server did not stop within 30 s")
        return self.p.returncode, err


def sql(db, query, *args):
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as h:
        return list(h.execute(query, args))


def js_object(text, name):
    """The JSON object a script assigns to `name` ("TS.NAMES = {...};")."""
    at = text.index(name + " = ") + len(name) + 3
    return json.JSONDecoder().raw_decode(text, at)[0]


def op_names_only(x):
    """x with every text cut to its first word (an instruction's op)."""
    if isinstance(x, str):
        return x.split(" ")[0]
    if isinstance(x, list):
        return [op_names_only(e) for e in x]
    if isinstance(x, dict):
        return {k: op_names_only(e) for k, e in x.items()}
    return x


def downgrade(db, to):
    """The file as schema version `to` wrote it (tests/test_views.c's
    downgrade, for the viewer): no views but sm_accesses; below 15 no
    simt_waits; below 14 no slot
    profile (slot_counts) and no simt_warps.stall_fetch_cycles,
    stall_collector_cycles; below 13 no thread-group columns in simt_warps;
    below 12 no runs.uid; below 11 simt_mem a table of rows, below 10
    simt_issue too, below 9 events; below 6 no SIMT tables; below 5 no
    intervals; below 3 no races, no runs.stop_ps, params values TEXT."""
    h = sqlite3.connect(db)

    def has(name):
        return h.execute("SELECT count(*) FROM sqlite_master WHERE name = ?",
                         (name,)).fetchone()[0] > 0

    def drop_columns(table, *cols):
        have = [r[1] for r in h.execute(f"PRAGMA table_info({table})")]
        for c in cols:
            if c in have:
                h.execute(f"ALTER TABLE {table} DROP COLUMN {c}")

    # the rows of the packed tables' views, for the tables of rows they replaced
    for v, t, name in ((11, "sm", "simt_mem"), (10, "si", "simt_issue"), (9, "ev", "events")):
        if to < v:
            h.execute(f"CREATE TEMP TABLE {t} AS SELECT * FROM {name}")
    # version 14's views are the current ones (15 added a table only): a file of
    # 14 keeps them, as that version wrote them
    for (v,) in list(h.execute("SELECT name FROM sqlite_master WHERE type = 'view'"
                               " AND name <> 'sm_accesses'") if to < 14 else []):
        h.execute(f"DROP VIEW {v}")
    if to < 15 and has("simt_waits"):
        h.execute("DROP TABLE simt_waits")
    if to < 14:
        if has("slot_counts"):
            h.execute("DROP TABLE slot_counts")
        drop_columns("simt_warps", "stall_fetch_cycles", "stall_collector_cycles")
    if to < 13:
        drop_columns("simt_warps", "max_groups", "barriers", "stall_barrier_cycles")
    if to < 12:
        drop_columns("runs", "uid")
    if to < 11:
        h.executescript(
            "DROP TABLE simt_mem_packs; CREATE TABLE simt_mem(run_id INTEGER NOT NULL REFERENCES"
            " runs ON DELETE CASCADE, frame INTEGER NOT NULL, slot INTEGER NOT NULL, op TEXT NOT"
            " NULL, lanes INTEGER, active INTEGER, requests INTEGER, replays INTEGER, banks"
            " INTEGER, issue_ps INTEGER, done_ps INTEGER); INSERT INTO simt_mem SELECT * FROM"
            " temp.sm; CREATE INDEX simt_mem_run ON simt_mem(run_id, frame);")
    if to < 10:
        h.executescript(
            "DROP TABLE simt_issue_packs; DROP TABLE simt_op_names; CREATE TABLE simt_issue("
            "run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE, time_ps INTEGER NOT"
            " NULL, frame INTEGER NOT NULL, slot INTEGER NOT NULL, op TEXT, ord INTEGER, depth"
            " INTEGER, eligible INTEGER, active INTEGER, mask INTEGER, lanes INTEGER);"
            " INSERT INTO simt_issue SELECT * FROM temp.si;")
    if to < 9:
        h.executescript(
            "DROP TABLE event_packs; DROP TABLE event_names; CREATE TABLE events(run_id INTEGER"
            " NOT NULL REFERENCES runs ON DELETE CASCADE, seq INTEGER NOT NULL, time_ps INTEGER"
            " NOT NULL, prio INTEGER, name TEXT); INSERT INTO events SELECT * FROM temp.ev;"
            " CREATE INDEX events_run ON events(run_id, seq);")
    if to < 6:
        h.executescript("DROP TABLE simt_warps; DROP TABLE simt_mem; DROP TABLE simt_issue;")
    if to < 5:
        h.execute("DROP TABLE intervals")
    if to < 3:
        h.executescript(
            "DROP TABLE races; ALTER TABLE runs DROP COLUMN stop_ps;"
            " CREATE TEMP TABLE p AS SELECT * FROM params; DROP TABLE params;"
            " CREATE TABLE params(run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,"
            " key TEXT NOT NULL, value TEXT);"
            " INSERT INTO params SELECT run_id, key, CAST(value AS TEXT) FROM temp.p;")
    h.execute(f"PRAGMA user_version = {to}")
    h.commit()
    h.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    h.close()


class ViewTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="tessera-view-")
        cls.db = os.path.join(cls.tmp.name, "study.db")
        r = run("sweep", "examples/matmul.s", "-s", "sm.arbiter=fixed,rr", "-s", "sm.bank=1,4",
                "--db", cls.db, "-j", "2")
        assert r.returncode == 0, r.stderr
        for args in (["examples/simt_diverge.s", "-s", "core.model=simt", "-s",
                      "record.level=events"],
                     ["examples/example1.s", "-s", "record.level=summary"],
                     ["examples/prefix.s"]):
            r = run("run", *args, "--db", cls.db, "--quiet")
            assert r.returncode == 0, r.stderr
        # bench.s with 4 outer iterations instead of 256: 196 608 accesses, more
        # than the server decodes every time (VW_EXACT_MAX): the summary's run
        with open(os.path.join(TREE, "examples/bench.s")) as f:
            small = f.read().replace("set_const r8, 0 ", "set_const r8, 4 ")
        cls.small = os.path.join(cls.tmp.name, "small.s")
        with open(cls.small, "w") as f:
            f.write(small)
        # the same with 8 iterations on the SIMT unit at level events: ~98 000
        # issues and ~25 000 warp ld/st, more than are decoded every time
        small_simt = os.path.join(cls.tmp.name, "small_simt.s")
        with open(small_simt, "w") as f:
            f.write(small.replace("set_const r8, 4 ", "set_const r8, 8 "))
        r = run("run", small_simt, "-s", "core.model=simt", "-s", "record.level=events",
                "--db", cls.db, "--quiet")
        assert r.returncode == 0, r.stderr
        r = run("run", cls.small, "--db", cls.db, "--quiet")
        assert r.returncode == 0, r.stderr
        cls.srv = Server(cls.db)
        with open(cls.db, "rb") as f:
            cls.before = f.read()

    @classmethod
    def tearDownClass(cls):
        code, err = cls.srv.stop()
        with open(cls.db, "rb") as f:
            after = f.read()
        cls.tmp.cleanup()
        assert code == 0 and "stopped (SIGINT)" in err, (code, err)
        assert after == cls.before, "the server changed the database"

    # --- what the API answers, against SQL ------------------------------------------

    def test_runs_equal_sql(self):
        status, d = self.srv.api("/api/runs")
        self.assertEqual(status, 200)
        ids = [r["run_id"] for r in d["runs"]]
        self.assertEqual(ids, [r[0] for r in sql(self.db, "SELECT run_id FROM runs ORDER BY 1")])
        self.assertIn("sm.arbiter", d["params"])
        self.assertIn("sm.bank", d["params"])
        self.assertIn("end_cycles", d["figures"])
        want = dict(sql(self.db, "SELECT run_id, end_cycles FROM run_summary"))
        for r in d["runs"]:
            self.assertEqual(r["end_cycles"], want[r["run_id"]])

    def test_run_tasks_equal_sql(self):
        status, d = self.srv.api("/api/run/2")
        self.assertEqual(status, 200)
        self.assertEqual(d["run"]["end_ps"], sql(self.db, "SELECT end_ps FROM runs WHERE run_id = 2")[0][0])
        got = sorted(tuple(t[:5]) for t in d["tasks"])
        want = sorted(tuple(-1 if v is None else v for v in r) for r in sql(
            self.db, "SELECT frame, core, start_ps, finish_ps, ready_ps FROM core_tasks WHERE run_id = 2"))
        self.assertEqual(got, want)
        self.assertEqual(d["params"]["sm.bank"], sql(
            self.db, "SELECT value FROM params WHERE run_id = 2 AND key = 'sm.bank'")[0][0])
        self.assertFalse(d["run"]["simt"])

    def test_task_hottest_instruction(self):
        """Each task names the slot profile's hottest instruction of its frame on
        its core (a SIMT run: of its warp, core NULL) over every task of the
        frame — the most cycles, of all of them — as tessera timeline's task
        bars do; a run at level summary has no profile, so no task names one."""
        named = 0
        for run_id, simt in ((2, False), (7, False), (5, True), (8, True)):
            _, d = self.srv.api(f"/api/run/{run_id}")
            self.assertEqual(len(d["hot"]), len(d["tasks"]))
            for t, h in zip(d["tasks"], d["hot"]):
                rows = sql(self.db, "SELECT slot, text, cycles FROM slot_profile WHERE run_id = ?"
                                    " AND frame = ? AND core IS ?", run_id, t[0],
                           None if simt else t[1])
                slot, text, cycles, total, warp = h
                self.assertEqual(warp, simt)
                self.assertEqual(cycles, max(r[2] for r in rows))
                self.assertAlmostEqual(total, sum(r[2] for r in rows))
                self.assertIn((slot, text, cycles), rows)
                named += 1
        self.assertGreater(named, 8)
        _, d = self.srv.api("/api/run/6")
        self.assertEqual(d["hot"], [None] * len(d["tasks"]))

    def window_accesses(self, run, c0, c1, period=1000):
        return sorted(sql(self.db, "SELECT frame, core, idx, addr, bank, value, request_ps,"
                                   " arrive_ps, grant_ps, done_ps FROM sm_accesses WHERE run_id = ?"
                                   " AND request_ps < ? AND done_ps > ?", run, c1 * period,
                          c0 * period))

    def test_window_accesses_equal_sql(self):
        _, info = self.srv.api("/api/run/5")
        end = -(-info["run"]["end_ps"] // 1000)
        for c0, c1 in ((0, end), (10, 40), (end // 2, end // 2 + 3)):
            status, d = self.srv.api(f"/api/run/5/timeline?from={c0}&to={c1}&cols=300")
            self.assertEqual(status, 200, d)
            self.assertEqual(d["source"], "packs")
            got = sorted((a[0], a[1], a[2], a[5], a[6], a[7], a[8], a[9], a[10], a[11])
                         for a in d["detail"])
            self.assertEqual(got, self.window_accesses(5, c0, c1))
            self.assertEqual(d["accesses"], len(got))
            self.assertEqual(len(d["banks"]), 16)
            self.assertEqual(len(d["banks"][0]), 300)

    def test_bank_busy_equals_counters(self):
        """The whole run's bank lanes add up to each bank's busy_ps counter."""
        _, info = self.srv.api("/api/run/3")
        end = -(-info["run"]["end_ps"] // 1000)
        status, d = self.srv.api(f"/api/run/3/timeline?from=0&to={end}&cols=97")
        self.assertEqual(status, 200)
        busy = dict(sql(self.db, "SELECT component, value FROM counters WHERE run_id = 3"
                                 " AND name = 'busy_ps' AND component LIKE 'bank%'"))
        g = d["lanes"]
        for b in range(16):
            got = sum(d["banks"][b]) * g["col_ps"]
            self.assertAlmostEqual(got, busy.get(f"bank{b}", 0), delta=1 + 1e-5 * busy.get(f"bank{b}", 0))

    def test_summary_equals_counters_and_packs(self):
        """A run of more accesses than are decoded each time: the whole run
        comes from the summary, whose lanes add up to each bank's busy_ps and
        each core's waits (core_tasks.sm_wait_ps), as the packs' do."""
        run_id = sql(self.db, "SELECT max(run_id) FROM runs")[0][0]
        n = sql(self.db, "SELECT count(*) FROM sm_accesses WHERE run_id = ?", run_id)[0][0]
        self.assertGreater(n, 100000)
        _, info = self.srv.api(f"/api/run/{run_id}")
        end = -(-info["run"]["end_ps"] // 1000)
        busy = dict(sql(self.db, "SELECT component, value FROM counters WHERE run_id = ?"
                                 " AND name = 'busy_ps' AND component LIKE 'bank%'", run_id))
        wait = dict(sql(self.db, "SELECT core, sum(sm_wait_ps) FROM core_tasks WHERE run_id = ?"
                                 " GROUP BY core", run_id))
        for exact, source in ((0, "summary"), (1, "packs")):
            status, d = self.srv.api(f"/api/run/{run_id}/timeline?cols=600&exact={exact}")
            self.assertEqual((status, d["source"]), (200, source))
            g = d["lanes"]
            if exact == 0:  # whole buckets from the run's start
                self.assertEqual(g["c0_ps"], 0)
                self.assertGreaterEqual(g["col_ps"] * g["cols"], info["run"]["end_ps"])
                self.assertIsNone(d["detail"])
            for b in range(16):
                want = busy.get(f"bank{b}", 0)
                self.assertAlmostEqual(sum(d["banks"][b]) * g["col_ps"], want, delta=1 + 1e-5 * want)
            for c in range(16):
                want = wait.get(c, 0)
                self.assertAlmostEqual(sum(d["waits"][c]) * g["col_ps"], want, delta=1 + 1e-5 * want)
        # a window of a few columns per bucket: decoded from its packs only
        status, d = self.srv.api(f"/api/run/{run_id}/timeline?from={end // 2}&to={end // 2 + 300}&cols=600")
        self.assertEqual((status, d["source"]), (200, "packs"))
        self.assertEqual(d["accesses"], sql(
            self.db, "SELECT count(*) FROM sm_accesses WHERE run_id = ? AND request_ps < ?"
                     " AND done_ps > ?", run_id, (end // 2 + 300) * 1000, end // 2 * 1000)[0][0])

    def test_task_accesses_equal_sql(self):
        status, d = self.srv.api("/api/run/1/task/1/2?from=0&to=59")
        self.assertEqual(status, 200, d)
        got = [tuple(r) for r in d["accesses"]["rows"]]
        want = [tuple(r) for r in sql(self.db, "SELECT idx, sync, op, addr, bank, value, request_ps,"
                                               " arrive_ps, grant_ps, done_ps FROM sm_accesses"
                                               " WHERE run_id = 1 AND frame = 1 AND core = 2"
                                               " AND request_ps < 59000 AND done_ps > 0 ORDER BY idx")]
        self.assertEqual(got, want)
        self.assertEqual(d["accesses"]["total"], len(want))
        has = sql(self.db, "SELECT count(*) FROM sqlite_master WHERE name = 'slot_profile'")[0][0]
        self.assertEqual(d["slot_profile"] is not None, has > 0)

    def test_simt_issue_and_warps(self):
        run_id = sql(self.db, "SELECT run_id FROM runs WHERE level = 'events'")[0][0]
        _, info = self.srv.api(f"/api/run/{run_id}")
        self.assertTrue(info["run"]["simt"])
        self.assertEqual(info["run"]["issue_slots"], 1)
        end = -(-info["run"]["end_ps"] // 1000)
        # the task panel's slots before any timeline of the run (no summary
        # yet, unless another test asked one): decoded from the packs
        self.assertGreater(self.check_warp_slots(run_id, 1, end), 0)
        status, d = self.srv.api(f"/api/run/{run_id}/timeline?from=0&to={end}&cols={end}")
        self.assertEqual(status, 200, d)
        # each issue names its instruction: the slot profile's text of its slot
        issues = sql(self.db, "SELECT i.time_ps, i.frame, p.text FROM simt_issue AS i"
                              " JOIN slot_profile AS p ON p.run_id = i.run_id AND p.frame = i.frame"
                              " AND p.slot = i.slot AND p.core IS NULL"
                              " WHERE i.run_id = ? ORDER BY i.time_ps", run_id)
        self.assertEqual([(i[0], i[1], i[3]) for i in d["issue"]["detail"]], issues)
        self.assertEqual(sum(d["issue"]["count"][0]), len(issues))
        # one column per cycle: the issued warps of each cycle are the issues of that cycle
        issued = d["warps"]["cols"][d["warps"]["states"].index("issued")]
        self.assertAlmostEqual(sum(issued), len(issues), places=3)
        resident = sql(self.db, "SELECT sum(resident_cycles) FROM simt_warps WHERE run_id = ?", run_id)[0][0]
        self.assertAlmostEqual(sum(sum(s) for s in d["warps"]["cols"]), resident, delta=1e-3 * resident)
        # a warp's task: its simt_warps row, its issues and ld/st per slot
        status, t = self.srv.api(f"/api/run/{run_id}/task/1/0?from=0&to={end}")
        self.assertEqual(status, 200, t)
        self.assertEqual(t["warp"]["row"]["warp_instructions"], sql(
            self.db, "SELECT warp_instructions FROM simt_warps WHERE run_id = ? AND frame = 1", run_id)[0][0])
        self.assertEqual([(s["slot"], s["issues"]) for s in t["warp"]["slots"]], sql(
            self.db, "SELECT slot, count(*) FROM simt_issue WHERE run_id = ? AND frame = 1"
                     " GROUP BY slot ORDER BY slot", run_id))
        self.assertEqual(sum(s["mem"] or 0 for s in t["warp"]["slots"]), sql(
            self.db, "SELECT count(*) FROM simt_mem WHERE run_id = ? AND frame = 1", run_id)[0][0])
        self.assertIsNone(self.srv.api("/api/run/1/task/1/0")[1]["warp"])

    def simt_reference(self, run_id, c0, col, n):
        """The warp states and issue counts per column [c0 + k col, c0 + (k+1) col)
        computed here from the simt_issue, simt_mem and simt_warps views."""
        period = 1000

        def add(lane, a, b, w=1.0):
            k = max(0, int((a - c0) // col))
            while k < n and c0 + k * col < b:
                lo, hi = max(a, c0 + k * col), min(b, c0 + (k + 1) * col)
                if hi > lo:
                    lane[k] += w * (hi - lo)
                k += 1
        res, iss, eli, out = ([0.0] * n for _ in range(4))
        count, frame = {}, {}
        end = c0 + n * col
        for s, e in sql(self.db, "SELECT start_ps, end_ps FROM simt_warps WHERE run_id = ?"
                                 " AND start_ps IS NOT NULL", run_id):
            add(res, s, e if e is not None else end)
        for t, f, ord_, el in sql(self.db, "SELECT time_ps, frame, ord, eligible FROM simt_issue"
                                           " WHERE run_id = ? ORDER BY time_ps, ord", run_id):
            if t < c0 or t >= end:
                continue
            add(iss, t, t + period)
            if ord_ == 0 and el:
                add(eli, t, t + period, el)
            k = min(n - 1, int((t - c0) // col))
            count[(ord_, k)] = count.get((ord_, k), 0) + 1
            frame[(ord_, k)] = f
        by_warp = {}
        for f, a, b in sql(self.db, "SELECT frame, issue_ps, done_ps FROM simt_mem WHERE run_id = ?",
                           run_id):
            by_warp.setdefault(f, []).append((a, b if b is not None else end))
        for ivs in by_warp.values():
            ivs.sort()
            a, b = ivs[0]
            for x, y in ivs[1:] + [(None, None)]:
                if x is not None and x <= b:
                    b = max(b, y)
                    continue
                add(out, a, b)
                a, b = x, y
        states = []
        for k in range(n):
            w = [v[k] / col for v in (res, iss, eli, out)]
            waiting = max(0.0, w[0] - w[2])
            mem = min(w[3], waiting)
            states.append([w[1], w[2] - w[1], mem, waiting - mem])
        return states, count, frame

    def check_simt_answer(self, run_id, d):
        w = d["warps"]
        n = len(w["cols"][0])
        # a summary's columns are whole picoseconds; the packs' the window's
        c0, col = ((w["c0_ps"], w["col_ps"]) if w["source"] == "summary"
                   else (d["from_ps"], (d["to_ps"] - d["from_ps"]) / d["cols"]))
        self.assertEqual(type(c0) is int and type(col) is int, w["source"] == "summary")
        states, count, frame = self.simt_reference(run_id, c0, col, n)
        for k in range(n):
            for s in range(4):
                self.assertAlmostEqual(w["cols"][s][k], max(0.0, states[k][s]), delta=1e-4,
                                       msg=f"column {k} state {w['states'][s]}")
        self.assertEqual((d["issue"]["c0_ps"], d["issue"]["col_ps"]), (w["c0_ps"], w["col_ps"]))
        for slot, row in enumerate(d["issue"]["count"]):
            self.assertEqual(row, [count.get((slot, k), 0) for k in range(n)])
            self.assertEqual([f for f, c in zip(d["issue"]["frame"][slot], row) if c],
                             [frame[(slot, k)] for k in range(n) if (slot, k) in frame])

    def check_warp_slots(self, run_id, frame, end):
        """The task panel's slots of a warp equal SQL's aggregates over the views."""
        status, t = self.srv.api(f"/api/run/{run_id}/task/{frame}/0?from=0&to={end}")
        self.assertEqual(status, 200, t)
        want = sql(self.db,
            "WITH m AS (SELECT slot, min(op) AS mem_op, count(*) AS mem, avg(done_ps - issue_ps)"
            "  / (SELECT period_ps FROM runs WHERE run_id = ?1) AS lat, sum(replays) AS replays"
            "  FROM simt_mem WHERE run_id = ?1 AND frame = ?2 GROUP BY slot),"
            " i AS (SELECT slot, min(op) AS op, count(*) AS issues, avg(lanes) AS mean_lanes"
            "  FROM simt_issue WHERE run_id = ?1 AND frame = ?2 GROUP BY slot),"
            " s AS (SELECT slot FROM i UNION SELECT slot FROM m)"
            " SELECT s.slot, coalesce(i.op, m.mem_op), i.issues, i.mean_lanes, m.mem, m.lat,"
            " m.replays FROM s LEFT JOIN i USING (slot) LEFT JOIN m USING (slot) ORDER BY s.slot",
            run_id, frame)
        got = [(r["slot"], r["op"], r["issues"], r["mean_lanes"], r["mem"], r["mean_latency_cycles"],
                r["replays"]) for r in t["warp"]["slots"]]
        self.assertEqual([g[:3] + g[4:5] + g[6:] for g in got], [w[:3] + w[4:5] + w[6:] for w in want])
        for g, w in zip(got, want):
            for k in (3, 5):
                self.assertEqual(g[k] is None, w[k] is None)
                if w[k] is not None:
                    self.assertAlmostEqual(g[k], w[k], delta=1e-5 * abs(w[k]))
        return len(want)

    def test_simt_summary_equals_sql(self):
        """A SIMT run of more issues and ld/st than are decoded every time: the
        whole run comes from its summary (whole buckets), a narrow window from
        its packs only; both equal what the views give, column by column."""
        run_id = sql(self.db, "SELECT max(run_id) FROM runs WHERE level = 'events'")[0][0]
        n = sql(self.db, "SELECT (SELECT count(*) FROM simt_issue WHERE run_id = ?1)"
                         " + (SELECT count(*) FROM simt_mem WHERE run_id = ?1)", run_id)[0][0]
        self.assertGreater(n, 100000)
        _, info = self.srv.api(f"/api/run/{run_id}")
        end = -(-info["run"]["end_ps"] // 1000)
        status, d = self.srv.api(f"/api/run/{run_id}/timeline?cols=300")
        self.assertEqual((status, d["warps"]["source"]), (200, "summary"))
        self.assertEqual(d["warps"]["c0_ps"], 0)
        self.assertGreaterEqual(d["warps"]["col_ps"] * len(d["warps"]["cols"][0]), info["run"]["end_ps"])
        self.assertIsNone(d["issue"]["detail"])
        self.check_simt_answer(run_id, d)
        resident = sql(self.db, "SELECT sum(resident_cycles) FROM simt_warps WHERE run_id = ?", run_id)[0][0]
        col = d["warps"]["col_ps"] / 1000
        self.assertAlmostEqual(sum(sum(s) for s in d["warps"]["cols"]) * col, resident,
                               delta=1e-3 * resident)
        for q in (f"from={end // 3}&to={end // 3 + 400}&cols=400", f"cols=300&exact=1"):
            status, d = self.srv.api(f"/api/run/{run_id}/timeline?{q}")
            self.assertEqual((status, d["warps"]["source"]), (200, "packs"), q)
            self.check_simt_answer(run_id, d)
        # the narrow window's issues one by one, as the view lists them
        status, d = self.srv.api(f"/api/run/{run_id}/timeline?from={end // 3}&to={end // 3 + 400}&cols=400")
        # (each names its instruction: the slot profile's text of its slot)
        want = sql(self.db, "SELECT i.time_ps, i.frame, i.slot, coalesce(p.text, i.op), i.ord"
                            " FROM simt_issue AS i LEFT JOIN slot_profile AS p ON p.run_id = i.run_id"
                            " AND p.frame = i.frame AND p.slot = i.slot AND p.core IS NULL"
                            " WHERE i.run_id = ? AND i.time_ps >= ? AND i.time_ps < ?"
                            " ORDER BY i.time_ps, i.ord", run_id,
                   end // 3 * 1000, (end // 3 + 400) * 1000)
        self.assertGreater(len(want), 0)
        self.assertEqual([tuple(i[:5]) for i in d["issue"]["detail"]], [tuple(r) for r in want])
        # the task panel of each warp, from the summary's slots
        for frame, in sql(self.db, "SELECT frame FROM simt_warps WHERE run_id = ?", run_id):
            self.assertGreater(self.check_warp_slots(run_id, frame, end), 0)

    def test_compare(self):
        status, d = self.srv.api("/api/compare/1/4")
        self.assertEqual(status, 200)
        self.assertEqual([r["run_id"] for r in d["runs"]], [1, 4])
        self.assertEqual(set(d["params"]), {"sm.bank", "sm.arbiter"})
        status, d = self.srv.api("/api/compare/2/2")
        self.assertEqual((status, [r["run_id"] for r in d["runs"]]), (200, [2]))

    def test_level_summary_run(self):
        run_id = sql(self.db, "SELECT run_id FROM runs WHERE level = 'summary'")[0][0]
        status, d = self.srv.api(f"/api/run/{run_id}")
        self.assertEqual(status, 200)
        self.assertEqual(d["tasks"], [])

    def test_pages_and_assets(self):
        for path in ("/", "/run/1", "/compare/1/2"):
            status, ctype, body = self.srv.get(path)
            self.assertEqual(status, 200, path)
            self.assertTrue(ctype.startswith("text/html"))
            self.assertIn(b"/static/main.js", body)
        for name, ctype in (("main.js", "text/javascript"), ("style.css", "text/css")):
            status, got, _ = self.srv.get(f"/static/{name}")
            self.assertEqual(status, 200)
            self.assertTrue(got.startswith(ctype))
        status, _, body = self.srv.get("/static/main.js", method="HEAD")
        self.assertEqual((status, body), (200, b""))

    def test_names_module(self):
        """names.js, the model's names generated by the build (cmake/gen-webnames.c), is
        served and loaded before the scripts that use it; its stall reasons are the
        slot_profile view's stall columns in their order, its keys every model setting the
        runs record, its machines the values they record; and every reason has a label and a
        colour in run.js's TS.STALL_STYLE (a reason added to the model without one fails
        here), which names no reason the model does not have."""
        status, ctype, body = self.srv.get("/static/names.js")
        self.assertEqual(status, 200)
        self.assertTrue(ctype.startswith("text/javascript"))
        names = js_object(body.decode(), "TS.NAMES")
        page = self.srv.get("/")[2].decode()
        for script in ("run.js", "timeline.js"):
            self.assertLess(page.index("/static/common.js"), page.index("/static/names.js"))
            self.assertLess(page.index("/static/names.js"), page.index("/static/" + script))
        columns = [s["column"] for s in names["stalls"]]
        self.assertEqual(columns, [r[0] for r in sql(
            self.db, "SELECT name FROM pragma_table_info('slot_profile')"
                     " WHERE name GLOB 'stall_*_cycles' ORDER BY cid")])
        warps = {r[0] for r in sql(self.db, "SELECT name FROM pragma_table_info('simt_warps')")}
        self.assertLessEqual(set(columns), warps)
        recorded = {r[0] for r in sql(self.db, "SELECT DISTINCT key FROM params")}
        self.assertLessEqual({k for k in recorded if not k.startswith(("record.", "sim."))},
                             set(names["keys"].values()))
        self.assertEqual({r[0] for r in sql(self.db, "SELECT DISTINCT value FROM params"
                                                     " WHERE key = ?", names["keys"]["model"])},
                         set(names["models"].values()))
        self.assertIn("stack", names["reconvergences"].values())
        style = js_object(self.srv.get("/static/run.js")[2].decode(), "TS.STALL_STYLE")
        for s in names["stalls"]:
            self.assertIn(s["name"], style, "run.js's TS.STALL_STYLE has no label and colour "
                                            "for the stall reason %r" % s["name"])
            label, colour = style[s["name"]]
            self.assertTrue(label)
            self.assertRegex(colour, "^#[0-9a-f]{6}$")
        self.assertEqual(set(style) - {s["name"] for s in names["stalls"]}, set())

    # --- hostile requests -----------------------------------------------------------

    def test_path_traversal(self):
        for path in ("/../../../../etc/passwd", "/static/../../../etc/passwd",
                     "/static/%2e%2e/%2e%2e/etc/passwd", "/static/..%2f..%2fCMakeLists.txt",
                     "//etc/passwd", "/static//etc/passwd", "/static/", "/static",
                     "/etc/passwd", "/run/1/../../etc/passwd", "/run/abc", "/run/1x",
                     "/compare/1", "/compare/1/2/3", "/static/main.js%00.html",
                     "/api/../static/main.js", "/CMakeLists.txt", "/tests/view/test_view.py"):
            status, _, body = self.srv.get(path)
            self.assertEqual(status, 404, path)
            self.assertNotIn(b"root:", body)

    def test_bad_ids_and_windows(self):
        cases = {
            "/api/run/0": 400, "/api/run/abc": 400, "/api/run/-1": 400, "/api/run/1.5": 400,
            "/api/run/999999999999999999999": 400, "/api/run/99999": 404,
            "/api/run/99999/timeline": 404, "/api/compare/1/99999": 404, "/api/compare/x/1": 400,
            "/api/run/1/timeline?from=50&to=10": 400, "/api/run/1/timeline?from=5&to=5": 400,
            "/api/run/1/timeline?from=0&to=99999999999": 400,
            "/api/run/1/timeline?from=-5&to=10": 400, "/api/run/1/timeline?from=1e3": 400,
            "/api/run/1/timeline?from=0x10": 400, "/api/run/1/timeline?cols=0": 400,
            "/api/run/1/timeline?cols=100000": 400, "/api/run/1/timeline?cols=abc": 400,
            "/api/run/1/timeline?exact=2": 400,
            "/api/run/1/task/64/0": 400, "/api/run/1/task/1/16": 400, "/api/run/1/task/9/9": 404,
            "/api/run/1/task/a/b": 400, "/api/nope": 404, "/api/run/1/nope": 404,
            "/api/run/1/timeline/x": 404, "/api/" + "x/" * 200: 404, "/api": 404,
        }
        for path, want in cases.items():
            status, ctype, body = self.srv.get(path)
            self.assertEqual(status, want, path)
            self.assertEqual(ctype, "application/json", path)
            self.assertIn("error", json.loads(body), path)

    def test_oversized_and_malformed(self):
        # a header of 100 KB, a URL of 1 MB: refused, not read into memory
        line = self.srv.raw(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 100000 + b"\r\n\r\n")
        self.assertRegex(line, r"^(HTTP/1\.1 4\d\d .*|)$")
        line = self.srv.raw(b"GET /" + b"a" * 1000000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.assertRegex(line, r"^(HTTP/1\.1 4\d\d .*|)$")
        for junk in (b"GARBAGE\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
                     b"GET / HTTP/1.1\r\nHost\r\n\r\n"):
            self.assertRegex(self.srv.raw(junk), r"^(HTTP/1\.1 [45]\d\d .*|)$", junk[:20])
        # binary junk: libmicrohttpd waits for a request line until the
        # connection's timeout; meanwhile the others are served
        self.assertEqual(self.srv.raw(b"\x00\xff\x13\x37" * 100 + b"\r\n\r\n", timeout=1), "")
        status, _, _ = self.srv.get("/api/runs", method="POST", body=b"x" * 5000)
        self.assertIn(status, (405, 413))
        for method in ("PUT", "DELETE", "OPTIONS", "TRACE"):
            status, _, _ = self.srv.get("/", method=method)
            self.assertEqual(status, 405, method)
        status, _, _ = self.srv.get("/api/runs", headers={"Host": "evil.example:80"})
        self.assertEqual(status, 421)
        # still serving
        self.assertEqual(self.srv.get("/api/runs")[0], 200)

    def test_many_clients(self):
        errors = []

        def client(k):
            for j in range(8):
                path = ("/api/runs", "/api/run/1", f"/api/run/{1 + (k + j) % 4}/timeline?cols=200",
                        "/static/timeline.js")[j % 4]
                try:
                    status, _, _ = self.srv.get(path)
                    if status != 200:
                        errors.append((path, status))
                except OSError as e:
                    errors.append((path, str(e)))
        threads = [threading.Thread(target=client, args=(k,)) for k in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])


class FilesTest(unittest.TestCase):
    """Databases being written, missing, corrupt, of an older version; options."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="tessera-view-")
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_missing_corrupt_foreign_newer(self):
        r = run("view", self.path("absent.db"), "--port", "0")
        self.assertEqual(r.returncode, 5, r.stderr)
        self.assertIn("absent.db", r.stderr)
        r = run("view", self.dir, "--port", "0")
        self.assertEqual(r.returncode, 5, r.stderr)
        with open(self.path("junk.db"), "wb") as f:
            f.write(os.urandom(8192))
        r = run("view", self.path("junk.db"), "--port", "0")
        self.assertEqual(r.returncode, 6, r.stderr)
        with sqlite3.connect(self.path("foreign.db")) as h:
            h.execute("CREATE TABLE runs(x)")
        r = run("view", self.path("foreign.db"), "--port", "0")
        self.assertEqual(r.returncode, 6, r.stderr)
        self.assertIn("not a Tessera database", r.stderr)
        with sqlite3.connect(self.path("newer.db")) as h:
            h.execute("PRAGMA application_id = 1413829459")
            h.execute("PRAGMA user_version = 999")
            h.execute("CREATE TABLE runs(x)")
        r = run("view", self.path("newer.db"), "--port", "0")
        self.assertEqual(r.returncode, 6, r.stderr)

    def test_options(self):
        db = self.path("one.db")
        self.assertEqual(run("run", "examples/example1.s", "--db", db, "--quiet").returncode, 0)
        r = run("view", db, "--bind", "not-an-address", "--port", "0")
        self.assertEqual(r.returncode, 1, r.stderr)
        r = run("view", db, "--port", "70000")
        self.assertEqual(r.returncode, 1, r.stderr)
        r = run("view", db, "--port", "x")
        self.assertEqual(r.returncode, 1, r.stderr)
        s = Server(db)
        try:
            r = run("view", db, "--port", str(s.port))  # in use
            self.assertEqual(r.returncode, 5, r.stderr)
            self.assertIn("cannot listen", r.stderr)
        finally:
            s.stop()
        s = Server(db, "--bind", "0.0.0.0")
        try:
            self.assertEqual(s.get("/api/runs", headers={"Host": "example.org"})[0], 200)
        finally:
            code, err = s.stop(signal.SIGTERM)
        self.assertEqual(code, 0)
        self.assertIn("warning: listening on 0.0.0.0", err)
        self.assertIn("stopped (SIGTERM)", err)

    def test_database_being_written(self):
        """A sweep adds runs while the page is served: every answer is whole,
        and the new runs appear; the server never writes."""
        db = self.path("live.db")
        self.assertEqual(run("run", "examples/example1.s", "--db", db, "--quiet").returncode, 0)
        s = Server(db)
        try:
            writer = subprocess.Popen([EXE, "sweep", "examples/matmul.s", "-s",
                                       "sm.bank=1,2,3,4,5,6", "-s", "sm.arbiter=fixed,rr",
                                       "--db", db, "-j", "2"], cwd=TREE,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            seen = set()
            while writer.poll() is None:
                status, d = s.api("/api/runs")
                self.assertEqual(status, 200, d)
                seen.add(len(d["runs"]))
                if d["runs"]:
                    last = d["runs"][-1]["run_id"]
                    self.assertEqual(s.api(f"/api/run/{last}")[0], 200)
            self.assertEqual(writer.wait(), 0, writer.stderr.read())
            status, d = s.api("/api/runs")
            self.assertEqual(len(d["runs"]), 13)
            self.assertEqual(s.api("/api/run/13/timeline?cols=50")[0], 200)
        finally:
            code, err = s.stop()
        self.assertEqual(code, 0, err)

    def test_file_removed_or_corrupted_while_served(self):
        """The file goes away, or is overwritten with junk, under the server:
        each request says so (5xx, JSON), and it serves again once the file is back."""
        db = self.path("moving.db")
        self.assertEqual(run("run", "examples/example1.s", "--db", db, "--quiet").returncode, 0)
        s = Server(db)
        try:
            self.assertEqual(s.api("/api/run/1")[0], 200)
            os.rename(db, db + ".away")
            for path in ("/api/runs", "/api/run/1", "/api/run/1/timeline?cols=10"):
                status, d = s.api(path)
                self.assertGreaterEqual(status, 500, path)
                self.assertIn("moving.db", d["error"])
            self.assertEqual(s.get("/")[0], 200)  # the pages themselves are compiled in
            with open(db, "wb") as f:
                f.write(b"SQLite format 3\0" + os.urandom(4096))
            status, d = s.api("/api/run/1")
            self.assertGreaterEqual(status, 500)
            os.replace(db + ".away", db)
            self.assertEqual(s.api("/api/run/1")[0], 200)
        finally:
            code, err = s.stop()
        self.assertEqual(code, 0, err)

    def test_every_schema_version(self):
        """A file of every older schema version `report` reads (1 to the one
        before the current) answers as the current one: the same tasks, frames,
        stalls, timeline (banks, waits, accesses one by one; a SIMT run's issue
        port and warp states from version 6 on, when the SIMT tables came) and
        task panel (its accesses; a warp's row and slots) — read through the
        views the server makes for the old file, not migrated."""
        db = self.path("current.db")
        for args in (["examples/matmul.s", "-s", "record.level=events"],
                     ["examples/simt_diverge.s", "-s", "core.model=simt", "-s",
                      "record.level=events"]):
            self.assertEqual(run("run", *args, "--db", db, "--quiet").returncode, 0)
        version = sql(db, "PRAGMA user_version")[0][0]
        end = {r: -(-e // p) for r, e, p in sql(db, "SELECT run_id, end_ps, period_ps FROM runs")}
        paths = {}
        for run_id in (1, 2):
            paths[f"/api/run/{run_id}"] = ("tasks", "frames", "stalls")
            paths[f"/api/run/{run_id}/timeline?cols={end[run_id]}"] = (
                "banks", "waits", "accesses", "detail", "issue", "warps")
            paths[f"/api/run/{run_id}/task/1/0"] = ("task", "accesses", "warp")
        s = Server(db)
        try:
            want = {p: s.api(p) for p in list(paths) + ["/api/runs", "/api/compare/1/2"]}
        finally:
            s.stop()
        for p, (status, d) in want.items():
            self.assertEqual(status, 200, (p, d))
        self.assertIsNotNone(want[f"/api/run/2/timeline?cols={end[2]}"][1]["warps"])
        for v in range(1, version):
            old = self.path(f"v{v}.db")
            shutil.copy(db, old)
            downgrade(old, v)
            self.assertEqual(sql(old, "PRAGMA user_version")[0][0], v)
            s = Server(old)
            try:
                got = {p: s.api(p) for p in want}
            finally:
                code, err = s.stop()
            self.assertEqual(code, 0, err)
            for p, (status, d) in got.items():
                self.assertEqual(status, 200, (v, p, d))
            for p, keys in paths.items():
                simt = p.startswith("/api/run/2")
                for k in keys:
                    if simt and v < 6 and k in ("issue", "warps", "warp"):
                        continue  # no SIMT tables before version 6: drawn as a MIMD run's
                    g, w = got[p][1].get(k), want[p][1].get(k)
                    if v < 14 and k in ("issue", "detail"):
                        # no slot profile before 14: an issue names its op, not
                        # the instruction's text
                        g, w = op_names_only(g), op_names_only(w)
                    self.assertEqual(g, w, (v, p, k))
            self.assertEqual([r["run_id"] for r in got["/api/runs"][1]["runs"]], [1, 2], v)
            self.assertEqual(got["/api/compare/1/2"][1]["runs"][0]["end_cycles"],
                             want["/api/compare/1/2"][1]["runs"][0]["end_cycles"], v)
            # the slot profile: in files of version 14 on (older ones have none to show;
            # the current file's is shown)
            for run_id in (1, 2):
                prof = got[f"/api/run/{run_id}/task/1/0"][1]["slot_profile"]
                self.assertTrue(prof is None if v < 14 else len(prof) > 0, (v, run_id))
                self.assertTrue(want[f"/api/run/{run_id}/task/1/0"][1]["slot_profile"])
            os.remove(old)

    def test_sigint_during_requests(self):
        """SIGINT while clients are being answered: exit 0 within the timeout."""
        db = self.path("busy.db")
        self.assertEqual(run("run", "examples/matmul4.s", "--db", db, "--quiet").returncode, 0)
        s = Server(db)
        stop = threading.Event()

        def client():
            while not stop.is_set():
                try:
                    s.get("/api/run/1/timeline?cols=4000&exact=1")
                except OSError:
                    pass
        threads = [threading.Thread(target=client) for _ in range(6)]
        for t in threads:
            t.start()
        time.sleep(0.5)
        code, err = s.stop()
        stop.set()
        for t in threads:
            t.join()
        self.assertEqual(code, 0, err)


if __name__ == "__main__":
    unittest.main()

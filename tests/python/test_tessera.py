"""test_tessera.py — the Python binding (python/tessera) against the command:
same end time and same database rows for the examples under several
configurations, the exceptions of bad keys, values, programs and paths,
KeyboardInterrupt mid-run (an `interrupted` run, integrity_check ok, in the
main thread and in another thread), a sweep from Python and from the command,
and examples/study.py producing its PNG. Run by ctest (test `python`) with
TESSERA_LIB and TESSERA_EXE set to the build's library and command."""
import ctypes
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

TREE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TREE, "python"))
import tessera  # noqa: E402
from tessera import _lib  # noqa: E402
from tessera.run import Result  # noqa: E402

EXE = os.path.abspath(_lib.command())

# every table row by row, without the wall-clock columns (scripts/determinism.sh)
DUMP = [
    "SELECT run_id, program, program_sha256, data_sha256, config, status, error, end_ps,"
    " events, version, level, period_ps, from_ps, to_ps, stop_ps FROM runs ORDER BY run_id",
    "SELECT *, typeof(value) FROM params ORDER BY run_id, key",
    "SELECT * FROM counters ORDER BY run_id, component, name",
    "SELECT * FROM frames ORDER BY run_id, frame",
    "SELECT * FROM stalls ORDER BY run_id, frame, from_ps, reason",
    "SELECT * FROM core_tasks ORDER BY run_id, frame, core",
    "SELECT * FROM sm_accesses ORDER BY run_id, frame, core, idx",
    "SELECT * FROM events ORDER BY run_id, seq",
]


def dump(path):
    with sqlite3.connect(path) as db:
        return [list(db.execute(sql)) for sql in DUMP]


def command(*args):
    return subprocess.run([EXE] + list(args), cwd=TREE, capture_output=True, text=True)


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="tessera-py-")
        self.dir = self.tmp.name
        self.cwd = os.getcwd()
        os.chdir(TREE)  # program paths as the command is given them (runs.program)

    def tearDown(self):
        os.chdir(self.cwd)
        self.tmp.cleanup()

    def db(self, name):
        return os.path.join(self.dir, name)


class SameAsCommand(Base):
    """Python and the command record the same rows and end times."""

    CASES = [
        ("examples/example2.s", {}, None),
        ("examples/histogram.s", {"sm.atomics": "on", "sm.arbiter": "rr"}, None),
        ("examples/transpose.s", {"sm.bank_map": "interleaved", "sm.bank": 2}, None),
        ("examples/matmul.s", {}, "config/slow-memory.ini"),
        ("examples/lock.s", {"sm.atomics": "on", "sm.arbiter": "random", "sim.seed": 7,
                             "sm.bank": "uniform:1..3", "sm.req": "choice:1,1,4"}, None),
        ("examples/stages.s", {"sm.atomics": "on", "ts.policy": "lookahead",
                               "core.timing": "stepped", "record.level": "events"}, None),
    ]

    def test_rows_and_end_times(self):
        py, cmd = self.db("py.db"), self.db("cmd.db")
        for prog, params, config in self.CASES:
            with self.subTest(prog=prog, params=params, config=config):
                r = tessera.run(prog, config=config, db=py, params=params)
                args = ["run", prog, "--db", cmd, "--quiet"]
                for k, v in params.items():
                    args += ["-s", "%s=%s" % (k, v)]
                if config:
                    args += ["--config", config]
                done = command(*args)
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertEqual(r.status, "ok")
                self.assertEqual(r.code, 0)
                with sqlite3.connect(cmd) as db:
                    end_ps, stop_ps, run_id = db.execute(
                        "SELECT end_ps, stop_ps, run_id FROM runs ORDER BY run_id DESC").fetchone()
                self.assertEqual((r.end_ps, r.stop_ps, r.run_id), (end_ps, stop_ps, run_id))
                self.assertGreater(r.end_ps, 0)
        self.assertEqual(dump(py), dump(cmd))

    def test_keywords_equal_params(self):
        a = tessera.run("examples/transpose.s", sm_bank_map="interleaved", sm_arbiter="rr")
        b = tessera.run("examples/transpose.s",
                        params={"sm.bank_map": "interleaved", "sm.arbiter": "rr"})
        c = tessera.run("examples/transpose.s")
        self.assertEqual(a.counters(), b.counters())
        self.assertEqual(a.end_ps, b.end_ps)
        self.assertNotEqual(a.counters()["sm_conflicts"], c.counters()["sm_conflicts"])

    def test_source_text_equals_file(self):
        with open("examples/example2.s") as f:
            text = f.read()
        a = tessera.run(text, db=self.db("src.db"), name="example2")
        b = tessera.run("examples/example2.s")
        self.assertEqual((a.end_ps, a.counters()), (b.end_ps, b.counters()))
        rows = tessera.Database(self.db("src.db")).rows("runs")
        self.assertEqual(rows[0]["program"], "example2")

    def test_limit_is_a_result_not_an_exception(self):
        r = tessera.run("examples/example2.s", sim_time_limit=50)
        self.assertEqual((r.status, r.code, r.stop_ps), ("time_limit", 4, 50000))
        with self.assertRaises(tessera.RunError) as e:
            tessera.run("examples/example2.s", sim_time_limit=50, check=True)
        self.assertEqual(e.exception.code, 4)
        self.assertEqual(e.exception.result.status, "time_limit")


class Errors(Base):
    """Bad keys, values, programs and paths raise with the project's message
    and exit code, and create no database."""

    def expect(self, cls, code, pieces, **kw):
        db = self.db("never.db")
        with self.assertRaises(cls) as e:
            tessera.run(kw.pop("program", "examples/example2.s"), db=db, **kw)
        self.assertEqual(e.exception.code, code)
        for piece in pieces:
            self.assertIn(piece, e.exception.message)
        self.assertFalse(os.path.exists(db))
        return e.exception

    def test_bad_key(self):
        self.expect(tessera.InputError, 2, ["sm.nope", "unknown key"], params={"sm.nope": 1})
        self.expect(tessera.InputError, 2, ["nosuch.key"], nosuch_key=1)

    def test_bad_value(self):
        self.expect(tessera.InputError, 2, ["sm.arbiter", "'lottery'"], sm_arbiter="lottery")
        self.expect(tessera.InputError, 2, ["sm.bank"], params={"sm.bank": -3})

    def test_keyword_without_section(self):
        with self.assertRaises(tessera.UsageError) as e:
            tessera.run("examples/example2.s", arbiter="rr")
        self.assertIn("section_key", e.exception.message)

    def test_bad_program_names_its_line(self):
        with open("examples/first.s") as f:
            src = f.read() + "\n  frobnicate r1, r2\n"
        line = src.count("\n")  # the last line
        e = self.expect(tessera.InputError, 2, ["prog.s:%d:" % line], program=src,
                        name="prog.s")
        self.assertIn("frobnicate", e.message)

    def test_missing_paths(self):
        self.expect(tessera.FileError, 5, ["nosuch.s"], program="examples/nosuch.s")
        self.expect(tessera.FileError, 5, ["nosuch.ini"], config="nosuch.ini")
        self.expect(tessera.FileError, 5, ["nosuch.mem"], mem="nosuch.mem")

    def test_unwritable_database(self):
        with self.assertRaises(tessera.TesseraError) as e:
            tessera.run("examples/example2.s", db=os.path.join(self.dir, "no", "dir", "x.db"))
        self.assertIn(e.exception.code, (5, 6))

    def test_database_errors(self):
        with self.assertRaises(tessera.FileError):
            tessera.Database(self.db("missing.db"))
        tessera.run("examples/example2.s", db=self.db("ok.db"))
        d = tessera.Database(self.db("ok.db"))
        with self.assertRaises(tessera.UsageError):
            d.rows("no_such_view")
        with self.assertRaises(tessera.UsageError):
            d.rows("run_summary", no_column=1)


class ExitCodes(unittest.TestCase):
    """The binding's codes are err.h's: the module the build generated from
    TESS_ERRORS (tessera.errors.codes) holds every entry of the list with its
    value and name, and each exception class carries its code."""

    def test_codes_are_err_h(self):
        import re
        with open(os.path.join(TREE, "events", "base", "err.h")) as f:
            text = f.read()
        listed = re.findall(r'X\((\w+), (\d+), "([^"]*)"', text)
        self.assertGreaterEqual(len(listed), 10)
        codes = tessera.errors.codes
        for ident, value, name in listed:
            self.assertEqual(getattr(codes, ident), int(value), ident)
            self.assertEqual(codes.NAMES[int(value)], name)
        self.assertEqual(len(codes.NAMES), len(listed))

    def test_statuses_are_db_h(self):
        import re
        with open(os.path.join(TREE, "analysis", "store", "db.h")) as f:
            text = f.read()
        # a name is a literal, or one of the literals SQL selects on (DB_STATUS_OK_NAME, …)
        literal = dict(re.findall(r'#define (DB_STATUS_\w+_NAME) "(\w+)"', text))
        listed = [(ident, literal.get(name, name.strip('"'))) for ident, name in
                  re.findall(r'X\((\w+), ("\w+"|DB_STATUS_\w+_NAME), "',
                             text[text.index("#define DB_STATUSES"):])]
        self.assertGreaterEqual(len(listed), 9)
        codes = tessera.errors.codes
        self.assertEqual(codes.STATUSES, tuple(name for _, name in listed))
        for ident, name in listed:
            self.assertEqual(getattr(codes, "STATUS_" + ident), name)

    def test_each_exception_has_its_code(self):
        codes, errors = tessera.errors.codes, tessera.errors
        for cls, code in ((errors.UsageError, codes.EUSAGE), (errors.InputError, codes.EINPUT),
                          (errors.FileError, codes.EIO), (errors.DatabaseError, codes.EDB),
                          (errors.OutOfMemory, codes.ENOMEM)):
            self.assertEqual(cls("m").code, code)
            self.assertIs(type(errors.error_for("m", code)), cls)
        self.assertIs(type(errors.error_for("m", codes.EWATCHDOG)), errors.TesseraError)


class Structs(Base):
    """The ctypes Structures are laid out from the build's description of the
    C structs (_codes.STRUCTS, cmake/gen-pycodes.c): every struct described
    has its class, field for field at the compiler's offsets; a description
    ctypes cannot follow (a field placed elsewhere, a function pointer without
    a prototype, a _codes.py of an older build) is refused at import; a Result
    carries every field of tessera_counters_t."""

    def test_every_struct_laid_out(self):
        from tessera import _structs, policy  # noqa: F401 -- policy lays out its structs
        codes = tessera.errors.codes
        self.assertGreaterEqual(len(codes.STRUCTS), 7)
        for ctype, (size, fields) in codes.STRUCTS.items():
            cls = _structs._declared[ctype]
            self.assertEqual(ctypes.sizeof(cls), size, ctype)
            self.assertEqual([(name, getattr(cls, name).offset, getattr(cls, name).size)
                              for name, _ in cls._fields_],
                             [(name, offset, n) for name, offset, n, _ in fields], ctype)

    def test_unlike_the_compiler_is_refused(self):
        from unittest import mock
        from tessera import _structs
        codes = tessera.errors.codes
        for fields, why in (((("a", 0, 4, "u"), ("b", 4, 8, "u")), "unlike the compiler"),
                            ((("a", 0, 8, "u"), ("f", 8, 8, "fn")), "without a prototype"),
                            ((("a", 0, 8, "x"),), "no ctypes type")):
            with mock.patch.dict(codes.STRUCTS, {"fake_t": (16, fields)}):
                with self.assertRaisesRegex(ImportError, why):
                    _structs.structure("Fake", "fake_t")
        with mock.patch.object(codes, "STRUCTS", {}):
            with self.assertRaisesRegex(ImportError, "older build; rebuild"):
                _structs.structure("Fake", "tessera_counters_t")

    def test_result_has_every_counter(self):
        from tessera import _structs
        r = tessera.run("examples/example1.s")
        names = [name for name, _ in _structs.Counters._fields_]
        self.assertIn("sm_conflict_ps", names)
        for name in names:
            self.assertTrue(hasattr(r, name), name)
        self.assertEqual(list(r.counters()), [n for n in names if n in Result.COUNTERS])
        self.assertEqual(set(names) - set(r.counters()),
                         {"period_ps", "end_ps", "now_ps", "stop_ps", "wall_s", "run_id"})
        self.assertGreater(r.counters()["events"], 0)
        self.assertIsNone(r.run_id)


class HostileRoundTwo(Base):
    """Issue 26: what passed through the binding silently."""

    def expect(self, cls, code, pieces, **kw):
        return Errors.expect(self, cls, code, pieces, **kw)

    def test_nul_bytes_are_refused(self):
        with open("examples/first.s") as f:
            src = f.read()
        cut = src.index("\n", len(src) // 3)  # a NUL at the start of a line in the middle
        self.expect(tessera.InputError, 2, ["NUL"], program=src[:cut + 1] + "\0" + src[cut + 1:])
        self.expect(tessera.InputError, 2, ["sm.bank", "NUL"], params={"sm.bank": "2\0junk"})
        self.expect(tessera.InputError, 2, ["NUL"], sm_arbiter="rr\0x")
        self.expect(tessera.InputError, 2, ["config", "NUL"], config="x.ini\0y")

    def test_database_thrown_away_is_refused(self):
        for db in ("", ":memory:"):
            with self.subTest(db=db):
                before = sorted(os.listdir("."))
                with self.assertRaises(tessera.UsageError) as e:
                    tessera.run("examples/first.s", db=db)
                self.assertEqual(e.exception.code, 1)
                self.assertEqual(sorted(os.listdir(".")), before)
        with self.assertRaises(tessera.UsageError):
            tessera.sweep("examples/first.s", {"sm.bank": [1, 2]}, db="")

    def test_database_path_is_a_file_name(self):
        tessera.run("examples/first.s", db=self.db("a.db"))
        tessera.run("examples/first.s", db=self.db("%61b.db"), sm_bank=2)
        # percent signs, '?' and '#' are the file's, not URI syntax
        with self.assertRaises(tessera.FileError):
            tessera.Database(self.db("%61.db"))
        with tessera.Database(self.db("%61b.db")) as d:
            self.assertEqual([r["value"] for r in d.query(
                "SELECT value FROM params WHERE key = 'sm.bank'")], [2])
        odd = self.db("q?x#y.db")
        os.rename(self.db("a.db"), odd)
        with tessera.Database(odd) as d:
            self.assertEqual(len(d.rows("runs")), 1)
        with tessera.Database("/" + odd) as d:  # //abs/path: a path, not a URI authority
            self.assertEqual(len(d.rows("runs")), 1)
        # closing leaves no -wal/-shm that were not there (as the C readers)
        self.assertEqual(sorted(n for n in os.listdir(self.dir) if n.endswith(("-wal", "-shm"))),
                         [])


class Interrupt(Base):
    """SIGINT mid-run stops between events and keeps what was recorded."""

    PACED = {"sim.pace": 1e8}  # 0.1 wall s per cycle: example2 would take ~16 s

    def check_db(self, db):
        d = tessera.Database(db)
        self.assertEqual(d.integrity(), "ok")
        runs = d.rows("runs")
        self.assertEqual([r["status"] for r in runs], ["interrupted"])
        self.assertIn("signal 2", runs[0]["error"])
        self.assertGreater(runs[0]["stop_ps"], 0)
        self.assertLess(runs[0]["stop_ps"], 157000)

    def test_keyboard_interrupt_main_thread(self):
        db = self.db("int.db")
        threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
        t0 = time.monotonic()
        with self.assertRaises(KeyboardInterrupt) as e:
            tessera.run("examples/example2.s", db=db, params=self.PACED)
        self.assertLess(time.monotonic() - t0, 8)
        self.assertIsInstance(e.exception, tessera.Interrupted)
        r = e.exception.result
        self.assertEqual((r.status, r.code), ("interrupted", 4))
        self.assertTrue(0 < r.stop_ps < 157000)
        self.check_db(db)

    def test_run_in_a_thread_leaves_signals_to_the_interpreter(self):
        db, box = self.db("thread.db"), {}
        worker = threading.Thread(target=lambda: box.update(
            r=tessera.run("examples/example2.s", db=db, params=self.PACED)))
        worker.start()
        time.sleep(1.0)
        t0 = time.monotonic()
        with self.assertRaises(KeyboardInterrupt):  # delivered while the run goes on
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(100):
                time.sleep(0.05)
        self.assertLess(time.monotonic() - t0, 3)
        worker.join(10)
        self.assertFalse(worker.is_alive())
        self.assertEqual(box["r"].status, "interrupted")
        self.check_db(db)


class Sweeps(Base):
    def test_sweep_equals_command(self):
        axes = {"sm.arbiter": ["fixed", "rr"], "sm.bank": [1, 2],
                "sm.req": ["1", "choice:1,1,4"]}
        r = tessera.sweep("examples/transpose.s", axes, jobs=2, db=self.db("py.db"),
                          sim_seed=3)
        self.assertEqual((r.code, r.points), (0, 8))
        done = command("sweep", "examples/transpose.s", "-s", "sm.arbiter=fixed,rr",
                       "-s", "sm.bank=1,2", "-s", "sm.req=1;choice:1,1,4",
                       "-s", "sim.seed=3", "--jobs", "2", "--db", self.db("cmd.db"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(dump(self.db("py.db")), dump(self.db("cmd.db")))
        rows = r.database().rows("run_summary")
        self.assertEqual([(x["arbiter"], x["sm_bank"]) for x in rows][:4],
                         [("fixed", 1), ("fixed", 1), ("fixed", 2), ("fixed", 2)])

    def test_sweep_resumes(self):
        axes = {"sm.arbiter": ["fixed", "rr"]}
        db = self.db("resume.db")
        self.assertEqual(tessera.sweep("examples/example2.s", axes, db=db).code, 0)
        again = tessera.sweep("examples/example2.s", axes, db=db)
        self.assertIn("2 already ok in", again.output)
        self.assertEqual(len(again.database().rows("runs")), 2)
        forced = tessera.sweep("examples/example2.s", axes, db=db, rerun=True)
        self.assertEqual(len(forced.database().rows("runs")), 4)

    def test_sweep_bad_axis(self):
        with self.assertRaises(tessera.InputError) as e:
            tessera.sweep("examples/transpose.s", {"sm.arbiter": ["fixed", "lottery"]},
                          db=self.db("bad.db"))
        self.assertIn("lottery", e.exception.message)


class Frames(Base):
    def test_typed_frame(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas not installed (python3-pandas)")
        tessera.run("examples/example2.s", db=self.db("f.db"))
        tessera.run("examples/example2.s", db=self.db("f.db"), sm_arbiter="rr")
        f = tessera.Database(self.db("f.db")).frame("run_summary")
        self.assertEqual(len(f), 2)
        self.assertEqual(str(f["end_ps"].dtype), "int64")
        self.assertEqual(str(f["mean_parallelism"].dtype), "float64")
        self.assertEqual(list(f["arbiter"]), ["fixed", "rr"])
        self.assertEqual(str(f["error"].dtype), "object")


POLICIES = os.path.join(os.path.dirname(EXE), "examples", "policies")


def lowest(call):
    """fixed as a Python callable: the lowest requester waiting."""
    return min(r.requester for r in call.requests)


def xor(addr, banks):
    """xor as a Python callable."""
    k = banks.bit_length() - 1
    return (addr ^ (addr >> k)) & (banks - 1)


def gto(call):
    """gto as a Python callable: last cycle's warps first, then oldest first."""
    slots = [w.slot for w in call.warps]
    order = [slots.index(s) for s in call.last if s in slots]
    rest = sorted((i for i in range(len(call.warps)) if i not in order),
                  key=lambda i: call.warps[i].age_ps)
    return order + rest


def without_policy(rows, key):
    """A dump without what names the policy of `key` (its value, its plugin
    name and hash in params, its line and comment in runs.config)."""
    section, name = key.split(".")
    runs = [tuple("\n".join(l for l in str(v).split("\n")
                            if not l.startswith(name + " = ") and
                            not l.startswith("; " + name + ":")) if i == 4 else v
                  for i, v in enumerate(r)) for r in rows[0]]
    params = [r for r in rows[1] if not r[1].startswith(key)]
    return [runs, params] + rows[2:]


class Policies(Base):
    """A Python callable decides as the C plugin of the same policy does."""

    def same_rows(self, key, fn, plugin, program, **kw):
        for timing in ("decoupled", "stepped"):
            a, b = self.db("c-%s.db" % timing), self.db("py-%s.db" % timing)
            base = dict(kw, record_level="events", core_timing=timing)
            tessera.run(program, db=a, params={key: "plugin:" + os.path.join(
                POLICIES, plugin + ".so")}, **base).check()
            tessera.run(program, db=b, params={key: fn}, **base).check()
            da, db = without_policy(dump(a), key), without_policy(dump(b), key)
            self.assertGreater(len(da[6]) + len(da[7]), 100)
            self.assertEqual(da, db)
            with sqlite3.connect(b) as conn:
                self.assertEqual(conn.execute(
                    "SELECT value FROM params WHERE key = ?", (key,)).fetchone()[0],
                    "python:" + fn.__qualname__)

    def test_arbiter_callable_equals_plugin(self):
        self.same_rows("sm.arbiter", lowest, "fixed", "examples/histogram.s",
                       sm_bank_map="interleaved")

    def test_bank_map_callable_equals_plugin(self):
        self.same_rows("sm.bank_map", xor, "xor", "examples/histogram.s", sm_banks=8)

    def test_scheduler_callable_equals_plugin(self):
        self.same_rows("simt.scheduler", gto, "gto", "examples/simt_memory.s",
                       core_model="simt", simt_issue_width=2)

    def test_exception_ends_the_run_and_is_raised_again(self):
        def boom(call):
            if call.cycle >= 20:
                raise ValueError("no choice at %d" % call.cycle)
            return call.requests[0].requester
        path = self.db("boom.db")
        with self.assertRaises(ValueError) as cm:
            tessera.run("examples/histogram.s", db=path, sm_arbiter=boom)
        self.assertIn("no choice at", str(cm.exception))
        result = cm.exception.tessera_result
        self.assertEqual(result.status, "error")
        self.assertRegex(result.message, r"^plugin boom \(sm\.arbiter\): arbitrate at cycle "
                         r"\d+: python:.*boom raised ValueError: no choice at \d+$")
        with sqlite3.connect(path) as conn:
            self.assertEqual(conn.execute("PRAGMA integrity_check").fetchone()[0], "ok")
            self.assertEqual(conn.execute("SELECT status FROM runs").fetchone()[0], "error")
            self.assertGreater(conn.execute("SELECT count(*) FROM sm_accesses").fetchone()[0], 0)

    def test_callable_reads_its_params_and_stream(self):
        seen = []

        def favour(call):
            seen.append(call.host.param("core"))
            ids = [r.requester for r in call.requests]
            return 3 if 3 in ids else ids[call.host.random_below(len(ids))]
        favour.params = ["core"]
        runs = [tessera.run("examples/histogram.s", params={
            "sm.arbiter": favour, "plugin.favour.core": 3}).end_ps for _ in range(2)]
        self.assertEqual(runs[0], runs[1])  # the stream is seeded by sim.seed
        self.assertEqual(set(seen), {"3"})
        with self.assertRaises(tessera.InputError) as cm:
            tessera.run("examples/histogram.s", params={"sm.arbiter": favour,
                                                        "plugin.favour.other": 1})
        self.assertIn("reads no such parameter (it reads: core)", str(cm.exception))

    def test_not_a_policy_key(self):
        with self.assertRaisesRegex(tessera.UsageError, r"sm\.bank does not take a Python "
                                    r"callable \(sm\.arbiter, sm\.bank_map, simt\.scheduler\)"):
            tessera.run("examples/first.s", sm_bank=lowest)


class Study(Base):
    def test_study_script_makes_its_png(self):
        try:
            import matplotlib  # noqa: F401
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas/matplotlib not installed")
        png = self.db("study.png")
        env = dict(os.environ, TESSERA_EXE=os.path.abspath(EXE))
        if os.environ.get("TESSERA_LIB"):
            env["TESSERA_LIB"] = _lib._env("TESSERA_LIB")
        done = subprocess.run([sys.executable, "examples/study.py", png, self.db("s.db")],
                              cwd=TREE, capture_output=True, text=True, env=env)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertGreater(os.path.getsize(png), 10000)
        self.assertIn("rr", done.stdout)


if __name__ == "__main__":
    unittest.main()

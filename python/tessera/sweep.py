"""sweep.py — a parameter sweep from Python through the `tessera sweep`
command itself: its plan (config/sweep.h) and its process runner
(cli/sweep_run.c, launching, reaping, merging shards) live in the command,
so the rows are the command's by construction, with no second copy of the
value-list grammar or of the product order."""
import os
import subprocess
import tempfile

from . import _lib
from .database import Database
from .errors import CALL_FAILURES, Interrupted, UsageError, error_for
from .program import is_program
from .run import assignments, key_of, value_text


class SweepResult:
    """db: the merged database; code: the command's exit code (0: every point
    ok; see `tessera sweep --help`); output: what the command printed;
    points: the number of points. database() opens the merged database."""

    def __init__(self, db, code, output, points):
        self.db, self.code, self.output, self.points = db, code, output, points

    def database(self):
        return Database(self.db)

    def __repr__(self):
        return "<tessera.SweepResult %s: %d points, exit code %d>" % (
            self.db, self.points, self.code)


def axis_arg(key, values):
    """One -s argument: key=v1,v2,... (values joined with ';' when one holds a
    comma, e.g. a choice: latency, as the command's grammar reads them)."""
    if isinstance(values, (str, bytes, int, float, bool)):
        values = [values]
    texts = [value_text(v) for v in values]
    if not texts:
        raise UsageError("sweep axis %s: no values" % key)
    sep = ";" if any("," in t for t in texts) else ","
    if any(";" in t for t in texts):
        raise UsageError("sweep axis %s: a value holds ';'" % key)
    return "%s=%s" % (key, sep.join(texts))


def command_line(program, axes, db, mem=None, config=None, jobs=None, params=None,
                 keywords=None, rerun=False):
    """argv of the `tessera sweep` that sweep() runs (the first axis varies slowest)."""
    argv = [_lib.command(), "sweep", os.fspath(program)]
    for key, values in (axes or {}).items():
        argv += ["-s", axis_arg(key if "." in key else key_of(key), values)]
    for a in assignments(params, keywords or {}):
        argv += ["-s", a]
    if mem is not None:
        argv += ["--mem", os.fspath(mem)]
    if config is not None:
        argv += ["--config", os.fspath(config)]
    if jobs is not None:
        argv += ["--jobs", str(int(jobs))]
    if rerun:
        argv += ["--rerun"]
    return argv + ["--db", os.fspath(db)]


def sweep(program, axes, jobs=None, db=None, mem=None, config=None, params=None,
          check=True, rerun=False, **keywords):
    """Runs every point of the axes ({"sm.arbiter": ["fixed", "rr"], "sm.bank":
    [1, 2]}) with `jobs` processes (None: one per CPU) into the database `db`,
    exactly as `tessera sweep PROG -s key=v1,v2 ... --jobs N --db DB`; params and
    keywords fix further keys for every point. program is a path, assembly
    text or a tessera.Program (recorded under its name, as run() does). A point `db` already holds with status ok is not run again (the
    command's resume) unless rerun=True. Returns a SweepResult; raises the TesseraError of the command's exit
    code with its message (check=False returns failed points' code instead),
    Interrupted on KeyboardInterrupt (the command keeps the points done)."""
    if db is None:
        raise UsageError("sweep: db= is required (the merged database)")
    if is_program(program):
        return _sweep_program(program, axes, jobs, db, mem, config, params, check, rerun,
                              keywords)
    tmp = None
    if isinstance(program, str) and "\n" in program:
        fd, tmp = tempfile.mkstemp(suffix=".s", prefix="tessera-sweep-")
        with os.fdopen(fd, "w") as f:
            f.write(program)
        program = tmp
    try:
        argv = command_line(program, axes, db, mem, config, jobs, params, keywords, rerun)
        return _execute(argv, db, axes, check, None)
    finally:
        if tmp:
            os.unlink(tmp)


def _execute(argv, db, axes, check, cwd):
    """Runs the command line of a sweep (in `cwd`) and judges its exit code."""
    points = 1
    for values in (axes or {}).values():
        points *= 1 if isinstance(values, (str, bytes, int, float, bool)) else len(values)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=cwd)
    try:
        out, err = proc.communicate()
    except KeyboardInterrupt:      # the command got SIGINT too: it finishes up
        out, err = proc.communicate()
        raise Interrupted(SweepResult(os.fspath(db), proc.returncode, out + err, points))
    result = SweepResult(os.fspath(db), proc.returncode, out + err, points)
    if proc.returncode and (check or proc.returncode in CALL_FAILURES):
        lines = [l for l in err.splitlines() if l.strip()]
        if len(lines) > 6:  # every failed point has a line: the first few, the summary
            lines = lines[:5] + ["... (%d more lines)" % (len(lines) - 6), lines[-1]]
        raise error_for("\n".join(lines) or "tessera sweep failed", proc.returncode)
    return result


def _sweep_program(program, axes, jobs, db, mem, config, params, check, rerun, keywords):
    """sweep() of a Program: its source written as NAME in a scratch directory
    the command runs in, so that runs.program is the Program's name."""
    name = os.path.basename(program.name) or "program.s"
    path = lambda v: os.path.abspath(os.fspath(v)) if v is not None else None
    with tempfile.TemporaryDirectory(prefix="tessera-sweep-") as d:
        program.save(os.path.join(d, name))
        argv = command_line(name, axes, path(db), path(mem), path(config), jobs, params,
                            keywords, rerun)
        argv[0] = os.path.abspath(argv[0]) if os.sep in argv[0] else argv[0]
        return _execute(argv, path(db), axes, check, d)

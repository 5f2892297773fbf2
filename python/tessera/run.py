"""run.py — one simulation from Python through the run API (api/tessera.h):
the same calls as `tessera run` (tessera_config_cli, tessera_load,
tessera_record, tessera_run), so the same rows and end time. The run is
simulated in a helper thread with the GIL released; the caller waits and
turns KeyboardInterrupt into tessera_stop between two events."""
import ctypes
import os
import signal
import tempfile
import threading

from . import _lib
from . import _structs
from . import policy
from .errors import InputError, Interrupted, RunError, UsageError, codes, error_for
from .program import is_program

_active = set()                 # handles of the runs under way (for SIGINT)
_active_lock = threading.Lock()


class Result:
    """The outcome of a run: status (runs.status, one of tessera.errors.codes.STATUSES:
    "ok", "watchdog", "interrupted", "time_limit", …), code (the command's exit code),
    message (why it did not end ok, else ""), the times in ps (end_ps: the last
    READY; stop_ps: where it stopped; now_ps; period_ps), the summary counters,
    run_id and db when recorded, wall_s: every field of tessera_counters_t."""

    # the summary counters: tessera_counters_t's whole numbers but the times and the run's id
    COUNTERS = tuple(name for name, t in _structs.Counters._fields_
                     if t is not ctypes.c_double and name not in (
                         "period_ps", "end_ps", "now_ps", "stop_ps", "run_id"))

    def __init__(self, status, code, message, c, db):
        self.status, self.code, self.message, self.db = status, code, message, db
        for name, t in c._fields_:
            value = getattr(c, name)
            setattr(self, name, float(value) if t is ctypes.c_double else int(value))
        self.run_id = self.run_id or None

    @property
    def ok(self):
        return self.status == codes.STATUS_OK

    @property
    def end_cycles(self):
        return self.end_ps // self.period_ps if self.period_ps else 0

    def counters(self):
        """The summary counters as a dict."""
        return {name: getattr(self, name) for name in self.COUNTERS}

    def check(self):
        """Returns self when the run ended ok, else raises RunError."""
        if self.code:
            raise RunError(self.message or self.status, self.code, self)
        return self

    def __repr__(self):
        rid = ", run_id=%d" % self.run_id if self.run_id else ""
        return "<tessera.Result %s end_ps=%d stop_ps=%d instructions=%d%s>" % (
            self.status, self.end_ps, self.stop_ps, self.instructions, rid)


def key_of(keyword):
    """The configuration key of a keyword argument: the first '_' separates the
    section (sections have none), e.g. sm_bank_map -> "sm.bank_map"."""
    section, sep, key = keyword.partition("_")
    if not sep or not key:
        raise UsageError("keyword %r is not a configuration key: write section_key "
                         "(sm_arbiter for sm.arbiter) or pass params={...}" % keyword)
    return section + "." + key


def value_text(value):
    """A Python value as the configuration's text: booleans as true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def settings(params, keywords):
    """The (key, value) pairs of a params dict then keyword arguments, in order."""
    return list((params or {}).items()) + [(key_of(k), v) for k, v in keywords.items()]


def assignments(params, keywords):
    """The "key=value" list of a params dict then keyword arguments, in order
    (callables aside: they are policies, see policy.py)."""
    return ["%s=%s" % (key, value_text(value)) for key, value in settings(params, keywords)
            if not callable(value)]


def _no_nul(what, text):
    """C strings end at a NUL byte: text past one would be dropped silently
    (a program cut short, a value read as its prefix), so one is refused."""
    if text is not None and ("\0" in text if isinstance(text, str) else b"\0" in text):
        raise InputError("%s: holds a NUL byte (\\0); the library would read only what "
                         "comes before it" % what)
    return text


def _path(what, value):
    """A path argument as the library takes it (bytes), NUL-checked."""
    return None if value is None else _no_nul(what, os.fsencode(value))


def _is_source(program):
    return isinstance(program, str) and "\n" in program


def _check(lib, h, rc):
    if rc:
        raise error_for(lib.tessera_errmsg(h).decode(errors="replace"), rc)


def _simulate(lib, h):
    """tessera_run in a helper thread; KeyboardInterrupt stops it between two
    events (returns True when interrupted that way)."""
    box, done = {}, threading.Event()

    def work():
        try:
            box["rc"] = lib.tessera_run(h, 0)
        finally:
            done.set()

    worker = threading.Thread(target=work, name="tessera-run", daemon=True)
    interrupted = False
    with _active_lock:
        _active.add(h)
    try:
        worker.start()
        while not done.is_set():
            try:
                done.wait(0.05)
            except KeyboardInterrupt:
                lib.tessera_stop(h, signal.SIGINT)
                interrupted = True
    finally:
        with _active_lock:
            _active.discard(h)
    worker.join()
    return box.get("rc", 4), interrupted


def run(program, mem=None, config=None, db=None, params=None, *, name="<string>",
        check=False, **keywords):
    """Simulates `program` (a path, assembly text: a str with a newline, or a
    tessera.Program, named by its name) with
    the SM image `mem` (a path, optional), the INI file `config`, then the
    assignments of `params` ({"sm.arbiter": "rr"}) and keyword arguments
    (sm_arbiter="rr"), recorded into the database `db` when given. A Python
    callable as the value of sm.arbiter, sm.bank_map or simt.scheduler decides
    in place of the built-in (policy.py); an exception it raises ends the run
    with status error and is raised again here (its tessera_result attribute
    holds the Result). Returns a
    Result; raises InputError/FileError/DatabaseError/... (TesseraError: the
    library's message and exit code) when the run cannot start, RunError when
    check=True and it did not end ok, and Interrupted (a KeyboardInterrupt
    carrying the Result) when interrupted, after the recorded run is committed."""
    if is_program(program):  # a tessera.Program: its text, under its name
        program, name = program.source(), program.name if name == "<string>" else name
    sets = [_no_nul(s.partition("=")[0], s) for s in assignments(params, keywords)]
    if _is_source(program):
        _no_nul(name, program)
    bound = {key: policy.Binding(key, value) for key, value in settings(params, keywords)
             if callable(value)}
    lib = _lib.lib()
    h = lib.tessera_new()
    if not h:
        raise error_for("out of memory", codes.ENOMEM)
    tmp = None
    try:
        argv = (ctypes.c_char_p * max(len(sets), 1))(*[s.encode() for s in sets])
        _check(lib, h, lib.tessera_config_cli(
            h, _path("config", config), argv, len(sets)))
        for key, b in bound.items():
            _check(lib, h, lib.tessera_set_policy(h, key.encode(), ctypes.addressof(b.desc),
                                                  b.label.encode()))
        memb = _path("mem", mem)
        if _is_source(program) and mem is None:
            _check(lib, h, lib.tessera_load_source(h, program.encode(), name.encode()))
        else:
            if _is_source(program):  # an image needs the file loader
                fd, tmp = tempfile.mkstemp(suffix=".s", prefix="tessera-")
                with os.fdopen(fd, "w") as f:
                    f.write(program)
                program = tmp
            _check(lib, h, lib.tessera_load(h, _path("program", program), memb))
        if db is not None:
            _check(lib, h, lib.tessera_record(h, _path("db", db)))
        rc, interrupted = _simulate(lib, h)
        status = lib.tessera_status(h).decode()
        if not status:      # failed before the first event (configuration, database)
            _check(lib, h, rc)
        c = _structs.Counters()
        lib.tessera_counters(h, ctypes.byref(c))
        result = Result(status, rc, lib.tessera_outcome_msg(h).decode(errors="replace"),
                        c, os.fspath(db) if db is not None else None)
        if rc and status == codes.STATUS_OK:  # the commit failed after an ok simulation
            _check(lib, h, rc)
        for b in bound.values():
            if b.error is not None:  # the callable's own exception, after the commit
                b.error.tessera_result = result
                raise b.error
        if interrupted and status == codes.STATUS_INTERRUPTED:
            raise Interrupted(result)
        return result.check() if check else result
    finally:
        lib.tessera_free(h)
        if tmp:
            os.unlink(tmp)


def stop_all(sig=signal.SIGINT):
    """Asks every run under way (in any thread) to stop between two events."""
    lib = _lib.lib()
    with _active_lock:
        for h in _active:
            lib.tessera_stop(h, sig)

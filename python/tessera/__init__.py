"""tessera — Python face of the Tessera GPU model over the run API
(api/tessera.h, libtessera.so through ctypes): run() one simulation, sweep()
a parameter product through `tessera sweep`, Database() the statistics as
lists of dicts or pandas DataFrames, Program() a program built in Python. docs/USER-GUIDE.md, "Python"."""
import signal
import threading

from .database import Database
from .program import Group, Program
from .errors import (DatabaseError, FileError, InputError, Interrupted, OutOfMemory,
                     RunError, TesseraError, UsageError)
from .run import Result, run, stop_all
from .sweep import SweepResult, sweep

__all__ = ["run", "sweep", "Database", "Result", "SweepResult", "stop_all", "Program", "Group",
           "TesseraError", "UsageError", "InputError", "RunError", "FileError",
           "DatabaseError", "OutOfMemory", "Interrupted"]


def _on_sigint(sig, frame):
    """SIGINT stops every run under way (a run in another thread too) between
    two events, then raises KeyboardInterrupt in the main thread as before."""
    stop_all(sig)
    signal.default_int_handler(sig, frame)


# Installed only over Python's own default handler, from the main thread.
if (threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
    signal.signal(signal.SIGINT, _on_sigint)

"""errors.py — the exceptions of the binding: one per exit code of the
command (`tessera --help`), each carrying the library's message and code."""


class TesseraError(Exception):
    """A failure of the library or the command: .message is the project's own
    message (naming the file and line, or the key), .code the exit code the
    command would have returned (events/base/err.h)."""

    def __init__(self, message, code):
        super().__init__(message)
        self.message, self.code = message, code

    def __str__(self):
        return "%s (exit code %d)" % (self.message, self.code)


class UsageError(TesseraError, ValueError):
    """Exit code 1: a bad call (an unknown keyword, a malformed axis)."""


class InputError(TesseraError, ValueError):
    """Exit code 2: a rejected program, memory image or configuration."""


class RunError(TesseraError):
    """A simulated run that did not end "ok" (watchdog 3, interrupted by a limit 4,
    deadlock 8), raised by run(..., check=True) and Result.check(); .result is
    the Result."""

    def __init__(self, message, code, result):
        super().__init__(message, code)
        self.result = result


class FileError(TesseraError, OSError):
    """Exit code 5: a file could not be read or written."""


class DatabaseError(TesseraError):
    """Exit code 6: the statistics database failed."""


class OutOfMemory(TesseraError, MemoryError):
    """Exit code 7."""


class Interrupted(KeyboardInterrupt):
    """KeyboardInterrupt during a run: the simulation stopped between two events
    and what it recorded is kept (status "interrupted"); .result is the Result."""

    def __init__(self, result):
        super().__init__("interrupted: %s" % (result.message or result.status))
        self.result = result


_BY_CODE = {1: UsageError, 2: InputError, 5: FileError, 6: DatabaseError, 7: OutOfMemory}


def error_for(message, code):
    """The exception for a failure with this exit code."""
    return _BY_CODE.get(code, TesseraError)(message, code)

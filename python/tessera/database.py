"""database.py — a statistics database (docs/SCHEMA.md) from Python: the
shipped views and tables as lists of dicts, or as pandas DataFrames (when
pandas is installed) whose columns are typed as SQLite typed the values."""
import os
import sqlite3
import urllib.parse

from .errors import FileError, UsageError


def _ident(name):
    return '"%s"' % name.replace('"', '""')


def _writable(path):
    """Can this process write the file and its directory (as db.c's writable())?"""
    return os.access(path, os.W_OK) and os.access(os.path.dirname(os.path.abspath(path)),
                                                 os.W_OK)


def _uri(path):
    """The URI that opens `path` as a file name, whatever its characters (a
    '%', '?', '#' or a leading '//' is the file's, not URI syntax), chosen as
    the C readers choose it (analysis/store/db.c, db_read_uri): read-write
    with query_only where this process may write — SQLite then removes the
    -wal and -shm it made when the connection closes — else read-only
    through an existing -wal, else immutable."""
    absolute = os.path.abspath(path)
    if _writable(path):
        mode = "mode=rw"
    elif os.path.exists(path + "-wal") or os.path.exists(path + "-shm"):
        mode = "mode=ro"
    else:
        mode = "mode=ro&immutable=1"
    # "file://" + an empty authority, then the absolute path, every byte but
    # the unreserved ones and '/' percent-encoded
    return "file://%s?%s" % (urllib.parse.quote(os.fsencode(absolute), safe="/"), mode)


class Database:
    """Database(path): an existing statistics database, opened read-only.
    rows(view, **equal) -> list of dicts; frame(view, **equal) -> DataFrame;
    query(sql, args) / query_frame(sql, args) for your own SQL; views() and
    tables() name what is there; integrity() runs PRAGMA integrity_check."""

    def __init__(self, path):
        self.path = os.fspath(path)
        if isinstance(self.path, bytes):
            self.path = os.fsdecode(self.path)
        if "\0" in self.path:
            raise FileError("%r: a path holds no NUL byte" % self.path)
        if not os.path.isfile(self.path):
            raise FileError("%s: no such database" % self.path)
        self._db = sqlite3.connect(_uri(self.path), uri=True)
        if _writable(self.path):  # as the C readers (db_read_uri): no -wal/-shm left
            self._db.execute("PRAGMA query_only=1")

    def close(self):
        self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _names(self, kind):
        cur = self._db.execute("SELECT name FROM sqlite_master WHERE type = ? "
                               "AND name NOT LIKE 'sqlite_%' ORDER BY name", (kind,))
        return [r[0] for r in cur]

    def views(self):
        """The names of the analysis views (run_summary, bank_conflicts, ...)."""
        return self._names("view")

    def tables(self):
        """The names of the tables (runs, params, counters, ...)."""
        return self._names("table")

    def columns(self, name):
        return [r[1] for r in self._db.execute("PRAGMA table_info(%s)" % _ident(name))]

    def _select(self, name, equal):
        if name not in self.views() and name not in self.tables():
            raise UsageError("%s: no view or table %r (views: %s)" % (
                self.path, name, ", ".join(self.views())))
        cols = self.columns(name)
        for col in equal:
            if col not in cols:
                raise UsageError("%s has no column %r (columns: %s)" % (
                    name, col, ", ".join(cols)))
        sql = "SELECT * FROM " + _ident(name)
        if equal:
            sql += " WHERE " + " AND ".join("%s IS ?" % _ident(c) for c in equal)
        return sql, tuple(equal.values())

    def query(self, sql, args=()):
        """The rows of any SELECT as a list of dicts (column -> value)."""
        cur = self._db.execute(sql, args)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row)) for row in cur]

    def rows(self, name, **equal):
        """The rows of a view or table as dicts, optionally those whose columns
        equal the keyword arguments (rows("run_summary", arbiter="rr"))."""
        return self.query(*self._select(name, equal))

    def query_frame(self, sql, args=()):
        """A SELECT as a pandas DataFrame: a column of integers is int64 (Int64
        when it has NULLs), of reals float64, of text object."""
        try:
            import pandas as pd
        except ImportError:
            raise UsageError("DataFrames need pandas (Debian: python3-pandas); "
                             "rows() gives lists of dicts without it") from None
        cur = self._db.execute(sql, args)
        names = [d[0] for d in cur.description]
        data = cur.fetchall()
        frame = pd.DataFrame.from_records(data, columns=names)
        for i, col in enumerate(names):
            values = [r[i] for r in data if r[i] is not None]
            nulls = len(values) < len(data)
            if values and all(isinstance(v, int) for v in values):
                frame[col] = frame[col].astype("Int64" if nulls else "int64")
            elif values and all(isinstance(v, (int, float)) for v in values):
                frame[col] = frame[col].astype("float64")
        return frame

    def frame(self, name, **equal):
        """A view or table as a DataFrame (see query_frame)."""
        return self.query_frame(*self._select(name, equal))

    def integrity(self):
        """PRAGMA integrity_check: "ok" for a sound file."""
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]

    def __repr__(self):
        return "<tessera.Database %s>" % self.path

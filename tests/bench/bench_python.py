"""bench_python.py — the cost of calling Tessera from Python (docs/PERFORMANCE.md,
"Python binding"): 1000 tiny runs (examples/example2.s, sim.seed=1..1000) as a
Python loop over tessera.run with and without a database, as tessera.sweep, and
as the command's `tessera sweep --jobs 1`; medians of 3 repetitions.
Usage, from the source tree: /usr/bin/python3 tests/bench/bench_python.py"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, "python")
import tessera  # noqa: E402
from tessera import _lib  # noqa: E402

N, PROG, EXE = 1000, "examples/example2.s", _lib.command()
SEEDS = list(range(1, N + 1))


def loop_db(db):
    for s in SEEDS:
        tessera.run(PROG, db=db, sim_seed=s)


def loop_nodb(db):
    for s in SEEDS:
        tessera.run(PROG, sim_seed=s)


def py_sweep(db):
    tessera.sweep(PROG, {"sim.seed": SEEDS}, jobs=1, db=db)


def cmd_sweep(db):
    subprocess.run([EXE, "sweep", PROG, "-s", "sim.seed=" + ",".join(map(str, SEEDS)),
                    "--jobs", "1", "--db", db], check=True, capture_output=True)


CASES = [("tessera.run loop, db=", loop_db), ("tessera.run loop, no db", loop_nodb),
         ("tessera.sweep(jobs=1)", py_sweep), ("tessera sweep --jobs 1", cmd_sweep)]
times = {name: [] for name, _ in CASES}
for rep in range(3):
    for name, fn in CASES:
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            fn(os.path.join(d, "x.db"))
            times[name].append(time.perf_counter() - t0)
for name, ts in times.items():
    print("%-26s median %6.2f s  (%s)" % (name, statistics.median(ts),
                                          ", ".join("%.2f" % t for t in ts)))
print("load average", "%.1f %.1f %.1f" % os.getloadavg())

"""bench_view.py — the speed of `tessera view` on a large run (docs/PERFORMANCE.md):
the run page's requests (the page, its scripts, /api/run/N, the whole run's
timeline) and each zoom step's timeline request, timed at the HTTP client,
with the server's CPU time (/proc) beside them. Medians of REPS rounds.

  python3 tests/bench/bench_view.py TESSERA [--db DB] [--simt] [--run N] [--reps N]

Without --db, the database is made first if it is not there yet:
examples/bench.s (12.6 M SM accesses at the default level mem; --simt: on
the SIMT unit) into bench[-simt].db in the current directory. The build's
target `bench_view` runs both (cmake --build build --target bench_view).

Each round starts a server: 'cold' is the run page opened at once — its
time from the server's start (the command run, its address printed) to
the last answer of the page's requests, and the server's CPU time by then
(the summary's pass included: the server builds the newest runs' summaries
as it starts, and the page waits for it); 'warm' the page opened again;
a task's panel (the run's first task: its accesses, a SIMT warp's slots);
then 12 zoom steps (x0.5 about the middle of the window, as the page's Zoom
in) and 6 pan steps (a quarter of the window) at the deepest zoom, at 1194
columns as the page asks."""
import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import time

COLS = 1194
ASSETS = ["/static/style.css", "/static/common.js", "/static/timeline.js", "/static/runs.js",
          "/static/run.js", "/static/compare.js", "/static/main.js"]
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    def __init__(self, port):
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def get(self, path):
        self.c.request("GET", path)
        r = self.c.getresponse()
        body = r.read()
        if r.status != 200:
            raise SystemExit(f"{path}: HTTP {r.status}: {body[:200]!r}")
        return body


def page(cl, run):
    """The run page's requests, as the browser makes them: the run's
    answer (its end, its first task) from its own request."""
    cl.get(f"/run/{run}")
    for a in ASSETS:
        cl.get(a)
    info = json.loads(cl.get(f"/api/run/{run}"))
    end = -(-info["run"]["end_ps"] // info["run"]["period_ps"])
    cl.get(f"/api/run/{run}/timeline?from=0&to={end}&cols={COLS}")
    return end, info["tasks"][0][0], info["tasks"][0][1]


def one_round(tessera, db, run):
    t0 = time.monotonic()
    p = subprocess.Popen([tessera, "view", db, "--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    port = int(p.stdout.readline().split("http://")[1].split("/")[0].rsplit(":", 1)[1])
    cl = Client(port)
    end, frame, core = page(cl, run)
    cold = time.monotonic() - t0
    cold_cpu = cpu(p.pid)  # since the start: the summary's pass included
    time.sleep(0.5)
    c0, t0 = cpu(p.pid), time.monotonic()
    page(cl, run)
    warm, warm_cpu = time.monotonic() - t0, cpu(p.pid) - c0
    t0 = time.monotonic()
    cl.get(f"/api/run/{run}/task/{frame}/{core}?from=0&to={min(end, 1000)}")
    task = time.monotonic() - t0
    steps, pans = [], []
    lo, hi = 0, end
    c0 = cpu(p.pid)
    for _ in range(12):
        mid, span = (lo + hi) / 2, max(1, (hi - lo) // 2)
        lo, hi = int(mid - span / 2), int(mid - span / 2) + span
        t0 = time.monotonic()
        cl.get(f"/api/run/{run}/timeline?from={lo}&to={hi}&cols={COLS}")
        steps.append(time.monotonic() - t0)
    for _ in range(6):
        q = max(1, (hi - lo) // 4)
        lo, hi = lo + q, hi + q
        t0 = time.monotonic()
        cl.get(f"/api/run/{run}/timeline?from={lo}&to={hi}&cols={COLS}")
        pans.append(time.monotonic() - t0)
    step_cpu = (cpu(p.pid) - c0) / 18
    p.send_signal(signal.SIGINT)
    p.wait(timeout=60)
    return cold, cold_cpu, warm, warm_cpu, steps, pans, step_cpu, task


def make_db(tessera, db, simt):
    """examples/bench.s recorded at the default level into db."""
    if os.path.exists(db):
        return
    cmd = [tessera, "run", os.path.join(SOURCE, "examples", "bench.s"), "--db", db, "--quiet"]
    if simt:
        cmd += ["-s", "core.model=simt"]
    print("making", db, "(", " ".join(cmd), ")", flush=True)
    subprocess.run(cmd, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tessera")
    ap.add_argument("--db", help="the database (default: bench.db or bench-simt.db, made"
                                 " here when missing)")
    ap.add_argument("--simt", action="store_true", help="bench.s on the SIMT unit")
    ap.add_argument("--run", type=int, default=1)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    db = a.db
    if not db:
        db = "bench-simt.db" if a.simt else "bench.db"
        make_db(a.tessera, db, a.simt)
    rounds = [one_round(a.tessera, db, a.run) for _ in range(a.reps)]
    med = statistics.median
    print(f"{db} run {a.run}: load {os.getloadavg()[0]:.1f}; {a.reps} rounds;"
          " medians (min-max)")
    for name, k in (("run page, cold, from start", 0), ("  server CPU by then", 1),
                    ("run page, warm", 2), ("  server CPU", 3), ("a task clicked", 7),
                    ("zoom/pan step server CPU", 6)):
        v = [r[k] for r in rounds]
        print(f"{name:28} {med(v) * 1000:7.0f} ms  ({min(v) * 1000:.0f}-{max(v) * 1000:.0f})")
    steps = [[r[4][j] for r in rounds] for j in range(12)]
    print("zoom steps (each step's median, ms):",
          " ".join(f"{med(s) * 1000:.0f}" for s in steps))
    allsteps = [x for r in rounds for x in r[4] + r[5]]
    print(f"{'every zoom and pan step':28} {med(allsteps) * 1000:7.0f} ms median,"
          f" {max(allsteps) * 1000:.0f} ms worst of {len(allsteps)}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

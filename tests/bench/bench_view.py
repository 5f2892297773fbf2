"""bench_view.py — the speed of `tessera view` on a large run (docs/PERFORMANCE.md):
the run page's requests (the page, its scripts, /api/run/N, the whole run's
timeline) and each zoom step's timeline request, timed at the HTTP client,
with the server's CPU time (/proc) beside them. Medians of REPS rounds.

  python3 tests/bench/bench_view.py TESSERA DB [RUN] [REPS]

Each round starts a server: 'cold' is the page opened at once (the run's
summary built by that request or by the warm-up in progress; its CPU time
is the server's since it started, the warm-up's included), 'warm' the
page opened again once the warm-up is done; a task's panel (the run's first
task: its accesses, a SIMT warp's slots); then 12 zoom steps (x0.5 about
the middle of the window, as the page's Zoom in) and 6 pan steps (a quarter
of the window) at the deepest zoom, at 1194 columns as the page asks."""
import http.client
import os
import signal
import statistics
import subprocess
import sys
import time

TESSERA, DB = sys.argv[1], sys.argv[2]
RUN = int(sys.argv[3]) if len(sys.argv) > 3 else 1
REPS = int(sys.argv[4]) if len(sys.argv) > 4 else 5
COLS = 1194
ASSETS = ["/static/style.css", "/static/common.js", "/static/timeline.js", "/static/runs.js",
          "/static/run.js", "/static/compare.js", "/static/main.js"]


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


def page(cl, end):
    """The run page's requests, as the browser makes them; seconds."""
    t0 = time.monotonic()
    cl.get(f"/run/{RUN}")
    for a in ASSETS:
        cl.get(a)
    cl.get(f"/api/run/{RUN}")
    cl.get(f"/api/run/{RUN}/timeline?from=0&to={end}&cols={COLS}")
    return time.monotonic() - t0


def one_round():
    p = subprocess.Popen([TESSERA, "view", DB, "--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    port = int(p.stdout.readline().split("http://")[1].split("/")[0].rsplit(":", 1)[1])
    cl = Client(port)
    import json
    run = json.loads(cl.get(f"/api/run/{RUN}"))
    info = run["run"]
    end = -(-info["end_ps"] // info["period_ps"])
    frame, core = run["tasks"][0][0], run["tasks"][0][1]
    cold = page(cl, end)
    cold_cpu = cpu(p.pid)  # since the start: the warm-up's share included
    time.sleep(0.5)
    c0 = cpu(p.pid)
    warm = page(cl, end)
    warm_cpu = cpu(p.pid) - c0
    t0 = time.monotonic()
    cl.get(f"/api/run/{RUN}/task/{frame}/{core}?from=0&to={min(end, 1000)}")
    task = time.monotonic() - t0
    steps, pans = [], []
    lo, hi = 0, end
    c0 = cpu(p.pid)
    for _ in range(12):
        mid, span = (lo + hi) / 2, max(1, (hi - lo) // 2)
        lo, hi = int(mid - span / 2), int(mid - span / 2) + span
        t0 = time.monotonic()
        cl.get(f"/api/run/{RUN}/timeline?from={lo}&to={hi}&cols={COLS}")
        steps.append(time.monotonic() - t0)
    for _ in range(6):
        q = max(1, (hi - lo) // 4)
        lo, hi = lo + q, hi + q
        t0 = time.monotonic()
        cl.get(f"/api/run/{RUN}/timeline?from={lo}&to={hi}&cols={COLS}")
        pans.append(time.monotonic() - t0)
    step_cpu = (cpu(p.pid) - c0) / 18
    p.send_signal(signal.SIGINT)
    p.wait(timeout=60)
    return cold, cold_cpu, warm, warm_cpu, steps, pans, step_cpu, task


def main():
    rounds = [one_round() for _ in range(REPS)]
    med = statistics.median
    print(f"load {os.getloadavg()[0]:.1f}; {REPS} rounds; medians (min-max)")
    for name, k in (("run page, cold", 0), ("  server CPU", 1), ("run page, warm", 2),
                    ("  server CPU", 3), ("a task clicked", 7), ("zoom/pan step server CPU", 6)):
        v = [r[k] for r in rounds]
        print(f"{name:28} {med(v) * 1000:7.0f} ms  ({min(v) * 1000:.0f}-{max(v) * 1000:.0f})")
    steps = [[r[4][j] for r in rounds] for j in range(12)]
    print("zoom steps (each step's median, ms):",
          " ".join(f"{med(s) * 1000:.0f}" for s in steps))
    allsteps = [x for r in rounds for x in r[4] + r[5]]
    print(f"{'every zoom and pan step':28} {med(allsteps) * 1000:7.0f} ms median,"
          f" {max(allsteps) * 1000:.0f} ms worst of {len(allsteps)}")


if __name__ == "__main__":
    main()

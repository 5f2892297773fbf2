#!/bin/sh
# bench_pipe.sh — what the SIMT pipeline (SIMT-SPEC S11–S13) costs the host:
# callgrind's instruction counts of examples/bench.s under core.model=simt
# with every pipeline key at its default, and with the front end, collectors
# and narrow units on (the configuration bench_model's last line and
# docs/PERFORMANCE.md use), and their ratio (issue 21 asks for at most 2).
# Callgrind counts are exact, so one run of each is the figure. Prints one
# line: default=N pipeline=N ratio=R; exit 1 when valgrind is missing or a
# run fails. Usage: tests/bench/bench_pipe.sh [TESSERA] (default build/tessera)
set -eu
cd "$(dirname "$0")/../.."
t=${1:-build/tessera}
command -v valgrind >/dev/null || { echo "bench_pipe: valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() { # tessera run ARGS...: callgrind's instruction count (Ir) of the run
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$t" run examples/bench.s \
        --no-db --quiet -s core.model=simt "$@" 2>"$tmp/log" >/dev/null
    sed -n 's/^==[0-9]*== Collected : //p' "$tmp/log"
}

default=$(count)
pipeline=$(count -s simt.ibuffer=2 -s simt.collectors=4 -s simt.sp_width=8 -s simt.sfu_width=4 \
    -s simt.lsu_width=8)
[ -n "$default" ] && [ -n "$pipeline" ] || { echo "bench_pipe: a run failed" >&2; exit 1; }
echo "$default $pipeline" | awk '{ printf "default=%.0f pipeline=%.0f ratio=%.3f\n", $1, $2, $2 / $1 }'

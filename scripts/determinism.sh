#!/bin/sh
# Same program, configuration and seed -> the same database contents, whatever
# the optimisation level: runs a few programs and configurations (random
# arbiter, drawn latencies, lookahead, stepped timing, the SIMT unit, banks,
# intervals) with two builds of
# `tessera` (default: build/ at -O3 with LTO, build-san/ at -O1 with the
# sanitizers) and compares every row of every table except the columns that
# record wall-clock time and dates. Usage: scripts/determinism.sh [BUILD_A BUILD_B]
set -eu
cd "$(dirname "$0")/.."
a=${1:-build}
b=${2:-build-san}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_all() { # $1: build directory, $2: database
    t="$1/tessera"
    for p in examples/example2.s examples/histogram.s examples/lock.s examples/stages.s; do
        "$t" run "$p" --db "$2" --quiet -s sm.atomics=on
        "$t" run "$p" --db "$2" --quiet --races -s sim.time_limit=300 >/dev/null 2>&1 \
            || test $? -eq 4 # 4: stopped at the limit (status time_limit)
        "$t" run "$p" --db "$2" --quiet -s sm.atomics=on -s sm.arbiter=random -s sim.seed=7 \
            -s 'sm.bank=uniform:1..3' -s 'sm.req=choice:1,1,4' -s 'core.alu=geometric:1.5'
        "$t" run "$p" --db "$2" --quiet -s sm.atomics=on -s ts.policy=lookahead \
            -s core.timing=stepped -s sm.bank_map=interleaved -s record.level=events
    done
    for p in examples/example2.s examples/histogram.s examples/stages.s examples/simt_diverge.s; do
        "$t" run "$p" --db "$2" --quiet -s core.model=simt -s simt.scheduler=gto \
            -s simt.issue_width=2 -s simt.scoreboard=on -s record.level=events -s record.interval=50
        "$t" run "$p" --db "$2" --quiet -s core.model=simt -s sm.arbiter=random -s sim.seed=3 \
            -s 'sm.bank=uniform:1..3' -s sm.banks=64 -s sm.bank_map=xor -s core.timing=stepped
        "$t" run "$p" --db "$2" --quiet -s core.model=simt -s simt.ibuffer=2 -s simt.fetch_width=1 \
            -s simt.collectors=2 -s simt.rf_banks=2 -s simt.rf_arbiter=rr -s simt.sp_width=4 -s simt.sfu_width=2 \
            -s simt.lsu_width=4 -s simt.scoreboard=on -s 'sm.req=choice:1,1,4' -s record.level=events
        "$t" run "$p" --db "$2" --quiet -s core.model=simt -s simt.reconvergence=barrier \
            -s simt.collectors=2 -s simt.lsu_width=4 -s simt.scoreboard=on -s record.level=events \
            -s record.interval=50
    done
}

run_all "$a" "$tmp/a.db"
run_all "$b" "$tmp/b.db"
scripts/dump-rows.sh "$tmp/a.db" > "$tmp/a.txt"
scripts/dump-rows.sh "$tmp/b.db" > "$tmp/b.txt"
if ! cmp -s "$tmp/a.txt" "$tmp/b.txt"; then
    echo "determinism: $a and $b recorded different rows:" >&2
    diff "$tmp/a.txt" "$tmp/b.txt" | head -20 >&2
    exit 1
fi
echo "determinism: $a and $b recorded identical rows ($(wc -l < "$tmp/a.txt") lines, 24 runs)"

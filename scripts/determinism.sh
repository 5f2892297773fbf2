#!/bin/sh
# Same program, configuration and seed -> the same database contents, whatever
# the optimisation level: runs a few programs and configurations (random
# arbiter, drawn latencies, lookahead, stepped timing) with two builds of
# `tessera` (default: build/ at -O3 with LTO, build-san/ at -O1 with the
# sanitizers) and compares every row of every table except the columns that
# record wall-clock time and dates. Usage: scripts/determinism.sh [BUILD_A BUILD_B]
set -eu
cd "$(dirname "$0")/.."
a=${1:-build}
b=${2:-build-san}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

dump() { # every table, row by row, without wall-clock columns
    sqlite3 "$1" "
      SELECT run_id, program, program_sha256, data_sha256, config, status, error, end_ps,
             events, version, level, period_ps, from_ps, to_ps, stop_ps FROM runs ORDER BY run_id;
      SELECT *, typeof(value) FROM params ORDER BY run_id, key;
      SELECT * FROM races ORDER BY run_id, addr, a_frame, a_core, a_slot, b_frame, b_core, b_slot;
      SELECT * FROM counters ORDER BY run_id, component, name;
      SELECT * FROM frames ORDER BY run_id, frame;
      SELECT * FROM stalls ORDER BY run_id, frame, from_ps, reason;
      SELECT * FROM core_tasks ORDER BY run_id, frame, core;
      SELECT * FROM sm_accesses ORDER BY run_id, frame, core, idx;
      SELECT * FROM events ORDER BY run_id, seq;"
}

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
}

run_all "$a" "$tmp/a.db"
run_all "$b" "$tmp/b.db"
dump "$tmp/a.db" > "$tmp/a.txt"
dump "$tmp/b.db" > "$tmp/b.txt"
if ! cmp -s "$tmp/a.txt" "$tmp/b.txt"; then
    echo "determinism: $a and $b recorded different rows:" >&2
    diff "$tmp/a.txt" "$tmp/b.txt" | head -20 >&2
    exit 1
fi
echo "determinism: $a and $b recorded identical rows ($(wc -l < "$tmp/a.txt") lines, 16 runs)"

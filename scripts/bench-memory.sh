#!/bin/sh
# Peak memory against run length (issue 15's "flat in run length at every
# level"): examples/bench.s and a version four times as long (its eight tasks
# repeated four times in one group: 201.7 M instructions), each recorded at
# levels summary, tasks, mem and events, with the maximum resident set size
# that /usr/bin/time reports. Usage: scripts/bench-memory.sh [BUILD_DIR]
# (default build/). Takes a few minutes; figures in docs/PERFORMANCE.md.
set -eu
cd "$(dirname "$0")/.."
t="$(cd "${1:-build}" && pwd)/tessera"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# bench4.s: the header and the group line once, then the tasks four times
sed -n '/^\.group/q;p' examples/bench.s > "$tmp/bench4.s"
echo '.group cores=0xffff fence=no' >> "$tmp/bench4.s"
tasks=$(sed -n '/^\.group/,$p' examples/bench.s | sed 1d)
for i in 1 2 3 4; do
    [ "$i" = 1 ] || echo '.task' >> "$tmp/bench4.s"
    printf '%s\n' "$tasks" >> "$tmp/bench4.s"
done
printf '%-8s %-9s %14s %12s %10s\n' level program instructions max_rss_kib wall_s
for level in summary tasks mem events; do
    for p in examples/bench.s "$tmp/bench4.s"; do
        rm -f "$tmp/r.db"*
        /usr/bin/time -f '%M %e' -o "$tmp/time" "$t" run "$p" --db "$tmp/r.db" \
            -s record.level=$level -s sim.progress=off > "$tmp/out"
        n=$(sed -n 's/^  instructions *\([0-9]*\).*/\1/p' "$tmp/out")
        read -r rss wall < "$tmp/time"
        printf '%-8s %-9s %14s %12s %10s\n' "$level" "$(basename "$p")" "$n" "$rss" "$wall"
    done
done

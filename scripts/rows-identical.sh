#!/bin/sh
# The model's exactness check for performance work: runs every example, a
# shortened and the full benchmark under each arbiter, bank mapping, a few
# bank counts, both timing modes, drawn latencies and the SIMT unit (most at
# record level events), with the `tessera` of build directory BUILD, and
# writes every row of every table (sorted, without wall-clock columns) plus
# each run's exit code and final SM to OUT. Two builds agree when their OUT
# files are identical. Usage: scripts/rows-identical.sh BUILD OUT
#   e.g. scripts/rows-identical.sh build-ref ref.txt
#        scripts/rows-identical.sh build new.txt && cmp ref.txt new.txt
set -eu
cd "$(dirname "$0")/.."
t="$(cd "$1" && pwd)/tessera"
out="$(pwd)/$2"
case $2 in /*) out=$2 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$(pwd)/examples" "$tmp/examples"
root=$(pwd)
cd "$tmp" # relative program paths: the runs' rows do not name the temporary directory
db="$tmp/r.db"
: > "$tmp/codes.txt"

run() { # tessera run ARGS...: the exit code and final SM go into the dump
    code=0
    "$t" run "$@" --db "$db" --quiet --dump-mem "$tmp/mem.bin" >/dev/null 2>&1 || code=$?
    echo "$code $* $(cksum < "$tmp/mem.bin" 2>/dev/null || echo -)" >> "$tmp/codes.txt"
    rm -f "$tmp/mem.bin"
}

# the benchmark with outer loops of 2 instead of 256: every task kind, small
sed 's/\(set_const r8, \)0/\12/' examples/bench.s > mini.s
ev="-s record.level=events"

for p in examples/*.s; do
    [ "$p" = examples/bench.s ] && continue
    run "$p" $ev
    run "$p" $ev -s sm.atomics=on -s core.timing=stepped
    run "$p" $ev -s core.model=simt
    run "$p" $ev -s core.model=simt -s simt.scoreboard=on -s simt.broadcast=on \
        -s simt.scheduler=gto -s simt.issue_width=2 -s sm.atomics=on
    run "$p" $ev -s core.model=simt -s simt.scheduler=oldest -s core.timing=stepped \
        -s 'sm.req=choice:1,1,4' -s 'core.mul=uniform:1..4' -s sim.seed=3
    run "$p" $ev -s core.model=simt -s simt.scoreboard=on -s core.budget=40
    run "$p" $ev -s core.model=simt -s simt.ibuffer=2 -s simt.collectors=2 -s simt.rf_banks=2 \
        -s simt.sp_width=4 -s simt.sfu_width=2 -s simt.lsu_width=4 -s simt.scheduler=gto
    run "$p" $ev -s core.model=simt -s simt.ibuffer=1 -s simt.fetch_latency=3 -s simt.lsu_width=1 \
        -s simt.scoreboard=on -s simt.broadcast=on -s core.timing=stepped -s simt.issue_width=2
    run "$p" $ev -s core.model=simt -s simt.reconvergence=barrier -s simt.scheduler=gto \
        -s simt.collectors=2 -s simt.rf_arbiter=rr -s simt.sp_width=4 -s sm.atomics=on -s core.timing=stepped
    run "$p" $ev -s sm.atomics=on -s sm.arbiter=random -s sim.seed=7 \
        -s 'sm.bank=uniform:1..3' -s 'sm.req=choice:1,1,4' -s 'core.alu=geometric:1.5'
done
for arb in fixed rr fifo random; do
    for map in high interleaved xor; do
        for nb in 16 4 64; do
            run mini.s $ev -s sm.arbiter=$arb -s sm.bank_map=$map -s sm.banks=$nb
        done
        run examples/matmul.s $ev -s sm.arbiter=$arb -s sm.bank_map=$map -s sm.banks=8
        run examples/histogram.s $ev -s sm.arbiter=$arb -s sm.bank_map=$map -s sm.atomics=on
    done
    run mini.s $ev -s sm.arbiter=$arb -s core.timing=stepped
    run mini.s $ev -s sm.arbiter=$arb -s core.model=simt
    run mini.s $ev -s sm.arbiter=$arb -s core.model=simt -s simt.broadcast=on \
        -s simt.scoreboard=on
    run mini.s $ev -s sm.arbiter=$arb -s 'sm.bank=uniform:1..3' -s 'sm.resp=choice:1,2'
    run examples/bench.s -s record.level=tasks -s sm.arbiter=$arb
done
run examples/bench.s -s record.level=tasks -s core.model=simt
run examples/bench.s -s record.level=tasks -s sm.bank_map=interleaved -s sm.banks=4

"$root/scripts/dump-rows.sh" "$db" > "$out"
cat "$tmp/codes.txt" >> "$out"
echo "rows-identical: $(wc -l < "$out") lines, $(wc -l < "$tmp/codes.txt") runs -> $out"

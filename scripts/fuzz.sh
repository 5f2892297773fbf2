#!/bin/sh
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan, in
# build-fuzz/) and runs each for SECONDS (default 60) from its seeds: the
# hand-written ones in tests/fuzz/corpus/, the findings in tests/fuzz/regress/,
# examples/*.s, their assembled images, config/*.ini. New interesting inputs
# collect in build-fuzz/corpus/<target>/ and are reused by the next run.
# Exits non-zero when a target finds a crash, a leak, undefined behaviour or a
# violated round trip, printing the path of the input that did it; and when
# clang or libFuzzer is missing (scripts/setup.sh installs them).
#
# usage: scripts/fuzz.sh [SECONDS] [TARGET...]   TARGET: asm, tm, config (default all)
#   FUZZ_PARALLEL=1  run the targets at the same time (one core each)
#   FUZZ_ARGS=...    extra libFuzzer arguments (e.g. -rss_limit_mb=4096)
#   FUZZ_WERROR=OFF  do not build with -Werror (default ON, as CI)
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-asm tm config}
root=$(pwd)
out=$root/build-fuzz

case $secs in
    '' | *[!0-9]*) echo "fuzz: SECONDS must be a number, got '$secs'" >&2; exit 2 ;;
esac
if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz: clang not found; install it with scripts/setup.sh (clang, libclang-rt-14-dev)" >&2
    exit 1
fi
probe=$(mktemp -d)
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\n%s\n' \
    'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' \
    >"$probe/p.c"
if ! clang -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2>"$probe/err"; then
    cat "$probe/err" >&2
    rm -rf "$probe"
    echo "fuzz: clang cannot link libFuzzer; install libclang-rt-14-dev (scripts/setup.sh)" >&2
    exit 1
fi
rm -rf "$probe"

echo "== fuzz build (clang, libFuzzer + ASan + UBSan) in build-fuzz"
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined"
flags="$flags -fno-sanitize-recover=all"
cmake -S . -B "$out" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
      -DCMAKE_C_FLAGS="$flags" -DTESSERA_FUZZ=ON -DTESSERA_WERROR="${FUZZ_WERROR:-ON}" >/dev/null
build_targets=fuzz_seeds
for t in $targets; do build_targets="$build_targets fuzz_$t"; done
# shellcheck disable=SC2086
cmake --build "$out" -j "$(nproc 2>/dev/null || echo 2)" --target $build_targets

# Seed directories of a target (those that exist).
seeds() {
    for d in "tests/fuzz/corpus/$1" "tests/fuzz/regress/$1"; do [ -d "$d" ] && echo "$d"; done
    case $1 in
        asm) echo examples ;;
        tm) echo "$out/tests/fuzz/seeds/tm" ;;
        config) echo config ;;
    esac
}

# Runs one target; prints a one-line summary; returns libFuzzer's status.
run_one() {
    t=$1
    bin=$out/tests/fuzz/fuzz_$t
    work=$out/corpus/$t
    art=$out/artifacts/$t
    log=$out/logs/fuzz_$t.log
    case $t in asm) max=16384 ;; tm) max=4200 ;; *) max=8192 ;; esac
    mkdir -p "$work" "$out/logs"
    rm -rf "$art" && mkdir -p "$art"
    # shellcheck disable=SC2046,SC2086
    ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$bin" -max_total_time="$secs" -timeout=25 -max_len=$max -print_final_stats=1 \
               -dict="tests/fuzz/$t.dict" -artifact_prefix="$art/" ${FUZZ_ARGS:-} \
               "$work" $(seeds "$t") >"$log" 2>&1 && rc=0 || rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1)
    echo "fuzz_$t: ${execs:-?} executions in ${secs}s, ${cov:-cov: ?}, ${ft:-ft: ?}," \
         "corpus $(find "$work" -type f | wc -l) files; log $log"
    if [ "$rc" -ne 0 ]; then
        echo "fuzz_$t: FAILED (status $rc); the end of the log:" >&2
        tail -n 40 "$log" >&2
        for f in "$art"/*; do
            [ -e "$f" ] || continue
            echo "fuzz_$t: crashing input: $f" >&2
            echo "  reproduce: $bin $f" >&2
            echo "  keep it:   cp $f tests/fuzz/regress/$t/ (tests/test_fuzz_regress.c replays it)" >&2
        done
    fi
    return "$rc"
}

echo "== fuzzing: ${secs}s per target ($targets)"
fail=0
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
    pids=""
    for t in $targets; do
        run_one "$t" & pids="$pids $!"
    done
    for p in $pids; do wait "$p" || fail=1; done
else
    for t in $targets; do run_one "$t" || fail=1; done
fi
[ "$fail" -eq 0 ] && echo "fuzz: no finding" || echo "fuzz: FINDINGS (see above)" >&2
exit "$fail"

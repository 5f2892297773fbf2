#!/bin/sh
# Every test: builds Tessera twice — optimised with warnings as errors, then
# with ASan and UBSan — and runs every test in both; then the end-to-end tests
# under valgrind memcheck, then the outputs in the real tools (scripts/realtools.sh:
# GTKWave's vcd2fst, speedscope in headless chromium, a single-node Slurm; it
# installs what it lacks), then each fuzz target for a minute. Exits non-zero
# on the first failure. About 25 minutes on 2 cores.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

echo "== release build (-Werror)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTESSERA_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

echo "== sanitizer build (ASan + UBSan)"
cmake -S . -B build-san -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=-O1 \
      -DTESSERA_SANITIZE=ON -DTESSERA_WERROR=ON >/dev/null
cmake --build build-san -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-san --output-on-failure -j "$jobs"

echo "== determinism across optimisation levels"
scripts/determinism.sh build build-san

echo "== end-to-end tests under valgrind memcheck"
scripts/memcheck.sh build

echo "== the real tools: vcd2fst, speedscope in headless chromium, the SVG laid out, Slurm"
scripts/realtools.sh build

echo "== fuzzing: ~1 minute per target (clang, libFuzzer + ASan + UBSan)"
scripts/fuzz.sh 60

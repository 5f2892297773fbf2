#!/bin/sh
# Runs the end-to-end tests (every `tessera` command they start) under valgrind
# memcheck: any memory error or leak makes valgrind exit 99, which fails the
# test that ran the command. test_examples, most of the time under valgrind,
# runs as two processes side by side, each with half of its cases
# (TESSERA_TEST_SHARD, tests/testutil.h). Usage: scripts/memcheck.sh [BUILD_DIR]
# (default build).
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
command -v valgrind >/dev/null || { echo "memcheck: valgrind is not installed (scripts/setup.sh)" >&2; exit 1; }
export TESSERA_TEST_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full \
--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
--suppressions=$(pwd)/scripts/valgrind.supp"
ctest --test-dir "$build" --output-on-failure -R 'test_(cli|config)$'

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=
for k in 0 1; do
    (cd "$build/tests" && TESSERA_TEST_SHARD=$k/2 exec ./test_examples) >"$logs/$k" 2>&1 &
    pids="$pids $!"
done
failed=
k=0
for p in $pids; do
    wait "$p" || failed="$failed $k"
    k=$((k + 1))
done
for k in 0 1; do
    if echo "$failed" | grep -qw "$k"; then
        echo "memcheck: test_examples, shard $k/2, failed:"
        cat "$logs/$k"
    else
        echo "memcheck: test_examples, shard $k/2: $(grep -E '^ +tests ' "$logs/$k" | tr -s ' ')"
    fi
done
test -z "$failed"

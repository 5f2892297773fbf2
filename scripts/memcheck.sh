#!/bin/sh
# Runs the end-to-end tests (every `tessera` command they start) under valgrind
# memcheck: any memory error or leak makes valgrind exit 99, which fails the
# test that ran the command. Usage: scripts/memcheck.sh [BUILD_DIR] (default build).
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
command -v valgrind >/dev/null || { echo "memcheck: valgrind is not installed (scripts/setup.sh)" >&2; exit 1; }
export TESSERA_TEST_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full \
--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
--suppressions=$(pwd)/scripts/valgrind.supp"
ctest --test-dir "$build" --output-on-failure -R 'test_(cli|examples|config)$'

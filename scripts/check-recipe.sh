#!/bin/sh
# check-recipe.sh — follows docs/ARCHITECTURE.md's "Adding an arbiter" recipe
# literally, in a scratch copy of the source, so that the recipe stays true:
# the three code blocks of the page (```c recipe-arbiter-entry, -case,
# -order) go where the page says (the end of GPU_ARBITERS in model/gpu.h,
# before `case GPU_ARB_COUNT:` in model/sm.c's arbitrate(), the expected
# orders of tests/test_timing.c), then the copy is built (the cheap build:
# Debug at -O1, no LTO), scripts/gen-docs.sh refreshes its docs, and the tests that
# know the arbiters must pass: test_timing, test_config, test_api,
# test_sweepplan, test_docs; `tessera run -s sm.arbiter=NAME` must run.
# Usage: scripts/check-recipe.sh [SOURCE_DIR]   (ctest: recipe_arbiter)
set -eu
src=$(cd "${1:-$(dirname "$0")/..}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
s="$tmp/src"
mkdir "$s"
for x in CMakeLists.txt cmake api analysis cli config events model tests examples scripts docs \
         python README.md; do
    cp -R "$src/$x" "$s/$x"
done
rm -rf "$s/tests/fuzz/regress" # not built; large

block() { # the lines of docs/ARCHITECTURE.md's block ```c recipe-arbiter-$1
    awk -v tag="\`\`\`c recipe-arbiter-$1" '
        $0 == tag { on = 1; n++; next }
        on && /^```/ { on = 0; next }
        on { print }
        END { if (n != 1) exit 1 }' "$src/docs/ARCHITECTURE.md" ||
        { echo "check-recipe: docs/ARCHITECTURE.md has no single block recipe-arbiter-$1"; exit 1; }
}
block entry > "$tmp/entry"
block case > "$tmp/case"
block order > "$tmp/order"
name=$(sed -n 's/.*X(GPU_ARB_, *[A-Z_]*, *"\([a-z_]*\)".*/\1/p' "$tmp/entry")
[ -n "$name" ] || { echo "check-recipe: no arbiter name in the entry block"; exit 1; }

# the entry: after the last line of GPU_ARBITERS, which gains its backslash
awk -v f="$tmp/entry" '
    /^#define GPU_ARBITERS\(X\)/ { in_list = 1 }
    in_list && !/\\$/ { print $0 " \\"; while ((getline l < f) > 0) print l; in_list = 0; done = 1; next }
    { print }
    END { if (!done) exit 1 }' "$s/model/gpu.h" > "$tmp/x" && mv "$tmp/x" "$s/model/gpu.h"
# the case: before arbitrate()'s case GPU_ARB_COUNT
awk -v f="$tmp/case" '
    /^    case GPU_ARB_COUNT:/ && !done { while ((getline l < f) > 0) print l; done = 1 }
    { print }
    END { if (!done) exit 1 }' "$s/model/sm.c" > "$tmp/x" && mv "$tmp/x" "$s/model/sm.c"
# the expected order: first in test_timing's table of orders
awk -v f="$tmp/order" '
    { print }
    /static const char \*const expect\[GPU_ARB_COUNT\] = \{/ && !done {
        while ((getline l < f) > 0) print l; done = 1 }
    END { if (!done) exit 1 }' "$s/tests/test_timing.c" > "$tmp/x" && mv "$tmp/x" "$s/tests/test_timing.c"

cmake -S "$s" -B "$s/build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=-O1 -DTESSERA_WERROR=ON > "$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; exit 1; }
tests="test_timing test_config test_api test_sweepplan test_docs" # test_docs: python uses the .so
# shellcheck disable=SC2086
cmake --build "$s/build" -j2 --target tessera tessera_shared $tests > "$tmp/build.log" 2>&1 ||
    { tail -40 "$tmp/build.log"; echo "check-recipe: the copy with arbiter $name does not build"; exit 1; }
sh "$s/scripts/gen-docs.sh"
grep -q "$name: " "$s/docs/CONFIG.md" ||
    { echo "check-recipe: docs/CONFIG.md does not document $name"; exit 1; }
"$s/build/tessera" run "$s/examples/matadd.s" --no-db --quiet -s "sm.arbiter=$name" ||
    { echo "check-recipe: tessera run -s sm.arbiter=$name failed"; exit 1; }
for t in $tests; do
    (cd "$s/build/tests" && "./$t" > "$tmp/$t.log" 2>&1) ||
        { tail -40 "$tmp/$t.log"; echo "check-recipe: $t fails after the recipe"; exit 1; }
done
echo "check-recipe: arbiter $name added by the recipe; $tests pass"

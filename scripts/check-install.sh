#!/bin/sh
# Installs a build into a temporary prefix and checks what a user gets there:
# a tessera.pc that points into that prefix (not the configured one), only
# the public headers (api/tessera.h and what it includes: nothing missing,
# nothing private), and examples/embed.c built with pkg-config against the
# installed copy alone, then run. Usage: scripts/check-install.sh BUILD SOURCE
set -eu
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
pc="$tmp/prefix/lib/pkgconfig/tessera.pc"
[ -f "$pc" ] || { echo "check-install: no $pc" >&2; exit 1; }
incdir=$(pkg-config --variable=includedir "$pc")
[ "$(cd "$incdir" && pwd)" = "$(cd "$tmp/prefix/include/tessera" && pwd)" ] \
    || { echo "check-install: includedir is $incdir, not in the prefix" >&2; exit 1; }
# nothing private: the model's internals, the recorder, the command
for private in model/gpu_impl.h model/core.h analysis/recorder/rec_int.h cli/cli_util.h; do
    [ ! -e "$incdir/$private" ] || { echo "check-install: private $private installed" >&2; exit 1; }
done
# every header installed includes only installed headers
for h in $(cd "$incdir" && find . -name '*.h'); do
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$incdir/$h"); do
        [ -f "$incdir/$inc" ] || { echo "check-install: $h includes $inc, not installed" >&2; exit 1; }
    done
done
# the embedding example, against the installed copy only (the source tree moved away)
cp "$src/examples/embed.c" "$tmp/embed.c"
cd "$tmp"
# shellcheck disable=SC2046
cc -std=c11 embed.c $(pkg-config --cflags --libs "$pc") -o embed
./embed "$tmp/embed.db" > out.txt
grep -q "^fixed  ok: end 3216000 ps" out.txt || { cat out.txt >&2; exit 1; }
echo "check-install: $(cd "$incdir" && find . -name '*.h' | wc -l) public headers; embed.c built and ran from the prefix"

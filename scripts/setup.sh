#!/bin/sh
# Installs the Debian packages Tessera needs, only those that are missing.
# Safe to run repeatedly; needs root (or sudo) only when something is missing.
# scripts/realtools.sh installs the third-party tools its checks open outputs
# in (gtkwave, chromium, librsvg2-bin, slurm-wlm, munge, nodejs) the same way.
set -eu
PACKAGES="cmake make gcc libev-dev libsqlite3-dev sqlite3 libcunit1-dev libinih-dev nettle-dev libmicrohttpd-dev libjansson-dev parallel valgrind clang libclang-rt-14-dev llvm libxml2-utils pkg-config gnuplot-nox python3 python3-pandas python3-matplotlib"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "setup: installing$missing" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null

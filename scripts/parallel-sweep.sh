#!/bin/sh
# parallel-sweep.sh — a Tessera sweep spread over several hosts with GNU parallel:
# `tessera sweep --emit` writes one `tessera run ... --db DIR/STEM-shard-K.db`
# command per point, GNU parallel runs them (--sshlogin), `tessera merge`
# folds the shards into OUT.db. See docs/SWEEPS.md.
#
# usage: scripts/parallel-sweep.sh [-S host1,host2,...] [-j N] [--copy] [--keep]
#                                  OUT.db PROG [tessera sweep options...]
#   -S hosts   GNU parallel --sshlogin list; ':' is this machine (default ':').
#              e.g. -S 8/node1,8/node2,: (8 jobs on node1 and node2, and local)
#   -j N       jobs per host (default: one per CPU of each host)
#   --copy     the hosts do not share OUT.db's directory: copy PROG, --config
#              and --mem to each host first (same absolute paths) and bring
#              each shard back (needs rsync on both sides)
#   --keep     keep the shards after merging
#   the rest:  passed to `tessera sweep` (-s key=v1,v2 ..., --config F, --mem F,
#              --force)
# environment: TESSERA, the tessera binary (default: `tessera` in PATH); it
#   must exist at the same absolute path on every host, like PROG and the
#   files it reads unless --copy.
#
# Example (one host, two jobs, as the test suite runs it):
#   scripts/parallel-sweep.sh -j 2 /tmp/out.db examples/example2.s \
#       -s sm.arbiter=fixed,rr -s sm.bank_map=high,interleaved
# Exit status: 0 when every point and the merge succeeded; otherwise 1 (the
# failed points are in STEM-joblog.txt next to OUT.db, column Exitval).
set -eu

TESSERA=${TESSERA:-tessera}
hosts=":" jobs="" copy=0 keep=0
while [ $# -gt 0 ]; do
    case $1 in
        -S) hosts=$2; shift 2 ;;
        -j) jobs=$2; shift 2 ;;
        --copy) copy=1; shift ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
        *) break ;;
    esac
done
[ $# -ge 2 ] || { sed -n '7,8p' "$0" >&2; exit 1; }
out=$1 prog=$2
shift 2
command -v parallel >/dev/null || { echo "parallel-sweep: GNU parallel is not installed" >&2; exit 1; }
TESSERA=$(command -v "$TESSERA") || { echo "parallel-sweep: no tessera binary" >&2; exit 1; }

abspath() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }

# The input files, for --copy: PROG and the values of --config and --mem.
inputs=$(abspath "$prog")
want=0
for a in "$@"; do
    [ "$want" = 1 ] && inputs="$inputs
$(abspath "$a")"
    want=0
    case $a in --config|--mem) want=1 ;; esac
done

# Where the shards go: emit names them DIR/STEM-shard-K.db after OUT.db.
dir=$(cd "$(dirname "$out")" && pwd)
stem=$(basename "$out" .db)
cmds="$dir/$stem-commands.txt"
joblog="$dir/$stem-joblog.txt"

# 1. The commands; tessera checks every point and the program here, before
#    anything runs anywhere (exit 2 on a bad -s value).
"$TESSERA" sweep "$prog" "$@" --db "$out" --emit > "$cmds"
n=$(wc -l < "$cmds")
echo "parallel-sweep: $n points on $hosts" >&2

# 2. Run them. Each line is a complete shell command; `eval {}` runs it as is
#    (parallel quotes {} so the line reaches the remote shell intact).
set -- --will-cite --halt never --joblog "$joblog" --sshlogin "$hosts"
[ -n "$jobs" ] && set -- "$@" -j "$jobs"
if [ "$copy" = 1 ]; then
    # --basefile: the input files once per host, at the same absolute path;
    # --return: the shard named after --db in the command; --cleanup: remove
    # both from the host afterwards. The shards' directory is created first.
    while IFS= read -r f; do
        set -- "$@" --basefile "$f"
    done <<EOF
$inputs
EOF
    set -- "$@" --return "{= s:.* --db ::; s:^'::; s:'\$:: =}" --cleanup
    template="mkdir -p '$dir' && eval {}"
else
    template="eval {}"
fi
status=0
parallel "$@" "$template" < "$cmds" > /dev/null || status=$?
[ "$status" -eq 0 ] || echo "parallel-sweep: $status point(s) failed (see $joblog)" >&2

# 3. Merge what was written (a failed point may still have recorded its run,
#    e.g. with status 'watchdog'), then clean up.
set -- "$dir/$stem"-shard-*.db
if [ -e "$1" ]; then
    if "$TESSERA" merge "$out" "$@"; then
        [ "$keep" = 1 ] || rm -f "$@"
    else
        echo "parallel-sweep: merge failed; shards kept in $dir" >&2
        status=1
    fi
fi
[ "$status" -eq 0 ] && rm -f "$cmds"
[ "$status" -eq 0 ] || exit 1

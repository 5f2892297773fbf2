#!/bin/bash
# realtools.sh — Tessera's outputs opened in the real third-party tools:
#   vcd         GTKWave's vcd2fst converts every VCD the tests export;
#   speedscope  speedscope (npm) loads every Perfetto JSON the tests export, in
#               headless Debian chromium, with no import warning;
#   svg         the timeline of examples/bench.s (shaded lanes), laid out by
#               Chromium, has every shape inside the picture; rsvg-convert renders it;
#   view        `tessera view` in headless chromium (scripts/view-check.js): every
#               page of a study and of bench.s (MIMD and SIMT), zoomed, panned, hovered and a task
#               clicked, what is drawn checked against SQL; VIEW_SHOTS=DIR keeps
#               its screenshots there (docs/img for docs/VISUALS.md);
#   slurm       a single-node Slurm started here runs the documented sweep
#               (docs/SWEEPS.md: --emit, sbatch --array, merge job), a sweep over
#               a scheduler plugin (docs/STUDY-POLICIES.md) and its time-limit
#               signal (the point records 'interrupted', exit 4).
# Each check installs what it lacks as scripts/setup.sh does (Debian packages;
# speedscope and playwright-core from the npm registry into BUILD/realtools) and
# stops every daemon it started, also on failure. Needs root for installs and Slurm.
# Usage: scripts/realtools.sh [BUILD_DIR [CHECK...]]   (default: build, all checks)
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
build=$(cd "${1:-build}" && pwd)
shift || true
[ $# -gt 0 ] || set -- vcd speedscope svg view slurm
work=$build/realtools
export PATH="$build:$PATH"
SPEEDSCOPE=speedscope@1.25.0
PLAYWRIGHT=playwright-core@1.58.2
failed=0

say() { echo "realtools: $*"; }
fail() { echo "realtools: FAIL: $*" >&2; failed=1; }

# Installs the Debian packages given that are missing (as scripts/setup.sh).
need_debs() {
    local missing="" p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    say "installing$missing"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}

# The tests' own outputs, kept: test_export and test_timeline run once more with
# their scratch directories under $work/tests (TESSERA_KEEP_TMP).
test_outputs() {
    [ -d "$work/tests" ] && return 0
    mkdir -p "$work/tests"
    local t
    for t in test_export test_timeline; do
        TMPDIR=$work/tests TESSERA_KEEP_TMP=1 "$build/tests/$t" > "$work/$t.log" 2>&1 \
            || { fail "$t failed (log: $work/$t.log)"; return 1; }
    done
}

check_vcd() {
    need_debs gtkwave
    test_outputs || return 0
    local n=0 f
    while IFS= read -r f; do
        if vcd2fst -v "$f" -f "$f.fst" > "$f.vcd2fst.log" 2>&1 && [ -s "$f.fst" ]; then
            n=$((n + 1))
        else
            fail "vcd2fst refused $f:"; tail -5 "$f.vcd2fst.log" >&2
        fi
    done < <(find "$work/tests" -name '*.vcd' -size +0 | sort)
    [ "$n" -ge 5 ] || fail "only $n VCDs found in the tests' outputs"
    say "vcd: vcd2fst accepted $n VCDs"
}

# Node, chromium, and speedscope + playwright-core from the npm registry.
need_browser() {
    need_debs chromium
    command -v node > /dev/null || need_debs nodejs  # a machine's own Node (with npm) will do
    command -v npm > /dev/null || need_debs npm
    if [ ! -d "$work/node/node_modules/playwright-core" ] ||
       [ ! -d "$work/node/node_modules/speedscope/dist/release" ]; then
        mkdir -p "$work/node"
        say "npm install $SPEEDSCOPE $PLAYWRIGHT"
        (cd "$work/node" && npm install --no-audit --no-fund --silent --prefix . \
            "$SPEEDSCOPE" "$PLAYWRIGHT" >/dev/null)
    fi
    export PLAYWRIGHT_CORE=$work/node/node_modules/playwright-core CHROMIUM=/usr/bin/chromium
}

check_speedscope() {
    need_browser
    test_outputs || return 0
    local traces=()
    mapfile -t traces < <(find "$work/tests" -name '*.json' -size +0 | sort)
    # bench.s too: its bank tracks are back to back (a slice per access).
    tessera export "$(bench_db)" --perfetto "$work/bench.json" --max-accesses 20000 2>/dev/null
    traces+=("$work/bench.json")
    [ "${#traces[@]}" -ge 10 ] || fail "only ${#traces[@]} traces found in the tests' outputs"
    node "$src/scripts/chromium-check.js" speedscope \
        "$work/node/node_modules/speedscope/dist/release" "${traces[@]}" > "$work/speedscope.log" 2>&1 \
        || { fail "speedscope:"; grep -v '^ok' "$work/speedscope.log" | head -40 >&2; return 0; }
    say "speedscope: ${#traces[@]} traces loaded with no warning"
}

# (kept between runs while the build's tessera is not newer: a database of an
# older schema version would be read through the views made for old files)
bench_db() {
    [ -s "$work/bench.db" ] && [ "$work/bench.db" -nt "$build/tessera" ] || {
        rm -f "$work/bench.db"
        tessera run "$src/examples/bench.s" --db "$work/bench.db" --quiet > /dev/null
    }
    echo "$work/bench.db"
}

check_svg() {
    need_browser
    need_debs librsvg2-bin
    local svgs=() w
    for w in 1200 480 3001; do
        tessera timeline "$(bench_db)" --width "$w" -o "$work/bench-$w.svg"
        grep -q 'fill-opacity=' "$work/bench-$w.svg" || fail "bench-$w.svg: not the shaded mode"
        rsvg-convert "$work/bench-$w.svg" -o "$work/bench-$w.png" || fail "rsvg-convert bench-$w.svg"
        svgs+=("$work/bench-$w.svg")
    done
    # Tessera's own pictures (timelines) are laid out by Chromium; gnuplot's plots
    # (tessera plot), whose text sits in translated groups that a bounding-box check
    # of shapes does not follow, are recognised by the mark gnuplot leaves in them
    # and only rendered
    local plots=0
    for f in "$src"/docs/img/*.svg; do
        if grep -q 'Produced by GNUPLOT' "$f"; then
            rsvg-convert "$f" -o "$work/plot.png" || fail "rsvg-convert $f"
            plots=$((plots + 1))
        else
            svgs+=("$f")
        fi
    done
    node "$src/scripts/chromium-check.js" svg "${svgs[@]}" > "$work/svg.log" 2>&1 \
        || { fail "svg:"; grep -v '^ok' "$work/svg.log" | head -40 >&2; return 0; }
    say "svg: ${#svgs[@]} pictures, every shape inside (Chromium); rsvg-convert rendered bench and $plots plots"
}

# --- tessera view: its servers on free ports, stopped by SIGINT (exit 0) ---

view_pids=()
stop_views() {
    local p
    for p in "${view_pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done
}

# Starts `tessera view DB --port 0` with its output in $work/view-NAME.*
# (not in a subshell: its pid is this shell's child, for stop_views).
start_view() {
    local db=$1 name=$2
    rm -f "$work/view-$name.out"
    tessera view "$db" --port 0 > "$work/view-$name.out" 2> "$work/view-$name.err" &
    view_pids+=($!)
}

# The address the server NAME printed, waiting up to 10 s for it.
view_url() {
    local k
    for k in $(seq 100); do
        grep -q 'http://' "$work/view-$1.out" 2>/dev/null && break
        sleep 0.1
    done
    sed -n 's|.*\(http://[^/]*\)/.*|\1|p' "$work/view-$1.out"
}

# bench.s on the SIMT unit (core.model=simt, level mem: 786 k warp ld/st)
bench_simt_db() {
    [ -s "$work/bench-simt.db" ] && [ "$work/bench-simt.db" -nt "$build/tessera" ] || {
        rm -f "$work/bench-simt.db"
        tessera run "$src/examples/bench.s" -s core.model=simt --db "$work/bench-simt.db" \
            --quiet > /dev/null
    }
    echo "$work/bench-simt.db"
}

check_view() {
    need_browser
    local study=$work/view-study.db
    rm -f "$study"
    tessera sweep "$src/examples/matmul.s" -s sm.arbiter=fixed,rr -s sm.bank=1,2,4 \
        --db "$study" -j 2 > /dev/null 2>&1 || { fail "view: the study's sweep"; return 0; }
    tessera run "$src/examples/simt_diverge.s" -s core.model=simt -s record.level=events \
        --db "$study" --quiet && tessera run "$src/examples/example1.s" \
        -s record.level=summary --db "$study" --quiet &&
        tessera run "$src/examples/simt_paths.s" -s core.model=simt -s record.level=events \
        -s simt.reconvergence=barrier --db "$study" --quiet ||
        { fail "view: the study's runs"; return 0; }
    local bench simt su bu mu
    bench=$(bench_db)
    simt=$(bench_simt_db)
    view_pids=()
    trap stop_views EXIT
    start_view "$study" study
    start_view "$bench" bench
    start_view "$simt" simt
    su=$(view_url study)
    bu=$(view_url bench)
    mu=$(view_url simt)
    [ -n "$su" ] && [ -n "$bu" ] && [ -n "$mu" ] || { fail "view: no address printed"; stop_views; return 0; }
    [ -z "${VIEW_SHOTS:-}" ] || mkdir -p "$VIEW_SHOTS"
    node "$src/scripts/view-check.js" "$su" "$study" "$bu" "$bench" "$mu" "$simt" \
        ${VIEW_SHOTS:+"$(cd "$VIEW_SHOTS" && pwd)"} > "$work/view.log" 2>&1 \
        || { fail "view:"; grep -v '^ok' "$work/view.log" | head -40 >&2; }
    stop_views
    local p rc
    for p in "${view_pids[@]}"; do
        rc=0
        wait "$p" || rc=$?
        [ "$rc" -eq 0 ] || fail "view: the server (pid $p) exited $rc on SIGINT"
    done
    trap - EXIT
    grep -q 'stopped (SIGINT)' "$work/view-study.err" || fail "view: no 'stopped' message"
    say "view: $(grep -c '^ok' "$work/view.log") checks passed; $(grep '^info' "$work/view.log" | cut -c6-)"
}

# --- Slurm: munged, slurmctld and slurmd of our own, on private paths and ports ---

slurm_dir=""
stop_slurm() {
    [ -n "$slurm_dir" ] || return 0
    local f
    scancel --full $(squeue -h -o %A 2>/dev/null) 2>/dev/null || true  # no stray job steps
    for f in slurmd slurmctld munged; do
        [ -s "$slurm_dir/$f.pid" ] && kill "$(cat "$slurm_dir/$f.pid")" 2>/dev/null || true
    done
    sleep 1
    for f in slurmd slurmctld munged; do
        [ -s "$slurm_dir/$f.pid" ] && kill -9 "$(cat "$slurm_dir/$f.pid")" 2>/dev/null || true
    done
    slurm_dir=""
}
trap stop_slurm EXIT
trap 'stop_slurm; exit 130' INT TERM

free_port() {
    local p
    for p in $(seq "$1" $(($1 + 200))); do
        (exec 3<>/dev/tcp/127.0.0.1/"$p") 2>/dev/null || { echo "$p"; return; }
    done
}

start_slurm() {
    slurm_dir=$work/slurm
    rm -rf "$slurm_dir" && mkdir -p "$slurm_dir"/{state,spool} && chmod 755 "$slurm_dir"
    local d=$slurm_dir
    mkdir -m 755 "$d/munge"
    head -c 1024 /dev/urandom > "$d/munge/munge.key" && chmod 600 "$d/munge/munge.key"
    munged --force --socket="$d/munge/munge.socket" --key-file="$d/munge/munge.key" \
        --log-file="$d/munged.log" --pid-file="$d/munged.pid" --seed-file="$d/munge/seed"
    local node ctld_port d_port
    # The node as slurmd sees it, without RealMemory: a node defined so refuses --mem.
    node=$(slurmd -C | head -1 | sed 's/ RealMemory=[0-9]*//')
    ctld_port=$(free_port 36817) d_port=$(free_port $((ctld_port + 1)))
    cat > "$d/slurm.conf" <<EOF
ClusterName=tessera-ci
SlurmctldHost=$(hostname -s)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge/munge.socket
CredType=cred/munge
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
$node
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF=$d/slurm.conf
    slurmctld -i && slurmd || { fail "slurm daemons did not start:"; tail -5 "$d"/*.log >&2; return 1; }
    local i
    for i in $(seq 30); do
        sinfo -h -o %t 2>/dev/null | grep -qx idle && return 0
        sleep 1
    done
    fail "the Slurm node never became idle:"; sinfo >&2 || true; tail -5 "$d"/*.log >&2
    return 1
}

# Waits for job $1 to leave the queue (at most $2 s); prints its state and exit code.
wait_job() {
    local i
    for i in $(seq "$2"); do
        squeue -h -j "$1" 2>/dev/null | grep -q . || break
        sleep 1
    done
    scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*\|ExitCode=[0-9:]*' | tr '\n' ' '
}

check_slurm() {
    need_debs slurm-wlm munge sqlite3
    start_slurm || return 0
    local dir=$work/slurm-study n job merge
    rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
    cp "$src/examples/example2.s" prog.s
    # The time-limit signal, submitted first (runs beside the sweep): a run paced at
    # one cycle per second cannot finish in --time=2; SIGTERM comes >= 60 s early.
    tessera sweep prog.s -s sim.pace=1e9 --db "$PWD/slow.db" --emit > slow.cmds
    local slow
    slow=$(sbatch --parsable --time=2 --array=1 "$src/scripts/slurm-sweep.sbatch" slow.cmds 2> sbatch.err) ||
        { fail "sbatch refused the script: $(cat sbatch.err)"; cd "$src"; stop_slurm; return 0; }
    # docs/SWEEPS.md, "Slurm job array", as written there:
    tessera sweep prog.s -s sm.arbiter=fixed,rr,fifo -s sm.bank=1,2,4 --db "$PWD/out.db" --emit > sweep.cmds
    n=$(wc -l < sweep.cmds)
    job=$(sbatch --parsable --array=1-"$n"%64 "$src/scripts/slurm-sweep.sbatch" sweep.cmds)
    merge=$(sbatch --parsable --dependency=afterany:"$job" --wrap 'tessera merge out.db out-shard-*.db && rm out-shard-*.db')
    [ -n "$job" ] && [ -n "$merge" ] || { fail "sbatch gave no job id"; cd "$src"; stop_slurm; return 0; }
    local state
    state=$(wait_job "$merge" 120)
    local ok
    ok=$(sqlite3 out.db "SELECT count(*) FROM runs WHERE status = 'ok'" 2>/dev/null || echo 0)
    local points
    points=$(sqlite3 out.db "SELECT count(DISTINCT config) FROM runs" 2>/dev/null || echo 0)
    if [ "$ok" = "$n" ] && [ "$points" = "$n" ] && [ "$state" = "JobState=COMPLETED ExitCode=0:0 " ] &&
       ! ls out-shard-*.db > /dev/null 2>&1; then
        say "slurm: $n points as a job array, merged by a dependent job: $ok ok runs"
    else
        fail "slurm sweep: $ok ok runs of $n points ($points configurations); merge job $state"
        tail -n 5 ./*.out >&2 || true
    fi
    # Resume (docs/SWEEPS.md): the same sweep emits nothing more; one more sm.bank value
    # emits only its 3 new points, whose array and merge complete the study
    local again more
    again=$(tessera sweep prog.s -s sm.arbiter=fixed,rr,fifo -s sm.bank=1,2,4 --db "$PWD/out.db" --emit 2>/dev/null | wc -l)
    tessera sweep prog.s -s sm.arbiter=fixed,rr,fifo -s sm.bank=1,2,4,8 --db "$PWD/out.db" --emit > more.cmds 2>/dev/null
    more=$(wc -l < more.cmds)
    job=$(sbatch --parsable --array=1-"$more" "$src/scripts/slurm-sweep.sbatch" more.cmds)
    merge=$(sbatch --parsable --dependency=afterany:"$job" --wrap 'tessera merge out.db out-shard-*.db && rm out-shard-*.db')
    state=$(wait_job "$merge" 120)
    ok=$(sqlite3 out.db "SELECT count(*) FROM runs WHERE status = 'ok'" 2>/dev/null || echo 0)
    points=$(sqlite3 out.db "SELECT count(DISTINCT config) FROM runs" 2>/dev/null || echo 0)
    if [ "$again" = 0 ] && [ "$more" = 3 ] && [ "$ok" = 12 ] && [ "$points" = 12 ] &&
       [ "$state" = "JobState=COMPLETED ExitCode=0:0 " ]; then
        say "slurm: resume: the same sweep emits 0 commands, one more value 3; 12 points, one ok run each"
    else
        fail "slurm resume: $again then $more commands; $ok ok runs, $points configurations; merge job $state"
    fi
    # A policy of one's own on the Slurm path (docs/STUDY-POLICIES.md): each point
    # records its scheduler, the plugin's absolute path, name and hash
    cp "$build/examples/policies/two_level.so" .
    tessera sweep "$src/examples/stages.s" -s core.model=simt \
        -s simt.scheduler=gto,plugin:two_level.so --db "$PWD/pol.db" --emit > pol.cmds
    job=$(sbatch --parsable --array=1-2 "$src/scripts/slurm-sweep.sbatch" pol.cmds)
    merge=$(sbatch --parsable --dependency=afterany:"$job" --wrap 'tessera merge pol.db pol-shard-*.db && rm pol-shard-*.db')
    state=$(wait_job "$merge" 120)
    local rec sha
    rec=$(sqlite3 pol.db "SELECT group_concat(value, ' ') FROM (SELECT value FROM params WHERE key LIKE 'simt.scheduler%' ORDER BY run_id, key)" 2>/dev/null || echo none)
    sha=$(sha256sum two_level.so | cut -c1-64)
    if [ "$rec" = "gto plugin:$PWD/two_level.so two_level $sha" ] &&
       [ "$state" = "JobState=COMPLETED ExitCode=0:0 " ]; then
        say "slurm: simt.scheduler=gto,plugin:two_level.so as a job array, the plugin's path and sha256 recorded per point"
    else
        fail "slurm plugin sweep: params '$rec'; merge job $state"
    fi
    state=$(wait_job "${slow}_1" 200)
    local status log
    status=$(sqlite3 slow-shard-1.db "SELECT status FROM runs" 2>/dev/null || echo none)
    log=$(cat "tessera-sweep-${slow}_1.out" 2>/dev/null || true)
    if [ "$status" = interrupted ] && [ "$state" = "JobState=FAILED ExitCode=4:0 " ] &&
       grep -q 'CANCELLED' <<< "$log" && grep -q 'failed with exit code 4' <<< "$log"; then
        say "slurm: the time-limit signal: run 'interrupted', task log CANCELLED, job FAILED exit 4"
    else
        fail "slurm signal: run '$status', job $state; log:"; echo "$log" | tail -5 >&2
    fi
    cd "$src"
    stop_slurm
}

mkdir -p "$work"
rm -rf "$work/tests"
for check in "$@"; do
    start=$(date +%s)
    case $check in
    vcd) check_vcd ;;
    speedscope) check_speedscope ;;
    svg) check_svg ;;
    view) check_view ;;
    slurm) check_slurm ;;
    *) echo "usage: scripts/realtools.sh [BUILD_DIR [vcd|speedscope|svg|view|slurm...]]" >&2; exit 1 ;;
    esac
    say "$check: $(($(date +%s) - start)) s"
done
[ "$failed" -eq 0 ] || { echo "realtools: failed" >&2; exit 1; }
say "every check passed"

#!/bin/sh
# check-includes.sh — the dependency direction of docs/ARCHITECTURE.md
# ("Layers and includes"), checked by reading every #include of the library,
# the command and the examples (tests may include anything). Fails, naming
# file, line and rule, when a file includes what its layer may not, or a
# block's private header (one whose first comment says "Private to …") from
# outside the files it names.
# Usage: scripts/check-includes.sh [SOURCE_DIR]   (ctest: check_includes)
#        scripts/check-includes.sh --self-test     (ctest: check_includes_self_test:
#        a planted tree with one include against each kind of rule must fail)
set -eu
if [ "${1:-}" = --self-test ]; then
    t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
    mkdir -p "$t/events/base" "$t/model" "$t/config" "$t/analysis/present" "$t/analysis/store" \
             "$t/analysis/view" "$t/cli" "$t/examples"
    printf '#include <ev.h>\n' > "$t/events/driver.c"                  # allowed
    printf '#include <sqlite3.h>\n#include "analysis/store/db.h"\n' > "$t/cli/c.c" # allowed
    printf '#include "analysis/recorder/rec.h"\n' > "$t/cli/d.c"        # 1 bad (a reader)
    printf '#include "analysis/store/rec_level.h"\n' > "$t/config/k.c"  # allowed (a leaf)
    printf '#include "analysis/recorder/rec.h"\n' > "$t/analysis/present/p.c" # 1 bad
    printf '#include "analysis/recorder/rec.h"\n' > "$t/analysis/view/v.c"    # 1 bad
    printf '#include <ev.h>\n#include "model/gpu.h"\n' > "$t/events/sim.c"       # 2 bad
    printf '#include "events/sim.h"\n' > "$t/events/base/err.c"        # 1 bad
    printf '#include <sqlite3.h>\n#include "config/cfg.h"\n' > "$t/model/sm.c"  # 2 bad
    printf '#include "analysis/store/db.h"\n' > "$t/config/cfg.c"       # 1 bad
    printf '#include "analysis/recorder/rec_int.h"\n' > "$t/analysis/present/r.c" # 1 bad
    printf '#include "analysis/recorder/rec.h"\n' > "$t/analysis/store/m.c"      # 1 bad
    printf '#include "cli/commands.h"\n' > "$t/examples/e.c"             # 1 bad
    mkdir -p "$t/api"
    printf '#include "analysis/recorder/rec.h"\n#include "config/cfg.h"\n' > "$t/api/a.c" # allowed
    printf '#include "api/tessera.h"\n' > "$t/analysis/store/n.c"       # 1 bad
    mkdir -p "$t/model/simt"
    printf '/* u.h — insides. Private to model/simt/. */\n' > "$t/model/simt/u.h"
    printf '#include "model/simt/u.h"\n' > "$t/model/simt/a.c"          # allowed
    printf '#include "model/simt/u.h"\n' > "$t/model/c.c"               # 1 bad (private)
    out=$("$0" "$t" 2>&1) && { echo "check-includes: the planted tree passed"; exit 1; }
    echo "$out"
    echo "$out" | grep -q '^check-includes: 13 include(s) against the layering$' ||
        { echo "check-includes: expected 13 findings"; exit 1; }
    echo "$out" | grep -q '^model/c.c:1: includes model/simt/u.h, private to model/simt/$' ||
        { echo "check-includes: expected the private header's finding"; exit 1; }
    echo "$out" | grep -q "^check-includes: 1 include(s) of another block's private header$" ||
        { echo "check-includes: expected 1 private-header finding"; exit 1; }
    exit 0
fi
cd "${1:-$(dirname "$0")/..}"

# The rules, one a line: FILES (a shell pattern on the path) :: FORBIDDEN (an
# extended regex on what is included, "quoted/path.h" or <system.h>) ::
# EXCEPT (a shell pattern of files the rule does not apply to, or -) :: WHY,
# and optionally :: BUT (an extended regex of includes the rule lets through).
# To place a new folder in the layering, add its lines here and in
# docs/ARCHITECTURE.md.
RULES='
events/base/* :: ^"(events/[a-z_]+\.h|model|config|analysis|cli) :: - :: events/base/ is the lowest layer
events/* :: ^"(model|config|analysis|cli)/ :: - :: events/ is below the model, the configuration, analysis and the command
model/* :: ^"(config|analysis|cli)/ :: - :: the model is below the configuration, analysis and the command
config/* :: ^"(analysis|cli)/ :: - :: the configuration is below analysis and the command (but the record levels, a leaf header) :: ^"analysis/store/rec_level\.h"$
events/* :: ^<sqlite3\.h> :: - :: the kernel never includes SQLite
model/* :: ^<sqlite3\.h> :: - :: the model never includes SQLite
config/* :: ^<sqlite3\.h> :: - :: the configuration never includes SQLite
* :: ^<ev\.h> :: events/driver.c :: libev is used by the host driver (events/driver.c) alone
analysis/* :: ^"(config|cli)/ :: - :: analysis reads the model and the database, not the configuration or the command
analysis/store/* :: ^"(model|analysis/recorder|analysis/present)/ :: - :: the store is the lowest analysis module
analysis/present/* :: ^"(model|analysis/recorder)/ :: - :: presentation reads the database through the store'"'"'s public headers, never the recorder
analysis/view/* :: ^"(model|analysis/recorder)/ :: - :: the viewer reads the database through the store'"'"'s public headers, never the recorder
cli/* :: ^"analysis/recorder/ :: - :: the command records through the run API (api/tessera.h) and reads through the store'"'"'s public headers
analysis/recorder/* :: ^("analysis/view/|<microhttpd\.h>|<jansson\.h>) :: - :: the library does not depend on the viewer'"'"'s HTTP server and JSON (analysis/view/)
analysis/store/* :: ^("analysis/view/|<microhttpd\.h>|<jansson\.h>) :: - :: the library does not depend on the viewer'"'"'s HTTP server and JSON (analysis/view/)
analysis/present/* :: ^("analysis/view/|<microhttpd\.h>|<jansson\.h>) :: - :: the library does not depend on the viewer'"'"'s HTTP server and JSON (analysis/view/)
events/* :: ^"api/([^t]|tessera\.) :: - :: nothing below the run API includes it (but its self-contained plugin interface, api/tessera_policy.h)
model/* :: ^"api/([^t]|tessera\.) :: - :: nothing below the run API includes it (but its self-contained plugin interface, api/tessera_policy.h)
config/* :: ^"api/([^t]|tessera\.) :: - :: nothing below the run API includes it (but its self-contained plugin interface, api/tessera_policy.h)
analysis/* :: ^"api/([^t]|tessera\.) :: - :: nothing below the run API includes it (but its self-contained plugin interface, api/tessera_policy.h)
events/* :: ^"cli/ :: - :: only the command includes cli/
model/* :: ^"cli/ :: - :: only the command includes cli/
config/* :: ^"cli/ :: - :: only the command includes cli/
analysis/* :: ^"cli/ :: - :: only the command includes cli/
api/* :: ^"cli/ :: - :: only the command includes cli/
examples/* :: ^"cli/ :: - :: only the command includes cli/
'

files=$(find events model config analysis api cli examples -name '*.[ch]' 2>/dev/null | sort)
[ -n "$files" ] || { echo "check-includes: no sources under $(pwd)" >&2; exit 2; }

# A block's private headers: a header whose first comment says "Private to
# P, P…" (each P a folder ending in / or a shell pattern such as model/asm*;
# the list ends at the first word without a /) may be included only by the
# files those patterns name (and by tests). One line per private header:
# "HEADER P P…".
private=$(for h in $files; do
    case $h in *.h) ;; *) continue ;; esac
    awk -v h="$h" '
        NR == 1, /\*\// { text = text " " $0 }
        END {
            i = index(text, "Private to ")
            if (!i) exit
            n = split(substr(text, i + 11), w, /[ \t]+/)
            out = h
            for (k = 1; k <= n; k++) {
                t = w[k]
                if (t == "*" || t == "") continue
                if (t !~ /\//) break
                last = t ~ /[.;:]$/
                sub(/[.,;:]+$/, "", t)
                out = out " " t
                if (last) break
            }
            if (out != h) print out
        }' "$h"
done)

layering=0
# shellcheck disable=SC2086
grep -n '^[[:space:]]*#[[:space:]]*include' $files |
awk -v rules="$RULES" '
BEGIN {
    n = split(rules, line, "\n")
    for (i = 1; i <= n; i++) {
        if (line[i] == "") continue
        split(line[i], f, / :: /)
        k++; files[k] = f[1]; bad[k] = f[2]; except[k] = f[3]; why[k] = f[4]; but[k] = f[5]
    }
}
# a shell pattern (only * is used) as an anchored regex
function glob(p,   r) { r = p; gsub(/\./, "\\.", r); gsub(/\*/, ".*", r); return "^" r "$" }
{
    split($0, a, ":"); file = a[1]; lno = a[2]
    inc = $0; sub(/^[^:]*:[^:]*:[[:space:]]*#[[:space:]]*include[[:space:]]*/, "", inc)
    sub(/[[:space:]].*$/, "", inc)
    checked++
    for (i = 1; i <= k; i++) {
        if (file !~ glob(files[i])) continue
        if (except[i] != "-" && file ~ glob(except[i])) continue
        if (inc ~ bad[i] && !(but[i] != "" && inc ~ but[i])) {
            printf "%s:%s: includes %s: %s\n", file, lno, inc, why[i]
            errors++
        }
    }
}
END {
    if (errors) { printf "check-includes: %d include(s) against the layering\n", errors; exit 1 }
    printf "check-includes: %d includes follow the layering\n", checked
}' || layering=1

# shellcheck disable=SC2086
grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files |
awk -v private="$private" '
BEGIN {
    n = split(private, line, "\n")
    for (i = 1; i <= n; i++) {
        if (line[i] == "") continue
        k = split(line[i], w, " ")
        pats[w[1]] = ""
        for (j = 2; j <= k; j++) pats[w[1]] = pats[w[1]] " " w[j]
        headers++
    }
}
# a pattern as an anchored regex: a folder (ending in /) is everything in it
function glob(p,   r) {
    r = p; gsub(/\./, "\\.", r); gsub(/\*/, "[^/]*", r)
    return r ~ /\/$/ ? "^" r : "^" r "$"
}
{
    split($0, a, ":"); file = a[1]; lno = a[2]
    inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
    if (!(inc in pats) || file == inc) next
    ok = 0
    np = split(pats[inc], p, " ")
    for (j = 1; j <= np; j++) if (file ~ glob(p[j])) ok = 1
    if (!ok) {
        printf "%s:%s: includes %s, private to%s\n", file, lno, inc, pats[inc]
        errors++
    }
}
END {
    if (errors) { printf "check-includes: %d include(s) of another block'"'"'s private header\n", errors; exit 1 }
    printf "check-includes: %d private headers included only by their blocks\n", headers
}' || layering=1
exit $layering

/* gen-names.c — writes <build>/gen/tessera_names.h at build time
 * (CMakeLists.txt): the names of the model's lists that analysis/ spells in
 * SQL text and in the columns it reads — the TS's stall reasons (GPU_STALLS)
 * and the SIMT unit's (GPU_SIMT_STALL_LIST, model/gpu_trace.h), the
 * configuration keys of the model's settings (GPU_KEYS, model/gpu_keys.h),
 * the machines and reconvergence modes they choose (GPU_MODELS,
 * GPU_RECONVS, model/gpu.h), and the units that report end-of-run counters
 * and each one's counters (GPU_UNITS, GPU_COUNTERS, model/gpu_counters.h)
 * — as macros, so that the store and the
 * presentation, which may not include the model (scripts/check-includes.sh),
 * take them from the model's one list and retype none. Usage: gen-names OUT.h */
#include <ctype.h>
#include <stdio.h>

#include "model/gpu.h"
#include "model/gpu_counters.h"
#include "model/gpu_keys.h"
#include "model/gpu_trace.h"

/* The SIMT unit's stall reasons by value. */
static const char *const simt_names[] = {GPU_SIMT_STALL_LIST(XENUM_NAME)[GPU_SIMT_STALLS] = NULL};

/* The slot profile's stall columns (slot_profile, `tessera report --slots`)
 * in the order schema version 14 gave them; a reason not named here follows
 * them in the list's order. */
static const gpu_simt_stall_t slot_order[] = {
    GPU_SIMT_STALL_ISSUE,  GPU_SIMT_STALL_FETCH,   GPU_SIMT_STALL_COLLECTOR,
    GPU_SIMT_STALL_MEMORY, GPU_SIMT_STALL_EXECUTE, GPU_SIMT_STALL_BARRIER};
#define SLOT_ORDER_N (sizeof slot_order / sizeof slot_order[0])
_Static_assert(SLOT_ORDER_N <= GPU_SIMT_STALLS, "slot_order names a reason twice");

/* " X(name, 'name')", or Y for the reason only thread groups have (S14:
 * barrier; NULL in the stack's rows); the reasons by value */
static void simt_entry(FILE *f, unsigned k, const char *x, const char *y)
{
    const char *name = simt_names[k];
    fprintf(f, " %s(%s, \"'%s'\")", k == GPU_SIMT_STALL_BARRIER ? y : x, name, name);
}

/* GEN_SLOT_STALLS(X, Y): slot_order, then the rest in the list's order */
static int slot_stalls(FILE *f)
{
    unsigned seen = 0;
    fprintf(f, "#define GEN_SLOT_STALLS(X, Y)");
    for (unsigned i = 0; i < SLOT_ORDER_N; i++) {
        if (seen & 1u << slot_order[i]) {
            fprintf(stderr, "gen-names: slot_order names %s twice\n",
                    simt_names[slot_order[i]]);
            return 1;
        }
        seen |= 1u << slot_order[i];
        simt_entry(f, slot_order[i], "X", "Y");
    }
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
        if (!(seen & 1u << k))
            simt_entry(f, k, "X", "Y");
    fprintf(f, "\n");
    return 0;
}

/* --- the units and their counters (model/gpu_counters.h) ------------------ */

/* NAME in capitals */
static void upper(FILE *f, const char *name)
{
    for (const char *p = name; *p; p++)
        fputc(toupper((unsigned char)*p), f);
}

/* GEN_UNIT_ID "name"; a numbered unit's GEN_UNIT_ID_GLOB, its rows' GLOB
 * pattern, and GEN_UNIT_ID_NUMBER_AT, where its number starts (SQL substr,
 * from 1, as text); GEN_UNIT_ID_REASON "name.", a stall reason's interval
 * unit less the reason */
static void units(FILE *f)
{
    fprintf(f, "\n/* the units of counters.component and intervals.unit, GEN_UNIT_ID "
               "\"name\"; a numbered\n * unit's rows are name0, name1, …: "
               "GEN_UNIT_ID_GLOB matches them, its number\n * starts at "
               "GEN_UNIT_ID_NUMBER_AT (SQL's substr); GEN_UNIT_ID_REASON is a\n * "
               "stall reason's interval unit without the reason (model/gpu_counters.h) */\n");
#define UNIT(P, id, name, kind)                                                             \
    fprintf(f, "#define GEN_UNIT_%s \"%s\"\n", #id, name);                                  \
    if (kind == GPU_UNIT_NUMBERED)                                                          \
        fprintf(f, "#define GEN_UNIT_%s_GLOB \"%s[0-9]*\"\n"                                 \
                   "#define GEN_UNIT_%s_NUMBER_AT \"%d\"\n",                                 \
                #id, name, #id, (int)sizeof name);                                          \
    if (kind == GPU_UNIT_REASONS)                                                           \
        fprintf(f, "#define GEN_UNIT_%s_REASON \"%s" GPU_UNIT_REASON_SEP "\"\n", #id, name);
    GPU_UNITS(UNIT)
#undef UNIT
}

/* The stall reasons of a unit's R entry (gpu_counters.h): the TS's, the
 * SIMT unit's; whether reason k is the thread groups' alone (a G entry). */
static const char *const ts_reasons[] = {GPU_STALLS(XENUM_NAME)[GPU_STALL_REASONS] = NULL};
static const char *const *reasons_of(gpu_unit_t unit)
{
    return unit == GPU_UNIT_TS ? ts_reasons : unit == GPU_UNIT_SIMT ? simt_names : NULL;
}
static int groups_only(gpu_unit_t unit, unsigned k)
{
    return unit == GPU_UNIT_SIMT && k == GPU_SIMT_STALL_BARRIER;
}

/* One counter: its macro GEN_CTR_UNIT_ID[_REASON] "name" (list == 0), or
 * its entry " X(name, \"name\")" (G for the thread groups') in its unit's
 * list */
static void counter(FILE *f, int list, const char *unit, const char *id, const char *prefix,
                    const char *reason, const char *suffix, int groups)
{
    if (list) {
        fprintf(f, " %c(%s%s%s, \"%s%s%s\")", groups ? 'G' : 'X', prefix, reason, suffix,
                prefix, reason, suffix);
        return;
    }
    fprintf(f, "#define GEN_CTR_%s_%s", unit, id);
    if (*reason) {
        fputc('_', f);
        upper(f, reason);
    }
    fprintf(f, " \"%s%s%s\"\n", prefix, reason, suffix);
}

/* An R entry's counters, one per reason of its unit, and (list == 0) their
 * GLOB pattern GEN_CTR_UNIT_ID_GLOB and the list of them by reason,
 * GEN_CTRS_UNIT_ID(X, G): X(reason, "name"), G for the thread groups' */
static void reason_counters(FILE *f, int list, gpu_unit_t u, const char *unit, const char *id,
                            const char *prefix, const char *suffix)
{
    const char *const *reasons = reasons_of(u);
    for (unsigned k = 0; reasons && reasons[k]; k++)
        counter(f, list, unit, id, prefix, reasons[k], suffix, groups_only(u, k));
    if (list)
        return;
    fprintf(f, "#define GEN_CTR_%s_%s_GLOB \"%s*%s\"\n", unit, id, prefix, suffix);
    fprintf(f, "#define GEN_CTR_%s_%s_PREFIX \"%s\"\n", unit, id, prefix);
    fprintf(f, "#define GEN_CTR_%s_%s_SUFFIX \"%s\"\n", unit, id, suffix);
    fprintf(f, "#define GEN_CTRS_%s_%s(X, G)", unit, id);
    for (unsigned k = 0; reasons && reasons[k]; k++)
        fprintf(f, " %c(%s, \"%s%s%s\")", groups_only(u, k) ? 'G' : 'X', reasons[k], prefix,
                reasons[k], suffix);
    fprintf(f, "\n");
}

/* Each counter's GEN_CTR_UNIT_ID, then each unit's list GEN_CTRS_UNIT(X, G) */
static void counters(FILE *f)
{
    fprintf(f, "\n/* each unit's counters (counters.name, model/gpu_counters.h): one a macro,\n"
               " * GEN_CTR_UNIT_ID \"name\" (per stall reason GEN_CTR_UNIT_ID_REASON, all of\n"
               " * them GEN_CTR_UNIT_ID_GLOB, by reason GEN_CTRS_UNIT_ID(X, G), X(reason,\n"
               " * \"name\"), the name around the reason _PREFIX and _SUFFIX); a unit's as a\n"
               " * list GEN_CTRS_UNIT(X, G), X(name, \"name\"), G(…) for a counter that only\n"
               " * runs with thread groups report */\n");
#define ONE(unit, id, name, what) counter(f, 0, #unit, #id, name, "", "", 0);
#define REASON(unit, id, prefix, suffix, what)                                              \
    reason_counters(f, 0, GPU_UNIT_##unit, #unit, #id, prefix, suffix);
    GPU_COUNTERS(ONE, ONE, REASON)
#undef ONE
#undef REASON
#define X_(unit, id, name, what) counter(f, 1, #unit, #id, name, "", "", 0);
#define G_(unit, id, name, what) counter(f, 1, #unit, #id, name, "", "", 1);
#define R_(unit, id, prefix, suffix, what)                                                  \
    reason_counters(f, 1, GPU_UNIT_##unit, #unit, #id, prefix, suffix);
#define LIST(U)                                                                             \
    fprintf(f, "#define GEN_CTRS_%s(X, G)", #U);                                            \
    GPU_COUNTERS_##U(X_, G_, R_) fprintf(f, "\n");
    LIST(GPU) LIST(TS) LIST(CORE) LIST(BANK) LIST(SIMT)
#undef LIST
}

/* #define GEN_KEY_SECTION_NAME "section.name" */
static void key(FILE *f, const char *section, const char *name)
{
    fprintf(f, "#define GEN_KEY_");
    for (const char *p = section; *p; p++)
        fputc(toupper((unsigned char)*p), f);
    fputc('_', f);
    for (const char *p = name; *p; p++)
        fputc(toupper((unsigned char)*p), f);
    fprintf(f, " \"%s.%s\"\n", section, name);
}

int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "w") : NULL;
    if (!f) {
        fprintf(stderr, "usage: gen-names OUT.h (a file that can be written)\n");
        return 1;
    }
    fprintf(f, "/* tessera_names.h — the names of the model's lists that analysis/ spells:\n"
               " * stall reasons (model/gpu_trace.h), configuration keys (model/gpu_keys.h),\n"
               " * machines and reconvergence modes (model/gpu.h), units and counters\n"
               " * (model/gpu_counters.h); generated at build time by cmake/gen-names.c:\n"
               " * do not edit. */\n"
               "#ifndef TESSERA_NAMES_H\n#define TESSERA_NAMES_H\n\n");
    /* each reason alone as an SQL literal, GEN_STALL_ID and GEN_SIMT_STALL_ID */
#define ONE(P, id, name, doc) fprintf(f, "#define GEN_%s%s \"'%s'\"\n", &#P[4], #id, name);
    GPU_STALLS(ONE)
    GPU_SIMT_STALL_LIST(ONE)
    /* the TS's reasons a frame waits for (stalls.reason); decode is not one
       of them (the decoding itself: task_latency's decoding_ps) */
    fprintf(f, "\n#define GEN_STALL_WAITS(X)");
#define WAIT(P, id, name, doc)                                                                  \
    if (P##id != GPU_STALL_DECODE)                                                              \
        fprintf(f, " X(%s, \"'%s'\")", name, name);
    GPU_STALLS(WAIT)
    fprintf(f, "\n\n/* the SIMT unit's stall reasons (simt_warps.stall_NAME_cycles), X(name,\n"
               " * 'name'): all of them; split into X, the reasons of every SIMT run, and Y,\n"
               " * barrier (thread groups only, S14); in the slot profile's order (the\n"
               " * columns of slot_profile); and X(A, name) with an argument A */\n");
    fprintf(f, "#define GEN_SIMT_STALLS(X)");
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
        simt_entry(f, k, "X", "X");
    fprintf(f, "\n#define GEN_SIMT_STALLS_BY(X, Y)");
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
        simt_entry(f, k, "X", "Y");
    fprintf(f, "\n");
    if (slot_stalls(f))
        return 1;
    fprintf(f, "#define GEN_SIMT_STALLS_WITH(X, A)");
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
        fprintf(f, " X(A, %s)", simt_names[k]);
    fprintf(f, "\n#define GEN_SIMT_STALL_COUNT %d\n", (int)GPU_SIMT_STALLS);
    /* the configuration keys of gpu_desc_t's fields */
    fprintf(f, "\n/* the configuration keys of the model's settings, \"section.name\" */\n");
#define KEY(field, section, name, ...) key(f, section, name);
    GPU_KEYS(KEY, KEY, KEY, KEY)
    /* the values of core.model and simt.reconvergence */
    fprintf(f, "\n/* the machines (core.model) and reconvergence modes (simt.reconvergence) */\n");
#define VALUE(P, id, name, doc) fprintf(f, "#define GEN_%s%s \"%s\"\n", &#P[4], #id, name);
    GPU_MODELS(VALUE)
    GPU_RECONVS(VALUE)
    units(f);
    counters(f);
    fprintf(f, "\n#endif\n");
    return fclose(f) == 0 ? 0 : 1;
}

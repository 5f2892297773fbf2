/* gen-names.c — writes <build>/gen/tessera_names.h at build time
 * (CMakeLists.txt): the names of the model's lists that analysis/ spells in
 * SQL text and in the columns it reads — the TS's stall reasons (GPU_STALLS)
 * and the SIMT unit's (GPU_SIMT_STALL_LIST, model/gpu_trace.h), the
 * configuration keys of the model's settings (GPU_KEYS, model/gpu_keys.h)
 * and the machines and reconvergence modes they choose (GPU_MODELS,
 * GPU_RECONVS, model/gpu.h) — as macros, so that the store and the
 * presentation, which may not include the model (scripts/check-includes.sh),
 * take them from the model's one list and retype none. Usage: gen-names OUT.h */
#include <ctype.h>
#include <stdio.h>

#include "model/gpu.h"
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

/* The reasons schema version 14 stored (frozen: the columns of its
 * slot_counts and simt_warps, analysis/store/tables.h's _V14 lists). A reason
 * not named here is newer: GEN_SIMT_STALLS_SINCE_V14, whose columns every
 * migration adds to an older file (schema.c, "Adding a stall reason"). */
static const gpu_simt_stall_t schema_v14[] = {
    GPU_SIMT_STALL_MEMORY, GPU_SIMT_STALL_EXECUTE,   GPU_SIMT_STALL_ISSUE,
    GPU_SIMT_STALL_FETCH,  GPU_SIMT_STALL_COLLECTOR, GPU_SIMT_STALL_BARRIER};

static int in_v14(unsigned k)
{
    for (unsigned i = 0; i < sizeof schema_v14 / sizeof schema_v14[0]; i++)
        if (schema_v14[i] == k)
            return 1;
    return 0;
}

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
               " * machines and reconvergence modes (model/gpu.h); generated at build time\n"
               " * by cmake/gen-names.c: do not edit. */\n"
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
    fprintf(f, "/* X(A, name) of the reasons newer than schema version 14, in the list's order */\n"
               "#define GEN_SIMT_STALLS_SINCE_V14(X, A)");
    for (unsigned k = 0; k < GPU_SIMT_STALLS; k++)
        if (!in_v14(k))
            fprintf(f, " X(A, %s)", simt_names[k]);
    fprintf(f, "\n");
    /* the configuration keys of gpu_desc_t's fields */
    fprintf(f, "\n/* the configuration keys of the model's settings, \"section.name\" */\n");
#define KEY(field, section, name, ...) key(f, section, name);
    GPU_KEYS(KEY, KEY, KEY, KEY)
    /* the values of core.model and simt.reconvergence */
    fprintf(f, "\n/* the machines (core.model) and reconvergence modes (simt.reconvergence) */\n");
#define VALUE(P, id, name, doc) fprintf(f, "#define GEN_%s%s \"%s\"\n", &#P[4], #id, name);
    GPU_MODELS(VALUE)
    GPU_RECONVS(VALUE)
    fprintf(f, "\n#endif\n");
    return fclose(f) == 0 ? 0 : 1;
}

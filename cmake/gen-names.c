/* gen-names.c — writes <build>/gen/tessera_names.h at build time
 * (CMakeLists.txt): the names of the model's lists that SQL text in
 * analysis/store/ spells — the TS's stall reasons (GPU_STALLS) and the SIMT
 * unit's (GPU_SIMT_STALL_LIST), model/gpu_trace.h — as X-macros of SQL
 * literals, so that the store, which may not include the model
 * (scripts/check-includes.sh), takes them from the model's one list and
 * retypes none. Usage: gen-names OUT.h */
#include <stdio.h>

#include "model/gpu_trace.h"

int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "w") : NULL;
    if (!f) {
        fprintf(stderr, "usage: gen-names OUT.h (a file that can be written)\n");
        return 1;
    }
    fprintf(f, "/* tessera_names.h — the names of model/gpu_trace.h's lists that the\n"
               " * store's SQL spells, each alone (GEN_STALL_ID, GEN_SIMT_STALL_ID) and as\n"
               " * X-macros X(name, 'name'); generated at build time\n"
               " * by cmake/gen-names.c: do not edit. */\n"
               "#ifndef TESSERA_NAMES_H\n#define TESSERA_NAMES_H\n\n");
    /* each reason alone, GEN_STALL_ID and GEN_SIMT_STALL_ID */
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
    fprintf(f, "\n\n/* the SIMT unit's stall reasons (simt_warps.stall_NAME_cycles) */\n");
    fprintf(f, "#define GEN_SIMT_STALLS(X)");
#define SIMT(P, id, name, doc) fprintf(f, " X(%s, \"'%s'\")", name, name);
    GPU_SIMT_STALL_LIST(SIMT)
    fprintf(f, "\n\n#endif\n");
    return fclose(f) == 0 ? 0 : 1;
}

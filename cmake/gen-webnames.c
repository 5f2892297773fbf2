/* gen-webnames.c — writes <build>/gen/web/names.js at build time
 * (CMakeLists.txt), the viewer's module of the model's names: the SIMT stall
 * reasons in the slot profile's column order with their columns
 * (GEN_SLOT_STALLS of tessera_names.h, DB_SLOT_STALL of
 * analysis/store/tables.h) and meanings (GPU_SIMT_STALL_LIST), the
 * configuration keys of the model's settings (GPU_KEYS) and the machines and
 * reconvergence modes (GPU_MODELS, GPU_RECONVS), so that the web app
 * (analysis/view/web, which embeds this file beside its own) retypes none.
 * The module sets TS.NAMES to one JSON object. Usage: gen-webnames OUT.js */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/store/tables.h"
#include "model/gpu.h"
#include "model/gpu_keys.h"
#include "model/gpu_trace.h"

/* s as a JSON string */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

/* The meaning of the SIMT stall reason `name` (GPU_SIMT_STALL_LIST). */
static const char *simt_doc(const char *name)
{
#define DOC(P, id, text, doc) {text, doc},
    static const struct { const char *name, *doc; } docs[] = {GPU_SIMT_STALL_LIST(DOC)};
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
        if (!strcmp(docs[i].name, name))
            return docs[i].doc;
    return NULL;
}

/* "stalls": the slot profile's order, each {name, column, doc, groups_only}
 * (groups_only: thread groups' only, S14; NULL in the stack's rows) */
static int stalls(FILE *f)
{
    bool first = true;
    int bad = 0;
    fprintf(f, "  \"stalls\": [");
#define COLUMN(col, type) #col
#define STALL(name, literal, groups)                                                          \
    {                                                                                         \
        const char *doc = simt_doc(#name);                                                    \
        bad |= !doc;                                                                          \
        fprintf(f, "%s\n    {\"name\": \"%s\", \"column\": \"%s\", \"doc\": ", first ? "" : ",", \
                #name, DB_SLOT_STALL(COLUMN, name));                                          \
        json_str(f, doc ? doc : "");                                                          \
        fprintf(f, ", \"groups_only\": %s}", groups ? "true" : "false");                      \
        first = false;                                                                        \
    }
#define STALL_ALL(name, literal) STALL(name, literal, false)
#define STALL_GROUPS(name, literal) STALL(name, literal, true)
    GEN_SLOT_STALLS(STALL_ALL, STALL_GROUPS)
    fprintf(f, "\n  ],\n");
    if (bad)
        fprintf(stderr, "gen-webnames: a reason of GEN_SLOT_STALLS is not in GPU_SIMT_STALL_LIST\n");
    return bad;
}

/* "keys": {field: "section.name"} of every setting of gpu_desc_t */
static void keys(FILE *f)
{
    bool first = true;
    fprintf(f, "  \"keys\": {");
#define KEY(field, section, name, ...)                                                        \
    fprintf(f, "%s\n    \"%s\": \"%s.%s\"", first ? "" : ",", #field, section, name),         \
        first = false;
    GPU_KEYS(KEY, KEY, KEY, KEY)
    fprintf(f, "\n  },\n");
}

/* "models" and "reconvergences": {ID: "name"} (core.model, simt.reconvergence) */
static void values(FILE *f)
{
    const char *sep = "";
#define VALUE(P, id, name, doc) fprintf(f, "%s\"%s\": \"%s\"", sep, #id, name), sep = ", ";
    fprintf(f, "  \"models\": {");
    GPU_MODELS(VALUE)
    sep = "";
    fprintf(f, "},\n  \"reconvergences\": {");
    GPU_RECONVS(VALUE)
    fprintf(f, "}\n");
}

int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "w") : NULL;
    if (!f) {
        fprintf(stderr, "usage: gen-webnames OUT.js (a file that can be written)\n");
        return 1;
    }
    fprintf(f, "// names.js — the names of the model's lists that the viewer spells: the SIMT\n"
               "// stall reasons in the slot profile's order with their columns\n"
               "// (model/gpu_trace.h, analysis/store/tables.h), the configuration keys of\n"
               "// the model's settings (model/gpu_keys.h), the machines and reconvergence\n"
               "// modes (model/gpu.h); generated at build time by cmake/gen-webnames.c: do\n"
               "// not edit. TS.NAMES is one JSON object.\n"
               "'use strict';\n\nTS.NAMES = {\n");
    int bad = stalls(f);
    keys(f);
    values(f);
    fprintf(f, "};\n");
    return fclose(f) == 0 && !bad ? 0 : 1;
}

/* gen-pycodes.c — writes python/tessera/_codes.py at build time
 * (CMakeLists.txt): the result codes of events/base/err.h (TESS_ERRORS),
 * the run statuses of analysis/store/db.h (DB_STATUSES) and the policy
 * plugins' interface version and kinds by key (api/tessera_policy.h,
 * model/policy.h's GPU_POINTS) for the Python binding, so that nothing in
 * Python retypes them. Usage: gen-pycodes OUT */
#include <stdio.h>

#include "analysis/store/db.h"
#include "events/base/err.h"
#include "model/gpu_keys.h"
#include "model/policy.h"

int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "w") : NULL;
    if (!f) {
        fprintf(stderr, "usage: gen-pycodes OUT.py (a file that can be written)\n");
        return 1;
    }
    fprintf(f, "\"\"\"_codes.py — the result codes of events/base/err.h (TESS_ERRORS), the\n"
               "command's exit codes, and the run statuses of analysis/store/db.h\n"
               "(DB_STATUSES, runs.status); generated at build time by\n"
               "cmake/gen-pycodes.c: do not edit.\"\"\"\n\n");
#define CONST(id, value, name, word, meaning) fprintf(f, "%s = %d\n", #id, value);
    TESS_ERRORS(CONST)
    fprintf(f, "\nNAMES = {\n");
#define NAME(id, value, name, word, meaning) fprintf(f, "    %d: \"%s\",\n", value, name);
    TESS_ERRORS(NAME)
    fprintf(f, "}\n\n");
#define STATUS(id, name, meaning) fprintf(f, "STATUS_%s = \"%s\"\n", #id, name);
    DB_STATUSES(STATUS)
    fprintf(f, "\nSTATUSES = (\n");
#define STATUS_NAME(id, name, meaning) fprintf(f, "    \"%s\",\n", name);
    DB_STATUSES(STATUS_NAME)
    fprintf(f, ")\n\nPOLICY_ABI = %d\n\nPOLICY_KINDS = {\n", TESSERA_POLICY_ABI);
#define KIND(id, kind, row) fprintf(f, "    \"%s\": %d,\n", GPU_KEY_TEXT(row), (int)(kind));
    GPU_POINTS(KIND)
    fprintf(f, "}\n");
    return fclose(f) == 0 ? 0 : 1;
}

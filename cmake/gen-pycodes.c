/* gen-pycodes.c — writes python/tessera/_codes.py, the result codes of
 * events/base/err.h (TESS_ERRORS) for the Python binding, at build time
 * (CMakeLists.txt): the binding's exceptions (errors.py) read the codes from
 * it, so nothing in Python retypes a number of err.h. Usage: gen-pycodes OUT */
#include <stdio.h>

#include "events/base/err.h"

int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "w") : NULL;
    if (!f) {
        fprintf(stderr, "usage: gen-pycodes OUT.py (a file that can be written)\n");
        return 1;
    }
    fprintf(f, "\"\"\"_codes.py — the result codes of events/base/err.h (TESS_ERRORS), the\n"
               "command's exit codes; generated at build time by cmake/gen-pycodes.c: do\n"
               "not edit.\"\"\"\n\n");
#define CONST(id, value, name, word, meaning) fprintf(f, "%s = %d\n", #id, value);
    TESS_ERRORS(CONST)
    fprintf(f, "\nNAMES = {\n");
#define NAME(id, value, name, word, meaning) fprintf(f, "    %d: \"%s\",\n", value, name);
    TESS_ERRORS(NAME)
    fprintf(f, "}\n");
    return fclose(f) == 0 ? 0 : 1;
}

/* tessera_asm.c — tessera_assemble (tessera.h): the assembler behind the run
 * API, for bindings that build programs as text (python/tessera/program.py)
 * and want the image `tessera asm` would write, or its error message.
 * Invariant: nothing is written to tm/sm unless the assembly succeeded. */
#include <stdio.h>
#include <string.h>

#include "api/tessera.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/asm.h"

int tessera_assemble(const char *source, const char *name, uint8_t *tm, uint8_t *sm, char *msg,
                     size_t msg_size)
{
    diag_t d = {0};
    const char *file = name ? name : "<string>";
    asm_output_t *out = tess_malloc(sizeof *out);
    int rc = out ? TESS_OK : diag_fail(&d, TESS_ENOMEM, "%s: out of memory", file);
    if (rc == TESS_OK && !source)
        rc = diag_fail(&d, TESS_EINPUT, "%s: no source", file);
    if (rc == TESS_OK)
        rc = asm_assemble(out, source, strlen(source), file, &d);
    if (rc == TESS_OK && tm)
        tm_encode(&out->prog, tm);
    if (rc == TESS_OK && sm)
        memcpy(sm, out->sm, SM_BYTES);
    if (msg && msg_size)
        snprintf(msg, msg_size, "%s", rc == TESS_OK ? "" : d.msg);
    tess_free(out);
    return rc;
}

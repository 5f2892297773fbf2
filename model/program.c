/* program.c — loading a program and its initial SM (see program.h). */
#include "model/program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/asm.h"

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int load_assembly(program_t *p, const char *path, diag_t *diag)
{
    asm_output_t *out = tess_malloc(sizeof *out);
    if (!out)
        return diag_fail(diag, TESS_ENOMEM, "out of memory assembling '%s'", path);
    int rc = asm_assemble_file(out, path, diag);
    if (rc == TESS_OK) {
        p->tm = out->prog;
        for (unsigned i = 0; i < SM_BYTES; i++)
            if (out->sm_set[i])
                p->sm[i] = out->sm[i];
    }
    tess_free(out);
    return rc;
}

int program_load(program_t *p, const char *path, const char *mem_path, diag_t *diag)
{
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    if (mem_path) {
        int rc = sm_image_load_file(p->sm, mem_path, diag);
        if (rc != TESS_OK)
            return rc;
    }
    int rc;
    if (has_suffix(path, ".s") || has_suffix(path, ".asm"))
        rc = load_assembly(p, path, diag);
    else if (has_suffix(path, ".tm"))
        rc = tm_load_file(&p->tm, path, diag);
    else
        return diag_fail(diag, TESS_EINPUT,
                         "%s: unknown program type (expected a .s assembly file or a .tm image)",
                         path);
    if (rc == TESS_OK)
        tm_encode(&p->tm, p->image);
    return rc;
}

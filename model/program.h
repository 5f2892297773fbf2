/* program.h — what a run starts from: a Task Memory program and the initial
 * Shared Memory, loaded from `.s` (assembly) or `.tm` (binary image) plus an
 * optional `.mem` image. `.mem` initialises the SM first; `.data` lines of an
 * assembly program are applied on top of it. */
#ifndef TESSERA_PROGRAM_H
#define TESSERA_PROGRAM_H

#include <stdint.h>

#include "events/base/diag.h"
#include "model/tm.h"

typedef struct program {
    tm_program_t tm;              /* the program */
    uint8_t sm[SM_BYTES];         /* initial Shared Memory */
    uint8_t image[TM_BYTES];      /* tm encoded (what the hardware would hold) */
    char path[1024];              /* the program file as given */
} program_t;

/* Loads `path` (.s or .tm, by extension) and, when mem_path is not NULL, the
 * SM image. Returns TESS_OK, TESS_EINPUT (malformed; message names file and
 * line or frame) or TESS_EIO (unreadable), with the message in `diag`.
 * Warnings go to diag as well. */
int program_load(program_t *p /* OUT */, const char *path, const char *mem_path, diag_t *diag);

#endif

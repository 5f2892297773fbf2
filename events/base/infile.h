/* infile.h — the one way Tessera reads an input file: whole, but never more
 * than a limit plus one byte, so a device that never ends (/dev/zero,
 * /dev/urandom), a symlink to one, or a huge file is refused with the limit
 * named instead of read forever. Reading can be interrupted: a signal whose
 * handler returns (no SA_RESTART) makes a blocked open or read fail with
 * TESS_EINTERRUPTED; with the default disposition the signal ends the process
 * as usual (a FIFO nobody writes blocks until then). */
#ifndef TESSERA_INFILE_H
#define TESSERA_INFILE_H

#include <stddef.h>

#include "events/base/diag.h"

/* Reads `path` into a malloc'd, NUL-terminated *buf of *len bytes. More than
 * `limit` bytes is TESS_EINPUT: "PATH: N bytes: larger than WHAT (LIMIT
 * bytes)" for a regular file, "PATH: larger than WHAT (LIMIT bytes): reading
 * stopped there" for anything else. TESS_EIO (cannot open/read, a
 * directory), TESS_EINTERRUPTED, TESS_ENOMEM otherwise; all name the path.
 * On failure *buf is NULL. The caller frees *buf with tess_free. */
int infile_read(const char *path, size_t limit, const char *what, char **buf /* OUT */,
                size_t *len /* OUT */, diag_t *diag);

#endif

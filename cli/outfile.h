/* outfile.h — the one way Tessera writes an output file. A regular file (or a
 * new path) is written to a temporary file beside it and renamed into place,
 * so a failure never leaves a partial file and never loses the old one; a
 * device node, a FIFO or a socket is written to directly, never replaced; a
 * symbolic link is followed (its target is written, the link kept); "-" is
 * standard output. Before anything runs, outfile_check() refuses an output
 * that is one of the command's inputs, or two outputs on one file.
 * SIGXFSZ is ignored (outfile_init) so that a file-size limit is an error
 * (EFBIG) with a message, and a temporary file is removed when the process is
 * stopped by SIGINT, SIGTERM, SIGHUP or SIGPIPE. */
#ifndef TESSERA_OUTFILE_H
#define TESSERA_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "events/base/diag.h"

typedef struct outfile {
    FILE *f;                  /* ro: where to write */
    char *path;               /* private: the file written (symlinks resolved) */
    char *tmp;                /* private: the temporary file, NULL when direct */
    const char *name;         /* private: the path as the user gave it */
    int slot;                 /* private: index in the cleanup table, or -1 */
} outfile_t;

/* Once per process, before any output: ignores SIGXFSZ. */
void outfile_init(void);

/* Opens `path` for writing (see above). TESS_OK, or TESS_EIO / TESS_ENOMEM
 * with a message naming the path in diag (nothing is created then). A FIFO
 * blocks here until a reader opens it. */
int outfile_open(outfile_t *o, const char *path, diag_t *diag);

/* Finishes o: when `commit`, flushes it and renames the temporary file into
 * place (TESS_EIO with the reason if any write failed: the old file is then
 * untouched); else removes the temporary file. Always releases o; standard
 * output is flushed but not closed. */
int outfile_close(outfile_t *o, bool commit, diag_t *diag);

/* Finishes o after its writer failed on o->f (a write error, ferror), errno
 * `err` (0: unknown): removes the temporary file (the old file untouched) and
 * reports "NAME: cannot write: REASON" in diag (TESS_EIO; TESS_ENOMEM for
 * ENOMEM), e.g. "t.svg: cannot write: File too large" under ulimit -f. For a
 * writer that sees only the stream: the caller names the file. */
int outfile_fail(outfile_t *o, int err, diag_t *diag);

/* outfile_open + one write + outfile_close. */
int outfile_write(const char *path, const void *data, size_t len, diag_t *diag);

/* --- checks before anything runs ------------------------------------------------ */

/* A file a command names on its command line. */
typedef struct outfile_role {
    const char *path;         /* NULL or "-": not a file, skipped */
    const char *what;         /* for messages: "-o", "--dump-mem", "the program", … */
    bool database;            /* an SQLite database: its -wal and -journal count too */
} outfile_role_t;

/* Checks outputs against inputs before anything runs: an output that is a
 * directory, in a directory that does not exist or cannot be written (not
 * checked for a database: its opener explains what is wrong), the same
 * file as an input (compared by device and inode after following symbolic
 * links, or by resolved path when it does not exist yet), or the same file as
 * another output is an error (TESS_EUSAGE for a clash, TESS_EIO otherwise)
 * with a message naming both. Character devices (/dev/null) may be named more
 * than once. TESS_ENOMEM when out of memory. */
int outfile_check(const outfile_role_t *outputs, size_t n_out, const outfile_role_t *inputs,
                  size_t n_in, diag_t *diag);

/* Flushes and closes standard output at the end of a command: TESS_EIO with
 * "standard output: REASON" in diag when anything written to it was lost. */
int outfile_close_stdout(diag_t *diag);

#endif

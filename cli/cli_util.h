/* cli_util.h — small helpers shared by the subcommands: writing output files
 * without ever leaving a partial one, and reading option values. */
#ifndef TESSERA_CLI_UTIL_H
#define TESSERA_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/arch.h"
#include "model/race.h"

/* Writes `len` bytes to `path` through a temporary file renamed into place,
 * so a failure never leaves a partial file. Returns TESS_OK or TESS_EIO
 * (message printed with cli_error). */
int cli_write_file(const char *path, const void *data, size_t len);

/* Checks, before anything is simulated, that `path` can be written later:
 * its directory exists and is writable, and it is not a directory. NULL is
 * fine. Returns TESS_OK or TESS_EIO (message printed). */
int cli_check_output(const char *path);

/* --dump-mem (4096 bytes) and --dump-regs (core 0's R0…R15, then core 1's, …). */
int cli_dump_state(const arch_state_t *s, const char *mem_path, const char *regs_path);

/* Prints "tessera: out of memory" and returns TESS_ENOMEM. */
int cli_nomem(void);

/* Prints the race detector's findings to stdout: "races: none" or a count and
 * one line per race. Returns TESS_ENOMEM when the detector ran out of memory
 * (the list printed may then be incomplete), else TESS_OK. */
int cli_print_races(race_det_t *r);

/* Parses an unsigned decimal or 0x-hex number; false when malformed. */
bool cli_parse_u64(const char *text, uint64_t *out /* OUT */);

#endif

/* cli_util.h — small helpers shared by the subcommands: checking and writing
 * output files (cli/outfile.h) with the error printed, and reading
 * option values. */
#ifndef TESSERA_CLI_UTIL_H
#define TESSERA_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/outfile.h"
#include "model/arch.h"
#include "model/race.h"

/* Writes `len` bytes to `path` (outfile_write: never a partial file, a device
 * written to, a symlink followed). TESS_OK, or TESS_EIO / TESS_ENOMEM with the
 * message printed by cli_error. */
int cli_write_file(const char *path, const void *data, size_t len);

/* outfile_check with the message printed: run by every command that writes a
 * file, before anything else, so an output that is also an input, two outputs
 * on one file or an unwritable output stop it with nothing done. */
int cli_check_files(const outfile_role_t *outputs, size_t n_out, const outfile_role_t *inputs,
                    size_t n_in);

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

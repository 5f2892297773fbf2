/* fuzz_checks.h — the properties that the libFuzzer targets (tests/fuzz/fuzz_*.c)
 * and the regression test (tests/test_fuzz_regress.c) check on one input, so a
 * finding replays through exactly the code that found it. Each check takes any
 * bytes; an input that the parser rejects must be rejected cleanly (the error
 * code and a message naming the input), one that it accepts must survive the
 * round trips its module promises. No state is kept between calls. */
#ifndef TESSERA_FUZZ_CHECKS_H
#define TESSERA_FUZZ_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_WHY_MAX 4096 /* room for a violation message */

typedef enum fuzz_verdict {
    FUZZ_VIOLATED = -1, /* a property does not hold; `why` says which */
    FUZZ_REJECTED = 0,  /* the parser rejected the input, as it should have */
    FUZZ_ACCEPTED = 1,  /* accepted, and every round trip was exact */
} fuzz_verdict_t;

/* The assembler (spec §5): bytes as source text → asm_assemble; an accepted
 * program must load back from its image (tm_encode → tm_parse gives the same
 * structure) and disassemble to text that re-assembles to the identical
 * structure, image and SM bytes. */
fuzz_verdict_t fuzz_check_asm(const uint8_t *data, size_t size, char *why, size_t n);

/* The Task Memory loader (spec §2, D1–D3): bytes → tm_parse; an accepted image
 * must pass tm_validate, encode back to the input zero-padded to 2048 bytes,
 * and disassemble (with the same bytes as SM image) to text that re-assembles
 * to the identical image, structure and SM bytes. Also bytes → sm_image_parse
 * (accepted iff at most 4096 bytes, then the zero-padded input). */
fuzz_verdict_t fuzz_check_tm(const uint8_t *data, size_t size, char *why, size_t n);

/* The configuration (INI via inih): bytes up to the first NUL → cfg_load_string
 * onto the defaults; a rejection must leave the cfg_t unchanged; an accepted
 * text must consist of blank lines, comments, known [section]s and key = value
 * lines only, and its configuration must come back identical from cfg_format
 * → cfg_load_string onto the defaults and onto a configuration that differs in
 * every key, and from a `-s key=value` (cfg_set) of each key's canonical text;
 * cfg_format is then the same text. Also the whole text as one -s argument
 * (unchanged on failure). */
fuzz_verdict_t fuzz_check_config(const uint8_t *data, size_t size, char *why, size_t n);

#endif

/* tm.h — Task Memory images (spec §2, D1–D3) and Shared Memory images.
 * tm_parse() turns a binary image into a tm_program_t, validating it; the
 * structure keeps every byte of the image (reserved fields, the end marker and
 * what follows it), so tm_encode(tm_parse(x)) == x for any accepted image
 * zero-padded to 2048 bytes: the encoder is the exact inverse of the parser. */
#ifndef TESSERA_TM_H
#define TESSERA_TM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/base/diag.h"
#include "model/sizes.h"
#include "model/xenum.h"


/* The group fences in the order of their 2-bit encoding (Header[7:6]);
 * X(PREFIX, ID, "name", "meaning"), one list (xenum.h). */
#define TM_FENCES(X)                                                                        \
    X(TM_FENCE_, NO, "no", "no ordering beyond the core masks")                              \
    X(TM_FENCE_, ACQ, "acq", "later tasks wait for the group's tasks (rule 2)")              \
    X(TM_FENCE_, REL, "rel", "the group's tasks wait for every earlier task (rule 3)")       \
    X(TM_FENCE_, RESERVED, "reserved", "rejected except on the end marker (D2)")

typedef enum tm_fence { TM_FENCES(XENUM_ID) TM_FENCE_COUNT } tm_fence_t;
_Static_assert(TM_FENCE_COUNT == 4, "the fence is a 2-bit field");

/* One group: a CF and the IFs that follow it. */
typedef struct tm_group {
    uint8_t cf;             /* frame index of the CF */
    uint8_t if_num;         /* IF_Num: its IFs are frames cf+1 … cf+if_num */
    uint8_t fence;          /* tm_fence_t */
    uint8_t hdr_reserved;   /* Header[15:8], ignored by the model (D1) */
    uint16_t cores;         /* Core_Active_Vect; never 0 in a valid group */
    uint16_t init_vect;     /* Init_R0_Vect as in the image (bits of inactive cores are
                               ignored by the model, D3, but kept for the encoder) */
    uint8_t init_r0[GPU_CORES]; /* Init_R0[0..15] (bytes 16..31) */
    uint8_t reserved[10];   /* bytes 6..15, ignored (D1) */
} tm_group_t;

typedef struct tm_program {
    unsigned n_frames;               /* program frames (CFs and IFs) before the end */
    unsigned n_groups;
    tm_group_t groups[TM_FRAMES];
    uint8_t group_of[TM_FRAMES];     /* frame → index in groups (valid below n_frames) */
    uint16_t code[TM_FRAMES][TM_SLOTS]; /* IF instruction words by frame (CF rows zero) */
    bool has_end_marker;             /* n_frames < 64: frame n_frames is the end marker */
    uint8_t tail[TM_BYTES];          /* bytes from the end marker on (frame n_frames..63),
                                        as in the image; tail_len = 2048 - 32*n_frames */
} tm_program_t;

/* True when frame f (< n_frames) is a CF. */
static inline bool tm_is_cf(const tm_program_t *p, unsigned f)
{
    return p->groups[p->group_of[f]].cf == f;
}

/* Parses and validates an image of at most 2048 bytes (shorter is zero-padded).
 * `name` prefixes messages ("prog.tm: frame 5 (CF): fence: reserved value 3").
 * Errors (TESS_EINPUT, nothing is filled in usefully): an image over 2048 bytes,
 * a reserved fence on a CF other than the end marker, IF_Num > 0 with an empty
 * Core_Active_Vect, a group whose IFs run past frame 63 (D2). Warnings (D3):
 * Init_R0_Vect bits of cores not in Core_Active_Vect. Returns TESS_OK or the
 * error code, with the message in `diag`. */
int tm_parse(tm_program_t *prog /* OUT */, const uint8_t *bytes, size_t len,
             const char *name, diag_t *diag);

/* Writes the 2048-byte image of `prog`. Never fails for a structure that
 * tm_parse accepted or that tm_validate accepts. */
void tm_encode(const tm_program_t *prog, uint8_t image[TM_BYTES] /* OUT */);

/* Checks a structure built by hand or by the assembler with the rules of
 * tm_parse (the same messages, frames named by index). */
int tm_validate(const tm_program_t *prog, const char *name, diag_t *diag);

/* Reads and parses a .tm file; errors name the path. */
int tm_load_file(tm_program_t *prog /* OUT */, const char *path, diag_t *diag);

/* Loads a raw SM image: up to 4096 bytes, shorter is zero-padded, longer is an
 * error naming the file and its size. */
int sm_image_parse(uint8_t sm[SM_BYTES] /* OUT */, const uint8_t *bytes, size_t len,
                   const char *name, diag_t *diag);
int sm_image_load_file(uint8_t sm[SM_BYTES] /* OUT */, const char *path, diag_t *diag);

/* Fence names "no", "acq", "rel", "reserved"; "invalid" out of range. */
const char *tm_fence_name(unsigned fence);

#endif

/* sizes.h — the machine's sizes and the numbering of its random streams, in
 * one place (spec §2–§4). Everything else derives from these. Several are
 * bit-field widths of the encodings (core masks are 16 bits, a bank is 4
 * address bits by default, IF_Num is 6 bits), so they are checked below
 * rather than free to change on their own. */
#ifndef TESSERA_SIZES_H
#define TESSERA_SIZES_H

#define GPU_CORES 16          /* cores of the group; core masks are uint16_t */
#define ISA_REGS 16           /* registers per core (D4) */
#define TM_FRAMES 64          /* Task Memory frames */
#define TM_FRAME_BYTES 32     /* bytes per frame */
#define TM_BYTES (TM_FRAMES * TM_FRAME_BYTES) /* 2048 */
#define TM_SLOTS 16           /* instruction slots of an IF; IP is 0..15 */
#define ISA_SLOTS TM_SLOTS    /* the same slots, as the ISA names them */
#define TM_MAX_IF_NUM 63      /* IF_Num is 6 bits */
#define SM_BYTES 4096         /* Shared Memory bytes: 12-bit addresses */
#define SM_BANKS 16           /* Shared Memory banks by default: 4 address bits pick one (D13) */
#define SM_BANKS_DEFAULT SM_BANKS
#define SM_BANKS_MAX 64       /* sm.banks: 1, 2, 4, ... 64 (the SM's active set is 64 bits) */

/* Random streams (rng_seed's stream number): one per component, so that a
 * component's draws never depend on the order in which others run. */
#define RNG_STREAM_CORE(c) (0x100u + (unsigned)(c)) /* core c's latencies */
#define RNG_STREAM_BANK(b) (0x200u + (unsigned)(b)) /* bank b's latencies and random arbiter */
#define RNG_STREAM_TS 0x300u                        /* the TS's latencies */
#define RNG_STREAM_POLICY(p) (0x500u + (unsigned)(p)) /* a plugin's own stream (gpu_point_t p;
                                                         0x400 is the SIMT unit's) */

_Static_assert(GPU_CORES == 16, "core masks (Core_Active_Vect, pending sets) are 16 bits");
_Static_assert(SM_BANKS == 16 && SM_BYTES == 4096, "D13: a bank is 4 of 12 address bits");
_Static_assert(SM_BANKS_MAX <= 64 && (SM_BANKS_MAX & (SM_BANKS_MAX - 1)) == 0,
               "sm.banks: powers of two, one bit each in a 64-bit set");
_Static_assert(TM_SLOTS == 16 && ISA_REGS == 16, "the ISA's fields are 4 bits");
_Static_assert(TM_FRAMES <= 64 && TM_MAX_IF_NUM == 63, "frames are 6-bit indices");

#endif

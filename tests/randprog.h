/* randprog.h — random programs for differential and equivalence tests.
 * Race-free programs keep every core inside its own 256 bytes: slot 0 of each
 * task sets r7 to the core id and every ld/st uses [rA, r7], which nothing
 * else writes; such programs have one correct result whatever the timing.
 * Loops are counted (r8 counts down by r9 = 1) so every program terminates. */
#ifndef TESSERA_RANDPROG_H
#define TESSERA_RANDPROG_H

#include <stdbool.h>
#include <stdint.h>

#include "model/program.h"
#include "model/tm.h"

typedef struct rp_opts {
    bool race_free;      /* every core only touches its own 256 bytes */
    unsigned max_groups; /* 1..max groups (0: 8) */
    unsigned max_tasks;  /* 0..max tasks per group (0: 4) */
    unsigned mem_weight; /* percent of ld/st among random instructions (0: 30) */
} rp_opts_t;

/* Fills `p` (program, initial SM, image) from `seed`. Never fails. */
void rp_generate(program_t *p, uint64_t seed, const rp_opts_t *opts);

/* A random valid Task Memory structure into p (D1–D3): groups tiling the
 * frames (now and then one of up to 63 tasks), non-empty masks, fences
 * 0..2, init vectors, R0 inits, random header and reserved bytes, and after
 * the end marker a random tail (a prefix of random bytes, or a few
 * scattered ones); each task's 16 words written by task(code, rs). Draws
 * from *rs; never fails. */
void rp_tm_random(tm_program_t *p, uint64_t *rs, void (*task)(uint16_t *code, uint64_t *rs));

#endif

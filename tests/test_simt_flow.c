/* test_simt_flow.c — the pure logic of the SIMT unit (SIMT-SPEC S2, S4, S6,
 * S7): immediate post-dominators of 16-slot tasks, the stack's push and pop
 * rules, the scoreboard's register sets and the schedulers' order. The
 * expected values are worked out by hand beside each case. */
#include <string.h>

#include "model/simt/sched.h"
#include "model/simt/stack.h"
#include "tests/testutil.h"

#define X SIMT_EXIT

/* A task of `n` given words; the rest of the 16 slots are nop. */
static void task(isa_decoded_t code[ISA_SLOTS], const uint16_t *w, unsigned n)
{
    for (unsigned i = 0; i < ISA_SLOTS; i++)
        code[i] = isa_decode(i < n ? w[i] : isa_make(ISA_NOP, 0, 0, 0));
}

#define BNZ(target, a) isa_make(ISA_BNZ, (a), (target), 0)
#define ALU(op) isa_make((op), 1, 2, 3)
#define READY isa_make(ISA_READY, 0, 0, 0)

/* Straight-line code: each slot's ipdom is the next slot; `ready` and slot
 * 15 go to EXIT; slots after a `ready` still fall through to EXIT. */
static void test_ipdom_straight_line_and_ready(void)
{
    uint16_t w[] = {ALU(ISA_ADD), ALU(ISA_SUB), READY};
    isa_decoded_t c[ISA_SLOTS];
    uint8_t r[ISA_SLOTS];
    task(c, w, 3);
    simt_ipdom(c, r);
    CU_ASSERT_EQUAL(r[0], 1);
    CU_ASSERT_EQUAL(r[1], 2);
    CU_ASSERT_EQUAL(r[2], X);
    CU_ASSERT_EQUAL(r[3], 4);   /* unreachable nops fall through */
    CU_ASSERT_EQUAL(r[15], X);
}

/* E1's task: 3: bnz 6; 4; 5: bnz 7; 6; 7: ready. Paths from 3: 3-4-5-7 and
 * 3-6-7 (and 5's fall-through 6-7): every path meets at 7 → ipdom(3) = 7.
 * ipdom(5) = 7 (5 → 7 and 5 → 6 → 7). ipdom(4) = 5. */
static void test_ipdom_if_else_is_the_join(void)
{
    uint16_t w[] = {ALU(ISA_ADD), ALU(ISA_ADD), ALU(ISA_AND), BNZ(6, 2),
                    ALU(ISA_ADD), BNZ(7, 8),    ALU(ISA_MUL), READY};
    isa_decoded_t c[ISA_SLOTS];
    uint8_t r[ISA_SLOTS];
    task(c, w, 8);
    simt_ipdom(c, r);
    CU_ASSERT_EQUAL(r[3], 7);
    CU_ASSERT_EQUAL(r[4], 5);
    CU_ASSERT_EQUAL(r[5], 7);
    CU_ASSERT_EQUAL(r[6], 7);
    CU_ASSERT_EQUAL(r[7], X);
}

/* A loop 1: sub; 2: bnz 1 — the backward branch's ipdom is its fall-through
 * 3; the loop body's (1) is 2. */
static void test_ipdom_loop_is_the_fall_through(void)
{
    uint16_t w[] = {ALU(ISA_ADD), ALU(ISA_SUB), BNZ(1, 3), READY};
    isa_decoded_t c[ISA_SLOTS];
    uint8_t r[ISA_SLOTS];
    task(c, w, 4);
    simt_ipdom(c, r);
    CU_ASSERT_EQUAL(r[1], 2);
    CU_ASSERT_EQUAL(r[2], 3);
}

/* A bnz in slot 15 goes to its target and to EXIT: its ipdom is EXIT; a
 * bnz that jumps over a `ready` (2: bnz 5; 3; 4: ready; 5..15 nops) has
 * the two paths meet only at EXIT. */
static void test_ipdom_bnz_in_slot_15_and_around_ready(void)
{
    uint16_t w[16];
    for (unsigned i = 0; i < 16; i++)
        w[i] = ALU(ISA_ADD);
    w[2] = BNZ(5, 1);
    w[4] = READY;
    w[15] = BNZ(10, 1);
    isa_decoded_t c[ISA_SLOTS];
    uint8_t r[ISA_SLOTS];
    task(c, w, 16);
    simt_ipdom(c, r);
    CU_ASSERT_EQUAL(r[15], X);
    CU_ASSERT_EQUAL(r[2], X);
    CU_ASSERT_EQUAL(r[10], 11);
    CU_ASSERT_EQUAL(r[14], 15);
}

/* E1's divergence: lanes 0-3 at slot 3, r = 7, lanes 1, 3 taken to 6.
 * Top becomes (EXIT, 7, 0xf); tie (2 vs 2) → (7, 6, 0xa) below, the
 * fall-through (7, 4, 0x5) on top. */
static void test_stack_tie_puts_fall_through_on_top(void)
{
    simt_stack_t s;
    bool div;
    simt_stack_init(&s, 0xf);
    CU_ASSERT_EQUAL(s.e[0].rpc, X);
    CU_ASSERT_EQUAL(s.e[0].pc, 0);
    simt_stack_advance(&s, 1);
    simt_stack_advance(&s, 2);
    simt_stack_advance(&s, 3);
    CU_ASSERT_EQUAL(simt_stack_branch(&s, 3, 6, 7, 0xa, &div), 0);
    CU_ASSERT_TRUE(div);
    CU_ASSERT_EQUAL_FATAL(s.depth, 3);
    CU_ASSERT_EQUAL(s.e[0].pc, 7);
    CU_ASSERT_EQUAL(s.e[1].pc, 6);
    CU_ASSERT_EQUAL(s.e[1].mask, 0xa);
    CU_ASSERT_EQUAL(s.e[2].pc, 4);
    CU_ASSERT_EQUAL(s.e[2].mask, 0x5);
    CU_ASSERT_EQUAL(s.e[2].rpc, 7);
    simt_stack_advance(&s, 5);                          /* slot 4 */
    CU_ASSERT_EQUAL(simt_stack_branch(&s, 5, 7, 7, 0x5, &div), 0); /* uniform to 7 = r */
    CU_ASSERT_FALSE(div);
    CU_ASSERT_EQUAL(s.depth, 2);                        /* popped */
    CU_ASSERT_EQUAL(simt_stack_top(&s)->pc, 6);
    simt_stack_advance(&s, 7);                          /* slot 6: next = r → pop */
    CU_ASSERT_EQUAL(s.depth, 1);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->pc, 7);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->mask, 0xf);
    simt_stack_leave(&s, 0xf);                          /* ready */
    CU_ASSERT_TRUE(simt_stack_empty(&s));
    CU_ASSERT_EQUAL(s.max_depth, 3);
}

/* More lanes on top: 3 taken vs 1 not taken → taken entry on top. */
static void test_stack_more_lanes_on_top(void)
{
    simt_stack_t s;
    bool div;
    simt_stack_init(&s, 0xf);
    simt_stack_branch(&s, 0, 4, 8, 0xe, &div);
    CU_ASSERT_TRUE(div);
    CU_ASSERT_EQUAL_FATAL(s.depth, 3);
    CU_ASSERT_EQUAL(s.e[2].mask, 0xe);
    CU_ASSERT_EQUAL(s.e[2].pc, 4);
    CU_ASSERT_EQUAL(s.e[1].mask, 0x1);
    CU_ASSERT_EQUAL(s.e[1].pc, 1);
}

/* A loop (1: body; 2: bnz 1; r = 3): lane 0 exits after the first pass.
 * Not-taken entry (3, 3) equals r: not pushed. Top (EXIT, 3, 0x3) and the
 * pushed (3, 1, 0x2) on top. Next pass lane 1 exits: uniform not taken to
 * 3 = r → pop, the warp is whole again at 3. */
static void test_stack_loop_entry_equal_to_r_not_pushed(void)
{
    simt_stack_t s;
    bool div;
    simt_stack_init(&s, 0x3);
    simt_stack_advance(&s, 1);
    simt_stack_advance(&s, 2);
    simt_stack_branch(&s, 2, 1, 3, 0x2, &div);
    CU_ASSERT_TRUE(div);
    CU_ASSERT_EQUAL_FATAL(s.depth, 2);
    CU_ASSERT_EQUAL(s.e[0].pc, 3);
    CU_ASSERT_EQUAL(s.e[1].pc, 1);
    CU_ASSERT_EQUAL(s.e[1].mask, 0x2);
    simt_stack_advance(&s, 2);
    simt_stack_branch(&s, 2, 1, 3, 0x0, &div);
    CU_ASSERT_FALSE(div);
    CU_ASSERT_EQUAL(s.depth, 1);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->pc, 3);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->mask, 0x3);
}

/* bnz in slot 15, lanes 0-1 taken to 10, lanes 2-3 not: r = EXIT; the
 * not-taken entry would be (EXIT, EXIT): not pushed, its lanes leave. The
 * taken entry runs 10..15; leaving slot 15 removes them, the stack empties. */
static void test_stack_bnz_in_slot_15_lanes_leave(void)
{
    simt_stack_t s;
    bool div;
    simt_stack_init(&s, 0xf);
    simt_stack_advance(&s, 15);
    uint16_t leave = simt_stack_branch(&s, 15, 10, X, 0x3, &div);
    CU_ASSERT_TRUE(div);
    CU_ASSERT_EQUAL(leave, 0xc);
    simt_stack_leave(&s, leave);
    CU_ASSERT_EQUAL_FATAL(s.depth, 2);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->pc, 10);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->mask, 0x3);
    CU_ASSERT_EQUAL(s.e[0].mask, 0x3);
    /* uniform not taken in 15: all leave, everything pops */
    simt_stack_advance(&s, 15);
    leave = simt_stack_branch(&s, 15, 10, X, 0x0, &div);
    CU_ASSERT_FALSE(div);
    CU_ASSERT_EQUAL(leave, 0x3);
    simt_stack_leave(&s, leave);
    CU_ASSERT_TRUE(simt_stack_empty(&s));
}

/* Lanes leaving by `ready` inside one path: removed from every entry; the
 * entry with no lanes left pops and the other path runs. */
static void test_stack_ready_inside_a_path(void)
{
    simt_stack_t s;
    bool div;
    simt_stack_init(&s, 0xff);
    simt_stack_branch(&s, 0, 5, X, 0x0f, &div); /* tie: fall-through 0xf0 on top */
    CU_ASSERT_EQUAL(simt_stack_top(&s)->mask, 0xf0);
    simt_stack_leave(&s, 0xf0);
    CU_ASSERT_EQUAL_FATAL(s.depth, 2);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->pc, 5);
    CU_ASSERT_EQUAL(s.e[0].mask, 0x0f);
}

/* Nested divergence: an outer split (r = 9) then an inner split of the top
 * path (r = 5): depth 5 at most, and the inner join returns to the outer
 * path. A target equal to the following slot never diverges. */
static void test_stack_nested_and_target_next_slot(void)
{
    simt_stack_t s;
    bool div;
    simt_stack_init(&s, 0xf);
    simt_stack_branch(&s, 0, 6, 9, 0x3, &div);  /* tie: fall-through 0xc on top at 1 */
    simt_stack_advance(&s, 2);
    simt_stack_branch(&s, 2, 4, 5, 0x4, &div);  /* lanes 2 taken to 4, 3 falls to 3 */
    CU_ASSERT_TRUE(div);
    CU_ASSERT_EQUAL(s.depth, 5);
    CU_ASSERT_EQUAL(s.max_depth, 5);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->mask, 0x8);
    simt_stack_advance(&s, 4);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->mask, 0x8); /* slot 3 → 4, not yet r */
    simt_stack_advance(&s, 5);                     /* reaches 5 = r: pop */
    CU_ASSERT_EQUAL(simt_stack_top(&s)->mask, 0x4);
    simt_stack_advance(&s, 5);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->mask, 0xc);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->pc, 5);
    CU_ASSERT_EQUAL(s.depth, 3);
    simt_stack_branch(&s, 5, 6, 9, 0x4, &div);      /* target = following slot */
    CU_ASSERT_FALSE(div);
    CU_ASSERT_EQUAL(simt_stack_top(&s)->pc, 6);
}

/* S4 (a): reads and writes per opcode. */
static void test_scoreboard_sets(void)
{
    isa_decoded_t add = isa_decode(isa_make(ISA_ADD, 1, 2, 3));
    isa_decoded_t mul = isa_decode(isa_make(ISA_MUL, 4, 5, 15));
    isa_decoded_t shl = isa_decode(isa_make(ISA_LSHFT, 6, 7, 8));
    isa_decoded_t ld = isa_decode(isa_make(ISA_LD, 1, 7, 9));
    isa_decoded_t st = isa_decode(isa_make(ISA_ST, 1, 7, 9));
    isa_decoded_t sc = isa_decode(isa_make_set_const(10, 0x42));
    isa_decoded_t bnz = isa_decode(isa_make(ISA_BNZ, 11, 3, 0));
    CU_ASSERT_EQUAL(simt_regs_read(add), 0x6);
    CU_ASSERT_EQUAL(simt_regs_written(add), 0x8);
    CU_ASSERT_EQUAL(simt_regs_read(mul), 0x30);
    CU_ASSERT_EQUAL(simt_regs_written(mul), 0x8001); /* R15 and R0 */
    CU_ASSERT_EQUAL(simt_regs_read(shl), 1u << 6);   /* b is an immediate */
    CU_ASSERT_EQUAL(simt_regs_written(shl), 1u << 8);
    CU_ASSERT_EQUAL(simt_regs_read(ld), 0x82);
    CU_ASSERT_EQUAL(simt_regs_written(ld), 1u << 9);
    CU_ASSERT_EQUAL(simt_regs_read(st), 0x282);
    CU_ASSERT_EQUAL(simt_regs_written(st), 0);
    CU_ASSERT_EQUAL(simt_regs_read(sc), 0);
    CU_ASSERT_EQUAL(simt_regs_written(sc), 1u << 10);
    CU_ASSERT_EQUAL(simt_regs_read(bnz), 1u << 11);
    CU_ASSERT_EQUAL(simt_regs_written(bnz), 0);
    CU_ASSERT_EQUAL(simt_regs_read(isa_decode(READY)), 0);
    CU_ASSERT_EQUAL(simt_regs_written(isa_decode(isa_make(ISA_NOP, 1, 2, 3))), 0);
}

/* Scheduler order over eligible warps with ages 30, 10, 20 (indices 0, 1, 2). */
static void test_sched_oldest_and_first_cycle(void)
{
    uint64_t age[] = {30, 10, 20};
    uint8_t o[3];
    simt_last_t none = {0};
    simt_sched_order(SIMT_SCHED_OLDEST, age, 3, &none, o);
    CU_ASSERT(o[0] == 1 && o[1] == 2 && o[2] == 0);
    simt_sched_order(SIMT_SCHED_RR, age, 3, &none, o);  /* no last cycle: oldest first */
    CU_ASSERT(o[0] == 1 && o[1] == 2 && o[2] == 0);
    simt_sched_order(SIMT_SCHED_GTO, age, 3, &none, o);
    CU_ASSERT(o[0] == 1 && o[1] == 2 && o[2] == 0);
}

/* rr: after the warp of age 20, the first younger (30), then wrap to 10. */
static void test_sched_rr_ring(void)
{
    uint64_t age[] = {30, 10, 20};
    uint8_t o[3];
    simt_last_t last = {.n = 1, .age = {20}};
    simt_sched_order(SIMT_SCHED_RR, age, 3, &last, o);
    CU_ASSERT(o[0] == 0 && o[1] == 1 && o[2] == 2);
    last.age[0] = 30;                                   /* the youngest: wrap */
    simt_sched_order(SIMT_SCHED_RR, age, 3, &last, o);
    CU_ASSERT(o[0] == 1 && o[1] == 2 && o[2] == 0);
}

/* rr after a warp retires: the retired warp of age 20 keeps its place, so
 * the turn passes to the first warp younger than it (30), not to the oldest.
 * Eligible now: ages 10 and 30 only. */
static void test_sched_rr_ring_after_retirement(void)
{
    uint64_t age[] = {10, 30};
    uint8_t o[2];
    simt_last_t last = {.n = 1, .age = {20}};
    simt_sched_order(SIMT_SCHED_RR, age, 2, &last, o);
    CU_ASSERT(o[0] == 1 && o[1] == 0);
}

/* gto: last cycle's warps first in the order they were chosen then (only
 * the eligible ones), then the others oldest first. */
static void test_sched_gto(void)
{
    uint64_t age[] = {30, 10, 20, 40};
    uint8_t o[4];
    simt_last_t last = {.n = 3, .age = {40, 25, 20}}; /* 25: not eligible now */
    simt_sched_order(SIMT_SCHED_GTO, age, 4, &last, o);
    CU_ASSERT(o[0] == 3 && o[1] == 2 && o[2] == 1 && o[3] == 0);
    /* rr with width 3 last time: the ring continues after the last chosen (20) */
    simt_sched_order(SIMT_SCHED_RR, age, 4, &last, o);
    CU_ASSERT(o[0] == 0 && o[1] == 3 && o[2] == 1 && o[3] == 2);
}

static const test_case_t cases[] = {
    TEST(test_ipdom_straight_line_and_ready),
    TEST(test_ipdom_if_else_is_the_join),
    TEST(test_ipdom_loop_is_the_fall_through),
    TEST(test_ipdom_bnz_in_slot_15_and_around_ready),
    TEST(test_stack_tie_puts_fall_through_on_top),
    TEST(test_stack_more_lanes_on_top),
    TEST(test_stack_loop_entry_equal_to_r_not_pushed),
    TEST(test_stack_bnz_in_slot_15_lanes_leave),
    TEST(test_stack_ready_inside_a_path),
    TEST(test_stack_nested_and_target_next_slot),
    TEST(test_scoreboard_sets),
    TEST(test_sched_oldest_and_first_cycle),
    TEST(test_sched_rr_ring),
    TEST(test_sched_rr_ring_after_retirement),
    TEST(test_sched_gto),
    TEST_END,
};

static const test_suite_t suites[] = {{"simt_flow", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

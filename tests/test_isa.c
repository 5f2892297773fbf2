/* test_isa.c — the semantics of every opcode (spec §4), each test naming the
 * decision it checks (D6–D11, D16). isa_exec is the only home of these rules. */
#include "model/isa.h"
#include "tests/testutil.h"

static uint8_t r[ISA_REGS];
static isa_step_t st;

static void reset_regs(void)
{
    for (unsigned i = 0; i < ISA_REGS; i++)
        r[i] = (uint8_t)(0x10 + i);
}

static void exec(unsigned core, unsigned ip, uint16_t w)
{
    isa_exec(r, core, ip, w, &st);
}

static void test_nop_changes_nothing(void)
{
    reset_regs();
    exec(3, 4, isa_make(ISA_NOP, 1, 2, 3));
    for (unsigned i = 0; i < ISA_REGS; i++)
        CU_ASSERT_EQUAL(r[i], 0x10 + i);
    CU_ASSERT_EQUAL(st.next_ip, 5);
    CU_ASSERT_FALSE(st.finished);
    CU_ASSERT_EQUAL(st.cls, ISA_CLASS_ALU);
}

static void test_add_sub_wrap_mod_256(void) /* D6 */
{
    reset_regs();
    r[1] = 200, r[2] = 100;
    exec(0, 0, isa_make(ISA_ADD, 1, 2, 3));
    CU_ASSERT_EQUAL(r[3], (200 + 100) & 0xff);
    exec(0, 1, isa_make(ISA_SUB, 2, 1, 4));
    CU_ASSERT_EQUAL(r[4], (uint8_t)(100 - 200));
    CU_ASSERT_EQUAL(r[4], 156);
}

static void test_mul_high_byte_to_next_register(void)
{
    reset_regs();
    r[1] = 200, r[2] = 3; /* 600 = 0x0258 */
    exec(0, 0, isa_make(ISA_MUL, 1, 2, 5));
    CU_ASSERT_EQUAL(r[5], 0x58);
    CU_ASSERT_EQUAL(r[6], 0x02);
    CU_ASSERT_EQUAL(st.cls, ISA_CLASS_MUL);
}

static void test_mul_c15_high_byte_to_r0(void) /* §4: c = 15 → c+1 = 0 */
{
    reset_regs();
    r[1] = 255, r[2] = 255; /* 65025 = 0xfe01 */
    exec(0, 0, isa_make(ISA_MUL, 1, 2, 15));
    CU_ASSERT_EQUAL(r[15], 0x01);
    CU_ASSERT_EQUAL(r[0], 0xfe);
}

static void test_mul_destination_equal_to_source_D10(void)
{
    reset_regs();
    r[1] = 16, r[2] = 17; /* 272 = 0x0110 */
    exec(0, 0, isa_make(ISA_MUL, 1, 2, 1)); /* uses the old R1 */
    CU_ASSERT_EQUAL(r[1], 0x10);
    CU_ASSERT_EQUAL(r[2], 0x01); /* high byte overwrote the other source */
    reset_regs();
    r[3] = 20, r[4] = 13; /* 260 = 0x0104; high byte into R4 = a source */
    exec(0, 0, isa_make(ISA_MUL, 4, 3, 3));
    CU_ASSERT_EQUAL(r[3], 0x04);
    CU_ASSERT_EQUAL(r[4], 0x01);
}

static void test_add_destination_equal_to_source_D10(void)
{
    reset_regs();
    r[5] = 7;
    exec(0, 0, isa_make(ISA_ADD, 5, 5, 5));
    CU_ASSERT_EQUAL(r[5], 14);
}

static void test_div_unsigned_truncates(void) /* D6 */
{
    reset_regs();
    r[1] = 250, r[2] = 7;
    exec(0, 0, isa_make(ISA_DIV, 1, 2, 3));
    CU_ASSERT_EQUAL(r[3], 35);
    CU_ASSERT_FALSE(st.div_by_zero);
    CU_ASSERT_EQUAL(st.cls, ISA_CLASS_DIV);
}

static void test_div_by_zero_writes_ff_and_counts_D8(void)
{
    reset_regs();
    r[1] = 9, r[2] = 0;
    exec(0, 0, isa_make(ISA_DIV, 1, 2, 3));
    CU_ASSERT_EQUAL(r[3], 0xff);
    CU_ASSERT_TRUE(st.div_by_zero);
    CU_ASSERT_FALSE(st.finished); /* it does not stop the core */
    CU_ASSERT_EQUAL(st.next_ip, 1);
}

static void test_cmpge_is_unsigned_D6(void)
{
    reset_regs();
    r[1] = 0x80, r[2] = 0x7f; /* signed, 0x80 would be less */
    exec(0, 0, isa_make(ISA_CMPGE, 1, 2, 3));
    CU_ASSERT_EQUAL(r[3], 1);
    exec(0, 0, isa_make(ISA_CMPGE, 2, 1, 3));
    CU_ASSERT_EQUAL(r[3], 0);
    r[4] = 9, r[5] = 9;
    exec(0, 0, isa_make(ISA_CMPGE, 4, 5, 6));
    CU_ASSERT_EQUAL(r[6], 1); /* equal → 1 */
}

static void test_shift_amount_is_field_b_D7(void)
{
    reset_regs();
    r[1] = 0x96;
    r[3] = 0; /* register 3 holds 0: the amount must come from the field, not R[3] */
    exec(0, 0, isa_make(ISA_RSHFT, 1, 3, 2));
    CU_ASSERT_EQUAL(r[2], 0x96 >> 3);
    exec(0, 0, isa_make(ISA_LSHFT, 1, 3, 2));
    CU_ASSERT_EQUAL(r[2], (uint8_t)(0x96 << 3)); /* mod 256, logical */
}

static void test_shift_amount_b_ge_8_uses_low_three_bits_D7(void)
{
    reset_regs();
    r[1] = 0x96;
    exec(0, 0, isa_make(ISA_RSHFT, 1, 8, 2)); /* 8 & 7 = 0 */
    CU_ASSERT_EQUAL(r[2], 0x96);
    exec(0, 0, isa_make(ISA_RSHFT, 1, 15, 2)); /* 15 & 7 = 7 */
    CU_ASSERT_EQUAL(r[2], 0x01);
    exec(0, 0, isa_make(ISA_LSHFT, 1, 9, 2)); /* 9 & 7 = 1 */
    CU_ASSERT_EQUAL(r[2], 0x2c);
}

static void test_logic_ops(void)
{
    reset_regs();
    r[1] = 0xf0, r[2] = 0x3c;
    exec(0, 0, isa_make(ISA_AND, 1, 2, 3));
    CU_ASSERT_EQUAL(r[3], 0x30);
    exec(0, 0, isa_make(ISA_OR, 1, 2, 3));
    CU_ASSERT_EQUAL(r[3], 0xfc);
    exec(0, 0, isa_make(ISA_XOR, 1, 2, 3));
    CU_ASSERT_EQUAL(r[3], 0xcc);
}

static void test_set_const_id_mode_for_r0_to_r7_D9(void)
{
    reset_regs();
    exec(11, 0, isa_make_set_const(5, 0xab)); /* const ignored for d < 8 */
    CU_ASSERT_EQUAL(r[5], 11);
    exec(0, 0, isa_make_set_const(0, 0));
    CU_ASSERT_EQUAL(r[0], 0);
}

static void test_set_const_imm_mode_for_r8_to_r15_D9(void)
{
    reset_regs();
    exec(11, 0, isa_make_set_const(8, 0xab));
    CU_ASSERT_EQUAL(r[8], 0xab);
    exec(11, 0, isa_make_set_const(15, 0x01));
    CU_ASSERT_EQUAL(r[15], 0x01);
}

static void test_ld_address_high_nibble_from_rb_D13(void)
{
    reset_regs();
    r[1] = 0x34, r[2] = 0xa7; /* R[b][3:0] = 7 */
    r[3] = 0x55;
    exec(0, 2, isa_make(ISA_LD, 1, 2, 3));
    CU_ASSERT_EQUAL(st.cls, ISA_CLASS_LD);
    CU_ASSERT_EQUAL(st.addr, 0x734);
    CU_ASSERT_EQUAL(st.reg, 3);
    CU_ASSERT_EQUAL(r[3], 0x55); /* written only when the data comes back */
    isa_ld_complete(r, &st, 0x99);
    CU_ASSERT_EQUAL(r[3], 0x99);
    CU_ASSERT_EQUAL(st.next_ip, 3);
    CU_ASSERT_FALSE(st.sync); /* R[b][7:6] = 10 */
}

static void test_st_reads_value_at_issue(void)
{
    reset_regs();
    r[4] = 0xff, r[5] = 0x0f, r[6] = 0x42;
    exec(0, 0, isa_make(ISA_ST, 4, 5, 6));
    CU_ASSERT_EQUAL(st.cls, ISA_CLASS_ST);
    CU_ASSERT_EQUAL(st.addr, 0xfff);
    CU_ASSERT_EQUAL(st.value, 0x42);
}

static void test_sync_flag_from_bits_7_6_D16(void)
{
    reset_regs();
    r[1] = 0x10, r[2] = 0x43; /* 01xx_0011 → sync, bank 3 */
    exec(0, 0, isa_make(ISA_LD, 1, 2, 3));
    CU_ASSERT_TRUE(st.sync);
    CU_ASSERT_EQUAL(st.addr, 0x310); /* bits [7:4] do not reach the address */
    r[2] = 0xc3;                     /* 11xx → not sync */
    exec(0, 0, isa_make(ISA_ST, 1, 2, 3));
    CU_ASSERT_FALSE(st.sync);
    CU_ASSERT_EQUAL(st.addr, 0x310);
}

static void test_bnz_taken_and_not_taken(void)
{
    reset_regs();
    r[7] = 1;
    exec(0, 5, isa_make(ISA_BNZ, 7, 2, 0));
    CU_ASSERT_EQUAL(st.next_ip, 2);
    CU_ASSERT_FALSE(st.finished);
    CU_ASSERT_EQUAL(st.cls, ISA_CLASS_BRANCH);
    r[7] = 0;
    exec(0, 5, isa_make(ISA_BNZ, 7, 2, 0));
    CU_ASSERT_EQUAL(st.next_ip, 6);
    CU_ASSERT_FALSE(st.finished);
}

static void test_bnz_in_slot_15_D11(void)
{
    reset_regs();
    r[7] = 1; /* taken: continues at the target */
    exec(0, 15, isa_make(ISA_BNZ, 7, 0, 0));
    CU_ASSERT_EQUAL(st.next_ip, 0);
    CU_ASSERT_FALSE(st.finished);
    r[7] = 0; /* not taken in slot 15: the task ends */
    exec(0, 15, isa_make(ISA_BNZ, 7, 0, 0));
    CU_ASSERT_TRUE(st.finished);
}

static void test_falling_off_slot_15_finishes_D11(void)
{
    reset_regs();
    exec(0, 15, isa_make(ISA_ADD, 1, 2, 3));
    CU_ASSERT_TRUE(st.finished);
    CU_ASSERT_EQUAL(r[3], (uint8_t)(0x11 + 0x12)); /* still executed */
    exec(0, 15, isa_make(ISA_NOP, 0, 0, 0));
    CU_ASSERT_TRUE(st.finished);
    exec(0, 14, isa_make(ISA_NOP, 0, 0, 0));
    CU_ASSERT_FALSE(st.finished);
}

static void test_ready_finishes_and_resets_ip(void)
{
    reset_regs();
    exec(0, 3, isa_make(ISA_READY, 0, 0, 0));
    CU_ASSERT_TRUE(st.finished);
    CU_ASSERT_EQUAL(st.next_ip, 0);
    CU_ASSERT_EQUAL(st.cls, ISA_CLASS_READY);
}

static void test_mnemonic_table_covers_all_16_opcodes(void)
{
    static const char *names[16] = {"nop", "add", "sub", "mul", "div", "cmpge", "rshft",
                                    "lshft", "and", "or", "xor", "ld", "set_const", "st",
                                    "bnz", "ready"};
    for (unsigned op = 0; op < 16; op++)
        CU_ASSERT_STRING_EQUAL(isa_mnemonic((isa_op_t)op), names[op]);
    CU_ASSERT_EQUAL(isa_format(ISA_RSHFT), ISA_FMT_RIR);
    CU_ASSERT_EQUAL(isa_format(ISA_ST), ISA_FMT_ST);
    CU_ASSERT_EQUAL(isa_class(ISA_BNZ), ISA_CLASS_BRANCH);
}

static void test_fields_decode(void)
{
    uint16_t w = isa_make(ISA_SUB, 0xa, 0xb, 0xc);
    CU_ASSERT_EQUAL(w, 0x2abc);
    CU_ASSERT_EQUAL(isa_opc(w), 2);
    CU_ASSERT_EQUAL(isa_fa(w), 0xa);
    CU_ASSERT_EQUAL(isa_fb(w), 0xb);
    CU_ASSERT_EQUAL(isa_fc(w), 0xc);
    CU_ASSERT_EQUAL(isa_make_set_const(9, 0xab), 0xcab9);
}

static const test_case_t cases[] = {
    TEST(test_nop_changes_nothing),
    TEST(test_add_sub_wrap_mod_256),
    TEST(test_mul_high_byte_to_next_register),
    TEST(test_mul_c15_high_byte_to_r0),
    TEST(test_mul_destination_equal_to_source_D10),
    TEST(test_add_destination_equal_to_source_D10),
    TEST(test_div_unsigned_truncates),
    TEST(test_div_by_zero_writes_ff_and_counts_D8),
    TEST(test_cmpge_is_unsigned_D6),
    TEST(test_shift_amount_is_field_b_D7),
    TEST(test_shift_amount_b_ge_8_uses_low_three_bits_D7),
    TEST(test_logic_ops),
    TEST(test_set_const_id_mode_for_r0_to_r7_D9),
    TEST(test_set_const_imm_mode_for_r8_to_r15_D9),
    TEST(test_ld_address_high_nibble_from_rb_D13),
    TEST(test_st_reads_value_at_issue),
    TEST(test_sync_flag_from_bits_7_6_D16),
    TEST(test_bnz_taken_and_not_taken),
    TEST(test_bnz_in_slot_15_D11),
    TEST(test_falling_off_slot_15_finishes_D11),
    TEST(test_ready_finishes_and_resets_ip),
    TEST(test_mnemonic_table_covers_all_16_opcodes),
    TEST(test_fields_decode),
    TEST_END,
};

static const test_suite_t suites[] = {{"isa", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

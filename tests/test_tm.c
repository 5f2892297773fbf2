/* test_tm.c — Task Memory images (model/tm.c): frame kinds by position and the
 * end marker (D1), the rejections with their frame/field messages (D2), the
 * Init_R0_Vect warning (D3), field layout, the exact encode/parse round trip
 * on hand-built and random images, robustness on junk, and raw SM images. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "model/tm.h"
#include "tests/randprog.h"
#include "tests/testutil.h"

/* ---- helpers --------------------------------------------------------- */

static tm_program_t prog;  /* large: kept out of the test functions' frames */
static tm_program_t prog2;

static uint8_t *frame(uint8_t *img, unsigned f) { return img + f * TM_FRAME_BYTES; }

/* Writes a CF at frame f. */
static void put_cf(uint8_t *img, unsigned f, unsigned if_num, unsigned fence, uint16_t cores)
{
    uint8_t *fr = frame(img, f);
    fr[0] = (uint8_t)(if_num | fence << 6);
    fr[2] = (uint8_t)cores;
    fr[3] = (uint8_t)(cores >> 8);
}

static void put_word(uint8_t *img, unsigned f, unsigned slot, uint16_t w)
{
    frame(img, f)[2 * slot] = (uint8_t)w;
    frame(img, f)[2 * slot + 1] = (uint8_t)(w >> 8);
}

static int parse(const uint8_t *img, size_t len, diag_t *d)
{
    diag_reset(d);
    return tm_parse(&prog, img, len, "prog.tm", d);
}

/* encode(parse(img)) must give back img zero-padded to 2048 bytes. */
static void check_roundtrip(const uint8_t *img, size_t len)
{
    uint8_t padded[TM_BYTES] = {0}, out[TM_BYTES];
    diag_t d = {0};
    memcpy(padded, img, len);
    CU_ASSERT_EQUAL_FATAL(parse(img, len, &d), TESS_OK);
    tm_encode(&prog, out);
    CU_ASSERT(memcmp(out, padded, TM_BYTES) == 0);
}

static void expect_reject(const uint8_t *img, size_t len, const char *msg)
{
    diag_t d = {0};
    CU_ASSERT_EQUAL(parse(img, len, &d), TESS_EINPUT);
    CU_ASSERT_STRING_EQUAL(d.msg, msg);
    if (strcmp(d.msg, msg) != 0)
        fprintf(stderr, "\n  got:      %s\n  expected: %s\n", d.msg, msg);
}

/* A task of random words from a random slot on (zeros before it). */
static void random_words(uint16_t *code, uint64_t *rs)
{
    for (unsigned s = test_rand(rs) % 17; s < TM_SLOTS; s++)
        code[s] = (uint16_t)test_rand(rs);
}

/* A random valid structure (rp_tm_random) of random words. */
static void random_program(tm_program_t *p, uint64_t *rs) { rp_tm_random(p, rs, random_words); }

/* ---- D1: frame kinds by position, the end marker ------------------------ */

static void test_d1_kinds_by_position(void)
{
    uint8_t img[TM_BYTES] = {0};
    diag_t d = {0};
    put_cf(img, 0, 2, TM_FENCE_ACQ, 0x0003);
    put_word(img, 1, 0, 0x1234);
    put_word(img, 2, 15, 0xF000);
    put_cf(img, 3, 1, TM_FENCE_REL, 0x0100);
    put_word(img, 4, 3, 0x0001); /* would be an IF_Num=1 CF if read as one */
    CU_ASSERT_EQUAL_FATAL(parse(img, sizeof img, &d), TESS_OK);
    CU_ASSERT_EQUAL(prog.n_frames, 5);
    CU_ASSERT_EQUAL(prog.n_groups, 2);
    CU_ASSERT(prog.has_end_marker);
    const bool is_cf[5] = {true, false, false, true, false};
    for (unsigned f = 0; f < 5; f++)
        CU_ASSERT_EQUAL(tm_is_cf(&prog, f), is_cf[f]);
    CU_ASSERT_EQUAL(prog.group_of[2], 0);
    CU_ASSERT_EQUAL(prog.group_of[4], 1);
    CU_ASSERT_EQUAL(prog.groups[1].cf, 3);
    CU_ASSERT_EQUAL(prog.groups[1].fence, TM_FENCE_REL);
    CU_ASSERT_EQUAL(prog.code[1][0], 0x1234);
    CU_ASSERT_EQUAL(prog.code[2][15], 0xF000);
    CU_ASSERT_EQUAL(prog.code[4][3], 0x0001);
    CU_ASSERT_EQUAL(d.warnings, 0);
    check_roundtrip(img, sizeof img);
}

/* D1: the end marker is IF_Num 0 + empty mask whatever else it holds (fence 3 too). */
static void test_d1_end_marker_any_fields_incl_fence3(void)
{
    uint8_t img[TM_BYTES] = {0};
    diag_t d = {0};
    put_cf(img, 0, 1, TM_FENCE_NO, 0x0001);
    uint8_t *end = frame(img, 2);
    end[0] = 3 << 6; /* fence 3: fine on the end marker (D2 exempts it) */
    end[1] = 0xAB;
    end[4] = 0xFF; /* Init_R0_Vect */
    end[20] = 0x55;
    put_cf(img, 3, 2, TM_FENCE_RESERVED, 0); /* after the end: never looked at */
    img[TM_BYTES - 1] = 0x99;
    CU_ASSERT_EQUAL_FATAL(parse(img, sizeof img, &d), TESS_OK);
    CU_ASSERT_EQUAL(prog.n_frames, 2);
    CU_ASSERT_EQUAL(prog.n_groups, 1);
    CU_ASSERT(prog.has_end_marker);
    CU_ASSERT_EQUAL(prog.tail[0], 0xC0);
    CU_ASSERT_EQUAL(prog.tail[1], 0xAB);
    CU_ASSERT_EQUAL(prog.tail[32], 0x02 | 3 << 6);
    CU_ASSERT_EQUAL(prog.tail[TM_BYTES - 2 * TM_FRAME_BYTES - 1], 0x99);
    check_roundtrip(img, sizeof img);
}

/* D1: an all-zero (or empty) image is the end marker at frame 0. */
static void test_d1_empty_program(void)
{
    uint8_t img[TM_BYTES] = {0};
    diag_t d = {0};
    CU_ASSERT_EQUAL(parse(NULL, 0, &d), TESS_OK);
    CU_ASSERT_EQUAL(prog.n_frames, 0);
    CU_ASSERT_EQUAL(prog.n_groups, 0);
    CU_ASSERT(prog.has_end_marker);
    check_roundtrip(img, sizeof img);
    check_roundtrip(img, 7); /* shorter images are zero-padded */
}

/* D1: a program may fill all 64 frames; then there is no end marker. */
static void test_d1_program_fills_64_frames(void)
{
    uint8_t img[TM_BYTES] = {0};
    diag_t d = {0};
    put_cf(img, 0, 63, TM_FENCE_NO, 0xFFFF);
    for (unsigned f = 1; f < TM_FRAMES; f++)
        put_word(img, f, 0, (uint16_t)f); /* frame 1's first word 0x0001 is not a CF */
    CU_ASSERT_EQUAL_FATAL(parse(img, sizeof img, &d), TESS_OK);
    CU_ASSERT_EQUAL(prog.n_frames, 64);
    CU_ASSERT_FALSE(prog.has_end_marker);
    CU_ASSERT_EQUAL(prog.groups[0].if_num, 63);
    CU_ASSERT_EQUAL(prog.code[63][0], 63);
    check_roundtrip(img, sizeof img);

    memset(img, 0, sizeof img); /* many groups; the last IF is frame 63 */
    for (unsigned f = 0; f < TM_FRAMES; f += 4)
        put_cf(img, f, 3, f % 3, (uint16_t)(1u << (f / 4)));
    CU_ASSERT_EQUAL_FATAL(parse(img, sizeof img, &d), TESS_OK);
    CU_ASSERT_EQUAL(prog.n_groups, 16);
    CU_ASSERT_EQUAL(prog.n_frames, 64);
    CU_ASSERT_FALSE(prog.has_end_marker);
    check_roundtrip(img, sizeof img);
}

/* D1/D3: IF_Num = 0 with a non-empty mask is a group without tasks. */
static void test_d1_if_num_zero_group(void)
{
    uint8_t img[TM_BYTES] = {0};
    diag_t d = {0};
    put_cf(img, 0, 0, TM_FENCE_ACQ, 0x0010);
    frame(img, 0)[4] = 0x10; /* Init_R0_Vect: core 4 */
    frame(img, 0)[16 + 4] = 42;
    put_cf(img, 1, 0, TM_FENCE_NO, 0x8000);
    put_cf(img, 2, 1, TM_FENCE_NO, 0x0001);
    CU_ASSERT_EQUAL_FATAL(parse(img, sizeof img, &d), TESS_OK);
    CU_ASSERT_EQUAL(prog.n_groups, 3);
    CU_ASSERT_EQUAL(prog.n_frames, 4);
    CU_ASSERT_EQUAL(prog.groups[0].if_num, 0);
    CU_ASSERT_EQUAL(prog.groups[0].init_r0[4], 42);
    CU_ASSERT(tm_is_cf(&prog, 0) && tm_is_cf(&prog, 1) && tm_is_cf(&prog, 2));
    CU_ASSERT_FALSE(tm_is_cf(&prog, 3));
    check_roundtrip(img, sizeof img);
}

/* ---- field layout ------------------------------------------------------ */

static void test_little_endian_fields_and_header_bits(void)
{
    uint8_t img[TM_BYTES] = {0};
    diag_t d = {0};
    uint8_t *cf = frame(img, 0);
    cf[0] = 0x81;       /* IF_Num 1 (bits 5:0), fence 2 (bits 7:6) */
    cf[1] = 0x5A;       /* Header[15:8], reserved */
    cf[2] = 0x34;       /* Core_Active_Vect 0x1234, low byte first */
    cf[3] = 0x12;
    cf[4] = 0x30;       /* Init_R0_Vect 0x1030 */
    cf[5] = 0x10;
    for (unsigned i = 6; i < 16; i++)
        cf[i] = (uint8_t)(0xE0 + i); /* reserved bytes 6..15 */
    frame(img, 1)[0] = 0xCD; /* Instruction_0 = 0xABCD */
    frame(img, 1)[1] = 0xAB;
    frame(img, 1)[30] = 0x01; /* Instruction_15 = 0xF001 */
    frame(img, 1)[31] = 0xF0;
    CU_ASSERT_EQUAL_FATAL(parse(img, sizeof img, &d), TESS_OK);
    const tm_group_t *g = &prog.groups[0];
    CU_ASSERT_EQUAL(g->if_num, 1);
    CU_ASSERT_EQUAL(g->fence, TM_FENCE_REL);
    CU_ASSERT_EQUAL(g->hdr_reserved, 0x5A);
    CU_ASSERT_EQUAL(g->cores, 0x1234);
    CU_ASSERT_EQUAL(g->init_vect, 0x1030);
    CU_ASSERT_EQUAL(g->reserved[0], 0xE6);
    CU_ASSERT_EQUAL(g->reserved[9], 0xEF);
    CU_ASSERT_EQUAL(prog.code[1][0], 0xABCD);
    CU_ASSERT_EQUAL(prog.code[1][15], 0xF001);
    check_roundtrip(img, sizeof img);
}

/* Init_R0[0] is byte 16 of the CF, Init_R0[15] byte 31. */
static void test_init_r0_byte_order(void)
{
    uint8_t img[TM_BYTES] = {0};
    diag_t d = {0};
    put_cf(img, 0, 0, TM_FENCE_NO, 0xFFFF);
    for (unsigned i = 0; i < 16; i++)
        frame(img, 0)[16 + i] = (uint8_t)(0xA0 + i);
    frame(img, 0)[4] = 0xFF;
    frame(img, 0)[5] = 0xFF;
    CU_ASSERT_EQUAL_FATAL(parse(img, sizeof img, &d), TESS_OK);
    for (unsigned i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(prog.groups[0].init_r0[i], 0xA0 + i);
    CU_ASSERT_EQUAL(prog.groups[0].init_vect, 0xFFFF);
    check_roundtrip(img, sizeof img);
}

/* ---- D2: rejections name the frame and the field ------------------------ */

static void test_d2_reserved_fence(void)
{
    uint8_t img[TM_BYTES] = {0};
    put_cf(img, 0, 4, TM_FENCE_NO, 0x0001);
    put_cf(img, 5, 1, TM_FENCE_RESERVED, 0x0001);
    expect_reject(img, sizeof img,
                  "prog.tm: frame 5 (CF): fence: reserved value 3 (expected 0=no, 1=acq, 2=rel)");
}

static void test_d2_empty_mask_with_tasks(void)
{
    uint8_t img[TM_BYTES] = {0};
    put_cf(img, 0, 4, TM_FENCE_NO, 0);
    expect_reject(img, sizeof img, "prog.tm: frame 0 (CF): Core_Active_Vect: empty mask with "
                                   "IF_Num = 4 (expected at least one core)");
}

static void test_d2_group_past_frame_63(void)
{
    uint8_t img[TM_BYTES] = {0};
    for (unsigned f = 0; f < 60; f += 4)
        put_cf(img, f, 3, TM_FENCE_NO, 0x0001);
    put_cf(img, 60, 6, TM_FENCE_NO, 0x0001);
    expect_reject(img, sizeof img,
                  "prog.tm: frame 60 (CF): IF_Num: 6 instruction frames would run past frame 63");
    put_cf(img, 60, 3, TM_FENCE_NO, 0x0001); /* ending exactly at frame 63 is fine */
    check_roundtrip(img, sizeof img);
    CU_ASSERT_EQUAL(prog.n_frames, 64);
}

static void test_d2_image_larger_than_tm(void)
{
    uint8_t img[TM_BYTES + 2] = {0};
    expect_reject(img, sizeof img, "prog.tm: 2050 bytes: larger than Task Memory (2048 bytes)");
}

/* ---- D3: Init_R0_Vect bits of inactive cores: a warning -------------------- */

static void test_d3_init_vect_outside_mask_warns(void)
{
    uint8_t img[TM_BYTES] = {0};
    diag_t d = {0};
    put_cf(img, 0, 6, TM_FENCE_NO, 0x0001);
    put_cf(img, 7, 1, TM_FENCE_NO, 0x00F0);
    frame(img, 7)[4] = 0x18; /* cores 3 and 4: 3 is outside 0x00f0 */
    CU_ASSERT_EQUAL_FATAL(parse(img, sizeof img, &d), TESS_OK);
    CU_ASSERT_EQUAL(d.code, TESS_OK);
    CU_ASSERT_EQUAL(d.warnings, 1);
    CU_ASSERT_STRING_EQUAL(d.last_warning, "prog.tm: frame 7 (CF): Init_R0_Vect: bit 3 set for "
                                           "core 3, which is not in Core_Active_Vect 0x00f0; ignored");
    CU_ASSERT_EQUAL(prog.groups[1].init_vect, 0x18); /* kept as-is for the encoder */
    check_roundtrip(img, sizeof img);
    frame(img, 0)[4] = 0x06; /* two more stray bits on frame 0 */
    CU_ASSERT_EQUAL(parse(img, sizeof img, &d), TESS_OK);
    CU_ASSERT_EQUAL(d.warnings, 3);
}

/* ---- tm_validate: the same rules on a structure --------------------------- */

static void expect_invalid(const char *msg)
{
    diag_t d = {0};
    diag_reset(&d);
    CU_ASSERT_EQUAL(tm_validate(&prog, "s", &d), TESS_EINPUT);
    CU_ASSERT_STRING_EQUAL(d.msg, msg);
}

static void test_validate_same_rules(void)
{
    uint64_t rs = 7;
    diag_t d = {0};
    random_program(&prog, &rs);
    while (prog.n_groups < 3 || prog.n_frames >= 60)
        random_program(&prog, &rs);
    diag_reset(&d);
    CU_ASSERT_EQUAL(tm_validate(&prog, "s", &d), TESS_OK);
    unsigned cf1 = prog.groups[1].cf;
    prog2 = prog;
    prog.groups[1].fence = 3;
    char msg[200];
    snprintf(msg, sizeof msg, "s: frame %u (CF): fence: reserved value 3 (expected 0=no, 1=acq, "
             "2=rel)", cf1);
    expect_invalid(msg);
    prog = prog2;
    prog.groups[1].cores = 0;
    snprintf(msg, sizeof msg, "s: frame %u (CF): Core_Active_Vect: empty mask with IF_Num = %u "
             "(expected at least one core)", cf1, (unsigned)prog.groups[1].if_num);
    expect_invalid(msg);
    prog = prog2;
    prog.tail[2] = 1; /* the end marker is no longer one */
    snprintf(msg, sizeof msg, "s: frame %u (end marker): IF_Num 0, Core_Active_Vect 0x0001 "
             "(expected 0 and 0)", prog.n_frames);
    expect_invalid(msg);
    prog = prog2;
    prog.n_frames++; /* groups no longer tile the frames */
    CU_ASSERT_EQUAL(tm_validate(&prog, "s", &d), TESS_EINPUT);
}

/* ---- round trips -------------------------------------------------------- */

static void test_roundtrip_random_structures(void)
{
    uint64_t rs = 1;
    uint8_t img[TM_BYTES], again[TM_BYTES];
    diag_t d = {0};
    for (int i = 0; i < 2000; i++) {
        random_program(&prog2, &rs);
        diag_reset(&d);
        CU_ASSERT_EQUAL_FATAL(tm_validate(&prog2, "r", &d), TESS_OK);
        tm_encode(&prog2, img);
        CU_ASSERT_EQUAL_FATAL(parse(img, sizeof img, &d), TESS_OK);
        CU_ASSERT(memcmp(&prog, &prog2, sizeof prog) == 0); /* parse is encode's inverse */
        tm_encode(&prog, again);
        CU_ASSERT(memcmp(img, again, TM_BYTES) == 0);
    }
}

/* Random bytes (and random lengths, truncated and oversized): never a crash;
 * accepted images round-trip, rejected ones say why. */
static void test_random_bytes_never_crash(void)
{
    static uint8_t img[TM_BYTES + 64];
    uint64_t rs = 99;
    unsigned accepted = 0;
    diag_t d = {0};
    for (int i = 0; i < 20000; i++) {
        size_t len = test_rand(&rs) % (sizeof img + 1);
        for (size_t k = 0; k < len; k++)
            img[k] = (uint8_t)test_rand(&rs);
        for (size_t f = 0; i % 2 && f < len; f += TM_FRAME_BYTES)
            img[f] &= 0x3f; /* half the time no fence 3: more images get through */
        int rc = parse(img, len, &d);
        if (rc == TESS_OK) {
            accepted++;
            check_roundtrip(img, len);
        } else {
            CU_ASSERT_EQUAL(rc, TESS_EINPUT);
            CU_ASSERT(strncmp(d.msg, "prog.tm: ", 9) == 0);
        }
    }
    CU_ASSERT(accepted > 1000);
}

/* Every prefix of a valid image is itself an image (zero-padded). */
static void test_truncated_images(void)
{
    uint64_t rs = 5;
    uint8_t img[TM_BYTES];
    diag_t d = {0};
    for (int i = 0; i < 20; i++) {
        random_program(&prog2, &rs);
        tm_encode(&prog2, img);
        for (size_t len = 0; len <= TM_BYTES; len += 1 + test_rand(&rs) % 40) {
            int rc = parse(img, len, &d);
            CU_ASSERT(rc == TESS_OK || (rc == TESS_EINPUT && d.msg[0]));
            if (rc == TESS_OK)
                check_roundtrip(img, len);
        }
    }
}

/* ---- files and SM images ------------------------------------------------ */

static void test_load_file(void)
{
    uint8_t img[TM_BYTES + 2] = {0};
    diag_t d = {0};
    char expect[1200];
    put_cf(img, 0, 1, TM_FENCE_ACQ, 0x0003);
    put_word(img, 1, 0, 0xF000);
    const char *path = test_tmp_path("p.tm");
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, img, 40), 0);
    diag_reset(&d);
    CU_ASSERT_EQUAL(tm_load_file(&prog, path, &d), TESS_OK);
    CU_ASSERT_EQUAL(prog.n_groups, 1);
    CU_ASSERT_EQUAL(prog.code[1][0], 0xF000);

    CU_ASSERT_EQUAL_FATAL(test_write_file(path, img, sizeof img), 0);
    CU_ASSERT_EQUAL(tm_load_file(&prog, path, &d), TESS_EINPUT);
    snprintf(expect, sizeof expect, "%s: 2050 bytes: larger than Task Memory (2048 bytes)", path);
    CU_ASSERT_STRING_EQUAL(d.msg, expect);

    diag_reset(&d);
    path = test_tmp_path("missing.tm");
    CU_ASSERT_NOT_EQUAL(tm_load_file(&prog, path, &d), TESS_OK);
    snprintf(expect, sizeof expect, "cannot read '%s': No such file or directory", path);
    CU_ASSERT_STRING_EQUAL(d.msg, expect);
}

static void test_sm_image(void)
{
    static uint8_t sm[SM_BYTES], bytes[SM_BYTES + 1];
    diag_t d = {0};
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (uint8_t)(i * 7 + 1);
    diag_reset(&d);
    CU_ASSERT_EQUAL(sm_image_parse(sm, bytes, 10, "m.mem", &d), TESS_OK); /* shorter: padded */
    CU_ASSERT(memcmp(sm, bytes, 10) == 0);
    CU_ASSERT_EQUAL(sm[10], 0);
    CU_ASSERT_EQUAL(sm[SM_BYTES - 1], 0);
    CU_ASSERT_EQUAL(sm_image_parse(sm, bytes, SM_BYTES, "m.mem", &d), TESS_OK); /* exact */
    CU_ASSERT(memcmp(sm, bytes, SM_BYTES) == 0);
    CU_ASSERT_EQUAL(sm_image_parse(sm, bytes, SM_BYTES + 1, "m.mem", &d), TESS_EINPUT);
    CU_ASSERT_STRING_EQUAL(d.msg, "m.mem: 4097 bytes: larger than Shared Memory (4096 bytes)");

    const char *path = test_tmp_path("m.mem");
    char expect[1200];
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, bytes, 100), 0);
    diag_reset(&d);
    CU_ASSERT_EQUAL(sm_image_load_file(sm, path, &d), TESS_OK);
    CU_ASSERT(memcmp(sm, bytes, 100) == 0 && sm[100] == 0);
    CU_ASSERT_EQUAL_FATAL(test_write_file(path, bytes, sizeof bytes), 0);
    CU_ASSERT_EQUAL(sm_image_load_file(sm, path, &d), TESS_EINPUT);
    snprintf(expect, sizeof expect, "%s: 4097 bytes: larger than Shared Memory (4096 bytes)", path);
    CU_ASSERT_STRING_EQUAL(d.msg, expect);
    diag_reset(&d);
    CU_ASSERT_NOT_EQUAL(sm_image_load_file(sm, "/nonexistent/x.mem", &d), TESS_OK);
    CU_ASSERT_STRING_EQUAL(d.msg, "cannot read '/nonexistent/x.mem': No such file or directory");
}

static void test_fence_names(void)
{
    CU_ASSERT_STRING_EQUAL(tm_fence_name(TM_FENCE_NO), "no");
    CU_ASSERT_STRING_EQUAL(tm_fence_name(TM_FENCE_ACQ), "acq");
    CU_ASSERT_STRING_EQUAL(tm_fence_name(TM_FENCE_REL), "rel");
    CU_ASSERT_STRING_EQUAL(tm_fence_name(TM_FENCE_RESERVED), "reserved");
}

static const test_case_t cases[] = {
    TEST(test_d1_kinds_by_position),
    TEST(test_d1_end_marker_any_fields_incl_fence3),
    TEST(test_d1_empty_program),
    TEST(test_d1_program_fills_64_frames),
    TEST(test_d1_if_num_zero_group),
    TEST(test_little_endian_fields_and_header_bits),
    TEST(test_init_r0_byte_order),
    TEST(test_d2_reserved_fence),
    TEST(test_d2_empty_mask_with_tasks),
    TEST(test_d2_group_past_frame_63),
    TEST(test_d2_image_larger_than_tm),
    TEST(test_d3_init_vect_outside_mask_warns),
    TEST(test_validate_same_rules),
    TEST(test_roundtrip_random_structures),
    TEST(test_random_bytes_never_crash),
    TEST(test_truncated_images),
    TEST(test_load_file),
    TEST(test_sm_image),
    TEST(test_fence_names),
    TEST_END,
};

static const test_suite_t suites[] = {{"tm", cases}, {NULL, NULL}};

int main(void) { return test_run_suites(suites); }

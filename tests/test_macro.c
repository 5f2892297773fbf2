/* test_macro.c — the assembler's macro layer (model/asm_expr.c, asm_pp.c,
 * asm_mac.c, asm_list.c): expressions with C's precedence and their range
 * errors, .equ/.set/.equiv/=, .macro with named, default, required and
 * vararg arguments, \@ labels unique per expansion, nesting, .exitm and
 * recursion under .if, .purgem, .rept/.irp/.irpc with \+, .include relative
 * to the including file with its cycle and depth guards, .if/.elseif/.else,
 * errors that name the expansion, the limits on runaway expansion, the
 * listing, and the rewritten examples assembling to the images they had
 * before they used macros (tests/asm_images, made from the expanded text). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "model/asm.h"
#include "model/isa.h"
#include "tests/testutil.h"

static asm_output_t out, out2; /* large: kept out of the test functions' frames */
static diag_t d;

static int assemble(const char *src, const char *name)
{
    diag_reset(&d);
    return asm_assemble(&out, src, strlen(src), name, &d);
}

static void expect_ok(const char *src)
{
    int rc = assemble(src, "t.s");
    if (rc != TESS_OK)
        fprintf(stderr, "\n  unexpected error: %s\n  source:\n%s", d.msg, src);
    CU_ASSERT_EQUAL_FATAL(rc, TESS_OK);
}

/* The whole error message must be `msg`. */
static void expect_err(const char *src, const char *msg)
{
    int rc = assemble(src, "t.s");
    bool ok = rc == TESS_EINPUT && strcmp(d.msg, msg) == 0;
    if (!ok)
        fprintf(stderr, "\n  source:\n%s  got:      %s\n  expected: %s\n", src,
                rc ? d.msg : "(no error)", msg);
    CU_ASSERT(ok);
}

/* Both sources assemble to the same program and SM bytes. */
static void expect_same(const char *with_macros, const char *plain)
{
    expect_ok(plain);
    out2 = out;
    expect_ok(with_macros);
    CU_ASSERT(memcmp(&out.prog, &out2.prog, sizeof out.prog) == 0);
    CU_ASSERT(memcmp(out.sm, out2.sm, sizeof out.sm) == 0);
    CU_ASSERT(memcmp(out.sm_set, out2.sm_set, sizeof out.sm_set) == 0);
}

/* The value of expression `expr` (through .word, so 0..0xffff). */
static unsigned value_of(const char *expr)
{
    char src[512];
    snprintf(src, sizeof src, ".equ P, 3\n.equ Q, 0x10\n.group cores=1\n  .word %s\n", expr);
    expect_ok(src);
    return out.prog.code[1][0];
}

/* ---- expressions ----------------------------------------------------- */

static void test_expression_precedence(void)
{
    static const struct {
        const char *expr;
        unsigned v;
    } cases[] = {
        {"1 + 2 * 3", 7},       {"(1 + 2) * 3", 9},       {"1 << 2 + 1", 8},
        {"6 & 3 | 8", 10},      {"1 | 2 ^ 3", 1},         {"5 - 3 - 1", 1},
        {"100 / 10 / 5", 2},    {"17 % 5", 2},            {"~0 & 0xff", 255},
        {"-(-3)", 3},           {"2 < 3 == 1", 1},        {"!0 + !5", 1},
        {"1 && 0 || 1", 1},     {"-7 / 2 + 10", 7},       {"-7 % 4 + 3", 0},
        {"0x10 + 0b11", 19},    {"P * Q + 1", 49},        {"Q >> 2", 4},
        {"(P > 2) + (P >= 3) + (P <= 2) + (P != 3)", 2},  {"1 << 15", 0x8000},
        {"0xffff & ~(1 << 15)", 0x7fff},                  {"+P", 3},
        {"-1 >> 60 & 0xf", 0xf}, /* >> of a negative is arithmetic */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned v = value_of(cases[i].expr);
        if (v != cases[i].v)
            fprintf(stderr, "\n  %s = %u, expected %u\n", cases[i].expr, v, cases[i].v);
        CU_ASSERT_EQUAL(v, cases[i].v);
    }
}

/* Expressions are accepted wherever a number is, and checked at the use. */
static void test_expressions_everywhere(void)
{
    expect_same(".equ CORES, 0x00ff\n.equ K, 5\n"
                ".group cores=CORES & 0x0f fence=acq init_r0={K - 4:K * 2} hdr=K << 1\n"
                "  set_const r8, K * 40\n  lshft r1, K - 2, r2\n  bnz K + 1, r3\n"
                "  .word 0x1000 | K\n.data 0x100 + K: K, K + 1\n",
                ".group cores=0x000f fence=acq init_r0={1:10} hdr=10\n"
                "  set_const r8, 200\n  lshft r1, 3, r2\n  bnz 6, r3\n"
                "  .word 0x1005\n.data 0x105: 5, 6\n");
    /* = and .set redefine, .equ too (GNU); the value is the one at the use */
    expect_same("X = 1\n.group cores=1\n  set_const r8, X\nX = X + 1\n  set_const r9, X\n"
                ".set X, X * 10\n  set_const r10, X\n.equ X, 7\n  set_const r11, X\n",
                ".group cores=1\n  set_const r8, 1\n  set_const r9, 2\n  set_const r10, 20\n"
                "  set_const r11, 7\n");
}

static void test_expression_errors(void)
{
    expect_err(".group cores=1\n  set_const r8, 2 * 200\n",
               "t.s:2:17: set_const immediate 2 * 200 = 400 out of range (expected 0..255)");
    expect_err(".group cores=1\n  set_const r8, 0 - 1\n",
               "t.s:2:17: set_const immediate 0 - 1 = -1 out of range (expected 0..255)");
    expect_err(".group cores=1\n  lshft r1, 8 + 8, r2\n",
               "t.s:2:13: shift amount 8 + 8 = 16 out of range (expected 0..15)");
    expect_err(".group cores=1\n  .word 1 / (2 - 2)\n",
               "t.s:2:11: division by zero in instruction word");
    expect_err(".group cores=1\n  .word 1 << 64\n",
               "t.s:2:11: shift by 64 in instruction word (expected 0..63)");
    expect_err(".group cores=1\n  .word N + 1\n",
               "t.s:2:9: undefined symbol 'N' in instruction word (expected a number or a name "
               "given by .equ)");
    expect_err(".group cores=1\n  set_const r8, N\n",
               "t.s:2:17: expected 'id' or a constant 0..255, found 'N' (not a symbol given by "
               ".equ)");
    expect_err(".group cores=1\n  .word (1 + 2\n",
               "t.s:2:15: expected ')' after the parenthesised expression, found end of line");
    expect_err(".group cores=1\n  .word 1 +\n",
               "t.s:2:12: expected instruction word (a number), found end of line");
    expect_err(".equ r3, 4\n", "t.s:1:6: 'r3' cannot be a symbol (a register name or 'id')");
    expect_err("id = 4\n", "t.s:1:1: 'id' cannot be a symbol (a register name or 'id')");
    expect_err(".equiv A, 1\n.equiv A, 2\n",
               "t.s:2:8: .equiv: symbol 'A' is already defined (at t.s:1)");
    expect_err(".equ A 1\n", "t.s:1:8: expected ',' after the symbol name, found '1'");
    /* nesting is bounded: 65 parentheses */
    char src[256] = ".group cores=1\n  .word ";
    size_t n = strlen(src);
    for (int i = 0; i < 65; i++)
        src[n++] = '(';
    strcpy(src + n, "1\n");
    CU_ASSERT_EQUAL(assemble(src, "t.s"), TESS_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "expression nested more than 64 deep"));
}

/* ---- macros ---------------------------------------------------------- */

static void test_macro_arguments(void)
{
    /* positional, keyword, default, an empty value takes the default */
    expect_same(".macro op3 name, a, b=r2, c=r3\n  \\name \\a, \\b, \\c\n.endm\n"
                ".group cores=1\n  op3 add, r1\n  op3 sub, r4, r5, r6\n  op3 xor, r7, c=r9\n"
                "  op3 and, r1, , r8\n  op3 c=r0, b=r0, a=r0, name=or\n",
                ".group cores=1\n  add r1, r2, r3\n  sub r4, r5, r6\n  xor r7, r2, r9\n"
                "  and r1, r2, r8\n  or r0, r0, r0\n");
    /* quoted arguments keep their commas; brackets too; \() separates */
    expect_same(".macro two first, second\n  \\first\n  \\second\n.endm\n"
                ".macro ldr n, addr\n  ld \\addr, r\\n\n  add r\\()\\n, r\\n, r1\n.endm\n"
                ".group cores=1\n  two \"set_const r8, 1\", \"set_const r9, 2\"\n"
                "  ldr 4, [r0, r8]\n",
                ".group cores=1\n  set_const r8, 1\n  set_const r9, 2\n  ld [r0, r8], r4\n"
                "  add r4, r4, r1\n");
    /* :vararg takes the rest of the line, :req must be given */
    expect_same(".macro emit op:req, rest:vararg\n  \\op \\rest\n.endm\n"
                ".group cores=1\n  emit add, r1, r2, r3\n",
                ".group cores=1\n  add r1, r2, r3\n");
    expect_err(".macro m a:req\n.endm\n  m\n",
               "t.s:3:3: macro 'm': missing value for required argument 'a'");
    expect_err(".macro m a\n.endm\n  m 1, 2\n",
               "t.s:3:8: macro 'm' takes 1 argument; extra argument '2'");
    expect_err(".macro m a\n.endm\n  m a=1, a=2\n",
               "t.s:3:10: argument 'a' of macro 'm' given twice");
    expect_err(".macro m a, a\n.endm\n", "t.s:1:13: duplicate parameter 'a'");
    expect_err(".macro m a:opt\n.endm\n", "t.s:1:12: expected 'req' or 'vararg' after 'a:'");
    expect_err(".macro m\n.endm\n.macro m\n.endm\n",
               "t.s:3:8: macro 'm' is already defined (at t.s:1; .purgem removes it)");
    expect_err(".macro m\n  nop\n", "t.s:1:1: missing .endm for this .macro (the end of the "
               "file came first)");
    expect_err(".endm\n", "t.s:1:1: .endm without .macro");
    expect_err(".macro r1\n.endm\n", "t.s:1:8: expected a macro name after .macro, found 'r1'");
    /* .purgem frees the name */
    expect_same(".macro m\n  add r1, r1, r1\n.endm\n.group cores=1\n  m\n.purgem m\n"
                ".macro m\n  sub r2, r2, r2\n.endm\n  m\n",
                ".group cores=1\n  add r1, r1, r1\n  sub r2, r2, r2\n");
}

/* \@ makes labels unique per expansion: one macro twice in one task. */
static void test_local_labels(void)
{
    expect_same(".macro countdown reg\n  set_const r10, 1\nloop\\@:\n  sub \\reg, r10, \\reg\n"
                "  bnz loop\\@, \\reg\n.endm\n"
                ".group cores=1\n  countdown r8\n  countdown r9\n",
                ".group cores=1\n  set_const r10, 1\na:\n  sub r8, r10, r8\n  bnz a, r8\n"
                "  set_const r10, 1\nb:\n  sub r9, r10, r9\n  bnz b, r9\n");
    /* without \@ the second expansion's label is a duplicate, named as such */
    expect_err(".macro m\nl:\n  nop\n.endm\n.group cores=1\n  m\n  m\n",
               "t.s:2:1: duplicate label 'l' (already defined at line 2) (in macro 'm' called "
               "at t.s:7)");
}

static void test_nested_macros(void)
{
    /* a macro calling a macro, a macro defining a macro */
    expect_same(".macro inc r\n  add \\r, r15, \\r\n.endm\n"
                ".macro inc2 a, b\n  inc \\a\n  inc \\b\n.endm\n"
                ".macro def name, reg\n.macro \\name\n  inc \\reg\n.endm\n.endm\n"
                ".group cores=1\n  inc2 r1, r2\n  def bump3, r3\n  bump3\n",
                ".group cores=1\n  add r1, r15, r1\n  add r2, r15, r2\n  add r3, r15, r3\n");
    /* recursion that ends: .if and .exitm; \+ counts the calls */
    expect_same(".macro nops n\n.if \\n == 0\n.exitm\n.endif\n  nop\n  nops \\n - 1\n.endm\n"
                ".macro calls\n  .word \\+\n.endm\n"
                ".group cores=1\n  nops 3\n  calls\n  calls\n",
                ".group cores=1\n  nop\n  nop\n  nop\n  .word 0\n  .word 1\n");
    expect_err(".exitm\n", "t.s:1:1: .exitm outside a macro");
}

/* ---- repetitions ----------------------------------------------------- */

static void test_rept_irp(void)
{
    /* \+ is the iteration; an inner .rept has its own */
    expect_same(".group cores=1\n.rept 2\n.rept 3\n  .word \\+\n.endr\n  .word 0x100 + \\+\n.endr\n",
                ".group cores=1\n  .word 0\n  .word 1\n  .word 2\n  .word 0x100\n"
                "  .word 0\n  .word 1\n  .word 2\n  .word 0x101\n");
    /* sixteen tasks that differ in one constant */
    char plain[4096] = ".group cores=0xffff\n";
    for (int i = 0; i < 16; i++)
        snprintf(plain + strlen(plain), sizeof plain - strlen(plain),
                 ".task\n  set_const r8, %d\n  ld [r8, r0], r1\n", 16 * i);
    expect_same(".group cores=0xffff\n.rept 16\n.task\n  set_const r8, 16 * \\+\n"
                "  ld [r8, r0], r1\n.endr\n", plain);
    /* .irp over values (registers, text), nested; .irpc over characters */
    expect_same(".group cores=1\n.irp r, r1, r2\n.irp op, add, sub\n  \\op \\r, \\r, \\r\n"
                ".endr\n.endr\n.irpc k, 137\n  set_const r8, \\k\n.endr\n",
                ".group cores=1\n  add r1, r1, r1\n  sub r1, r1, r1\n  add r2, r2, r2\n"
                "  sub r2, r2, r2\n  set_const r8, 1\n  set_const r8, 3\n  set_const r8, 7\n");
    /* .rept 0 emits nothing; .irp without values runs once with the symbol empty */
    expect_same(".group cores=1\n.rept 0\n  nop\n.endr\n.irp x\n  add r1\\x, r1, r1\n.endr\n",
                ".group cores=1\n  add r1, r1, r1\n");
    /* symbols counted with .set inside a repetition */
    expect_same("i = 0\n.rept 3\n.data 0x10 + i: i * i\ni = i + 1\n.endr\n",
                ".data 0x10: 0, 1, 4\n");
    expect_err(".rept 3\n  nop\n", "t.s:1:1: missing .endr for this repetition (the end of "
               "the file came first)");
    expect_err(".endr\n", "t.s:1:1: .endr without .rept or .irp");
    expect_err(".rept 0 - 1\n.endr\n", "t.s:1:7: .rept count -1 out of range (expected "
               "0..100000)");
    expect_err(".irp 1, 2\n.endr\n", "t.s:1:6: expected a symbol after .irp, found '1'");
}

/* ---- .if ------------------------------------------------------------- */

static void test_conditionals(void)
{
    expect_same(".equ MODE, 2\n.group cores=1\n"
                ".if MODE == 1\n  add r1, r1, r1\n.elseif MODE == 2\n  sub r2, r2, r2\n"
                ".else\n  xor r3, r3, r3\n.endif\n"
                ".ifdef MODE\n  nop\n.endif\n.ifndef NOPE\n  .word 7\n.endif\n"
                ".if 0\n  bogus line that is not assembled\n  .if UNDEFINED_SYMBOL\n  .endif\n"
                ".else\n  .word 8\n.endif\n"
                ".macro opt a\n.ifb \\a\n  .word 1\n.endif\n.ifnb \\a\n  .word \\a\n.endif\n.endm\n"
                "  opt\n  opt 9\n",
                ".group cores=1\n  sub r2, r2, r2\n  nop\n  .word 7\n  .word 8\n  .word 1\n"
                "  .word 9\n");
    expect_err(".else\n", "t.s:1:1: .else without .if");
    expect_err(".if 1\n.else\n.else\n.endif\n",
               "t.s:3:1: .else after .else (the .if is at line 1)");
    expect_err(".if 1\n", "t.s:1:1: .if without .endif before the end of the file");
    expect_err(".macro m\n.if 1\n.endm\n  m\n",
               "t.s:2:1: .if without .endif before the end of the macro (in macro 'm' called "
               "at t.s:4)");
}

/* ---- .include -------------------------------------------------------- */

static void write_text(const char *name, const char *text)
{
    CU_ASSERT_EQUAL_FATAL(test_write_file(test_tmp_path(name), text, strlen(text)), 0);
}

static void test_include(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", test_tmp_path("inc"));
    char cmd[700];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/sub'", dir);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    /* relative to the including file: sub/lib.s includes consts.s from sub/ */
    write_text("inc/main.s", ".include \"sub/lib.s\"\n.group cores=1\n  bump r1\n"
                             "  set_const r8, K\n");
    write_text("inc/sub/lib.s", ".include \"consts.s\"\n.macro bump r\n  add \\r, \\r, \\r\n"
                                ".endm\n");
    write_text("inc/sub/consts.s", ".equ K, 42\n");
    diag_reset(&d);
    CU_ASSERT_EQUAL_FATAL(asm_assemble_file(&out, test_tmp_path("inc/main.s"), &d), TESS_OK);
    out2 = out;
    expect_ok(".group cores=1\n  add r1, r1, r1\n  set_const r8, 42\n");
    CU_ASSERT(memcmp(&out.prog, &out2.prog, sizeof out.prog) == 0);
    /* an error in an included file names it and where it was included */
    write_text("inc/bad.s", ".include \"sub/oops.s\"\n");
    write_text("inc/sub/oops.s", ".group cores=1\n  .word 0x10000\n");
    diag_reset(&d);
    CU_ASSERT_EQUAL(asm_assemble_file(&out, test_tmp_path("inc/bad.s"), &d), TESS_EINPUT);
    char want[3000];
    snprintf(want, sizeof want, "%s/sub/oops.s:2:9: instruction word 0x10000 out of range "
             "(expected 0..65535) (included from %s/bad.s:1)", dir, dir);
    if (strcmp(d.msg, want) != 0)
        fprintf(stderr, "\n  got:      %s\n  expected: %s\n", d.msg, want);
    CU_ASSERT_STRING_EQUAL(d.msg, want);
    /* a cycle: a.s -> b.s -> a.s */
    write_text("inc/a.s", ".include \"b.s\"\n");
    write_text("inc/b.s", "\n.include \"a.s\"\n");
    diag_reset(&d);
    CU_ASSERT_EQUAL(asm_assemble_file(&out, test_tmp_path("inc/a.s"), &d), TESS_EINPUT);
    snprintf(want, sizeof want, "%s/b.s:2:1: .include \"%s/a.s\": the file includes itself (it "
             "is already open as %s/a.s) (included from %s/a.s:1)", dir, dir, dir, dir);
    CU_ASSERT_STRING_EQUAL(d.msg, want);
    /* depth: d0.s includes d1.s ... d19.s */
    for (int i = 0; i < 20; i++) {
        char name[32], text[64];
        snprintf(name, sizeof name, "inc/d%d.s", i);
        snprintf(text, sizeof text, ".include \"d%d.s\"\n", i + 1);
        write_text(name, text);
    }
    diag_reset(&d);
    CU_ASSERT_EQUAL(asm_assemble_file(&out, test_tmp_path("inc/d0.s"), &d), TESS_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "d16.s:1:1: .include \""));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "d17.s\": files included more than 16 deep"));
    /* a byte order mark starts an included file as it may the program (issue 26) */
    write_text("inc/bom.s", "\xef\xbb\xbf.equ BOM, 1\n");
    write_text("inc/usebom.s", "\xef\xbb\xbf.include \"bom.s\"\n.group cores=BOM\n  .word 1 <<\n");
    diag_reset(&d);
    CU_ASSERT_EQUAL(asm_assemble_file(&out, test_tmp_path("inc/usebom.s"), &d), TESS_EINPUT);
    snprintf(want, sizeof want, "%s/usebom.s:3:13: expected instruction word (a number), found "
             "end of line", dir);
    CU_ASSERT_STRING_EQUAL(d.msg, want);
    /* a missing file */
    expect_err(".include \"no/such/file.s\"\n",
               "t.s:1:1: .include: cannot read 'no/such/file.s': No such file or directory");
    expect_err(".include nofile\n", "t.s:1:10: expected the file name in double quotes, found "
               "'nofile'");
}

/* ---- errors inside expansions, limits -------------------------------- */

static void test_errors_name_the_expansion(void)
{
    expect_err(".macro row r\n  add \\r, r1, r1\n.endm\n.group cores=1\n  row r16\n",
               "t.s:2:7: bad register 'r16' (expected r0..r15) (in macro 'row' called at t.s:5)");
    expect_err(".group cores=1\n.rept 3\n  set_const r8, 200 * \\+\n.endr\n",
               "t.s:3:17: set_const immediate 200 * 2 = 400 out of range (expected 0..255) (in "
               ".rept iteration 3 of 3 at t.s:2)");
    expect_err(".macro inner v\n  set_const r8, \\v\n.endm\n"
               ".macro outer\n.irp x, 1, 300\n  inner \\x\n.endr\n.endm\n.group cores=1\n  outer\n",
               "t.s:2:17: set_const immediate 300 out of range (expected 0..255) (in macro "
               "'inner' called at t.s:6, in .irp x=300 (2 of 2) at t.s:5, in macro 'outer' "
               "called at t.s:10)");
    /* a label resolved at the end names the expansion it was written in */
    expect_err(".macro jump\n  bnz nowhere, r1\n.endm\n.group cores=1\n  jump\n",
               "t.s:2:7: undefined label 'nowhere' (in macro 'jump' called at t.s:5)");
}

static void test_limits(void)
{
    expect_err(".rept 100001\n.endr\n", "t.s:1:7: .rept count 100001 out of range (expected "
               "0..100000)");
    expect_err(".macro m\n  m\n.endm\n  m\n",
               "t.s:2:3: expansion limit: macros, repetitions and files nested more than 100 deep "
               "(a macro that calls itself without end?) (in macro 'm' called at t.s:2, in macro "
               "'m' called at t.s:2, in macro 'm' called at t.s:2, in macro 'm' called at t.s:2, "
               "...)");
    /* 49 outer iterations of 1 + 1000 + 1000 calls, then the 976th inner iteration
     * of the 50th is the 100001st */
    expect_err(".macro m\n.endm\n.rept 1000\n.rept 1000\n  m\n.endr\n.endr\n",
               "t.s:5:1: expansion limit: more than 100000 macro calls and .rept/.irp iterations "
               "(runaway expansion?) (in .rept iteration 975 of 1000 at t.s:4, in .rept iteration "
               "50 of 1000 at t.s:3)");
    /* 50000 iterations of 20 lines make 1000000 lines; the next is refused */
    char body[400] = ".rept 100000\n";
    for (int i = 0; i < 10; i++)
        strcat(body, "  .if 0\n  .endif\n");
    strcat(body, ".endr\n");
    expect_err(body, "t.s:21:1: expansion limit: more than 1000000 lines made by macros and "
               "repetitions (runaway expansion?) (in .rept iteration 50000 of 100000 at t.s:1)");
    /* one line that doubles at each level: 2^30 bytes are refused before any is written */
    char src[4096] = ".macro x0 a\n  ; \\a\n.endm\n";
    for (int i = 1; i <= 30; i++)
        snprintf(src + strlen(src), sizeof src - strlen(src),
                 ".macro x%d a\n  x%d \\a\\a\n.endm\n", i, i - 1);
    strcat(src, "  x30 0123456789abcdef\n");
    CU_ASSERT_EQUAL(assemble(src, "t.s"), TESS_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "expansion limit: more than 67108864 bytes of text"));
}

/* ---- listing, disassembly -------------------------------------------- */

static void test_listing(void)
{
    const char *src = ".equ N, 2\n"
                      ".macro twice op\n"
                      ".rept N\n"
                      "  \\op\n"
                      ".endr\n"
                      ".endm\n"
                      ".group cores=3\n"
                      "  twice \"add r1, r1, r1\"\n"
                      "l:bnz l, r1\n";
    char *text = NULL;
    diag_reset(&d);
    CU_ASSERT_EQUAL_FATAL(asm_assemble_listing(&out, src, strlen(src), "l.s", &text, &d), TESS_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const char *want =
        "; FRAME:SLOT WORD  FILE:LINE  SOURCE ('+': made by a macro or repetition, one per level)\n"
        "             l.s:1  .equ N, 2\n"
        "             l.s:2  .macro twice op\n"
        "F00:CF       l.s:7  .group cores=3\n"
        "             l.s:8    twice \"add r1, r1, r1\"\n"
        "             l.s:3  + .rept N\n"
        "F01:00 1111  l.s:4  ++   add r1, r1, r1\n"
        "F01:01 1111  l.s:4  ++   add r1, r1, r1\n"
        "F01:02 e120  l.s:9  l:bnz l, r1\n"
        "F01:03 f000         (ready added: a task shorter than 16 slots ends in one, spec §5)\n";
    if (strcmp(text, want) != 0)
        fprintf(stderr, "\n  got:\n%s  expected:\n%s", text, want);
    CU_ASSERT_STRING_EQUAL(text, want);
    free(text);
    /* no listing on error */
    text = (char *)1;
    CU_ASSERT_EQUAL(asm_assemble_listing(&out, "nop\n", 4, "l.s", &text, &d), TESS_EINPUT);
    CU_ASSERT_PTR_NULL(text);
}

/* What macros make disassembles to plain text that assembles back. */
static void test_disasm_of_expanded_program(void)
{
    expect_ok(".macro m k\n  set_const r8, \\k\nl\\@: sub r8, r15, r8\n  bnz l\\@, r8\n.endm\n"
              ".group cores=0xffff\n.rept 16\n.task\n  m \\+ + 1\n.endr\n.data 0x10: 1, 2\n");
    out2 = out;
    char *text = asm_disassemble(&out2.prog, out2.sm);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    int rc = assemble(text, "dis.s");
    CU_ASSERT_EQUAL(rc, TESS_OK);
    CU_ASSERT(memcmp(&out.prog, &out2.prog, sizeof out.prog) == 0);
    CU_ASSERT(memcmp(out.sm, out2.sm, sizeof out.sm) == 0);
    free(text);
}

/* ---- the rewritten examples ------------------------------------------ */

/* The examples rewritten with .equ, .macro, .rept and .irp assemble to the
 * images the expanded originals gave (made with `tessera asm --mem-out` from
 * the text before the rewrite and kept in tests/asm_images). */
static void test_examples_images_unchanged(void)
{
    static const char *const names[] = {"bench", "matmul", "matmul4", "matadd", "transpose",
                                        "simt_latency"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "examples/%s.s", names[i]);
        diag_reset(&d);
        int rc = asm_assemble_file(&out, test_src_path(rel), &d);
        if (rc != TESS_OK)
            fprintf(stderr, "\n  %s\n", d.msg);
        CU_ASSERT_EQUAL_FATAL(rc, TESS_OK);
        CU_ASSERT_EQUAL(d.warnings, 0);
        uint8_t image[TM_BYTES];
        tm_encode(&out.prog, image);
        size_t len = 0;
        snprintf(rel, sizeof rel, "tests/asm_images/%s.tm", names[i]);
        uint8_t *tm = test_read_file(test_src_path(rel), &len);
        CU_ASSERT_FATAL(tm != NULL && len == TM_BYTES);
        snprintf(rel, sizeof rel, "tests/asm_images/%s.mem", names[i]);
        uint8_t *mem = test_read_file(test_src_path(rel), &len);
        CU_ASSERT_FATAL(mem != NULL && len == SM_BYTES);
        bool same = memcmp(image, tm, TM_BYTES) == 0 && memcmp(out.sm, mem, SM_BYTES) == 0;
        if (!same)
            fprintf(stderr, "\n  examples/%s.s: the image differs from tests/asm_images\n",
                    names[i]);
        CU_ASSERT(same);
        free(tm);
        free(mem);
    }
}

static const test_case_t cases[] = {
    TEST(test_expression_precedence),
    TEST(test_expressions_everywhere),
    TEST(test_expression_errors),
    TEST(test_macro_arguments),
    TEST(test_local_labels),
    TEST(test_nested_macros),
    TEST(test_rept_irp),
    TEST(test_conditionals),
    TEST(test_include),
    TEST(test_errors_name_the_expansion),
    TEST(test_limits),
    TEST(test_listing),
    TEST(test_disasm_of_expanded_program),
    TEST(test_examples_images_unchanged),
    TEST_END,
};

static const test_suite_t suites[] = {{"macro", cases}, {NULL, NULL}};

int main(void) { return test_run_suites(suites); }

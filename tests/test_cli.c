/* test_cli.c — the `tessera` command end to end: asm/disasm round trips,
 * the ISS on every example with its documented final memory, dump formats,
 * exit codes and error messages, and the option parser of every command
 * (checked against each command's option table, so it cannot drift).
 * Runs the built binary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli/cli_opt.h"
#include "cli/commands.h"
#include "events/base/err.h"
#include "tests/testutil.h"

static int tessera(const char *args, char **out)
{
    return test_run_tessera(args, out);
}

static uint8_t *dump_of(const char *prog_and_opts, const char *dump)
{
    char cmd[1024];
    const char *path = test_tmp_path(dump);
    snprintf(cmd, sizeof cmd, "%s --dump-mem '%s'", prog_and_opts, path);
    char *out = NULL;
    int rc = tessera(cmd, &out);
    if (rc != 0)
        fprintf(stderr, "tessera %s → %d\n%s\n", cmd, rc, out ? out : "");
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    size_t len = 0;
    uint8_t *m = test_read_file(path, &len);
    CU_ASSERT_EQUAL(len, 4096);
    return m;
}

static void test_help_lists_exit_codes(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(tessera("--help", &out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "3  watchdog"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "2  rejected input"));
    free(out);
    CU_ASSERT_EQUAL(tessera("frobnicate", NULL), 1);
    CU_ASSERT_EQUAL(tessera("", NULL), 1);
    CU_ASSERT_EQUAL(tessera("iss", NULL), 1);
    CU_ASSERT_EQUAL(tessera("asm x.s", NULL), 1); /* no -o */
}

static void test_iss_matadd(void)
{
    char args[512];
    snprintf(args, sizeof args, "iss '%s'", test_src_path("examples/matadd.s"));
    uint8_t *m = dump_of(args, "matadd.mem");
    static const uint8_t c[8] = {0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87};
    CU_ASSERT_EQUAL(memcmp(m + 0x20, c, 8), 0);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(m[i], i); /* A unchanged */
    free(m);
}

static void test_iss_matmul(void)
{
    char args[512];
    snprintf(args, sizeof args, "iss '%s'", test_src_path("examples/matmul.s"));
    uint8_t *m = dump_of(args, "matmul.mem");
    static const uint8_t c[4] = {7, 10, 15, 22};
    CU_ASSERT_EQUAL(memcmp(m + 0x20, c, 4), 0);
    free(m);
}

static const uint8_t example_counters[16] = {0x27, 0x27, 0x27, 0x27, 0x22, 0x2a, 0x33, 0x3b,
                                             0x27, 0x27, 0x27, 0x27, 0x66, 0x6e, 0x77, 0x7f};

static void test_iss_examples_1_and_2(void)
{
    const char *names[] = {"examples/example1.s", "examples/example2.s"};
    for (unsigned i = 0; i < 2; i++) {
        char args[512];
        snprintf(args, sizeof args, "iss '%s'", test_src_path(names[i]));
        uint8_t *m = dump_of(args, "example.mem");
        CU_ASSERT_EQUAL(memcmp(m, example_counters, 16), 0);
        for (unsigned a = 16; a < 4096; a++)
            if (m[a])
                CU_FAIL("a byte outside the counters changed");
        free(m);
    }
}

/* asm writes a 2048-byte image and the .data bytes; the ISS on the image plus
 * the SM image gives the same memory as on the source; disasm of the image
 * assembles back to the identical image. */
static void test_asm_image_and_mem_round_trip(void)
{
    char cmd[1024];
    const char *tm = test_tmp_path("matadd.tm"), *mem = test_tmp_path("matadd.data");
    snprintf(cmd, sizeof cmd, "asm '%s' -o '%s' --mem-out '%s'",
             test_src_path("examples/matadd.s"), tm, mem);
    CU_ASSERT_EQUAL_FATAL(tessera(cmd, NULL), 0);
    size_t len;
    uint8_t *image = test_read_file(tm, &len);
    CU_ASSERT_EQUAL(len, 2048);
    snprintf(cmd, sizeof cmd, "iss '%s' --mem '%s'", tm, mem);
    uint8_t *m = dump_of(cmd, "from-image.mem");
    CU_ASSERT_EQUAL(m[0x27], 0x87);
    free(m);
    const char *src2 = test_tmp_path("again.s"), *tm2 = test_tmp_path("again.tm");
    snprintf(cmd, sizeof cmd, "'%s' disasm '%s' > '%s'", TESSERA_BINARY, tm, src2);
    CU_ASSERT_EQUAL(test_run_shell(cmd, NULL), 0);
    snprintf(cmd, sizeof cmd, "asm '%s' -o '%s'", src2, tm2);
    CU_ASSERT_EQUAL(tessera(cmd, NULL), 0);
    uint8_t *image2 = test_read_file(tm2, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(image2);
    CU_ASSERT_EQUAL(memcmp(image, image2, 2048), 0);
    free(image);
    free(image2);
}

/* A failed assembly names file:line:column, exits 2, and writes nothing. */
static void test_asm_error_leaves_no_output(void)
{
    const char *src = test_tmp_path("bad.s"), *out = test_tmp_path("bad.tm");
    const char *text = ".group cores=0x1\n add r1, r2\n";
    test_write_file(src, text, strlen(text));
    char cmd[1024], *msg = NULL;
    snprintf(cmd, sizeof cmd, "asm '%s' -o '%s'", src, out);
    CU_ASSERT_EQUAL(tessera(cmd, &msg), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "bad.s:2:"));
    free(msg);
    CU_ASSERT_PTR_NULL(test_read_file(out, NULL));
}

static void test_iss_watchdog_exit_3_names_frame_core_ip(void)
{
    const char *src = test_tmp_path("loop.s");
    const char *text = ".group cores=0x2\n set_const r8, 1\nspin:\n bnz spin, r8\n";
    test_write_file(src, text, strlen(text));
    char cmd[1024], *msg = NULL;
    snprintf(cmd, sizeof cmd, "iss '%s' --budget 1000 --dump-regs '%s'", src,
             test_tmp_path("loop.regs"));
    CU_ASSERT_EQUAL(tessera(cmd, &msg), 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "frame 1, core 1, IP 1"));
    free(msg);
    size_t len = 0;
    uint8_t *regs = test_read_file(test_tmp_path("loop.regs"), &len);
    CU_ASSERT_EQUAL(len, 256);
    CU_ASSERT_EQUAL(regs[16 + 8], 1); /* core 1's R8: the dump is core-major */
    free(regs);
}

static void test_rejected_inputs_exit_2(void)
{
    const char *big = test_tmp_path("big.tm");
    uint8_t *zeros = calloc(1, 2049);
    test_write_file(big, zeros, 2049);
    free(zeros);
    char cmd[1024], *msg = NULL;
    snprintf(cmd, sizeof cmd, "iss '%s'", big);
    CU_ASSERT_EQUAL(tessera(cmd, &msg), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "2048"));
    free(msg);
    snprintf(cmd, sizeof cmd, "iss '%s'", test_tmp_path("no-such-file.s"));
    CU_ASSERT_EQUAL(tessera(cmd, &msg), 5);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "no-such-file.s"));
    free(msg);
    snprintf(cmd, sizeof cmd, "iss '%s'", test_src_path("README.md"));
    CU_ASSERT_EQUAL(tessera(cmd, &msg), 2); /* neither .s nor .tm */
    free(msg);
}

/* An output that cannot be written is found before anything runs. */
static void test_unwritable_dump_fails_before_simulating(void)
{
    char cmd[1024], *msg = NULL;
    snprintf(cmd, sizeof cmd, "run '%s' --no-db --dump-mem /no/such/dir/x.mem",
             test_src_path("examples/first.s"));
    CU_ASSERT_EQUAL(tessera(cmd, &msg), 5);
    CU_ASSERT(msg && strstr(msg, "/no/such/dir/x.mem"));
    CU_ASSERT(!(msg && strstr(msg, "simulated time"))); /* nothing ran */
    free(msg);
    snprintf(cmd, sizeof cmd, "iss '%s' --dump-regs '%s'", test_src_path("examples/first.s"),
             test_tmp_dir());
    CU_ASSERT_EQUAL(tessera(cmd, &msg), 5);
    CU_ASSERT(msg && strstr(msg, "is a directory"));
    free(msg);
}

/* --- the option parser, from each command's table --------------------------------- */

/* Parses NAME P1 .. Pmin_pos ARGS… with the command's spec; returns cli_parse's code. */
static int parse_with(const cli_spec_t *spec, const char *const *args, int n, cli_args_t *c)
{
    char *argv[16];
    int argc = 0;
    argv[argc++] = (char *)spec->name;
    for (int i = 0; i < spec->min_pos; i++)
        argv[argc++] = i ? "P2" : "P1";
    for (int i = 0; i < n && argc < 15; i++)
        argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    return cli_parse(spec, argc, argv, c);
}

/* Checks that `args` parse into exactly one item: `opt` with `value`. */
static void expect_one(const cli_spec_t *spec, cli_opt_id_t opt, const char *value,
                       const char *const *args, int n)
{
    cli_args_t c;
    int rc = parse_with(spec, args, n, &c);
    CU_ASSERT_EQUAL(rc, TESS_OK);
    CU_ASSERT_EQUAL(c.n_items, 1);
    CU_ASSERT_EQUAL(c.n_pos, spec->min_pos);
    if (rc == TESS_OK && c.n_items == 1) {
        CU_ASSERT_EQUAL(c.items[0].opt, opt);
        if (value) {
            CU_ASSERT_STRING_EQUAL(c.items[0].value ? c.items[0].value : "(null)", value);
        } else {
            CU_ASSERT_PTR_NULL(c.items[0].value);
        }
    } else {
        fprintf(stderr, "tessera %s %s%s: rc %d, %d items\n", spec->name, args[0],
                n > 1 ? " …" : "", rc, c.n_items);
    }
    cli_args_free(&c);
}

/* Every option of every command in each form: `--opt=V`, `--opt V`, and
 * `-xV`, `-x V` for those with a letter; a flag alone, and refused with a value. */
static void test_every_option_in_both_forms(void)
{
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY); /* the refusals print usage */
    dup2(null, 2);
    for (size_t i = 0; i < cli_command_count; i++) {
        const cli_spec_t *spec = cli_commands[i].spec;
        for (const cli_use_t *u = spec->opts; u->opt != CLI_NONE; u++) {
            char eq[64], dash[64], joined[8], letter[4];
            snprintf(eq, sizeof eq, "--%s=v=1,2", cli_opt_name(u->opt));
            snprintf(dash, sizeof dash, "--%s", cli_opt_name(u->opt));
            snprintf(letter, sizeof letter, "-%c", cli_opt_short(u->opt));
            snprintf(joined, sizeof joined, "-%cv=1,2", cli_opt_short(u->opt));
            if (!cli_opt_takes_value(u->opt)) {
                expect_one(spec, u->opt, NULL, (const char *const[]){dash}, 1);
                cli_args_t c;
                CU_ASSERT_EQUAL(parse_with(spec, (const char *const[]){eq}, 1, &c),
                                TESS_EUSAGE);
                cli_args_free(&c);
                continue;
            }
            expect_one(spec, u->opt, "v=1,2", (const char *const[]){eq}, 1);
            expect_one(spec, u->opt, "v=1,2", (const char *const[]){dash, "v=1,2"}, 2);
            if (cli_opt_short(u->opt)) {
                expect_one(spec, u->opt, "v=1,2", (const char *const[]){joined}, 1);
                expect_one(spec, u->opt, "v=1,2", (const char *const[]){letter, "v=1,2"}, 2);
            }
            cli_args_t c; /* a value option at the end, without its value */
            CU_ASSERT_EQUAL(parse_with(spec, (const char *const[]){dash}, 1, &c), TESS_EUSAGE);
            cli_args_free(&c);
        }
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(null);
}

/* -s and --seed keep their order; options and positional arguments mix. */
static void test_sets_in_order(void)
{
    cli_args_t c;
    const char *const args[] = {"--seed=7", "-s", "sm.bank=2", "--no-db", "--set=sim.seed=9"};
    CU_ASSERT_EQUAL(parse_with(&cli_spec_run, args, 5, &c), TESS_OK);
    CU_ASSERT_EQUAL(c.n_sets, 3);
    if (c.n_sets == 3) {
        CU_ASSERT_STRING_EQUAL(c.sets[0], "sim.seed=7");
        CU_ASSERT_STRING_EQUAL(c.sets[1], "sm.bank=2");
        CU_ASSERT_STRING_EQUAL(c.sets[2], "sim.seed=9");
    }
    CU_ASSERT_STRING_EQUAL(c.pos[0], "P1");
    CU_ASSERT_EQUAL(cli_count(&c, CLI_NO_DB), 1);
    cli_args_free(&c);
}

/* `tessera NAME --help` lists every option the command accepts. */
static void test_help_lists_every_option(void)
{
    for (size_t i = 0; i < cli_command_count; i++) {
        const cli_spec_t *spec = cli_commands[i].spec;
        char cmd[64], *out = NULL;
        snprintf(cmd, sizeof cmd, "%s --help", spec->name);
        CU_ASSERT_EQUAL(tessera(cmd, &out), 0);
        CU_ASSERT(out && strstr(out, "Exit codes: 0 "));
        CU_ASSERT(out && strstr(out, "-h, --help"));
        for (const cli_use_t *u = spec->opts; out && u->opt != CLI_NONE; u++) {
            char want[64];
            if (cli_opt_short(u->opt))
                snprintf(want, sizeof want, "  -%c, --%s", cli_opt_short(u->opt),
                         cli_opt_name(u->opt));
            else
                snprintf(want, sizeof want, "  --%s", cli_opt_name(u->opt));
            if (!strstr(out, want)) {
                fprintf(stderr, "tessera %s --help lacks '%s'\n", spec->name, want);
                CU_FAIL("an accepted option is missing from --help");
            }
        }
        free(out);
    }
}

/* An unknown option: exit 1 and a message naming it, for every command. */
static void test_unknown_option_exits_1_naming_it(void)
{
    for (size_t i = 0; i < cli_command_count; i++) {
        const char *name = cli_commands[i].spec->name;
        char cmd[128], want[128], *out = NULL;
        snprintf(cmd, sizeof cmd, "%s --no-such-option=3 x", name);
        CU_ASSERT_EQUAL(tessera(cmd, &out), 1);
        snprintf(want, sizeof want, "tessera: %s: unknown option '--no-such-option'", name);
        CU_ASSERT(out && strstr(out, want));
        free(out);
        snprintf(cmd, sizeof cmd, "%s -Z", name);
        CU_ASSERT_EQUAL(tessera(cmd, &out), 1);
        CU_ASSERT(out && strstr(out, "unknown option '-Z'"));
        free(out);
    }
}

/* The same run with `--opt=V -sK=V` and with `--opt V -s K=V`, end to end. */
static void test_run_takes_both_forms(void)
{
    char cmd[1024], *a = NULL, *b = NULL;
    const char *prog = test_src_path("examples/first.s");
    const char *ini = test_src_path("config/contention.ini");
    snprintf(cmd, sizeof cmd, "run '%s' --no-db --config='%s' -ssm.bank=3 --seed=5", prog, ini);
    CU_ASSERT_EQUAL(tessera(cmd, &a), 0);
    snprintf(cmd, sizeof cmd, "run --no-db '%s' --config '%s' --set sm.bank=3 --seed 5", prog,
             ini);
    CU_ASSERT_EQUAL(tessera(cmd, &b), 0);
    /* the same simulated results (the wall-time line differs) */
    CU_ASSERT(a && b && strstr(a, "simulated time"));
    if (a && b && strstr(a, "  wall time"))
        CU_ASSERT_EQUAL(strncmp(a, b, (size_t)(strstr(a, "  wall time") - a)), 0);
    free(a);
    free(b);
    CU_ASSERT_EQUAL(tessera("config --seed=42", &a), 0);
    CU_ASSERT(a && strstr(a, "seed = 42"));
    free(a);
    /* `config` warns of a key set twice in the file, as `run` does (docs/CONFIG.md) */
    const char *dup = test_tmp_path("dup.ini");
    test_write_file(dup, "[sm]\nbank = 2\nreq = 1\nbank = 3\n", 31);
    for (int i = 0; i < 2; i++) {
        if (i)
            snprintf(cmd, sizeof cmd, "run '%s' --no-db --quiet --config '%s'", prog, dup);
        else
            snprintf(cmd, sizeof cmd, "config --config '%s'", dup);
        CU_ASSERT_EQUAL(tessera(cmd, &a), 0);
        CU_ASSERT(a && strstr(a, "warning: ") && strstr(a, "dup.ini:4: sm.bank is "
                               "set again: this value replaces the one of line 2\n"));
        free(a);
    }
}

/* The progress line: on a pipe only when asked (--progress or sim.progress=on),
 * in cycles, with the frames done of the program's total. */
static void test_run_progress_only_when_asked(void)
{
    char args[512], *out = NULL;
    snprintf(args, sizeof args, "run '%s' --no-db --quiet", test_src_path("examples/matadd.s"));
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 0);
    CU_ASSERT(out && !strstr(out, "progress"));
    free(out);
    snprintf(args, sizeof args, "run '%s' --no-db --quiet --progress",
             test_src_path("examples/matadd.s"));
    CU_ASSERT_EQUAL(test_run_tessera(args, &out), 0);
    /* matadd.s: one group of one task (2 frames), 41 cycles */
    CU_ASSERT(out && strstr(out, "progress: cycle "));
    CU_ASSERT(out && strstr(out, "progress: cycle 41, frames 2 of 2 done, "));
    CU_ASSERT_PTR_NULL(out ? strchr(out, '\r') : "");
    free(out);
}

static const test_case_t cases[] = {
    TEST(test_unwritable_dump_fails_before_simulating),
    TEST(test_help_lists_exit_codes),
    TEST(test_iss_matadd),
    TEST(test_iss_matmul),
    TEST(test_iss_examples_1_and_2),
    TEST(test_asm_image_and_mem_round_trip),
    TEST(test_asm_error_leaves_no_output),
    TEST(test_iss_watchdog_exit_3_names_frame_core_ip),
    TEST(test_rejected_inputs_exit_2),
    TEST(test_every_option_in_both_forms),
    TEST(test_sets_in_order),
    TEST(test_help_lists_every_option),
    TEST(test_unknown_option_exits_1_naming_it),
    TEST(test_run_takes_both_forms),
    TEST(test_run_progress_only_when_asked),
    TEST_END,
};

static const test_suite_t suites[] = {{"cli", cases}, {NULL, NULL}};

int main(void)
{
    return test_run_suites(suites);
}

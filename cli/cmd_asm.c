/* cmd_asm.c — `tessera asm` and `tessera disasm`: between the assembly of
 * spec §5 and the binary Task Memory / SM images. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "events/base/alloc.h"
#include "events/base/err.h"
#include "model/asm.h"

static const cli_use_t asm_opts[] = {
    {CLI_OUTPUT, "OUT.tm", "the Task Memory image to write (2048 bytes; required unless "
                           "--listing)"},
    {CLI_MEM_OUT, NULL, NULL},
    {CLI_LISTING, NULL, "print the listing on stdout: every line read (after .include, macros "
                        "and repetitions) beside the frame:slot and word it filled; '+' marks "
                        "expanded lines, one per level"},
    {CLI_NONE, NULL, NULL},
};

static const cli_exit_t asm_exits[] = {
    {TESS_OK, NULL}, {TESS_EUSAGE, NULL}, {TESS_EINPUT, NULL}, {TESS_EIO, NULL}, {TESS_ENOMEM, NULL}, {-1, NULL},
};

const cli_spec_t cli_spec_asm = {
    .name = "asm",
    .usage = "IN.s -o OUT.tm [--mem-out OUT.mem] [--listing]",
    .about = "Assembles IN.s into a 2048-byte Task Memory image; --mem-out writes the\n"
             "4096-byte SM image of its .data lines; --listing prints the listing.\n"
             "Nothing is written on error.\n",
    .opts = asm_opts,
    .exits = asm_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "IN.s is missing",
};

static const cli_use_t disasm_opts[] = {
    {CLI_MEM, NULL, "an SM image: its non-zero bytes become .data lines"},
    {CLI_NONE, NULL, NULL},
};

const cli_spec_t cli_spec_disasm = {
    .name = "disasm",
    .usage = "IN.tm [--mem F.mem]",
    .about = "Prints assembly that `tessera asm` turns back into the identical image.\n",
    .opts = disasm_opts,
    .exits = asm_exits,
    .min_pos = 1,
    .max_pos = 1,
    .missing = "IN.tm is missing",
};

/* Parses the command line: the positional argument, and the last value of
 * each option in vals[option] (pointers into argv). */
static int parse(const cli_spec_t *spec, int argc, char **argv, const char **in,
                 const char *vals[CLI_OPT_COUNT], bool *listing /* OUT, nullable */)
{
    cli_args_t c;
    int rc = cli_parse(spec, argc, argv, &c);
    if (rc == TESS_OK) {
        *in = c.pos[0];
        for (int i = 0; i < CLI_OPT_COUNT; i++)
            vals[i] = cli_value(&c, (cli_opt_id_t)i);
        if (listing)
            *listing = cli_count(&c, CLI_LISTING) > 0;
    }
    cli_args_free(&c);
    return rc;
}

int cmd_asm(int argc, char **argv)
{
    const char *in = NULL, *vals[CLI_OPT_COUNT] = {0};
    bool listing = false;
    int rc = parse(&cli_spec_asm, argc, argv, &in, vals, &listing);
    if (rc == TESS_OK && !vals[CLI_OUTPUT] && !listing)
        rc = cli_usage_error(&cli_spec_asm, "-o OUT.tm is required (or --listing)");
    if (rc != TESS_OK)
        return rc == CLI_HELP_PRINTED ? TESS_OK : rc;
    const char *out = vals[CLI_OUTPUT], *mem_out = vals[CLI_MEM_OUT];
    outfile_role_t outs[2] = {{out, "-o", false}, {mem_out, "--mem-out", false}};
    outfile_role_t src = {in, "the source", false};
    if ((rc = cli_check_files(outs, 2, &src, 1)) != TESS_OK)
        return rc;
    diag_t d = {.warn = diag_warn_stderr};
    asm_output_t *o = tess_malloc(sizeof *o);
    char *text = NULL;
    if (!o)
        return cli_nomem();
    rc = asm_assemble_file_listing(o, in, listing ? &text : NULL, &d);
    if (rc != TESS_OK) {
        fprintf(stderr, "%s\n", d.msg);
        tess_free(o);
        return rc;
    }
    uint8_t image[TM_BYTES];
    tm_encode(&o->prog, image);
    if (out)
        rc = cli_write_file(out, image, sizeof image);
    if (rc == TESS_OK && mem_out)
        rc = cli_write_file(mem_out, o->sm, sizeof o->sm);
    if (rc == TESS_OK && text)
        fputs(text, stdout);
    tess_free(text);
    tess_free(o);
    return rc;
}

int cmd_disasm(int argc, char **argv)
{
    const char *in = NULL, *vals[CLI_OPT_COUNT] = {0};
    int rc = parse(&cli_spec_disasm, argc, argv, &in, vals, NULL);
    if (rc != TESS_OK)
        return rc == CLI_HELP_PRINTED ? TESS_OK : rc;
    const char *mem = vals[CLI_MEM];
    diag_t d = {.warn = diag_warn_stderr};
    tm_program_t *prog = tess_malloc(sizeof *prog);
    uint8_t *sm = tess_malloc(SM_BYTES);
    rc = prog && sm ? tm_load_file(prog, in, &d) : diag_fail(&d, TESS_ENOMEM, "out of memory");
    if (rc == TESS_OK && mem)
        rc = sm_image_load_file(sm, mem, &d);
    char *text = rc == TESS_OK ? asm_disassemble(prog, mem ? sm : NULL) : NULL;
    if (rc != TESS_OK)
        fprintf(stderr, "%s\n", d.msg);
    else if (!text)
        rc = cli_nomem();
    else
        fputs(text, stdout);
    tess_free(text);
    tess_free(sm);
    tess_free(prog);
    return rc;
}

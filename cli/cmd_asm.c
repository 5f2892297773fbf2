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

static const char asm_help[] =
    "usage: tessera asm IN.s -o OUT.tm [--mem-out OUT.mem]\n"
    "Assembles IN.s into a 2048-byte Task Memory image; --mem-out writes the\n"
    "4096-byte SM image of its .data lines. Nothing is written on error.\n";

static const char disasm_help[] =
    "usage: tessera disasm IN.tm [--mem F.mem]\n"
    "Prints assembly that `tessera asm` turns back into the identical image;\n"
    "with --mem, the non-zero bytes of the SM image become .data lines.\n";

int cmd_asm(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *mem_out = NULL;
    bool bad = false;
    for (int i = 1; i < argc && !bad; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(asm_help, stdout);
            return TESS_OK;
        }
        if (cli_option(argc, argv, &i, "-o", &out, &bad) ||
            cli_option(argc, argv, &i, "--mem-out", &mem_out, &bad))
            continue;
        if (argv[i][0] == '-' || in) {
            cli_error("asm: unexpected argument '%s'", argv[i]);
            bad = true;
        }
        in = argv[i];
    }
    if (bad || !in || !out) {
        fputs(asm_help, stderr);
        return TESS_EUSAGE;
    }
    diag_t d = {.warn = diag_warn_stderr};
    asm_output_t *o = tess_malloc(sizeof *o);
    if (!o)
        return cli_nomem();
    int rc = asm_assemble_file(o, in, &d);
    if (rc != TESS_OK) {
        fprintf(stderr, "%s\n", d.msg);
        tess_free(o);
        return rc;
    }
    uint8_t image[TM_BYTES];
    tm_encode(&o->prog, image);
    rc = cli_write_file(out, image, sizeof image);
    if (rc == TESS_OK && mem_out)
        rc = cli_write_file(mem_out, o->sm, sizeof o->sm);
    tess_free(o);
    return rc;
}

int cmd_disasm(int argc, char **argv)
{
    const char *in = NULL, *mem = NULL;
    bool bad = false;
    for (int i = 1; i < argc && !bad; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(disasm_help, stdout);
            return TESS_OK;
        }
        if (cli_option(argc, argv, &i, "--mem", &mem, &bad))
            continue;
        if (argv[i][0] == '-' || in) {
            cli_error("disasm: unexpected argument '%s'", argv[i]);
            bad = true;
        }
        in = argv[i];
    }
    if (bad || !in) {
        fputs(disasm_help, stderr);
        return TESS_EUSAGE;
    }
    diag_t d = {.warn = diag_warn_stderr};
    static tm_program_t prog;
    static uint8_t sm[SM_BYTES];
    int rc = tm_load_file(&prog, in, &d);
    if (rc == TESS_OK && mem)
        rc = sm_image_load_file(sm, mem, &d);
    if (rc != TESS_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return rc;
    }
    char *text = asm_disassemble(&prog, mem ? sm : NULL);
    if (!text)
        return cli_nomem();
    fputs(text, stdout);
    tess_free(text);
    return TESS_OK;
}

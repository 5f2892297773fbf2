/* fuzz_mkseeds.c — build-time helper of the fuzz build: assembles each IN.s
 * and writes OUTDIR/<name>.tm, the image without its trailing zero bytes (a
 * shorter image is zero-padded, spec §5), as a seed for fuzz_tm.
 * usage: fuzz_mkseeds OUTDIR IN.s...  A file that does not assemble is skipped
 * with a warning (a seed less); exits 1 only when a seed cannot be written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/base/err.h"
#include "model/asm.h"

static int write_seed(const char *dir, const char *src, const uint8_t *img, size_t len)
{
    char path[4096];
    const char *base = strrchr(src, '/');
    base = base ? base + 1 : src;
    size_t stem = strcspn(base, ".");
    snprintf(path, sizeof path, "%s/%.*s.tm", dir, (int)stem, base);
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(img, 1, len, fp) != len || fclose(fp) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    uint8_t img[TM_BYTES];
    asm_output_t *out = malloc(sizeof *out);
    int bad = 0;
    if (argc < 2 || !out) {
        fprintf(stderr, "usage: fuzz_mkseeds OUTDIR IN.s...\n");
        free(out);
        return 1;
    }
    for (int i = 2; i < argc; i++) {
        diag_t d = {0};
        if (asm_assemble_file(out, argv[i], &d) != TESS_OK) {
            fprintf(stderr, "fuzz_mkseeds: warning: skipped: %s\n", d.msg);
            continue;
        }
        tm_encode(&out->prog, img);
        size_t len = TM_BYTES;
        while (len > TM_FRAME_BYTES && img[len - 1] == 0)
            len--;
        bad |= write_seed(argv[1], argv[i], img, len);
    }
    free(out);
    return bad;
}

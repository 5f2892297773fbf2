/* sha256.c — the hex form of nettle's SHA-256 (see sha256.h). */
#include "analysis/store/sha256.h"

#include <stdint.h>

void sha256_hex_digest(struct sha256_ctx *ctx, char out[SHA256_HEX])
{
    static const char hex[] = "0123456789abcdef";
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(ctx, sizeof d, d);
    for (unsigned i = 0; i < SHA256_DIGEST_SIZE; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[2 * SHA256_DIGEST_SIZE] = 0;
}

void sha256_hex(const void *data, size_t len, char out[SHA256_HEX])
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, len, data);
    sha256_hex_digest(&ctx, out);
}

/* sha256.h — SHA-256 (FIPS 180-4) for the hashes the store keeps
 * (runs.program_sha256, runs.data_sha256, run keys): nettle's, whose
 * <nettle/sha2.h> this includes for incremental hashing (struct sha256_ctx,
 * sha256_init, sha256_update(ctx, len, data), sha256_digest), plus the
 * lowercase hex text the tables store. No allocation, no failure. */
#ifndef TESSERA_SHA256_H
#define TESSERA_SHA256_H

#include <nettle/sha2.h>
#include <stddef.h>

#define SHA256_HEX (2 * SHA256_DIGEST_SIZE + 1) /* lowercase hex text and its NUL */

/* The digest of what `ctx` has hashed, as lowercase hex (NUL-terminated);
 * `ctx` is initialised again (nettle's sha256_digest resets it). */
void sha256_hex_digest(struct sha256_ctx *ctx, char out[SHA256_HEX] /* OUT */);

/* One call: the digest of `len` bytes as lowercase hex (NUL-terminated). */
void sha256_hex(const void *data, size_t len, char out[SHA256_HEX] /* OUT */);

#endif

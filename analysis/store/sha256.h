/* sha256.h — SHA-256 (FIPS 180-4), for the hashes the recorder stores
 * (runs.program_sha256, runs.data_sha256). A small, dependency-free
 * implementation: SQLite's core has none. Incremental: init, update any
 * number of times, final. No allocation, no failure. */
#ifndef TESSERA_SHA256_H
#define TESSERA_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST 32          /* bytes of a digest */
#define SHA256_HEX (2 * SHA256_DIGEST + 1) /* lowercase hex text and its NUL */

typedef struct sha256 {
    uint32_t h[8];            /* private: the chaining state */
    uint64_t bytes;           /* private: message length so far */
    uint8_t buf[64];          /* private: the partial block */
    size_t fill;              /* private: bytes in buf */
} sha256_t;

void sha256_init(sha256_t *s);
void sha256_update(sha256_t *s, const void *data, size_t len);
/* Writes the digest; `s` must be initialised again before reuse. */
void sha256_final(sha256_t *s, uint8_t out[SHA256_DIGEST] /* OUT */);

/* One call: the digest of `len` bytes as lowercase hex (NUL-terminated). */
void sha256_hex(const void *data, size_t len, char out[SHA256_HEX] /* OUT */);

#endif

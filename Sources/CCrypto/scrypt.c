#include "ccrypto.h"
#include <openssl/evp.h>
#include <openssl/kdf.h>

/* scrypt (RFC 7914) through libcrypto's EVP_PBE_scrypt. N = 2^15, r = 8, p = 1 take 32 MiB and about
 * 60 ms here: slow enough that a stolen table of digests costs a guesser years per strong password,
 * fast enough that a cashier signing in does not wait. */
int seatkit_scrypt(const void *password, size_t password_count, const unsigned char *salt, size_t salt_count, unsigned long long n,
                   unsigned long long r, unsigned long long p, unsigned char *out, size_t out_count) {
    /* The memory scrypt needs (128 r N bytes) and a margin: libcrypto refuses more than it is allowed. */
    unsigned long long max_memory = 128ULL * r * n * 2 + (1ULL << 20);
    return EVP_PBE_scrypt((const char *)password, password_count, salt, salt_count, n, r, p, max_memory, out, out_count) == 1;
}

/* HMAC-SHA-1 (RFC 2104) of `message` under `key` into `out` (20 bytes): what RFC 6238's one-time codes
 * use (every authenticator app reads SHA-1 secrets; SHA-1's collisions do not weaken HMAC). */
int seatkit_hmac_sha1(const void *key, size_t key_count, const void *message, size_t message_count, unsigned char *out) {
    size_t written = 0;
    return EVP_Q_mac(NULL, "HMAC", NULL, "SHA1", NULL, key, key_count, message, message_count, out, 20, &written) != NULL && written == 20;
}

#ifndef SEATKIT_CCRYPTO_H
#define SEATKIT_CCRYPTO_H
#include <stddef.h>

/* The SHA-256 of `head` then `tail` (either may be empty) into `out` (32 bytes), through OpenSSL's
 * libcrypto; 1 on success, 0 when libcrypto failed (no SHA-256 provider, out of memory). Thread-safe. */
int seatkit_sha256(const void *head, size_t head_count, const void *tail, size_t tail_count, unsigned char *out);

/* HMAC-SHA-256 (RFC 2104) of `message` under `key` into `out` (32 bytes); 1 on success. Thread-safe. */
int seatkit_hmac_sha256(const void *key, size_t key_count, const void *message, size_t message_count, unsigned char *out);

/* `count` bytes from the kernel's generator (getrandom), buffered a thread; 1 on success. Thread-safe. */
int seatkit_random_bytes(void *out, size_t count);

/* Ed25519 (RFC 8032) with the key given as its 32-byte seed: the 32-byte public key, a 64-byte signature
 * of `message`; 1 on success, 0 when libcrypto failed. Verify answers 1 only for a valid signature. */
int seatkit_ed25519_public_key(const unsigned char *seed, unsigned char *public_key);
int seatkit_ed25519_sign(const unsigned char *seed, const void *message, size_t message_count, unsigned char *signature);
int seatkit_ed25519_verify(const unsigned char *public_key, const void *message, size_t message_count, const unsigned char *signature);

/* RSA (PKCS#1 v1.5) with SHA-256, keys as PEM text: a private key (PKCS#8 or PKCS#1) signs; a public key
 * (`PUBLIC KEY`, `RSA PUBLIC KEY`) or a certificate verifies. `key_check` answers the key's bits (0 when
 * the text is no RSA key of that kind); `sign` writes at most *signature_count bytes and sets it; 1 on
 * success. Thread-safe. */
int seatkit_rsa_key_check(const char *pem, size_t pem_count, int private_key);
int seatkit_rsa_sha256_sign(const char *pem, size_t pem_count, const void *message, size_t message_count, unsigned char *signature, size_t *signature_count);
int seatkit_rsa_sha256_verify(const char *pem, size_t pem_count, const void *message, size_t message_count, const unsigned char *signature, size_t signature_count);

/* A PEM certificate's serial number as upper-case hex into `out` (NUL-terminated); 1 on success. */
int seatkit_x509_serial(const char *pem, size_t pem_count, char *out, size_t out_capacity);

/* AES-256-GCM with a 16-byte tag: `encrypt` 1 seals `input` into `output` (same length) and writes `tag`;
 * 0 opens it, checking `tag`. 1 on success, 0 when the tag does not match or libcrypto failed. */
int seatkit_aes256gcm(int encrypt, const unsigned char *key, const void *nonce, size_t nonce_count, const void *aad, size_t aad_count,
                      const unsigned char *input, size_t input_count, unsigned char *output, unsigned char *tag);

/* scrypt (RFC 7914) of `password` with `salt` and cost N, r, p into `out`; 1 on success (0: libcrypto
 * refused the parameters or ran out of memory). Thread-safe. */
int seatkit_scrypt(const void *password, size_t password_count, const unsigned char *salt, size_t salt_count, unsigned long long n,
                   unsigned long long r, unsigned long long p, unsigned char *out, size_t out_count);

/* HMAC-SHA-1 of `message` under `key` into `out` (20 bytes), for RFC 6238 one-time codes; 1 on success. */
int seatkit_hmac_sha1(const void *key, size_t key_count, const void *message, size_t message_count, unsigned char *out);

#endif

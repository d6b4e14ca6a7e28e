#ifndef SEATKIT_CCRYPTO_H
#define SEATKIT_CCRYPTO_H
#include <stddef.h>

/* The SHA-256 of `head` then `tail` (either may be empty) into `out` (32 bytes), through OpenSSL's
 * libcrypto; 1 on success, 0 when libcrypto failed (no SHA-256 provider, out of memory). Thread-safe. */
int seatkit_sha256(const void *head, size_t head_count, const void *tail, size_t tail_count, unsigned char *out);

/* HMAC-SHA-256 (RFC 2104) of `message` under `key` into `out` (32 bytes); 1 on success. Thread-safe. */
int seatkit_hmac_sha256(const void *key, size_t key_count, const void *message, size_t message_count, unsigned char *out);

/* Ed25519 (RFC 8032) with the key given as its 32-byte seed: the 32-byte public key, a 64-byte signature
 * of `message`; 1 on success, 0 when libcrypto failed. Verify answers 1 only for a valid signature. */
int seatkit_ed25519_public_key(const unsigned char *seed, unsigned char *public_key);
int seatkit_ed25519_sign(const unsigned char *seed, const void *message, size_t message_count, unsigned char *signature);
int seatkit_ed25519_verify(const unsigned char *public_key, const void *message, size_t message_count, const unsigned char *signature);

#endif

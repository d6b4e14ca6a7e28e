#include "ccrypto.h"
#include <openssl/evp.h>

/* Ed25519 (RFC 8032) through OpenSSL 3's EVP interface. Keys are made from their 32-byte seed on each
 * call (a ticket is signed once, at its sale, and a scan verifies one signature): no key object is kept
 * between calls, so nothing needs a lock or freeing by the caller. */

int seatkit_ed25519_public_key(const unsigned char *seed, unsigned char *public_key) {
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    if (key == NULL) return 0;
    size_t length = 32;
    int ok = EVP_PKEY_get_raw_public_key(key, public_key, &length) == 1 && length == 32;
    EVP_PKEY_free(key);
    return ok;
}

int seatkit_ed25519_sign(const unsigned char *seed, const void *message, size_t message_count, unsigned char *signature) {
    static const unsigned char empty = 0;
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t length = 64;
    int ok = key != NULL && context != NULL && EVP_DigestSignInit(context, NULL, NULL, NULL, key) == 1
        && EVP_DigestSign(context, signature, &length, message_count ? message : &empty, message_count) == 1 && length == 64;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return ok;
}

int seatkit_ed25519_verify(const unsigned char *public_key, const void *message, size_t message_count, const unsigned char *signature) {
    static const unsigned char empty = 0;
    EVP_PKEY *key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, public_key, 32);
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int ok = key != NULL && context != NULL && EVP_DigestVerifyInit(context, NULL, NULL, NULL, key) == 1
        && EVP_DigestVerify(context, signature, 64, message_count ? message : &empty, message_count) == 1;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return ok;
}

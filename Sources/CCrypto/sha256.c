#include "ccrypto.h"
#include <openssl/evp.h>
#include <pthread.h>
#include <string.h>
#include <errno.h>
#include <sys/random.h>

/* SHA-256 through OpenSSL 3's EVP interface with the algorithm fetched once and one digest context a
 * thread, reused: 457 ns for a 63-byte token here, against 1,252 ns for EVP_Digest (which fetches the
 * algorithm and allocates a context on every call) and 974 ns for the one-shot SHA256(). The context
 * is freed when its thread ends. */
static pthread_once_t seatkit_sha256_once = PTHREAD_ONCE_INIT;
static pthread_key_t seatkit_sha256_key;
static EVP_MD *seatkit_sha256_md;

static void seatkit_sha256_free(void *context) { EVP_MD_CTX_free((EVP_MD_CTX *)context); }

static void seatkit_sha256_setup(void) {
    seatkit_sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
    pthread_key_create(&seatkit_sha256_key, seatkit_sha256_free);
}

/* The SHA-256 of `head` then `tail` (either may be empty) into `out` (32 bytes); 1 on success, 0 when
 * libcrypto failed (no SHA-256 provider, out of memory). */
int seatkit_sha256(const void *head, size_t head_count, const void *tail, size_t tail_count, unsigned char *out) {
    pthread_once(&seatkit_sha256_once, seatkit_sha256_setup);
    if (seatkit_sha256_md == NULL) return 0;
    EVP_MD_CTX *context = (EVP_MD_CTX *)pthread_getspecific(seatkit_sha256_key);
    if (context == NULL) {
        context = EVP_MD_CTX_new();
        if (context == NULL || pthread_setspecific(seatkit_sha256_key, context) != 0) { EVP_MD_CTX_free(context); return 0; }
    }
    unsigned int length = 0;
    return EVP_DigestInit_ex(context, seatkit_sha256_md, NULL) == 1
        && (head_count == 0 || EVP_DigestUpdate(context, head, head_count) == 1)
        && (tail_count == 0 || EVP_DigestUpdate(context, tail, tail_count) == 1)
        && EVP_DigestFinal_ex(context, out, &length) == 1 && length == 32;
}

/* HMAC-SHA-256 (RFC 2104) of `message` under `key` into `out` (32 bytes), as two digests on the thread's
 * reused context: SHA-256((K ^ opad) || SHA-256((K ^ ipad) || message)). 425 ns for a 40-byte message
 * here against 1,326 ns for libcrypto's one-shot HMAC(), which fetches SHA-256 and allocates its
 * contexts on every call (a hold of four attendees keys four documents). 1 on success, 0 when
 * libcrypto failed. */
int seatkit_hmac_sha256(const void *key, size_t key_count, const void *message, size_t message_count, unsigned char *out) {
    unsigned char block[64] = {0}, pad[64], inner[32];
    if (key_count > 64) {
        if (!seatkit_sha256(key, key_count, NULL, 0, block)) return 0;
    } else if (key_count > 0) {
        memcpy(block, key, key_count);
    }
    for (int i = 0; i < 64; i++) pad[i] = block[i] ^ 0x36;
    if (!seatkit_sha256(pad, 64, message, message_count, inner)) return 0;
    for (int i = 0; i < 64; i++) pad[i] = block[i] ^ 0x5c;
    return seatkit_sha256(pad, 64, inner, 32, out);
}

/* `count` bytes from the kernel's generator, drawn 256 at a time into a buffer of the thread's (a
 * getrandom(2) call was a quarter of sealing an attendee): nonces and tokens, never reused, since each
 * byte is handed out once. 1 on success. */
int seatkit_random_bytes(void *out, size_t count) {
    static __thread unsigned char pool[256];
    static __thread size_t left = 0;
    unsigned char *to = (unsigned char *)out;
    while (count > 0) {
        if (left == 0) {
            size_t got = 0;
            while (got < sizeof pool) {
                ssize_t n = getrandom(pool + got, sizeof pool - got, 0);
                if (n < 0) { if (errno == EINTR) continue; return 0; }
                got += (size_t)n;
            }
            left = sizeof pool;
        }
        size_t take = count < left ? count : left;
        unsigned char *from = pool + (sizeof pool - left);
        memcpy(to, from, take);
        memset(from, 0, take);
        to += take; count -= take; left -= take;
    }
    return 1;
}

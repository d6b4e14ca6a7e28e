#include "ccrypto.h"
#include <pthread.h>
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <string.h>

/* Payment providers' signatures (WeChat Pay API v3, Alipay RSA2) and WeChat Pay's encrypted
 * notifications. Keys come as PEM text and are parsed on each call: a checkout or a notification signs
 * or verifies once (about 1 ms for a 2048-bit signature here, the parse a few µs of it), so a cache of
 * parsed keys would buy nothing a buyer could see. */

/* A private key (PKCS#8 `PRIVATE KEY` or PKCS#1 `RSA PRIVATE KEY`), or a public one: `PUBLIC KEY`,
 * `RSA PUBLIC KEY` or the key of a `CERTIFICATE`. NULL when the text is none of them. */
static EVP_PKEY *seatkit_load_key(const char *pem, size_t pem_count, int private) {
    BIO *bio = BIO_new_mem_buf(pem, (int)pem_count);
    if (bio == NULL) return NULL;
    EVP_PKEY *key = NULL;
    if (private) {
        key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    } else if (strstr(pem, "CERTIFICATE") != NULL) {
        X509 *certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL);
        if (certificate != NULL) { key = X509_get_pubkey(certificate); X509_free(certificate); }
    } else if (strstr(pem, "RSA PUBLIC KEY") != NULL) {
        // PKCS#1, as some of Alipay's tools write it; read as DER (OpenSSL 3 deprecates the RSA type).
        char *name = NULL, *header = NULL;
        unsigned char *der = NULL;
        long der_count = 0;
        if (PEM_read_bio(bio, &name, &header, &der, &der_count) == 1) {
            const unsigned char *cursor = der;
            key = d2i_PublicKey(EVP_PKEY_RSA, NULL, &cursor, der_count);
        }
        OPENSSL_free(name); OPENSSL_free(header); OPENSSL_free(der);
    } else {
        key = PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
    }
    BIO_free(bio);
    if (key != NULL && EVP_PKEY_base_id(key) != EVP_PKEY_RSA) { EVP_PKEY_free(key); return NULL; }
    return key;
}

int seatkit_rsa_key_check(const char *pem, size_t pem_count, int private) {
    EVP_PKEY *key = seatkit_load_key(pem, pem_count, private);
    if (key == NULL) return 0;
    int bits = EVP_PKEY_get_bits(key);
    EVP_PKEY_free(key);
    return bits;
}

int seatkit_rsa_sha256_sign(const char *pem, size_t pem_count, const void *message, size_t message_count, unsigned char *signature, size_t *signature_count) {
    EVP_PKEY *key = seatkit_load_key(pem, pem_count, 1);
    if (key == NULL) return 0;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t capacity = *signature_count;
    int ok = context != NULL && EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) == 1
        && EVP_DigestSign(context, NULL, signature_count, message, message_count) == 1 && *signature_count <= capacity
        && EVP_DigestSign(context, signature, signature_count, message, message_count) == 1;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return ok;
}

int seatkit_rsa_sha256_verify(const char *pem, size_t pem_count, const void *message, size_t message_count, const unsigned char *signature, size_t signature_count) {
    EVP_PKEY *key = seatkit_load_key(pem, pem_count, 0);
    if (key == NULL) return 0;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int ok = context != NULL && EVP_DigestVerifyInit(context, NULL, EVP_sha256(), NULL, key) == 1
        && EVP_DigestVerify(context, signature, signature_count, message, message_count) == 1;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return ok;
}

int seatkit_x509_serial(const char *pem, size_t pem_count, char *out, size_t out_capacity) {
    BIO *bio = BIO_new_mem_buf(pem, (int)pem_count);
    if (bio == NULL) return 0;
    X509 *certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (certificate == NULL) return 0;
    BIGNUM *serial = ASN1_INTEGER_to_BN(X509_get_serialNumber(certificate), NULL);
    X509_free(certificate);
    if (serial == NULL) return 0;
    char *hex = BN_bn2hex(serial);
    BN_free(serial);
    if (hex == NULL) return 0;
    size_t count = strlen(hex);
    int ok = count < out_capacity;
    if (ok) memcpy(out, hex, count + 1);
    OPENSSL_free(hex);
    return ok;
}

/* AES-256-GCM, the cipher fetched once and one context a thread reused (EVP_CIPHER_CTX_reset between
 * uses): 506 ns to seal an attendee here against 796 ns with a context made and the cipher looked up
 * on every call. */
static pthread_once_t seatkit_gcm_once = PTHREAD_ONCE_INIT;
static pthread_key_t seatkit_gcm_key;
static EVP_CIPHER *seatkit_gcm_cipher;

static void seatkit_gcm_free(void *context) { EVP_CIPHER_CTX_free((EVP_CIPHER_CTX *)context); }

static void seatkit_gcm_setup(void) {
    seatkit_gcm_cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    pthread_key_create(&seatkit_gcm_key, seatkit_gcm_free);
}

int seatkit_aes256gcm(int encrypt, const unsigned char *key, const void *nonce, size_t nonce_count, const void *aad, size_t aad_count,
                      const unsigned char *input, size_t input_count, unsigned char *output, unsigned char *tag) {
    pthread_once(&seatkit_gcm_once, seatkit_gcm_setup);
    if (seatkit_gcm_cipher == NULL) return 0;
    EVP_CIPHER_CTX *context = (EVP_CIPHER_CTX *)pthread_getspecific(seatkit_gcm_key);
    if (context == NULL) {
        context = EVP_CIPHER_CTX_new();
        if (context == NULL || pthread_setspecific(seatkit_gcm_key, context) != 0) { EVP_CIPHER_CTX_free(context); return 0; }
    }
    /* The thread's last key and direction, kept with its context: the same again (every attendee of a
     * server is sealed under one key) takes only the new nonce, not the key's schedule again. Cleared
     * whenever a use fails, so a context left half-made is made afresh. */
    static __thread unsigned char last_key[32];
    static __thread int last_state = -1; /* -1 none, else the direction of the key kept */
    int length = 0, ok;
    if (last_state == encrypt && nonce_count == 12 && CRYPTO_memcmp(last_key, key, 32) == 0) {
        ok = EVP_CipherInit_ex(context, NULL, NULL, NULL, nonce, encrypt) == 1;
    } else {
        ok = EVP_CIPHER_CTX_reset(context) == 1 && EVP_CipherInit_ex(context, seatkit_gcm_cipher, NULL, NULL, NULL, encrypt) == 1
            && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, (int)nonce_count, NULL) == 1
            && EVP_CipherInit_ex(context, NULL, NULL, key, nonce, encrypt) == 1;
        last_state = ok && nonce_count == 12 ? encrypt : -1;
        if (ok) memcpy(last_key, key, 32);
    }
    ok = ok
        && (aad_count == 0 || EVP_CipherUpdate(context, NULL, &length, aad, (int)aad_count) == 1)
        && (input_count == 0 || EVP_CipherUpdate(context, output, &length, input, (int)input_count) == 1)
        && (encrypt || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, tag) == 1)
        && EVP_CipherFinal_ex(context, output + length, &length) == 1
        && (!encrypt || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1);
    if (!ok) last_state = -1;
    return ok;
}

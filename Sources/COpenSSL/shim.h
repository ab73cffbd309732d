#ifndef PASSKEYD_COPENSSL_SHIM_H
#define PASSKEYD_COPENSSL_SHIM_H
// Only what Swift cannot import from OpenSSL 3 (macros, variadic functions) or cannot call without a
// deprecation warning (the EC_KEY calls at the end), as static inline wrappers prefixed with the module name. Everything else is imported from the headers directly.
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/asn1.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/ecdsa.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

// OPENSSL_free is a macro (it passes __FILE__/__LINE__ to CRYPTO_free).
static inline void COpenSSL_free(void *ptr) { OPENSSL_free(ptr); }

// EVP_PKEY_PUBLIC_KEY / EVP_PKEY_KEYPAIR are composite macros Swift does not import reliably.
static inline int COpenSSL_selection_public_key(void) { return EVP_PKEY_PUBLIC_KEY; }

// STACK_OF(X509) helpers are type-casting macros over OPENSSL_sk_*; Swift cannot import them.
static inline STACK_OF(X509) *COpenSSL_sk_X509_new_null(void) { return sk_X509_new_null(); }
// sk_X509_push is a macro (see above); returns the new count, 0 on failure.
static inline int COpenSSL_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
// sk_X509_num is a macro (see above).
static inline int COpenSSL_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
// sk_X509_value is a macro (see above); the returned pointer is borrowed from the stack.
static inline X509 *COpenSSL_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
// sk_X509_free is a macro; frees the stack only (the X509s it borrowed stay owned by their owners).
static inline void COpenSSL_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }
// sk_X509_pop_free with X509_free is a macro; frees a stack that owns references (X509_STORE_CTX_get1_chain).
static inline void COpenSSL_sk_X509_pop_free(STACK_OF(X509) *sk) { sk_X509_pop_free(sk, X509_free); }

// ECDSA verification through the EC_KEY API. It is deprecated in OpenSSL 3.0 (still built and supported
// throughout 3.x), so Swift would warn at every call; these wrappers keep the deprecation contained here.
// Why not EVP: EVP_PKEY_verify runs the same ossl_ecdsa_verify_sig math, but building a provider key and
// fetching the signature method around it cost about an eighth of a P-256 verify again (docs/design-notes.md,
// Verification), for a key that lives for one request.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
// An EC_KEY on a copy of `group`, without a key yet (COpenSSL_ec_key_set_public_key gives it one). NULL
// when OpenSSL cannot allocate it.
static inline EC_KEY *COpenSSL_ec_key_new_on_group(const EC_GROUP *group) {
    EC_KEY *key = EC_KEY_new();
    if (key == NULL) return NULL;
    if (EC_KEY_set_group(key, group) != 1) {
        EC_KEY_free(key);
        return NULL;
    }
    return key;
}
// EC_KEY_set_public_key (deprecated, see above): replaces the key's public point with a copy of `point`
// (decoded and validated on the key's group). 1 on success.
static inline int COpenSSL_ec_key_set_public_key(EC_KEY *key, const EC_POINT *point) {
    return EC_KEY_set_public_key(key, point);
}
// EC_KEY_free (deprecated, see above).
static inline void COpenSSL_ec_key_free(EC_KEY *key) { EC_KEY_free(key); }
// ECDSA_do_verify (deprecated, see above): 1 valid, 0 invalid, -1 error.
static inline int COpenSSL_ecdsa_do_verify(const unsigned char *digest, int length, const ECDSA_SIG *signature, EC_KEY *key) {
    return ECDSA_do_verify(digest, length, signature, key);
}

#pragma clang diagnostic pop

#endif

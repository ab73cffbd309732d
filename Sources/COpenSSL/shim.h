#ifndef PASSKEYD_COPENSSL_SHIM_H
#define PASSKEYD_COPENSSL_SHIM_H
// Only what Swift cannot import from OpenSSL 3: macros and variadic functions, as static inline
// wrappers prefixed with the module name. Everything else is imported from the headers directly.
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

#endif

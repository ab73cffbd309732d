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

#endif

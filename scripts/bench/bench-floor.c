// The OpenSSL floor of one passkeyd authentication, for `make bench` (scripts/bench/bench.sh): the OpenSSL calls a
// P-256 assertion needs, made straight from C with nothing around them, so the benchmark can say how much
// passkeyd adds on top. Measurement tooling only; the server never runs this.
//
// Two figures, in microseconds per verification, over 2,000 distinct keys and signatures (as in the workload):
//   verify  ECDSA_do_verify alone, on keys built beforehand;
//   calls   what passkeyd's verifier runs per assertion: decode and validate the credential's point
//           (EC_POINT_oct2point), decode the DER signature and compare its re-encoding (d2i_ECDSA_SIG,
//           i2d_ECDSA_SIG), set the point on a reused EC_KEY, two SHA-256 through EVP_Digest (clientDataJSON and
//           the signed data; the RP ID's hash is computed once per configuration) and ECDSA_do_verify.
// Each figure is the median of five runs of about a second. Prints one JSON line.
//
// `bench-floor login`: the cryptographic floor of one passkey login instead (issue #35), the operations a login
// cannot avoid, each alone as `openssl speed ecdsap256 rsa2048` runs them (EVP_PKEY_sign / ECDSA_do_verify on a
// SHA-256 digest, a reused context, no hashing or encoding), in microseconds of this process's CPU time (the
// server's figure it is compared with is CPU time too), the median of five runs of about 0.3 s:
//   verify_us   one P-256 ECDSA verify (the assertion), over the 2,000 distinct keys;
//   es256_us    one P-256 ECDSA sign (an ES256 JWT: the access token, and the ID token of an ES256 client);
//   rs256_us    one RSA-2048 PKCS #1 v1.5 SHA-256 sign (the ID token of an RS256 client, the default).
#define OPENSSL_SUPPRESS_DEPRECATED  // the EC_KEY API passkeyd uses (see Sources/COpenSSL/shim.h)
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { KEYS = 2000, RUNS = 5 };

static unsigned char points[KEYS][65];
static unsigned char signatures[KEYS][80];
static int signatureLengths[KEYS];
static unsigned char digests[KEYS][32];
static unsigned char messages[KEYS][69];  // authenticatorData (37 bytes) || SHA-256(clientDataJSON)
static EC_KEY *keys[KEYS];
static ECDSA_SIG *decoded[KEYS];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void fail(const char *what) {
    fprintf(stderr, "bench-floor: %s failed\n", what);
    exit(1);
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// ECDSA_do_verify alone.
static void verifyOnly(void) {
    for (int i = 0; i < KEYS; i++)
        if (ECDSA_do_verify(digests[i], 32, decoded[i], keys[i]) != 1) fail("ECDSA_do_verify");
}

// The calls passkeyd makes per assertion.
static EC_GROUP *group;
static EC_KEY *reused;
static EVP_MD *sha256;
static void calls(void) {
    static const unsigned char clientData[176] = {0};
    for (int i = 0; i < KEYS; i++) {
        unsigned char scratch[32], digest[32];
        EC_POINT *point = EC_POINT_new(group);
        if (point == NULL || EC_POINT_oct2point(group, point, points[i], 65, NULL) != 1) fail("EC_POINT_oct2point");
        const unsigned char *cursor = signatures[i];
        ECDSA_SIG *signature = d2i_ECDSA_SIG(NULL, &cursor, signatureLengths[i]);
        unsigned char reencoded[80], *out = reencoded;
        if (signature == NULL || i2d_ECDSA_SIG(signature, &out) != signatureLengths[i]
            || memcmp(reencoded, signatures[i], signatureLengths[i]) != 0)
            fail("d2i_ECDSA_SIG");
        if (EC_KEY_set_public_key(reused, point) != 1) fail("EC_KEY_set_public_key");
        if (EVP_Digest(clientData, sizeof clientData, scratch, NULL, sha256, NULL) != 1) fail("EVP_Digest");
        if (EVP_Digest(messages[i], sizeof messages[i], digest, NULL, sha256, NULL) != 1) fail("EVP_Digest");
        if (ECDSA_do_verify(digest, 32, signature, reused) != 1) fail("ECDSA_do_verify (calls)");
        ECDSA_SIG_free(signature);
        EC_POINT_free(point);
    }
}

// This process's CPU time in seconds (the login floor's clock).
static double cpuNow(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// Median microseconds per operation over RUNS runs of about `seconds` each on `clock`; a pass makes `perPass`
// operations.
static double measureOn(void (*pass)(void), long perPass, double (*clock)(void), double seconds) {
    double perOperation[RUNS];
    pass();  // warm up
    for (int run = 0; run < RUNS; run++) {
        double start = clock(), elapsed;
        long count = 0;
        do {
            pass();
            count += perPass;
        } while ((elapsed = clock() - start) < seconds);
        perOperation[run] = elapsed / (double)count * 1e6;
    }
    qsort(perOperation, RUNS, sizeof perOperation[0], compare);
    return perOperation[RUNS / 2];
}

// Median microseconds per verification over RUNS runs of about a second each (wall clock).
static double measure(void (*pass)(void)) { return measureOn(pass, KEYS, now, 1.0); }

// The login floor's signatures: one signing key of each kind (as the server's active key), a reused context each.
enum { SIGNS = 50 };
static EVP_PKEY_CTX *es256, *rs256;
static unsigned char signature[512];

static void signWith(EVP_PKEY_CTX *context) {
    for (int i = 0; i < SIGNS; i++) {
        size_t length = sizeof signature;
        if (EVP_PKEY_sign(context, signature, &length, digests[i % KEYS], 32) != 1) fail("EVP_PKEY_sign");
    }
}
static void signES256(void) { signWith(es256); }
static void signRS256(void) { signWith(rs256); }

// A signing context for `key`: SHA-256, and PKCS #1 v1.5 padding for RSA.
static EVP_PKEY_CTX *signingContext(EVP_PKEY *key, int rsa) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new(key, NULL);
    if (context == NULL || EVP_PKEY_sign_init(context) != 1 || EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) != 1)
        fail("EVP_PKEY_sign_init");
    if (rsa && EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) != 1) fail("EVP_PKEY_CTX_set_rsa_padding");
    return context;
}

static int loginFloor(void) {
    EVP_PKEY *ecKey = EVP_EC_gen("P-256"), *rsaKey = EVP_RSA_gen(2048);
    if (ecKey == NULL || rsaKey == NULL) fail("key generation");
    es256 = signingContext(ecKey, 0);
    rs256 = signingContext(rsaKey, 1);
    double verify = measureOn(verifyOnly, KEYS, cpuNow, 0.3);
    double es = measureOn(signES256, SIGNS, cpuNow, 0.3);
    double rs = measureOn(signRS256, SIGNS, cpuNow, 0.3);
    printf("{\"verify_us\":%.2f,\"es256_us\":%.2f,\"rs256_us\":%.2f,\"floor_rs256_us\":%.2f,\"floor_es256_us\":%.2f}\n",
        verify, es, rs, verify + es + rs, verify + es + es);
    return 0;
}

int main(int argc, char **argv) {
    group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    reused = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
    sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (group == NULL || reused == NULL || sha256 == NULL) fail("setup");
    for (int i = 0; i < KEYS; i++) {
        keys[i] = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
        if (keys[i] == NULL || EC_KEY_generate_key(keys[i]) != 1) fail("EC_KEY_generate_key");
        if (EC_POINT_point2oct(group, EC_KEY_get0_public_key(keys[i]), POINT_CONVERSION_UNCOMPRESSED, points[i], 65,
                NULL) != 65)
            fail("EC_POINT_point2oct");
        if (RAND_bytes(messages[i], sizeof messages[i]) != 1) fail("RAND_bytes");
        SHA256(messages[i], sizeof messages[i], digests[i]);
        decoded[i] = ECDSA_do_sign(digests[i], 32, keys[i]);
        if (decoded[i] == NULL) fail("ECDSA_do_sign");
        unsigned char *out = signatures[i];
        signatureLengths[i] = i2d_ECDSA_SIG(decoded[i], &out);
        if (signatureLengths[i] <= 0) fail("i2d_ECDSA_SIG");
    }
    if (argc > 1 && strcmp(argv[1], "login") == 0) return loginFloor();
    double verify = measure(verifyOnly);
    double all = measure(calls);
    printf("{\"verify_us\":%.2f,\"calls_us\":%.2f,\"keys\":%d}\n", verify, all, KEYS);
    return 0;
}

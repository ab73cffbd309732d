// login-floor-server: issue #35's system floor. A login server in C that does what a passkeyd login cannot avoid
// with the same C libraries, and nothing else, so that `make bench`'s load generator can measure what those
// libraries, the kernel and the durable write cost per login when no Swift, no JSON parser, no routing, no metrics
// and no logging sit on top (scripts/bench/bench.sh builds and runs it; docs/benchmarks.md reports it).
//
// Benchmark tooling only: it trusts its input's shape (members are found by name, values are taken between quotes,
// no escapes), checks only what the cryptography and the database need, and has no error handling beyond refusing a
// login. Never a server to deploy.
//
// Per login, as passkeyd does it:
// - POST /passkey/challenge: 32 random bytes of challenge and 16 of session id, sealed with AES-256-GCM (a context
//   keyed once per thread) into an opaque auth_session; nothing stored.
// - POST /oauth/token (webauthn grant): the session opened; clientDataJSON's type, challenge and origin; the
//   authenticator data's RP ID hash, UP/UV flags and counter; the credential and its user read in one joined SELECT
//   on a reader connection of the polling thread's own (passkeyd's login read); the COSE key decoded with libcbor;
//   SHA-256 of clientDataJSON and ECDSA P-256 verify; a random refresh token and its SHA-256; an access token (ES256)
//   and an ID token (ES256 or RS256) signed as JWTs; then the connection is suspended and the login's write goes to
//   one writer thread that commits batches (group commit): passkeyd's six statements of the login write in a
//   SAVEPOINT each (spend the session, compare-and-set the counter, unlock device keys, lift the login's locks, the
//   refresh token, the security event), one COMMIT with synchronous=FULL per batch, then the connections resume.
// - libmicrohttpd with passkeyd's daemon flags (internal polling threads, poll(2), suspend/resume), 2 threads.
//
// Build: cc -O2 -o login-floor-server login-floor-server.c -lmicrohttpd -lcrypto -lsqlite3 -lcbor -lpthread
// Run:   login-floor-server PORT DATABASE [ES256_CLIENT [RP_ID [ORIGIN]]]
//        DATABASE is a passkeyd SQLite database with its users signed up (the schema and rows are passkeyd's). ID
//        tokens are RS256 (OIDC's default), ES256 for the client ES256_CLIENT (default bench-es256), as the
//        benchmark configuration's two clients sign them; access tokens ES256, as that configuration pins them.
#define _GNU_SOURCE
#define OPENSSL_SUPPRESS_DEPRECATED
#include <cbor.h>
#include <microhttpd.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static const char *database_path;
static const char *rp_id = "localhost";
static const char *origin = "https://localhost";
static const char *es256_client = "bench-es256";
static unsigned char rp_id_hash[32];
static unsigned char seal_key[32];
static EVP_PKEY *access_key, *rsa_key;
static EC_GROUP *p256;
static const char *issuer = "http://127.0.0.1/";

// MARK: base64url (no padding)

static const char b64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
static signed char b64_values[256];

static size_t b64url_encode(const unsigned char *in, size_t length, char *out) {
    size_t o = 0, i = 0;
    for (; i + 2 < length; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = b64_alphabet[v >> 18];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = b64_alphabet[(v >> 6) & 63];
        out[o++] = b64_alphabet[v & 63];
    }
    if (length - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = b64_alphabet[v >> 18];
        out[o++] = b64_alphabet[(v >> 12) & 63];
    } else if (length - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = b64_alphabet[v >> 18];
        out[o++] = b64_alphabet[(v >> 12) & 63];
        out[o++] = b64_alphabet[(v >> 6) & 63];
    }
    out[o] = 0;
    return o;
}

// Returns the decoded length, or -1 for a character outside the alphabet.
static long b64url_decode(const char *in, size_t length, unsigned char *out) {
    size_t o = 0;
    uint32_t v = 0;
    int bits = 0;
    for (size_t i = 0; i < length; i++) {
        signed char d = b64_values[(unsigned char)in[i]];
        if (d < 0) return -1;
        v = v << 6 | (uint32_t)d;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(v >> bits);
        }
    }
    return (long)o;
}

// MARK: the request's members (by name; values between quotes, as the load generator writes them)

static int member(const char *body, size_t length, const char *name, const char **value, size_t *value_length) {
    char key[64];
    int n = snprintf(key, sizeof key, "\"%s\":\"", name);
    const char *found = memmem(body, length, key, (size_t)n);
    if (!found) return 0;
    const char *start = found + n;
    const char *end = memchr(start, '"', (size_t)(body + length - start));
    if (!end) return 0;
    *value = start;
    *value_length = (size_t)(end - start);
    return 1;
}

// MARK: per-thread state: the sealing contexts and the reader connection

struct thread_state {
    EVP_CIPHER_CTX *seal, *open;
    sqlite3 *reader;
    sqlite3_stmt *login_read;
};
static __thread struct thread_state *state;

static struct thread_state *thread_state(void) {
    if (state) return state;
    state = calloc(1, sizeof *state);
    state->seal = EVP_CIPHER_CTX_new();
    EVP_EncryptInit_ex(state->seal, EVP_aes_256_gcm(), NULL, seal_key, NULL);
    state->open = EVP_CIPHER_CTX_new();
    EVP_DecryptInit_ex(state->open, EVP_aes_256_gcm(), NULL, seal_key, NULL);
    if (sqlite3_open_v2(database_path, &state->reader, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) abort();
    sqlite3_exec(state->reader, "PRAGMA cache_size = -32768", NULL, NULL, NULL);
    const char *sql = "SELECT c.public_key, c.sign_count, c.user_id, u.user_handle, u.email FROM credentials c "
                      "LEFT JOIN users u ON u.id = c.user_id WHERE c.credential_id = ?";
    if (sqlite3_prepare_v3(state->reader, sql, -1, SQLITE_PREPARE_PERSISTENT, &state->login_read, NULL) != SQLITE_OK)
        abort();
    return state;
}

// MARK: the sealed auth session: nonce(12) || AES-256-GCM(id(16) || challenge(32) || expiry(8)) || tag(16)

enum { SESSION_PLAIN = 56, SESSION_SEALED = 12 + SESSION_PLAIN + 16 };

static void seal_session(const unsigned char *plain, unsigned char *sealed) {
    struct thread_state *s = thread_state();
    int n;
    RAND_bytes(sealed, 12);
    EVP_EncryptInit_ex(s->seal, NULL, NULL, NULL, sealed);
    EVP_EncryptUpdate(s->seal, sealed + 12, &n, plain, SESSION_PLAIN);
    EVP_EncryptFinal_ex(s->seal, sealed + 12 + n, &n);
    EVP_CIPHER_CTX_ctrl(s->seal, EVP_CTRL_GCM_GET_TAG, 16, sealed + 12 + SESSION_PLAIN);
}

static int open_session(const unsigned char *sealed, unsigned char *plain) {
    struct thread_state *s = thread_state();
    int n;
    EVP_DecryptInit_ex(s->open, NULL, NULL, NULL, sealed);
    EVP_DecryptUpdate(s->open, plain, &n, sealed + 12, SESSION_PLAIN);
    EVP_CIPHER_CTX_ctrl(s->open, EVP_CTRL_GCM_SET_TAG, 16, (void *)(sealed + 12 + SESSION_PLAIN));
    return EVP_DecryptFinal_ex(s->open, plain + n, &n) == 1;
}

// MARK: JWTs

// Appends base64url(header).base64url(payload).base64url(signature) to out; returns its length.
static size_t sign_jwt(EVP_PKEY *key, int rsa, const char *header, const char *payload, char *out) {
    size_t o = b64url_encode((const unsigned char *)header, strlen(header), out);
    out[o++] = '.';
    o += b64url_encode((const unsigned char *)payload, strlen(payload), out + o);
    unsigned char digest[32];
    SHA256((const unsigned char *)out, o, digest);
    unsigned char signature[512];
    size_t signature_length = 0;
    // A signing context per thread and key, initialised once and reused (tighter than passkeyd's fresh one per
    // signature, which costs no more within this host's noise: docs/benchmarks.md).
    static __thread EVP_PKEY_CTX *contexts[2];  // [0]: access_key (every ES256 token), [1]: rsa_key
    EVP_PKEY_CTX *ctx = contexts[rsa];
    if (!ctx) {
        ctx = contexts[rsa] = EVP_PKEY_CTX_new(key, NULL);
        EVP_PKEY_sign_init(ctx);
        if (rsa) EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING);
        EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256());
    }
    signature_length = sizeof signature;
    if (EVP_PKEY_sign(ctx, signature, &signature_length, digest, 32) != 1) abort();
    if (!rsa) {  // JWS (RFC 7518 §3.4): r || s, not DER
        const unsigned char *der = signature;
        ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &der, (long)signature_length);
        const BIGNUM *r, *s;
        ECDSA_SIG_get0(sig, &r, &s);
        BN_bn2binpad(r, signature, 32);
        BN_bn2binpad(s, signature + 32, 32);
        ECDSA_SIG_free(sig);
        signature_length = 64;
    }
    out[o++] = '.';
    o += b64url_encode(signature, signature_length, out + o);
    return o;
}

// MARK: the login write, on the writer thread

struct login_job {
    struct MHD_Connection *connection;
    struct login_job *next;
    int done, ok;
    char session_id[33];
    double session_expires_at, now;
    unsigned char credential_id[128];
    int credential_id_length;
    int64_t old_count, new_count;
    char user_id[80], client_id[80];
    unsigned char refresh_hash[32];
    char family_id[33], request_id[33];
    char *response;
    size_t response_length;
};

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_ready = PTHREAD_COND_INITIALIZER;
static struct login_job *queue_head, *queue_tail;

enum { SPEND, COUNTER, UNLOCK, LIFT, REFRESH, EVENT, BEGIN, COMMIT, SAVEPOINT, RELEASE, ROLLBACK_TO, STATEMENTS };
static const char *writer_sql[STATEMENTS] = {
    [SPEND] = "INSERT INTO spent_auth_sessions (id, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
    [COUNTER] = "UPDATE credentials SET sign_count = ?, backed_up = 0, last_used_at = ? WHERE credential_id = ? AND "
                "sign_count = ?",
    [UNLOCK] = "UPDATE device_keys SET status = 'active', failed_attempts = 0, locked_at = NULL WHERE user_id = ? AND "
               "status = 'locked'",
    [LIFT] = "DELETE FROM fallback_counters WHERE counter_key IN ("
             "SELECT 'biometric:' || key_id FROM device_keys WHERE user_id = ?1 UNION ALL "
             "SELECT 'srp_identity:' || length(CAST(realm AS BLOB)) || ':' || realm || ':' || identity "
             "FROM password_verifiers WHERE user_id = ?1 UNION ALL "
             "SELECT 'recovery_identity:' || length(CAST(realm AS BLOB)) || ':' || realm || ':' || email "
             "FROM users WHERE id = ?1 AND email IS NOT NULL UNION ALL "
             "SELECT 'recovery_identity:' || length(CAST(realm AS BLOB)) || ':' || realm || ':' || phone_number "
             "FROM users WHERE id = ?1 AND phone_number IS NOT NULL UNION ALL "
             "SELECT 'recovery_identity:' || length(CAST(realm AS BLOB)) || ':' || realm || ':' || username "
             "FROM users WHERE id = ?1 AND username IS NOT NULL)",
    [REFRESH] = "INSERT INTO refresh_tokens (token_hash, family_id, client_id, user_id, scope, auth_time, created_at, "
                "absolute_expires_at, idle_expires_at, rotated_at, revoked_at, dpop_jkt, audience, amr, "
                "successor_hash, organization_id) VALUES (?1, ?2, ?8, ?3, 'openid profile email offline_access', "
                "?4, ?5, ?6, ?7, NULL, NULL, NULL, NULL, '[\"pop\",\"hwk\",\"user\"]', NULL, NULL) "
                "ON CONFLICT DO NOTHING",
    [EVENT] = "INSERT INTO security_events (occurred_at, device_time, kind, user_id, key_id, device_id, client_id, "
              "action_hash, outcome, reason_code, attempts, detail, credential_id, family_id, request_id, "
              "client_address, node_id) VALUES (?1, NULL, 'login', ?2, NULL, NULL, ?7, NULL, 'success', NULL, NULL, "
              "?3, ?4, ?5, ?6, '127.0.0.1', 'floor') RETURNING seq",
    [BEGIN] = "BEGIN IMMEDIATE",
    [COMMIT] = "COMMIT",
    [SAVEPOINT] = "SAVEPOINT login",
    [RELEASE] = "RELEASE login",
    [ROLLBACK_TO] = "ROLLBACK TO login",
};
static sqlite3_stmt *writer_statements[STATEMENTS];

static int step(sqlite3_stmt *statement) {
    int rc;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
    }
    sqlite3_reset(statement);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int run_login_write(sqlite3 *db, struct login_job *job) {
    sqlite3_stmt **s = writer_statements;
    sqlite3_bind_text(s[SPEND], 1, job->session_id, -1, SQLITE_STATIC);
    sqlite3_bind_double(s[SPEND], 2, job->session_expires_at);
    if (step(s[SPEND]) != SQLITE_OK || sqlite3_changes(db) != 1) return 0;
    sqlite3_bind_int64(s[COUNTER], 1, job->new_count);
    sqlite3_bind_double(s[COUNTER], 2, job->now);
    sqlite3_bind_blob(s[COUNTER], 3, job->credential_id, job->credential_id_length, SQLITE_STATIC);
    sqlite3_bind_int64(s[COUNTER], 4, job->old_count);
    if (step(s[COUNTER]) != SQLITE_OK || sqlite3_changes(db) != 1) return 0;
    sqlite3_bind_text(s[UNLOCK], 1, job->user_id, -1, SQLITE_STATIC);
    if (step(s[UNLOCK]) != SQLITE_OK) return 0;
    sqlite3_bind_text(s[LIFT], 1, job->user_id, -1, SQLITE_STATIC);
    if (step(s[LIFT]) != SQLITE_OK) return 0;
    sqlite3_bind_blob(s[REFRESH], 1, job->refresh_hash, 32, SQLITE_STATIC);
    sqlite3_bind_text(s[REFRESH], 2, job->family_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s[REFRESH], 3, job->user_id, -1, SQLITE_STATIC);
    sqlite3_bind_double(s[REFRESH], 4, job->now);
    sqlite3_bind_double(s[REFRESH], 5, job->now);
    sqlite3_bind_double(s[REFRESH], 6, job->now + 2592000);
    sqlite3_bind_double(s[REFRESH], 7, job->now + 1209600);
    sqlite3_bind_text(s[REFRESH], 8, job->client_id, -1, SQLITE_STATIC);
    if (step(s[REFRESH]) != SQLITE_OK || sqlite3_changes(db) != 1) return 0;
    static const char detail[] = "{\"amr\":[\"pop\",\"hwk\",\"user\"],\"user_verified\":true}";
    sqlite3_bind_double(s[EVENT], 1, job->now);
    sqlite3_bind_text(s[EVENT], 2, job->user_id, -1, SQLITE_STATIC);
    sqlite3_bind_blob(s[EVENT], 3, detail, sizeof detail - 1, SQLITE_STATIC);
    sqlite3_bind_blob(s[EVENT], 4, job->credential_id, job->credential_id_length, SQLITE_STATIC);
    sqlite3_bind_text(s[EVENT], 5, job->family_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s[EVENT], 6, job->request_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s[EVENT], 7, job->client_id, -1, SQLITE_STATIC);
    return step(s[EVENT]) == SQLITE_OK;
}

static void *writer(void *unused) {
    (void)unused;
    sqlite3 *db;
    if (sqlite3_open(database_path, &db) != SQLITE_OK) abort();
    sqlite3_exec(db,
                 "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; "
                 "PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY",
                 NULL, NULL, NULL);
    sqlite3_busy_timeout(db, 5000);
    for (int i = 0; i < STATEMENTS; i++)
        if (sqlite3_prepare_v3(db, writer_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &writer_statements[i], NULL) !=
            SQLITE_OK) {
            fprintf(stderr, "prepare %d: %s\n", i, sqlite3_errmsg(db));
            abort();
        }
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        while (!queue_head) pthread_cond_wait(&queue_ready, &queue_lock);
        struct login_job *batch = queue_head;
        queue_head = queue_tail = NULL;
        pthread_mutex_unlock(&queue_lock);
        step(writer_statements[BEGIN]);
        for (struct login_job *job = batch; job; job = job->next) {
            step(writer_statements[SAVEPOINT]);
            job->ok = run_login_write(db, job);
            if (!job->ok) step(writer_statements[ROLLBACK_TO]);
            step(writer_statements[RELEASE]);
        }
        if (step(writer_statements[COMMIT]) != SQLITE_OK) {
            fprintf(stderr, "commit: %s\n", sqlite3_errmsg(db));
            abort();
        }
        for (struct login_job *job = batch, *next; job; job = next) {
            next = job->next;
            __atomic_store_n(&job->done, 1, __ATOMIC_RELEASE);
            MHD_resume_connection(job->connection);
        }
    }
    return NULL;
}

// MARK: requests

struct request {
    char *body;
    size_t length, capacity;
    struct login_job *job;
};

static double now_seconds(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6 - 978307200.0;  // the reference date passkeyd stores (2001)
}

static void hex(const unsigned char *in, size_t length, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < length; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * length] = 0;
}

static enum MHD_Result answer(struct MHD_Connection *connection, unsigned status, char *body, size_t length) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, body, MHD_RESPMEM_MUST_FREE);
    MHD_add_response_header(response, "Content-Type", "application/json");
    MHD_add_response_header(response, "Cache-Control", "no-store");
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result refuse(struct MHD_Connection *connection, const char *why) {
    char *body;
    int n = asprintf(&body, "{\"error\":\"invalid_grant\",\"error_description\":\"%s\"}", why);
    return answer(connection, 400, body, (size_t)n);
}

static enum MHD_Result challenge(struct MHD_Connection *connection, struct request *request) {
    const char *client;
    size_t client_length;
    if (!member(request->body, request->length, "client_id", &client, &client_length))
        return refuse(connection, "client_id");
    unsigned char plain[SESSION_PLAIN], sealed[SESSION_SEALED];
    RAND_bytes(plain, 48);
    double expires = now_seconds() + 90;
    memcpy(plain + 48, &expires, 8);
    seal_session(plain, sealed);
    char challenge_text[48], session_text[SESSION_SEALED * 2];
    b64url_encode(plain + 16, 32, challenge_text);
    b64url_encode(sealed, SESSION_SEALED, session_text);
    char *body;
    int n = asprintf(&body,
                     "{\"authn_params_public_key\":{\"challenge\":\"%s\",\"timeout\":60000,\"rpId\":\"%s\","
                     "\"userVerification\":\"required\"},\"auth_session\":\"%s\"}",
                     challenge_text, rp_id, session_text);
    return answer(connection, 200, body, (size_t)n);
}

// The COSE EC2 key (RFC 9053 §7.1.1) of a credential as an EC_KEY (the thread's own, not to be freed): kty 2,
// crv 1 (P-256), x (-2), y (-3).
static EC_KEY *cose_key(const unsigned char *bytes, size_t length) {
    struct cbor_load_result result;
    cbor_item_t *map = cbor_load(bytes, length, &result);
    if (!map) return NULL;
    EC_KEY *key = NULL;
    const unsigned char *x = NULL, *y = NULL;
    if (cbor_isa_map(map)) {
        struct cbor_pair *pairs = cbor_map_handle(map);
        for (size_t i = 0; i < cbor_map_size(map); i++) {
            if (!cbor_isa_negint(pairs[i].key) || !cbor_isa_bytestring(pairs[i].value)) continue;
            uint64_t label = cbor_get_int(pairs[i].key);
            if (cbor_bytestring_length(pairs[i].value) != 32) continue;
            if (label == 1) x = cbor_bytestring_handle(pairs[i].value);
            if (label == 2) y = cbor_bytestring_handle(pairs[i].value);
        }
    }
    if (x && y) {  // SEC 1 §2.3.4 through EC_POINT_oct2point (on the curve), set on the thread's reused EC_KEY
        static __thread EC_KEY *reused;
        static __thread EC_POINT *point;
        if (!reused) {
            reused = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
            point = EC_POINT_new(p256);
        }
        unsigned char octets[65] = {4};
        memcpy(octets + 1, x, 32);
        memcpy(octets + 33, y, 32);
        if (EC_POINT_oct2point(p256, point, octets, 65, NULL) == 1 && EC_KEY_set_public_key(reused, point) == 1)
            key = reused;
    }
    cbor_decref(&map);
    return key;
}

static enum MHD_Result token(struct MHD_Connection *connection, struct request *request) {
    const char *body = request->body, *v;
    size_t length = request->length, n;
    const char *client;
    size_t client_length;
    if (!member(body, length, "client_id", &client, &client_length) || client_length >= 80)
        return refuse(connection, "client_id");
    // The sealed session.
    unsigned char sealed[SESSION_SEALED + 3], plain[SESSION_PLAIN];
    if (!member(body, length, "auth_session", &v, &n) || b64url_decode(v, n, sealed) != SESSION_SEALED ||
        !open_session(sealed, plain))
        return refuse(connection, "auth_session");
    double expires, now = now_seconds();
    memcpy(&expires, plain + 48, 8);
    if (now >= expires) return refuse(connection, "expired");
    // clientDataJSON (WebAuthn L3 §7.2 steps 10-13).
    static __thread unsigned char client_data[4096], authenticator_data[1024], signature[256], user_handle[128];
    long client_data_length, authenticator_data_length, signature_length, user_handle_length, credential_length;
    if (!member(body, length, "clientDataJSON", &v, &n) || n > 5000 ||
        (client_data_length = b64url_decode(v, n, client_data)) < 0)
        return refuse(connection, "clientDataJSON");
    char expected[96];
    char challenge_text[48];
    b64url_encode(plain + 16, 32, challenge_text);
    const char *cd = (const char *)client_data;
    int m = snprintf(expected, sizeof expected, "\"challenge\":\"%s\"", challenge_text);
    if (!memmem(cd, (size_t)client_data_length, "\"type\":\"webauthn.get\"", 21) ||
        !memmem(cd, (size_t)client_data_length, expected, (size_t)m))
        return refuse(connection, "challenge");
    m = snprintf(expected, sizeof expected, "\"origin\":\"%s\"", origin);
    if (!memmem(cd, (size_t)client_data_length, expected, (size_t)m)) return refuse(connection, "origin");
    // Authenticator data (steps 15-17, 22).
    if (!member(body, length, "authenticatorData", &v, &n) || n > 1300 ||
        (authenticator_data_length = b64url_decode(v, n, authenticator_data)) < 37)
        return refuse(connection, "authenticatorData");
    if (CRYPTO_memcmp(authenticator_data, rp_id_hash, 32) != 0) return refuse(connection, "rp_id");
    if ((authenticator_data[32] & 0x05) != 0x05) return refuse(connection, "flags");
    int64_t count = (int64_t)authenticator_data[33] << 24 | authenticator_data[34] << 16 |
                    authenticator_data[35] << 8 | authenticator_data[36];
    // The credential and its user (one joined read).
    unsigned char credential_id[128];
    if (!member(body, length, "rawId", &v, &n) || n > 160 || (credential_length = b64url_decode(v, n, credential_id)) < 1)
        return refuse(connection, "rawId");
    if (!member(body, length, "signature", &v, &n) || n > 300 || (signature_length = b64url_decode(v, n, signature)) < 8)
        return refuse(connection, "signature");
    if (!member(body, length, "userHandle", &v, &n) || n > 160 ||
        (user_handle_length = b64url_decode(v, n, user_handle)) < 1)
        return refuse(connection, "userHandle");
    struct thread_state *s = thread_state();
    sqlite3_stmt *read = s->login_read;
    sqlite3_bind_blob(read, 1, credential_id, (int)credential_length, SQLITE_STATIC);
    if (sqlite3_step(read) != SQLITE_ROW) {
        sqlite3_reset(read);
        return refuse(connection, "credential");
    }
    EC_KEY *key = cose_key(sqlite3_column_blob(read, 0), (size_t)sqlite3_column_bytes(read, 0));
    int64_t stored_count = sqlite3_column_int64(read, 1);
    struct login_job *job = calloc(1, sizeof *job);
    memcpy(job->client_id, client, client_length);
    int rs256 = strcmp(job->client_id, es256_client) != 0;
    snprintf(job->user_id, sizeof job->user_id, "%s", (const char *)sqlite3_column_text(read, 2));
    int handle_matches = sqlite3_column_bytes(read, 3) == user_handle_length &&
                         memcmp(sqlite3_column_blob(read, 3), user_handle, (size_t)user_handle_length) == 0;
    char email[128] = "";
    if (sqlite3_column_type(read, 4) == SQLITE_TEXT)
        snprintf(email, sizeof email, "%s", (const char *)sqlite3_column_text(read, 4));
    sqlite3_reset(read);
    if (!key || !handle_matches || (count != 0 && count <= stored_count)) {
        free(job);
        return refuse(connection, "credential");
    }
    // The signature over authenticatorData || SHA-256(clientDataJSON) (step 20).
    unsigned char signed_data[1024 + 32], digest[32];
    memcpy(signed_data, authenticator_data, (size_t)authenticator_data_length);
    SHA256(client_data, (size_t)client_data_length, signed_data + authenticator_data_length);
    SHA256(signed_data, (size_t)authenticator_data_length + 32, digest);
    const unsigned char *p = signature;
    ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, signature_length);
    int valid = sig && p == signature + signature_length && ECDSA_do_verify(digest, 32, sig, key) == 1;
    ECDSA_SIG_free(sig);
    if (!valid) {
        free(job);
        return refuse(connection, "signature");
    }
    // Tokens: a random refresh token (stored hashed), an access token and an ID token.
    unsigned char random[32 + 16 + 16 + 16];
    RAND_bytes(random, sizeof random);
    char refresh[48], jti[24], at_hash_text[24];
    b64url_encode(random, 32, refresh);
    SHA256((const unsigned char *)refresh, strlen(refresh), job->refresh_hash);
    hex(random + 32, 16, job->family_id);
    hex(random + 48, 16, job->request_id);
    b64url_encode(random + 64, 16, jti);
    long iat = (long)time(NULL);
    char header[128], payload[1024], access[1536], id_token[2048];
    snprintf(header, sizeof header, "{\"alg\":\"ES256\",\"kid\":\"access-key\",\"typ\":\"at+jwt\"}");
    snprintf(payload, sizeof payload,
             "{\"iss\":\"%s\",\"sub\":\"%s\",\"aud\":\"%suserinfo\",\"iat\":%ld,\"exp\":%ld,\"auth_time\":%ld,"
             "\"scope\":\"openid profile email offline_access\",\"client_id\":\"%s\",\"jti\":\"%s\","
             "\"amr\":[\"pop\",\"hwk\",\"user\"]}",
             issuer, job->user_id, issuer, iat, iat + 3600, iat, job->client_id, jti);
    size_t access_length = sign_jwt(access_key, 0, header, payload, access);
    unsigned char at_digest[32];
    SHA256((const unsigned char *)access, access_length, at_digest);
    b64url_encode(at_digest, 16, at_hash_text);
    snprintf(header, sizeof header, "{\"alg\":\"%s\",\"kid\":\"id-key\",\"typ\":\"JWT\"}",
             rs256 ? "RS256" : "ES256");
    snprintf(payload, sizeof payload,
             "{\"iss\":\"%s\",\"sub\":\"%s\",\"aud\":\"%s\",\"iat\":%ld,\"exp\":%ld,\"auth_time\":%ld,"
             "\"amr\":[\"pop\",\"hwk\",\"user\"],\"at_hash\":\"%s\",\"email\":\"%s\",\"email_verified\":false}",
             issuer, job->user_id, job->client_id, iat, iat + 3600, iat, at_hash_text, email);
    sign_jwt(rs256 ? rsa_key : access_key, rs256, header, payload, id_token);
    job->response_length = (size_t)asprintf(
        &job->response,
        "{\"access_token\":\"%s\",\"id_token\":\"%s\",\"refresh_token\":\"%s\",\"token_type\":\"Bearer\","
        "\"expires_in\":3600,\"scope\":\"openid profile email offline_access\"}",
        access, id_token, refresh);
    // The write, through the writer's group commit.
    job->connection = connection;
    hex(plain, 16, job->session_id);
    job->session_expires_at = expires;
    job->now = now;
    memcpy(job->credential_id, credential_id, (size_t)credential_length);
    job->credential_id_length = (int)credential_length;
    job->old_count = stored_count;
    job->new_count = count;
    request->job = job;
    MHD_suspend_connection(connection);
    pthread_mutex_lock(&queue_lock);
    if (queue_tail) queue_tail->next = job;
    else queue_head = job;
    queue_tail = job;
    pthread_cond_signal(&queue_ready);
    pthread_mutex_unlock(&queue_lock);
    return MHD_YES;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                               const char *version, const char *upload_data, size_t *upload_data_size,
                               void **con_cls) {
    (void)cls, (void)version;
    struct request *request = *con_cls;
    if (!request) {
        *con_cls = request = calloc(1, sizeof *request);
        return MHD_YES;
    }
    if (request->job) {  // resumed after the write
        struct login_job *job = request->job;
        if (!__atomic_load_n(&job->done, __ATOMIC_ACQUIRE)) return MHD_YES;
        if (job->ok) {
            answer(connection, 200, job->response, job->response_length);
            job->response = NULL;
        } else {
            refuse(connection, "write");
        }
        return MHD_YES;
    }
    if (*upload_data_size) {
        if (request->length + *upload_data_size > 65536) return MHD_NO;
        if (request->length + *upload_data_size > request->capacity) {
            request->capacity = (request->length + *upload_data_size) * 2;
            request->body = realloc(request->body, request->capacity);
        }
        memcpy(request->body + request->length, upload_data, *upload_data_size);
        request->length += *upload_data_size;
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (strcmp(url, "/readyz") == 0) return answer(connection, 200, strdup("{}"), 2);
    if (strcmp(method, "POST") != 0) return refuse(connection, "method");
    if (strcmp(url, "/passkey/challenge") == 0) return challenge(connection, request);
    if (strcmp(url, "/oauth/token") == 0) return token(connection, request);
    return refuse(connection, "path");
}

static void completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                      enum MHD_RequestTerminationCode code) {
    (void)cls, (void)connection, (void)code;
    struct request *request = *con_cls;
    if (!request) return;
    if (request->job) {
        free(request->job->response);
        free(request->job);
    }
    free(request->body);
    free(request);
    *con_cls = NULL;
}

static EVP_PKEY *generate(int rsa) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(rsa ? EVP_PKEY_RSA : EVP_PKEY_EC, NULL);
    EVP_PKEY *key = NULL;
    EVP_PKEY_keygen_init(ctx);
    if (rsa) EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, 2048);
    else EVP_PKEY_CTX_set_ec_paramgen_curve_nid(ctx, NID_X9_62_prime256v1);
    EVP_PKEY_keygen(ctx, &key);
    EVP_PKEY_CTX_free(ctx);
    return key;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s PORT DATABASE [ES256_CLIENT [RP_ID [ORIGIN]]]\n", argv[0]);
        return 2;
    }
    unsigned port = (unsigned)atoi(argv[1]);
    database_path = argv[2];
    if (argc > 3) es256_client = argv[3];
    if (argc > 4) rp_id = argv[4];
    if (argc > 5) origin = argv[5];
    char *iss;
    if (asprintf(&iss, "http://127.0.0.1:%u/", port) > 0) issuer = iss;
    memset(b64_values, -1, sizeof b64_values);
    for (int i = 0; i < 64; i++) b64_values[(unsigned char)b64_alphabet[i]] = (signed char)i;
    SHA256((const unsigned char *)rp_id, strlen(rp_id), rp_id_hash);
    RAND_bytes(seal_key, sizeof seal_key);
    p256 = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    access_key = generate(0);
    rsa_key = generate(1);
    signal(SIGPIPE, SIG_IGN);
    pthread_t writer_thread;
    pthread_create(&writer_thread, NULL, writer, NULL);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_ALLOW_SUSPEND_RESUME, (uint16_t)port, NULL, NULL,
        handler, NULL, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL, MHD_OPTION_THREAD_POOL_SIZE, 2,
        MHD_OPTION_CONNECTION_LIMIT, 4096, MHD_OPTION_CONNECTION_TIMEOUT, 30, MHD_OPTION_END);
    if (!daemon) {
        fprintf(stderr, "cannot listen on %u\n", port);
        return 1;
    }
    for (;;) pause();
}

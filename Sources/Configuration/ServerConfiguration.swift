import Crypto
import Foundation
import Storage

/// Everything passkeyd needs to start, validated. Built by `ConfigurationLoader` from
/// `Config/passkeyd.json`, `PASSKEYD_…` environment variables and command-line flags, in that order. Each setting's
/// key, default and range are declared once, in the settings table (`Settings`); the defaults below name it.
public struct ServerConfiguration: Sendable, Equatable {
    /// Where the HTTP listener binds.
    public struct Listen: Sendable, Equatable {
        public var host: String
        public var port: Int
    }

    /// The WebAuthn relying party (WebAuthn L3 §5.4.2 `PublicKeyCredentialRpEntity`).
    public struct RelyingParty: Sendable, Equatable {
        /// The RP ID: a registrable domain suffix of the origins' hosts (WebAuthn L3 §5.1.2 / §6.1).
        public var id: String
        public var name: String
    }

    /// SQLite's `synchronous` pragma, the durability trade-off of the embedded database: the driver's own value
    /// (`Storage.SQLiteSynchronous`), passed to it as read.
    public typealias Synchronous = SQLiteSynchronous

    /// A database driver's check of a `database.url` of its kind: the reason it is refused, or nil.
    public typealias DatabaseURLCheck = @Sendable (String) -> String?

    /// Which database the server uses.
    public struct Database: Sendable, Equatable {
        /// `sqlite:FILE` (relative to the data directory unless absolute), a `postgres://…` URL, or libpq
        /// `key=value` pairs (parts left out come from the `PG*` environment variables).
        public var url: String
        public var synchronous: Synchronous
        /// PostgreSQL connections per node; 0 for the URL's `pool_size`, else 2 × the processor count.
        public var poolSize: Int = Settings.Database.poolSize.defaultValue
    }

    /// HTTP listener limits.
    public struct HTTPSettings: Sendable, Equatable {
        public var maxBodyBytes: Int
        public var connectionTimeoutSeconds: Int
        /// How long a connection has to deliver a whole request (headers and body); slowloris defence.
        public var requestReadTimeoutSeconds: Int
        public var connectionLimit: Int
        /// The most connections from one client address; 0 for no limit.
        public var perAddressConnectionLimit: Int
        /// The most connections from one client network (an IPv4 /24, an IPv6 /64); 0 for no limit.
        public var perNetworkConnectionLimit: Int = Settings.HTTP.perNetworkConnectionLimit.defaultValue
        /// How long a response may take to be written to the client; a slower reader's connection is reset.
        public var responseWriteTimeoutSeconds: Int = Settings.HTTP.responseWriteTimeoutSeconds.defaultValue
        public var requestDeadlineSeconds: Int
        public var threads: Int
        public var shutdownGraceSeconds: Int
        /// PEM files for HTTPS; `nil` serves plain HTTP (the documented default behind a proxy).
        public var tlsCertificateFile: String?
        public var tlsKeyFile: String?
    }

    /// Token lifetimes, in seconds.
    public struct TokenSettings: Sendable, Equatable {
        public var accessTokenLifetime: Int
        public var idTokenLifetime: Int
        public var refreshTokenIdleLifetime: Int
        public var refreshTokenAbsoluteLifetime: Int
        public var actionTokenLifetime: Int
        /// How long after a rotation the rotated token may be presented again as a retry while its successor was
        /// never presented (`tokens.refresh_token_reuse_grace_seconds`, `RefreshTokenPolicy.reuseGrace`); 0: never.
        public var refreshTokenReuseGrace: Int = Settings.Tokens.refreshTokenReuseGraceSeconds.defaultValue
        /// The namespaced claim (`tokens.user_metadata_claim`, an http(s) URL as Auth0 requires of custom claims)
        /// under which ID tokens and `/userinfo` carry the user's `user_metadata`; `nil`: never carried.
        public var userMetadataClaim: String? = nil
        /// How access tokens are signed (`tokens.access_token_signing_alg`): the built-in audiences' (the issuer's,
        /// the device-key, account and recovery ones) and every API's without a `signing_alg` of its own.
        public var accessTokenSigningAlgorithm: TokenSigningAlgorithm = Settings.Tokens.accessTokenSigningAlg
            .defaultValue
    }

    /// WebAuthn ceremony settings.
    public struct PasskeySettings: Sendable, Equatable {
        /// `timeout` of the creation/request options, in milliseconds, and the auth session's lifetime.
        public var challengeTimeoutMilliseconds: Int
        /// The policy of clients that set none of their own (WebAuthn L3 §5.8.6).
        public var userVerification: UserVerificationPolicy
        /// How long the auth session outlives the ceremony's `timeout`, in seconds
        /// (`passkeys.auth_session_grace_seconds`): a user who finishes just before the timeout is not refused
        /// for the time the answer takes to reach the server.
        public var authSessionGraceSeconds: Int = Settings.Passkeys.authSessionGraceSeconds.defaultValue
        /// The certificates of `passkeys.attestation_root_files`: roots every passkey attestation may chain to
        /// (`AttestationTrustAnchors.extra`).
        public var attestationRoots: [Certificate] = []
    }

    /// App-bound device key settings.
    public struct DeviceKeySettings: Sendable, Equatable {
        public var challengeLifetimeSeconds: Int
        public var maxFailedAttempts: Int
        /// Usable (active or locked) keys a user may have; enrolment beyond it is refused.
        public var maxKeysPerUser: Int
        /// `POST /device-events` requests of one user per minute (per node); beyond it 429, nothing written.
        public var eventsPerUserPerMinute: Int
        /// The `aud` a token must name to reach the device-key endpoints (default `<issuer>device-keys`).
        public var audience: String = ""
        /// Longest time between the login and an enrolment (`POST /device-keys`), in seconds.
        public var enrolmentMaxAgeSeconds: Int = Settings.DeviceKeys.enrolmentMaxAgeSeconds.defaultValue
        /// Roots an Android Key Attestation chain must lead to (`android_attestation_roots`: `builtin`, Google's
        /// hardware attestation roots, by default in the file; a PEM file; or empty: Android attestations cannot
        /// verify). Empty here, as in a configuration built in code.
        public var androidAttestationRoots: [Certificate] = []
        /// Roots of Apple App Attest (`app_attest_roots`: `builtin`, Apple App Attestation Root CA, by default in the
        /// file; a PEM file; or empty).
        public var appAttestRoots: [Certificate] = []
    }

    /// DPoP (RFC 9449) settings.
    public struct DPoPSettings: Sendable, Equatable {
        /// How far a proof's `iat` may be from the server's time, either way, in seconds (RFC 9449 §11.1); its
        /// `jti` is remembered that long.
        public var proofLifetimeSeconds: Int = Settings.DPoP.proofLifetimeSeconds.defaultValue
        /// Whether every proof must carry a server nonce (RFC 9449 §8).
        public var requireNonce: Bool = Settings.DPoP.requireNonce.defaultValue
        /// How long one nonce is current; the previous one is accepted too.
        public var nonceLifetimeSeconds: Int = Settings.DPoP.nonceLifetimeSeconds.defaultValue
    }

    /// SRP-6a password fallback settings (docs/password-fallback.md).
    public struct SRPSettings: Sendable, Equatable {
        /// Failed SRP logins of one identity that lock it for `lockSeconds` (`srp.max_failures`).
        public var maxFailures: Int
        /// Failures of one identity after which each further attempt waits longer (`srp.delay_after_failures`).
        public var delayAfterFailures: Int
        /// How long an identity stays locked after each failure from `maxFailures` on, in seconds (`srp.lock_seconds`).
        public var lockSeconds: Int
        /// Failures from one network after which each further attempt from it waits longer
        /// (`srp.address_delay_after_failures`).
        public var addressDelayAfterFailures: Int
        /// How long an SRP challenge can be answered, in seconds.
        public var sessionLifetimeSeconds: Int
        /// How long one network's failures are remembered, in seconds (its count restarts after a quiet window).
        public var addressWindowSeconds: Int
        /// How recent a login must be to enrol a verifier, or a device key after a biometry change, in seconds.
        public var freshLoginMaxAgeSeconds: Int
    }

    /// Secrets at rest (`encryption_at_rest`, docs/api.md): the key-encryption key of the token-signing keys and the
    /// SRP logins' server secrets.
    public struct EncryptionAtRest: Sendable, Equatable {
        /// `key_file`: 32 random bytes (owned as PostgreSQL's key files are; relative paths from the data directory)
        /// under which secrets are sealed in the database (AES-256-GCM, `SecretEncryption`); `nil`: they are stored
        /// unencrypted.
        public var keyFile: String?
        /// `decryption_key_files`: further key-encryption keys (same rules) that open secrets but never seal one,
        /// for rotating the key-encryption key without downtime: what they sealed is sealed again under `keyFile`.
        public var decryptionKeyFiles: [String] = []
        /// `pkcs11`: the AES-256 key in an HSM that wraps every key file above (`passkeyd encryption-key wrap`), so
        /// that a file alone opens nothing; `nil`: the files hold the keys themselves.
        public var pkcs11: PKCS11Settings?
    }

    /// Record mode (docs/recording.md): where every judged WebAuthn ceremony is written as a replayable recording.
    public struct RecordingSettings: Sendable, Equatable {
        /// The directory (`recording.directory`, `serve --record DIR`); `nil` (empty): record mode is off.
        public var directory: String?
        /// The most the directory's recordings weigh together (`recording.max_bytes`); the oldest are deleted first.
        public var maxBytes: Int = Settings.Recording.maxBytes.defaultValue
        /// The most one recording weighs (`recording.max_file_bytes`); a larger one is not written.
        public var maxFileBytes: Int = Settings.Recording.maxFileBytes.defaultValue
    }

    /// The least severe log line written (`log_level`).
    public var logLevel: LogLevel = Settings.logLevel.defaultValue
    public var listen: Listen
    /// Where the admin listener (`/metrics`, `/healthz`, `/readyz`) binds; `nil` (`admin.listen` empty): no
    /// admin listener.
    public var adminListen: Listen?
    /// The token issuer (`iss`), an absolute URL ending with `/` (added at load when configured without);
    /// the discovery document is served under it.
    public var issuer: String
    public var relyingParty: RelyingParty
    /// Web origins accepted for every client, besides each client's own.
    public var webOrigins: [String]
    /// Where the database file and the signing keys live.
    public var dataDirectory: String
    public var database: Database
    public var http: HTTPSettings
    public var tokens: TokenSettings
    public var passkeys: PasskeySettings
    public var deviceKeys: DeviceKeySettings
    /// DPoP-bound tokens (RFC 9449).
    public var dpop = DPoPSettings()
    public var srp: SRPSettings
    /// `hosted_login.session_lifetime_seconds`: the absolute lifetime of a hosted-login session.
    public var hostedLoginSessionLifetime = Settings.HostedLogin.sessionLifetimeSeconds.defaultValue
    /// The FIDO MDS3 BLOB's file, roots, CRLs and refresh (`metadata`).
    public var metadata = MetadataSettings()
    /// Requests per minute per client IP on the passkey and token endpoints; 0 disables the limit.
    public var rateLimitPerMinute: Int
    /// Requests per minute per user (the access token's subject) on the device-key endpoints and
    /// `/device-events`; 0 disables the limit.
    public var rateLimitPerUserPerMinute: Int
    public var clients: [ClientConfiguration]
    /// The configured APIs (`apis`); the issuer's API and the device-key API are built in
    /// (`ServerConfiguration+APIs.swift`).
    public var apis: [APIConfiguration] = []
    /// Which client may ask for which API, with which of its scopes (`client_grants`).
    public var clientGrants: [ClientGrant] = []
    /// `account_api_access_policy`: whether the account API is every client's (by default) or needs a client grant.
    public var accountAPIAccessPolicy: APIAccessPolicy = .allowAll
    /// `default_audience` when set: the API of a request that names none.
    public var configuredDefaultAudience: String? = nil
    /// `allow_organization_name_in_authentication_api`: an `organization` may be named by its name too, and the
    /// tokens of a login in one carry `org_name` besides `org_id`.
    public var allowOrganizationNameInAuthenticationAPI = false
    public var realms: [RealmConfiguration]
    /// The probative audit log (`audit`, docs/audit.md).
    public var audit: AuditConfiguration
    /// Record mode (`recording`, docs/recording.md); off by default.
    public var recording = RecordingSettings()
    /// The key-encryption keys of secrets at rest (`encryption_at_rest`); none by default.
    public var encryptionAtRest = EncryptionAtRest()
    /// The OpenAPI document's listener and the demo web app (`openapi`, `web`).
    public var web = WebConfiguration(openAPIListener: Settings.OpenAPI.listener.defaultValue)

    /// The API of a request that names no `audience`: `default_audience`, else the issuer's own API.
    public var defaultAudience: String { configuredDefaultAudience ?? issuer }

    /// The realm used by requests that name none: the one marked `default`, which a configuration with several realms
    /// must have (refused at load otherwise), else the only one.
    public var defaultRealm: RealmConfiguration? { realms.first { $0.isDefault } ?? realms.first }

    /// The realm named `name`, if configured (Auth0's `realm` and `connection` name one).
    public func realm(named name: String) -> RealmConfiguration? { realms.first { $0.name == name } }

    /// The client with this id, if configured.
    public func client(id: String) -> ClientConfiguration? { clients.first { $0.clientID == id } }

    /// The user-verification policy of `client`'s ceremonies: its own `user_verification`, else
    /// `passkeys.user_verification`. It is the `userVerification` of the options the client is handed and, when
    /// `required`, a check of the UV flag (WebAuthn L3 §7.1 step 15, §7.2 step 17).
    public func userVerification(for client: ClientConfiguration) -> UserVerificationPolicy {
        client.userVerification ?? passkeys.userVerification
    }

    /// Takes the PINs that `audit.pkcs11.pin_env` and `encryption_at_rest.pkcs11.pin_env` name from `environment`:
    /// the loader does, so that the signer and the key unwrapping read no environment.
    package mutating func readPINs(from environment: [String: String]) {
        audit.readPIN(from: environment)
        encryptionAtRest.pkcs11?.readPIN(from: environment)
    }

    /// The database `database.url` names (validated at load, so never nil once loaded).
    public var databaseLocation: DatabaseLocation? { DatabaseLocation(url: database.url) }

    /// The SQLite database file, when the database is SQLite.
    public var sqliteFile: String? {
        guard case .sqlite(let file) = databaseLocation else { return nil }
        return file.hasPrefix("/") ? file : (dataDirectory as NSString).appendingPathComponent(file)
    }
}

import Crypto
import Foundation
import Tokens

/// One OAuth client (an app): which grants it may use and which origins its ceremonies come from.
public struct ClientConfiguration: Sendable, Equatable {
    /// The iOS app, for the associated-domains file and the `https://<rpId>` origin.
    public struct IOSApp: Sendable, Equatable {
        public var teamID: String
        public var bundleIdentifier: String
        /// `TEAMID.bundle.id`, as `webcredentials.apps` lists it.
        public var appID: String { "\(teamID).\(bundleIdentifier)" }
    }

    /// The Android app, for assetlinks.json and the `android:apk-key-hash:` origin.
    public struct AndroidApp: Sendable, Equatable {
        public var packageName: String
        /// SHA-256 fingerprints of the signing certificates, colon-separated upper-case hex.
        public var sha256CertFingerprints: [String]
    }

    /// Whether device-key enrolments of this client must carry a platform key attestation
    /// (`clients[].device_keys.attestation`, docs/device-keys.md).
    public enum DeviceKeyAttestationPolicy: String, Sendable, Equatable {
        /// Attestations are ignored (enrolments without one are the norm).
        case none
        /// An attestation is verified when present (a failing one refuses the enrolment) and its level recorded;
        /// enrolments without one are accepted.
        case preferred
        /// Only enrolments with a verified attestation are accepted.
        case required
    }

    /// Which App Attest environment a device-key enrolment's attestation may come from
    /// (`clients[].device_keys.app_attest_environment`; Apple's `com.apple.developer.devicecheck.appattest-environment`).
    public enum AppAttestEnvironment: String, Sendable, Equatable {
        /// Only production attestations (aaguid `appattest`): App Store and TestFlight builds.
        case production
        /// Development attestations (aaguid `appattestdevelop`, Xcode builds) too, besides production ones.
        case development
    }

    /// When a refresh token is issued.
    public enum RefreshTokenIssuance: String, Sendable, Equatable {
        /// Only when the `offline_access` scope is requested (OIDC Core §11).
        case offlineAccess = "offline_access"
        /// On every successful login.
        case always
        /// Never.
        case never
    }

    /// One multi-resource refresh token policy (Auth0's `refresh_token.policies[]`, MRRT): a refresh token of this
    /// client may be exchanged for an access token for `audience`, with at most `scopes` of its scopes, though the
    /// login named another API.
    public struct RefreshTokenPolicy: Sendable, Equatable {
        /// The API's identifier.
        public var audience: String
        /// The API scopes the exchange may grant (within the client's grant for the API).
        public var scopes: [String]

        package init(audience: String, scopes: [String]) {
            self.audience = audience
            self.scopes = scopes
        }
    }

    /// Whether the client's logins and sign-ups may, or must, be made in an organization (`organization_usage`,
    /// Auth0's client setting of that name).
    public enum OrganizationUsage: String, Sendable, Equatable {
        /// A request naming an `organization` is refused: the client's users log in as individuals.
        case deny
        /// With or without an `organization`.
        case allow
        /// Every login and sign-up names an `organization`.
        case require
    }

    public var clientID: String
    public var name: String
    public var grantTypes: [String]
    public var webOrigins: [String]
    public var refreshTokens: RefreshTokenIssuance
    public var ios: IOSApp?
    public var android: AndroidApp?
    /// This client's user-verification policy (WebAuthn L3 §5.8.6), or `nil` for the server's
    /// `passkeys.user_verification`. See `ServerConfiguration.userVerification(for:)`.
    public var userVerification: UserVerificationPolicy?
    /// Whether every token request of this client must carry a DPoP proof (RFC 9449 §5), so that all its tokens
    /// are bound to a key and a Bearer request is refused.
    public var requireDPoP: Bool = false
    /// The device-key attestation policy.
    public var deviceKeyAttestation: DeviceKeyAttestationPolicy = .none
    /// The App Attest environment accepted for device-key attestations.
    public var appAttestEnvironment: AppAttestEnvironment = .production
    /// How this client's ID tokens are signed (`id_token_signed_response_alg`, OIDC Dynamic Client Registration §2):
    /// RS256 by default (OIDC Core §15.1), ES256 on request.
    public var idTokenSigningAlgorithm: TokenSigningAlgorithm = .rs256
    /// How this client's token introspection responses are signed when it asks for them as JWTs
    /// (`introspection_signed_response_alg`, RFC 9701 §6): RS256 by default, as the RFC says, ES256 on request.
    public var introspectionSigningAlgorithm: TokenSigningAlgorithm = .rs256
    /// The SHA-256 of each secret this client authenticates with (`client_secret_sha256`, RFC 6749 §2.3.1): a
    /// confidential client when there is one, a public client (PKCE, no secret) when there is none.
    public var secretHashes: [[UInt8]] = []
    /// The public keys of this client's assertions (`jwks`, RFC 7591 §2; `private_key_jwt`, RFC 7523 §2.2, OIDC
    /// Core §9), by `kid` (a key configured without one by its RFC 7638 thumbprint): a confidential client when there
    /// is one.
    public var assertionKeys: [String: JWTVerificationKey] = [:]
    /// Whether the client must authenticate wherever it is identified (`ClientResolution`): with a secret or an
    /// assertion, whichever it has.
    public var isConfidential: Bool { !secretHashes.isEmpty || !assertionKeys.isEmpty }

    /// Whether `secret` is one of this client's: its SHA-256 compared with each configured hash in constant time
    /// (all of them, so the time does not say which matched).
    public func accepts(secret: String) -> Bool {
        let digest = Digest.sha256(Array(secret.utf8))
        var matched = false
        for hash in secretHashes where ConstantTime.equals(digest, hash) { matched = true }
        return matched
    }

    /// `hints` of this client's creation options (WebAuthn L3 §5.4 `hints`: `security-key`, `client-device`,
    /// `hybrid`, in order of preference); empty: the member is left out.
    public var passkeyHints: [String] = []
    /// The audiences a password (SRP-6a) login of this client may ask for (`password_login_audiences`): by default
    /// the issuer's own API only, whose one use is `/userinfo`. The device-key and account audiences are refused at
    /// load: a password alone never enrols a device key, approves an action or manages the account
    /// (docs/password-fallback.md). Resolved by `ServerConfiguration.resolvingPasswordLoginAudiences`.
    public var passwordLoginAudiences: [String] = []
    /// `attestation`: the attestation conveyance of this client's creation options (WebAuthn L3 §5.4.7); `none`, the
    /// default, leaves the member out.
    public var attestation: AttestationConveyance = .none
    /// `attestation_formats`: the creation options' `attestationFormats` (WebAuthn L3 §5.4), the attestation statement
    /// formats this client prefers, most preferred first; advisory to the authenticator, so a registration in another
    /// format is verified and judged as any other. Empty (the default): the member is left out.
    public var attestationFormats: [String] = []
    /// `authenticators`: the authenticators this client accepts and its answer to a reported one at login
    /// (docs/authenticator-policy.md).
    public var authenticators = AuthenticatorPolicy()
    /// The multi-resource refresh token policies (`refresh_token_policies`, Auth0's `refresh_token.policies`): the
    /// APIs beyond the login's own that a refresh may ask for. Checked against the APIs and client grants by
    /// `ServerConfiguration.checkRefreshTokenPolicies`.
    public var refreshTokenPolicies: [RefreshTokenPolicy] = []

    /// The policy of this client for `audience`, if any.
    package func refreshTokenPolicy(for audience: String) -> RefreshTokenPolicy? {
        refreshTokenPolicies.first { $0.audience == audience }
    }

    /// Whether the client's passkey logins and sign-ups may (`allow`) or must (`require`) name an `organization`;
    /// `deny`, the default, refuses one (`organization_usage`).
    public var organizationUsage: OrganizationUsage = .deny
    /// `redirect_uris`: where the hosted login may send this client's authorization responses (RFC 6749 §3.1.2),
    /// matched by `RedirectURIRules`; a client with `authorization_code` has at least one (checked at load).
    public var redirectURIs: [String] = []
    /// `post_logout_redirect_uris` (OIDC RP-Initiated Logout 1.0 §3.1): where a logout may send the browser back.
    public var postLogoutRedirectURIs: [String] = []
    /// `require_pushed_authorization_requests` (RFC 9126 §6): `/authorize` takes this client's requests only as
    /// pushed ones (`POST /oauth/par`, then `request_uri`).
    public var requirePushedAuthorizationRequests = false
    /// `token_quota.client_credentials`: how many machine tokens this client may have per hour and per day; `nil`
    /// for no quota (the default).
    public var tokenQuota: TokenQuota?

    /// The grant type of Auth0's native passkey flow (`GrantType.webAuthn`).
    public static let webAuthnGrant = GrantType.webAuthn.rawValue
    /// The grant type of the SRP-6a password fallback (`/srp/challenge`, then `/oauth/token`; `GrantType.srp`).
    public static let srpGrant = GrantType.srp.rawValue

    /// The grant type of account recovery with a recovery code (`/recovery/challenge`, then `/oauth/token`;
    /// `GrantType.recoveryCode`).
    public static let recoveryCodeGrant = GrantType.recoveryCode.rawValue

    /// Whether the client may use `grant` (RFC 6749 §5.2 `unauthorized_client` otherwise).
    public func allows(grant: String) -> Bool { grantTypes.contains(grant) }

    /// Whether the client may use `grant`.
    package func allows(_ grant: GrantType) -> Bool { allows(grant: grant.rawValue) }

    /// The origins a ceremony of this client may come from: its web origins, `https://<rpID>` for an
    /// iOS app (WebAuthn L3 §5.1.2: platform apps on Apple devices report the RP's origin), and
    /// `android:apk-key-hash:<base64url SHA-256 of the signing certificate>` for each Android
    /// fingerprint (the origin Android's Credential Manager reports for a native app).
    public func acceptedOrigins(rpID: String, sharedWebOrigins: [String]) -> [String] {
        var origins = sharedWebOrigins + webOrigins
        if ios != nil { origins.append("https://\(rpID)") }
        for fingerprint in android?.sha256CertFingerprints ?? [] {
            if let bytes = Self.fingerprintBytes(fingerprint) {
                origins.append("android:apk-key-hash:\(Base64URL.encode(bytes))")
            }
        }
        var seen = Set<String>()
        return origins.filter { seen.insert($0).inserted }
    }

    /// Decodes `AA:BB:…` (32 colon-separated hex bytes) into bytes; `nil` if malformed.
    public static func fingerprintBytes(_ fingerprint: String) -> [UInt8]? {
        let parts = fingerprint.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 32 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

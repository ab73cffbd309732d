import JSON
import Storage

/// An error answered in Auth0's shape, `{"error": …, "error_description": …}`, with the RFC 6749 §5.2 status.
///
/// `description` goes to the client and is fixed per situation, so it never says which check failed;
/// `logCode` and `reason` go to the log and the metrics only.
package struct OAuthError: Error, Sendable, CustomStringConvertible {
    /// The RFC 6749 §5.2 `error` value (or Auth0's `too_many_requests`, or a device-key answer): a closed set,
    /// spelled in snake_case as RFC 6749 §5.2 spells its codes.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The HTTP status of this kind.
        package var status: Int {
            switch self {
            case .invalidClient: 401
            // Auth0 answers 403 for a refused grant and for a grant the client may not use.
            case .unauthorizedClient, .invalidGrant: 403
            case .tooManyRequests: 429
            case .serverError: 500
            case .temporarilyUnavailable: 503
            case .invalidToken, .insufficientUserAuthentication: 401
            // RFC 6750 §3.1: a valid token without the scope the request needs.
            case .insufficientScope: 403
            // Device keys (Server/DeviceKeys/DeviceKeyRefusal.swift): never 403 for another user's key.
            case .notFound: 404
            case .keyLocked, .keyRevoked, .loginRequired, .deviceProofRequired: 403
            // Auth0: an unknown API, or one the client has no grant for, is 403 access_denied.
            case .accessDenied: 403
            // Password fallback (Server/PasswordFallback/PasswordFallbackRefusal.swift).
            case .passwordRequired, .passwordLocked: 403
            // RFC 9110 §15.5.10: the user's set of keys is full, a conflict with the current state.
            case .deviceKeyLimitReached: 409
            // Passkey lifecycle (Server/Passkeys/PasskeyLifecycleRefusal.swift): removing the only way in is a
            // conflict with the account's state (RFC 9110 §15.5.10); a recovery lock is a refusal.
            case .lastPasskey: 409
            case .recoveryLocked: 403
            default: 400
            }
        }

        /// RFC 6749 §5.2: a required parameter is missing or malformed.
        case invalidRequest = "invalid_request"
        /// RFC 6749 §5.2: the client is unknown (401).
        case invalidClient = "invalid_client"
        /// RFC 6749 §5.2: the client may not use this grant (Auth0: 403).
        case unauthorizedClient = "unauthorized_client"
        /// RFC 6749 §5.2: the grant (auth session, assertion, refresh token) is invalid (Auth0: 403).
        case invalidGrant = "invalid_grant"
        /// RFC 6749 §5.2: the grant type is not supported.
        case unsupportedGrantType = "unsupported_grant_type"
        /// Auth0's rate-limit answer (RFC 6585 §4: 429 with `Retry-After`).
        case tooManyRequests = "too_many_requests"
        /// RFC 6749 §5.2 / §4.1.2.1: an unexpected condition; logged as a bug.
        case serverError = "server_error"
        /// RFC 6749 §4.1.2.1 / RFC 9110 §15.6.4: nothing was done; the client may retry later (503).
        case temporarilyUnavailable = "temporarily_unavailable"
        /// RFC 6749 §5.2: the requested scope exceeds what was granted.
        case invalidScope = "invalid_scope"
        /// RFC 6749 §4.1.2.1, Auth0's answer for an `audience` that is no API, or an API the client has no grant for
        /// (403); also a refresh that asks for an audience outside its original grant, and an `Origin` the client
        /// does not accept at the passkey endpoints.
        case accessDenied = "access_denied"
        /// RFC 6750 §3.1: the access token is missing, expired, revoked or malformed (401).
        case invalidToken = "invalid_token"
        /// RFC 9449 §12.2: the DPoP proof is missing where required, or invalid (400 at the token endpoint, 401
        /// with `WWW-Authenticate: DPoP` at a resource, §7.1).
        case invalidDPoPProof = "invalid_dpop_proof"
        /// RFC 9449 §8 / §12.2: the proof must carry the nonce given in the `DPoP-Nonce` header (400 at the token
        /// endpoint, 401 at a resource, §9).
        case useDPoPNonce = "use_dpop_nonce"
        /// RFC 9470 §3: the token is valid but its authentication is not recent or strong enough for this call
        /// (401, with `max_age` in the challenge): log in again, then retry.
        case insufficientUserAuthentication = "insufficient_user_authentication"
        /// RFC 6750 §3.1: the access token lacks the scope the request needs (403, `requiredScope`).
        case insufficientScope = "insufficient_scope"

        // MARK: device keys (answered in Server/DeviceKeys/DeviceKeyRefusal.swift)
        // Values beyond RFC 6749's are ours (documented in docs/device-keys.md); `invalid_authorization_details`
        // is RFC 9396 §5's.

        /// RFC 9396 §5: the action is not an acceptable authorization-details entry (400).
        case invalidAuthorizationDetails = "invalid_authorization_details"
        /// The device key does not exist for this user — also for another user's key (404, no existence oracle).
        case notFound = "not_found"
        /// The device key is locked after repeated failures (403) until `POST …/unlock` after a fresh passkey login.
        case keyLocked = "key_locked"
        /// The device key is revoked (403): register a new one.
        case keyRevoked = "key_revoked"
        /// The user already has `device_keys.max_keys_per_user` usable keys (409): revoke one first.
        case deviceKeyLimitReached = "device_key_limit_reached"
        /// Unlocking needs an access token from a passkey login made after the lock (403).
        case loginRequired = "login_required"
        /// The challenge is unknown, or belongs to another key (400).
        case invalidChallenge = "invalid_challenge"
        /// The challenge expired before the approval arrived (400).
        case expiredChallenge = "expired_challenge"
        /// The challenge was already presented once (400): a replay.
        case challengeAlreadyUsed = "challenge_already_used"
        /// The device signature does not verify over the challenge bytes with the registered key (400).
        case invalidSignature = "invalid_signature"
        /// A destructive device operation (a key's revocation, its invalidation, the biometric lockout) without
        /// proof of the device or a fresh user-verified passkey login (403, `DeviceProof`).
        case deviceProofRequired = "device_proof_required"

        // MARK: password fallback (answered in Server/PasswordFallback/PasswordFallbackRefusal.swift)

        /// The device reported `device_keys.max_failed_attempts` consecutive biometric failures: its key approves
        /// nothing until the user logs in with the password (SRP) or a passkey (403).
        case passwordRequired = "password_required"
        /// Too many failed password (SRP) logins for this identity: only a passkey login lifts it (403).
        case passwordLocked = "password_locked"
        /// The platform key attestation of an enrolment is missing where the client requires one, or does not
        /// verify (400); `error_description` names the check.
        case invalidAttestation = "invalid_attestation"
        /// The passkey is the user's only way in (no other passkey, recovery codes or password verifier).
        case lastPasskey = "last_passkey"
        /// Too many failed recovery attempts for this identifier: recovery is locked.
        case recoveryLocked = "recovery_locked"
    }

    /// The `error` value and status.
    package let kind: OAuthError.Kind
    /// The client-facing `error_description`.
    package let clientDescription: String
    /// A stable code for logs and metrics (e.g. a WebAuthnError code).
    package let logCode: String
    /// Detail for the log.
    package let reason: String
    /// Seconds for `Retry-After`: a 429, or a 403 lockout that ends (a 503 without it gets the HTTP layer's 1 s).
    package var retryAfter: Int?
    /// A fresh nonce for the `DPoP-Nonce` header (RFC 9449 §8, §9), with `use_dpop_nonce`.
    package var dpopNonce: String?
    /// The scheme of a refused request to a protected resource (RFC 9449 §7.1): a `DPoP` request is answered
    /// 401 with a `DPoP` challenge; `nil` (a Bearer request, or the token endpoint) keeps RFC 6750's answer.
    package var resourceScheme: ResourceScheme?

    /// The authentication scheme a resource request used.
    package enum ResourceScheme: Sendable {
        /// RFC 9449 §7.1: `Authorization: DPoP`.
        case dpop
    }
    /// RFC 6749 §5.2: the refused client authenticated with `Authorization: Basic`, so the 401 carries
    /// `WWW-Authenticate: Basic`.
    package var basicChallenge = false
    /// RFC 9470 §3 `max_age` of the challenge (`insufficient_user_authentication` only).
    package var maxAge: Int?
    /// A status other than the kind's own, where Auth0 documents one for an endpoint (`unauthorized_client` is 400
    /// at the passkey endpoints).
    package var statusOverride: Int?
    /// `passkey_error`, an extra member a web page can act on (`unknown_credential`: call
    /// `PublicKeyCredential.signalUnknownCredential()`, WebAuthn L3 §5.1.10).
    package var passkeyError: PasskeyErrorCode?

    /// RFC 6750 §3 `scope` of the challenge: the scope the request needs (`insufficient_scope` only).
    package var requiredScope: String?
    /// The request parameter that is missing or malformed (`missingParameter`, `invalidParameter`), for answers that
    /// name it (the problem details' `validation_errors`).
    package var parameter: String?

    /// Audit events the refusal's write appends besides the ceremony's own refusal event (an authenticator policy
    /// refusal's `authenticator_refused` or `authenticator_reported`), so that they commit with it.
    package var securityEvents: [SecurityEvent] = []

    /// RFC 6750 §3.1: the request carried no credentials at all (`missingAccessToken`), so its challenge has no
    /// `error` attribute.
    package var credentialsMissing = false

    /// The values of `passkey_error` (docs/api.md).
    package enum PasskeyErrorCode: String, Sendable {
        /// The credential of the assertion is not registered here (deleted, or of another deployment).
        case unknownCredential = "unknown_credential"
    }

    /// The HTTP status of the answer.
    package var status: Int { statusOverride ?? kind.status }

    package init(
        _ kind: OAuthError.Kind, _ clientDescription: String, logCode: String, reason: String = "",
        retryAfter: Int? = nil
    ) {
        self.kind = kind
        self.clientDescription = clientDescription
        self.logCode = logCode
        self.reason = reason.isEmpty ? clientDescription : reason
        self.retryAfter = retryAfter
    }

    package var description: String { "\(kind.rawValue)/\(logCode): \(reason)" }

    /// A DPoP proof was refused (RFC 9449 §12.2 `invalid_dpop_proof`); which check failed goes to the log only.
    package static func invalidDPoPProof(_ logCode: String, reason: String = "") -> OAuthError {
        OAuthError(.invalidDPoPProof, "The DPoP proof is invalid.", logCode: logCode, reason: reason)
    }

    // MARK: fixed answers (one description per situation, never naming the failed check)

    /// A required parameter is missing or has the wrong type.
    package static func missingParameter(_ name: String) -> OAuthError {
        var error = OAuthError(
            .invalidRequest, "Missing required parameter: \(name)", logCode: "missing_parameter", reason: name)
        error.parameter = name
        return error
    }

    /// A parameter is present but malformed.
    package static func invalidParameter(_ name: String, reason: String = "") -> OAuthError {
        var error = OAuthError(
            .invalidRequest, "Invalid parameter: \(name)", logCode: "invalid_parameter", reason: "\(name) \(reason)")
        error.parameter = name
        return error
    }

    /// The client id is not configured.
    package static func unknownClient(_ clientID: String) -> OAuthError {
        OAuthError(.invalidClient, "Unknown client.", logCode: "unknown_client", reason: "client_id \(clientID)")
    }

    /// The client may not use `grant`.
    package static func grantNotAllowed(_ grant: String) -> OAuthError {
        OAuthError(
            .unauthorizedClient, "The grant type is not allowed for this client.", logCode: "grant_not_allowed",
            reason: grant)
    }

    /// The auth session is unknown, expired, consumed or another client's.
    package static func invalidSession(_ logCode: String, reason: String = "") -> OAuthError {
        OAuthError(.invalidGrant, "Invalid or expired auth_session.", logCode: logCode, reason: reason)
    }

    /// An identifier of a sign-up already belongs to a user of the realm: 400 `invalid_request`, the answer Auth0's
    /// `POST /passkey/register` documents for a user that already exists (its Authentication API reference: "if any
    /// submitted identifier resolves to an existing user, the request fails with `invalid_request`"), so that the
    /// app offers a login instead. The same answer from `/passkey/register` and from the grant that lost the race
    /// to another sign-up of the identifier since.
    package static func identifierTaken(realm: String) -> OAuthError {
        OAuthError(
            .invalidRequest, "A user with this identifier already exists.", logCode: "identifier_taken",
            reason: "realm \(realm)")
    }

    /// The one description of every failed passkey check.
    package static let ceremonyDescription = "The passkey could not be verified."

    /// The passkey ceremony failed a check (which one is logged only).
    package static func ceremonyFailed(_ logCode: String, reason: String) -> OAuthError {
        OAuthError(.invalidGrant, ceremonyDescription, logCode: logCode, reason: reason)
    }

    /// The one description of a login whose credential is not registered here.
    package static let unknownCredentialDescription = "The passkey is not registered with this server."

    /// WebAuthn L3 §7.2 step 6: the assertion's credential is unknown. The one ceremony failure answered
    /// distinctly (fixed description, `passkey_error: unknown_credential`), so that a page can tell the
    /// authenticator to forget it; the credential id says nothing the client does not know already.
    package static func unknownCredential(reason: String) -> OAuthError {
        var error = OAuthError(
            .invalidGrant, unknownCredentialDescription, logCode: "unknown_credential", reason: reason)
        error.passkeyError = .unknownCredential
        return error
    }

    /// The refresh token is unknown, rotated, revoked, expired or another client's.
    package static func invalidRefreshToken(_ logCode: String, reason: String = "") -> OAuthError {
        OAuthError(.invalidGrant, "Unknown or invalid refresh token.", logCode: logCode, reason: reason)
    }

    /// A request to a protected resource without any authentication information (RFC 6750 §3.1).
    package static var missingAccessToken: OAuthError {
        var error = OAuthError(.invalidToken, "Missing access token.", logCode: "missing_token")
        error.credentialsMissing = true
        return error
    }

    /// The `logCode` of `bug(_:)`: the only `server_error` logged as a bug.
    package static let bugLogCode = "bug"

    /// An unexpected failure: a 500, logged as a bug.
    package static func bug(_ reason: String) -> OAuthError {
        OAuthError(.serverError, "Internal server error.", logCode: bugLogCode, reason: reason)
    }
}

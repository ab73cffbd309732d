import DeviceKeys

// The device-key answers of `OAuthError` (their `error` values are `OAuthError.Kind` cases). Each situation
// has one fixed `error_description`; the module's reason goes to the log only.
extension OAuthError {
    /// The key id names no key of the caller (another user's key included: never 403, DESIGN.md).
    package static func deviceKeyNotFound(_ keyID: String) -> OAuthError {
        OAuthError(.notFound, "No such device key.", logCode: "device_key_not_found", reason: "key \(keyID.prefix(64))")
    }

    /// The key is locked.
    package static let deviceKeyLocked = OAuthError(
        .keyLocked, "The device key is locked. Log in with a passkey, then unlock it.", logCode: "device_key_locked")

    /// The key is revoked.
    package static let deviceKeyRevoked = OAuthError(
        .keyRevoked, "The device key is revoked. Register a new one.", logCode: "device_key_revoked")

    /// Enrolling one more key would exceed the per-user limit (re-enrolling a device replaces its key instead).
    package static func deviceKeyLimitReached(_ limit: Int) -> OAuthError {
        OAuthError(
            .deviceKeyLimitReached, "This user has the maximum number of device keys (\(limit)). Revoke one first.",
            logCode: "device_key_limit_reached", reason: "\(limit) usable keys")
    }

    /// The access token's `auth_time` is not after the lock.
    package static let unlockNeedsFreshLogin = OAuthError(
        .loginRequired, "Log in again with a passkey to unlock this key.", logCode: "unlock_needs_fresh_login")

    /// Enrolling or replacing a key needs a recent user-verified passkey login (RFC 9470 §3 step-up); the log code
    /// is the `FreshLoginRefusal` saying which part of the rule the token failed.
    package static func enrolmentNeedsFreshLogin(
        _ refusal: FreshLoginRefusal, maxAge: Int, change: String = "Enrolling a device key"
    ) -> OAuthError {
        var error = OAuthError(
            .insufficientUserAuthentication,
            "\(change) needs a passkey login with user verification in the last \(maxAge) seconds.",
            logCode: refusal.rawValue)
        error.maxAge = maxAge
        return error
    }

    /// Maps a `DeviceKeyError` to its fixed answer: key-import codes say what is wrong with the key in
    /// `invalid_request`, action limits name the limit in `invalid_authorization_details` (RFC 9396 §5).
    package static func deviceKey(_ error: DeviceKeyError) -> OAuthError {
        let description: String
        switch error.code {
        case .malformedKey:
            description = "Invalid public_key: not an X9.62 uncompressed point or a SubjectPublicKeyInfo."
        case .invalidKeyLength: description = "Invalid public_key: wrong length for a P-256 key."
        case .compressedPoint: description = "Invalid public_key: compressed points are not accepted."
        case .unsupportedCurve: description = "Invalid public_key: the curve is not P-256."
        case .unsupportedKeyType: description = "Invalid public_key: not an elliptic-curve key."
        case .pointNotOnCurve: description = "Invalid public_key: the point is not on the P-256 curve."
        case .invalidAuthorizationDetails, .actionNotObject, .actionMissingType, .actionTooDeep, .actionTooManyMembers,
            .actionStringTooLong, .actionTooLarge:
            return OAuthError(
                .invalidAuthorizationDetails, actionDescription(error.code), logCode: "device_action_invalid",
                reason: error.reason)
        case .challengeExpired:
            return OAuthError(
                .expiredChallenge, "The challenge has expired.", logCode: "challenge_expired", reason: error.reason)
        case .challengeMismatch:
            return OAuthError(
                .invalidChallenge, "Unknown challenge for this device key.", logCode: "challenge_mismatch",
                reason: error.reason)
        case .invalidSignature:
            return OAuthError(
                .invalidSignature, "The signature does not verify.", logCode: "invalid_signature", reason: error.reason)
        case .invalidChallengeDocument:
            // The server built the document itself, so this is a bug.
            return .bug("device key \(error.description)")
        // Attestation: one fixed description per check.
        case .attestationMalformed: return attestation(error, "The attestation is malformed.")
        case .attestationUntrusted:
            return attestation(error, "The attestation does not chain to a trusted attestation root.")
        case .attestationExpired:
            return attestation(error, "A certificate of the attestation is expired or not yet valid.")
        case .attestationKeyMismatch:
            return attestation(error, "The attestation certifies another key than public_key.")
        case .attestationChallengeMismatch:
            return attestation(error, "The attestation does not carry this enrolment's nonce.")
        case .attestationSoftwareLevel: return attestation(error, "The attested key is not hardware-backed.")
        case .attestationKeyProperties:
            return attestation(error, "The attested key is not a signing key that needs a biometric for each use.")
        case .attestationWrongApp: return attestation(error, "The attestation names another app than this client's.")
        case .attestationWrongSignature:
            return attestation(error, "The attested app is not signed with this client's certificate.")
        case .attestationWrongEnvironment:
            return attestation(error, "The App Attest environment of the attestation is not accepted for this app.")
        case .attestationCounterNotZero:
            return attestation(error, "The App Attest counter is not 0: this is not the key's attestation.")
        case .attestationCredentialMismatch:
            return attestation(error, "The App Attest certificate does not certify the attested key (credentialId).")
        }
        return OAuthError(
            .invalidRequest, description, logCode: "device_key_\(error.code.rawValue)", reason: error.reason)
    }

    /// The client requires a verified platform attestation and the enrolment has none.
    package static let attestationRequired = OAuthError(
        .invalidAttestation, "This app requires a platform key attestation for device keys.",
        logCode: "attestation_required")

    /// An attestation refusal: `invalid_attestation`, the module code as log code.
    private static func attestation(_ error: DeviceKeyError, _ description: String) -> OAuthError {
        OAuthError(.invalidAttestation, description, logCode: error.code.rawValue, reason: error.reason)
    }

    /// The fixed description of each action rule, naming the limit `DeviceAction` applied (its defaults, which
    /// the challenge endpoint uses); chosen by code, never by reading the reason.
    private static func actionDescription(_ code: DeviceKeyError.Code) -> String {
        let limits = DeviceAction.Limits()
        switch code {
        case .actionTooDeep: return "The action nests deeper than \(limits.maxDepth) levels."
        case .actionTooManyMembers: return "The action has more than \(limits.maxTotalMembers) members."
        case .actionStringTooLong:
            return "The action has a string longer than \(limits.maxStringLength) characters."
        case .actionTooLarge: return "The action is larger than \(limits.maxCanonicalBytes) bytes."
        case .actionNotObject: return "The action must be a JSON object."
        case .actionMissingType: return "The action needs a non-empty string member \"type\"."
        default: return "The action is not valid JSON within the limits of an authorization detail."
        }
    }
}

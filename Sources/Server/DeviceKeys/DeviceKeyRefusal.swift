import DeviceKeys

// The device-key answers in Auth0's error shape. The `error` values beyond RFC 6749's are ours (documented in
// docs/device-keys.md); `invalid_authorization_details` is RFC 9396 §5's. Each situation has one fixed
// `error_description`; the module's reason goes to the log only.
extension OAuthError.Kind {
    /// RFC 9396 §5: the action is not an acceptable authorization-details entry (400).
    static let invalidAuthorizationDetails = Self(rawValue: "invalid_authorization_details")
    /// The device key does not exist for this user — also for another user's key (404, no existence oracle).
    static let notFound = Self(rawValue: "not_found")
    /// The device key is locked after repeated failures (403) until `POST …/unlock` after a fresh passkey login.
    static let keyLocked = Self(rawValue: "key_locked")
    /// The device key is revoked (403): register a new one.
    static let keyRevoked = Self(rawValue: "key_revoked")
    /// The user already has `device_keys.max_keys_per_user` usable keys (409): revoke one first.
    static let deviceKeyLimitReached = Self(rawValue: "device_key_limit_reached")
    /// Unlocking needs an access token from a passkey login made after the lock (403).
    static let loginRequired = Self(rawValue: "login_required")
    /// The challenge is unknown, or belongs to another key (400).
    static let invalidChallenge = Self(rawValue: "invalid_challenge")
    /// The challenge expired before the approval arrived (400).
    static let expiredChallenge = Self(rawValue: "expired_challenge")
    /// The challenge was already presented once (400): a replay.
    static let challengeAlreadyUsed = Self(rawValue: "challenge_already_used")
    /// The device signature does not verify over the challenge bytes with the registered key (400).
    static let invalidSignature = Self(rawValue: "invalid_signature")
}

extension OAuthError {
    /// The key id names no key of the caller (another user's key included: never 403, DESIGN.md).
    static func deviceKeyNotFound(_ keyID: String) -> OAuthError {
        OAuthError(.notFound, "No such device key.", logCode: "device_key_not_found", reason: "key \(keyID.prefix(64))")
    }

    /// The key is locked.
    static let deviceKeyLocked = OAuthError(
        .keyLocked, "The device key is locked. Log in with a passkey, then unlock it.", logCode: "device_key_locked")

    /// The key is revoked.
    static let deviceKeyRevoked = OAuthError(
        .keyRevoked, "The device key is revoked. Register a new one.", logCode: "device_key_revoked")

    /// Enrolling one more key would exceed the per-user limit (re-enrolling a device replaces its key instead).
    static func deviceKeyLimitReached(_ limit: Int) -> OAuthError {
        OAuthError(
            .deviceKeyLimitReached, "This user has the maximum number of device keys (\(limit)). Revoke one first.",
            logCode: "device_key_limit_reached", reason: "\(limit) usable keys")
    }

    /// The access token's `auth_time` is not after the lock.
    static let unlockNeedsFreshLogin = OAuthError(
        .loginRequired, "Log in again with a passkey to unlock this key.", logCode: "unlock_needs_fresh_login")

    /// Maps a `DeviceKeyError` to its fixed answer: key-import codes say what is wrong with the key in
    /// `invalid_request`, action limits name the limit in `invalid_authorization_details` (RFC 9396 §5).
    static func deviceKey(_ error: DeviceKeyError) -> OAuthError {
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
        default:
            // invalidChallengeDocument: the server built the document itself, so this is a bug.
            return .bug("device key \(error.description)")
        }
        return OAuthError(
            .invalidRequest, description, logCode: "device_key_\(error.code.rawValue)", reason: error.reason)
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

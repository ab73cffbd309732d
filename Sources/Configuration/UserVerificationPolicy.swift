/// A user-verification policy, `passkeys.user_verification` or a client's `user_verification` (WebAuthn L3 §5.8.6
/// `UserVerificationRequirement`). The raw value is the spec's spelling, read from the configuration and sent as
/// `userVerification` in the creation and request options.
public enum UserVerificationPolicy: String, Sendable, Equatable, CaseIterable, SettingChoice {
    /// The ceremony fails unless the authenticator verified the user.
    case required
    /// Verification is asked for; a ceremony without it is accepted.
    case preferred
    /// Verification is not asked for; a ceremony with or without it is accepted.
    case discouraged

    /// Whether a ceremony whose authenticator data lacks the UV flag is refused (WebAuthn L3 §7.1 step 15,
    /// §7.2 step 17): only under `required`.
    public var requiresVerifiedUser: Bool { self == .required }

    /// The policy at `object`'s `user_verification`, `nil` when it is absent. The spelling is the spec's, exactly:
    /// `Required` or `requried` is a configuration error, not a policy.
    package static func read(_ object: ConfigObject) throws(ConfigurationError) -> UserVerificationPolicy? {
        guard let text = try object.optionalString("user_verification") else { return nil }
        guard let policy = UserVerificationPolicy(rawValue: text) else {
            throw object.error("user_verification", "must be required, preferred or discouraged")
        }
        return policy
    }
}

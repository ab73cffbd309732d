/// The flags byte an authenticator writes into authenticator data (WebAuthn L3 §6.1, bit 0 least significant).
public struct AuthenticatorFlags: OptionSet, Sendable, Hashable {
    /// The byte.
    public let rawValue: UInt8
    /// Wraps a flags byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0, UP: user present.
    public static let userPresent = AuthenticatorFlags(rawValue: 0x01)
    /// Bit 2, UV: user verified.
    public static let userVerified = AuthenticatorFlags(rawValue: 0x04)
    /// Bit 3, BE: backup eligible (a multi-device credential).
    public static let backupEligible = AuthenticatorFlags(rawValue: 0x08)
    /// Bit 4, BS: backed up.
    public static let backedUp = AuthenticatorFlags(rawValue: 0x10)
    /// Bit 6, AT: attested credential data included (registration only; the authenticator sets it itself).
    public static let attestedCredentialData = AuthenticatorFlags(rawValue: 0x40)
    /// Bit 7, ED: extension data included.
    public static let extensionData = AuthenticatorFlags(rawValue: 0x80)

    /// What a synced platform passkey reports: UP, UV, BE and BS.
    public static let passkey: AuthenticatorFlags = [.userPresent, .userVerified, .backupEligible, .backedUp]
    /// What a single-device security key with a PIN reports: UP and UV.
    public static let securityKey: AuthenticatorFlags = [.userPresent, .userVerified]
}

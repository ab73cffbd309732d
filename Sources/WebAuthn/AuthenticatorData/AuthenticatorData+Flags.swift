extension AuthenticatorData {
    /// The flags byte of authenticator data (WebAuthn L3 §6.1, bit 0 is the least significant).
    public struct Flags: Sendable, Equatable {
        /// The byte as received.
        public let rawValue: UInt8
        /// Bit 0, UP: the user was present.
        public var userPresent: Bool { rawValue & 0x01 != 0 }
        /// Bit 2, UV: the user was verified.
        public var userVerified: Bool { rawValue & 0x04 != 0 }
        /// Bit 3, BE: the credential may be backed up (multi-device).
        public var backupEligible: Bool { rawValue & 0x08 != 0 }
        /// Bit 4, BS: the credential is currently backed up.
        public var backedUp: Bool { rawValue & 0x10 != 0 }
        /// Bit 6, AT: attested credential data follows the counter.
        public var attestedCredentialDataIncluded: Bool { rawValue & 0x40 != 0 }
        /// Bit 7, ED: an extensions map ends the data.
        public var extensionDataIncluded: Bool { rawValue & 0x80 != 0 }

        /// Wraps a flags byte.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
    }
}

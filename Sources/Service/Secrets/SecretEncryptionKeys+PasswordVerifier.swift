import Storage

/// Password verifiers at rest. v = g^x is what an offline dictionary attack on a user's password starts from, as a
/// password hash is: with a key-encryption key it is stored sealed, bound to its user (a verifier moved to another
/// user's row does not open), so that a copy of the database alone (a backup, a replica, a read-only account) does
/// not give it. The SRP session's copy of v is sealed the same way, bound to its session.
///
/// Unencrypted, a verifier is at most the group's width (`SRP6a.width`, 384 bytes); before it is sealed it is
/// padded to that width, so a sealed one is always longer: the length alone tells which it is (raw bytes may start
/// with the envelope's `pkd1` by chance; a length cannot lie).
extension SecretEncryptionKeys {
    /// What a sealed verifier is bound to: its user's row, or the SRP session holding a copy.
    package enum VerifierBinding: Sendable {
        case user(String)
        case session(String)

        package var context: [UInt8] {
            switch self {
            case .user(let userID): Array("srp-verifier\u{0}".utf8) + Array(userID.utf8)
            case .session(let sessionID): Array("srp-session-verifier\u{0}".utf8) + Array(sessionID.utf8)
            }
        }

        package var what: String {
            switch self {
            case .user(let userID): "the password verifier of user \(userID)"
            case .session(let sessionID): "SRP session \(sessionID)'s verifier"
            }
        }
    }

    /// A verifier (or an unknown identity's stand-in) as it is stored: sealed, padded to `width`, when there is a
    /// sealing key.
    package func storedVerifier(_ verifier: [UInt8], boundTo binding: VerifierBinding, width: Int) throws -> [UInt8] {
        guard sealing != nil, verifier.count <= width else { return verifier }
        return try stored([UInt8](repeating: 0, count: width - verifier.count) + verifier, context: binding.context)
    }

    /// Whether stored verifier bytes are unencrypted: no longer than the group's width, which every envelope of one
    /// exceeds.
    package static func isUnencryptedVerifier(_ stored: [UInt8], width: Int) -> Bool {
        stored.count <= width
    }

    /// The verifier in stored bytes, opened if sealed.
    package func verifier(_ stored: [UInt8], boundTo binding: VerifierBinding, width: Int) throws(SecretEncryption
        .Failure)
        -> [UInt8]
    {
        try open(
            stored, isPlain: Self.isUnencryptedVerifier(stored, width: width), context: binding.context,
            what: binding.what)
    }

    /// `record`'s verifier bytes sealed (again) under the sealing key, or `nil` when they need no sealing (already
    /// under the sealing key, or there is none).
    package func resealedVerifier(_ record: PasswordVerifier, width: Int) throws -> [UInt8]? {
        guard needsSealing(record.verifier, isPlain: Self.isUnencryptedVerifier(record.verifier, width: width)) else {
            return nil
        }
        let binding = VerifierBinding.user(record.userID)
        return try storedVerifier(
            try verifier(record.verifier, boundTo: binding, width: width), boundTo: binding, width: width)
    }
}

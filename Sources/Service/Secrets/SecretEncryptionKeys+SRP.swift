import Storage

/// The SRP logins' server secrets at rest. b, with the verifier both stored in the database, is all a reader of
/// the database would need to finish an SRP login it started itself as any user with a password (S = (A·v^u)^b):
/// with a key-encryption key it is stored sealed, bound to its session's id.
extension SecretEncryptionKeys {
    /// An SRP session's b as it is stored.
    package func storedServerSecret(_ secret: [UInt8], sessionID: String) throws -> [UInt8] {
        try stored(secret, context: Self.context(sessionID: sessionID))
    }

    /// The b of a stored SRP session. One stored unencrypted (no key-encryption key then, or a session from
    /// before it) is `PasswordFallback.serverSecretLength` bytes, never an envelope's length.
    package func serverSecret(of session: SRPSession) throws(SecretEncryption.Failure) -> [UInt8] {
        try open(
            session.serverSecret, isPlain: session.serverSecret.count == PasswordFallback.serverSecretLength,
            context: Self.context(sessionID: session.id), what: "SRP session \(session.id)")
    }

    private static func context(sessionID: String) -> [UInt8] {
        Array("srp-server-secret\u{0}".utf8) + Array(sessionID.utf8)
    }
}

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
    /// A user's verifier as it is stored.
    func storedVerifier(_ verifier: [UInt8], userID: String, width: Int) throws -> [UInt8] {
        try storedGroupElement(verifier, width: width, context: Self.verifierContext(userID: userID))
    }

    /// The verifier in a stored record, opened if sealed.
    func verifier(of record: PasswordVerifier, width: Int) throws(SecretEncryption.Failure) -> [UInt8] {
        try openedGroupElement(
            record.verifier, width: width, context: Self.verifierContext(userID: record.userID),
            what: "the password verifier of user \(record.userID)")
    }

    /// A session's copy of the verifier (or of an unknown identity's stand-in) as it is stored.
    func storedSessionVerifier(_ verifier: [UInt8], sessionID: String, width: Int) throws -> [UInt8] {
        try storedGroupElement(verifier, width: width, context: Self.sessionVerifierContext(sessionID: sessionID))
    }

    /// The verifier in a stored SRP session, opened if sealed.
    func verifier(of session: SRPSession, width: Int) throws(SecretEncryption.Failure) -> [UInt8] {
        try openedGroupElement(
            session.verifier, width: width, context: Self.sessionVerifierContext(sessionID: session.id),
            what: "SRP session \(session.id)'s verifier")
    }

    /// `record`'s verifier bytes sealed (again) under the sealing key, or `nil` when they need no sealing (already
    /// under the sealing key, or there is none).
    func resealedVerifier(_ record: PasswordVerifier, width: Int) throws -> [UInt8]? {
        guard let sealing else { return nil }
        if record.verifier.count > width, SecretEncryption.sealer(of: record.verifier) == sealing.fingerprint {
            return nil
        }
        return try storedVerifier(try verifier(of: record, width: width), userID: record.userID, width: width)
    }

    private func storedGroupElement(_ element: [UInt8], width: Int, context: [UInt8]) throws -> [UInt8] {
        guard sealing != nil, element.count <= width else { return element }
        return try stored([UInt8](repeating: 0, count: width - element.count) + element, context: context)
    }

    private func openedGroupElement(_ stored: [UInt8], width: Int, context: [UInt8], what: String)
        throws(SecretEncryption.Failure) -> [UInt8]
    {
        guard stored.count > width else { return stored }
        guard SecretEncryption.isSealed(stored) else {
            throw SecretEncryption.Failure(
                description: "\(what) is \(stored.count) bytes: neither a verifier (at most \(width)) nor sealed")
        }
        return try open(stored, context: context, what: what)
    }

    private static func verifierContext(userID: String) -> [UInt8] {
        Array("srp-verifier\u{0}".utf8) + Array(userID.utf8)
    }

    private static func sessionVerifierContext(sessionID: String) -> [UInt8] {
        Array("srp-session-verifier\u{0}".utf8) + Array(sessionID.utf8)
    }
}

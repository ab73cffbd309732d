import Storage
/// Maps the column list of a SQLite constraint message ("UNIQUE constraint failed: users.realm, users.email")
/// to the `StorageError.Constraint` it guards.
enum SQLiteConstraintNames {
    private static let byColumns: [String: StorageError.Constraint] = [
        "users.id": .userID,
        "users.user_handle": .userHandle,
        "users.realm, users.email": .userEmail,
        "users.realm, users.phone_number": .userPhoneNumber,
        "users.realm, users.username": .userUsername,
        "credentials.credential_id": .credentialID,
        "auth_sessions.id": .authSessionID,
        "refresh_tokens.token_hash": .refreshTokenHash,
        "signing_keys.kid": .signingKeyID,
        "device_keys.key_id": .deviceKeyID,
        "device_challenges.challenge_id": .deviceChallengeID,
        "password_verifiers.realm, password_verifiers.identity": .passwordIdentity,
        "srp_sessions.id": .srpSessionID,
        "device_enrolment_nonces.nonce": .deviceEnrolmentNonce,
    ]

    /// The constraint named by `message`, or nil when it is not one the schema declares.
    static func constraint(forMessage message: String) -> StorageError.Constraint? {
        if message.hasPrefix("FOREIGN KEY constraint failed") { return .foreignKey }
        guard let colon = message.range(of: "constraint failed: ") else { return nil }
        return byColumns[String(message[colon.upperBound...])]
    }
}

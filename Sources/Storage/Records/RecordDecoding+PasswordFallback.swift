import Foundation

/// The column lists and decoders of the password-fallback records, shared by both SQL drivers.
extension RecordDecoding {
    package static var passwordVerifierColumns: String { "user_id, realm, identity, salt, verifier, updated_at" }

    package static func passwordVerifier(_ row: Row) throws(StorageError) -> PasswordVerifier {
        PasswordVerifier(
            userID: try row.text(0), realm: try row.text(1), identity: try row.text(2), salt: try row.bytes(3),
            verifier: try row.bytes(4), updatedAt: try row.date(5))
    }

    package static var srpSessionColumns: String {
        """
            id, client_id, realm, identity, user_id, salt, verifier, client_public, server_secret, server_public, \
            address, created_at, expires_at
        """
    }

    package static func srpSession(_ row: Row) throws(StorageError) -> SRPSession {
        SRPSession(
            id: try row.text(0), clientID: try row.text(1), realm: try row.text(2), identity: try row.text(3),
            userID: try row.optionalText(4), salt: try row.bytes(5), verifier: try row.bytes(6),
            clientPublic: try row.bytes(7), serverSecret: try row.bytes(8), serverPublic: try row.bytes(9),
            address: try row.text(10), createdAt: try row.date(11), expiresAt: try row.date(12))
    }

    package static var fallbackCounterColumns: String { "counter_key, count, last_at" }

    package static func fallbackCounter(_ row: Row) throws(StorageError) -> FallbackCounter {
        FallbackCounter(key: try row.text(0), count: Int(try row.integer(1)), lastAt: try row.date(2))
    }
}

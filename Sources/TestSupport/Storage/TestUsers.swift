import Foundation
import Storage

/// Users that tests mint access tokens for directly: passkeyd's own endpoints refuse a token whose user does not
/// exist (`TokenService.checkSession`), so such a user is stored first, with a placeholder credential.
public enum TestUsers {
    /// Stores user `id` in `realm` unless a user with that id exists.
    public static func ensure(_ id: String, realm: String = "main", in store: any Store) async throws {
        guard try await store.read({ try $0.user(id: id) }) == nil else { return }
        // A user handle and credential id derived from the id: distinct per user, stable per test.
        let handle = Array(id.utf8.prefix(64)) + [0x55]
        let user = User(
            id: id, userHandle: handle, realm: realm, email: nil, phoneNumber: nil, username: nil, name: nil,
            createdAt: Date(timeIntervalSince1970: 1_750_000_000))
        let credential = Credential(
            credentialID: [0xC1] + Array(id.utf8.prefix(64)), userID: id, publicKey: [0xA5], algorithm: -7,
            signCount: 0, uvInitialized: true, backupEligible: false, backedUp: false, transports: [],
            aaguid: [UInt8](repeating: 0, count: 16), attestationFormat: "none", createdAt: user.createdAt)
        try await store.write { writer in
            // Another test task may have stored it meanwhile: that is as good.
            guard try writer.user(id: id) == nil else { return }
            try writer.insertUser(user, credential: credential)
        }
    }
}

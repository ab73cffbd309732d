import Foundation
import Storage

extension StoreConformance {
    typealias S = StoreSamples

    static let userChecks: [Check] = [
        Check("a user and credential inserted together are found by id, handle, identifier and credential id") {
            store in
            let user = S.user(1, username: "alice")
            let credential = S.credential(1, userID: user.id)
            try await store.write { try $0.insertUser(user, credential: credential) }
            let found = try await store.read { reader in
                (
                    try reader.user(id: "user-1"), try reader.user(userHandle: user.userHandle),
                    try reader.user(realm: "main", identifier: .email("u1@example.com")),
                    try reader.user(realm: "main", identifier: .username("alice")),
                    try reader.user(realm: "other", identifier: .email("u1@example.com")),
                    try reader.credential(id: credential.credentialID), try reader.credentials(userID: user.id)
                )
            }
            try expectEqual(found.0, user, "user by id")
            try expectEqual(found.1, user, "user by handle")
            try expectEqual(found.2, user, "user by email")
            try expectEqual(found.3, user, "user by username")
            try expectEqual(found.4, nil, "user of another realm")
            try expectEqual(found.5, credential, "credential by id")
            try expectEqual(found.6, [credential], "credentials of the user")
        },
        Check("a duplicate identifier, handle, user id or credential id is a conflict naming its constraint") {
            store in
            let first = S.user(1, username: "alice")
            try await store.write { try $0.insertUser(first, credential: S.credential(1, userID: first.id)) }
            var sameEmail = S.user(2)
            sameEmail.email = first.email
            var sameName = S.user(3, username: "alice")
            sameName.email = nil
            var samePhone = S.user(4)
            samePhone.phoneNumber = "+15550100"
            var samePhone2 = S.user(5)
            samePhone2.phoneNumber = "+15550100"
            var sameHandle = S.user(6)
            sameHandle.userHandle = first.userHandle
            var sameID = S.user(7)
            sameID.id = first.id
            let cases: [(User, Credential, StorageError.Constraint)] = [
                (sameEmail, S.credential(2, userID: sameEmail.id), .userEmail),
                (sameName, S.credential(3, userID: sameName.id), .userUsername),
                (sameHandle, S.credential(6, userID: sameHandle.id), .userHandle),
                (sameID, S.credential(7, userID: sameID.id), .userID),
                (S.user(8), S.credential(1, userID: "user-8"), .credentialID),
            ]
            for (user, credential, constraint) in cases {
                try await expectStorageError(.conflict, constraint: constraint, "insert \(user.id) (\(constraint))") {
                    try await store.write { try $0.insertUser(user, credential: credential) }
                }
            }
            try await store.write { [samePhone] in
                try $0.insertUser(samePhone, credential: S.credential(4, userID: samePhone.id))
            }
            try await expectStorageError(.conflict, constraint: .userPhoneNumber, "same phone number") {
                try await store.write { [samePhone2] in
                    try $0.insertUser(samePhone2, credential: S.credential(5, userID: "user-5"))
                }
            }
            // The same email in another realm is another user.
            var otherRealm = S.user(9, realm: "other")
            otherRealm.email = first.email
            try await store.write { [otherRealm] in
                try $0.insertUser(otherRealm, credential: S.credential(9, userID: "user-9"))
            }
            let count = try await store.read { reader in
                try (1...9).compactMap { try reader.user(id: "user-\($0)") }.count
            }
            try expectEqual(count, 3, "users stored (user-1, user-4, user-9)")
        },
        Check("a conflict caught inside the body leaves nothing of the failed insert, and the body can go on") {
            store in
            let first = S.user(1)
            try await store.write { try $0.insertUser(first, credential: S.credential(1, userID: first.id)) }
            let outcome = try await store.write { writer -> String in
                var clash = S.user(2)
                clash.email = first.email
                do {
                    try writer.insertUser(clash, credential: S.credential(2, userID: clash.id))
                    return "no conflict"
                } catch let error as StorageError {
                    try writer.insertUser(S.user(3), credential: S.credential(3, userID: "user-3"))
                    return "\(error.code)"
                }
            }
            try expectEqual(outcome, "conflict", "caught error")
            let state = try await store.read { reader in
                (
                    try reader.user(id: "user-2"), try reader.credential(id: S.credential(2, userID: "").credentialID),
                    try reader.user(id: "user-3") != nil
                )
            }
            try expect(state.0 == nil && state.1 == nil, "the failed insert left rows behind")
            try expect(state.2, "the insert after the caught conflict was lost")
        },
        Check("another credential can be added to a user, not to an unknown user") { store in
            let user = S.user(1)
            try await store.write { try $0.insertUser(user, credential: S.credential(1, userID: user.id)) }
            var second = S.credential(2, userID: user.id)
            second.transports = []
            second.lastUsedAt = S.at(50)
            try await store.write { [second] in try $0.insertCredential(second) }
            let listed = try await store.read { try $0.credentials(userID: "user-1") }
            try expectEqual(listed, [S.credential(1, userID: user.id), second], "credentials oldest first")
            try await expectStorageError(.conflict, constraint: .credentialID, "duplicate credential") {
                try await store.write { try $0.insertCredential(S.credential(2, userID: "user-1")) }
            }
            try await expectStorageError(.notFound, "credential of an unknown user") {
                try await store.write { try $0.insertCredential(S.credential(3, userID: "nobody")) }
            }
        },
        Check("the counter update applies only when the stored counter is the one the verifier saw") { store in
            let user = S.user(1)
            let credential = S.credential(1, userID: user.id, signCount: 5)
            try await store.write { try $0.insertUser(user, credential: credential) }
            let use = CredentialUse(
                credentialID: credential.credentialID, expectedSignCount: 5, newSignCount: 6, backedUp: true,
                usedAt: S.at(60))
            let first = try await store.write { try $0.recordCredentialUse(use) }
            let replay = try await store.write { try $0.recordCredentialUse(use) }
            var unknown = use
            unknown.credentialID = [0xFF]
            let missing = try await store.write { [unknown] in try $0.recordCredentialUse(unknown) }
            try expect(first, "first compare-and-set did not apply")
            try expect(!replay, "second compare-and-set with a stale counter applied")
            try expect(!missing, "compare-and-set on an unknown credential applied")
            let stored = try await store.read { try $0.credential(id: credential.credentialID) }
            try expectEqual(stored?.signCount, 6, "counter")
            try expectEqual(stored?.backedUp, true, "backup state")
            try expectEqual(stored?.lastUsedAt, S.at(60), "last used")
        },
    ]
}

import Foundation
import Storage

extension StoreConformance {
    /// Migration v8 (issue #20): profile claims on users and sign-up sessions, and a refresh family's API.
    static let profileChecks: [Check] = [
        Check("profile claims round-trip on a user, a sign-up session (through its consumption) and a login lookup") {
            store in
            let profile = ProfileAttributes(
                givenName: "Alice", familyName: "Liddell", nickname: "ally", picture: "https://example.com/a.png",
                userMetadata: #"{"plan":"gold","prefs":{"lang":"fr"}}"#)
            let user = S.user(1).with(profile: profile)
            let credential = S.credential(1, userID: user.id)
            let session = AuthSession(
                id: "session-p", clientID: "app", realm: "main", kind: .signup, challenge: S.bytes(1),
                email: "p@example.com", userHandle: S.bytes(2), createdAt: S.at(0), expiresAt: S.at(60),
                profile: profile)
            try await store.write { writer in
                try writer.insertUser(user, credential: credential)
                try writer.insertAuthSession(session)
            }
            let found = try await store.read { try $0.user(id: user.id) }
            try expectEqual(found, user, "user with profile")
            let lookup = try await store.read { try $0.loginCredential(id: credential.credentialID) }
            try expectEqual(lookup.user?.profile, profile, "profile through the login lookup")
            let consumed = try await store.write { try $0.consumeAuthSession(id: "session-p", now: S.at(1)) }
            try expectEqual(consumed, session, "sign-up session with profile")
            let bare = S.user(2)
            try await store.write { try $0.insertUser(bare, credential: S.credential(2, userID: bare.id)) }
            try expectEqual(
                try await store.read { try $0.user(id: bare.id) }?.profile, ProfileAttributes(), "no profile")
        },
        Check("a refresh token's audience is stored and carried to its successor; none stays none") { store in
            let first = S.refreshToken(1).with(audience: "https://api.example.com/")
            try await store.write { try $0.insertRefreshToken(first) }
            let next = S.refreshToken(2, createdAt: S.at(10)).with(audience: first.audience)
            _ = try await store.write {
                try $0.markRefreshTokenRotated(presentedHash: first.tokenHash, now: S.at(10), replacement: next)
            }
            let family = try await store.read { try $0.refreshTokens(familyID: "family-1") }
            try expectEqual(family.map(\.audience), [first.audience, first.audience], "audiences of the family")
            let legacy = S.refreshToken(3, family: "family-3")
            try await store.write { try $0.insertRefreshToken(legacy) }
            try expectEqual(
                try await store.read { try $0.refreshToken(hash: legacy.tokenHash) }?.audience, nil, "no audience")
        },
    ]
}

extension User {
    /// This user with `profile`.
    fileprivate func with(profile: ProfileAttributes) -> User {
        var copy = self
        copy.profile = profile
        return copy
    }
}

extension RefreshToken {
    /// This token with `audience`.
    fileprivate func with(audience: String?) -> RefreshToken {
        var copy = self
        copy.audience = audience
        return copy
    }
}

import Crypto
import Foundation
import Storage
import TestSupport
import Testing

@testable import Service

@Suite("Sealed auth sessions: what /passkey/challenge and /passkey/register hand out instead of storing")
struct AuthSessionSealerTests {
    static let instant = Date(timeIntervalSince1970: 1_780_000_000.123_456)

    static func sealer() throws -> AuthSessionSealer {
        try AuthSessionSealer(secret: try SecureRandom.bytes(count: 32))
    }

    static func login() throws -> AuthSession {
        AuthSession(
            id: try AuthSessionSealer.newSessionID(now: Date()), clientID: "app", realm: "main", kind: .login,
            challenge: try SecureRandom.bytes(count: 32), createdAt: instant, expiresAt: instant.addingTimeInterval(90))
    }

    /// A sign-up with every profile field, some of them long and not ASCII.
    static func signup() throws -> AuthSession {
        AuthSession(
            id: try AuthSessionSealer.newSessionID(now: Date()), clientID: "app", realm: "rëalm", kind: .signup,
            challenge: try SecureRandom.bytes(count: 32), email: "zoë@example.com", phoneNumber: "+33612345678",
            username: "zoe_99", name: String(repeating: "Zoë ", count: 64),
            userHandle: try SecureRandom.bytes(count: 32),
            createdAt: instant, expiresAt: instant.addingTimeInterval(90),
            profile: ProfileAttributes(
                givenName: "Zoë", familyName: "Ünder", nickname: "z",
                picture: "https://example.com/"
                    + String(
                        repeating: "p", count: 2_000),
                userMetadata: #"{"plan":"gold","notes":""# + String(repeating: "n", count: 4_000) + #""}"#))
    }

    @Test("a login and a sign-up with every field open to the sessions sealed, instants exactly")
    func roundTrip() throws {
        let sealer = try Self.sealer()
        for session in [try Self.login(), try Self.signup()] {
            let value = try sealer.seal(session)
            #expect(Base64URL.decode(value) != nil)
            #expect(value.utf8.count <= AuthSessionSealer.maximumValueLength)
            #expect(sealer.open(value) == session)
        }
        // A sign-up with no optional field but an identifier, and an empty user handle.
        var sparse = try Self.signup()
        (sparse.phoneNumber, sparse.username, sparse.name, sparse.profile) = (nil, nil, nil, ProfileAttributes())
        #expect(sealer.open(try sealer.seal(sparse)) == sparse)
        // Compact: a login session is about 140 characters (no JSON, the challenge once).
        #expect(try sealer.seal(try Self.login()).count < 160)
    }

    @Test("a login's and a sign-up's organization, id and name, travel in the sealed session")
    func organization() throws {
        let sealer = try Self.sealer()
        for var session in [try Self.login(), try Self.signup()] {
            (session.organizationID, session.organizationName) = ("org_aaAA1aa11aAAAA1a", "acme-corp")
            let opened = sealer.open(try sealer.seal(session))
            #expect(opened == session)
            #expect(opened?.organizationID == "org_aaAA1aa11aAAAA1a" && opened?.organizationName == "acme-corp")
        }
        #expect(sealer.open(try sealer.seal(try Self.login()))?.organizationID == nil, "a session in none")
        // The plaintext ends with the organization: a value of the format before it is not a session.
        var withOrganization = try Self.login()
        withOrganization.organizationID = "org_x"
        let encoded = try AuthSessionCoding.encode(withOrganization)
        #expect(AuthSessionCoding.decode(Array(encoded.dropLast(2))) == nil, "truncated in the organization")
        #expect(AuthSessionCoding.decode(try AuthSessionCoding.encode(try Self.login()).dropLast().map { $0 }) == nil)
        #expect(AuthSessionSealer.version == 2)
    }

    @Test("two sealings of one session differ (a fresh nonce each), and the value shows none of its contents")
    func opaque() throws {
        let sealer = try Self.sealer()
        let session = try Self.signup()
        let (first, second) = (try sealer.seal(session), try sealer.seal(session))
        #expect(first != second)
        let bytes = try #require(Base64URL.decode(first))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("example.com"))
        #expect(!first.contains(session.id))
    }

    @Test("a flipped bit anywhere (version, nonce, ciphertext, tag) does not open")
    func tampering() throws {
        let sealer = try Self.sealer()
        let bytes = try #require(Base64URL.decode(try sealer.seal(try Self.login())))
        let tagStart = bytes.count - AES256GCM.tagByteCount
        // The version byte, the nonce's first and last, the ciphertext's first and last, the tag's first and last.
        let positions =
            [0, 1, AES256GCM.nonceByteCount, 1 + AES256GCM.nonceByteCount, tagStart - 1, tagStart]
            + [bytes.count - 1]
        for position in positions {
            for bit in [0, 7] {
                var altered = bytes
                altered[position] ^= 1 << UInt8(bit)
                #expect(sealer.open(Base64URL.encode(altered)) == nil, "byte \(position) bit \(bit)")
            }
        }
        #expect(sealer.open(Base64URL.encode(bytes)) != nil, "the untouched value opens")
    }

    @Test("truncated, extended, empty, another key, another version, oversized or not base64url: none opens")
    func refusals() throws {
        let sealer = try Self.sealer()
        let value = try sealer.seal(try Self.login())
        let bytes = try #require(Base64URL.decode(value))
        for count in [0, 1, 13, 29, bytes.count - 1] {
            #expect(sealer.open(Base64URL.encode(bytes.prefix(count))) == nil, "\(count) bytes")
        }
        #expect(sealer.open(Base64URL.encode(bytes + [0])) == nil, "a byte appended")
        #expect(sealer.open("") == nil)
        #expect(try Self.sealer().open(value) == nil, "another key")
        var otherVersion = bytes
        otherVersion[0] = AuthSessionSealer.version + 1
        #expect(sealer.open(Base64URL.encode(otherVersion)) == nil, "another version")
        #expect(sealer.open(value + "=") == nil && sealer.open("+" + value.dropFirst()) == nil)
        #expect(sealer.open(String(value.dropLast()) + "!") == nil, "not base64url")
        // A handle from before sealing (32 random bytes, 43 characters) is an unknown session.
        #expect(sealer.open(Base64URL.encode(try SecureRandom.bytes(count: 32))) == nil)
        let oversized = String(repeating: "A", count: AuthSessionSealer.maximumValueLength + 4)
        #expect(sealer.open(oversized) == nil)
        // Sealing refuses to make a value past the bound.
        var bulky = try Self.signup()
        bulky.profile.userMetadata = String(repeating: "m", count: 20_000)
        #expect(throws: OAuthError.self) { try sealer.seal(bulky) }
    }

    @Test("the same plaintext under the same key but another purpose's associated data does not open")
    func otherPurpose() throws {
        let secret = try SecureRandom.bytes(count: 32)
        let sealer = try AuthSessionSealer(secret: secret)
        let key = try HKDF.sha256(secret: secret, info: AuthSessionSealer.keyPurpose, length: 32)
        let plaintext = try AuthSessionCoding.encode(try Self.login())
        let foreign = try AES256GCM(key: key).seal(plaintext, associatedData: Array("another purpose".utf8))
        #expect(sealer.open(Base64URL.encode([AuthSessionSealer.version] + foreign)) == nil)
        let right = try AES256GCM(key: key).seal(
            plaintext, associatedData: Array("passkeyd auth_session\u{0}".utf8) + [AuthSessionSealer.version])
        #expect(sealer.open(Base64URL.encode([AuthSessionSealer.version] + right)) != nil)
    }

    @Test("nodes loading the key from one store share it; with a key-encryption key it is stored sealed")
    func sharedKey() async throws {
        let store = MemoryStore()
        let (first, second) = (AuthSessionKey(), AuthSessionKey())
        try await first.load(store: store, keys: .none)
        try await second.load(store: store, keys: .none)
        let value = try first.sealer().seal(try Self.login())
        #expect(try second.sealer().open(value) != nil)
        let stored = try #require(try await store.read { try $0.serverSecret(name: AuthSessionKey.secretName) })
        #expect(stored.count == SecretEncryptionKeys.namedSecretLength)
        // Unloaded: a bug, not a key of its own.
        #expect(throws: OAuthError.self) { try AuthSessionKey().sealer() }

        let sealedStore = MemoryStore()
        let keys = SecretEncryptionKeys(
            sealing: try SecretEncryption(key: try SecureRandom.bytes(count: 32)), openingOnly: [])
        try await AuthSessionKey().load(store: sealedStore, keys: keys)
        let envelope = try #require(
            try await sealedStore.read { try $0.serverSecret(name: AuthSessionKey.secretName) })
        #expect(!SecretEncryptionKeys.isUnencryptedNamedSecret(envelope))
        #expect(try keys.namedSecret(envelope, name: AuthSessionKey.secretName).count == 32)
    }
}

import Crypto
import Foundation
import Storage
import Testing

@testable import Service

@Suite("Sealed hosted transactions: the authorization request the hosted page carries")
struct HostedTransactionSealerTests {
    static let instant = Date(timeIntervalSince1970: 1_780_000_000.123_456)

    static func transaction() throws -> HostedTransaction {
        var transaction = HostedTransaction(
            clientID: "web", redirectURI: "https://app.example.com/callback",
            codeChallenge: String(repeating: "c", count: 43),
            scope: "openid profile", csrf: try HostedTransactionSealer.newCSRFValue(),
            expiresAt: instant.addingTimeInterval(HostedTransaction.lifetime))
        (transaction.audience, transaction.organization, transaction.nonce) = ("https://api", "org_1", "n-0")
        (transaction.state, transaction.prompt, transaction.maxAge, transaction.loginHint) = ("s&t", "login", 0, "zoë")
        transaction.dpopThumbprint = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
        return transaction
    }

    @Test("a transaction opens to what was sealed, every field, until it expires")
    func roundTrip() throws {
        let secret = try SecureRandom.bytes(count: 32)
        let sealer = try HostedTransactionSealer(secret: secret)
        let full = try Self.transaction()
        let value = try sealer.seal(full)
        #expect(sealer.open(value, now: Self.instant) == full)
        #expect(sealer.open(value, now: full.expiresAt.addingTimeInterval(-0.001)) == full)
        #expect(sealer.open(value, now: full.expiresAt) == nil)
        let sparse = HostedTransaction(
            clientID: "web", redirectURI: "https://app.example.com/callback", codeChallenge: "x", scope: "openid",
            csrf: "y", expiresAt: full.expiresAt)
        #expect(sealer.open(try sealer.seal(sparse), now: Self.instant) == sparse)
        // Another node with the same secret opens it.
        #expect(try HostedTransactionSealer(secret: secret).open(value, now: Self.instant) == full)
    }

    @Test("an altered, truncated or foreign value does not open; neither purpose opens the other's values")
    func refusals() throws {
        let secret = try SecureRandom.bytes(count: 32)
        let sealer = try HostedTransactionSealer(secret: secret)
        let value = try sealer.seal(try Self.transaction())
        var bytes = try #require(Base64URL.decode(value))
        bytes[20] ^= 1
        #expect(sealer.open(Base64URL.encode(bytes), now: Self.instant) == nil)
        #expect(sealer.open(String(value.dropLast(4)), now: Self.instant) == nil)
        #expect(sealer.open("", now: Self.instant) == nil)
        #expect(
            try HostedTransactionSealer(secret: try SecureRandom.bytes(count: 32)).open(value, now: Self.instant) == nil
        )
        // The auth sessions' sealer, under the same secret, opens no transaction, and the reverse.
        let sessions = try AuthSessionSealer(secret: secret)
        #expect(sessions.open(value) == nil)
        let session = AuthSession(
            id: try AuthSessionSealer.newSessionID(now: Date()), clientID: "web", realm: "main", kind: .login,
            challenge: try SecureRandom.bytes(count: 32), createdAt: Self.instant,
            expiresAt: Self.instant.addingTimeInterval(90))
        #expect(sealer.open(try sessions.seal(session), now: Self.instant) == nil)
    }
}

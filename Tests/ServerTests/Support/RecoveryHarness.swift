import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Account recovery with recovery codes at router level: a `PasskeyHarness` whose clients `app` and `other` may
/// also use the recovery grant.
struct RecoveryHarness {
    static let grant = "urn:passkeyd:params:oauth:grant-type:recovery-code"
    let passkeys: PasskeyHarness

    init(_ extra: [String: String] = [:], store: any Store = MemoryStore()) throws {
        passkeys = try Self.passkeys(allowing: [Self.grant], extra, store: store)
    }

    /// Recovery on `passkeys`.
    init(wrapping passkeys: PasskeyHarness) {
        self.passkeys = passkeys
    }

    /// A passkey harness whose clients `app` and `other` may also use `grants`.
    static func passkeys(allowing grants: [String], _ extra: [String: String] = [:], store: any Store = MemoryStore())
        throws -> PasskeyHarness
    {
        var overrides = PasskeyHarness.overrides
        let added = grants.map { ", \"\($0)\"" }.joined()
        overrides["PASSKEYD_CLIENTS"] = overrides["PASSKEYD_CLIENTS"]?.replacingOccurrences(
            of: "\"refresh_token\"]", with: "\"refresh_token\"\(added)]")
        return try PasskeyHarness(overrides.merging(extra) { _, new in new }, store: store)
    }

    /// Both fallbacks, SRP and recovery, on one application.
    static func withSRP(_ extra: [String: String] = [:], store: any Store = MemoryStore()) throws -> (
        SRPHarness, RecoveryHarness
    ) {
        let passkeys = try passkeys(allowing: [SRPHarness.grant, grant], extra, store: store)
        return (try SRPHarness(wrapping: passkeys), RecoveryHarness(wrapping: passkeys))
    }

    var clock: TestClock { passkeys.clock }
    var store: any Store { passkeys.context.store }

    /// Signs `passkey` up as `email` (for the account API, what `/me/…` takes) and generates its recovery codes with
    /// the sign-up's fresh token; returns them.
    func signUpWithCodes(_ passkey: inout Passkey, email: String = "alice@example.com") async throws -> [String] {
        let tokens = try await passkeys.signUp(
            &passkey, email: email, audience: passkeys.context.tokens.accountAudience)
        return try await codes(accessToken: try #require(tokens["access_token"]?.stringValue))
    }

    /// `POST /me/recovery-codes` with a fresh login's `accessToken` (expects 201); returns the codes.
    func codes(accessToken: String) async throws -> [String] {
        let response = await passkeys.client.execute(
            .post, "/me/recovery-codes", headers: ["Authorization": "Bearer \(accessToken)"])
        try #require(response.status == 201, "recovery codes: \(response.status) \(response.bodyText)")
        return try response.jsonValue()["recovery_codes"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// `POST /recovery/challenge` for `identifier`.
    func challenge(identifier: String, clientID: String = "app") async -> Response {
        await passkeys.post(
            "/recovery/challenge", ["client_id": .string(clientID), "identifier": .string(identifier)])
    }

    /// A recovery session for `identifier` (expects 200).
    func session(identifier: String, clientID: String = "app") async throws -> String {
        let response = await challenge(identifier: identifier, clientID: clientID)
        try #require(response.status == 200, "recovery challenge: \(response.status) \(response.bodyText)")
        return try #require(try response.jsonValue()["auth_session"]?.stringValue)
    }

    /// `POST /oauth/token` with the recovery grant.
    func redeem(session: String, code: String, clientID: String = "app") async -> Response {
        await passkeys.post(
            "/oauth/token",
            [
                "grant_type": .string(Self.grant), "client_id": .string(clientID), "auth_session": .string(session),
                "recovery_code": .string(code),
            ])
    }

    /// A whole recovery: the challenge (expects 200), then the grant with `code`.
    func recover(identifier: String, code: String, clientID: String = "app") async throws -> Response {
        await redeem(
            session: try await session(identifier: identifier, clientID: clientID), code: code, clientID: clientID)
    }

    /// Every security event so far.
    func events() async throws -> [SecurityEvent] {
        try await store.read { try $0.securityEvents(after: 0, limit: 10_000) }
    }
}

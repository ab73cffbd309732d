import Foundation
import HTTP
import JSON
import Storage
import Synchronization
import TestSupport
import Testing
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// A refused refresh leaves the presented token valid. A client that retries after a refusal (Auth0.swift's
/// `credentials(withScope:)`, Android's `getApiCredentials`) must not be taken for a thief replaying a spent token.
@Suite("POST /oauth/token, refresh_token grant: a refusal spends nothing")
struct RefreshTokenRefusalTests {
    /// One way to get a refresh refused after the token is recognised.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        /// Members added to (or replacing those of) `{grant_type, client_id: app, refresh_token}`.
        let extra: [String: JSONValue]
        let status: Int
        let error: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "wider scope", extra: ["scope": "openid phone"], status: 400, error: "invalid_scope"),
        Refusal(name: "scope not a string", extra: ["scope": .number("7")], status: 400, error: "invalid_request"),
        Refusal(name: "malformed scope", extra: ["scope": "openid \"profile\""], status: 400, error: "invalid_request"),
        Refusal(
            name: "audience too long", extra: ["audience": .string(String(repeating: "a", count: 513))], status: 400,
            error: "invalid_request"),
        Refusal(name: "audience empty", extra: ["audience": ""], status: 400, error: "invalid_request"),
        Refusal(
            name: "audience not a string", extra: ["audience": .number("42")], status: 400, error: "invalid_request"),
        Refusal(name: "audience with a space", extra: ["audience": "my api"], status: 400, error: "invalid_request"),
        Refusal(
            name: "audience not ASCII", extra: ["audience": "https://api.exämple.com"], status: 400,
            error: "invalid_request"),
        Refusal(
            name: "audience with a colon, not a URI", extra: ["audience": ":api"], status: 400, error: "invalid_request"
        ),
        Refusal(name: "another client", extra: ["client_id": "other"], status: 403, error: "invalid_grant"),
        Refusal(
            name: "a client without the grant", extra: ["client_id": "no-refresh"], status: 403,
            error: "unauthorized_client"),
        Refusal(name: "an unknown client", extra: ["client_id": "ghost"], status: 401, error: "invalid_client"),
    ]

    /// `POST /oauth/token` with the refresh_token grant for `token`, with `extra` members.
    static func refresh(_ harness: PasskeyHarness, _ token: String, _ extra: [String: JSONValue]) async -> Response {
        var members: [String: JSONValue] = [
            "grant_type": "refresh_token", "client_id": "app", "refresh_token": .string(token),
        ]
        members.merge(extra) { _, new in new }
        return await harness.post(
            "/oauth/token", .object(members.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) })
        )
    }

    @Test("each refusal, then the same token → 200", arguments: refusals)
    func refusalKeepsToken(_ refusal: Refusal) async throws {
        let (harness, token) = try await RefreshTokenGrantTests.loggedIn()
        let refused = await Self.refresh(harness, token, refusal.extra)
        #expect(refused.status == refusal.status, "\(refused.bodyText)")
        #expect(refused.errorCode == refusal.error)
        let retried = await harness.refresh(token)
        #expect(retried.status == 200, "\(retried.bodyText)")
        #expect(!harness.counted("refresh_token_reuse"))
    }

    @Test("a spent token presented with a wider scope is still reuse: the family is revoked")
    func spentTokenWithWiderScope() async throws {
        let (harness, token) = try await RefreshTokenGrantTests.loggedIn()
        let rotated = await harness.refresh(token)
        #expect(rotated.status == 200, "\(rotated.bodyText)")
        let successor = try #require(try rotated.jsonValue()["refresh_token"]?.stringValue)
        // RFC 9700 §4.14.2: the request's own checks protect a live token only; a replayed one is reuse.
        let replayed = await Self.refresh(harness, token, ["scope": "openid phone"])
        #expect(replayed.status == 403)
        #expect(replayed.errorCode == "invalid_grant")
        #expect(harness.counted("refresh_token_reuse"))
        #expect(await harness.refresh(successor).status == 403)
    }

    @Test("a well-formed audience of a granted API is accepted: a URI, or a name without a colon")
    func goodAudience() async throws {
        for audience in ["https://api.example.com/v1", "urn:example:payments", "payments-api"] {
            let harness = try PasskeyHarness([
                "PASSKEYD_APIS": #"[{"identifier": "\#(audience)"}]"#,
                "PASSKEYD_CLIENT_GRANTS": #"[{"client_id": "app", "audience": "\#(audience)"}]"#,
            ])
            var authenticator = Passkey()
            let body = try await harness.signUp(&authenticator, audience: audience)
            let token = try #require(body["refresh_token"]?.stringValue)
            let response = await Self.refresh(harness, token, ["audience": .string(audience), "scope": "openid"])
            #expect(response.status == 200, "\(audience): \(response.bodyText)")
            let access = try await WebAuthnGrantTests.verify(
                try #require(try response.jsonValue()["access_token"]?.stringValue), type: "at+jwt",
                audience: audience, harness: harness)
            #expect(access.audience == [audience, "https://auth.example.com/"])
        }
    }

    @Test("the webauthn grant refuses the same audiences before the session is spent")
    func webAuthnGrantAudience() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let assertion = try authenticator.assert(options)
        let refused = await harness.post(
            "/oauth/token",
            [
                "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": "app",
                "auth_session": .string(session), "authn_response": assertion, "audience": "my api",
            ])
        #expect(refused.status == 400)
        #expect(refused.errorCode == "invalid_request")
        #expect(await harness.token(session: session, response: assertion).status == 200)
    }

    @Test("a signing key that cannot be loaded is a 500 that spends nothing")
    func keyLoadFailure() async throws {
        let store = ReadFailingStore()
        let harness = try PasskeyHarness(store: store)
        var authenticator = Passkey()
        let token = try #require(try await harness.signUp(&authenticator)["refresh_token"]?.stringValue)
        // Past the key ring's reload interval, the next mint reads the keys again: make that read fail.
        harness.clock.advance(TokenService.reloadInterval + 1)
        store.failsReads.withLock { $0 = true }
        let failed = await harness.refresh(token)
        #expect(failed.status == 500)
        store.failsReads.withLock { $0 = false }
        let retried = await harness.refresh(token)
        #expect(retried.status == 200, "\(retried.bodyText)")
    }
}

/// A memory store whose reads fail while `failsReads` is set; writes always work.
private final class ReadFailingStore: Store {
    struct ReadFailed: Error {}
    let failsReads = Mutex(false)
    private let base = MemoryStore()

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        if failsReads.withLock({ $0 }) { throw ReadFailed() }
        return try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        try await base.write(body)
    }

    func close() async { await base.close() }
}

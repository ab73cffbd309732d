import Crypto
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

/// The client side of SRP-6a for the server tests (Crypto's `SRP6a` client functions, RFC 5054 §2.6), on a
/// `PasskeyHarness` whose clients may use the SRP grant.
struct SRPHarness {
    static let grant = "urn:passkeyd:params:oauth:grant-type:srp6a"
    let passkeys: PasskeyHarness
    let srp: SRP6a

    /// `PasskeyHarness`'s clients, each also allowed the SRP grant.
    static let clientsOverride = PasskeyHarness.overrides["PASSKEYD_CLIENTS"]?.replacingOccurrences(
        of: "\"refresh_token\"]", with: "\"refresh_token\", \"\(grant)\"]")

    init(_ extra: [String: String] = [:], store: any Store = MemoryStore()) throws {
        var overrides = PasskeyHarness.overrides
        overrides["PASSKEYD_CLIENTS"] = Self.clientsOverride
        passkeys = try PasskeyHarness(overrides.merging(extra) { _, new in new }, store: store)
        srp = SRP6a(group: try .rfc5054Group3072(), hash: .sha256)
    }

    /// SRP on `passkeys`, whose clients must allow the SRP grant.
    init(wrapping passkeys: PasskeyHarness) throws {
        self.passkeys = passkeys
        srp = SRP6a(group: try .rfc5054Group3072(), hash: .sha256)
    }

    var clock: TestClock { passkeys.clock }
    var store: any Store { passkeys.context.store }

    /// Signs up `email` with a user-verified passkey; returns the token response. By default for the account API
    /// (`<issuer>me/`), whose token sets the password verifier (`/me/password-verifier`).
    func signUp(_ passkey: inout Passkey, email: String = "alice@example.com", audience: String? = nil)
        async throws -> JSONValue
    {
        try await passkeys.signUp(
            &passkey, email: email, audience: audience ?? passkeys.context.tokens.accountAudience)
    }

    /// `salt` and the verifier of `password` for `identity`.
    func verifier(identity: String, password: String, salt: [UInt8] = Array(1...16)) throws -> [UInt8] {
        try srp.verifier(privateKey: srp.privateKey(identity: identity, password: password, salt: salt))
    }

    /// `POST /me/password-verifier` with `accessToken`.
    func enrol(_ body: JSONValue, accessToken: String) async -> Response {
        await passkeys.client.post(
            "/me/password-verifier", json: body, headers: ["Authorization": "Bearer \(accessToken)"])
    }

    /// Enrols `password` for `identity` (expects 204).
    func enrol(identity: String, password: String, accessToken: String) async throws {
        let salt: [UInt8] = Array(1...16)
        let response = await enrol(
            [
                "identity": .string(identity), "salt": .string(Base64URL.encode(salt)),
                "verifier": .string(
                    Base64URL.encode(try verifier(identity: identity, password: password, salt: salt))),
            ], accessToken: accessToken)
        try #require(response.status == 204, "enrol: \(response.status) \(response.bodyText)")
    }

    /// `POST /srp/challenge`.
    func challenge(identity: String, clientPublic: String, clientID: String = "app") async -> Response {
        await passkeys.post(
            "/srp/challenge",
            ["client_id": .string(clientID), "identity": .string(identity), "A": .string(clientPublic)])
    }

    /// `POST /oauth/token` with the SRP grant.
    func token(session: String, proof: String, clientID: String = "app", audience: String? = nil) async -> Response {
        var body: [JSONMember] = [
            JSONMember(key: "grant_type", value: .string(Self.grant)),
            JSONMember(key: "client_id", value: .string(clientID)),
            JSONMember(key: "auth_session", value: .string(session)), JSONMember(key: "M1", value: .string(proof)),
            JSONMember(key: "scope", value: "openid offline_access"),
        ]
        if let audience { body.append(JSONMember(key: "audience", value: .string(audience))) }
        return await passkeys.post("/oauth/token", .object(body))
    }

    /// One whole SRP login: the challenge, proof from `password`, the token request. Returns the token response and
    /// the M2 the client expects.
    func logIn(identity: String, password: String, audience: String? = nil) async throws -> (
        response: Response, expectedM2: [UInt8]
    ) {
        let a = try SecureRandom.bytes(count: 32)
        let publicA = try srp.clientPublic(secret: a)
        let answer = await challenge(identity: identity, clientPublic: Base64URL.encode(publicA))
        try #require(answer.status == 200, "challenge: \(answer.status) \(answer.bodyText)")
        let body = try answer.jsonValue()
        let salt = try #require(Base64URL.decode(body["salt"]?.stringValue ?? ""))
        let publicB = try #require(Base64URL.decode(body["B"]?.stringValue ?? ""))
        let x = srp.privateKey(identity: identity, password: password, salt: salt)
        let premaster = try srp.clientPremasterSecret(
            serverPublic: publicB, privateKey: x, clientSecret: a, clientPublic: publicA)
        let key = srp.sessionKey(premasterSecret: premaster)
        let proof = srp.clientProof(
            identity: identity, salt: salt, clientPublic: publicA, serverPublic: publicB, sessionKey: key)
        let response = await token(
            session: try #require(body["auth_session"]?.stringValue), proof: Base64URL.encode(proof), audience: audience
        )
        return (response, srp.serverProof(clientPublic: publicA, clientProof: proof, sessionKey: key))
    }

    /// The claims of a JWT (unverified: the tests that need verification verify elsewhere).
    static func claims(_ jwt: String) throws -> JSONValue {
        let parts = jwt.split(separator: ".")
        try #require(parts.count == 3)
        return try JSONValue(parsing: try #require(Base64URL.decode(String(parts[1]))))
    }

    /// Every security event so far.
    func events() async throws -> [SecurityEvent] {
        try await store.read { try $0.securityEvents(after: 0, limit: 10_000) }
    }
}

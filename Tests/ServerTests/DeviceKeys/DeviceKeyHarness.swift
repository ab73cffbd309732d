import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// A simulated phone: a P-256 key standing in for the Secure Enclave / Keystore key, exported the way its
/// platform exports it.
struct TestDevice {
    let deviceID: String
    let platform: String
    let key: P256SigningKey

    init(deviceID: String = "phone-1", platform: String = "ios") throws {
        self.deviceID = deviceID
        self.platform = platform
        self.key = try P256SigningKey()
    }

    /// iOS `SecKeyCopyExternalRepresentation`: the 65-byte X9.62 point; Android `getEncoded()`: SPKI DER.
    var exportedPublicKey: [UInt8] {
        platform == "ios" ? key.publicKey.x963Representation : key.publicKey.derRepresentation
    }

    /// The registration body.
    var registration: JSONValue {
        [
            "device_id": .string(deviceID), "platform": .string(platform),
            "public_key": .string(Base64URL.encode(exportedPublicKey)),
        ]
    }

    /// Signs the base64url `challenge` of a challenge response (ECDSA P-256 / SHA-256, X9.62 DER), base64url.
    func sign(challenge: String) throws -> String {
        guard let bytes = Base64URL.decode(challenge) else { throw URLError(.cannotDecodeContentData) }
        return Base64URL.encode(try key.signature(for: bytes))
    }
}

/// The server at router level (no sockets) over a memory store (or the one given) and a settable clock, with access tokens minted
/// by its own token service.
struct DeviceKeyHarness {
    static let transfer: JSONValue = [
        "type": "transfer", "amount": "200.00", "currency": "EUR",
        "creditor_account": "FR7630006000011234567890189",
    ]

    let clock: TestClock
    let store: any Store
    let context: ServerContext
    let client: TestClient

    init(_ overrides: [String: String] = [:], store: any Store = MemoryStore()) throws {
        clock = TestClock()
        self.store = store
        context = ServerContext(
            configuration: try TestConfiguration.make(overrides), store: store,
            logger: Logger(sink: { _ in }),
            clock: clock)
        client = TestClient(responder: Application(context: context))
    }

    /// An access token for `sub`, as a user-verified passkey login at `authTime` (default: now) asking for the
    /// device-key audience would issue it; `issuedAt` (default: the login) later than the login is what the refresh
    /// grant mints, `audience` and `methods` replace the claims.
    func token(
        _ sub: String = "user-a", authTime: Date? = nil, issuedAt: Date? = nil, audience: [String]? = nil,
        methods: [String] = ["hwk", "user"]
    ) async throws -> HTTPHeaders {
        try await TestUsers.ensure(sub, in: store)
        let now = clock.now()
        let login = authTime ?? now
        let minted = issuedAt ?? login
        let claims = AccessTokenClaims(
            issuer: context.configuration.issuer, subject: sub,
            audience: audience ?? [context.tokens.deviceKeyAudience, context.tokens.defaultAudience],
            clientID: "app", scope: ["openid"], issuedAt: minted, expiresAt: now.addingTimeInterval(3600),
            jwtID: try TokenService.randomIdentifier(), authTime: login, authenticationMethods: methods)
        let token = try await context.tokens.currentRing().signer.sign(claims)
        return ["Authorization": "Bearer \(token)"]
    }

    /// An access token string as `token` mints it, bound to `prover`'s key (RFC 9449 §6.1 `cnf.jkt`) when given.
    func accessToken(
        _ sub: String = "user-a", authTime: Date? = nil, issuedAt: Date? = nil, methods: [String] = ["hwk", "user"],
        boundTo prover: DPoPProver? = nil
    ) async throws -> String {
        try await TestUsers.ensure(sub, in: store)
        let now = clock.now()
        let login = authTime ?? now
        let claims = AccessTokenClaims(
            issuer: context.configuration.issuer, subject: sub,
            audience: [context.tokens.deviceKeyAudience, context.tokens.defaultAudience], clientID: "app",
            scope: ["openid"], issuedAt: issuedAt ?? login, expiresAt: now.addingTimeInterval(3600),
            jwtID: try TokenService.randomIdentifier(), authTime: login, authenticationMethods: methods,
            confirmationThumbprint: prover?.thumbprint)
        return try await context.tokens.currentRing().signer.sign(claims)
    }

    /// The headers of a request `method` `path` with the DPoP-bound `token` and a fresh proof by `prover`.
    func dpopHeaders(_ method: String, _ path: String, token: String, prover: DPoPProver) throws -> HTTPHeaders {
        [
            "Authorization": "DPoP \(token)",
            "DPoP": try prover.proof(
                method, "https://auth.example.com\(path)", now: clock.now(), accessToken: token),
        ]
    }

    /// Registers `device` for the token's user and returns the key id.
    func register(_ device: TestDevice, _ auth: HTTPHeaders) async throws -> String {
        let response = await client.post("/device-keys", json: device.registration, headers: auth)
        guard response.status == 201, let keyID = try response.jsonValue()["key_id"]?.stringValue else {
            throw HarnessFailure("register answered \(response.status): \(response.bodyText)")
        }
        return keyID
    }

    /// Asks for a challenge for `action` and returns `(challenge_id, challenge)`.
    func challenge(_ keyID: String, _ auth: HTTPHeaders, action: JSONValue = transfer) async throws
        -> (id: String, challenge: String)
    {
        let response = await client.post(
            "/device-keys/\(keyID)/challenges", json: ["action": action], headers: auth)
        let body = try response.jsonValue()
        guard response.status == 201, let id = body["challenge_id"]?.stringValue,
            let challenge = body["challenge"]?.stringValue
        else {
            throw HarnessFailure("challenge answered \(response.status): \(response.bodyText)")
        }
        return (id, challenge)
    }

    /// Posts an approval.
    func approve(_ keyID: String, challengeID: String, signature: String, _ auth: HTTPHeaders) async
        -> Response
    {
        await client.post(
            "/device-keys/\(keyID)/approvals",
            json: ["challenge_id": .string(challengeID), "signature": .string(signature)], headers: auth)
    }

    /// The stored key.
    func storedKey(_ keyID: String, user: String = "user-a") async throws -> DeviceKey? {
        try await store.read { try $0.deviceKey(id: keyID, userID: user) }
    }

    /// Every security event so far.
    func events() async throws -> [SecurityEvent] {
        try await store.read { try $0.securityEvents(after: 0, limit: 1000) }
    }
}

/// A harness step that did not go as planned.
struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

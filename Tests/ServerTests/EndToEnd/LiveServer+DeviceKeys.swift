import Crypto
import Foundation
import HTTP
import JSON
import Storage
import Tokens

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The device-key flows against a running daemon, as a phone app would drive them.
extension LiveServer {
    /// A daemon with the passkey test clients, on a fresh SQLite database, with `clock`.
    static func startForDeviceKeys(clock: TestClock) async throws -> LiveServer {
        try await start(environment: PasskeyHarness.overrides, clock: clock)
    }

    /// Signs `authenticator` up as `email`, then logs in with the passkey; returns the login's access token.
    func passkeyUser(_ authenticator: inout Passkey, email: String) async throws -> String {
        _ = try await signUp(&authenticator, email: email)
        return try await freshAccessToken(&authenticator)
    }

    /// One passkey login asking for the device-key API (`audience`, default `device_keys.audience`); returns its
    /// access token (its `auth_time` is the daemon clock's now).
    func freshAccessToken(_ authenticator: inout Passkey, audience: String? = nil) async throws -> String {
        try await login(&authenticator, audience: audience)["access_token"]?.stringValue ?? ""
    }

    /// One passkey login; returns the token response body.
    func login(_ authenticator: inout Passkey, audience: String? = nil) async throws -> JSONValue {
        let (options, session) = try await loginChallenge()
        let (status, body) = try await token(
            session: session, response: authenticator.assert(options),
            audience: audience ?? running.context.tokens.deviceKeyAudience)
        guard status == 200, body["access_token"]?.stringValue != nil else {
            throw URLError(.userAuthenticationRequired)
        }
        return body
    }

    /// Sends JSON (or nothing) with a Bearer token; returns status, headers and the parsed body (null when empty).
    func call(_ method: String, _ path: String, _ token: String, _ body: JSONValue? = nil)
        async throws
        -> (status: Int, headers: [String: String], body: JSONValue)
    {
        var headers = ["Authorization": "Bearer \(token)"]
        if body != nil { headers["Content-Type"] = "application/json" }
        let (status, fields, data) = try await send(
            method, path, body: body.map { Data($0.serialized()) }, headers: headers)
        return (status, fields, (try? JSONValue(parsing: [UInt8](data))) ?? .null)
    }

    /// The token verifier a payment API would build from `/.well-known/jwks.json` alone.
    func verifierFromJWKS() async throws -> JWTVerifier {
        let (status, _, data) = try await send("GET", "/.well-known/jwks.json")
        guard status == 200, let keys = try JSONValue(parsing: [UInt8](data))["keys"]?.arrayValue else {
            throw URLError(.badServerResponse)
        }
        var published: [String: JWTVerificationKey] = [:]
        for jwk in keys {
            guard let kid = jwk["kid"]?.stringValue else { continue }
            func bytes(_ name: String) -> [UInt8]? { jwk[name]?.stringValue.flatMap { Base64URL.decode($0) } }
            // RFC 7518 §6.2.1: x and y are the 32-byte affine coordinates; X9.62 is 0x04 || x || y.
            if jwk["kty"]?.stringValue == "EC", jwk["crv"]?.stringValue == "P-256", let x = bytes("x"),
                let y = bytes("y")
            {
                published[kid] = .es256(try ECPublicKey(x963Representation: [0x04] + x + y, curve: .p256))
            }
            // RFC 7518 §6.3.1: the modulus and the exponent (access tokens are RS256 by default).
            if jwk["kty"]?.stringValue == "RSA", let modulus = bytes("n"), let exponent = bytes("e") {
                published[kid] = .rs256(try RSAPublicKey(modulus: modulus, exponent: exponent))
            }
        }
        return JWTVerifier(keys: published)
    }

    /// Every security event the daemon recorded.
    func securityEvents() async throws -> [SecurityEvent] {
        try await running.context.store.read { try $0.securityEvents(after: 0, limit: 10_000) }
    }
}

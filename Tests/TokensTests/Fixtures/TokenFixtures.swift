import Crypto
import Foundation

@testable import Tokens

/// Test-only helpers: a fixed clock instant, a signer/verifier pair and a way to forge arbitrary JWS.
enum TokenFixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let issuer = "https://id.example"
    static let audience = "https://api.example"

    static func accessClaims(issuedAt: Date = now, lifetime: TimeInterval = 600) -> AccessTokenClaims {
        AccessTokenClaims(
            issuer: issuer, subject: "user-1", audience: [audience], clientID: "app",
            scope: ["openid", "offline_access"],
            issuedAt: issuedAt, expiresAt: issuedAt.addingTimeInterval(lifetime), jwtID: "jti-1",
            authTime: issuedAt.addingTimeInterval(-5), authenticationMethods: ["hwk", "user"])
    }

    static func expectations(
        type: String = AccessTokenClaims.type, issuer: String = issuer, audience: String = audience, now: Date = now
    )
        -> JWTExpectations
    {
        JWTExpectations(type: type, issuer: issuer, audience: audience, now: now)
    }

    /// Builds `header.payload.signature` from raw JSON texts, signed ES256 with `key` (or with `signature` as given).
    static func forge(header: String, payload: String, key: P256SigningKey, signature: [UInt8]? = nil) throws -> String
    {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        let raw =
            try signature
            ?? ECDSASignature.rawRepresentation(fromDER: key.signature(for: Array(input.utf8)), curve: .p256)
        return input + "." + Base64URL.encode(raw)
    }

    /// A P-384 key (Wycheproof ecdsa_secp384r1_sha384_test.json, first group), for "wrong curve" refusals.
    static func p384PublicKey() throws -> ECPublicKey {
        let spki =
            "MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEKb23bV+nQb/XAjPLOmbMfUS+s7BmPZKoE2ZQR4vO+2HvGC4VWlQ0Wl6OXojwZOW8mlJat/"
            + "dk2tPa4UaMK0GfO2K5upF9XoxPsexHQEo/x2R0snEwgb6dtMAOBDran8Sj"
        return try ECPublicKey(derRepresentation: Array(Data(base64Encoded: spki)!))
    }

    static func json(_ bytes: [UInt8]) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

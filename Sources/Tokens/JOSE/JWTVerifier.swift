import Crypto
import Foundation
import JSON

/// Verifies compact-JWS JWTs signed with ES256 or RS256 by one of a set of keys (RFC 7515 §5.2, RFC 7519 §7.2,
/// RFC 8725 best practices).
public struct JWTVerifier: Sendable {
    /// Verifier settings.
    public struct Configuration: Sendable {
        /// Clock skew tolerated on `exp`, `nbf` and `iat` (RFC 7519 §4.1.4 "small leeway").
        public var leeway: TimeInterval
        /// Longest token accepted, in bytes, checked before any decoding.
        public var maxTokenLength: Int
        /// Whether a token without `kid` is verified with the key set's one key when it has exactly one (a client's
        /// own keys for its assertions, RFC 7523: a client with one key need not name it). Off for the server's keys.
        public var soleKeyWithoutKeyID: Bool

        /// Defaults: 30 s leeway, 16 KiB tokens, `kid` required.
        public init(leeway: TimeInterval = 30, maxTokenLength: Int = 16_384, soleKeyWithoutKeyID: Bool = false) {
            self.leeway = leeway
            self.maxTokenLength = maxTokenLength
            self.soleKeyWithoutKeyID = soleKeyWithoutKeyID
        }
    }

    /// The verification keys by `kid`, each with the one algorithm it verifies. Non-P-256 EC keys are never used.
    public let keys: [String: JWTVerificationKey]
    /// The settings.
    public let configuration: Configuration

    /// A verifier over a key set (typically the keys published in the JWKS).
    public init(keys: [String: JWTVerificationKey], configuration: Configuration = .init()) {
        self.keys = keys
        self.configuration = configuration
    }

    /// A verifier over ES256 keys only.
    public init(keys: [String: ECPublicKey], configuration: Configuration = .init()) {
        self.init(keys: keys.mapValues { JWTVerificationKey.es256($0) }, configuration: configuration)
    }

    /// Verifies `token` and checks it against `expectations`. Checks run in this order, each with its code:
    /// structure (`.malformedToken`), `alg` ES256 or RS256 and no `crit` (`.unsupportedAlgorithm`), `typ`
    /// (`.unexpectedType`), `kid` (`.unknownKey`), signature (`.invalidSignature`), claim types
    /// (`.malformedToken`, `.invalidClaim`, `.missingClaim`), `exp` (`.expired`), `nbf` (`.notYetValid`),
    /// `iat` (`.issuedInFuture`), `iss` (`.invalidIssuer`), `aud` (`.invalidAudience`).
    public func verify(_ token: String, expecting expectations: JWTExpectations) throws(TokenError) -> VerifiedJWT {
        guard token.utf8.count <= configuration.maxTokenLength else {
            throw TokenError(.malformedToken, "token longer than \(configuration.maxTokenLength) bytes")
        }
        // RFC 7515 §7.1: compact serialisation is exactly three base64url segments.
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let headerBytes = Base64URL.decode(segments[0]),
            let payloadBytes = Base64URL.decode(segments[1]), let signature = Base64URL.decode(segments[2])
        else {
            throw TokenError(.malformedToken, "not three base64url segments")
        }
        let header: JWSHeader
        do {
            header = try JSONValueDecoder().decode(JWSHeader.self, from: try Self.parseObject(headerBytes, "header"))
        } catch let error as TokenError {
            throw error
        } catch {
            throw TokenError(.malformedToken, "header is not a JSON object with a string alg")
        }
        // RFC 8725 §3.1 / §2.1: accept exactly the algorithms we sign with; never "none", never HS256 with a public
        // key.
        // The keys' own algorithms besides: a client's assertion keys may be RS384 or PS256 (its JWK says which).
        guard
            header.algorithm == JWSHeader.es256 || header.algorithm == JWSHeader.rs256
                || keys.values.contains(where: { $0.algorithm == header.algorithm })
        else {
            throw TokenError(.unsupportedAlgorithm, "alg \(header.algorithm) is not ES256 or RS256")
        }
        // RFC 7515 §4.1.11: a crit extension we do not understand makes the JWS invalid.
        guard !header.hasCritical else { throw TokenError(.unsupportedAlgorithm, "crit header present") }
        // RFC 8725 §3.11: explicit typing keeps one kind of token from being accepted as another. A client assertion
        // may come untyped or typed `JWT` (RFC 7523 predates explicit typing), never as another explicit type.
        let typeAccepted: Bool
        if let type = header.type {
            let normalized = Self.normalizedMediaType(type)
            typeAccepted =
                normalized == Self.normalizedMediaType(expectations.type)
                || (expectations.acceptsUntyped && normalized == "jwt")
        } else {
            typeAccepted = expectations.acceptsUntyped
        }
        guard typeAccepted else {
            throw TokenError(.unexpectedType, "typ \(header.type ?? "(none)") is not \(expectations.type)")
        }
        // RFC 8725 §3.1: the key named by kid must be one for the header's algorithm (an RSA key never verifies an
        // ES256 token, nor the reverse). Without kid, only a set of one key (`soleKeyWithoutKeyID`) names its key.
        let soleKeyID = configuration.soleKeyWithoutKeyID && keys.count == 1 ? keys.keys.first : nil
        guard let keyID = header.keyID ?? soleKeyID, let key = keys[keyID], key.algorithm == header.algorithm else {
            throw TokenError(.unknownKey, "kid \(header.keyID ?? "(none)") is not a known \(header.algorithm) key")
        }
        let signingInput = String(segments[0] + "." + segments[1])
        switch key {
        case .es256(let ecKey):
            guard ecKey.curve == .p256 else { throw TokenError(.unknownKey, "kid \(keyID) is not a P-256 key") }
            try Self.checkSignature(signature, key: ecKey, signingInput: signingInput)
        case .rs256(let rsaKey):
            // RFC 7518 §3.3: RSASSA-PKCS1-v1_5 with SHA-256 over the received signing input.
            guard rsaKey.isValidSignature(signature, for: Array(signingInput.utf8), hash: .sha256, padding: .pkcs1v15)
            else { throw TokenError(.invalidSignature, "RS256 signature does not verify") }
        case .rs384(let rsaKey):
            // RFC 7518 §3.3: RSASSA-PKCS1-v1_5 with SHA-384.
            guard rsaKey.isValidSignature(signature, for: Array(signingInput.utf8), hash: .sha384, padding: .pkcs1v15)
            else { throw TokenError(.invalidSignature, "RS384 signature does not verify") }
        case .ps256(let rsaKey):
            // RFC 7518 §3.5: RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a salt of the hash's size.
            guard rsaKey.isValidSignature(signature, for: Array(signingInput.utf8), hash: .sha256, padding: .pss)
            else { throw TokenError(.invalidSignature, "PS256 signature does not verify") }
        }
        // RFC 7519 §7.2 step 10: the payload must be a JSON object.
        let payload = try Self.parseObject(payloadBytes, "payload")
        let claims = try RegisteredClaims(payload: payload)
        try check(claims, against: expectations)
        return VerifiedJWT(
            header: header, rawPayload: payloadBytes, payload: payload, issuer: claims.issuer, subject: claims.subject,
            audience: claims.audience, expiresAt: claims.expiresAt, issuedAt: claims.issuedAt,
            notBefore: claims.notBefore, jwtID: claims.jwtID
        )
    }

    /// A header or payload parsed once, as I-JSON, which must be an object. RFC 7515 §4 and RFC 7519 §4 let a
    /// parser refuse duplicate header parameter and claim names, and this one does: two readers of one token
    /// must not see different values.
    /// - Throws: `.malformedToken`.
    static func parseObject(_ bytes: [UInt8], _ part: String) throws(TokenError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch  where error.code == .duplicateMemberName {
            throw TokenError(.malformedToken, "\(part) repeats a member name: \(error.reason)")
        } catch {
            throw TokenError(.malformedToken, "\(part) is not JSON: \(error.reason)")
        }
        guard case .object = value else { throw TokenError(.malformedToken, "\(part) is not a JSON object") }
        return value
    }

    /// RFC 7518 §3.4: the signature is the 64-byte R‖S; verify it over the received signing input bytes.
    static func checkSignature(_ signature: [UInt8], key: ECPublicKey, signingInput: String) throws(TokenError) {
        guard signature.count == 2 * EllipticCurve.p256.coordinateByteCount,
            let der = try? ECDSASignature.derRepresentation(fromRaw: signature, curve: .p256),
            key.isValidSignature(der, for: Array(signingInput.utf8), hash: .sha256)
        else {
            throw TokenError(.invalidSignature, "ES256 signature does not verify")
        }
    }

    private func check(_ claims: RegisteredClaims, against expectations: JWTExpectations) throws(TokenError) {
        let leeway = configuration.leeway
        // RFC 7519 §4.1.4: the current time MUST be before exp.
        guard expectations.now < claims.expiresAt.addingTimeInterval(leeway) else {
            throw TokenError(.expired, "expired at \(claims.expiresAt)")
        }
        // RFC 7519 §4.1.5: the current time MUST be at or after nbf.
        if let notBefore = claims.notBefore {
            guard expectations.now.addingTimeInterval(leeway) >= notBefore else {
                throw TokenError(.notYetValid, "not valid before \(notBefore)")
            }
        }
        // RFC 7519 §4.1.6: a token issued in the future is not one we issued.
        if let issuedAt = claims.issuedAt {
            guard issuedAt <= expectations.now.addingTimeInterval(leeway) else {
                throw TokenError(.issuedInFuture, "issued at \(issuedAt)")
            }
        }
        // RFC 7519 §4.1.1 / RFC 8725 §3.8: the issuer must be the one expected.
        guard claims.issuer == expectations.issuer else {
            throw TokenError(.invalidIssuer, "iss \(claims.issuer) is not \(expectations.issuer)")
        }
        // RFC 7519 §4.1.3: reject if the expected audience is not in aud (`anyAudience` expects none).
        if let audience = expectations.audience {
            let accepted = [audience] + expectations.otherAudiences
            guard claims.audience.contains(where: accepted.contains) else {
                throw TokenError(.invalidAudience, "aud \(claims.audience) contains none of \(accepted)")
            }
        }
    }

    /// RFC 7515 §4.1.9: `typ` is a media type, case-insensitive, and "application/" may be omitted.
    private static func normalizedMediaType(_ type: String) -> String {
        let lowered = type.lowercased()
        return lowered.hasPrefix("application/") ? String(lowered.dropFirst("application/".count)) : lowered
    }
}

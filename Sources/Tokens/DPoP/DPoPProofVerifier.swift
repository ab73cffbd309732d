import Crypto
import Foundation
import JSON

/// Verifies a DPoP proof JWT (RFC 9449 §4.3). Every check has its own `TokenError` code, thrown in the order of
/// §4.3; `jti` uniqueness (check 11's second half) needs the store and is left to the caller.
public struct DPoPProofVerifier: Sendable {
    /// RFC 8037 §3.1: the JWS `alg` of Ed25519 signatures.
    public static let edDSA = "EdDSA"
    /// The `alg` values accepted (RFC 9449 §5.1 `dpop_signing_alg_values_supported`).
    public static let algorithms = [JWSHeader.es256, edDSA]
    /// RFC 9449 §4.2: the `typ` of a proof.
    public static let type = "dpop+jwt"
    /// Longest proof accepted, in bytes, checked before any decoding.
    public static let maxProofLength = 8_192
    /// Longest `jti` accepted (it is stored, RFC 9449 §11.1).
    public static let maxJWTIDLength = 256

    /// A verifier (stateless).
    public init() {}

    /// Verifies `proof` against `expectations`.
    /// - Throws: the `TokenError` `dpop…` code of the first failed check.
    public func verify(_ proof: String, expecting expectations: DPoPExpectations) throws(TokenError)
        -> VerifiedDPoPProof
    {
        // RFC 9449 §4.3 check 2: a single well-formed JWT (compact JWS, RFC 7515 §7.1).
        guard proof.utf8.count <= Self.maxProofLength else {
            throw TokenError(.dpopMalformed, "proof longer than \(Self.maxProofLength) bytes")
        }
        let segments = proof.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let headerBytes = Base64URL.decode(segments[0]),
            let payloadBytes = Base64URL.decode(segments[1]), let signature = Base64URL.decode(segments[2])
        else { throw TokenError(.dpopMalformed, "not three base64url segments") }
        let header: JSONValue
        let payload: JSONValue
        do {
            header = try JWTVerifier.parseObject(headerBytes, "header")
            payload = try JWTVerifier.parseObject(payloadBytes, "payload")
        } catch {
            throw TokenError(.dpopMalformed, error.reason)
        }
        // Check 3: every required header parameter and claim (§4.2), with its JSON type.
        guard let type = header["typ"]?.stringValue, let algorithm = header["alg"]?.stringValue,
            let jwk = header["jwk"], jwk.objectMembers != nil,
            let jwtID = payload["jti"]?.stringValue, let method = payload["htm"]?.stringValue,
            let targetURI = payload["htu"]?.stringValue, let issuedAtSeconds = payload["iat"]?.doubleValue,
            issuedAtSeconds.isFinite
        else {
            throw TokenError(.dpopMissingClaim, "typ, alg, jwk, jti, htm, htu and iat are required")
        }
        guard !jwtID.isEmpty, jwtID.utf8.count <= Self.maxJWTIDLength else {
            throw TokenError(.dpopMissingClaim, "jti must be 1 to \(Self.maxJWTIDLength) bytes")
        }
        // Check 4: typ is dpop+jwt (compared as a media type, RFC 7515 §4.1.9, exactly as the spec spells it).
        guard type.lowercased() == Self.type || type.lowercased() == "application/" + Self.type else {
            throw TokenError(.dpopWrongType, "typ \(type) is not \(Self.type)")
        }
        // Check 5: an asymmetric algorithm we support, never "none" or a MAC (RFC 8725 §3.1); crit not understood.
        guard Self.algorithms.contains(algorithm), header["crit"] == nil else {
            throw TokenError(.dpopUnsupportedAlgorithm, "alg \(algorithm) is not ES256 or EdDSA, or crit is present")
        }
        // Check 7 (before the key is used): a public key of a supported type, no private member.
        let key = try DPoPProofKey(jwk: jwk)
        guard key.algorithm == algorithm else {
            throw TokenError(.dpopUnsupportedAlgorithm, "alg \(algorithm) does not fit the jwk")
        }
        // Check 6: the signature verifies with the jwk, over the received signing input.
        let signingInput = String(segments[0]) + "." + String(segments[1])
        switch key {
        case .p256(let publicKey):
            do {
                try JWTVerifier.checkSignature(signature, key: publicKey, signingInput: signingInput)
            } catch {
                throw TokenError(.dpopInvalidSignature, "ES256 signature does not verify")
            }
        case .ed25519(let publicKey):
            // RFC 8037 §3.1: the JWS signature is the 64-byte Ed25519 signature.
            guard publicKey.isValidSignature(signature, for: Array(signingInput.utf8)) else {
                throw TokenError(.dpopInvalidSignature, "EdDSA signature does not verify")
            }
        }
        // Check 8: htm is the request's method.
        guard method == expectations.method else {
            throw TokenError(.dpopMethodMismatch, "htm \(method) is not \(expectations.method)")
        }
        // Check 9: htu is the request's URI, query and fragment ignored, both normalised (RFC 3986 §6.2.2-3).
        guard let presented = DPoPTargetURI.normalized(targetURI),
            presented == DPoPTargetURI.normalized(expectations.targetURI)
        else {
            throw TokenError(.dpopURIMismatch, "htu \(targetURI.prefix(200)) is not \(expectations.targetURI)")
        }
        // Check 10: the server-provided nonce, when the server asks for one (RFC 9449 §8).
        if let accepted = expectations.acceptedNonces {
            guard let nonce = payload["nonce"]?.stringValue,
                accepted.contains(where: { ConstantTime.equals(Array($0.utf8), Array(nonce.utf8)) })
            else { throw TokenError(.dpopNonceRequired, "nonce missing or not current") }
        }
        // Check 11: iat within the window either way (RFC 9449 §11.1); jti uniqueness is the caller's.
        let issuedAt = Date(timeIntervalSince1970: issuedAtSeconds)
        guard abs(issuedAt.timeIntervalSince(expectations.now)) <= expectations.window else {
            throw TokenError(.dpopStale, "iat \(issuedAt) is more than \(expectations.window) s from now")
        }
        // Check 12: with an access token, ath is base64url(SHA-256(ASCII(token))) (RFC 9449 §4.2, §7).
        if let accessToken = expectations.accessToken {
            let expected = Base64URL.encode(Digest.sha256(Array(accessToken.utf8)))
            guard let ath = payload["ath"]?.stringValue, ConstantTime.equals(Array(ath.utf8), Array(expected.utf8))
            else { throw TokenError(.dpopAccessTokenHash, "ath missing or not the access token's hash") }
        }
        // Check 13: the key is the one the token is bound to (RFC 9449 §6.1 jkt).
        let thumbprint = key.thumbprint
        if let bound = expectations.boundThumbprint {
            guard ConstantTime.equals(Array(bound.utf8), Array(thumbprint.utf8)) else {
                throw TokenError(.dpopKeyMismatch, "proof key \(thumbprint) is not the bound key \(bound)")
            }
        }
        return VerifiedDPoPProof(key: key, thumbprint: thumbprint, jwtID: jwtID, issuedAt: issuedAt)
    }
}

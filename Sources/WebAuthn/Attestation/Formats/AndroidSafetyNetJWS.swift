import Crypto
import Foundation
import JSON

/// The SafetyNet attestation response: an RFC 7515 compact JWS `header.payload.signature`, each part
/// base64url. The signature covers the ASCII bytes of `header.payload` exactly as received.
struct AndroidSafetyNetJWS: Sendable {
    /// The decoded protected header.
    let header: AndroidSafetyNetHeader
    /// The decoded payload.
    let payload: AndroidSafetyNetPayload
    /// The certificates of header `x5c`, leaf first; never empty.
    let certificates: [Certificate]
    /// The parsed JWS (signing input and signature).
    private let jws: X5CSignedJWS

    /// Splits and decodes a compact JWS (through `X5CSignedJWS`, the one JWS-with-x5c parser).
    /// - Throws: `.androidSafetyNetMalformedResponse` or `.androidSafetyNetInvalidCertificate`.
    init(compact: [UInt8]) throws(WebAuthnError) {
        let jws: X5CSignedJWS
        do {
            jws = try X5CSignedJWS(compact: compact)
        } catch {
            throw Self.webAuthnError(error)
        }
        // Parsed once each by the JSON module, then decoded.
        do {
            header = try JSONValueDecoder().decode(AndroidSafetyNetHeader.self, from: jws.header)
        } catch {
            throw WebAuthnError(.androidSafetyNetMalformedResponse, "JWS header: \(error)")
        }
        do {
            payload = try JSONValueDecoder().decode(AndroidSafetyNetPayload.self, from: jws.payload)
        } catch {
            throw WebAuthnError(.androidSafetyNetMalformedResponse, "JWS payload: \(error)")
        }
        guard !header.x5c.isEmpty else {
            throw WebAuthnError(.androidSafetyNetMalformedResponse, "JWS header x5c is empty")
        }
        do {
            certificates = try X5CSignedJWS.certificates(x5c: header.x5c)
        } catch {
            throw Self.webAuthnError(error)
        }
        self.jws = jws
    }

    /// Verifies the JWS signature with the leaf certificate's key: RS256 or ES256 (`X5CSignedJWS`).
    /// - Throws: `.unsupportedAlgorithm` or `.badSignature`.
    func verifySignature() throws(WebAuthnError) {
        guard let leaf = certificates.first else {
            throw WebAuthnError(.badSignature, "JWS leaf certificate key does not load")
        }
        do {
            try jws.verifySignature(algorithm: header.alg, leaf: leaf)
        } catch {
            throw Self.webAuthnError(error)
        }
    }

    /// SafetyNet's codes for a shared JWS failure.
    private static func webAuthnError(_ failure: X5CSignedJWS.Failure) -> WebAuthnError {
        switch failure.kind {
        case .malformed: WebAuthnError(.androidSafetyNetMalformedResponse, failure.reason)
        case .invalidCertificate: WebAuthnError(.androidSafetyNetInvalidCertificate, failure.reason)
        case .unsupportedAlgorithm: WebAuthnError(.unsupportedAlgorithm, failure.reason)
        case .badSignature: WebAuthnError(.badSignature, failure.reason)
        }
    }
}

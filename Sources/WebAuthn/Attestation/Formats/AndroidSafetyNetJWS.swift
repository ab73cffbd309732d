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
    /// The JWS signing input: ASCII(BASE64URL(header) || "." || BASE64URL(payload)) as received.
    let signingInput: [UInt8]
    /// The decoded JWS signature.
    let signature: [UInt8]

    /// Splits and decodes a compact JWS.
    /// - Throws: `.androidSafetyNetMalformedResponse` or `.androidSafetyNetInvalidCertificate`.
    init(compact: [UInt8]) throws(WebAuthnError) {
        // RFC 7515 §7.1: exactly three base64url parts separated by two periods.
        let parts = compact.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw WebAuthnError(.androidSafetyNetMalformedResponse, "response has \(parts.count) JWS parts, expected 3")
        }
        let headerPart = String(decoding: parts[0], as: UTF8.self)
        let payloadPart = String(decoding: parts[1], as: UTF8.self)
        let signaturePart = String(decoding: parts[2], as: UTF8.self)
        guard let headerJSON = Base64URL.decode(headerPart), let payloadJSON = Base64URL.decode(payloadPart),
            let signature = Base64URL.decode(signaturePart)
        else {
            throw WebAuthnError(.androidSafetyNetMalformedResponse, "a JWS part is not base64url")
        }
        // Parsed once each by the JSON module (I-JSON: a repeated member name is refused, RFC 7515 §4), then decoded.
        do {
            header = try JSONValueDecoder().decode(
                AndroidSafetyNetHeader.self, from: try JSONValue(parsing: headerJSON))
        } catch {
            throw WebAuthnError(.androidSafetyNetMalformedResponse, "JWS header: \(error)")
        }
        do {
            payload = try JSONValueDecoder().decode(
                AndroidSafetyNetPayload.self, from: try JSONValue(parsing: payloadJSON))
        } catch {
            throw WebAuthnError(.androidSafetyNetMalformedResponse, "JWS payload: \(error)")
        }
        guard !header.x5c.isEmpty else {
            throw WebAuthnError(.androidSafetyNetMalformedResponse, "JWS header x5c is empty")
        }
        var certificates: [Certificate] = []
        for (index, text) in header.x5c.enumerated() {
            // RFC 7515 §4.1.6: x5c entries are base64 (RFC 4648 §4, not base64url) DER.
            guard let der = Data(base64Encoded: text) else {
                throw WebAuthnError(.androidSafetyNetInvalidCertificate, "JWS header x5c[\(index)] is not base64")
            }
            do {
                certificates.append(try Certificate(derEncoded: [UInt8](der)))
            } catch {
                throw WebAuthnError(.androidSafetyNetInvalidCertificate, "JWS header x5c[\(index)]: \(error)")
            }
        }
        self.certificates = certificates
        self.signingInput = Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1])
        self.signature = signature
    }

    /// Verifies the JWS signature with the leaf certificate's key: RS256 (RFC 7518 §3.3, RSASSA-PKCS1-v1_5
    /// with SHA-256) or ES256 (RFC 7518 §3.4, ECDSA P-256 with SHA-256, signature as fixed-width R || S).
    /// - Throws: `.unsupportedAlgorithm` or `.badSignature`.
    func verifySignature() throws(WebAuthnError) {
        guard let leaf = certificates.first, let key = try? leaf.publicKey() else {
            throw WebAuthnError(.badSignature, "JWS leaf certificate key does not load")
        }
        let valid: Bool
        switch (header.alg, key) {
        case ("RS256", .rsa(let rsa)):
            valid = rsa.isValidSignature(signature, for: signingInput, hash: .sha256, padding: .pkcs1v15)
        case ("ES256", .ec(let ec)) where ec.curve == .p256:
            // JOSE carries R || S; OpenSSL verifies DER.
            guard let der = try? ECDSASignature.derRepresentation(fromRaw: signature, curve: .p256) else {
                throw WebAuthnError(.badSignature, "ES256 signature is not 64 bytes of R || S")
            }
            valid = ec.isValidSignature(der, for: signingInput, hash: .sha256)
        case ("RS256", _), ("ES256", _):
            throw WebAuthnError(.badSignature, "JWS alg \(header.alg) does not fit the leaf key")
        default:
            throw WebAuthnError(.unsupportedAlgorithm, "JWS alg \(header.alg) is not RS256 or ES256")
        }
        guard valid else {
            throw WebAuthnError(.badSignature, "JWS signature does not verify")
        }
    }
}

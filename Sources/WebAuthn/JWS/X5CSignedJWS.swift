import Crypto
import Foundation
import JSON

/// An RFC 7515 compact JWS `header.payload.signature` (each part base64url) whose protected header carries the
/// signer's certificate chain in `x5c`: the one parser for the SafetyNet attestation response (WebAuthn L3 §8.5)
/// and the FIDO MDS3 metadata BLOB (FIDO Metadata Service v3.0 §3.2). The signature covers the ASCII bytes of
/// `header.payload` exactly as received. Parsing checks only the shape; callers decide which header members they
/// require, validate the chain and call `verifySignature(algorithm:leaf:)`.
package struct X5CSignedJWS: Sendable {
    /// Why a JWS was refused; each caller maps it to its own error codes.
    package struct Failure: Error, Sendable {
        /// What kind of check failed.
        package enum Kind: Sendable, Equatable {
            /// Not three base64url parts, or a header or payload that is not I-JSON.
            case malformed
            /// An `x5c` entry that is not base64 DER of one certificate.
            case invalidCertificate
            /// `alg` is not RS256 or ES256.
            case unsupportedAlgorithm
            /// The leaf key does not fit `alg`, does not load, or the signature does not verify.
            case badSignature
        }

        /// What kind of check failed.
        package let kind: Kind
        /// Detail for logs.
        package let reason: String

        /// A failure of `kind` with `reason`.
        package init(_ kind: Kind, _ reason: String) {
            self.kind = kind
            self.reason = reason
        }
    }

    /// The decoded protected header (a JSON object).
    package let header: JSONValue
    /// The decoded payload.
    package let payload: JSONValue
    /// The JWS signing input: ASCII(BASE64URL(header) || "." || BASE64URL(payload)) as received.
    package let signingInput: [UInt8]
    /// The decoded JWS signature.
    package let signature: [UInt8]

    /// Splits a compact JWS and parses its header and payload as I-JSON (a repeated member name is refused,
    /// RFC 7515 §4).
    /// - Throws: `.malformed`.
    package init(compact: [UInt8]) throws(Failure) {
        // RFC 7515 §7.1: exactly three base64url parts separated by two periods.
        let parts = compact.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw Failure(.malformed, "response has \(parts.count) JWS parts, expected 3")
        }
        guard let headerJSON = Base64URL.decode(String(decoding: parts[0], as: UTF8.self)),
            let payloadJSON = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)),
            let signature = Base64URL.decode(String(decoding: parts[2], as: UTF8.self))
        else {
            throw Failure(.malformed, "a JWS part is not base64url")
        }
        do {
            header = try JSONValue(parsing: headerJSON)
        } catch {
            throw Failure(.malformed, "JWS header: \(error)")
        }
        guard header.objectMembers != nil else {
            throw Failure(.malformed, "JWS header: not a JSON object")
        }
        do {
            payload = try JSONValue(parsing: payloadJSON)
        } catch {
            throw Failure(.malformed, "JWS payload: \(error)")
        }
        self.signingInput = Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1])
        self.signature = signature
    }

    /// The certificates of an `x5c` header value, leaf first. RFC 7515 §4.1.6: each entry is base64 (RFC 4648 §4,
    /// not base64url) DER.
    /// - Throws: `.invalidCertificate`.
    package static func certificates(x5c: [String]) throws(Failure) -> [Certificate] {
        var certificates: [Certificate] = []
        certificates.reserveCapacity(x5c.count)
        for (index, text) in x5c.enumerated() {
            guard let der = Data(base64Encoded: text) else {
                throw Failure(.invalidCertificate, "JWS header x5c[\(index)] is not base64")
            }
            do {
                certificates.append(try Certificate(derEncoded: [UInt8](der)))
            } catch {
                throw Failure(.invalidCertificate, "JWS header x5c[\(index)]: \(error)")
            }
        }
        return certificates
    }

    /// Verifies the JWS signature with `leaf`'s key under `algorithm`: RS256 (RFC 7518 §3.3, RSASSA-PKCS1-v1_5 with
    /// SHA-256) or ES256 (RFC 7518 §3.4, ECDSA P-256 with SHA-256, signature as fixed-width R || S).
    /// - Throws: `.unsupportedAlgorithm` or `.badSignature`.
    package func verifySignature(algorithm: String, leaf: Certificate) throws(Failure) {
        guard let key = try? leaf.publicKey() else {
            throw Failure(.badSignature, "JWS leaf certificate key does not load")
        }
        let valid: Bool
        switch (algorithm, key) {
        case ("RS256", .rsa(let rsa)):
            valid = rsa.isValidSignature(signature, for: signingInput, hash: .sha256, padding: .pkcs1v15)
        case ("ES256", .ec(let ec)) where ec.curve == .p256:
            // JOSE carries R || S; OpenSSL verifies DER.
            guard let der = try? ECDSASignature.derRepresentation(fromRaw: signature, curve: .p256) else {
                throw Failure(.badSignature, "ES256 signature is not 64 bytes of R || S")
            }
            valid = ec.isValidSignature(der, for: signingInput, hash: .sha256)
        case ("RS256", _), ("ES256", _):
            throw Failure(.badSignature, "JWS alg \(algorithm) does not fit the leaf key")
        default:
            throw Failure(.unsupportedAlgorithm, "JWS alg \(algorithm) is not RS256 or ES256")
        }
        guard valid else {
            throw Failure(.badSignature, "JWS signature does not verify")
        }
    }
}

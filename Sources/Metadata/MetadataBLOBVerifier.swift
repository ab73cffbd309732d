import Crypto
import Foundation
import JSON
import WebAuthn

/// Verifies a FIDO MDS3 metadata BLOB (FIDO Metadata Service v3.0 §3.1.7) offline, after the BLOB processing
/// rules (§3.2): a compact JWS, `alg` RS256 or
/// ES256, signed by the leaf of its `x5c` chain, which leads to one of `roots` at the time of use (and is not
/// revoked by any of `crls`, when given), with a payload whose `nextUpdate` is not before the time of use's day.
/// Pure: the caller hands in the JWS text, the roots, the CRLs and the time; nothing is fetched.
package struct MetadataBLOBVerifier: Sendable {
    /// The largest JWS accepted (the real BLOB is about 5 MB).
    package static let maximumJWSBytes = 32 * 1024 * 1024
    /// The JWS algorithms accepted: those the FIDO MDS signs its BLOB (§3.1.7) with, an allow-list (RFC 8725 §3.1).
    package static let algorithms: Set<String> = ["RS256", "ES256"]

    /// The trust anchors of the signing chain.
    package let roots: [Certificate]
    /// CRLs to check every CA of the chain against; empty: no revocation check.
    package let crls: [CertificateRevocationList]

    /// A verifier trusting `roots`, checking revocation against `crls` when there are any.
    package init(roots: [Certificate], crls: [CertificateRevocationList] = []) {
        self.roots = roots
        self.crls = crls
    }

    /// Verifies `jws` at `timeOfUse` and reads its payload.
    /// - Throws: `.malformed`, `.unsupportedAlgorithm`, `.missingCertificateChain`, `.untrustedChain`,
    ///   `.revoked`, `.badSignature` or `.stale`, in the order the checks run (shape, header, chain, signature,
    ///   payload, freshness): before the signature verifies the payload is only parsed as I-JSON (size-capped,
    ///   depth-limited), none of its members read.
    package func verify(_ jws: String, at timeOfUse: Date) throws(MetadataError) -> MetadataBLOB {
        let blob = try verifySignedPayload(jws, at: timeOfUse)
        // FIDO MDS3 §3.2 (BLOB processing rules): a BLOB whose nextUpdate has passed is out of date. nextUpdate names
        // a UTC day; the BLOB is current through that whole day.
        guard !MetadataBLOB.isStale(nextUpdate: blob.nextUpdate, at: timeOfUse) else {
            throw MetadataError(
                .stale,
                "nextUpdate \(MetadataDay.format(blob.nextUpdate)) is before \(MetadataDay.format(timeOfUse))")
        }
        return blob
    }

    /// Every check of `verify(_:at:)` but freshness: shape, header, chain, signature, payload. Internal: a BLOB is
    /// handed out only by `verify`; tests use this for a published example BLOB whose `nextUpdate` precedes its
    /// chain's validity.
    func verifySignedPayload(_ jws: String, at timeOfUse: Date) throws(MetadataError) -> MetadataBLOB {
        guard jws.utf8.count <= Self.maximumJWSBytes else {
            throw MetadataError(
                .malformed, "the BLOB is \(jws.utf8.count) bytes, more than the \(Self.maximumJWSBytes) accepted")
        }
        // A file's final newline (or other ASCII whitespace around the JWS) is not part of it. Bytes, not
        // Foundation's trimming: that walks a 5 MB string by Character, most of the load time.
        let bytes = Self.trimmed(Array(jws.utf8))
        let text = bytes.count == jws.utf8.count ? jws : String(decoding: bytes, as: UTF8.self)
        let parsed: X5CSignedJWS
        do {
            parsed = try X5CSignedJWS(compact: bytes)
        } catch {
            throw MetadataError(.malformed, "not a compact JWS: \(error.reason)")
        }
        let (algorithm, chain) = try header(parsed.header)
        guard let leaf = chain.first else {
            throw MetadataError(.missingCertificateChain, "the JWS header x5c is empty")
        }
        try validateChain(leaf: leaf, intermediates: Array(chain.dropFirst()), at: timeOfUse)
        do {
            try parsed.verifySignature(algorithm: algorithm, leaf: leaf)
        } catch {
            throw MetadataError(
                error.kind == .unsupportedAlgorithm ? .unsupportedAlgorithm : .badSignature, error.reason)
        }
        return try MetadataBLOB(payload: parsed.payload, jws: text)
    }

    /// `bytes` without leading and trailing space, tab, CR and LF.
    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else {
            return []
        }
        return first == bytes.startIndex && last == bytes.endIndex - 1 ? bytes : Array(bytes[first...last])
    }

    /// The protected header's `alg` and `x5c` chain (RFC 7515 §4.1).
    private func header(_ header: JSONValue) throws(MetadataError) -> (String, [Certificate]) {
        guard let members = header.objectValue else { throw MetadataError(.malformed, "JWS header is not an object") }
        guard let algorithm = members["alg"]?.stringValue else {
            throw MetadataError(.malformed, "JWS header alg is missing or not a string")
        }
        // RFC 8725 §3.1: only the algorithms the MDS signs with; `none` and HMAC never.
        guard Self.algorithms.contains(algorithm) else {
            throw MetadataError(.unsupportedAlgorithm, "JWS alg \(algorithm.prefix(20)) is not RS256 or ES256")
        }
        // RFC 7515 §4.1.11: a `crit` extension this verifier does not understand makes the JWS invalid.
        if members["crit"] != nil {
            throw MetadataError(.malformed, "JWS header crit names extensions this verifier does not implement")
        }
        guard let x5c = members["x5c"] else {
            // RFC 7515 §4.1.5: x5u would be fetched; verification here is offline.
            let why = members["x5u"] != nil ? "x5u is refused (verification is offline)" : "no x5c"
            throw MetadataError(.missingCertificateChain, "JWS header has \(why): the signing chain must be in x5c")
        }
        guard let elements = x5c.arrayValue else { throw MetadataError(.malformed, "JWS header x5c is not an array") }
        var texts: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue else {
                throw MetadataError(.malformed, "JWS header x5c[\(index)] is not a string")
            }
            texts.append(text)
        }
        do {
            return (algorithm, try X5CSignedJWS.certificates(x5c: texts))
        } catch {
            throw MetadataError(.malformed, error.reason)
        }
    }

    /// The chain leaf → intermediates → one of `roots` at `time`, and CRLs when there are any.
    private func validateChain(leaf: Certificate, intermediates: [Certificate], at time: Date) throws(MetadataError) {
        do {
            _ = try TrustStore(roots: roots).validate(leaf: leaf, intermediates: intermediates, at: time, crls: crls)
        } catch {
            switch error.code {
            case .certificateRevoked:
                throw MetadataError(.revoked, "a certificate of the x5c chain is revoked: \(error.reason)")
            case .revocationListMissing:
                throw MetadataError(
                    .untrustedChain,
                    "no CRL among the given CRL files covers a CA of the x5c chain "
                        + "(give the CRL of every CA, or none): \(error.reason)")
            default:
                throw MetadataError(
                    .untrustedChain,
                    "the x5c chain does not lead to a configured MDS root at \(time): \(error.reason)")
            }
        }
    }
}

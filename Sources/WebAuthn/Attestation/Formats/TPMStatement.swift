import CBOR
import Crypto

/// The decoded fields of a `tpm` attestation statement (WebAuthn L3 §8.3 "Syntax").
struct TPMStatement: Sendable {
    /// `alg`: the COSE algorithm of `sig` (its hash also computes `extraData`).
    let alg: COSEAlgorithm
    /// The digest `alg` uses.
    let hash: HashAlgorithm
    /// `x5c`: the AIK certificate first, then its CA chain; never empty.
    let certificates: [Certificate]
    /// `x5c[0]`, the AIK certificate.
    let aikCertificate: Certificate
    /// `sig`: the AIK's signature over `certInfo`.
    let sig: [UInt8]
    /// `certInfo`: the raw TPMS_ATTEST.
    let certInfo: [UInt8]
    /// `pubArea`: the raw TPMT_PUBLIC.
    let pubArea: [UInt8]

    /// Decodes attStmt, checking presence and CBOR types of every field.
    /// - Throws: `.tpmMalformedStatement`, `.tpmUnsupportedVersion`, `.unsupportedAlgorithm`,
    ///   `.tpmECDAANotSupported`, `.tpmMissingCertificate`, `.tpmInvalidCertificate`.
    init(_ statement: CBORValue) throws(WebAuthnError) {
        guard statement.mapEntries != nil else {
            throw WebAuthnError(.tpmMalformedStatement, "attStmt is not a map")
        }
        // WebAuthn L3 §8.3: "ver: The version of the TPM specification to which the signature conforms."
        // Only "2.0" is defined.
        guard let ver = statement[text: "ver"]?.textValue else {
            throw WebAuthnError(.tpmMalformedStatement, "attStmt.ver is missing or not text")
        }
        guard ver == "2.0" else {
            throw WebAuthnError(.tpmUnsupportedVersion, "attStmt.ver is \"\(ver)\", expected \"2.0\"")
        }
        guard let algValue = statement[text: "alg"]?.intValue else {
            throw WebAuthnError(.tpmMalformedStatement, "attStmt.alg is missing or not an integer")
        }
        // The EdDSA family hashes internally and has no "hash algorithm employed in alg" for extraData.
        guard let alg = COSEAlgorithm(rawValue: algValue), let hash = alg.hashAlgorithm else {
            throw WebAuthnError(.unsupportedAlgorithm, "attStmt.alg \(algValue) is not supported for tpm")
        }
        guard let sig = statement[text: "sig"]?.bytesValue else {
            throw WebAuthnError(.tpmMalformedStatement, "attStmt.sig is missing or not bytes")
        }
        guard let certInfo = statement[text: "certInfo"]?.bytesValue else {
            throw WebAuthnError(.tpmMalformedStatement, "attStmt.certInfo is missing or not bytes")
        }
        guard let pubArea = statement[text: "pubArea"]?.bytesValue else {
            throw WebAuthnError(.tpmMalformedStatement, "attStmt.pubArea is missing or not bytes")
        }
        // ECDAA was removed in WebAuthn Level 3; a statement using it cannot be verified here.
        guard statement[text: "ecdaaKeyId"] == nil else {
            throw WebAuthnError(.tpmECDAANotSupported, "attStmt.ecdaaKeyId: ECDAA is not supported")
        }
        // WebAuthn L3 §8.3.2: "Verify that x5c is present."
        guard let x5c = statement[text: "x5c"] else {
            throw WebAuthnError(.tpmMissingCertificate, "attStmt.x5c is missing")
        }
        guard let entries = x5c.arrayValue, !entries.isEmpty else {
            throw WebAuthnError(.tpmMissingCertificate, "attStmt.x5c is not a non-empty array")
        }
        var certificates: [Certificate] = []
        certificates.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            guard let der = entry.bytesValue else {
                throw WebAuthnError(.tpmInvalidCertificate, "attStmt.x5c[\(index)] is not bytes")
            }
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw WebAuthnError(.tpmInvalidCertificate, "attStmt.x5c[\(index)]: \(error)")
            }
        }
        guard let aikCertificate = certificates.first else {
            throw WebAuthnError(.tpmMissingCertificate, "attStmt.x5c is empty")
        }
        self.alg = alg
        self.hash = hash
        self.certificates = certificates
        self.aikCertificate = aikCertificate
        self.sig = sig
        self.certInfo = certInfo
        self.pubArea = pubArea
    }
}

import CBOR
import Crypto

/// Reads the `x5c` member shared by several formats (WebAuthn L3 §8.2, §8.6): a non-empty array of
/// DER certificates, attestation certificate first.
enum AttestationCertificates {
    /// The certificates of `x5c`, or `nil` when the statement has no `x5c` member.
    /// - Throws: `.invalidAttestationStatement` for an x5c that is not a non-empty array of byte strings,
    ///   `.invalidAttestationCertificate` for a certificate that does not parse.
    static func parse(_ statement: CBORValue, format: String) throws(WebAuthnError) -> [Certificate]? {
        guard let x5c = statement[text: "x5c"] else { return nil }
        guard let elements = x5c.arrayValue, !elements.isEmpty else {
            throw WebAuthnError(.invalidAttestationStatement, "\(format): x5c is not a non-empty array")
        }
        var certificates: [Certificate] = []
        certificates.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let der = element.bytesValue else {
                throw WebAuthnError(.invalidAttestationStatement, "\(format): x5c[\(index)] is not a byte string")
            }
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw WebAuthnError(.invalidAttestationCertificate, "\(format): x5c[\(index)]: \(error)")
            }
        }
        return certificates
    }

    /// The public key of an attestation certificate.
    static func publicKey(of certificate: Certificate, format: String) throws(WebAuthnError) -> PublicKey {
        do {
            return try certificate.publicKey()
        } catch {
            throw WebAuthnError(.invalidAttestationCertificate, "\(format): certificate key: \(error)")
        }
    }
}

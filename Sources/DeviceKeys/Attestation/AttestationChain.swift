import Crypto
import Foundation

/// The certificate-chain steps both platform verifiers share: parsing the DER certificates and validating leaf →
/// intermediates → a configured root (RFC 5280 §6, through `TrustStore`).
enum AttestationChain {
    /// At most this many certificates (Android chains have 3–5, App Attest 2).
    static let maximumLength = 8

    /// Parses `chain` (leaf first).
    /// - Throws: `.attestationMalformed` for an empty or too long chain or a certificate that does not parse.
    static func certificates(_ chain: [[UInt8]]) throws(DeviceKeyError) -> [Certificate] {
        guard !chain.isEmpty, chain.count <= maximumLength else {
            throw DeviceKeyError(.attestationMalformed, "chain has \(chain.count) certificates")
        }
        var certificates: [Certificate] = []
        for (index, der) in chain.enumerated() {
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw DeviceKeyError(.attestationMalformed, "certificate \(index): \(error)")
            }
        }
        return certificates
    }

    /// Validates `certificates` (leaf first) to one of `roots` at `time`.
    /// - Throws: `.attestationExpired` or `.attestationUntrusted`.
    static func validate(_ certificates: [Certificate], roots: TrustStore, at time: Date) throws(DeviceKeyError) {
        guard let leaf = certificates.first else {
            throw DeviceKeyError(.attestationMalformed, "empty chain")
        }
        do {
            // The chain may or may not end with the root itself; only `roots` can anchor it.
            _ = try roots.validate(leaf: leaf, intermediates: Array(certificates.dropFirst()), at: time)
        } catch {
            switch error.code {
            case .certificateExpired:
                throw DeviceKeyError(.attestationExpired, "chain: \(error.reason)")
            default:
                throw DeviceKeyError(.attestationUntrusted, "chain: \(error.reason)")
            }
        }
    }

    /// Whether `certificate` certifies exactly `key`.
    static func certifies(_ certificate: Certificate, _ key: DevicePublicKey) -> Bool {
        guard let certified = try? certificate.publicKey() else { return false }
        return certified.isSameKey(as: .ec(key.publicKey))
    }
}

import Foundation

/// A set of trust anchors and chain validation against them (RFC 5280 §6, by OpenSSL's verifier).
///
/// Policy: a path must end in one of `roots`. A root need not be self-signed (FIDO metadata lists
/// intermediate CAs as attestation roots), so OpenSSL's partial-chain mode is on — but only
/// certificates given as roots can anchor a path; an intermediate passed as untrusted never can,
/// and a chain topped by a self-signed certificate that is not a root is refused.
public struct TrustStore: Sendable {
    /// The trust anchors.
    public let roots: [Certificate]

    /// Creates a store trusting exactly `roots`.
    public init(roots: [Certificate]) {
        self.roots = roots
    }

    /// Validates leaf → intermediates → one of `roots` at `time` (X509_V_FLAG_USE_CHECK_TIME);
    /// refuses a chain that ends in a self-signed certificate that is not one of the roots.
    /// Returns the path, leaf first, root last.
    /// - Throws: `.certificateExpired` (some certificate not valid at `time`), `.untrustedRoot`
    ///   (no path to a root), `.chainInvalid` (anything else: bad signature, CA constraints…),
    ///   with OpenSSL's verify error text in `reason`.
    public func validate(leaf: Certificate, intermediates: [Certificate], at time: Date) throws(CryptoError)
        -> [Certificate]
    {
        let path = try X509ChainVerifier.verify(
            leaf: leaf.x509, intermediates: intermediates.map(\.x509), roots: roots.map(\.x509), at: time)
        // Hand back the caller's own values (with their raw bytes) wherever the DER matches.
        let known = [leaf] + intermediates + roots
        var result: [Certificate] = []
        for der in path {
            if let match = known.first(where: { $0.derEncoded == der }) {
                result.append(match)
            } else {
                result.append(try Certificate(derEncoded: der))
            }
        }
        return result
    }
}

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
        try validate(leaf: leaf, intermediates: intermediates, at: time, crls: [])
    }

    /// `validate(leaf:intermediates:at:)`, and when `crls` is non-empty, revocation too (RFC 5280 §6.3, OpenSSL
    /// `X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL`): every certificate of the path below its anchor must
    /// be covered by its issuer's CRL among `crls`, that CRL must verify under the issuer and be current at `time`
    /// (thisUpdate ≤ time ≤ nextUpdate), and must not list the certificate. With no CRLs, no revocation check.
    /// - Throws: as `validate(leaf:intermediates:at:)`, plus `.certificateRevoked` (a CRL lists a certificate of
    ///   the path) and `.revocationListMissing` (no CRL of an issuer of the path among `crls`); an expired,
    ///   not-yet-valid or badly signed CRL is `.chainInvalid` with OpenSSL's reason.
    public func validate(
        leaf: Certificate, intermediates: [Certificate], at time: Date, crls: [CertificateRevocationList]
    ) throws(CryptoError) -> [Certificate] {
        let path = try X509ChainVerifier.verify(
            leaf: leaf.x509, intermediates: intermediates.map(\.x509), roots: roots.map(\.x509),
            crls: crls.map(\.crl), at: time)
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

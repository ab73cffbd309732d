import Crypto
import Foundation
import JSON
import Metadata

// @unchecked Sendable: the certificates and keys are immutable after init; the `openssl` calls write only fresh
// files (names from a locked counter).
/// A test FIDO Metadata Service: a test MDS root → intermediate → BLOB signers (RS256 and ES256) made with the
/// `openssl` CLI (`OpenSSLCommand`), that signs BLOBs from entries a test gives and issues CRLs; and attestation CAs
/// (root → leaf with `id-fido-gen-ce-aaguid`) for a `packed` full attestation that chains to a root a statement
/// lists. Verify its BLOBs with `MetadataBLOBVerifier(roots: [authority.root])` at a time within the signers'
/// validity (from now to ten years on).
package final class MetadataTestAuthority: @unchecked Sendable {
    /// The JWS algorithms a test BLOB can be signed with.
    package enum Algorithm: String, Sendable, CaseIterable {
        /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3), a 2048-bit RSA signer.
        case rs256 = "RS256"
        /// ECDSA P-256 with SHA-256 (RFC 7518 §3.4).
        case es256 = "ES256"
    }

    /// Which CA of the test MDS chain issues a CRL.
    package enum CRLIssuer: String, Sendable {
        /// The MDS root (its CRL covers the intermediate).
        case root
        /// The intermediate (its CRL covers the signers).
        case intermediate
    }

    /// The test MDS root (what `metadata.root_certificate_file` must hold).
    package let root: Certificate
    /// The intermediate CA between the root and the signers.
    package let intermediate: Certificate
    /// The RS256 signer's certificate.
    package let rsaSigner: Certificate
    /// The ES256 signer's certificate.
    package let ecSigner: Certificate
    private let rsaKey: RSASigningKey
    private let ecKey: P256SigningKey
    private let openssl: OpenSSLCommand
    private let lock = NSLock()
    private var issued = 0

    /// A fresh root, intermediate and the two signers (valid from now for ten years).
    package init() throws {
        fatalError("unimplemented")
    }

    /// The signer certificate of `algorithm`.
    package func signer(_ algorithm: Algorithm) -> Certificate {
        algorithm == .rs256 ? rsaSigner : ecSigner
    }

    /// The `x5c` header value for `algorithm`'s signer: leaf, intermediate (base64 DER; the root is left out, as
    /// the FIDO MDS leaves it out).
    package func x5c(_ algorithm: Algorithm) -> [String] {
        [signer(algorithm), intermediate].map { Data($0.derEncoded).base64EncodedString() }
    }

    /// A signed BLOB (compact JWS): header `{alg, typ: JWT, x5c}`, payload `{legalHeader, no, nextUpdate,
    /// entries}`.
    /// - Parameter nextUpdate: `YYYY-MM-DD`, as MDS writes it.
    package func blob(
        serial: Int64, nextUpdate: String, entries: [JSONValue], alg: Algorithm = .es256,
        legalHeader: String = "Test metadata: no legal meaning."
    ) throws -> String {
        fatalError("unimplemented")
    }

    /// A compact JWS over `header` and `payload` (each serialised as given) signed by `signWith`'s signer, for
    /// tests that need a header or payload no valid BLOB has.
    package func jws(header: JSONValue, payload: [UInt8], signWith: Algorithm) throws -> String {
        fatalError("unimplemented")
    }

    /// A CRL issued by `issuer`, valid for `days` from now, listing `revoking` (certificates that `issuer` issued).
    package func crl(issuer: CRLIssuer, revoking: [Certificate] = [], days: Int = 30) throws
        -> CertificateRevocationList
    {
        fatalError("unimplemented")
    }

    /// A fresh attestation CA for `aaguid`: a root and a `packed` attestation leaf it issues (WebAuthn L3 §8.2.1
    /// requirements, `id-fido-gen-ce-aaguid` = `aaguid`), with the leaf's key.
    package func attestationCA(aaguid: [UInt8]) throws -> MetadataAttestationCA {
        fatalError("unimplemented")
    }

    /// A BLOB entry for a FIDO2 authenticator (`aaguid`, 16 bytes) with one status report per element of
    /// `reports` and a statement listing `attestationRoots`.
    package static func entry(
        aaguid: [UInt8], reports: [(status: AuthenticatorStatus, effectiveDate: String?)],
        description: String = "Test Authenticator", attestationRoots: [Certificate] = [], icon: String? = nil
    ) -> JSONValue {
        .null
    }

    /// A BLOB entry for a FIDO2 authenticator with one status report `status` effective 2020-01-01.
    package static func entry(
        aaguid: [UInt8], status: AuthenticatorStatus = .fidoCertifiedL1, description: String = "Test Authenticator",
        attestationRoots: [Certificate] = [], icon: String? = nil
    ) -> JSONValue {
        entry(
            aaguid: aaguid, reports: [(status, "2020-01-01")], description: description,
            attestationRoots: attestationRoots, icon: icon)
    }

    /// A BLOB entry for a U2F authenticator named by attestation certificate key identifiers (hex).
    package static func entry(
        keyIdentifiers: [String], reports: [(status: AuthenticatorStatus, effectiveDate: String?)],
        description: String = "Test U2F Authenticator", attestationRoots: [Certificate] = []
    ) -> JSONValue {
        .null
    }
}

/// An attestation CA made by `MetadataTestAuthority.attestationCA(aaguid:)`.
package struct MetadataAttestationCA: Sendable {
    /// The attestation root a statement lists in `attestationRootCertificates`.
    package let root: Certificate
    /// The attestation certificate (`attStmt.x5c[0]` of a `packed` full attestation).
    package let leaf: Certificate
    /// The attestation certificate's private key, which signs the attestation statement.
    package let leafKey: P256SigningKey
    /// The AAGUID in the leaf's `id-fido-gen-ce-aaguid` extension.
    package let aaguid: [UInt8]
}

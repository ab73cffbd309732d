import Crypto
import SoftwareClient

@testable import WebAuthn

/// The test certificates' CA and leaf (AAGUID `TestCertificates.aaguid`), and the leaf's key as the identity of a
/// `packed` full attestation by the software authenticator.
struct TestAttestationCA {
    let root: Certificate
    let leaf: Certificate
    let identity: AttestationIdentity

    init() throws {
        root = try Certificate(derEncoded: AttestationFixture.der(TestCertificates.ca))
        leaf = try Certificate(derEncoded: AttestationFixture.der(TestCertificates.good))
        let key = try P256SigningKey(
            pkcs8DERRepresentation: AttestationFixture.der(TestCertificates.leafPrivateKeyPKCS8))
        identity = AttestationIdentity(certificates: [leaf.derEncoded], key: .es256(key))
    }
}

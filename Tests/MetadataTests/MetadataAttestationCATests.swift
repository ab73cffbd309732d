import Crypto
import Foundation
import TestSupport
import Testing

@testable import WebAuthn

@Suite("MetadataTestAuthority.attestationCA: a packed attestation certificate for an AAGUID")
struct MetadataAttestationCATests {
    @Test("the leaf meets WebAuthn L3 §8.2.1, names the AAGUID, chains to its root, and its key signs")
    func packedLeaf() throws {
        let authority = try #require(MetadataTestSupport.authority)
        let aaguid = MetadataTestSupport.aaguid(0x42)
        let ca = try authority.attestationCA(aaguid: aaguid)
        #expect(ca.aaguid == aaguid)
        try PackedCertificateRequirements.check(ca.leaf, aaguid: aaguid)
        #expect(throws: WebAuthnError.self) {
            try PackedCertificateRequirements.check(ca.leaf, aaguid: MetadataTestSupport.aaguid(0x43))
        }
        let path = try TrustStore(roots: [ca.root]).validate(leaf: ca.leaf, intermediates: [], at: Date())
        #expect(path == [ca.leaf, ca.root])
        #expect(throws: CryptoError.self) {
            try TrustStore(roots: [authority.root]).validate(leaf: ca.leaf, intermediates: [], at: Date())
        }
        let message = Array("authData || clientDataHash".utf8)
        #expect(ca.leaf.isValidSignature(try ca.leafKey.signature(for: message), for: message, hash: .sha256))
        // Each call makes a new CA.
        #expect(try authority.attestationCA(aaguid: aaguid).root != ca.root)
    }
}

import Crypto
import Foundation
import Testing

@Suite("TrustStore")
struct TrustStoreTests {
    let pki = TestChain.shared
    /// A time inside every certificate's validity period.
    var inside: Date { pki.leaf.notValidBefore.addingTimeInterval(3600) }

    @Test("leaf → intermediate → root validates and returns the path, leaf first")
    func validChain() throws {
        let path = try TrustStore(roots: [pki.otherRoot, pki.root])
            .validate(leaf: pki.leaf, intermediates: [pki.intermediate], at: inside)
        #expect(path.map(\.derEncoded) == [pki.leaf, pki.intermediate, pki.root].map(\.derEncoded))
    }

    @Test("after the leaf's notAfter the chain is refused with .certificateExpired")
    func expired() {
        let later = pki.leaf.notValidAfter.addingTimeInterval(86_400)
        #expect(throws: CryptoError(.certificateExpired, "")) {
            try TrustStore(roots: [pki.root]).validate(leaf: pki.leaf, intermediates: [pki.intermediate], at: later)
        }
    }

    @Test("before the leaf's notBefore the chain is refused with .certificateExpired")
    func notYetValid() {
        let earlier = pki.leaf.notValidBefore.addingTimeInterval(-86_400)
        #expect(throws: CryptoError(.certificateExpired, "")) {
            try TrustStore(roots: [pki.root]).validate(leaf: pki.leaf, intermediates: [pki.intermediate], at: earlier)
        }
    }

    @Test("with the wrong root the chain is refused with .untrustedRoot")
    func wrongRoot() {
        #expect(throws: CryptoError(.untrustedRoot, "")) {
            try TrustStore(roots: [pki.otherRoot]).validate(
                leaf: pki.leaf, intermediates: [pki.intermediate], at: inside)
        }
    }

    @Test("a root passed as an intermediate cannot anchor the chain: .untrustedRoot")
    func rootAsIntermediate() {
        #expect(throws: CryptoError(.untrustedRoot, "")) {
            try TrustStore(roots: [pki.otherRoot])
                .validate(leaf: pki.leaf, intermediates: [pki.intermediate, pki.root], at: inside)
        }
    }

    @Test("a missing intermediate is refused with .untrustedRoot")
    func missingIntermediate() {
        #expect(throws: CryptoError(.untrustedRoot, "")) {
            try TrustStore(roots: [pki.root]).validate(leaf: pki.leaf, intermediates: [], at: inside)
        }
    }

    @Test("a self-signed leaf that is not a root is refused with .untrustedRoot")
    func selfSignedLeaf() {
        #expect(throws: CryptoError(.untrustedRoot, "")) {
            try TrustStore(roots: [pki.root]).validate(leaf: pki.selfSignedLeaf, intermediates: [], at: inside)
        }
    }

    @Test("an intermediate given explicitly as a root anchors the path")
    func intermediateAsRoot() throws {
        let path = try TrustStore(roots: [pki.intermediate]).validate(leaf: pki.leaf, intermediates: [], at: inside)
        #expect(path.map(\.derEncoded) == [pki.leaf, pki.intermediate].map(\.derEncoded))
    }

    @Test("a certificate issued by a cA = FALSE certificate is refused with .chainInvalid")
    func nonCAIssuer() {
        #expect(throws: CryptoError(.chainInvalid, "")) {
            try TrustStore(roots: [pki.selfSignedLeaf]).validate(leaf: pki.issuedByNonCA, intermediates: [], at: inside)
        }
    }

    @Test("a leaf whose signature was altered is refused with .chainInvalid")
    func badSignature() throws {
        var der = pki.leaf.derEncoded
        der[der.count - 1] ^= 0x01
        let tampered = try Certificate(derEncoded: der)
        #expect(throws: CryptoError(.chainInvalid, "")) {
            try TrustStore(roots: [pki.root]).validate(leaf: tampered, intermediates: [pki.intermediate], at: inside)
        }
    }

    @Test("the reason carries OpenSSL's verify error text")
    func reasonText() {
        do {
            _ = try TrustStore(roots: [pki.otherRoot]).validate(
                leaf: pki.leaf, intermediates: [pki.intermediate], at: inside)
            Issue.record("validation unexpectedly succeeded")
        } catch {
            #expect(error.reason.contains("unable to get"))
        }
    }

    @Test("a real vendor root validates itself inside its validity period")
    func appleRoot() throws {
        let apple = try Certificate.certificates(fromPEM: TestFixtures.text("trust/apple_webauthn_root_ca.pem"))[0]
        let at = apple.notValidBefore.addingTimeInterval(86_400)
        let path = try TrustStore(roots: [apple]).validate(leaf: apple, intermediates: [], at: at)
        #expect(path.count == 1)
    }
}

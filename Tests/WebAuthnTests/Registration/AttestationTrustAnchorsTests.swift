import Crypto
import Foundation
import SoftwareClient
import Testing
import WebAuthn

/// WebAuthn L3 §7.1 steps 23–24 with the anchors of an authenticator model: a `packed` full attestation (the software
/// authenticator's, with the test CA's leaf for AAGUID 00010203-…) is trusted through the roots given for its AAGUID,
/// for its attestation certificate's key identifier (U2F's all-zero AAGUID), or the operator's extra roots, and not
/// through another model's.
@Suite("AttestationTrustAnchors")
struct AttestationTrustAnchorsTests {
    static let time = Date(timeIntervalSince1970: 1_800_000_000)
    static let origin = "https://localhost"

    let root: Certificate
    let leaf: Certificate
    let identity: AttestationIdentity

    init() throws {
        let ca = try TestAttestationCA()
        (root, leaf, identity) = (ca.root, ca.leaf, ca.identity)
    }

    /// A registration by the software authenticator of `aaguid`, with a packed full attestation, judged with `anchors`.
    func verified(aaguid: [UInt8] = TestCertificates.aaguid, anchors: AttestationTrustAnchors) throws
        -> VerifiedRegistration
    {
        let options = try PublicKeyCredentialCreationOptions(json: VirtualAuthenticatorTests.registerResponse())
        let (_, response) = try VirtualAuthenticator(aaguid: aaguid).makeCredential(
            options: options, origin: Self.origin, attestation: .packedFull(identity))
        return try RegistrationVerifier(
            expectations: RegistrationExpectations(
                challenge: options.challenge, rpID: "localhost",
                originPolicy: OriginPolicy(allowedOrigins: [Self.origin]), trustAnchors: anchors,
                verificationTime: Self.time)
        ).verify(try #require(response.registrationResponse))
    }

    @Test("a packed full attestation verifies as basic attestation with its x5c as the trust path")
    func packedFull() throws {
        let registration = try verified(anchors: AttestationTrustAnchors())
        #expect(registration.format == "packed" && registration.attestationType == .basic)
        #expect(registration.trustPath.map(\.derEncoded) == [leaf.derEncoded])
        #expect(registration.attestationTrust == .untrusted(reason: "no trust anchors configured for packed"))
    }

    @Test("§7.1 step 23: the roots listed for the authenticator's AAGUID make its attestation trusted")
    func byAAGUID() throws {
        let trusted = try verified(anchors: AttestationTrustAnchors(byAAGUID: [TestCertificates.aaguid: [root]]))
        #expect(trusted.attestationTrust == .trusted)
        let other = try verified(anchors: AttestationTrustAnchors(byAAGUID: [Array(repeating: 7, count: 16): [root]]))
        #expect(!other.attestationTrust.isTrusted)
    }

    @Test("the all-zero AAGUID never matches a model's roots; the key identifier of its certificate does")
    func byKeyIdentifier() throws {
        // A leaf without id-fido-gen-ce-aaguid would be needed for a zero-AAGUID packed attestation to verify (§8.2.1),
        // so the lookup is checked on the anchors themselves.
        let zero = [UInt8](repeating: 0, count: 16)
        let identifier = Hex.encode(leaf.publicKeyIdentifier)
        #expect(identifier.count == 40)
        let anchors = AttestationTrustAnchors(byAAGUID: [zero: [root]], byKeyIdentifier: [identifier: [root]])
        #expect(anchors.roots(for: "fido-u2f", aaguid: zero, leaf: leaf) == [root])
        #expect(anchors.roots(for: "fido-u2f", aaguid: zero, leaf: nil).isEmpty)
        #expect(AttestationTrustAnchors(byAAGUID: [zero: [root]]).roots(for: "none", aaguid: zero, leaf: leaf).isEmpty)
        #expect(anchors.roots(for: "packed", aaguid: TestCertificates.aaguid, leaf: leaf).isEmpty)
    }

    @Test("extra roots are trusted for every format and model; the format's roots still apply")
    func extraAndFormat() throws {
        #expect(try verified(anchors: AttestationTrustAnchors(extra: [root])).attestationTrust == .trusted)
        #expect(
            try verified(
                aaguid: TestCertificates.aaguid, anchors: AttestationTrustAnchors(byFormat: ["packed": [root]])
            )
            .attestationTrust == .trusted)
    }

    @Test("§8.2.1: a leaf whose AAGUID extension differs from the authenticator's is refused, whatever the anchors")
    func aaguidMismatch() {
        #expect(throws: WebAuthnError.self) {
            try verified(
                aaguid: Array(repeating: 7, count: 16),
                anchors: AttestationTrustAnchors(byAAGUID: [Array(repeating: 7, count: 16): [root]]))
        }
    }

    @Test("AuthenticatorModelKey: a disclosed AAGUID, else the certificate's lower-case key identifier, else none")
    func modelKey() {
        let zero = [UInt8](repeating: 0, count: 16)
        #expect(AuthenticatorModelKey(aaguid: TestCertificates.aaguid, leaf: leaf) == .aaguid(TestCertificates.aaguid))
        #expect(AuthenticatorModelKey(aaguid: TestCertificates.aaguid, leaf: nil) == .aaguid(TestCertificates.aaguid))
        let identifier = Hex.encode(leaf.publicKeyIdentifier)
        #expect(identifier == identifier.lowercased() && identifier.count == 40)
        #expect(AuthenticatorModelKey(aaguid: zero, leaf: leaf) == .keyIdentifier(identifier))
        #expect(AuthenticatorModelKey(aaguid: zero, leaf: nil) == nil)
        #expect(!AuthenticatorModelKey.isDisclosed(zero))
        #expect(AuthenticatorModelKey.isDisclosed(zero.dropLast() + [1]))
    }
}

import Crypto
import Foundation
import SoftwareClient
import Testing
import WebAuthn

/// WebAuthn L3 §7.1 steps 21–24 for a `compound` attestation (§8.9), made by the software authenticator: every entry
/// is judged against its own format's anchors, and the registration reports the strongest entry's outcome.
@Suite("Compound registrations")
struct CompoundRegistrationTests {
    static let time = Date(timeIntervalSince1970: 1_800_000_000)
    static let origin = "https://localhost"

    let root: Certificate
    let leaf: Certificate
    let identity: AttestationIdentity

    init() throws {
        let ca = try TestAttestationCA()
        (root, leaf, identity) = (ca.root, ca.leaf, ca.identity)
    }

    func verified(
        _ attestation: AttestationChoice, anchors: AttestationTrustAnchors = AttestationTrustAnchors(),
        formats: AttestationFormatRegistry = .standard
    ) throws -> VerifiedRegistration {
        let options = try PublicKeyCredentialCreationOptions(json: VirtualAuthenticatorTests.registerResponse())
        let (_, response) = try VirtualAuthenticator(aaguid: TestCertificates.aaguid).makeCredential(
            options: options, origin: Self.origin, attestation: attestation)
        return try RegistrationVerifier(
            expectations: RegistrationExpectations(
                challenge: options.challenge, rpID: "localhost",
                originPolicy: OriginPolicy(allowedOrigins: [Self.origin]), trustAnchors: anchors,
                verificationTime: Self.time, formats: formats)
        ).verify(try #require(response.registrationResponse))
    }

    @Test("an entry that chains to an anchor makes the registration trusted, with that entry's type and path")
    func trustedEntry() throws {
        let registration = try verified(
            .compound([.packedSelf, .packedFull(identity), .none]),
            anchors: AttestationTrustAnchors(byAAGUID: [TestCertificates.aaguid: [root]]))
        #expect(registration.format == "compound")
        #expect(registration.statements.map(\.format) == ["packed", "packed", "none"])
        #expect(registration.statements.map(\.trust) == [.selfAttestation, .trusted, .noAttestation])
        #expect(registration.attestationTrust == .trusted && registration.attestationType == .basic)
        #expect(registration.trustPath.map(\.derEncoded) == [leaf.derEncoded])
        #expect(CeremonyPolicy(requireTrustedAttestation: true).evaluate(registration) == .meetsPolicy)
    }

    @Test("without an anchor for it, the entry with a path is reported untrusted, naming the entry")
    func untrustedEntry() throws {
        let registration = try verified(.compound([.packedSelf, .packedFull(identity)]))
        #expect(
            registration.attestationTrust
                == .untrusted(reason: "compound attStmt[1] (packed): no trust anchors configured for packed"))
        #expect(registration.trustPath.map(\.derEncoded) == [leaf.derEncoded])
        #expect(
            CeremonyPolicy(requireTrustedAttestation: true).evaluate(registration)
                == .failsToMeetPolicy(WebAuthnError(.untrustedAttestation, "")))
    }

    @Test("self and none entries: self attestation is the strongest claim")
    func selfAndNone() throws {
        let registration = try verified(.compound([.none, .packedSelf]))
        #expect(registration.attestationTrust == .selfAttestation && registration.attestationType == .self)
        #expect(registration.trustPath.isEmpty)
    }

    @Test("a compound statement of one entry, or one a registry without compound support receives, is refused")
    func refused() throws {
        #expect(throws: WebAuthnError(.compoundMalformedStatement, "")) {
            try verified(.compound([.packedFull(identity)]))
        }
        #expect(throws: WebAuthnError(.unsupportedAttestationFormat, "")) {
            try verified(
                .compound([.none, .packedSelf]),
                formats: AttestationFormatRegistry([NoneAttestation.self, PackedAttestation.self]))
        }
    }

    @Test("a plain format reports its one statement as before")
    func plain() throws {
        let registration = try verified(.packedFull(identity))
        #expect(registration.format == "packed" && registration.statements.count == 1)
        #expect(registration.attestationTrust == .untrusted(reason: "no trust anchors configured for packed"))
    }
}

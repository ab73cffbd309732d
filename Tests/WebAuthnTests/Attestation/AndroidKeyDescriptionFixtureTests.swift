import CBOR
import Crypto
import Foundation
import Testing
import WebAuthn

@Suite("The shared Android key-description parser on a real Keystore attestation (py_webauthn fixture)")
struct AndroidKeyDescriptionFixtureTests {
    @Test("the fields device-key enrolment reads parse from a real hardware-backed leaf")
    func realLeaf() throws {
        let recorded = try RecordedAttestation(
            "reg-android-key.verify_attestation_android_key_hardware_authority")
        let leafDER = try #require(recorded.statement[text: "x5c"]?.arrayValue?.first?.bytesValue)
        let leaf = try Certificate(derEncoded: leafDER)
        let value = try #require(leaf.extension(oid: AndroidKeyDescription.oid)?.value)
        let description = try AndroidKeyDescription(extensionValue: value)
        // WebAuthn's binding: the challenge is the clientDataHash.
        #expect(description.attestationChallenge == recorded.clientDataHash)
        #expect(description.keyMintSecurityLevel != .software)
        #expect(description.attestationSecurityLevel != .software)
        #expect(description.teeEnforced.purposes?.contains(AndroidKeyDescription.purposeSign) == true)
        #expect(description.teeEnforced.origin == AndroidKeyDescription.originGenerated)
        #expect(description.teeEnforced.verifiedBootState != nil)
        #expect(!description.teeEnforced.allApplications && !description.softwareEnforced.allApplications)
    }
}

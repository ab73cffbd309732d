import Crypto
import DeviceKeys
import Foundation
import TestSupport
import Testing

@Suite("Android Key Attestation for device-key enrolment: one test per check, from a valid chain with one change")
struct AndroidKeyAttestationVerifierTests {
    static let nonce = [UInt8](repeating: 0x5A, count: 32)
    static let digest = [UInt8](repeating: 0xAB, count: 32)
    static let authority = try! AndroidAttestationAuthority()
    static let otherAuthority = try! AndroidAttestationAuthority()

    /// Verifies a chain built with `change` applied to the genuine properties (for `leafKey`, default the enrolled
    /// key), at `now` plus `later` seconds, issued by the trusted test authority (or `otherAuthority`).
    static func verify(
        _ change: (inout AndroidAttestationAuthority.Properties) -> Void = { _ in }, leafKey: P256SigningKey? = nil,
        later: TimeInterval = 0, otherRoot: Bool = false
    ) throws -> VerifiedPlatformAttestation {
        let key = try P256SigningKey()
        var properties = AndroidAttestationAuthority.Properties(challenge: nonce)
        change(&properties)
        let chain = try (otherRoot ? otherAuthority : authority).issue(leafKey: leafKey ?? key, properties: properties)
        let expectations = AndroidKeyAttestationExpectations(
            challenge: nonce, publicKey: try DevicePublicKey(importing: key.publicKey.derRepresentation),
            packageName: "com.example.app", signatureDigests: [[UInt8](repeating: 0x01, count: 32), digest],
            roots: TrustStore(roots: [authority.root]), now: Date().addingTimeInterval(later))
        return try AndroidKeyAttestationVerifier.verify(chain: chain, expecting: expectations)
    }

    @Test("a StrongBox key for this nonce, app and signature verifies; level and boot state are reported")
    func genuine() throws {
        let verified = try Self.verify()
        #expect(verified.platform == "android-key-attestation")
        #expect(verified.level == "strongbox")
        #expect(verified.verifiedBootState == "verified")
        let tee = try Self.verify {
            $0.securityLevel = 1
            $0.verifiedBootState = 2
        }
        #expect(tee.level == "tee" && tee.verifiedBootState == "unverified")
    }

    @Test("another attestationChallenge than the enrolment nonce is refused")
    func wrongChallenge() {
        #expect(throws: DeviceKeyError(.attestationChallengeMismatch, "")) {
            try Self.verify { $0.challenge = [UInt8](repeating: 0x00, count: 32) }
        }
    }

    @Test("a software-backed key is refused")
    func softwareLevel() {
        #expect(throws: DeviceKeyError(.attestationSoftwareLevel, "")) { try Self.verify { $0.securityLevel = 0 } }
    }

    @Test("another package name is refused")
    func wrongPackage() {
        #expect(throws: DeviceKeyError(.attestationWrongApp, "")) {
            try Self.verify { $0.packageName = "com.attacker.app" }
        }
    }

    @Test("an app signed with another certificate is refused")
    func wrongSignature() {
        #expect(throws: DeviceKeyError(.attestationWrongSignature, "")) {
            try Self.verify { $0.signatureDigest = [UInt8](repeating: 0xCD, count: 32) }
        }
    }

    @Test("a leaf past its validity is refused")
    func expired() {
        #expect(throws: DeviceKeyError(.attestationExpired, "")) {
            try Self.verify({ $0.leafDays = 1 }, later: 2 * 86_400)
        }
    }

    @Test("a leaf certifying another key than the enrolled one is refused")
    func unrelatedLeafKey() {
        #expect(throws: DeviceKeyError(.attestationKeyMismatch, "")) { try Self.verify(leafKey: try P256SigningKey()) }
    }

    @Test("a chain to another root than the configured one is refused")
    func untrustedRoot() {
        #expect(throws: DeviceKeyError(.attestationUntrusted, "")) { try Self.verify(otherRoot: true) }
    }

    @Test(
        "a key that is not a keystore-generated signing key needing a biometric per use is refused",
        arguments: [
            "purpose", "origin", "no userAuthType", "password only", "noAuthRequired", "auth timeout",
        ])
    func keyProperties(_ which: String) {
        #expect(throws: DeviceKeyError(.attestationKeyProperties, "")) {
            try Self.verify { properties in
                switch which {
                case "purpose": properties.purposes = [3]
                case "origin": properties.origin = 2
                case "no userAuthType": properties.userAuthType = nil
                case "password only": properties.userAuthType = 1
                case "noAuthRequired": properties.noAuthRequired = true
                default: properties.authTimeout = 300
                }
            }
        }
    }

    @Test("an empty chain and a certificate that does not parse are malformed")
    func malformed() throws {
        let expectations = AndroidKeyAttestationExpectations(
            challenge: Self.nonce,
            publicKey: try DevicePublicKey(importing: P256SigningKey().publicKey.derRepresentation),
            packageName: "com.example.app", signatureDigests: [Self.digest], roots: TrustStore(roots: []), now: Date())
        for chain in [[], [[0x30, 0x03, 0x02, 0x01, 0x01]]] as [[[UInt8]]] {
            #expect(throws: DeviceKeyError(.attestationMalformed, "")) {
                try AndroidKeyAttestationVerifier.verify(chain: chain, expecting: expectations)
            }
        }
    }
}

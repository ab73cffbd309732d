import CBOR
import Crypto
import DeviceKeys
import Foundation
import TestSupport
import Testing

@Suite("Apple App Attest for device-key enrolment: one test per check, from a valid attestation with one change")
struct AppleAppAttestVerifierTests {
    static let nonce = "Vq3uBCZ3r1cSTV3YxHkFxyXyzdT0n3lf4ZQv1sQ5a2c"
    static let appID = "ABCDE12345.com.example.app"
    static let authority = try! AppAttestAuthority()
    static let otherAuthority = try! AppAttestAuthority()

    /// The enrolled Secure Enclave key, the App Attest key, and the client data binding the first and the nonce.
    struct Enrolment {
        let enrolledKey = try! P256SigningKey()
        let appAttestKey = try! P256SigningKey()
        var clientData: [UInt8] {
            AppAttestAuthority.clientData(nonce: AppleAppAttestVerifierTests.nonce, enrolledKey: enrolledPoint)
        }
        var enrolledPoint: [UInt8] { enrolledKey.publicKey.x963Representation }
    }

    /// Verifies an attestation made with `change` applied to the genuine properties, over `clientData` (default the
    /// genuine one), at now plus `later` seconds, by the trusted test authority (or `otherAuthority`).
    static func verify(
        _ change: (inout AppAttestAuthority.Properties) -> Void = { _ in }, clientData: [UInt8]? = nil,
        later: TimeInterval = 0, otherRoot: Bool = false, allowsDevelopment: Bool = false,
        object: ((Enrolment) -> [UInt8])? = nil
    ) throws -> VerifiedPlatformAttestation {
        let enrolment = Enrolment()
        var properties = AppAttestAuthority.Properties()
        change(&properties)
        let signed = clientData ?? enrolment.clientData
        let attestation =
            try object?(enrolment)
            ?? (otherRoot ? otherAuthority : authority).attest(
                clientData: signed, appAttestKey: enrolment.appAttestKey, properties: properties)
        let expectations = AppleAppAttestExpectations(
            nonce: nonce, publicKey: try DevicePublicKey(importing: enrolment.enrolledPoint),
            appIDs: [appID], allowsDevelopment: allowsDevelopment, roots: TrustStore(roots: [authority.root]),
            now: Date().addingTimeInterval(later))
        return try AppleAppAttestVerifier.verify(
            attestationObject: attestation, clientData: signed, expecting: expectations)
    }

    @Test("a production attestation of the client's app, binding the nonce and the enrolled key, verifies")
    func genuine() throws {
        let verified = try Self.verify()
        #expect(verified.platform == "apple-appattest")
        #expect(verified.level == "appattest")
        #expect(verified.verifiedBootState == nil)
    }

    @Test("a development attestation verifies only where the client accepts the development environment")
    func development() throws {
        let verified = try Self.verify({ $0.aaguid = AppAttestAuthority.developmentAAGUID }, allowsDevelopment: true)
        #expect(verified.level == "appattestdevelop")
        #expect(throws: DeviceKeyError(.attestationWrongEnvironment, "")) {
            try Self.verify { $0.aaguid = AppAttestAuthority.developmentAAGUID }
        }
    }

    @Test("an aaguid that is neither App Attest environment is refused")
    func wrongAAGUID() {
        #expect(throws: DeviceKeyError(.attestationWrongEnvironment, "")) {
            try Self.verify({ $0.aaguid = [UInt8](repeating: 0, count: 16) }, allowsDevelopment: true)
        }
    }

    @Test("client data naming another nonce than the enrolment's is refused")
    func wrongNonce() {
        let enrolment = Enrolment()
        let other = AppAttestAuthority.clientData(nonce: "another-nonce", enrolledKey: enrolment.enrolledPoint)
        #expect(throws: DeviceKeyError(.attestationChallengeMismatch, "")) { try Self.verify(clientData: other) }
    }

    @Test("a credCert nonce that is not SHA-256(authData ‖ SHA-256(clientData)) is refused")
    func wrongCertifiedNonce() {
        #expect(throws: DeviceKeyError(.attestationChallengeMismatch, "")) {
            try Self.verify { $0.certifiedNonce = [UInt8](repeating: 0x42, count: 32) }
        }
    }

    @Test("client data binding another key than the enrolled one is refused")
    func clientDataForAnotherKey() throws {
        let other = AppAttestAuthority.clientData(
            nonce: Self.nonce, enrolledKey: try P256SigningKey().publicKey.x963Representation)
        #expect(throws: DeviceKeyError(.attestationKeyMismatch, "")) { try Self.verify(clientData: other) }
    }

    @Test(
        "client data that is not the documented JSON object is malformed",
        arguments: [
            "not json", "[]", #"{"nonce":"x"}"#, #"{"nonce":"x","public_key_sha256":"y","extra":1}"#,
            #"{"nonce":1,"public_key_sha256":"y"}"#,
        ])
    func malformedClientData(_ text: String) {
        #expect(throws: DeviceKeyError(.attestationMalformed, "")) { try Self.verify(clientData: Array(text.utf8)) }
    }

    @Test("another app's App ID (rpIdHash) is refused")
    func wrongApp() {
        #expect(throws: DeviceKeyError(.attestationWrongApp, "")) {
            try Self.verify { $0.appID = "ZZZZZ99999.com.attacker.app" }
        }
    }

    @Test("a non-zero counter is refused")
    func counter() {
        #expect(throws: DeviceKeyError(.attestationCounterNotZero, "")) { try Self.verify { $0.counter = 1 } }
    }

    @Test("a credentialId that is not SHA-256 of credCert's key, or a credCert for another key, is refused")
    func credentialMismatch() throws {
        #expect(throws: DeviceKeyError(.attestationCredentialMismatch, "")) {
            try Self.verify { $0.credentialID = [UInt8](repeating: 0x07, count: 32) }
        }
        let stranger = try P256SigningKey()
        #expect(throws: DeviceKeyError(.attestationCredentialMismatch, "")) {
            try Self.verify { $0.certifiedKey = stranger }
        }
    }

    @Test("a chain to another root than the configured one is refused")
    func untrustedRoot() {
        #expect(throws: DeviceKeyError(.attestationUntrusted, "")) { try Self.verify(otherRoot: true) }
    }

    @Test("a credCert past its validity is refused")
    func expired() {
        #expect(throws: DeviceKeyError(.attestationExpired, "")) {
            try Self.verify({ $0.leafDays = 1 }, later: 2 * 86_400)
        }
    }

    @Test("bytes that are not an attestation object, another fmt or a statement without x5c or receipt are malformed")
    func malformedObject() throws {
        let genuine = try Self.authority.attest(
            clientData: Enrolment().clientData, appAttestKey: try P256SigningKey())
        let decoded = try CBORDecoder.decode(genuine)
        func replacing(_ key: String, in map: CBORValue, with value: CBORValue?) -> CBORValue {
            var entries = map.mapEntries ?? []
            entries.removeAll { $0.key == .text(key) }
            if let value { entries.append(CBORMapEntry(key: .text(key), value: value)) }
            return .map(entries)
        }
        let statement = try #require(decoded[text: "attStmt"])
        let variants: [CBORValue] = [
            replacing("fmt", in: decoded, with: .text("apple")),
            replacing("attStmt", in: decoded, with: replacing("x5c", in: statement, with: nil)),
            replacing("attStmt", in: decoded, with: replacing("receipt", in: statement, with: nil)),
            replacing("attStmt", in: decoded, with: replacing("x5c", in: statement, with: .array([.text("x")]))),
        ]
        var objects = [[UInt8]("not cbor".utf8)]
        for variant in variants { objects.append(try CBOREncoder.encode(variant)) }
        for object in objects {
            #expect(throws: DeviceKeyError(.attestationMalformed, "")) { try Self.verify(object: { _ in object }) }
        }
    }
}

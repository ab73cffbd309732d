import Crypto
import Foundation
import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

private let trustDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/trust")

@Suite("Built-in attestation roots")
struct BuiltinAttestationRootsTests {
    /// The SHA-256 fingerprints the vendors publish (checked with `openssl x509 -noout -fingerprint -sha256`).
    private static let published: [String: String] = [
        "google_hardware_attestation_root_1.pem": "c1984a3ef45c1e2a918551de10603c86f7051b2249c4891cae3230eabd0c97d5",
        "google_hardware_attestation_root_2.pem": "1ef1a04b8ba58ab94589ac498c8982a783f24ea7307e0159a0c3a73b377d87cc",
        "google_hardware_attestation_root_3.pem": "ab6641178a36e179aa0c1cdddf9a16eb45fa20943e2b8cd7c7c05c26cf8b487a",
        "google_hardware_attestation_root_4.pem": "cedb1cb6dc896ae5ec797348bce9286753c2b38ee71ce0fbe34a9a1248800dfc",
        "apple_app_attestation_root_ca.pem": "1cb9823ba28ba6ad2d33a006941de2ae4f513ef1d4e831b9f7e0fa7b6242c932",
    ]

    private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("the embedded roots are the shipped files, with the vendors' published fingerprints")
    func embeddedRootsAreTheShippedFiles() throws {
        let embedded = [
            "google_hardware_attestation_root_1.pem": BuiltinAttestationRoots.googleHardwareAttestationRoot1,
            "google_hardware_attestation_root_2.pem": BuiltinAttestationRoots.googleHardwareAttestationRoot2,
            "google_hardware_attestation_root_3.pem": BuiltinAttestationRoots.googleHardwareAttestationRoot3,
            "google_hardware_attestation_root_4.pem": BuiltinAttestationRoots.googleHardwareAttestationRoot4,
            "apple_app_attestation_root_ca.pem": BuiltinAttestationRoots.appleAppAttestationRoot,
        ]
        for (file, pem) in embedded {
            let shipped = try String(contentsOf: trustDirectory.appendingPathComponent(file), encoding: .utf8)
            #expect(
                pem.trimmingCharacters(in: .whitespacesAndNewlines)
                    == shipped.trimmingCharacters(in: .whitespacesAndNewlines), "\(file)")
            let certificates = try Certificate.certificates(fromPEM: pem)
            #expect(certificates.count == 1)
            #expect(
                certificates.first.map { Self.hex(Digest.sha256($0.derEncoded)) } == Self.published[file], "\(file)")
        }
    }

    private static func load(deviceKeys: [String: Any]?) throws -> ServerConfiguration {
        var document: [String: Any] = [
            "issuer": "https://auth.example.com/", "relying_party": ["id": "example.com", "name": "Example"],
            "realms": [["name": "main", "identifiers": ["email": "required"]]],
        ]
        if let deviceKeys { document["device_keys"] = deviceKeys }
        let data = try JSONSerialization.data(withJSONObject: document)
        return try ConfigurationLoader.load(data: data, source: "test.json", environment: [:], flags: .init())
    }

    private static func fingerprints(_ certificates: [Certificate]) -> [String] {
        certificates.map { hex(Digest.sha256($0.derEncoded)) }
    }

    @Test("by default the Android and App Attest roots are the built-in ones; empty means none, a path is read")
    func defaultsAndChoices() throws {
        let defaults = try Self.load(deviceKeys: nil)
        #expect(
            Self.fingerprints(defaults.deviceKeys.androidAttestationRoots)
                == (1...4).map {
                    Self.published["google_hardware_attestation_root_\($0).pem"] ?? ""
                })
        #expect(
            Self.fingerprints(defaults.deviceKeys.appAttestRoots) == [
                Self.published["apple_app_attestation_root_ca.pem"] ?? ""
            ])
        let none = try Self.load(deviceKeys: ["android_attestation_roots": "", "app_attest_roots": ""])
        #expect(none.deviceKeys.androidAttestationRoots.isEmpty && none.deviceKeys.appAttestRoots.isEmpty)
        let path = trustDirectory.appendingPathComponent("google_hardware_attestation_root_4.pem").path
        let file = try Self.load(deviceKeys: ["android_attestation_roots": path])
        #expect(
            Self.fingerprints(file.deviceKeys.androidAttestationRoots) == [
                Self.published["google_hardware_attestation_root_4.pem"] ?? ""
            ])
    }
}

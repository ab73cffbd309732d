import Foundation
import JSON
import Metadata
import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// A client's `attestation` and `authenticators` are parsed once, at load, into `AttestationConveyance` and
/// `AuthenticatorPolicy`, with a clear refusal for every contradiction and a warning for a list no attestation proves;
/// `passkeys.attestation_root_files` is read into certificates at load.
@Suite("Authenticator policy configuration")
struct AuthenticatorPolicyConfigurationTests {
    static let yubiKey = "2fc0579f-8113-47ea-b116-bb5a8db9202a"

    /// A configuration whose one client `kiosk` has `members` (JSON object members, without braces).
    static func configuration(_ members: String, extra: [String: String] = [:]) throws -> ServerConfiguration {
        var overrides = extra
        overrides["PASSKEYD_CLIENTS"] = #"[{"client_id": "kiosk", \#(members)}]"#
        return try TestConfiguration.make(overrides)
    }

    static func refusal(_ members: String) -> ConfigurationError? {
        #expect(throws: ConfigurationError.self) { try configuration(members) }
    }

    @Test("unset: attestation none and the default policy (compromised refused, warned at login), no warning")
    func defaults() throws {
        let configuration = try TestConfiguration.make()
        let client = try #require(configuration.client(id: "app"))
        #expect(client.attestation == .none)
        #expect(client.authenticators == AuthenticatorPolicy())
        #expect(client.authenticators.refuseCompromised && client.authenticators.compromisedAtLogin == .warn)
        #expect(!client.authenticators.requireTrustedAttestation && client.authenticators.minimumCertification == nil)
        #expect(configuration.passkeys.attestationRoots.isEmpty)
        #expect(configuration.warnings.isEmpty)
    }

    @Test("every setting is read as a value")
    func values() throws {
        let configuration = try Self.configuration(
            """
            "attestation": "direct", "authenticators": {"require_trusted_attestation": true,
              "allowed_aaguids": ["\(Self.yubiKey.uppercased())"], "minimum_certification": "FIDO_CERTIFIED_L2",
              "refuse_compromised": false, "compromised_at_login": "refuse"}
            """)
        let policy = try #require(configuration.client(id: "kiosk")).authenticators
        #expect(try #require(configuration.client(id: "kiosk")).attestation == .direct)
        #expect(policy.requireTrustedAttestation)
        #expect(
            policy.allowedAAGUIDs == [
                [
                    0x2f, 0xc0, 0x57, 0x9f, 0x81, 0x13, 0x47, 0xea, 0xb1, 0x16, 0xbb, 0x5a, 0x8d,
                    0xb9, 0x20, 0x2a,
                ]
            ])
        #expect(policy.minimumCertification == .l2)
        #expect(!policy.refuseCompromised && policy.compromisedAtLogin == .refuse)
        #expect(configuration.warnings.isEmpty)
    }

    @Test("the conveyance is WebAuthn L3 §5.4.7's spelling; anything else names the field")
    func conveyance() throws {
        for text in ["none", "indirect", "direct", "enterprise"] {
            #expect(
                try Self.configuration(#""attestation": "\#(text)""#).client(id: "kiosk")?.attestation.rawValue == text)
        }
        #expect(
            Self.refusal(#""attestation": "Direct""#)
                == ConfigurationError(
                    field: "clients[0].attestation",
                    reason: "must be none, indirect, direct or enterprise (WebAuthn L3 §5.4.7)"))
    }

    @Test("a policy that needs an attestation with attestation none is refused at load, naming the setting")
    func needsAttestation() {
        let trusted = Self.refusal(#""authenticators": {"require_trusted_attestation": true}"#)
        #expect(trusted?.field == "clients[0].authenticators.require_trusted_attestation")
        #expect(trusted?.reason.contains("\"attestation\" is \"none\"") == true)
        let certified = Self.refusal(#""authenticators": {"minimum_certification": "FIDO_CERTIFIED_L1"}"#)
        #expect(certified?.field == "clients[0].authenticators.minimum_certification")
    }

    @Test("malformed values and contradictions are refused with the field's path")
    func refusals() {
        #expect(
            Self.refusal(#""authenticators": {"allowed_aaguids": ["not-a-uuid"]}"#)?.field
                == "clients[0].authenticators.allowed_aaguids[0]")
        #expect(
            Self.refusal(#""authenticators": {"denied_aaguids": ["2fc0579f811347eab116bb5a8db9202a"]}"#)?.field
                == "clients[0].authenticators.denied_aaguids[0]")
        let both = Self.refusal(
            #""authenticators": {"allowed_aaguids": ["\#(Self.yubiKey)"], "denied_aaguids": ["\#(Self.yubiKey)"]}"#)
        #expect(both?.field == "clients[0].authenticators.denied_aaguids")
        #expect(both?.reason.contains("allowed_aaguids") == true)
        let level = Self.refusal(#""attestation": "direct", "authenticators": {"minimum_certification": "L2"}"#)
        #expect(level?.field == "clients[0].authenticators.minimum_certification")
        #expect(level?.reason.contains("FIDO_CERTIFIED_L2plus") == true)
        #expect(
            Self.refusal(#""authenticators": {"compromised_at_login": "block"}"#)
                == ConfigurationError(
                    field: "clients[0].authenticators.compromised_at_login", reason: "must be allow, warn or refuse"))
        #expect(
            Self.refusal(#""authenticators": {"refuse_compromised": "yes"}"#)?.field
                == "clients[0].authenticators.refuse_compromised")
        #expect(Self.refusal(#""authenticators": {"allowed": []}"#)?.field == "clients[0].authenticators.allowed")
    }

    @Test("allowed_aaguids without require_trusted_attestation loads, with a warning that says why")
    func unattestedAllowList() throws {
        let configuration = try Self.configuration(#""authenticators": {"allowed_aaguids": ["\#(Self.yubiKey)"]}"#)
        #expect(configuration.warnings.map(\.field) == ["clients[0].authenticators.allowed_aaguids"])
        #expect(configuration.warnings.first?.reason.contains("the authenticator's own claim") == true)
        let denied = try Self.configuration(#""authenticators": {"denied_aaguids": ["\#(Self.yubiKey)"]}"#)
        #expect(denied.warnings.isEmpty)
    }

    @Test("passkeys.attestation_root_files: every file's certificates, and a clear refusal for a bad file")
    func rootFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-roots-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/trust")
        let apple = fixtures.appendingPathComponent("apple_webauthn_root_ca.pem").path
        let google = fixtures.appendingPathComponent("google_hardware_attestation_root_2.pem").path
        let configuration = try TestConfiguration.make([
            "PASSKEYD_PASSKEYS_ATTESTATION_ROOT_FILES": #"["\#(apple)", "\#(google)"]"#
        ])
        #expect(configuration.passkeys.attestationRoots.count == 2)

        let missing = directory.appendingPathComponent("missing.pem").path
        let unreadable = #expect(throws: ConfigurationError.self) {
            try TestConfiguration.make(["PASSKEYD_PASSKEYS_ATTESTATION_ROOT_FILES": #"["\#(apple)", "\#(missing)"]"#])
        }
        #expect(
            unreadable
                == ConfigurationError(
                    field: "passkeys.attestation_root_files[1]", reason: "cannot read \(missing)"))
        let empty = directory.appendingPathComponent("empty.pem")
        try Data("no certificate here\n".utf8).write(to: empty)
        let noCertificate = #expect(throws: ConfigurationError.self) {
            try TestConfiguration.make(["PASSKEYD_PASSKEYS_ATTESTATION_ROOT_FILES": #"["\#(empty.path)"]"#])
        }
        #expect(noCertificate?.field == "passkeys.attestation_root_files[0]")
    }

    @Test("attestation_formats: formats this server verifies, once each, with an attestation a browser passes on")
    func attestationFormats() throws {
        let configuration = try Self.configuration(
            #""attestation": "direct", "attestation_formats": ["tpm", "compound", "packed"]"#)
        #expect(try #require(configuration.client(id: "kiosk")).attestationFormats == ["tpm", "compound", "packed"])
        #expect(try TestConfiguration.make().client(id: "app")?.attestationFormats == [])
        let unknown = Self.refusal(#""attestation": "direct", "attestation_formats": ["packed", "Packed"]"#)
        #expect(unknown?.field == "clients[0].attestation_formats[1]")
        #expect(unknown?.reason.contains("android-key, android-safetynet, apple, compound, fido-u2f, none") == true)
        let repeated = Self.refusal(#""attestation": "direct", "attestation_formats": ["packed", "packed"]"#)
        #expect(repeated == ConfigurationError(field: "clients[0].attestation_formats[1]", reason: "repeats packed"))
        #expect(Self.refusal(#""attestation_formats": ["packed"]"#)?.field == "clients[0].attestation_formats")
        #expect(Self.refusal(#""attestation": "direct", "attestation_formats": "packed""#) != nil)
    }

    @Test("the creation options carry attestationFormats with attestation, in the configured order (WebAuthn L3 §5.4)")
    func creationOptionsFormats() throws {
        let configuration = try Self.configuration(
            #""attestation": "direct", "attestation_formats": ["tpm", "packed"]"#)
        let options = CreationOptions(
            challenge: Array(repeating: 1, count: 32), userHandle: Array(repeating: 2, count: 32), userName: "ada",
            displayName: "Ada", excluding: [], hints: [])
        let json = options.json(client: try #require(configuration.client(id: "kiosk")), configuration: configuration)
        #expect(json["attestationFormats"] == .array([.string("tpm"), .string("packed")]))
        let plain = try Self.configuration(#""attestation": "direct""#)
        #expect(
            options.json(client: try #require(plain.client(id: "kiosk")), configuration: plain)["attestationFormats"]
                == nil)
    }

    @Test("the creation options carry attestation unless it is none (WebAuthn L3 §5.4)")
    func creationOptions() throws {
        let configuration = try Self.configuration(#""attestation": "enterprise""#)
        let options = CreationOptions(
            challenge: Array(repeating: 1, count: 32), userHandle: Array(repeating: 2, count: 32), userName: "ada",
            displayName: "Ada", excluding: [], hints: [])
        let enterprise = options.json(
            client: try #require(configuration.client(id: "kiosk")), configuration: configuration)
        #expect(enterprise["attestation"]?.stringValue == "enterprise")
        let defaults = try TestConfiguration.make()
        let plain = options.json(client: try #require(defaults.client(id: "app")), configuration: defaults)
        #expect(plain["attestation"] == nil)
    }
}

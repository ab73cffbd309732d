import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The user-verification policy is parsed once, at load, into `UserVerificationPolicy`; the options and the UV
/// check read the value, never the configured text.
@Suite("User-verification policy")
struct UserVerificationPolicyTests {
    /// The server default set to `serverDefault` and, when `client` is given, a client `kiosk` with that policy.
    static func configuration(serverDefault: String? = nil, client: String? = nil) throws -> ServerConfiguration {
        var overrides: [String: String] = [:]
        if let serverDefault { overrides["PASSKEYD_PASSKEYS_USER_VERIFICATION"] = serverDefault }
        if let client {
            overrides["PASSKEYD_CLIENTS"] = #"[{"client_id": "kiosk", "user_verification": "\#(client)"}]"#
        }
        return try TestConfiguration.make(overrides)
    }

    @Test("the three policies are WebAuthn L3 §5.8.6's spellings, and only required refuses a ceremony without UV")
    func spellings() {
        #expect(UserVerificationPolicy.allCases.map(\.rawValue) == ["required", "preferred", "discouraged"])
        #expect(UserVerificationPolicy.allCases.filter(\.requiresVerifiedUser) == [.required])
    }

    @Test("unset, the server's policy is required and a client takes it")
    func defaults() throws {
        let configuration = try Self.configuration()
        #expect(configuration.passkeys.userVerification == .required)
        let client = try #require(configuration.client(id: "app"))
        #expect(client.userVerification == nil)
        #expect(configuration.userVerification(for: client) == .required)
    }

    @Test("the server's and a client's policies are read as values; the client's wins for its ceremonies")
    func values() throws {
        let configuration = try Self.configuration(serverDefault: "discouraged", client: "preferred")
        #expect(configuration.passkeys.userVerification == .discouraged)
        let client = try #require(configuration.client(id: "kiosk"))
        #expect(client.userVerification == .preferred)
        #expect(configuration.userVerification(for: client) == .preferred)
    }

    @Test(
        "any other spelling is a configuration error naming the field, as the server's policy and as a client's",
        arguments: ["Required", "REQUIRED", "requried", " required", "required ", "", "always"])
    func misspelt(text: String) {
        let reason = "must be required, preferred or discouraged"
        let server = #expect(throws: ConfigurationError.self) { try Self.configuration(serverDefault: text) }
        #expect(server == ConfigurationError(field: "passkeys.user_verification", reason: reason))
        let client = #expect(throws: ConfigurationError.self) { try Self.configuration(client: text) }
        #expect(client == ConfigurationError(field: "clients[0].user_verification", reason: reason))
    }
}

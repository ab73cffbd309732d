import Foundation
import Testing

@testable import Commands
@testable import Configuration
@testable import Service

/// The repository root, found from this file's path (Tests/ServerTests/CommandLine/…).
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

@Suite("check-config's report of a configuration that loads")
struct CheckConfigCommandTests {
    /// The report of the configuration with `issuer` and one realm, marked default or not.
    static func report(issuer: String, markedDefault: Bool) throws -> (warnings: [String], valid: String) {
        let text = """
            {"issuer": "\(issuer)", "relying_party": {"id": "example.com", "name": "Example"},
             "realms": [{"name": "main", "default": \(markedDefault), "identifiers": {"email": "required"}}]}
            """
        let configuration = try ConfigurationLoader.load(data: Data(text.utf8), source: "c.json", environment: [:])
        return CheckConfigCommand.report(configuration, file: "c.json")
    }

    @Test("an issuer with a path is valid, with a warning that says why it needs a proxy that strips the path")
    func issuerWithPath() throws {
        let report = try Self.report(issuer: "https://auth.example.com/tenant/", markedDefault: true)
        #expect(report.valid == "passkeyd: configuration c.json is valid")
        #expect(report.warnings.count == 1)
        let warning = try #require(report.warnings.first)
        #expect(warning.hasPrefix("passkeyd: warning: issuer: https://auth.example.com/tenant/ has a path (/tenant/)"))
        #expect(warning.contains("https://auth.example.com/tenant/.well-known/openid-configuration"))
    }

    @Test("a single realm not marked default is valid, with a warning naming it")
    func unmarkedRealm() throws {
        let report = try Self.report(issuer: "https://auth.example.com/", markedDefault: false)
        #expect(
            report.warnings == [
                "passkeyd: warning: realms[0].default: is not set: \"main\", the only realm, is the realm of requests "
                    + "that name none; mark it \"default\": true to say so (with a second realm, one must be)"
            ])
    }

    @Test("the shipped configuration and the tests' have no warning")
    func noWarnings() throws {
        #expect(try Self.report(issuer: "https://auth.example.com/", markedDefault: true).warnings.isEmpty)
        #expect(try Self.report(issuer: "http://localhost:8080", markedDefault: true).warnings.isEmpty)
        let shipped = try ConfigurationLoader.load(
            path: repositoryRoot.appendingPathComponent("Config/passkeyd.json").path, environment: [:])
        #expect(shipped.warnings.isEmpty)
        #expect(try TestConfiguration.make().warnings.isEmpty)
    }

    @Test("the file named is --config, else PASSKEYD_CONFIG, else Config/passkeyd.json")
    func file() {
        #expect(ConfigurationLoader.file("a.json", environment: ["PASSKEYD_CONFIG": "b.json"]) == "a.json")
        #expect(ConfigurationLoader.file(nil, environment: ["PASSKEYD_CONFIG": "b.json"]) == "b.json")
        #expect(ConfigurationLoader.file(nil, environment: [:]) == "Config/passkeyd.json")
    }
}

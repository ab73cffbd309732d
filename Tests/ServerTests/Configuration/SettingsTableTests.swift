import Foundation
import JSON
import Testing

@testable import Configuration
@testable import Service

/// The repository root, found from this file's path (Tests/ServerTests/Configuration/…).
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

@Suite("The settings table")
struct SettingsTableTests {
    /// The required settings, and nothing else.
    static var minimal: [String: Any] {
        [
            "issuer": "https://auth.example.com/",
            "relying_party": ["id": "example.com", "name": "Example"],
            "realms": [["name": "main", "default": true, "identifiers": ["email": "required"]]],
        ]
    }

    /// `document` with `value` at the dotted `key`.
    static func setting(_ key: String, to value: Any, in document: [String: Any]) -> [String: Any] {
        var document = document
        EnvironmentOverrides.set(&document, path: key.split(separator: ".").map(String.init), value: value)
        return document
    }

    @Test("the reader reads every setting of the table, and no setting the table does not declare")
    func readerReadsTheTable() throws {
        // Every optional object present, so that its members are read.
        let pkcs11: [String: Any] = ["module": "/m.so", "token_label": "t", "key_label": "k", "pin_env": "PIN"]
        var document = Self.minimal
        document["audit"] = ["signer": "pkcs11", "pkcs11": pkcs11]
        document["encryption_at_rest"] = ["key_file": "/k", "pkcs11": pkcs11]
        let log = ConfigObject.ReadLog()
        _ = try ServerConfiguration(document: document, readLog: log)
        let keys = Set(Settings.all.map(\.key))
        // Objects that hold settings (`http`, `audit.pkcs11`) and the fields of records (`clients[0].…`) aside.
        let read = log.paths.filter { path in
            !path.contains("[") && !keys.contains { $0.hasPrefix(path + ".") }
        }
        #expect(read.subtracting(keys).isEmpty, "read but not in the table: \(read.subtracting(keys).sorted())")
        #expect(keys.subtracting(read).isEmpty, "in the table but never read: \(keys.subtracting(read).sorted())")
        #expect(keys.count == Settings.all.count, "a key is declared twice")
    }

    @Test("every default written out in the file gives the configuration that leaving it out gives")
    func defaultsAreValid() throws {
        var document = Self.minimal
        for setting in Settings.all {
            guard let value = setting.defaultValue else { continue }
            document = Self.setting(setting.key, to: ConfigJSON.foundationValue(value), in: document)
        }
        #expect(try ServerConfiguration(document: document) == ServerConfiguration(document: Self.minimal))
    }

    @Test("Config/passkeyd.json writes each setting it states with the table's default")
    func shippedFileStatesTheDefaults() throws {
        let path = repositoryRoot.appendingPathComponent("Config/passkeyd.json").path
        let file = try JSONValue(parsing: Array(try #require(FileManager.default.contents(atPath: path))))
        var compared = 0
        for setting in Settings.all {
            // Lists (web origins, clients, realms) are the example's own.
            guard let value = setting.defaultValue, value.arrayValue == nil else { continue }
            var stated: JSONValue? = file
            for member in setting.path { stated = stated?[member] }
            guard let stated else { continue }
            #expect(stated == value, "\(setting.key)")
            compared += 1
        }
        #expect(compared > 50)
    }

    @Test("each variable is PASSKEYD_ and the key's path, upper-cased, and names one setting")
    func variables() {
        #expect(Settings.HTTP.maxBodyBytes.descriptor.variable == "PASSKEYD_HTTP_MAX_BODY_BYTES")
        #expect(Settings.Audit.pkcs11.pinEnvironmentVariable.descriptor.variable == "PASSKEYD_AUDIT_PKCS11_PIN_ENV")
        #expect(Settings.logLevel.descriptor.variable == "PASSKEYD_LOG_LEVEL")
        #expect(Set(EnvironmentOverrides.variableNames).count == Settings.all.count)
        #expect(Settings.setting(variable: "PASSKEYD_LISTEN_PORT")?.key == "listen.port")
    }

    @Test("log_level is a setting: from the file or PASSKEYD_LOG_LEVEL, info by default, a misspelling refused")
    func logLevel() throws {
        let data = try JSONSerialization.data(withJSONObject: Self.setting("log_level", to: "debug", in: Self.minimal))
        func load(_ environment: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
            try ConfigurationLoader.load(data: data, source: "test.json", environment: environment)
        }
        #expect(try load([:]).logLevel == .debug)
        #expect(try load(["PASSKEYD_LOG_LEVEL": "warning"]).logLevel == .warning)
        #expect(try ServerConfiguration(document: Self.minimal).logLevel == .info)
        let error = #expect(throws: ConfigurationError.self) { try load(["PASSKEYD_LOG_LEVEL": "verbose"]) }
        #expect(error?.field == "log_level")
        #expect(error?.reason == #"must be "debug", "info", "warning" or "error", got "verbose""#)
    }
}

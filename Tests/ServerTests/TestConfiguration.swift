import Foundation
import Storage

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// Builders shared by the server tests.
enum TestConfiguration {
    /// The issuer of `make`'s configuration.
    static let issuer = "https://auth.example.com/"
    /// Its account API (`<issuer>me/`), the audience `/me/…` accepts.
    static let accountAudience = issuer + "me/"

    /// A valid configuration for RP `example.com` with one native client, parsed through the real loader.
    static func make(_ overrides: [String: String] = [:]) throws -> ServerConfiguration {
        let document = """
            {
              "issuer": "https://auth.example.com/",
              "relying_party": { "id": "example.com", "name": "Example" },
              "web_origins": ["https://example.com"],
              "data_directory": "/nonexistent-test-dir",
              "admin": { "listen": "" },
              "clients": [{
                "client_id": "app",
                "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
                "mobile": {
                  "ios": { "team_id": "ABCDE12345", "app_bundle_identifier": "com.example.app" },
                  "android": { "app_package_name": "com.example.app",
                    "sha256_cert_fingerprints": ["\((0..<32).map { _ in "AB" }.joined(separator: ":"))"] }
                }
              }],
              "realms": [{ "name": "main", "default": true, "identifiers": { "email": "required" } }]
            }
            """
        return try ConfigurationLoader.load(data: Data(document.utf8), source: "test", environment: overrides)
    }
}

/// A store whose `ping` fails, for readiness tests.
final class UnavailableStore: Store {
    struct Down: Error {}
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T { throw Down() }
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        throw Down()
    }
    func close() async {}
}

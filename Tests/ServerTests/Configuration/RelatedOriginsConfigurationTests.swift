import Foundation
import Testing

@testable import Configuration

/// A realm's `related_origins` (WebAuthn L3 §5.11) as the loader reads and checks them.
@Suite("Configuration: related origins")
struct RelatedOriginsConfigurationTests {
    /// A minimal document whose one realm has `related_origins` set to `origins` (JSON text).
    static func document(_ origins: String) -> Data {
        Data(
            """
            {
              "issuer": "https://auth.example.com/",
              "relying_party": { "id": "example.com", "name": "Example" },
              "realms": [{ "name": "main", "identifiers": { "email": "required" }, "related_origins": \(origins) }]
            }
            """.utf8)
    }

    @Test("web origins of other domains load, in order; none by default")
    func loads() throws {
        let configuration = try ConfigurationLoader.load(
            data: Self.document(
                #"["https://example.co.uk", "https://shop.example.net:8443", "http://localhost:3000"]"#),
            source: "test", environment: [:])
        #expect(
            configuration.realms.first?.relatedOrigins == [
                "https://example.co.uk", "https://shop.example.net:8443", "http://localhost:3000",
            ])
        let none = try ConfigurationLoader.load(data: Self.document("[]"), source: "test", environment: [:])
        #expect(none.realms.first?.relatedOrigins == [])
    }

    @Test(
        "anything but a web origin is refused, naming the entry",
        arguments: [
            (#"["http://example.co.uk"]"#, "must use https"),
            (#"["https://example.co.uk/login"]"#, "is not an origin"),
            (#"["https://example.co.uk?x=1"]"#, "is not an origin"),
            (#"["https://user@example.co.uk"]"#, "is not an origin"),
            (#"["example.co.uk"]"#, "is not an origin"),
            (#"["android:apk-key-hash:abc"]"#, "is not an origin"),
            (#"["https://example.co.uk", "https://EXAMPLE.co.uk"]"#, "listed twice"),
        ])
    func refused(origins: String, reason: String) {
        do {
            _ = try ConfigurationLoader.load(data: Self.document(origins), source: "test", environment: [:])
            Issue.record("\(origins) loaded")
        } catch {
            #expect(error.field.hasPrefix("realms[0].related_origins["), "\(error.field)")
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test("a related_origins that is no array of strings is refused")
    func notAnArray() {
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(
                data: Self.document(#""https://example.co.uk""#), source: "test", environment: [:])
        }
    }
}

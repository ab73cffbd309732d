import Crypto
import Foundation
import JSON
import Metadata
import TestSupport

/// What the Metadata tests share: one test MDS authority (made once: it spawns `openssl` and makes an RSA key), its
/// verifier, and the fixture files under Tests/MetadataTests/Fixtures.
enum MetadataTestSupport {
    /// The shared authority; nil only if `openssl` failed (each test then fails on `#require`).
    static let authority: MetadataTestAuthority? = try? MetadataTestAuthority()

    /// A second, unrelated authority: its root is the "wrong root".
    static let otherAuthority: MetadataTestAuthority? = try? MetadataTestAuthority()

    /// An AAGUID for the tests' entries.
    static func aaguid(_ last: UInt8) -> [UInt8] { [UInt8](repeating: 0x11, count: 15) + [last] }

    /// A time of use within the test signers' validity: an hour from now.
    static var now: Date { Date().addingTimeInterval(3600) }

    /// `YYYY-MM-DD` of `days` from now.
    static func day(_ days: Int) -> String {
        MetadataDay.format(Date().addingTimeInterval(Double(days) * 86_400))
    }

    /// The directory Tests/MetadataTests/Fixtures.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support/
        .deletingLastPathComponent()  // MetadataTests/
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// The text of `name` in the fixtures directory.
    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }
}

import Crypto
import Foundation
import JSON
import Metadata
import TestSupport

/// What the metadata tests of the server share: one test MDS authority (made once: it runs `openssl`), a directory
/// with its root as a PEM file, and BLOB files written there.
struct MetadataFixture {
    /// The shared authority; nil only when `openssl` failed (each test then fails on `#require`).
    static let authority: MetadataTestAuthority? = try? MetadataTestAuthority()
    /// Another authority: BLOBs it signs do not chain to the configured root.
    static let stranger: MetadataTestAuthority? = try? MetadataTestAuthority()
    /// The AAGUID of the tests' authenticator.
    static let aaguid: [UInt8] = [UInt8](repeating: 0x5A, count: 15) + [0x01]

    let authority: MetadataTestAuthority
    let directory: URL

    init() throws {
        guard let authority = Self.authority else { throw FixtureError("the test MDS authority could not be made") }
        self.authority = authority
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-mds-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try authority.root.pemText.write(to: rootFile, atomically: true, encoding: .utf8)
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The root the BLOBs chain to, as a PEM file (`metadata.root_certificate_file`).
    var rootFile: URL { directory.appendingPathComponent("mds-root.pem") }
    /// The BLOB file a server reads (`metadata.blob_file`).
    var blobFile: URL { directory.appendingPathComponent("blob.jwt") }

    /// The settings' environment variables: the test root, and the BLOB file when `withFile`.
    func environment(withFile: Bool) -> [String: String] {
        var variables = ["PASSKEYD_METADATA_ROOT_CERTIFICATE_FILE": rootFile.path]
        if withFile { variables["PASSKEYD_METADATA_BLOB_FILE"] = blobFile.path }
        return variables
    }

    /// `YYYY-MM-DD` of `days` after `now`.
    static func day(_ days: Int, after now: Date) -> String {
        MetadataDay.format(now.addingTimeInterval(Double(days) * 86_400))
    }

    /// The entry of the tests' authenticator: `description`, an icon, the given reports.
    static func entry(
        description: String = "Acme Test Key",
        reports: [(status: AuthenticatorStatus, effectiveDate: String?)] = [(.fidoCertifiedL1, "2020-01-01")]
    ) -> JSONValue {
        MetadataTestAuthority.entry(
            aaguid: aaguid, reports: reports, description: description, icon: "data:image/png;base64,iVBORw0KGgo=")
    }

    /// A signed BLOB with `serial`, its `nextUpdate` `days` after `now`.
    func blob(serial: Int64, days: Int = 30, now: Date, entries: [JSONValue] = [entry()]) throws -> String {
        try authority.blob(serial: serial, nextUpdate: Self.day(days, after: now), entries: entries)
    }

    /// Writes `text` as the BLOB file.
    func write(_ text: String) throws {
        try text.write(to: blobFile, atomically: true, encoding: .utf8)
    }

    /// `jws` with its signature replaced by `other`'s: a BLOB whose signature does not verify.
    static func tampered(_ jws: String, signatureOf other: String) -> String {
        let parts = jws.split(separator: ".")
        let signature = other.split(separator: ".").last ?? ""
        return "\(parts[0]).\(parts[1]).\(signature)"
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

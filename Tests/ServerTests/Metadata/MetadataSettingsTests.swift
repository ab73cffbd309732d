import Crypto
import Foundation
import Metadata
import TestSupport
import Testing

@testable import Configuration
@testable import Service
@testable import passkeyd

/// `metadata.*`: read at load, roots and CRLs parsed then; and a server loads the BLOB before it serves.
@Suite("Configuration: metadata settings, and the BLOB at start")
struct MetadataSettingsTests {
    @Test("defaults: no BLOB file, the built-in FIDO MDS root, no CRL, a refresh a minute")
    func defaults() throws {
        let metadata = try TestConfiguration.make().metadata
        #expect(metadata.blobFile == nil && metadata.rootCertificateFile == nil)
        #expect(metadata.roots == BuiltinMetadataRoot.certificates && metadata.roots.count == 1)
        #expect(metadata.crls.isEmpty && metadata.refreshIntervalSeconds == 60)
    }

    @Test("a root file, CRL files (PEM or DER) and an interval are read; what does not read or parse stops the load")
    func filesAndRefusals() throws {
        let fixture = try MetadataFixture()
        defer { fixture.remove() }
        let crl = try fixture.authority.crl(issuer: .intermediate)
        let pemCRL = fixture.directory.appendingPathComponent("intermediate.crl.pem")
        let base64 = Data(crl.derEncoded).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        try "-----BEGIN X509 CRL-----\n\(base64)\n-----END X509 CRL-----\n".write(
            to: pemCRL, atomically: true, encoding: .utf8)
        let derCRL = fixture.directory.appendingPathComponent("intermediate.crl")
        try Data(crl.derEncoded).write(to: derCRL)
        let metadata = try TestConfiguration.make(
            fixture.environment(withFile: true).merging([
                "PASSKEYD_METADATA_CRL_FILES": "[\"\(pemCRL.path)\", \"\(derCRL.path)\"]",
                "PASSKEYD_METADATA_REFRESH_INTERVAL_SECONDS": "300",
            ]) { $1 }
        ).metadata
        #expect(metadata.roots == [fixture.authority.root])
        #expect(metadata.crls == [crl, crl])
        #expect(metadata.blobFile == fixture.blobFile.path && metadata.refreshIntervalSeconds == 300)

        let garbage = fixture.directory.appendingPathComponent("garbage")
        try Data("not a certificate".utf8).write(to: garbage)
        let refusals: [([String: String], String, String)] = [
            (
                ["PASSKEYD_METADATA_ROOT_CERTIFICATE_FILE": "/nonexistent/root.pem"], "metadata.root_certificate_file",
                "cannot read /nonexistent/root.pem"
            ),
            (["PASSKEYD_METADATA_ROOT_CERTIFICATE_FILE": garbage.path], "metadata.root_certificate_file", garbage.path),
            (["PASSKEYD_METADATA_CRL_FILES": "[\"\(garbage.path)\"]"], "metadata.crl_files[0]", "is not a CRL"),
            (["PASSKEYD_METADATA_CRL_FILES": "[\"/nonexistent/x.crl\"]"], "metadata.crl_files[0]", "cannot read"),
            (["PASSKEYD_METADATA_REFRESH_INTERVAL_SECONDS": "1"], "metadata.refresh_interval_seconds", "5"),
            (["PASSKEYD_METADATA_BLOB_FILE": ""], "metadata.blob_file", "must not be empty"),
        ]
        for (environment, field, reason) in refusals {
            let failure = RecordingConfigurationTests.failure(environment)
            #expect(failure?.field == field, "\(environment): \(String(describing: failure))")
            #expect(failure?.reason.contains(reason) == true, "\(environment): \(String(describing: failure))")
        }
    }

    @Test("a server loads its BLOB file before it serves")
    func atStart() async throws {
        let fixture = try MetadataFixture()
        defer { fixture.remove() }
        try fixture.write(try fixture.blob(serial: 3, now: Date()))
        let server = try await LiveServer.start(environment: fixture.environment(withFile: true))
        #expect(server.running.context.metadata.current()?.blob.serial == 3)
        #expect(try await server.running.context.store.read { try $0.latestMetadataSerial() } == 3)
        await server.stop()
    }
}

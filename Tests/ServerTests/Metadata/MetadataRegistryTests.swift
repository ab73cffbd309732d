import Crypto
import Foundation
import JSON
import Metadata
import Storage
import TestSupport
import Testing

@testable import Service

/// `MetadataRegistry`: a server's FIDO MDS3 BLOB, from `metadata.blob_file` and from the store, refreshed by calls
/// (the loop only calls `refresh()` on a timer; no test sleeps).
@Suite("The metadata registry: the BLOB a server uses")
struct MetadataRegistryTests {
    /// The error lines a refresh logged since `count` lines.
    static func lines(_ harness: PasskeyHarness, after count: Int, containing text: String) -> [String] {
        harness.logLines.all.dropFirst(count).filter { $0.contains(text) }
    }

    @Test("the BLOB file is verified, stored and used; a tampered, older or stale one is refused, the last kept")
    func blobFile() async throws {
        let fixture = try MetadataFixture()
        defer { fixture.remove() }
        let harness = try PasskeyHarness(fixture.environment(withFile: true))
        let registry = harness.context.metadata
        let now = harness.clock.now()
        #expect(registry.current() == nil, "nothing before the first refresh")
        let five = try fixture.blob(serial: 5, now: now)
        try fixture.write(five)
        await registry.refresh()
        #expect(registry.current()?.blob.serial == 5)
        #expect(registry.current()?.source == "file:\(fixture.blobFile.path)")
        #expect(registry.current()?.catalog.entry(aaguid: MetadataFixture.aaguid) != nil)
        let stored = try #require(try await harness.context.store.read { try $0.latestMetadataBLOB() })
        #expect(stored.serial == 5 && stored.jws == five && stored.source == "file:\(fixture.blobFile.path)")
        let events = try await harness.context.store.read { try $0.securityEvents(after: 0, limit: 100) }
            .filter { $0.kind == SecurityEvent.Kind.metadataLoaded.rawValue }
        #expect(events.count == 1)
        let detail = try JSONValue(parsing: try #require(events.first?.detail))
        #expect(detail["serial"]?.intValue == 5 && detail["entries"]?.intValue == 1)
        #expect(detail["source"]?.stringValue == "file:\(fixture.blobFile.path)")
        #expect(detail["sha256"]?.stringValue == Hex.encode(Digest.sha256(Array(five.utf8))))

        // Each refusal: one error line naming the file and why, the BLOB in use unchanged.
        let refusals: [(String, String)] = [
            (MetadataFixture.tampered(try fixture.blob(serial: 6, now: now), signatureOf: five), "bad_signature"),
            (try fixture.blob(serial: 3, now: now), "older than the stored BLOB's 5"),
            (try fixture.blob(serial: 7, days: -2, now: now), "stale"),
            (
                try #require(MetadataFixture.stranger).blob(
                    serial: 8, nextUpdate: MetadataFixture.day(30, after: now), entries: [MetadataFixture.entry()]),
                "untrusted_chain"
            ),
            ("not a JWS", "malformed"),
        ]
        for (text, reason) in refusals {
            let before = harness.logLines.all.count
            try fixture.write(text)
            await registry.refresh()
            let refused = Self.lines(harness, after: before, containing: "metadata BLOB file refused")
            #expect(refused.count == 1, "\(reason): \(harness.logLines.all.dropFirst(before))")
            #expect(refused.first?.contains(reason) == true, "\(reason): \(refused)")
            #expect(refused.first?.contains(fixture.blobFile.path) == true)
            #expect(refused.first?.contains("\"level\":\"error\"") == true, "\(refused)")
            #expect(registry.current()?.blob.serial == 5, "\(reason): the last good BLOB is kept")
            await registry.refresh()
            #expect(
                Self.lines(harness, after: before, containing: "metadata BLOB file refused").count == 1,
                "\(reason): refused once, not at every refresh")
        }
        #expect(try await harness.context.store.read { try $0.latestMetadataSerial() } == 5)

        try fixture.write(try fixture.blob(serial: 9, now: now))
        await registry.refresh()
        #expect(registry.current()?.blob.serial == 9, "a newer BLOB replaces it")
        try FileManager.default.removeItem(at: fixture.blobFile)
        let before = harness.logLines.all.count
        await registry.refresh()
        #expect(Self.lines(harness, after: before, containing: "cannot be read").count == 1)
        #expect(registry.current()?.blob.serial == 9, "a missing file keeps the BLOB in use")
    }

    @Test("a BLOB another node or the command line stored is verified again and used; one that does not verify is not")
    func fromTheStore() async throws {
        let fixture = try MetadataFixture()
        defer { fixture.remove() }
        let harness = try PasskeyHarness(fixture.environment(withFile: false))
        let registry = harness.context.metadata
        let now = harness.clock.now()
        let verifier = MetadataBLOBVerifier(roots: [fixture.authority.root])
        let two = try verifier.verify(try fixture.blob(serial: 2, now: now), at: now)
        #expect(try await MetadataBLOBStorage.store(two, source: "cli", now: now, in: harness.context.store) == .stored)
        await registry.refresh()
        #expect(registry.current()?.blob.serial == 2)
        #expect(registry.current()?.source == "cli")

        // A row no verifier here accepts (written past the command line): never used, its refusal logged once.
        let strange = try #require(MetadataFixture.stranger).blob(
            serial: 3, nextUpdate: MetadataFixture.day(30, after: now), entries: [MetadataFixture.entry()])
        _ = try await harness.context.store.write {
            try $0.storeMetadataBLOB(
                MetadataBLOBRecord(
                    serial: 3, jws: strange, sha256: Digest.sha256(Array(strange.utf8)),
                    nextUpdate: now.addingTimeInterval(86_400), loadedAt: now, source: "cli"))
        }
        let before = harness.logLines.all.count
        await registry.refresh()
        await registry.refresh()
        let refused = Self.lines(harness, after: before, containing: "does not verify on this node")
        #expect(refused.count == 1, "\(harness.logLines.all.dropFirst(before))")
        #expect(refused.first?.contains("untrusted_chain") == true)
        #expect(registry.current()?.blob.serial == 2, "the last good BLOB is kept")

        // Verified at the time it was stored: a BLOB stored while fresh is used after its nextUpdate (stale).
        let four = try verifier.verify(try fixture.blob(serial: 4, days: 1, now: now), at: now)
        _ = try await MetadataBLOBStorage.store(four, source: "cli", now: now, in: harness.context.store)
        harness.clock.advance(5 * 86_400)
        await registry.refresh()
        #expect(registry.current()?.blob.serial == 4)
        #expect(registry.current()?.isStale(at: harness.clock.now()) == true)
    }

    @Test("a stored row is verified against its own JWS: another serial or hash in the row is refused")
    func storedRowMatchesItsJWS() throws {
        let fixture = try MetadataFixture()
        defer { fixture.remove() }
        let now = Date()
        let verifier = MetadataBLOBVerifier(roots: [fixture.authority.root])
        let blob = try verifier.verify(try fixture.blob(serial: 7, now: now), at: now)
        let record = MetadataBLOBStorage.record(blob, source: "cli", now: now)
        #expect(try StoredMetadataBLOB.verify(record, with: verifier).blob.serial == 7)
        var otherSerial = record
        otherSerial.serial = 8
        #expect(throws: MetadataError(.malformed, "")) { try StoredMetadataBLOB.verify(otherSerial, with: verifier) }
        var otherHash = record
        otherHash.sha256 = Digest.sha256([0])
        #expect(throws: MetadataError(.malformed, "")) { try StoredMetadataBLOB.verify(otherHash, with: verifier) }
    }

    @Test("a stale BLOB stays in use: a warning once per refresh interval, and the /metrics gauge")
    func stale() async throws {
        let fixture = try MetadataFixture()
        defer { fixture.remove() }
        let harness = try PasskeyHarness(fixture.environment(withFile: true))
        let registry = harness.context.metadata
        #expect(registry.metricsText(now: harness.clock.now()).contains("passkeyd_metadata_blob_loaded 0"))
        try fixture.write(try fixture.blob(serial: 1, days: 1, now: harness.clock.now()))
        await registry.refresh()
        let fresh = registry.metricsText(now: harness.clock.now())
        #expect(fresh.contains("passkeyd_metadata_blob_serial 1"))
        #expect(fresh.contains("passkeyd_metadata_blob_stale 0"))
        // Its nextUpdate is tomorrow: current through tomorrow's last second, stale the day after.
        harness.clock.advance(86_400)
        await registry.refresh()
        #expect(Self.lines(harness, after: 0, containing: "is stale").isEmpty)
        harness.clock.advance(86_400)
        await registry.refresh()
        await registry.refresh()
        #expect(Self.lines(harness, after: 0, containing: "is stale").count == 1, "once per interval")
        #expect(registry.current()?.blob.serial == 1, "still in use")
        #expect(registry.metricsText(now: harness.clock.now()).contains("passkeyd_metadata_blob_stale 1"))
        harness.clock.advance(Double(harness.context.configuration.metadata.refreshIntervalSeconds))
        await registry.refresh()
        #expect(Self.lines(harness, after: 0, containing: "is stale").count == 2, "again an interval later")
    }
}

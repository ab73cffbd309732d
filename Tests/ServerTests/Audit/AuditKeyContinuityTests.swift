import Audit
import Crypto
import Foundation
import Storage
import Synchronization
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Audit log: a node says at start when the latest checkpoint is not signed by its key")
struct AuditKeyContinuityTests {
    static func signer() throws -> SoftwareNoteSigner {
        try SoftwareNoteSigner(name: "example.com/passkeyd-audit", key: Ed25519SigningKey())
    }

    /// The error lines `AuditKeyContinuity.check` writes for `store` and `signer`.
    static func errors(_ store: any Store, _ signer: any NoteSigner) async -> [String] {
        let lines = Mutex<[String]>([])
        await AuditKeyContinuity.check(
            store: store, signer: signer, logger: Logger(sink: { line in lines.withLock { $0.append(line) } }))
        return lines.withLock { $0 }
    }

    @Test("no checkpoint: nothing to say; the same key: nothing; another key: one error naming both")
    func mismatchNamed() async throws {
        let context = try AuditLogTests.context()
        let signing = try Self.signer()
        let other = try Self.signer()
        #expect(await Self.errors(context.store, other).isEmpty)
        try await AuditLogTests.record(3, in: context)
        _ = try await AuditSequencer.drain(store: context.store)
        let checkpoint = try await AuditCheckpointer.checkpointIfGrown(
            store: context.store, signer: signing, origin: "example.com/passkeyd-audit", now: Date())
        #expect(checkpoint != nil)
        #expect(await Self.errors(context.store, signing).isEmpty)
        let errors = await Self.errors(context.store, other)
        #expect(errors.count == 1)
        let line = try #require(errors.first)
        #expect(line.contains("\"level\":\"error\""), "\(line)")
        #expect(line.contains("size 3"))
        #expect(line.contains(other.verifierKey.description), "names this node's key")
        let signedBy = try #require(try SignedNote(parsing: checkpoint?.note ?? "").signatures.first?.keyText)
        #expect(line.contains(signedBy), "names the key that signed it")
    }

    @Test(
        "a node started with another audit.key_file on the same database logs the error; with the log's key it does not"
    )
    func atStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-audit-key-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        func start(keyFile: String) async throws -> (PasskeydServer.Running, [String]) {
            var overrides = PasskeyHarness.overrides
            overrides["PASSKEYD_LISTEN_PORT"] = "0"
            overrides["PASSKEYD_DATA_DIRECTORY"] = directory.path
            overrides["PASSKEYD_AUDIT_SIGNER"] = "file"
            overrides["PASSKEYD_AUDIT_KEY_FILE"] = directory.appendingPathComponent(keyFile).path
            let lines = Mutex<[String]>([])
            let running = try await PasskeydServer.start(
                configuration: try TestConfiguration.make(overrides),
                logger: Logger(sink: { line in lines.withLock { $0.append(line) } }))
            return (running, lines.withLock { $0 })
        }
        let (first, _) = try await start(keyFile: "a.key")
        let configuration = first.context.configuration
        await first.stop()
        // A checkpoint by key a, as the first node's checkpointer would sign it.
        let store = try await DatabaseDrivers.openStore(configuration)
        try await store.write {
            _ = try $0.appendSecurityEvent(SecurityEvent(occurredAt: Date(), storedKind: "test", outcome: "success"))
        }
        _ = try await AuditSequencer.drain(store: store)
        let signer = try #require(try AuditSignerLoader.load(configuration.audit, environment: [:]))
        _ = try await AuditCheckpointer.checkpointIfGrown(
            store: store, signer: signer, origin: configuration.audit.origin, now: Date())
        await store.close()

        let (other, otherLines) = try await start(keyFile: "b.key")
        await other.stop()
        #expect(otherLines.contains { $0.contains("is not signed by this node's audit key") })
        let (same, sameLines) = try await start(keyFile: "a.key")
        await same.stop()
        #expect(!sameLines.contains { $0.contains("is not signed by this node's audit key") })
    }
}

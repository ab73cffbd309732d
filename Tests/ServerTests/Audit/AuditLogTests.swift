import Audit
import Crypto
import Foundation
import HTTP
import JSON
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Audit log: sequencer, checkpoints, admin endpoints, export and verify")
struct AuditLogTests {
    static func context() throws -> ServerContext {
        ServerContext(
            configuration: try TestConfiguration.make(), store: MemoryStore(), logger: Logger(sink: { _ in }))
    }

    /// Records `count` events through the context's store as a request would (origin bound).
    static func record(_ count: Int, in context: ServerContext, from: Int = 0) async throws {
        for n in from..<(from + count) {
            let origin = SecurityEventOrigin(requestID: "req-\(n)", clientAddress: "192.0.2.\(n % 250)")
            try await SecurityEventOrigin.$current.withValue(origin) {
                _ = try await context.store.write { writer in
                    try writer.appendSecurityEvent(
                        SecurityEvent(
                            occurredAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(n)), kind: .login,
                            userID: "user-\(n)", clientID: "app", outcome: "success"))
                }
            }
        }
    }

    @Test("events are sequenced gap-free into canonical entries carrying request, address and node")
    func sequencing() async throws {
        let context = try Self.context()
        try await Self.record(7, in: context)
        #expect(try await AuditSequencer.sequenceBatch(store: context.store, limit: 3) == 3)
        #expect(try await AuditSequencer.drain(store: context.store) == 4)
        let leaves = try await context.store.read { try $0.auditLeaves(start: 0, end: 100) }
        #expect(leaves.map(\.index) == Array(0..<7))
        let first = String(decoding: leaves[0].entry, as: UTF8.self)
        #expect(
            first
                == #"{"actor":{"client_id":"app","user_id":"user-0"},"client_address":"192.0.2.0","event":"login","#
                + #""node_id":"\#(context.configuration.audit.nodeID)","outcome":"success","request_id":"req-0","#
                + #""seq":0,"time":"2027-01-15T08:00:00.000Z"}"#)
        let tree = try await context.store.read { try $0.auditTree() }
        let frontier = try TreeFrontier(size: tree.size, serialized: tree.frontier)
        #expect(frontier.root == MerkleTree.root(leaves.map { MerkleHash.leaf($0.entry) }))
    }

    @Test("a checkpoint is signed when the tree grew, served on the admin listener with proofs that verify")
    func endpoints() async throws {
        let context = try Self.context()
        let signer = try SoftwareNoteSigner(name: "example.com/passkeyd-audit", key: Ed25519SigningKey())
        let admin = TestClient(responder: AdminApplication(context: context, auditSigner: signer))
        #expect(await admin.get("/audit/checkpoint").status == 404)
        try await Self.record(5, in: context)
        _ = try await AuditSequencer.drain(store: context.store)
        let signed = try await AuditCheckpointer.checkpointIfGrown(
            store: context.store, signer: signer, origin: "example.com/passkeyd-audit", now: Date())
        #expect(signed?.treeSize == 5)
        #expect(
            try await AuditCheckpointer.checkpointIfGrown(
                store: context.store, signer: signer, origin: "example.com/passkeyd-audit", now: Date()) == nil)

        let note = String(decoding: await admin.get("/audit/checkpoint").body, as: UTF8.self)
        let key = try NoteVerifierKey(parsing: String(decoding: await admin.get("/audit/key").body, as: UTF8.self))
        let parsed = try SignedNote(parsing: note)
        try parsed.verify(with: key)
        let checkpoint = try Checkpoint(text: parsed.text)

        let entries = await admin.get("/audit/entries?start=0&end=5")
        let lines = entries.body.split(separator: 0x0A).map(Array.init)
        #expect(lines.count == 5)
        let proofResponse = await admin.get("/audit/proof/inclusion?index=3&tree_size=5")
        guard case .object(let members) = try JSONValue(parsing: proofResponse.body),
            case .array(let hashes)? = members.first(where: { $0.key == "hashes" })?.value
        else {
            Issue.record("no hashes in \(String(decoding: proofResponse.body, as: UTF8.self))")
            return
        }
        let proof = hashes.compactMap { $0.stringValue.flatMap { Data(base64Encoded: $0) }.map(Array.init) }
        #expect(
            MerkleTree.verifyInclusion(
                leafHash: MerkleHash.leaf(lines[3]), index: 3, treeSize: 5, proof: proof, root: checkpoint.rootHash))
        #expect(await admin.get("/audit/entries?start=0&end=6").status == 400)
        #expect(await admin.get("/audit/entries?start=x&end=2").status == 400)
        #expect(await admin.get("/audit/proof/consistency?first=2&second=5").status == 200)
        #expect(await admin.get("/audit/proof/consistency?first=0&second=5").status == 400)
        // Never on the public port.
        #expect(await TestClient(responder: Application(context: context)).get("/audit/checkpoint").status == 404)
    }

    @Test("export then verify: OK, consistent with a kept checkpoint; a changed entry is named")
    func exportAndVerify() async throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("passkeyd-audit-\(UUID())")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyFile = directory + ".key"
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        let configuration = try TestConfiguration.make([
            "PASSKEYD_AUDIT_SIGNER": "file", "PASSKEYD_AUDIT_KEY_FILE": keyFile,
        ])
        let context = ServerContext(configuration: configuration, store: MemoryStore(), logger: Logger(sink: { _ in }))
        let signer = try #require(try AuditSignerLoader.load(configuration.audit, environment: [:]))
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        try await Self.record(4, in: context)
        _ = try await AuditSequencer.drain(store: context.store)
        let kept = try #require(
            try await AuditCheckpointer.checkpointIfGrown(
                store: context.store, signer: signer, origin: configuration.audit.origin, now: Date()))
        try await Self.record(3, in: context, from: 4)
        _ = try await AuditSequencer.drain(store: context.store)
        _ = try await AuditCheckpointer.checkpointIfGrown(
            store: context.store, signer: signer, origin: configuration.audit.origin, now: Date())
        _ = try await AuditCommands.export(store: context.store, configuration: configuration, to: directory)
        let previous = directory + ".previous"
        defer { try? FileManager.default.removeItem(atPath: previous) }
        try Data(kept.note.utf8).write(to: URL(fileURLWithPath: previous))
        let key = signer.verifierKey.description
        let (status, message) = AuditCommands.verify(directory: directory, key: key, previous: previous)
        #expect(status == 0, "\(message)")
        #expect(message.contains("7 entries") && message.contains("previous checkpoint of 4"))

        let entriesFile = URL(fileURLWithPath: directory).appendingPathComponent("entries")
        var text = try String(contentsOf: entriesFile, encoding: .utf8)
        text = text.replacingOccurrences(of: "user-5", with: "user-9")
        try Data(text.utf8).write(to: entriesFile)
        let (badStatus, badMessage) = AuditCommands.verify(directory: directory, key: key, previous: previous)
        #expect(badStatus == 1)
        #expect(badMessage.contains("entry 5:"), "\(badMessage)")

        // The changed entry's root written into the exported checkpoint, its signature line kept: refused for it.
        let checkpointFile = URL(fileURLWithPath: directory).appendingPathComponent("checkpoint")
        var note = try String(contentsOf: checkpointFile, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        let leaves = text.split(separator: "\n").map { MerkleHash.leaf(Array($0.utf8)) }
        note[2] = Data(MerkleTree.root(leaves)).base64EncodedString()
        try Data(note.joined(separator: "\n").utf8).write(to: checkpointFile)
        let (forgedStatus, forgedMessage) = AuditCommands.verify(directory: directory, key: key, previous: previous)
        #expect(forgedStatus == 1)
        #expect(
            forgedMessage == "FAIL: checkpoint: the signature by \(signer.verifierKey.name) does not verify",
            "\(forgedMessage)")
    }
}

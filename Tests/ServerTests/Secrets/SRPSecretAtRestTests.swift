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

@Suite("Secrets at rest: an SRP session's server secret b is sealed, bound to its session")
struct SRPSecretAtRestTests {
    static let identity = PasswordFallbackLoginTests.identity
    static let password = PasswordFallbackLoginTests.password

    /// An enrolled user on a harness whose store keeps every SRP session as it is inserted.
    static func enrolled(_ environment: [String: String]) async throws -> (SRPHarness, SRPSessionCapture) {
        let capture = SRPSessionCapture()
        let (harness, _) = try await PasswordFallbackLoginTests.enrolled(environment, store: capture)
        return (harness, capture)
    }

    @Test("with a key-encryption key: b is stored as an envelope, never in the clear, and the login succeeds")
    func sealed() async throws {
        let (harness, capture) = try await Self.enrolled([
            SecretEncryptionTests.variable: try SecretEncryptionTests.keyFile()
        ])
        let (response, _) = try await harness.logIn(identity: Self.identity, password: Self.password)
        #expect(response.status == 200, "\(response.bodyText)")
        let session = try #require(capture.inserted.withLock { $0.first })
        #expect(SecretEncryption.isSealed(session.serverSecret))
        #expect(session.serverSecret.count == 4 + 8 + 12 + PasswordFallback.serverSecretLength + 16)
        let keys = try harness.passkeys.context.secrets.get()
        let b = try keys.serverSecret(of: session)
        #expect(b.count == PasswordFallback.serverSecretLength)
        // b is what B was computed from (B = k·v + g^b).
        let verifier = try keys.verifier(session.verifier, boundTo: .session(session.id), width: harness.srp.width)
        #expect(try harness.srp.serverPublic(verifier: verifier, secret: b) == session.serverPublic)
        // Moved to another session's row, or read by a node without the key, it does not open.
        var moved = session
        moved.id = "another-session"
        #expect(throws: SecretEncryption.Failure.self) { try keys.serverSecret(of: moved) }
        #expect(throws: SecretEncryption.Failure.self) { try SecretEncryptionKeys.none.serverSecret(of: session) }
    }

    @Test("without one: b is stored as the 32 bytes it is, and read back as such")
    func unencrypted() async throws {
        let (harness, capture) = try await Self.enrolled([:])
        let (response, _) = try await harness.logIn(identity: Self.identity, password: Self.password)
        #expect(response.status == 200, "\(response.bodyText)")
        let session = try #require(capture.inserted.withLock { $0.first })
        #expect(session.serverSecret.count == PasswordFallback.serverSecretLength)
        #expect(try SecretEncryptionKeys.none.serverSecret(of: session) == session.serverSecret)
    }
}

/// A memory store that keeps a copy of every SRP session inserted, as the server stored it.
final class SRPSessionCapture: Store {
    let base = MemoryStore()
    let inserted = Mutex<[SRPSession]>([])

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        try await base.write { writer in try body(CapturingWriter(writer, capture: self)) }
    }

    func close() async { await base.close() }

    private final class CapturingWriter: ForwardingStoreWriter {
        let capture: SRPSessionCapture

        init(_ writer: any StoreWriter, capture: SRPSessionCapture) {
            self.capture = capture
            super.init(writer)
        }

        override func insert(_ record: NewRecord) throws(StorageError) -> Bool {
            if case .srpSession(let session) = record { capture.inserted.withLock { $0.append(session) } }
            return try writer.insert(record)
        }
    }
}

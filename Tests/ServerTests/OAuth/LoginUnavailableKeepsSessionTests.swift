import Foundation
import SoftwareClient
import Storage
import Synchronization
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// docs/api.md: a 503 `temporarily_unavailable` means nothing was written. A login whose write finds the database
/// unavailable is answered 503 and leaves its auth session unspent, so the client's retry of the same grant succeeds
/// (issue 36: the refusal path used to spend the session, turning the retry into 403 `session_unknown`).
@Suite("POST /oauth/token, webauthn grant: a 503 leaves the auth session usable")
struct LoginUnavailableKeepsSessionTests {
    @Test("the login write fails with the database busy: 503, then the same auth_session and response log in")
    func retryAfterUnavailable() async throws {
        let store = FailingLoginWriteStore()
        let harness = try PasskeyHarness(store: store)
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        let assertion = try authenticator.assert(options)
        store.failNextLogin.withLock { $0 = true }
        let unavailable = await harness.token(session: session, response: assertion)
        #expect(unavailable.status == 503, "\(unavailable.bodyText)")
        #expect(unavailable.errorCode == "temporarily_unavailable")
        #expect(store.failedLogins.withLock { $0 } == 1, "the login reached its write and the write failed")
        let retried = await harness.token(session: session, response: assertion)
        #expect(retried.status == 200, "\(retried.bodyText)")
        #expect(try retried.jsonValue()["access_token"]?.stringValue != nil)
        // Single use still holds once the login has succeeded.
        let again = await harness.token(session: session, response: assertion)
        #expect(again.status == 403, "\(again.bodyText)")
        #expect(again.errorCode == "invalid_grant")
    }

    @Test("a refusal that is the client's (a tampered signature) still spends the session")
    func refusalStillSpends() async throws {
        let harness = try PasskeyHarness(store: MemoryStore())
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let (options, session) = try await harness.loginOptions()
        var corrupt = CeremonyTampering.none
        corrupt.corruptsSignature = true
        let tampered = try authenticator.assert(options, corrupt)
        let good = try authenticator.assert(options)
        let refused = await harness.token(session: session, response: tampered)
        #expect(refused.status == 403, "\(refused.bodyText)")
        let retried = await harness.token(session: session, response: good)
        #expect(retried.status == 403, "the session was spent by the refusal: \(retried.bodyText)")
        #expect(harness.counted("invalid_grant:session_unknown"), "refused for the spent session, not the assertion")
    }
}

/// A memory store whose next `completeLogin`, when `failNextLogin` is set, throws `StorageError(.busy)`: a database
/// that became unavailable between the login's read and its write.
private final class FailingLoginWriteStore: Store {
    let failNextLogin = Mutex(false)
    /// How many login writes failed.
    let failedLogins = Mutex(0)
    private let base = MemoryStore()

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        try await base.write { writer in try body(FailingLoginWriter(base: writer, store: self)) }
    }

    func close() async { await base.close() }
}

private final class FailingLoginWriter: ForwardingStoreWriter {
    let store: FailingLoginWriteStore

    init(base: any StoreWriter, store: FailingLoginWriteStore) {
        self.store = store
        super.init(base)
    }

    override func completeLogin(_ login: LoginCompletion) throws(StorageError) -> LoginCompletion.Outcome {
        let fail = store.failNextLogin.withLock { flag in
            defer { flag = false }
            return flag
        }
        if fail {
            store.failedLogins.withLock { $0 += 1 }
            throw StorageError(.busy, "the database is unavailable (test)")
        }
        return try writer.completeLogin(login)
    }
}

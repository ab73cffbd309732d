import Foundation
import HTTP
import JSON
import SoftwareClient
import Storage
import Synchronization
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// docs/api.md: a 503 `temporarily_unavailable` means nothing was written. A sign-up (the webauthn grant on a
/// `/passkey/register` session) or a passkey added to an account (`POST /me/passkeys`) whose write finds the database
/// unavailable is answered 503 and leaves its auth session unspent, so the client's retry of the same request
/// succeeds (issue 36: both spent the session in a write of its own before their user or credential write).
@Suite("Sign-up and POST /me/passkeys: a 503 leaves the auth session usable")
struct SignupUnavailableKeepsSessionTests {
    @Test("the sign-up write fails with the database busy: 503, then the same auth_session and response sign up")
    func signupRetryAfterUnavailable() async throws {
        let store = FailingCredentialWriteStore()
        let harness = try PasskeyHarness(store: store)
        var authenticator = Passkey()
        let challenge = try await harness.registerChallenge(email: "retry@example.com").jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        let response = try authenticator.register(options)
        store.failNext.withLock { $0 = true }
        let unavailable = await harness.token(session: session, response: response)
        #expect(unavailable.status == 503, "\(unavailable.bodyText)")
        #expect(unavailable.errorCode == "temporarily_unavailable")
        #expect(store.failures.withLock { $0 } == 1, "the sign-up reached its write and the write failed")
        #expect(try await harness.context.store.read { try $0.users(afterID: nil, limit: 10) }.isEmpty)
        let retried = await harness.token(session: session, response: response)
        #expect(retried.status == 200, "\(retried.bodyText)")
        #expect(try retried.jsonValue()["access_token"]?.stringValue != nil)
        // Single use still holds once the sign-up has succeeded.
        let again = await harness.token(session: session, response: response)
        #expect(again.status == 403, "\(again.bodyText)")
        #expect(harness.counted("invalid_grant:session_unknown"))
    }

    @Test("a sign-up refusal that is the client's (another challenge signed) still spends the session")
    func signupRefusalStillSpends() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        let challenge = try await harness.registerChallenge(email: "refused@example.com").jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        var tampering = CeremonyTampering.none
        tampering.challenge = [UInt8](repeating: 7, count: 32)  // a challenge the server never gave
        let refused = await harness.token(session: session, response: try authenticator.register(options, tampering))
        #expect(refused.status == 403, "\(refused.bodyText)")
        #expect(!harness.counted("invalid_grant:session_unknown"))
        let retried = await harness.token(session: session, response: try authenticator.register(options))
        #expect(retried.status == 403, "the session was spent by the refusal: \(retried.bodyText)")
        #expect(harness.counted("invalid_grant:session_unknown"), "refused for the spent session")
    }

    @Test("adding a passkey fails with the database busy: 503, then the same auth_session and response add it")
    func addPasskeyRetryAfterUnavailable() async throws {
        let store = FailingCredentialWriteStore()
        let harness = try PasskeyHarness(store: store)
        var first = Passkey()
        let signedUp = try await harness.signUp(&first, audience: TestConfiguration.accountAudience)
        let bearer: HTTPHeaders = ["Authorization": "Bearer \(try #require(signedUp["access_token"]?.stringValue))"]
        let challenge = try await harness.client.post(
            "/me/passkeys/challenge", json: [String: String](), headers: bearer
        ).jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        var second = Passkey()
        let body: JSONValue = ["auth_session": .string(session), "authn_response": try second.register(options)]
        store.failNext.withLock { $0 = true }
        let unavailable = await harness.client.post("/me/passkeys", json: body, headers: bearer)
        #expect(unavailable.status == 503, "\(unavailable.bodyText)")
        #expect(store.failures.withLock { $0 } == 1, "the enrolment reached its write and the write failed")
        let retried = await harness.client.post("/me/passkeys", json: body, headers: bearer)
        #expect(retried.status == 201, "\(retried.bodyText)")
        let listed = try await harness.client.get("/me/passkeys", headers: bearer).jsonValue()
        #expect(listed["passkeys"]?.arrayValue?.count == 2, "\(listed)")
        let again = await harness.client.post("/me/passkeys", json: body, headers: bearer)
        #expect(again.status == 403, "single use once it succeeded: \(again.bodyText)")
    }
}

/// A memory store whose next user or credential insert, when `failNext` is set, throws `StorageError(.busy)`: a
/// database that became unavailable between the ceremony's read and its write.
private final class FailingCredentialWriteStore: Store {
    let failNext = Mutex(false)
    /// How many writes failed.
    let failures = Mutex(0)
    private let base = MemoryStore()

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        try await base.write { writer in try body(FailingCredentialWriter(base: writer, store: self)) }
    }

    func close() async { await base.close() }

    /// Throws once when `failNext` is set.
    func failIfAsked() throws(StorageError) {
        let fail = failNext.withLock { flag in
            defer { flag = false }
            return flag
        }
        guard fail else { return }
        failures.withLock { $0 += 1 }
        throw StorageError(.busy, "the database is unavailable (test)")
    }
}

private final class FailingCredentialWriter: ForwardingStoreWriter {
    let store: FailingCredentialWriteStore

    init(base: any StoreWriter, store: FailingCredentialWriteStore) {
        self.store = store
        super.init(base)
    }

    override func insertUser(_ user: User, credential: Credential) throws(StorageError) {
        try store.failIfAsked()
        try writer.insertUser(user, credential: credential)
    }

    override func insert(_ record: NewRecord) throws(StorageError) -> Bool {
        if case .credential = record { try store.failIfAsked() }
        return try writer.insert(record)
    }
}

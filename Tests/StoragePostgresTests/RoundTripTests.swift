import Foundation
import Storage
import Testing

@testable import StoragePostgres

/// How many times a connection waits for the server (`PostgresCounters.roundTrips`) for each part of a login, on a
/// warm connection (its statements prepared, its session's statement timeout known), as the server runs it: the
/// challenge's write, the token request's read and its write (with a request's deadline, as `GatedStore` gives).
@Suite("The round trips of a login on PostgreSQL")
struct RoundTripTests {
    static let epoch = Date(timeIntervalSince1970: 1_750_000_000)

    static func user(_ n: Int) -> User {
        User(
            id: "user-\(n)", userHandle: [UInt8](repeating: UInt8(n), count: 32), realm: "main",
            email: "u\(n)@example.com", phoneNumber: nil, username: nil, name: "User \(n)", createdAt: epoch)
    }

    static func credential(_ n: Int) -> Credential {
        Credential(
            credentialID: [0xC0, UInt8(n)], userID: "user-\(n)", publicKey: [0xA5, 0x01, 0x02, 0x03, 0x26],
            algorithm: -7, signCount: 0, uvInitialized: true, backupEligible: true, backedUp: false,
            transports: ["internal"], aaguid: [UInt8](repeating: 0xAA, count: 16), attestationFormat: "none",
            createdAt: epoch)
    }

    /// User 1's login with session `sessionID`, its counter going from `count` to `count + 1`.
    static func completion(_ sessionID: String, count: UInt32, token: UInt8) -> LoginCompletion {
        let now = epoch.addingTimeInterval(10)
        return LoginCompletion(
            sessionID: sessionID, sessionExpiresAt: epoch.addingTimeInterval(300),
            use: CredentialUse(
                credentialID: credential(1).credentialID, expectedSignCount: count, newSignCount: count + 1,
                backedUp: false, usedAt: now),
            userID: "user-1",
            refreshToken: RefreshToken(
                tokenHash: [UInt8](repeating: token, count: 32), familyID: "family-\(token)", clientID: "client-1",
                userID: "user-1", scope: "openid offline_access", authTime: now, createdAt: now,
                absoluteExpiresAt: now.addingTimeInterval(86_400), idleExpiresAt: now.addingTimeInterval(3_600)),
            event: SecurityEvent(
                occurredAt: now, kind: .login, userID: "user-1", clientID: "client-1", outcome: "success",
                credentialID: credential(1).credentialID))
    }

    /// A request's admission, as `GatedStore` gives a write: a deadline, nothing refused.
    static func admission() -> WriteAdmission {
        WriteAdmission(deadline: .now + .seconds(30)) {}
    }

    /// The round trips `operation` took on `store`.
    static func count(_ store: PostgresStore, _ operation: () async throws -> Void) async rethrows -> Int {
        let before = store.pool.counters.roundTrips.load(ordering: .relaxed)
        try await operation()
        return store.pool.counters.roundTrips.load(ordering: .relaxed) - before
    }

    @Test(
        "a login's read and write take 1 and 2 round trips (with the stored challenge before sealed sessions: 3, 1 and 3)",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func login() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, _ in
            try await store.write { try $0.insertUser(Self.user(1), credential: Self.credential(1)) }
            var counts: [(read: Int, write: Int)] = []
            for n in 0..<3 {
                // The challenge writes nothing: its session is sealed (`AuthSessionSealer`), spent in the login's write.
                let id = "session-\(n)"
                var found: LoginCredential?
                let read = try await Self.count(store) {
                    found = try await store.read { try $0.loginCredential(id: Self.credential(1).credentialID) }
                }
                #expect(found?.user?.id == "user-1")
                var outcome: LoginCompletion.Outcome?
                let write = try await Self.count(store) {
                    outcome = try await store.write(admission: Self.admission()) {
                        try $0.completeLogin(Self.completion(id, count: UInt32(n), token: UInt8(n + 1)))
                    }
                }
                #expect(outcome == .stored)
                counts.append((read, write))
            }
            print("round trips per login (login read, login write), runs 1-3: \(counts)")
            // Cold, the first login on the connection: the session's statement timeout is read once (a round trip of
            // its own, before the connection's first write with a deadline: this write's, now that the challenge
            // writes nothing); a statement is prepared in the pipeline that runs it when that pipeline carries BEGIN,
            // else in a round trip of its own. Before the pipeline: 2 and 4 (the timeout read was the challenge's).
            let cold = try #require(counts.first)
            #expect(cold.read <= 2, "the first login's read: \(cold.read) round trips")
            #expect(cold.write <= 3, "the first login's write: \(cold.write) round trips")
            // Warm: BEGIN, the commit markers and the transaction's select go with the first statement, COMMIT on
            // its own (a read of one statement has neither). Before the pipeline: 1 and 3.
            let warm = try #require(counts.last)
            #expect(warm.read <= 1, "the login's read: \(warm.read) round trips")
            #expect(warm.write <= 2, "the login's write: \(warm.write) round trips")
        }
    }

    @Test(
        "a write's start (markers, transaction id, deadline) is one statement prepared once per session, not parsed per write",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func writeStartPrepared() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1) { store, _ in
            try await store.write { try $0.insertUser(Self.user(1), credential: Self.credential(1)) }
            for n in 0..<3 {
                let outcome = try await store.write(admission: Self.admission()) {
                    try $0.completeLogin(Self.completion("session-\(n)", count: UInt32(n), token: UInt8(n + 1)))
                }
                #expect(outcome == .stored)
            }
            // The one connection's prepared statements, as the server lists them: the start is there once, and
            // the statements it replaced (spelled with the markers' values) never were.
            let starts = try await store.read { reader in
                try (reader as? PostgresTransaction)?.connection.simpleValue(
                    """
                    SELECT count(*) FILTER (WHERE statement LIKE 'WITH settled AS%') || '|' || \
                    count(*) FILTER (WHERE statement LIKE '%INSERT INTO commit_markers (marker) VALUES (decode%') \
                    FROM pg_prepared_statements
                    """)
            }
            #expect(starts == "1|0")
            // Each write still left its marker and deleted the one before: one row for the connection.
            let markers = try await store.read { reader in
                try (reader as? PostgresTransaction)?.connection.simpleValue("SELECT count(*) FROM commit_markers")
            }
            #expect(markers == "1")
        }
    }
}

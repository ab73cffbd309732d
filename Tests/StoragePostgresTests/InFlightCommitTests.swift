import Storage
import Testing

@testable import StoragePostgres

@Suite("A COMMIT whose connection broke: what txid_status, the server's start time and the commit marker say")
struct InFlightCommitTests {
    static let start = "2026-12-02 08:00:00.123456+00"
    static let restarted = "2026-12-02 08:00:07.5+00"
    static let commit = InFlightCommit(beginValue: "4242|\(start)")
    static let marker = CommitMarker(bytes: Array(0..<16))
    static let marked = InFlightCommit(beginValue: "4242|\(start)", marker: marker)

    @Test("BEGIN's value gives the transaction id and the server's start time; another form gives nothing")
    func parsesBegin() throws {
        let commit = try #require(Self.commit)
        #expect(commit.transactionID == 4242)
        #expect(commit.serverStart == Self.start)
        #expect(commit.marker == nil)
        #expect(commit.statusSelect.contains("txid_status(4242)"))
        #expect(InFlightCommit(beginValue: "x|\(Self.start)") == nil)
        #expect(InFlightCommit(beginValue: nil) == nil)
        #expect(try #require(Self.marked).marker == Self.marker)
    }

    @Test("the BEGIN round trip is one string: BEGIN, the settled marker's DELETE, the new marker's INSERT, the select")
    func beginStatement() throws {
        let settled = try #require(CommitMarker(bytes: [UInt8](repeating: 0xab, count: 16)))
        let marker = try #require(Self.marker)
        #expect(marker.literal == "decode('000102030405060708090a0b0c0d0e0f', 'hex')")
        #expect(
            InFlightCommit.begin(marker: marker, settled: settled, extraColumns: ", 1")
                == "BEGIN ISOLATION LEVEL READ COMMITTED; \(settled.delete); \(marker.insert); "
                + "\(InFlightCommit.beginSelect), 1")
        #expect(
            InFlightCommit.begin(marker: nil, settled: nil)
                == "BEGIN ISOLATION LEVEL READ COMMITTED; \(InFlightCommit.beginSelect)")
        #expect(CommitMarker(bytes: [1, 2, 3]) == nil)
        #expect(CommitMarker() != CommitMarker())
    }

    @Test(
        "the same server: committed, rolled back, in progress; a restarted one without a marker: committed is unknown, aborted holds"
    )
    func verdicts() throws {
        let commit = try #require(Self.commit)
        let restarted = Self.restarted
        #expect(commit.verdict(statusValue: "committed|none|\(Self.start)") == .committed)
        #expect(commit.verdict(statusValue: "aborted|none|\(Self.start)") == .rolledBack)
        #expect(commit.verdict(statusValue: "in progress|none|\(Self.start)") == .inProgress)
        #expect(commit.verdict(statusValue: "unknown|none|\(Self.start)") == .rolledBack)
        // After a crash or failover the id may have been handed out again (it never reached the WAL, so this
        // transaction did not commit): "committed" may be another transaction's.
        #expect(commit.verdict(statusValue: "committed|none|\(restarted)") == .unknown)
        #expect(commit.verdict(statusValue: "aborted|none|\(restarted)") == .rolledBack)
        #expect(commit.verdict(statusValue: "in progress|none|\(restarted)") == .inProgress)
        #expect(commit.verdict(statusValue: nil) == .unknown)
        #expect(commit.verdict(statusValue: "committed") == .unknown)
    }

    @Test("a restarted or other server: the marker decides, whatever txid_status says (no transaction survives)")
    func markerAfterRestart() throws {
        let commit = try #require(Self.marked)
        for status in ["committed", "aborted", "in progress", "unknown", "future"] {
            #expect(commit.verdict(statusValue: "\(status)|present|\(Self.restarted)") == .committed)
            #expect(commit.verdict(statusValue: "\(status)|absent|\(Self.restarted)") == .rolledBack)
        }
    }

    @Test("the same server, unrestarted: txid_status decides (an uncommitted marker is not seen yet)")
    func markerOnTheSameServer() throws {
        let commit = try #require(Self.marked)
        #expect(commit.verdict(statusValue: "in progress|absent|\(Self.start)") == .inProgress)
        #expect(commit.verdict(statusValue: "committed|present|\(Self.start)") == .committed)
        #expect(commit.verdict(statusValue: "aborted|absent|\(Self.start)") == .rolledBack)
    }

    @Test(
        "an id the server never handed out ('in the future', a promoted standby) is rolled back; a standby is asked again"
    )
    func futureAndStandby() throws {
        let commit = try #require(Self.commit)
        let marked = try #require(Self.marked)
        #expect(commit.verdict(statusValue: "future|none|\(Self.restarted)") == .rolledBack)
        #expect(commit.verdict(statusValue: "future|none|\(Self.start)") == .rolledBack)
        #expect(marked.verdict(statusValue: "standby|absent|\(Self.restarted)") == .standby)
        #expect(marked.verdict(statusValue: "standby|present|\(Self.restarted)") == .standby)
        #expect(marked.statusSelect.contains("< txid_current() THEN"))
    }

    @Test(
        "on a real server the statements answer: committed, rolled back, in progress while open; the marker with them",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func realServer() async throws {
        try await PostgresTestDatabase.withStore { _, configuration in
            let first = PostgresConnection(configuration: configuration, counters: PostgresCounters())
            let second = PostgresConnection(configuration: configuration, counters: PostgresCounters())
            try first.connectIfNeeded()
            try second.connectIfNeeded()
            func begin(_ marker: CommitMarker? = nil) throws -> InFlightCommit {
                try #require(
                    InFlightCommit(
                        beginValue: try first.simpleValue(InFlightCommit.begin(marker: marker, settled: nil)),
                        marker: marker))
            }
            let committed = try begin()
            #expect(try committed.verdict(statusValue: second.simpleValue(committed.statusSelect)) == .inProgress)
            #expect(try first.command("COMMIT") == "COMMIT")
            #expect(try committed.verdict(statusValue: second.simpleValue(committed.statusSelect)) == .committed)
            let rolledBack = try begin()
            #expect(rolledBack.transactionID > committed.transactionID)
            _ = try first.command("ROLLBACK")
            #expect(try rolledBack.verdict(statusValue: second.simpleValue(rolledBack.statusSelect)) == .rolledBack)

            let marked = try begin(CommitMarker())
            #expect(try second.simpleValue(marked.statusSelect)?.hasPrefix("in progress|absent|") == true)
            #expect(try first.command("COMMIT") == "COMMIT")
            #expect(try second.simpleValue(marked.statusSelect)?.hasPrefix("committed|present|") == true)
            // An id past the server's next one: what txid_status calls "in the future" (an ERROR), asked without it.
            let start = try #require(try second.simpleValue("SELECT pg_postmaster_start_time()::text"))
            let future = InFlightCommit(
                transactionID: marked.transactionID + 1_000_000, serverStart: start, marker: nil)
            #expect(try second.simpleValue(future.statusSelect)?.hasPrefix("future|none|") == true)
            #expect(try future.verdict(statusValue: second.simpleValue(future.statusSelect)) == .rolledBack)
        }
    }
}

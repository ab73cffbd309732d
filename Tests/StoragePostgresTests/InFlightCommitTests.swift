import Storage
import Testing

@testable import StoragePostgres

@Suite("A COMMIT whose connection broke: what txid_status and the server's start time say")
struct InFlightCommitTests {
    static let start = "2026-12-02 08:00:00.123456+00"
    static let commit = InFlightCommit(beginValue: "4242|\(start)")

    @Test("BEGIN's value gives the transaction id and the server's start time; another form gives nothing")
    func parsesBegin() throws {
        let commit = try #require(Self.commit)
        #expect(commit.transactionID == 4242)
        #expect(commit.serverStart == Self.start)
        #expect(commit.statusSelect.contains("txid_status(4242)"))
        #expect(InFlightCommit(beginValue: "x|\(Self.start)") == nil)
        #expect(InFlightCommit(beginValue: nil) == nil)
    }

    @Test("the same server: committed, rolled back, in progress; a restarted one: committed is unknown, aborted holds")
    func verdicts() throws {
        let commit = try #require(Self.commit)
        let restarted = "2026-12-02 08:00:07.5+00"
        #expect(commit.verdict(statusValue: "committed|\(Self.start)") == .committed)
        #expect(commit.verdict(statusValue: "aborted|\(Self.start)") == .rolledBack)
        #expect(commit.verdict(statusValue: "in progress|\(Self.start)") == .inProgress)
        #expect(commit.verdict(statusValue: "unknown|\(Self.start)") == .rolledBack)
        // After a crash or failover the id may have been handed out again (it never reached the WAL, so this
        // transaction did not commit): "committed" may be another transaction's.
        #expect(commit.verdict(statusValue: "committed|\(restarted)") == .unknown)
        #expect(commit.verdict(statusValue: "aborted|\(restarted)") == .rolledBack)
        #expect(commit.verdict(statusValue: "in progress|\(restarted)") == .inProgress)
        #expect(commit.verdict(statusValue: nil) == .unknown)
    }

    @Test(
        "on a real server the statements answer: committed, rolled back, in progress while open",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func realServer() async throws {
        try await PostgresTestDatabase.withStore { _, configuration in
            let first = PostgresConnection(configuration: configuration, counters: PostgresCounters())
            let second = PostgresConnection(configuration: configuration, counters: PostgresCounters())
            try first.connectIfNeeded()
            try second.connectIfNeeded()
            func begin() throws -> InFlightCommit {
                try #require(
                    InFlightCommit(
                        beginValue: try first.simpleValue(
                            "BEGIN ISOLATION LEVEL READ COMMITTED; \(InFlightCommit.beginSelect)")))
            }
            let committed = try begin()
            #expect(try committed.verdict(statusValue: second.simpleValue(committed.statusSelect)) == .inProgress)
            #expect(try first.command("COMMIT") == "COMMIT")
            #expect(try committed.verdict(statusValue: second.simpleValue(committed.statusSelect)) == .committed)
            let rolledBack = try begin()
            #expect(rolledBack.transactionID > committed.transactionID)
            _ = try first.command("ROLLBACK")
            #expect(try rolledBack.verdict(statusValue: second.simpleValue(rolledBack.statusSelect)) == .rolledBack)
        }
    }
}

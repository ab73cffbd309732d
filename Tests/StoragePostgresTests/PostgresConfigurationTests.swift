import Foundation
import Storage
import Testing

@testable import StoragePostgres

@Suite("PostgresConfiguration")
struct PostgresConfigurationTests {
    @Test("a full URL is parsed, password percent-decoded, and redacted in the description")
    func parsesFullURL() throws {
        let configuration = try PostgresConfiguration(
            url: "postgres://app:s%40cret@db.example.com:6432/auth?sslmode=require&connect_timeout=5"
                + "&application_name=node1&pool_size=20")
        #expect(configuration.servers == [.init(host: "db.example.com", port: 6432)])
        #expect(configuration.user == "app")
        #expect(configuration.password == "s@cret")
        #expect(configuration.database == "auth")
        #expect(configuration.sslMode == .require)
        #expect(configuration.connectTimeoutSeconds == 5)
        #expect(configuration.applicationName == "node1")
        #expect(configuration.poolSize == 20)
        #expect(!configuration.description.contains("cret"))
    }

    @Test("defaults: port 5432, database named after the user, sslmode verify-full")
    func defaults() throws {
        let configuration = try PostgresConfiguration(url: "postgresql://app@localhost")
        #expect(configuration.servers == [.init(host: "localhost", port: 5432)])
        #expect(configuration.database == "app")
        #expect(configuration.sslMode == .verifyFull)
        #expect(configuration.password == nil)
    }

    @Test(
        "an invalid URL is refused with .invalidConfiguration",
        arguments: [
            "mysql://app@localhost/db",  // scheme
            "postgres://localhost/db",  // no user
            "postgres://app@/db",  // no host
            "postgres://app@localhost:0/db",  // port
            "postgres://app@localhost/a/b",  // database with a slash
            "postgres://app@localhost/db#x",  // fragment
            "postgres://app@localhost/db?sslmode=sometimes",  // sslmode
            "postgres://app@localhost/db?connect_timeout=0",  // timeout
            "postgres://app@localhost/db?pool_size=x",  // pool size
            "postgres://app@localhost/db?application_name=",  // empty application name
            "postgres://app@localhost/db?hostaddr=10.0.0.1",  // unknown parameter
            "postgres://app@localhost/db?schema=s1&options=-c%20search_path%3Dother",  // two search paths
            "postgres://app@localhost/db?options=-c%0Astatement_timeout%3D1",  // a control character
            // options of 1,035 bytes
            "postgres://app@localhost/db?options=-c%20application_name%3D" + String(repeating: "x", count: 1_010),
            "postgres://app@localhost/db?pool_size=1&pool_size=2",  // repeated parameter
            "not a url at all %%",  // not a URL
        ])
    func refusesInvalid(_ url: String) {
        #expect(throws: StorageError(.invalidConfiguration, "")) { try PostgresConfiguration(url: url) }
    }

    @Test("the keyword/value form is parsed by libpq, quoting included")
    func parsesKeywordForm() throws {
        let configuration = try PostgresConfiguration(
            "host=db.example.com port=6432 user=app password='it\\'s secret' dbname=auth sslmode=require",
            environment: [:])
        #expect(configuration.servers == [.init(host: "db.example.com", port: 6432)])
        #expect(configuration.user == "app")
        #expect(configuration.password == "it's secret")
        #expect(configuration.database == "auth")
        #expect(configuration.sslMode == .require)
    }

    @Test(
        "a bad keyword/value string is refused with .invalidConfiguration",
        arguments: [
            "host=db user=app hostaddr=10.0.0.1",  // a libpq keyword passkeyd does not take
            "host=db user=app nonsense=1",  // not a libpq keyword
            "host=db user=app password='unterminated",  // quoting
            "host=db user=app port=99999",  // range
        ])
    func refusesBadKeywordForm(_ text: String) {
        #expect(throws: StorageError(.invalidConfiguration, "")) { try PostgresConfiguration(text, environment: [:]) }
    }

    @Test("PG* environment variables fill what the string leaves out, and only that")
    func environment() throws {
        let environment = [
            "PGHOST": "env-host", "PGPORT": "7000", "PGUSER": "env-user", "PGPASSWORD": "env-secret",
            "PGDATABASE": "env-db", "PGSSLMODE": "disable", "PGAPPNAME": "env-app",
        ]
        let fromEnvironment = try PostgresConfiguration("postgres://", environment: environment)
        #expect(fromEnvironment.servers == [.init(host: "env-host", port: 7000)])
        #expect(fromEnvironment.user == "env-user")
        #expect(fromEnvironment.password == "env-secret")
        #expect(fromEnvironment.database == "env-db")
        #expect(fromEnvironment.sslMode == .disable)
        #expect(fromEnvironment.applicationName == "env-app")
        let mixed = try PostgresConfiguration("dbname=auth user=app", environment: environment)
        #expect(mixed.servers == [.init(host: "env-host", port: 7000)])
        #expect(mixed.user == "app")
        #expect(mixed.database == "auth")
    }

    @Test("pool size defaults to twice the processor count; schema must be a plain identifier")
    func poolAndSchema() throws {
        let configuration = try PostgresConfiguration(url: "postgres://app@localhost/db?schema=passkeyd_1")
        #expect(configuration.poolSize == 2 * ProcessInfo.processInfo.activeProcessorCount)
        #expect(configuration.schema == "passkeyd_1")
        for bad in ["Upper", "1abc", "a-b", "x;drop", ""] {
            #expect(throws: StorageError(.invalidConfiguration, "")) {
                try PostgresConfiguration(url: "postgres://app@localhost/db?schema=\(bad)")
            }
        }
    }

    @Test("several hosts and target_session_attrs, for failover to whichever is the primary")
    func failoverHosts() throws {
        let url = try PostgresConfiguration(
            url: "postgres://app@db1.example.com,db2.example.com/auth?target_session_attrs=read-write")
        #expect(url.servers == [.init(host: "db1.example.com"), .init(host: "db2.example.com")])
        #expect(url.targetSessionAttributes == "read-write")
        let keywords = try PostgresConfiguration(
            "host=db1,db2 user=app target_session_attrs=primary", environment: [:])
        #expect(keywords.targetSessionAttributes == "primary")
        #expect(throws: StorageError(.invalidConfiguration, "")) {
            try PostgresConfiguration(url: "postgres://app@db/auth?target_session_attrs=writable")
        }
    }

    @Test("options (URL, keyword form, PGOPTIONS) go to libpq after the schema's search_path")
    func serverOptions() throws {
        func options(_ configuration: PostgresConfiguration) -> [String] {
            configuration.connectionParameters.filter { $0.keyword == "options" }.map(\.value)
        }
        let url = try PostgresConfiguration(
            url: "postgres://app@db/auth?schema=pk1&options=-c%20statement_timeout%3D5s%20-c%20lock_timeout%3D2s")
        #expect(url.serverOptions == "-c statement_timeout=5s -c lock_timeout=2s")
        #expect(options(url) == ["-c search_path=pk1 -c statement_timeout=5s -c lock_timeout=2s"])
        #expect(url.description.hasSuffix("&options=-c statement_timeout=5s -c lock_timeout=2s"))
        let keywords = try PostgresConfiguration(
            "host=db user=app options='-c statement_timeout=5s'", environment: ["PGOPTIONS": "-c lock_timeout=1s"])
        #expect(options(keywords) == ["-c statement_timeout=5s"])
        let fromEnvironment = try PostgresConfiguration(
            "host=db user=app", environment: ["PGOPTIONS": "-c lock_timeout=1s"])
        #expect(options(fromEnvironment) == ["-c lock_timeout=1s"])
        // Without a schema, options may set the search path; blank options are none.
        let searchPath = try PostgresConfiguration(url: "postgres://app@db/auth?options=-c%20search_path%3Dauth")
        #expect(options(searchPath) == ["-c search_path=auth"])
        #expect(options(try PostgresConfiguration(url: "postgres://app@db/auth?options=%20")).isEmpty)
        #expect(options(try PostgresConfiguration(url: "postgres://app@db/auth")).isEmpty)
    }

    @Test(
        "options reach the server with the schema's search_path; its statement_timeout is a 503; an unknown setting fails the open",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func serverOptionsOnServer() async throws {
        var configuration = try PostgresTestDatabase.configuration(poolSize: 1)
        configuration.serverOptions = "-c statement_timeout=1234 -c lock_timeout=2s"
        let store = try await PostgresStore.open(configuration)
        let connection = PostgresConnection(configuration: configuration, counters: PostgresCounters())
        try connection.connectIfNeeded()
        #expect(try connection.simpleValue("SHOW statement_timeout") == "1234ms")
        #expect(try connection.simpleValue("SHOW lock_timeout") == "2s")
        #expect(try connection.simpleValue("SELECT current_schema()") == configuration.schema)
        connection.disconnect()
        await store.close()
        await PostgresTestDatabase.drop(configuration)

        // A statement over the operator's statement_timeout: its transaction rolls back, .busy (503), nothing kept.
        // The timeout is well above what the other statements take on a loaded host.
        try await PostgresTestDatabase.withStore(
            poolSize: 1, serverOptions: "-c statement_timeout=1000"
        ) {
            timedStore, _ in
            await #expect {
                try await timedStore.write { writer in
                    try writer.insertAuthSession(AuthSession.sample("timed-out"))
                    _ = try (writer as? PostgresTransaction)?.connection.execute("SELECT pg_sleep(3)")
                }
            } throws: { error in
                (error as? StorageError)?.code == .busy && "\(error)".contains("57014")
            }
            #expect(try await timedStore.read { try $0.authSession(id: "timed-out") } == nil)
            try await timedStore.write { try $0.insertAuthSession(AuthSession.sample("in-time")) }
        }

        var unknown = try PostgresTestDatabase.configuration(poolSize: 1)
        unknown.serverOptions = "-c passkeyd_no_such_setting=1"
        await #expect {
            _ = try await PostgresStore.open(unknown)
        } throws: { error in
            "\(error)".contains("passkeyd_no_such_setting")
        }
    }

    @Test(
        "the operator's statement_timeout and lock_timeout bound requests, not the migration: a slow migration and a wait for another node's migration still start the node",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func migrationOutlastsTimeouts() async throws {
        // An application name of its own: the wait below is looked for among this test's sessions only.
        var configuration = try PostgresTestDatabase.configuration(
            poolSize: 1, applicationName: "passkeyd-tests-migration-\(UInt32.random(in: 0...UInt32.max))")
        // Timeouts a slow migration and a wait for another node's outlast many times over, and still ten times what a
        // point read takes on a loaded host (at 100 ms such a read once timed out under a load average of 15).
        configuration.serverOptions = "-c statement_timeout=1000 -c lock_timeout=1000"
        let schema = try #require(configuration.schema)
        // Another node migrating: the migration's advisory lock, held by a session of its own until released below.
        var other = configuration
        other.schema = nil
        other.serverOptions = nil
        other.applicationName = "passkeyd-tests-other-node"
        let otherNode = PostgresConnection(configuration: other, counters: PostgresCounters())
        try otherNode.connectIfNeeded()
        defer { otherNode.disconnect() }
        let lock = "hashtext('passkeyd.migrate'), hashtext('\(schema)')"
        _ = try otherNode.simpleValue("SELECT pg_advisory_lock(\(lock))")
        let slow = Migration(
            version: (PostgresSchema.migrations.map(\.version).max() ?? 0) + 1, name: "slow",
            statements: ["SELECT pg_sleep(1.5)"])
        let opening = Task {
            try await PostgresStore.open(configuration, migrations: PostgresSchema.migrations + [slow])
        }
        var waiting = false
        for _ in 0..<3_000 where !waiting {
            try await Task.sleep(for: .milliseconds(10))
            waiting =
                try otherNode.simpleValue(
                    "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE l.locktype = 'advisory' "
                        + "AND NOT l.granted AND a.application_name = '\(configuration.applicationName)'") != "0"
        }
        #expect(waiting, "the migration did not wait for the other node's lock")
        try await Task.sleep(for: .milliseconds(1_500))  // one and a half lock_timeouts
        _ = try otherNode.simpleValue("SELECT pg_advisory_unlock(\(lock))")
        let store = try await opening.value
        #expect(try await store.read { try $0.authSession(id: "none") } == nil)
        // The operator's settings are back for requests once the migration's transaction has ended.
        let setting = try await store.read { reader in
            try (reader as? PostgresTransaction)?.connection.simpleValue("SHOW statement_timeout")
        }
        #expect(setting == "1s")
        await store.close()
        await PostgresTestDatabase.drop(configuration)
    }

    @Test(
        "a statement over the operator's lock_timeout (55P03) is .busy (503): its transaction rolled back, nothing kept",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func lockTimeoutIsBusy() async throws {
        try await PostgresTestDatabase.withStore(poolSize: 1, serverOptions: "-c lock_timeout=200") {
            store, configuration in
            var holder = configuration
            holder.serverOptions = nil
            holder.applicationName = "passkeyd-tests-lock-holder"
            let locker = try await PostgresStore.open(holder)
            // The transaction stays open on the locker's only connection until its COMMIT below.
            try await locker.executeForTesting("BEGIN; LOCK TABLE auth_sessions IN ACCESS EXCLUSIVE MODE")
            await #expect {
                try await store.write { try $0.insertAuthSession(AuthSession.sample("locked-out")) }
            } throws: { error in
                (error as? StorageError)?.code == .busy && "\(error)".contains("55P03")
            }
            try await locker.executeForTesting("COMMIT")
            #expect(try await store.read { try $0.authSession(id: "locked-out") } == nil)
            try await store.write { try $0.insertAuthSession(AuthSession.sample("after")) }
            await locker.close()
        }
    }

    @Test("libpq is asked for a writable server unless the configuration says otherwise")
    func writableServerByDefault() throws {
        func attributes(_ url: String) throws -> [String] {
            try PostgresConfiguration(url: url).connectionParameters.filter { $0.keyword == "target_session_attrs" }
                .map(\.value)
        }
        #expect(try attributes("postgres://app@db1,db2/auth") == ["read-write"])
        #expect(try attributes("postgres://app@db/auth?target_session_attrs=any") == ["any"])
        #expect(try attributes("postgres://app@db/auth?target_session_attrs=primary") == ["primary"])
    }

    @Test("25006 (a server that does not accept writes) drops the connection and is 503, not a 500")
    func readOnlyServerFailure() {
        let failure = PostgresFailure(sqlState: "25006", connectionBroken: false)
        #expect(failure == .readOnlyServer)
        let error = PostgresFailure.error(sqlState: "25006", constraint: nil, message: "read-only", failure: failure)
        #expect(error.code == .unavailable)
        #expect(error.unavailability == .readOnly)
    }

    @Test(
        "a statement or lock timeout (57014, 55P03) is 503: its transaction rolled back", arguments: ["57014", "55P03"])
    func timeoutFailure(_ state: String) {
        let failure = PostgresFailure(sqlState: state, connectionBroken: false)
        #expect(failure == .other)
        #expect(
            PostgresFailure.error(sqlState: state, constraint: nil, message: "timeout", failure: failure).code == .busy)
    }

    @Test("the driver tells PostgreSQL connection strings from sqlite:FILE")
    func accepts() {
        #expect(PostgresDriver.accepts("postgres://app@db/auth"))
        #expect(PostgresDriver.accepts("postgresql://app@db/auth"))
        #expect(PostgresDriver.accepts("host=db dbname=auth"))
        #expect(!PostgresDriver.accepts("sqlite:passkeyd.sqlite"))
        #expect(!PostgresDriver.accepts("sqlite:a=b.sqlite"))
    }
}

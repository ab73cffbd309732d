import Foundation
import Storage
import Testing

@testable import StoragePostgres

/// libpq's two ways of naming several servers (PostgreSQL 15 docs §34.1.1.3): the URL's `h1:5432,h2:5433`, and
/// the keyword form's `host=h1,h2 port=5432,5433`.
@Suite("PostgresConfiguration: several hosts")
struct PostgresMultiHostTests {
    typealias Server = PostgresConfiguration.Server

    /// The reason `text` is refused with, or nil if it is accepted.
    static func refusal(_ text: String, environment: [String: String] = [:]) -> String? {
        do {
            _ = try PostgresConfiguration(text, environment: environment)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("the URI `pg_autoctl show uri` prints")
    func pgAutoctlURI() throws {
        let configuration = try PostgresConfiguration(
            url: "postgres://autoctl_node@127.0.0.1:5501,127.0.0.1:5502/pg_auto_failover"
                + "?target_session_attrs=read-write&sslmode=prefer")
        #expect(
            configuration.servers == [Server(host: "127.0.0.1", port: 5501), Server(host: "127.0.0.1", port: 5502)])
        #expect(configuration.user == "autoctl_node")
        #expect(configuration.database == "pg_auto_failover")
        #expect(configuration.targetSessionAttributes == "read-write")
        #expect(configuration.sslMode == .prefer)
        let parameters = Dictionary(configuration.connectionParameters.map { ($0.keyword, $0.value) }) { $1 }
        #expect(parameters["host"] == "127.0.0.1,127.0.0.1")
        #expect(parameters["port"] == "5501,5502")
        #expect(configuration.description.hasPrefix("postgres://autoctl_node@127.0.0.1:5501,127.0.0.1:5502/"))
        // libpq waits up to connect_timeout for each host it tries.
        #expect(configuration.connectAttemptLimit == TimeInterval(2 * 10 + 1))
    }

    @Test(
        "URL host lists: a port each, a host without one on 5432, IPv6 in brackets, percent-encoding",
        arguments: [
            ("postgres://u@h1:5432,h2:5433/db?target_session_attrs=read-write", ["h1:5432", "h2:5433"]),
            ("postgres://u@h1,h2:5433/db", ["h1:5432", "h2:5433"]),
            ("postgresql://u@h1:6000,h2/db", ["h1:6000", "h2:5432"]),
            ("postgres://u@h1,h2,h3/db", ["h1:5432", "h2:5432", "h3:5432"]),
            ("postgres://u@[::1]:5433,[2001:db8::2]/db", ["[::1]:5433", "[2001:db8::2]:5432"]),
            (
                "postgres://u@db%2Dx.example,%2Fvar%2Frun%2Fpostgresql:5433/db",
                ["db-x.example:5432", "/var/run/postgresql:5433"]
            ),
            ("POSTGRES://u@h1:5433,h2/db", ["h1:5433", "h2:5432"]),
            // The libpq keywords in the query, as in libpq's `postgresql:///mydb?host=localhost&port=5433`.
            ("postgresql:///db?host=h1,h2&port=5433,5434&user=u", ["h1:5433", "h2:5434"]),
            ("postgresql://u@/db?host=h1,h2&port=5433", ["h1:5433", "h2:5433"]),
        ])
    func urlHostLists(_ url: String, _ servers: [String]) throws {
        let configuration = try PostgresConfiguration(url: url)
        #expect(configuration.servers.map(\.description) == servers)
        #expect(configuration.user == "u")
        #expect(configuration.database == "db")
    }

    @Test("a URL's user, password and database are percent-decoded by libpq")
    func percentDecoding() throws {
        let configuration = try PostgresConfiguration(url: "postgres://u%40corp:p%3As%2Fs@h%31:5433,h2/d%62")
        #expect(configuration.user == "u@corp")
        #expect(configuration.password == "p:s/s")
        #expect(configuration.database == "db")
        #expect(configuration.servers == [Server(host: "h1", port: 5433), Server(host: "h2", port: 5432)])
        #expect(!configuration.description.contains("p:s"))
    }

    @Test(
        "keyword form: port one value for every host, or one per host (an empty one for 5432)",
        arguments: [
            ("host=h1,h2 port=5433,5434 user=u", ["h1:5433", "h2:5434"]),
            ("host=h1,h2,h3 port=5433 user=u", ["h1:5433", "h2:5433", "h3:5433"]),
            ("host=h1,h2 port=,5434 user=u", ["h1:5432", "h2:5434"]),
            ("host=h1,h2 user=u", ["h1:5432", "h2:5432"]),
            ("host=::1,/tmp port=5433,5434 user=u", ["[::1]:5433", "/tmp:5434"]),
        ])
    func keywordHostLists(_ text: String, _ servers: [String]) throws {
        let configuration = try PostgresConfiguration(text, environment: [:])
        #expect(configuration.servers.map(\.description) == servers)
    }

    @Test("PGHOST and PGPORT may be lists too")
    func environmentLists() throws {
        let configuration = try PostgresConfiguration(
            "dbname=auth user=app", environment: ["PGHOST": "h1,h2", "PGPORT": "5433,5434"])
        #expect(configuration.servers == [Server(host: "h1", port: 5433), Server(host: "h2", port: 5434)])
        let mismatch = Self.refusal("dbname=auth user=app", environment: ["PGHOST": "h1,h2,h3", "PGPORT": "1,2"])
        #expect(mismatch?.contains("3 hosts but 2 ports") == true)
    }

    @Test(
        "mismatched lists and garbage are refused, saying why",
        arguments: [
            ("host=h1,h2,h3 port=5433,5434 user=u", "names 3 hosts but 2 ports"),
            ("postgres://u@h1,h2/db?port=1,2,3", "names 2 hosts but 3 ports"),
            ("host=h1,h2 port=5433,x user=u", "port \"x\" is not an integer in 1...65535"),
            ("postgres://u@h1:5433,h2:99999/db", "port \"99999\" is not an integer in 1...65535"),
            ("postgres://u@h1:abc/db", "port \"abc\" is not an integer"),
            ("postgres://u@h1,/db", "database host list \"h1,\" has an empty item"),
            ("host=h1,,h2 user=u", "database host list \"h1,,h2\" has an empty item"),
            ("postgres://u@[::1/db", "database URL is not one libpq accepts: end of string reached"),
            ("postgres://u@h/d%zz", "database URL is not one libpq accepts: invalid percent-encoded token"),
            ("postgres://app@local host/db", "database URL has a space or a control character"),
            ("postgres://u@h/db?port=5432&port=5433", "database URL parameter \"port\" is repeated"),
            ("postgres://u@h/db?ssl=true", "unknown database URL parameter \"ssl\""),
            ("postgres://u@h/db?hostaddr=10.0.0.1", "unknown database URL parameter \"hostaddr\""),
            ("postgres://u@h/db?password=a%00b", "\"password\" is not valid percent-encoding, or has %00"),
            ("host=h1 port=5432 user=u hostaddr=10.0.0.1", "keyword \"hostaddr\" is not supported by passkeyd"),
            ("mysql://u@h1,h2/db", "database URL scheme must be postgres:// or postgresql://"),
        ])
    func refusals(_ text: String, _ reason: String) {
        let refusal = Self.refusal(text)
        #expect(refusal?.contains(reason) == true, "\(refusal ?? "accepted")")
    }

    @Test("libpq's refusal of a URL is reported without the password it quotes")
    func refusalHidesPassword() {
        let host = Self.refusal("postgres://u:topsecret@[::1/db")
        #expect(host?.contains("end of string reached") == true, "\(host ?? "accepted")")
        #expect(host?.contains("topsecret") == false)
        let password = Self.refusal("postgres://u:top%zzsecret@h1,h2/db")
        #expect(password == "database URL's password is not valid percent-encoding")
    }

    @Test("a raw = in a query value is still taken (libpq's own query parser refuses it)")
    func rawEqualsInQueryValue() throws {
        let configuration = try PostgresConfiguration(url: "postgres://u@h1,h2:5433/db?options=-c%20lock_timeout=2s")
        #expect(configuration.serverOptions == "-c lock_timeout=2s")
    }

    @Test(
        "a two-host URL whose first host refuses connections reaches the live server second, in either form",
        .enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.skipReason))
    func failsOverToTheSecondHost() async throws {
        let live = try PostgresTestDatabase.configuration(poolSize: 1)
        let server = try #require(live.servers.first)
        let secret = live.password.map { ":" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
        let password = live.password.map { " password='\($0.replacingOccurrences(of: "'", with: "\\'"))'" } ?? ""
        // A Unix-socket directory goes into a URL percent-encoded.
        let authority =
            server.host.hasPrefix("/")
            ? (server.host.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") + ":\(server.port)"
            : server.description
        let forms = [
            // Port 1 on loopback: nothing listens there, the connection is refused at once.
            "postgres://\(live.user)\(secret ?? "")@127.0.0.1:1,\(authority)/\(live.database)"
                + "?sslmode=\(live.sslMode.rawValue)&target_session_attrs=read-write&schema=\(live.schema ?? "")",
            "host=127.0.0.1,\(server.host) port=1,\(server.port) user=\(live.user) dbname=\(live.database)"
                + " sslmode=\(live.sslMode.rawValue) target_session_attrs=read-write\(password)",
        ]
        for form in forms {
            var configuration = try PostgresConfiguration(form, environment: [:])
            configuration.schema = live.schema
            configuration.poolSize = 1
            #expect(configuration.servers == [Server(host: "127.0.0.1", port: 1), server])
            let connection = PostgresConnection(configuration: configuration, counters: PostgresCounters())
            try connection.connectIfNeeded()
            #expect(try connection.simpleValue("SELECT inet_server_port()") == String(server.port))
            #expect(try connection.simpleValue("SELECT pg_is_in_recovery()") == "f")
            connection.disconnect()
            let store = try await PostgresStore.open(configuration)
            try await store.write { try $0.insertAuthSession(AuthSession.sample("through-\(form.prefix(4))")) }
            #expect(try await store.read { try $0.authSession(id: "through-\(form.prefix(4))") } != nil)
            await store.close()
        }
        await PostgresTestDatabase.drop(live)
    }
}

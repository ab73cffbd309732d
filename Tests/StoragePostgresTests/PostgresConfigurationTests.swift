import Storage
import StoragePostgres
import Testing

@Suite("PostgresConfiguration")
struct PostgresConfigurationTests {
    @Test("a full URL is parsed, password percent-decoded, and redacted in the description")
    func parsesFullURL() throws {
        let configuration = try PostgresConfiguration(
            url: "postgres://app:s%40cret@db.example.com:6432/auth?sslmode=require&connect_timeout=5"
                + "&application_name=node1&pool_size=20")
        #expect(configuration.host == "db.example.com")
        #expect(configuration.port == 6432)
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
        #expect(configuration.port == 5432)
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
            "postgres://app@localhost/db?options=-c",  // unknown parameter
            "postgres://app@localhost/db?pool_size=1&pool_size=2",  // repeated parameter
            "not a url at all %%",  // not a URL
        ])
    func refusesInvalid(_ url: String) {
        #expect(throws: StorageError(.invalidConfiguration, "")) { try PostgresConfiguration(url: url) }
    }

    @Test("the driver says it is not implemented")
    func notImplemented() async throws {
        let configuration = try PostgresConfiguration(url: "postgres://app@localhost/db")
        #expect(!PostgresDriver.isImplemented)
        await #expect(throws: StorageError(.notImplemented, "")) { try await PostgresDriver.open(configuration) }
    }
}

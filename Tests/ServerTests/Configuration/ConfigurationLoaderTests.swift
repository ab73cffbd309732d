import Foundation
import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The repository root, found from this file's path (Tests/ServerTests/Configuration/…).
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// A minimal valid document; tests change one thing in it.
private func minimalDocument() -> [String: Any] {
    [
        "issuer": "https://auth.example.com/",
        "relying_party": ["id": "example.com", "name": "Example"],
        "realms": [["name": "main", "identifiers": ["email": "required"]]],
    ]
}

private func load(
    _ document: [String: Any], environment: [String: String] = [:], flags: ConfigurationLoader.Flags = .init()
)
    throws(ConfigurationError) -> ServerConfiguration
{
    let data = (try? JSONSerialization.data(withJSONObject: document)) ?? Data()
    // With the database drivers' check of database.url, as the binary loads it.
    return try ConfigurationLoader.load(
        data: data, source: "test.json", environment: environment, flags: flags,
        checkDatabaseURL: DatabaseDrivers.checkURL)
}

/// Loads `document` expecting failure and returns the error.
private func failure(_ document: [String: Any], environment: [String: String] = [:]) -> ConfigurationError? {
    do {
        _ = try load(document, environment: environment)
        return nil
    } catch {
        return error
    }
}

@Suite("Configuration loading")
struct ConfigurationLoaderTests {
    @Test("the shipped Config/passkeyd.json is valid and uses SQLite in the data directory")
    func shippedDefault() throws {
        let path = repositoryRoot.appendingPathComponent("Config/passkeyd.json").path
        let configuration = try ConfigurationLoader.load(path: path, environment: [:])
        #expect(configuration.listen.port == 8080)
        #expect(configuration.relyingParty.id == "localhost")
        #expect(configuration.database.synchronous == .full)
        #expect(configuration.sqliteFile == "./data/passkeyd.sqlite")
        #expect(configuration.defaultRealm?.name == "Username-Password-Authentication")
        #expect(configuration.clients.first?.ios?.appID == "ABCDE12345.com.example.passkeyd-demo")
    }

    @Test("dpop settings and a client's require_dpop are read, ranges and unknown keys refused with their path")
    func dpop() throws {
        var document = minimalDocument()
        document["dpop"] = ["proof_lifetime_seconds": 30, "require_nonce": true, "nonce_lifetime_seconds": 600]
        document["clients"] = [["client_id": "app", "require_dpop": true]]
        let configuration = try load(document)
        #expect(
            configuration.dpop
                == ServerConfiguration.DPoPSettings(
                    proofLifetimeSeconds: 30, requireNonce: true, nonceLifetimeSeconds: 600))
        #expect(configuration.client(id: "app")?.requireDPoP == true)
        #expect(
            failure(minimalDocument(), environment: ["PASSKEYD_DPOP_PROOF_LIFETIME_SECONDS": "4"])?.field
                == "dpop.proof_lifetime_seconds")
        #expect(
            failure(minimalDocument(), environment: ["PASSKEYD_DPOP_NONCE_LIFETIME_SECONDS": "3601"])?.field
                == "dpop.nonce_lifetime_seconds")
        var unknown = minimalDocument()
        unknown["dpop"] = ["require_nonces": true]
        #expect(failure(unknown)?.field == "dpop.require_nonces")
    }

    @Test("a client's device_keys.app_attest_environment is read, production by default, other values refused")
    func appAttestEnvironment() throws {
        var document = minimalDocument()
        document["clients"] = [
            ["client_id": "dev", "device_keys": ["attestation": "required", "app_attest_environment": "development"]],
            ["client_id": "prod", "device_keys": ["attestation": "preferred"]],
        ]
        let configuration = try load(document)
        #expect(configuration.client(id: "dev")?.appAttestEnvironment == .development)
        #expect(configuration.client(id: "prod")?.appAttestEnvironment == .production)
        var wrong = minimalDocument()
        wrong["clients"] = [["client_id": "app", "device_keys": ["app_attest_environment": "sandbox"]]]
        #expect(failure(wrong)?.field.hasSuffix("device_keys.app_attest_environment") == true)
    }

    @Test("defaults apply to settings the file leaves out")
    func defaults() throws {
        let configuration = try load(minimalDocument())
        #expect(configuration.listen.host == "127.0.0.1")
        #expect(configuration.http.maxBodyBytes == 65_536)
        #expect(configuration.passkeys.challengeTimeoutMilliseconds == 60_000)
        #expect(configuration.tokens.actionTokenLifetime == 300)
        #expect(configuration.deviceKeys.maxFailedAttempts == 3)
        #expect(configuration.dpop == ServerConfiguration.DPoPSettings())
        #expect(configuration.dpop.proofLifetimeSeconds == 60 && !configuration.dpop.requireNonce)
        #expect(configuration.clients.allSatisfy { !$0.requireDPoP })
        #expect(configuration.adminListen == ServerConfiguration.Listen(host: "127.0.0.1", port: 9090))
    }

    @Test("admin.listen is HOST:PORT, an IPv6 literal in brackets, or empty for no admin listener")
    func adminListen() throws {
        var document = minimalDocument()
        document["admin"] = ["listen": "[::1]:9191"]
        #expect(try load(document).adminListen == ServerConfiguration.Listen(host: "::1", port: 9191))
        #expect(try load(minimalDocument(), environment: ["PASSKEYD_ADMIN_LISTEN": ""]).adminListen == nil)
        #expect(try load(minimalDocument(), environment: ["PASSKEYD_ADMIN_LISTEN": "0.0.0.0:0"]).adminListen?.port == 0)
    }

    @Test(
        "an issuer without a trailing slash is normalised to end with one",
        arguments: [
            ("https://example.com", "https://example.com/"), ("https://example.com/", "https://example.com/"),
            ("https://example.com/tenant", "https://example.com/tenant/"),
            ("http://localhost:8080", "http://localhost:8080/"),
        ])
    func issuerTrailingSlash(configured: String, expected: String) throws {
        var document = minimalDocument()
        document["issuer"] = configured
        #expect(try load(document).issuer == expected)
    }

    @Test("environment variables override the file, flags override both")
    func overrides() throws {
        let environment = [
            "PASSKEYD_LISTEN_PORT": "9000", "PASSKEYD_RELYING_PARTY_NAME": "Renamed",
            "PASSKEYD_DATABASE_SYNCHRONOUS": "normal", "PASSKEYD_WEB_ORIGINS": #"["https://login.example.com"]"#,
            "PASSKEYD_CONFIG": "ignored-here",
        ]
        let fromEnvironment = try load(minimalDocument(), environment: environment)
        #expect(fromEnvironment.listen.port == 9000)
        #expect(fromEnvironment.relyingParty.name == "Renamed")
        #expect(fromEnvironment.database.synchronous == .normal)
        #expect(fromEnvironment.webOrigins == ["https://login.example.com"])
        let fromFlags = try load(
            minimalDocument(), environment: environment, flags: .init(port: 7000, dataDirectory: "/tmp/x"))
        #expect(fromFlags.listen.port == 7000)
        #expect(fromFlags.dataDirectory == "/tmp/x")
    }

    @Test("the request read timeout and the per-address connection limit: defaults, environment, 0 = off, ranges")
    func slowlorisSettings() throws {
        let defaults = try load(minimalDocument())
        #expect(defaults.http.requestReadTimeoutSeconds == 10)
        #expect(defaults.http.responseWriteTimeoutSeconds == 30)
        #expect(defaults.http.connectionLimit == 4_096)
        #expect(defaults.http.perNetworkConnectionLimit == 256)
        #expect(defaults.http.perAddressConnectionLimit == 64)
        let set = try load(
            minimalDocument(),
            environment: [
                "PASSKEYD_HTTP_REQUEST_READ_TIMEOUT_SECONDS": "3", "PASSKEYD_HTTP_PER_ADDRESS_CONNECTION_LIMIT": "0",
                "PASSKEYD_HTTP_PER_NETWORK_CONNECTION_LIMIT": "128",
                "PASSKEYD_HTTP_RESPONSE_WRITE_TIMEOUT_SECONDS": "7",
            ])
        #expect(set.http.requestReadTimeoutSeconds == 3)
        #expect(set.http.perAddressConnectionLimit == 0)
        let http = PasskeydServer.httpConfiguration(set)
        #expect(http.requestReadTimeout == .seconds(3))
        #expect(http.responseWriteTimeout == .seconds(7))
        #expect(http.perAddressConnectionLimit == 0)
        #expect(http.perNetworkConnectionLimit == 128)
        #expect(http.connectionLimit == 4_096)
        #expect(failure(minimalDocument(), environment: ["PASSKEYD_HTTP_REQUEST_READ_TIMEOUT_SECONDS": "0"]) != nil)
        #expect(failure(minimalDocument(), environment: ["PASSKEYD_HTTP_RESPONSE_WRITE_TIMEOUT_SECONDS": "0"]) != nil)
        #expect(failure(minimalDocument(), environment: ["PASSKEYD_HTTP_PER_ADDRESS_CONNECTION_LIMIT": "-1"]) != nil)
        #expect(failure(minimalDocument(), environment: ["PASSKEYD_HTTP_PER_NETWORK_CONNECTION_LIMIT": "-1"]) != nil)
    }

    @Test("the connection limits nest: an address within its network, and a few networks at their cap never fill all")
    func connectionLimitRelation() throws {
        var document = minimalDocument()
        // 1024 connections were filled by four networks at the default 256 each.
        document["http"] = ["connection_limit": 1_024]
        let tooFew = failure(document)
        #expect(tooFew?.field == "http.connection_limit")
        #expect(tooFew?.reason.contains("http.per_network_connection_limit") == true)
        document["http"] = ["connection_limit": 2_048]
        #expect(try load(document).http.connectionLimit == 2_048)
        document["http"] = ["per_address_connection_limit": 300]
        let wider = failure(document)
        #expect(wider?.field == "http.per_address_connection_limit")
        #expect(wider?.reason.contains("http.per_network_connection_limit") == true)
        // With the per-network limit off, the per-address one is the cap.
        document["http"] = ["per_network_connection_limit": 0, "connection_limit": 500]
        let perAddress = failure(document)
        #expect(perAddress?.field == "http.connection_limit")
        #expect(perAddress?.reason.contains("http.per_address_connection_limit") == true)
        // Behind a proxy both are off, and any connection limit goes.
        document["http"] = [
            "per_network_connection_limit": 0, "per_address_connection_limit": 0, "connection_limit": 16,
        ]
        #expect(try load(document).http.connectionLimit == 16)
    }

    @Test(
        "database.url accepts PostgreSQL (URL or key=value) with database.pool_size, from the file or the environment")
    func postgresDatabase() throws {
        var document = minimalDocument()
        document["database"] = ["url": "postgresql://app@db.example.com/auth", "pool_size": 12]
        let configuration = try load(document)
        #expect(configuration.database.url == "postgresql://app@db.example.com/auth")
        #expect(configuration.database.poolSize == 12)
        #expect(configuration.sqliteFile == nil)
        let keywords = try load(
            minimalDocument(),
            environment: [
                "PASSKEYD_DATABASE_URL": "host=db user=app password=secret", "PASSKEYD_DATABASE_POOL_SIZE": "3",
            ])
        #expect(keywords.database.poolSize == 3)
        #expect(!DatabaseDrivers.description(of: keywords).contains("secret"))
        #expect(try load(minimalDocument()).database.poolSize == 0)
    }

    @Test("database.url takes libpq's multi-host forms, the URI pg_autoctl show uri prints included")
    func multiHostDatabase() throws {
        for url in [
            "postgres://autoctl_node@127.0.0.1:5501,127.0.0.1:5502/pg_auto_failover"
                + "?target_session_attrs=read-write&sslmode=prefer",
            "postgres://app@h1:5432,h2:5432/db", "host=h1,h2 port=5433,5434 user=app dbname=db",
        ] {
            var document = minimalDocument()
            document["database"] = ["url": url]
            #expect(try load(document).database.url == url)
        }
        var mismatched = minimalDocument()
        mismatched["database"] = ["url": "host=h1,h2,h3 port=5433,5434 user=app"]
        let error = failure(mismatched)
        #expect(error?.field == "database.url")
        #expect(error?.reason.contains("3 hosts but 2 ports") == true, "\(String(describing: error))")
    }

    @Test("every documented environment variable maps to a setting the parser reads")
    func everyVariableIsKnown() throws {
        // Setting each variable to a bad value must produce an error naming that variable's setting, which
        // proves the variable reaches the parser rather than being dropped.
        let badValues: [String: String] = ["PASSKEYD_LISTEN_PORT": "70000", "PASSKEYD_ISSUER": "ftp://x"]
        for (name, value) in badValues {
            let error = failure(minimalDocument(), environment: [name: value])
            #expect(error != nil, "\(name)")
        }
        #expect(EnvironmentOverrides.variableNames.contains("PASSKEYD_RELYING_PARTY_ID"))
    }

    @Test(
        "errors name the field and the reason",
        arguments: [
            ("listen.port", #"{"listen": {"port": 70000}}"#),
            ("listen.port", #"{"listen": {"port": "80"}}"#),
            ("issuer", #"{"issuer": "http://auth.example.com/"}"#),
            ("issuer", #"{"issuer": "https://auth.example.com/?a=b"}"#),
            ("relying_party.id", #"{"relying_party": {"id": "https://example.com", "name": "x"}}"#),
            ("web_origins[0]", #"{"web_origins": ["https://evil.test"]}"#),
            ("web_origins[0]", #"{"web_origins": ["http://example.com"]}"#),
            ("web_origins[0]", #"{"web_origins": ["https://example.com/path"]}"#),
            ("database.synchronous", #"{"database": {"synchronous": "off"}}"#),
            ("database.url", #"{"database": {"url": "postgres://app@db/passkeyd?sslmode=sometimes"}}"#),
            ("database.url", #"{"database": {"url": "host=db user=app nonsense=1"}}"#),
            ("database.pool_size", #"{"database": {"pool_size": 1000}}"#),
            ("database.url", #"{"database": {"url": "mysql://db"}}"#),
            ("http.max_body_bytes", #"{"http": {"max_body_bytes": 10}}"#),
            ("http.tls_certificate_file", #"{"http": {"tls_certificate_file": "/x.pem"}}"#),
            ("tokens.action_token_lifetime_seconds", #"{"tokens": {"action_token_lifetime_seconds": 3600}}"#),
            ("passkeys.user_verification", #"{"passkeys": {"user_verification": "always"}}"#),
            ("clients[0].client_id", #"{"clients": [{"client_id": ""}]}"#),
            ("clients[0].user_verification", #"{"clients": [{"client_id": "a", "user_verification": "sometimes"}]}"#),
            ("clients[0].grant_types[0]", #"{"clients": [{"client_id": "a", "grant_types": ["password"]}]}"#),
            (
                "clients[0].mobile.ios.team_id",
                #"{"clients": [{"client_id": "a", "mobile": {"ios": {"team_id": "abc", "app_bundle_identifier": "x"}}}]}"#
            ),
            (
                "clients[0].mobile.android.sha256_cert_fingerprints[0]",
                #"{"clients": [{"client_id": "a", "mobile": {"android": {"app_package_name": "x", "sha256_cert_fingerprints": ["AB:CD"]}}}]}"#
            ),
            ("clients[1].client_id", #"{"clients": [{"client_id": "a"}, {"client_id": "a"}]}"#),
            ("realms", #"{"realms": []}"#),
            ("realms[0].identifiers", #"{"realms": [{"name": "r", "identifiers": {"email": "off"}}]}"#),
            ("realms[0].identifiers.email", #"{"realms": [{"name": "r", "identifiers": {"email": "sometimes"}}]}"#),
            ("lisen", #"{"lisen": {"port": 1}}"#),
            ("http.thread", #"{"http": {"thread": 1}}"#),
            ("admin.listen", #"{"admin": {"listen": "9090"}}"#),
            ("admin.listen", #"{"admin": {"listen": "127.0.0.1:99999"}}"#),
            ("admin.listen", #"{"admin": {"listen": ":9090"}}"#),
        ])
    func fieldErrors(field: String, change: String) throws {
        // The change is JSON text: top-level members replace those of the minimal document.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(change.utf8)) as? [String: Any])
        var document = minimalDocument()
        for (key, value) in object { document[key] = value }
        let error = failure(document)
        #expect(error?.field == field, "got \(String(describing: error))")
        #expect(error?.reason.isEmpty == false)
    }

    @Test("an unknown PASSKEYD_ variable stops the start")
    func unknownVariable() {
        let error = failure(minimalDocument(), environment: ["PASSKEYD_LISTEN_PROT": "1"])
        #expect(error?.field == "PASSKEYD_LISTEN_PROT")
    }

    @Test("a malformed environment value names the variable")
    func malformedVariable() {
        #expect(
            failure(minimalDocument(), environment: ["PASSKEYD_LISTEN_PORT": "eighty"])?.field == "PASSKEYD_LISTEN_PORT"
        )
        #expect(failure(minimalDocument(), environment: ["PASSKEYD_CLIENTS": "[oops"])?.field == "PASSKEYD_CLIENTS")
    }

    @Test("a key given twice in the file or in a JSON environment value stops the start, naming the key")
    func duplicateKeys() throws {
        let text =
            #"{"issuer":"https://auth.example.com/","relying_party":{"id":"example.com","name":"Example","id":"x.com"},"realms":[{"name":"main","identifiers":{"email":"required"}}]}"#
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(data: Data(text.utf8), source: "dup.json", environment: [:])
        }
        #expect(error?.field == "dup.json")
        #expect(error?.reason.contains("\"id\"") == true)
        let variable = failure(minimalDocument(), environment: ["PASSKEYD_REALMS": #"[{"name":"a","name":"b"}]"#])
        #expect(variable?.field == "PASSKEYD_REALMS")
        // The same text without the repeated key loads: the refusal is the repetition.
        let single = text.replacingOccurrences(of: #","id":"x.com""#, with: "")
        _ = try ConfigurationLoader.load(data: Data(single.utf8), source: "ok.json", environment: [:])
    }

    @Test("a missing or unreadable file and non-JSON content are reported")
    func unreadableFile() {
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(path: "/nonexistent/passkeyd.json", environment: [:])
        }
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(data: Data("not json".utf8), source: "x", environment: [:])
        }
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(data: Data("[1]".utf8), source: "x", environment: [:])
        }
    }
}

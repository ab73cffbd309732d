import Foundation
import Storage

/// Where and how to reach PostgreSQL.
///
/// Three spellings, as libpq accepts them (parsed by libpq's `PQconninfoParse`):
/// - a URL, `postgres://user[:password]@host[:port][,host2[:port2]…][/database][?sslmode=…&connect_timeout=…&application_name=…&pool_size=…&schema=…&target_session_attrs=…&options=…]`
///   (`postgresql://` too; an IPv6 address in brackets, a Unix-socket directory percent-encoded, a host without a
///   port on 5432), as `pg_autoctl show uri` prints it;
/// - the keyword/value form, `host=db1,db2 port=5432,5433 user=app dbname=auth sslmode=verify-full` (quoting
///   included; the libpq keywords listed in `keywordForms` only; `port` one value for every host or one per host);
/// - either of them with parts left out, taken from the `PG*` environment variables (`PGHOST`, `PGPORT`,
///   `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`, `PGCONNECT_TIMEOUT`, `PGAPPNAME`, `PGOPTIONS`, …) when the caller passes
///   the environment. A password left out everywhere is looked up by libpq in `~/.pgpass` (`PGPASSFILE`).
public struct PostgresConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// libpq's `sslmode` values.
    public enum SSLMode: String, Sendable, Hashable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS only if the server insists.
        case allow
        /// TLS if the server offers it, unverified.
        case prefer
        /// TLS, certificate not verified.
        case require
        /// TLS, certificate chain verified.
        case verifyCA = "verify-ca"
        /// TLS, certificate chain and host name verified (the default: tokens and keys cross this link).
        case verifyFull = "verify-full"
    }

    /// The servers, in order: libpq tries them in turn, keeping the first that satisfies
    /// `targetSessionAttributes` (several for failover). Never empty.
    public var servers: [Server]
    /// Role to connect as.
    public var user: String
    /// Password, if any (percent-decoded).
    public var password: String?
    /// Database name (the user name by default, as libpq does).
    public var database: String
    /// TLS mode.
    public var sslMode: SSLMode
    /// Connection timeout in seconds.
    public var connectTimeoutSeconds: Int
    /// `application_name` reported to the server.
    public var applicationName: String
    /// Connections in the pool (`database.pool_size` overrides; 2 × the processor count by default).
    public var poolSize: Int
    /// The schema passkeyd's tables live in (created at open if missing), or nil for the role's default
    /// `search_path`. Lets several passkeyd deployments, or independent tests, share one database.
    public var schema: String?
    /// libpq's `target_session_attrs` (`any`, `read-write`, `primary`, …). Nil means `read-write`, not libpq's
    /// `any`: every transaction of passkeyd may write, so a connection to a standby (a demoted primary first in a
    /// host list after a failover, a name still resolving to it) is refused at connect, and libpq tries the next
    /// host, instead of every write failing with 25006 on it.
    public var targetSessionAttributes: String?
    /// libpq's `options`: server settings for each session, in the server's command-line form
    /// (`-c statement_timeout=5s -c lock_timeout=2s`). The server checks them at connect: a setting it does not know
    /// fails the connection (passkeyd refuses to start, naming it). Nil: the role's and database's defaults.
    public var serverOptions: String?

    /// What passkeyd asks of the server it connects to when the configuration does not say.
    static let defaultTargetSessionAttributes = "read-write"

    /// libpq 14+'s `target_session_attrs` values.
    static let targetSessionAttributeValues: Set<String> = [
        "any", "read-write", "read-only", "primary", "standby", "prefer-standby",
    ]

    /// The libpq keywords the keyword/value form may use.
    public static let keywordForms: Set<String> = [
        "host", "port", "user", "password", "dbname", "sslmode", "connect_timeout", "application_name",
        "target_session_attrs", "options",
    ]

    /// The default pool size: two connections per processor.
    public static var defaultPoolSize: Int { max(2, 2 * ProcessInfo.processInfo.activeProcessorCount) }

    /// Parses and validates a `postgres://` URL, without consulting the environment.
    /// - Throws: `.invalidConfiguration` naming the problem (never echoing the password).
    public init(url: String) throws(StorageError) {
        try self.init(url, environment: [:])
    }

    /// Parses a URL or a keyword/value string; parts it leaves out come from `environment`'s `PG*` variables
    /// (pass `ProcessInfo.processInfo.environment`), then from the defaults.
    /// - Throws: `.invalidConfiguration` naming the problem (never echoing the password).
    public init(_ connectionString: String, environment: [String: String]) throws(StorageError) {
        var given = try Self.keywordValues(connectionString.trimmingCharacters(in: .whitespaces))
        let fromEnvironment: [(keyword: String, variable: String)] = [
            ("host", "PGHOST"), ("port", "PGPORT"), ("user", "PGUSER"), ("password", "PGPASSWORD"),
            ("dbname", "PGDATABASE"), ("sslmode", "PGSSLMODE"), ("connect_timeout", "PGCONNECT_TIMEOUT"),
            ("application_name", "PGAPPNAME"), ("target_session_attrs", "PGTARGETSESSIONATTRS"),
            ("options", "PGOPTIONS"),
        ]
        for (keyword, variable) in fromEnvironment where given[keyword] == nil {
            if let value = environment[variable], !value.isEmpty { given[keyword] = value }
        }
        try self.init(given: given)
    }

    /// Validates the collected keyword values and applies the defaults.
    private init(given: [String: String]) throws(StorageError) {
        guard let host = given["host"], !host.isEmpty else {
            throw StorageError(.invalidConfiguration, "database URL has no host")
        }
        guard let user = given["user"], !user.isEmpty else {
            throw StorageError(.invalidConfiguration, "database URL has no user")
        }
        servers = try Self.servers(host: host, port: given["port"])
        self.user = user
        password = given["password"]
        let database = given["dbname"] ?? ""
        guard !database.contains("/") else {
            throw StorageError(.invalidConfiguration, "database name \"\(database)\" contains a slash")
        }
        self.database = database.isEmpty ? user : database
        if let mode = given["sslmode"] {
            guard let parsed = SSLMode(rawValue: mode) else {
                throw StorageError(.invalidConfiguration, "sslmode \"\(mode)\" is not a libpq sslmode")
            }
            sslMode = parsed
        } else {
            sslMode = .verifyFull
        }
        connectTimeoutSeconds =
            try given["connect_timeout"].map { (value) throws(StorageError) in
                try Self.integer(value, in: 1...600, named: "connect_timeout")
            } ?? 10
        if let name = given["application_name"] {
            guard !name.isEmpty, name.utf8.count <= 63 else {
                throw StorageError(.invalidConfiguration, "application_name must have 1 to 63 characters")
            }
            applicationName = name
        } else {
            applicationName = "passkeyd"
        }
        poolSize =
            try given["pool_size"].map { (value) throws(StorageError) in
                try Self.integer(value, in: 1...256, named: "pool_size")
            } ?? Self.defaultPoolSize
        if let schema = given["schema"] {
            guard Self.isPlainIdentifier(schema) else {
                throw StorageError(
                    .invalidConfiguration,
                    "schema \"\(schema)\" must be 1 to 63 of a-z, 0-9, _ (not starting with a digit)")
            }
            self.schema = schema
        } else {
            schema = nil
        }
        if let attributes = given["target_session_attrs"] {
            guard Self.targetSessionAttributeValues.contains(attributes) else {
                throw StorageError(
                    .invalidConfiguration, "target_session_attrs \"\(attributes)\" is not a libpq value")
            }
            targetSessionAttributes = attributes
        } else {
            targetSessionAttributes = nil
        }
        serverOptions = try given["options"].flatMap { (options) throws(StorageError) in
            try Self.validatedOptions(options, schema: schema)
        }
    }

    /// `options` as given, trimmed (nil when blank); refused when it has control characters, is over 1,024 bytes,
    /// or sets `search_path` while `schema` also does (which would win would depend on their order).
    private static func validatedOptions(_ options: String, schema: String?) throws(StorageError) -> String? {
        let trimmed = options.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.utf8.count <= 1_024,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw StorageError(.invalidConfiguration, "options must be at most 1,024 bytes without control characters")
        }
        if schema != nil, trimmed.lowercased().contains("search_path") {
            throw StorageError(
                .invalidConfiguration, "options sets search_path and so does schema: keep one (schema creates it)")
        }
        return trimmed
    }

    /// A lower-case SQL identifier that needs no quoting (so it can go into `search_path` and DDL as is).
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, (1...63).contains(name.utf8.count) else { return false }
        guard !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "_")
        }
    }

    /// `value` as an integer in `range`.
    /// - Throws: `.invalidConfiguration` naming the setting `name` and the value.
    static func integer(_ value: String, in range: ClosedRange<Int>, named name: String)
        throws(StorageError) -> Int
    {
        guard let number = Int(value), range.contains(number) else {
            throw StorageError(.invalidConfiguration, "\(name) \"\(value)\" is not an integer in \(range)")
        }
        return number
    }

    /// The keyword/value pairs handed to `PQconnectdbParams` (libpq applies its own defaults for the rest).
    var connectionParameters: [(keyword: String, value: String)] {
        var pairs: [(keyword: String, value: String)] = [
            ("host", servers.map(\.host).joined(separator: ",")),
            ("port", servers.map { String($0.port) }.joined(separator: ",")), ("user", user), ("dbname", database),
            ("sslmode", sslMode.rawValue), ("connect_timeout", String(connectTimeoutSeconds)),
            ("application_name", applicationName),
        ]
        // A primary that vanishes without closing its sockets (power loss, network partition) is noticed within
        // about ten seconds rather than after the kernel's TCP timeouts (minutes), so requests get 503 and the
        // pool reconnects to the new primary. Ignored for Unix sockets.
        pairs += [
            ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
            ("tcp_user_timeout", "10000"),
        ]
        if let password { pairs.append(("password", password)) }
        // `schema` is a plain identifier and `serverOptions` sets no search_path when it is given: no conflict.
        let options = [schema.map { "-c search_path=\($0)" }, serverOptions].compactMap { $0 }
        if !options.isEmpty { pairs.append(("options", options.joined(separator: " "))) }
        pairs.append(("target_session_attrs", targetSessionAttributes ?? Self.defaultTargetSessionAttributes))
        return pairs
    }

    /// The longest one attempt to connect may take: libpq waits up to `connect_timeout` for each host it tries.
    var connectAttemptLimit: TimeInterval {
        TimeInterval(max(2, connectTimeoutSeconds) * max(1, servers.count) + 1)
    }

    /// The URL with the password redacted, for logs.
    public var description: String {
        let secret = password == nil ? "" : ":***"
        let schemaPart = schema.map { "&schema=\($0)" } ?? ""
        let hosts = servers.map(\.description).joined(separator: ",")
        return "postgres://\(user)\(secret)@\(hosts)/\(database)?sslmode=\(sslMode.rawValue)"
            + "&pool_size=\(poolSize)\(schemaPart)"
            + (targetSessionAttributes.map { "&target_session_attrs=\($0)" } ?? "")
            + (serverOptions.map { "&options=\($0)" } ?? "")
    }
}

import Foundation
import Storage

/// Where and how to reach PostgreSQL, parsed from a `postgres://` URL.
///
/// `postgres://user[:password]@host[:port][/database][?sslmode=…&connect_timeout=…&application_name=…&pool_size=…]`
/// (`postgresql://` is accepted too). The PostgreSQL driver itself is NOT implemented yet: see `PostgresDriver`.
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

    /// Server host name or address.
    public var host: String
    /// Server port (5432 by default).
    public var port: Int
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
    /// Connections in the pool.
    public var poolSize: Int

    /// The query parameters the URL may carry.
    static let knownParameters: Set<String> = ["sslmode", "connect_timeout", "application_name", "pool_size"]

    /// Parses and validates a `postgres://` URL.
    /// - Throws: `.invalidConfiguration` naming the problem (never echoing the password).
    public init(url: String) throws(StorageError) {
        guard let components = URLComponents(string: url) else {
            throw StorageError(.invalidConfiguration, "database URL is not a URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw StorageError(.invalidConfiguration, "database URL scheme must be postgres:// or postgresql://")
        }
        guard let host = components.host, !host.isEmpty else {
            throw StorageError(.invalidConfiguration, "database URL has no host")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StorageError(.invalidConfiguration, "database URL has no user")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else {
            throw StorageError(.invalidConfiguration, "database port \(port) is out of range")
        }
        let path = components.path
        let database = path.hasPrefix("/") ? String(path.dropFirst()) : path
        guard !database.contains("/") else {
            throw StorageError(.invalidConfiguration, "database name \"\(database)\" contains a slash")
        }
        guard components.fragment == nil else {
            throw StorageError(.invalidConfiguration, "database URL has a fragment")
        }
        self.host = host
        self.port = port
        self.user = user
        self.password = components.password
        self.database = database.isEmpty ? user : database
        self.sslMode = .verifyFull
        self.connectTimeoutSeconds = 10
        self.applicationName = "passkeyd"
        self.poolSize = 10
        try apply(components.queryItems ?? [])
    }

    private mutating func apply(_ items: [URLQueryItem]) throws(StorageError) {
        var seen: Set<String> = []
        for item in items {
            guard Self.knownParameters.contains(item.name) else {
                throw StorageError(.invalidConfiguration, "unknown database URL parameter \"\(item.name)\"")
            }
            guard seen.insert(item.name).inserted else {
                throw StorageError(.invalidConfiguration, "database URL parameter \"\(item.name)\" is repeated")
            }
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else {
                    throw StorageError(.invalidConfiguration, "sslmode \"\(value)\" is not a libpq sslmode")
                }
                sslMode = mode
            case "connect_timeout":
                connectTimeoutSeconds = try Self.integer(value, in: 1...600, named: item.name)
            case "pool_size":
                poolSize = try Self.integer(value, in: 1...256, named: item.name)
            default:
                guard !value.isEmpty, value.count <= 63 else {
                    throw StorageError(.invalidConfiguration, "application_name must have 1 to 63 characters")
                }
                applicationName = value
            }
        }
    }

    private static func integer(_ value: String, in range: ClosedRange<Int>, named name: String)
        throws(StorageError) -> Int
    {
        guard let number = Int(value), range.contains(number) else {
            throw StorageError(.invalidConfiguration, "\(name) \"\(value)\" is not an integer in \(range)")
        }
        return number
    }

    /// The URL with the password redacted, for logs.
    public var description: String {
        let secret = password == nil ? "" : ":***"
        return "postgres://\(user)\(secret)@\(host):\(port)/\(database)?sslmode=\(sslMode.rawValue)"
            + "&pool_size=\(poolSize)"
    }
}

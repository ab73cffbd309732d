import Storage

extension PostgresConfiguration {
    /// One server libpq may connect to: a host name, an IP address or a Unix-socket directory, and its port.
    public struct Server: Sendable, Hashable, CustomStringConvertible {
        /// Host name, IP address (IPv6 without brackets) or Unix-socket directory (starting with `/`).
        public var host: String
        /// TCP port (for a Unix socket, the number in the socket file's name).
        public var port: Int

        /// A server at `host` and `port`.
        public init(host: String, port: Int = PostgresConfiguration.defaultPort) {
            self.host = host
            self.port = port
        }

        /// `host:port` as in a URL, an IPv6 address in brackets (`[::1]:5432`).
        public var description: String {
            (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        }
    }

    /// libpq's port when none is given, or when an item of a port list is empty.
    public static let defaultPort = 5432

    /// The servers named by libpq's `host` and `port` values, as libpq pairs them: `host` a comma-separated list,
    /// `port` nil (every host on 5432), one value for every host, or a list as long as `host`'s; an empty port
    /// item means 5432. A URL's `h1:5432,h2` reaches here as `host=h1,h2 port=5432,` (libpq's own parse).
    /// - Throws: `.invalidConfiguration` for an empty host item, a host with a control character, a port that is
    ///   not an integer in 1...65535, or lists of different lengths.
    static func servers(host: String, port: String?) throws(StorageError) -> [Server] {
        let hosts = host.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !hosts.contains(where: \.isEmpty) else {
            throw StorageError(.invalidConfiguration, "database host list \"\(host)\" has an empty item")
        }
        guard !host.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw StorageError(.invalidConfiguration, "database host list has a control character")
        }
        let items = port.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? [""]
        guard items.count == 1 || items.count == hosts.count else {
            throw StorageError(
                .invalidConfiguration,
                "database URL names \(hosts.count) hosts but \(items.count) ports (\"\(port ?? "")\"): give one port for "
                    + "every host, or one per host (an empty one for \(defaultPort))")
        }
        var ports: [Int] = []
        for item in items {
            ports.append(item.isEmpty ? defaultPort : try integer(item, in: 1...65_535, named: "port"))
        }
        return hosts.indices.map { Server(host: hosts[$0], port: ports[items.count == 1 ? 0 : $0]) }
    }
}

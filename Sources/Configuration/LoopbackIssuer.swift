import Foundation

/// A configuration file's loopback issuer that follows the listen port. When the file's issuer is
/// `http://localhost:PORT/` (or `127.0.0.1`, `[::1]`) and PORT is the file's own `listen.port` — the shape of the
/// shipped `Config/passkeyd.json` — a port given by `PASSKEYD_LISTEN_PORT` or `--port` moves the issuer there, and
/// with it every `web_origins` entry (shared or a client's) equal to its origin; what derives from the issuer (the
/// demo page's origin, `<issuer>me/`, the default `device_keys.audience`) is derived after the move. So discovery,
/// the tokens' `iss` and the demo page name the port the server listens on. An explicit `PASSKEYD_ISSUER` wins:
/// nothing moves. Port 0 (a free port picked at start) moves nothing either: the port is not known at load.
package struct LoopbackIssuer: Sendable, Equatable {
    /// The hosts that name this machine (RFC 6761 §6.3 `localhost`, and the loopback addresses).
    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]

    /// The issuer as the file spells it (`http://localhost:8080/`).
    let issuer: String
    /// Its origin (`http://localhost:8080`, RFC 6454 §6.1): the `web_origins` entries that move with it.
    let origin: String
    /// Its port, the file's `listen.port`.
    let port: Int

    /// The loopback issuer of the file's `document` (before the environment and the flags are applied); nil when
    /// its issuer is not a plain `http` loopback URL with an explicit port, or that port is not the file's
    /// `listen.port` (8080 when absent).
    package init?(file document: [String: Any]) {
        guard let issuer = document[Settings.issuer.descriptor.path[0]] as? String,
            let url = URLComponents(string: issuer), url.scheme?.lowercased() == "http",
            let host = url.host?.lowercased(), Self.loopbackHosts.contains(host), let port = url.port,
            url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil, url.user == nil,
            port == Self.listenPort(in: document) ?? Settings.Listen.port.defaultValue
        else { return nil }
        self.issuer = issuer
        self.origin = Self.origin(of: issuer)
        self.port = port
    }

    /// Moves the issuer and the `web_origins` entries equal to its origin to the listen port of `document` (the file
    /// with the environment and the flags applied), unless `environment` sets the issuer or the port is 0 or
    /// unchanged.
    package func follow(in document: inout [String: Any], environment: [String: String]) {
        guard environment[Settings.issuer.descriptor.variable] == nil, let listenPort = Self.listenPort(in: document),
            listenPort != 0, listenPort != port,
            var url = URLComponents(string: issuer)
        else { return }
        url.port = listenPort
        guard let moved = url.string else { return }
        let movedOrigin = Self.origin(of: moved)
        EnvironmentOverrides.set(&document, path: Settings.issuer.descriptor.path, value: moved)
        let key = Settings.webOrigins.descriptor.path[0]
        if let origins = document[key] as? [Any] {
            document[key] = origins.map { ($0 as? String) == origin ? movedOrigin : $0 }
        }
        if let clients = document["clients"] as? [Any] {
            document["clients"] = clients.map { element -> Any in
                guard var client = element as? [String: Any], let origins = client[key] as? [Any] else {
                    return element
                }
                client[key] = origins.map { ($0 as? String) == origin ? movedOrigin : $0 }
                return client
            }
        }
    }

    /// The origin of an issuer without a path (RFC 6454 §6.1: scheme, host and port): the issuer without its slash,
    /// the host spelt as the issuer spells it (`[::1]` with its brackets).
    static func origin(of issuer: String) -> String {
        issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
    }

    /// `listen.port` of `document` when it is an integer; nil when absent or of another type (the loader refuses
    /// the latter, naming it).
    static func listenPort(in document: [String: Any]) -> Int? {
        let path = Settings.Listen.port.descriptor.path
        guard let listen = document[path[0]] as? [String: Any], let value = listen[path[1]] else { return nil }
        guard let number = value as? NSNumber, !ConfigObject.isBoolean(number) else { return nil }
        return Int(exactly: number.doubleValue)
    }
}

import Foundation

/// What passkeyd serves to people and tools besides the API: its OpenAPI document (`openapi.listener`) and the
/// demo web app (`web.demo`, `web.demo_client_id`).
public struct WebConfiguration: Sendable, Equatable {
    /// Where `GET /openapi.json` is served.
    public enum OpenAPIListener: String, Sendable, Equatable, CaseIterable, SettingChoice {
        /// On the admin listener (the default); nowhere when `admin.listen` is empty.
        case admin
        /// On the public listener.
        case `public`
        /// Nowhere.
        case off
    }

    /// The demo web app at `/demo/`, when on.
    public struct Demo: Sendable, Equatable {
        /// The client whose id the demo page sends.
        public var clientID: String
        /// The server's own origin (the issuer's scheme, host and port), added to the web origins while the demo
        /// is on.
        public var origin: String
    }

    public var openAPIListener: OpenAPIListener
    /// `nil` unless `web.demo` is `true`.
    public var demo: Demo?

    public init(openAPIListener: OpenAPIListener, demo: Demo? = nil) {
        self.openAPIListener = openAPIListener
        self.demo = demo
    }

    /// Reads `openapi` and `web` of `root`; the demo needs the issuer (its origin) and the clients (its client).
    package static func read(
        _ root: ConfigObject, issuer: String, rpID: String, clients: [ClientConfiguration]
    ) throws(ConfigurationError) -> WebConfiguration {
        let openAPIObject = try root.section("openapi")
        let listener = try openAPIObject.value(Settings.OpenAPI.listener)
        try openAPIObject.rejectUnknownKeys()

        let webObject = try root.section("web")
        let demoOn = try webObject.value(Settings.Web.demo)
        let configuredClient = try webObject.value(Settings.Web.demoClientID)
        try webObject.rejectUnknownKeys()
        guard demoOn else { return WebConfiguration(openAPIListener: listener) }

        let client: ClientConfiguration?
        if configuredClient.isEmpty {
            client = clients.first { $0.grantTypes.contains(ClientConfiguration.webAuthnGrant) }
        } else {
            client = clients.first { $0.clientID == configuredClient }
        }
        guard let client, client.grantTypes.contains(ClientConfiguration.webAuthnGrant) else {
            let reason =
                configuredClient.isEmpty
                ? "the demo needs a client with the webauthn grant"
                : "\"\(configuredClient)\" is not a client with the webauthn grant"
            throw webObject.error("demo_client_id", reason)
        }
        // The demo page runs on the server's own origin: the issuer's scheme, host and port (RFC 6454 §4).
        guard let url = URLComponents(string: issuer), let scheme = url.scheme, let host = url.host else {
            throw webObject.error("demo", "the issuer has no origin")
        }
        let origin = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        // WebAuthn L3 §5.1.4.1: the page's origin must be the RP ID or below it, or no browser runs the ceremony.
        do {
            try OriginRules.validate([origin], rpID: rpID, field: "web.demo")
        } catch {
            throw webObject.error(
                "demo", "the issuer's origin \(origin) cannot host the demo: \(error.reason)")
        }
        return WebConfiguration(openAPIListener: listener, demo: Demo(clientID: client.clientID, origin: origin))
    }
}

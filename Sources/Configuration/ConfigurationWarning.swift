import Foundation

/// Something a valid configuration does that is probably not what was meant: `check-config` prints each one, and the
/// configuration still loads (refusing it would stop servers that run as configured today).
package struct ConfigurationWarning: Sendable, Equatable, CustomStringConvertible {
    /// The setting concerned (`issuer`, `realms[0].default`).
    package let field: String
    /// What it does, and what to change.
    package let reason: String

    package var description: String { "\(field): \(reason)" }
}

extension ServerConfiguration {
    /// The warnings of this configuration: an issuer with a path, an issuer on another port than the listener's,
    /// a realm used as the default that is not marked so, a client's `allowed_aaguids` that no attestation proves, and
    /// the account API open to every client of several.
    package var warnings: [ConfigurationWarning] {
        var warnings: [ConfigurationWarning] = []
        if let warning = issuerPortWarning { warnings.append(warning) }
        // OIDC Discovery §4: the discovery document is at the issuer + `.well-known/openid-configuration`, and passkeyd
        // serves it, and its endpoints, at the root of its listener.
        if let path = URLComponents(string: issuer)?.path, path != "/" {
            warnings.append(
                ConfigurationWarning(
                    field: "issuer",
                    reason:
                        "\(issuer) has a path (\(path)): passkeyd serves its endpoints and discovery document at the "
                        + "root, while clients ask for \(issuer).well-known/openid-configuration and the endpoints under "
                        + "\(path); only a reverse proxy that strips \(path) makes them meet"))
        }
        if realms.count == 1, let realm = realms.first, !realm.isDefault {
            warnings.append(
                ConfigurationWarning(
                    field: "realms[0].default",
                    reason:
                        "is not set: \"\(realm.name)\", the only realm, is the realm of requests that name none; mark "
                        + "it \"default\": true to say so (with a second realm, one must be)"))
        }
        for (index, client) in clients.enumerated() {
            warnings += client.authenticatorWarnings(field: "clients[\(index)]")
        }
        if accountAPIAccessPolicy == .allowAll, clients.count > 1 {
            warnings.append(
                ConfigurationWarning(
                    field: "account_api_access_policy",
                    reason:
                        "is allow_all with \(clients.count) clients: each of them may ask for the account API "
                        + "\(accountAudience) and manage the accounts of the users who sign in to it (passkeys, "
                        + "recovery codes, the password, DELETE /me); set \"require_client_grant\" and give "
                        + "client_grants to the clients that may (Auth0's My Account API default)"))
        }
        return warnings
    }

    /// The issuer names another port than the one the server listens on (a `--port` or `PASSKEYD_LISTEN_PORT` that
    /// it did not follow, `LoopbackIssuer`): discovery, the tokens' `iss` and the demo page then point at a port this
    /// server does not answer on, unless something forwards that port to it. Said for an issuer that names its port
    /// and for a loopback one; an issuer on its scheme's default port on another host is the documented deployment
    /// behind a reverse proxy (README, "Connection limits and a reverse proxy"), and the listener is not its port.
    /// Port 0 is picked at start and never known here.
    private var issuerPortWarning: ConfigurationWarning? {
        guard listen.port != 0, let url = URLComponents(string: issuer), let scheme = url.scheme?.lowercased(),
            let host = url.host?.lowercased()
        else { return nil }
        // RFC 9110 §4.2.1, §4.2.2: the default ports of http and https.
        let issuerPort = url.port ?? (scheme == "https" ? 443 : 80)
        guard url.port != nil || LoopbackIssuer.loopbackHosts.contains(host), issuerPort != listen.port else {
            return nil
        }
        return ConfigurationWarning(
            field: "issuer",
            reason:
                "\(issuer) is on port \(issuerPort) while the server listens on \(listen.port): discovery, the tokens' "
                + "iss and the demo page name port \(issuerPort); set PASSKEYD_ISSUER to the URL clients reach this "
                + "server at (an http://localhost issuer on the file's own listen.port follows --port by itself)")
    }
}

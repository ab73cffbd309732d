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
    /// The warnings of this configuration: an issuer with a path, and a realm used as the default that is not marked
    /// so.
    package var warnings: [ConfigurationWarning] {
        var warnings: [ConfigurationWarning] = []
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
        return warnings
    }
}

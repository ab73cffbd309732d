import Configuration
import HTTP
import JSON
import Service

/// The associated-domain files that let native apps use passkeys of the RP ID, built from every client's
/// device settings at start and served as `application/json`:
/// `GET /.well-known/apple-app-site-association` (Apple "Supporting associated domains": `webcredentials.apps`)
/// and `GET /.well-known/assetlinks.json` (Digital Asset Links, with `get_login_creds` for Credential Manager); and
/// the related origins document of the web (`RelatedOriginsEndpoint`).
package enum AssociationEndpoints {
    package static func register(in router: inout Router, context: ServerContext) {
        let apple = appleAppSiteAssociation(context.configuration.clients).serialized()
        let android = assetLinks(context.configuration.clients).serialized()
        router.addInline(.get, "/.well-known/apple-app-site-association") { _ in
            DiscoveryEndpoints.cacheable(apple, maxAge: 3600)
        }
        router.addInline(.get, "/.well-known/assetlinks.json") { _ in
            DiscoveryEndpoints.cacheable(android, maxAge: 3600)
        }
        RelatedOriginsEndpoint.register(in: &router, configuration: context.configuration)
    }

    /// `{"webcredentials":{"apps":["TEAMID.bundle.id", …]}}`.
    package static func appleAppSiteAssociation(_ clients: [ClientConfiguration]) -> JSONValue {
        var seen = Set<String>()
        let apps = clients.compactMap { $0.ios?.appID }.filter { seen.insert($0).inserted }
        return .object([
            JSONMember(
                key: "webcredentials",
                value: .object([JSONMember(key: "apps", value: .array(apps.map(JSONValue.string)))]))
        ])
    }

    /// One statement per Android app: both relations, the package name and its SHA-256 certificate fingerprints.
    package static func assetLinks(_ clients: [ClientConfiguration]) -> JSONValue {
        .array(
            clients.compactMap(\.android).map { app in
                .object([
                    JSONMember(
                        key: "relation",
                        value: .array([
                            "delegate_permission/common.handle_all_urls",
                            "delegate_permission/common.get_login_creds",
                        ])),
                    JSONMember(
                        key: "target",
                        value: .object([
                            JSONMember(key: "namespace", value: "android_app"),
                            JSONMember(key: "package_name", value: .string(app.packageName)),
                            JSONMember(
                                key: "sha256_cert_fingerprints",
                                value: .array(app.sha256CertFingerprints.map(JSONValue.string))),
                        ])),
                ])
            })
    }
}

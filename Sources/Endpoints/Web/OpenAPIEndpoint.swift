import Assets
import HTTP
import JSON
import Service

/// `GET /openapi.json`: the OpenAPI 3.1 description of the API (docs/openapi.yaml, converted to JSON by
/// scripts/dev/embed_assets.py and compiled into the binary), on the listener `openapi.listener` names.
package enum OpenAPIEndpoint {
    /// The document's bytes, made once.
    package static let document = Array(EmbeddedAssets.openAPIJSON.utf8)

    package static func register(in router: inout Router) {
        router.addInline(.get, "/openapi.json") { _ in
            Response(
                status: 200,
                headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=3600"],
                body: document)
        }
    }
}

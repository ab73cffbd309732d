import HTTP
import JSON
import Service
import Storage

/// `GET /healthz` (the process answers), `GET /readyz` (the store accepts writes), and, on the admin listener
/// only, `GET /metrics` (Prometheus).
package enum HealthEndpoints {
    /// `/healthz` and `/readyz`, served on the public listener and on the admin listener.
    package static func register(in router: inout Router, context: ServerContext) {
        router.addInline(.get, "/healthz") { _ in
            Response(
                status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                body: Array(#"{"status":"ok"}"#.utf8))
        }
        router.add(.get, "/readyz") { _ in
            switch await context.readiness.status() {
            case .ready:
                return Response(
                    status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                    body: Array(#"{"status":"ready"}"#.utf8))
            case .unavailable(let reason, nil):
                context.logger.log(.error, "readiness check failed") { $0.add("error", reason) }
                return notReady("unavailable", "The database does not accept writes.")
            case .unavailable(let reason, let unavailability?):
                // A documented state the operator fixes (docs/deployment.md), not a failure of the server.
                let (message, description) = unavailable(unavailability)
                context.logger.log(.warning, message) { $0.add("error", reason) }
                return notReady("unavailable", description)
            case .damaged(let reason):
                context.logger.log(.error, "database damaged: restore it from a backup") { $0.add("error", reason) }
                return notReady("damaged", "The database file is damaged; writes are refused.")
            }
        }
    }

    /// `/metrics`: the admin listener's only, so that a scrape never shares the public surface.
    package static func registerMetrics(
        in router: inout Router, context: ServerContext, storeMetrics: @escaping @Sendable () -> String
    ) {
        router.addInline(.get, "/metrics") { _ in
            .text(
                context.metrics.render() + storeMetrics() + context.metadata.metricsText(now: context.clock.now()),
                contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    /// The log message and the client's description of a database that cannot take writes.
    private static func unavailable(_ unavailability: StorageError.Unavailability) -> (String, String) {
        switch unavailability {
        case .diskFull:
            ("not ready: database disk full", "The database's disk is full; writes are refused until space is freed.")
        case .readOnly:
            ("not ready: database is read-only", "The database is read-only; writes are refused.")
        case .insufficientResources:
            ("not ready: the database is out of resources", "The database is out of resources; writes are refused.")
        }
    }

    /// RFC 9110 §15.6.4: 503, with `status` saying why beside the usual `error` members.
    private static func notReady(_ status: String, _ description: String) -> Response {
        var response = Response.error(status: 503, error: "temporarily_unavailable", description: description)
        response.body = Array(#"{"status":"\#(status)","#.utf8) + response.body.dropFirst()
        response.headers.replace(name: "Cache-Control", value: "no-store")
        return response
    }
}

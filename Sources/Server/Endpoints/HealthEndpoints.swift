import HTTP

/// `GET /healthz` (the process answers), `GET /readyz` (the store answers), `GET /metrics` (Prometheus).
enum HealthEndpoints {
    static func register(in router: inout Router, context: ServerContext) {
        router.add(.get, "/healthz") { _ in
            Response(status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                     body: Array(#"{"status":"ok"}"#.utf8))
        }
        router.add(.get, "/readyz") { _ in
            do {
                try await context.store.ping()
                return Response(status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                                body: Array(#"{"status":"ready"}"#.utf8))
            } catch {
                context.logger.log(.error, "readiness check failed") { $0.add("error", String(describing: error)) }
                return .error(status: 503, error: "temporarily_unavailable", description: "The database is not answering.")
            }
        }
        router.add(.get, "/metrics") { _ in
            .text(
                context.metrics.render() + StoreMetrics.render(context.store),
                contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }
}

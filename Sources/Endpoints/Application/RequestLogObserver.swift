import HTTP
import JSON
import Service

/// Feeds every finished request into the metrics and writes one access-log line for it: time, request id,
/// method, route pattern, status, duration. Never the body, the query string, headers or tokens.
package struct RequestLogObserver: RequestObserver {
    package let metrics: Metrics
    package let logger: Logger

    package func requestStarted() {
        metrics.requestStarted()
    }

    package func requestCompleted(_ event: CompletedRequest) {
        metrics.requestCompleted(
            route: event.route, method: event.method.rawValue, status: event.status, seconds: event.duration)
        logger.log(.info, "request") { line in
            line.add("request_id", event.requestID)
            line.add("method", event.method.rawValue)
            line.add("route", event.route)
            line.add("status", event.status)
            line.add("duration_ms", milliseconds: event.duration * 1000)
        }
    }

    /// Creates the value from its stored properties.
    package init(metrics: Metrics, logger: Logger) {
        self.metrics = metrics
        self.logger = logger
    }
}

import Foundation
import Synchronization

/// Request metrics in the Prometheus text exposition format (version 0.0.4): requests by route, method and
/// status, a latency histogram by route, and the number of requests in flight. Thread-safe; every update
/// takes one short lock.
public final class Metrics: Sendable {
    /// Latency histogram bucket bounds, in seconds.
    package static let bucketBounds: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    package struct RequestKey: Hashable { let route: String; let method: String; let status: Int }

    package struct Histogram {
        package var buckets = [UInt64](repeating: 0, count: Metrics.bucketBounds.count)
        package var count: UInt64 = 0
        package var sum: Double = 0
    }

    package struct State {
        package var requests: [RequestKey: UInt64] = [:]
        package var latency: [String: Histogram] = [:]
        package var events: [String: UInt64] = [:]
    }

    private let state = Mutex(State())
    private let inFlight = Atomic<Int>(0)

    /// Creates an empty registry.
    public init() {}

    /// A request was accepted and is being handled.
    public func requestStarted() {
        inFlight.wrappingAdd(1, ordering: .relaxed)
    }

    /// A request was answered.
    /// - Parameter route: the matched route pattern (never the raw path, which would let clients create series).
    public func requestCompleted(route: String, method: String, status: Int, seconds: Double) {
        inFlight.wrappingSubtract(1, ordering: .relaxed)
        state.withLock { state in
            state.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            // Updated in place: a copy taken out of the dictionary would copy its bucket array on every request,
            // an allocation while holding the lock every request thread needs.
            Self.record(seconds, in: &state.latency[route, default: Histogram()])
        }
    }

    /// Adds one observation to `histogram` (cumulative buckets, as Prometheus expects).
    private static func record(_ seconds: Double, in histogram: inout Histogram) {
        for (index, bound) in bucketBounds.enumerated() where seconds <= bound {
            histogram.buckets[index] += 1
        }
        histogram.count += 1
        histogram.sum += seconds
    }

    /// Counts a named security event outcome (e.g. `webauthn_failure{code="bad_signature"}`), so operators see
    /// which checks fail without the client being told.
    public func count(event: String) {
        state.withLock { $0.events[event, default: 0] += 1 }
    }

    /// The current values, in the Prometheus text format.
    public func render() -> String {
        let snapshot = state.withLock { $0 }
        var out = "# HELP passkeyd_http_requests_total HTTP requests answered, by route, method and status.\n"
        out += "# TYPE passkeyd_http_requests_total counter\n"
        for (key, value) in snapshot.requests.sorted(by: {
            ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status)
        }) {
            out +=
                "passkeyd_http_requests_total{route=\"\(Self.escape(key.route))\",method=\"\(Self.escape(key.method))\",status=\"\(key.status)\"} \(value)\n"
        }
        out += "# HELP passkeyd_http_request_duration_seconds Time from the end of the request body to the response.\n"
        out += "# TYPE passkeyd_http_request_duration_seconds histogram\n"
        for (route, histogram) in snapshot.latency.sorted(by: { $0.key < $1.key }) {
            let label = "route=\"\(Self.escape(route))\""
            for (index, bound) in Self.bucketBounds.enumerated() {
                out +=
                    "passkeyd_http_request_duration_seconds_bucket{\(label),le=\"\(Self.format(bound))\"} \(histogram.buckets[index])\n"
            }
            out += "passkeyd_http_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(histogram.count)\n"
            out += "passkeyd_http_request_duration_seconds_sum{\(label)} \(histogram.sum)\n"
            out += "passkeyd_http_request_duration_seconds_count{\(label)} \(histogram.count)\n"
        }
        out += "# HELP passkeyd_http_requests_in_flight Requests being handled now.\n"
        out += "# TYPE passkeyd_http_requests_in_flight gauge\n"
        out += "passkeyd_http_requests_in_flight \(inFlight.load(ordering: .relaxed))\n"
        out += "# HELP passkeyd_security_events_total Security outcomes by kind and reason code.\n"
        out += "# TYPE passkeyd_security_events_total counter\n"
        for (event, value) in snapshot.events.sorted(by: { $0.key < $1.key }) {
            out += "passkeyd_security_events_total{event=\"\(Self.escape(event))\"} \(value)\n"
        }
        return out
    }

    private static func format(_ bound: Double) -> String {
        bound == bound.rounded() ? String(Int(bound)) : String(bound)
    }

    /// Label values escape backslash, double quote and newline (Prometheus text format).
    package static func escape(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}

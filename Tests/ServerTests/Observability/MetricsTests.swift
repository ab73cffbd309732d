import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Metrics")
struct MetricsTests {
    @Test("requests are counted by route, method and status, with a histogram and in-flight gauge")
    func rendering() {
        let metrics = Metrics()
        metrics.requestStarted()
        metrics.requestStarted()
        metrics.requestCompleted(route: "/healthz", method: "GET", status: 200, seconds: 0.002)
        let text = metrics.render()
        #expect(text.contains(#"passkeyd_http_requests_total{route="/healthz",method="GET",status="200"} 1"#))
        #expect(text.contains(#"passkeyd_http_request_duration_seconds_bucket{route="/healthz",le="0.001"} 0"#))
        #expect(text.contains(#"passkeyd_http_request_duration_seconds_bucket{route="/healthz",le="0.0025"} 1"#))
        #expect(text.contains(#"passkeyd_http_request_duration_seconds_count{route="/healthz"} 1"#))
        #expect(text.contains("passkeyd_http_requests_in_flight 1\n"))
    }

    @Test("label values are escaped")
    func escaping() {
        #expect(Metrics.escape("a\"b\\c\nd") == #"a\"b\\c\nd"#)
    }
}

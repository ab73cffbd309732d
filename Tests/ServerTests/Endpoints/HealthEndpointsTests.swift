import HTTP
import Storage
import Testing
import TestSupport

@testable import Server

@Suite("Health, readiness and metrics endpoints")
struct HealthEndpointsTests {
    @Test("/healthz answers 200")
    func healthz() async throws {
        let client = TestClient(responder: Application(context: ServerContext(configuration: try TestConfiguration.make(), store: MemoryStore())))
        let response = await client.get("/healthz")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test("/readyz is 200 when the store answers and 503 when it does not")
    func readyz() async throws {
        let configuration = try TestConfiguration.make()
        let up = TestClient(responder: Application(context: ServerContext(configuration: configuration, store: MemoryStore())))
        #expect(await up.get("/readyz").status == 200)
        let down = TestClient(responder: Application(context: ServerContext(
            configuration: configuration, store: UnavailableStore(), logger: Logger(sink: { _ in }))))
        let response = await down.get("/readyz")
        #expect(response.status == 503)
        #expect(String(decoding: response.body, as: UTF8.self).contains("temporarily_unavailable"))
    }

    @Test("/metrics serves the Prometheus text format of the registry")
    func metrics() async throws {
        let context = ServerContext(configuration: try TestConfiguration.make(), store: MemoryStore())
        context.metrics.requestStarted()
        context.metrics.requestCompleted(route: "/healthz", method: "GET", status: 200, seconds: 0.001)
        let response = await TestClient(responder: Application(context: context)).get("/metrics")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(String(decoding: response.body, as: UTF8.self).contains(#"passkeyd_http_requests_total{route="/healthz",method="GET",status="200"} 1"#))
    }

    @Test("unknown paths are 404 and wrong methods 405 with Allow")
    func routing() async throws {
        let client = TestClient(responder: Application(context: ServerContext(configuration: try TestConfiguration.make(), store: MemoryStore())))
        #expect(await client.get("/nope").status == 404)
        let response = await client.post("/healthz", json: JSONValue.null)
        #expect(response.status == 405)
        #expect(response.headers["Allow"]?.contains("GET") == true)
    }
}

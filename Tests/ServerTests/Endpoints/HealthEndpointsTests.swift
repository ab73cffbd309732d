import Foundation
import HTTP
import JSON
import Storage
import StorageSQLite
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Health, readiness and metrics endpoints")
struct HealthEndpointsTests {
    @Test("/healthz answers 200")
    func healthz() async throws {
        let client = TestClient(
            responder: Application(
                context: ServerContext(configuration: try TestConfiguration.make(), store: MemoryStore())))
        let response = await client.get("/healthz")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test("/readyz is 200 when the store answers and 503 when it does not")
    func readyz() async throws {
        let configuration = try TestConfiguration.make()
        let up = TestClient(
            responder: Application(context: ServerContext(configuration: configuration, store: MemoryStore())))
        #expect(await up.get("/readyz").status == 200)
        let down = TestClient(
            responder: Application(
                context: ServerContext(
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
        let response = await TestClient(responder: AdminApplication(context: context)).get("/metrics")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(
            String(decoding: response.body, as: UTF8.self).contains(
                #"passkeyd_http_requests_total{route="/healthz",method="GET",status="200"} 1"#))
    }

    @Test("/metrics carries the SQLite store's WAL checkpoint counters, and nothing of the kind for another store")
    func storeMetrics() async throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "passkeyd-metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try await SQLiteStore.open(
            SQLiteConfiguration(directory: directory, synchronous: .normal, readerCount: 1))
        // Enough one-by-one commits for the WAL to pass its checkpoint threshold a few times.
        for n in 0..<3_000 {
            _ = try await store.write { writer in
                try writer.appendSecurityEvent(
                    SecurityEvent(occurredAt: Date(), storedKind: "e\(n)", outcome: "success"))
            }
        }
        let context = ServerContext(configuration: try TestConfiguration.make(), store: store)
        let admin = AdminApplication(context: context, storeMetrics: { StoreMetrics.render(store) })
        let body = await TestClient(responder: admin).get("/metrics").bodyText
        await store.close()
        let line = body.split(separator: "\n").first {
            $0.hasPrefix(#"passkeyd_sqlite_wal_checkpoints_total{kind="background"}"#)
        }
        let count = line.flatMap { Int($0.split(separator: " ").last ?? "") }
        #expect((count ?? 0) >= 1, "\(line.map(String.init) ?? "no background line")")
        #expect(body.contains(#"passkeyd_sqlite_wal_checkpoints_total{kind="writer_fallback"} 0"#))
        let memoryStore = MemoryStore()
        let memory = await TestClient(
            responder: AdminApplication(
                context: ServerContext(configuration: try TestConfiguration.make(), store: memoryStore),
                storeMetrics: { StoreMetrics.render(memoryStore) })
        ).get("/metrics").bodyText
        #expect(!memory.contains("passkeyd_sqlite_wal_checkpoints_total"))
    }

    @Test("unknown paths are 404 and wrong methods 405 with Allow")
    func routing() async throws {
        let client = TestClient(
            responder: Application(
                context: ServerContext(configuration: try TestConfiguration.make(), store: MemoryStore())))
        #expect(await client.get("/nope").status == 404)
        let response = await client.post("/healthz", json: JSONValue.null)
        #expect(response.status == 405)
        #expect(response.headers["Allow"]?.contains("GET") == true)
    }
}

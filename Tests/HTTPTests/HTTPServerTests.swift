import Glibc
import Synchronization
import Testing

@testable import HTTP

@Suite("HTTPServer end to end (127.0.0.1, ephemeral port)")
struct HTTPServerTests {
    static func router() -> Router {
        var router = Router()
        router.add(.get, "/healthz") { _ in .text("ok") }
        router.add(.get, "/items/{id}") { request in
            .json(["id": .string(request.pathParameters["id"] ?? ""), "q": .string(request.query["q"] ?? "")])
        }
        router.add(.post, "/echo") { request in
            var response = Response(status: 200, body: request.body)
            response.headers.add(name: "Content-Type", value: request.headers["Content-Type"] ?? "none")
            return response
        }
        router.add(.get, "/slow") { _ in
            try? await Task.sleep(for: .milliseconds(400))
            return .text("slow done")
        }
        return router
    }

    static func withServer(
        _ configuration: HTTPServer.Configuration = .init(port: 0, maxBodyBytes: 1024),
        _ body: (HTTPServer, Int) async throws -> Void
    ) async throws {
        var configuration = configuration
        configuration.logsLibraryErrors = false
        let server = HTTPServer(configuration: configuration, responder: router())
        let port = try server.start()
        do {
            try await body(server, port)
        } catch {
            await server.shutdown(deadline: .milliseconds(100))
            throw error
        }
        await server.shutdown(deadline: .milliseconds(100))
    }

    @Test("a GET gets its body, a generated request id and JSON with path and query parameters")
    func get() async throws {
        try await Self.withServer { _, port in
            let client = try RawHTTPClient(port: port)
            try client.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let health = try client.readResponse()
            #expect(health.status == 200)
            #expect(health.text == "ok")
            let id = try #require(health.header("X-Request-Id"))
            #expect(id.utf8.count == 32 && RequestID.isAcceptable(id))

            try client.write("GET /items/a%20b?q=x+y%21 HTTP/1.1\r\nHost: x\r\n\r\n")
            let item = try client.readResponse()
            #expect(item.status == 200)
            #expect(item.text == #"{"id":"a b","q":"x y!"}"#)
            #expect(item.header("Cache-Control") == "no-store")
        }
    }
}

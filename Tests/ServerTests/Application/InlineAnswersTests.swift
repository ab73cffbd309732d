import HTTP
import JSON
import TestSupport
import Testing

@testable import Endpoints
@testable import Service

/// Run to completion at the application's level: which of passkeyd's endpoints are answered on the HTTP thread
/// (`Responder.respondInline(to:)`), and that those answers are the ones `respond(to:)` gives, CORS included.
@Suite("Inline answers of the application")
struct InlineAnswersTests {
    /// Every header field of `response`, in order.
    static func fields(_ response: Response) -> [String] {
        response.headers.map { "\($0.name): \($0.value)" }
    }

    static func request(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:]) -> Request {
        var request = Request(method: method, target: target, headers: headers)
        request.remoteAddress = "127.0.0.1"
        return request
    }

    @Test("the CPU-only endpoints are answered inline, as respond(to:) answers them, CORS fields included")
    func cpuOnlyEndpoints() async throws {
        let harness = try PasskeyHarness()
        let application = Application(context: harness.context)
        // The JWKS is inline once the keys are loaded (the first request reads them).
        _ = await harness.client.get("/.well-known/jwks.json")
        let origin: HTTPHeaders = ["Origin": "https://anyone.test"]
        let preflight: HTTPHeaders = [
            "Origin": CrossOriginTests.page, "Access-Control-Request-Method": "GET",
        ]
        for request in [
            Self.request(.get, "/healthz"), Self.request(.head, "/healthz"),
            Self.request(.get, "/.well-known/openid-configuration", headers: origin),
            Self.request(.get, "/.well-known/jwks.json", headers: origin),
            Self.request(.options, "/.well-known/jwks.json", headers: preflight),
            Self.request(.get, "/.well-known/apple-app-site-association"),
            Self.request(.get, "/.well-known/assetlinks.json"),
            // The router's own answers: 405 on an inline route, 404; a preflight of an async endpoint.
            Self.request(.post, "/healthz"), Self.request(.get, "/nowhere"),
            Self.request(
                .options, "/oauth/token",
                headers: ["Origin": CrossOriginTests.page, "Access-Control-Request-Method": "POST"]),
        ] {
            let label = "\(request.method) \(request.path)"
            let inline = try #require(application.respondInline(to: request), "\(label)")
            let suspended = await application.respond(to: request)
            #expect(inline.status == suspended.status, "\(label)")
            #expect(Self.fields(inline) == Self.fields(suspended), "\(label)")
            #expect(inline.body == suspended.body, "\(label)")
            #expect(inline.route == suspended.route, "\(label)")
        }
        let jwks = try #require(
            application.respondInline(to: Self.request(.get, "/.well-known/jwks.json", headers: origin)))
        #expect(jwks.headers["Access-Control-Allow-Origin"] == "*")
        #expect(jwks.headers["Cache-Control"] == "public, max-age=60")
        let granted = try #require(
            application.respondInline(to: Self.request(.options, "/.well-known/jwks.json", headers: preflight)))
        #expect(granted.status == 204)
        #expect(granted.headers["Access-Control-Allow-Origin"] == "*")
        #expect(application.respondInline(to: Self.request(.post, "/healthz"))?.status == 405)
    }

    @Test("POST /passkey/challenge is answered inline (its session is sealed), refusals too, and its session logs in")
    func loginChallenge() async throws {
        let harness = try PasskeyHarness()
        var authenticator = Passkey()
        _ = try await harness.signUp(&authenticator)
        let application = Application(context: harness.context)
        func challenge(_ body: String) -> Response? {
            var request = Self.request(.post, "/passkey/challenge", headers: ["Content-Type": "application/json"])
            request.body = Array(body.utf8)
            return application.respondInline(to: request)
        }
        let answered = try #require(challenge(#"{"client_id":"app"}"#))
        #expect(answered.status == 200)
        #expect(answered.route == "/passkey/challenge")
        let json = try answered.jsonValue()
        let options = try #require(json["authn_params_public_key"])
        let session = try #require(json["auth_session"]?.stringValue)
        let login = await harness.token(session: session, response: try authenticator.assert(options))
        #expect(login.status == 200)
        let unknown = try #require(challenge(#"{"client_id":"nobody"}"#))
        #expect(unknown.status == 401)
        #expect(unknown.errorCode == "invalid_client")
        #expect(try #require(challenge("{")).status == 400)
    }

    @Test("endpoints that use the store are not answered inline")
    func storeEndpoints() throws {
        let harness = try PasskeyHarness()
        let application = Application(context: harness.context)
        for (method, path) in [
            (HTTPMethod.get, "/readyz"), (.post, "/oauth/token"), (.post, "/passkey/register"), (.get, "/userinfo"),
            // Before the keys are loaded, the JWKS reads them.
            (.get, "/.well-known/jwks.json"),
        ] {
            #expect(application.respondInline(to: Self.request(method, path)) == nil, "\(method) \(path)")
        }
    }

    @Test("an endpoint made with makeInline applies the per-IP rate limit and reads the body on the inline path")
    func rateLimitAndBody() throws {
        let harness = try PasskeyHarness(["PASSKEYD_RATE_LIMIT_REQUESTS_PER_MINUTE": "2"])
        var router = Router()
        router.addInline(
            .post, "/probe",
            EndpointHandler.makeInline(harness.context, rateLimited: true) { request in
                let parameters = try RequestParameters(request)
                return .json(["client_id": .string(try parameters.string("client_id"))])
            })
        func post(_ body: String) -> Response? {
            var request = Self.request(.post, "/probe", headers: ["Content-Type": "application/json"])
            request.body = Array(body.utf8)
            return router.respondInline(to: request)
        }
        let answered = try #require(post(#"{"client_id":"app"}"#))
        #expect(answered.status == 200)
        #expect(try answered.jsonValue()["client_id"] == "app")
        let malformed = try #require(post("{"))
        #expect(malformed.status == 400)
        #expect(malformed.errorCode == "invalid_request")
        let limited = try #require(post(#"{"client_id":"app"}"#))
        #expect(limited.status == 429)
        #expect(limited.errorCode == "too_many_requests")
        #expect(limited.headers["Retry-After"] != nil)
    }
}

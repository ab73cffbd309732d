import Foundation
import HTTP
import JSON
import Testing

@testable import Endpoints
@testable import Service

/// Pushed authorization requests (RFC 9126): `POST /oauth/par` checks the request as `/authorize` does and answers a
/// sealed `request_uri`; `/authorize` takes the pushed parameters, and only them, for the client that pushed them.
@Suite("Pushed authorization requests (RFC 9126)")
struct PushedAuthorizationTests {
    /// `POST /oauth/par` with `parameters` (the harness's `/authorize` parameters by default).
    static func push(
        _ harness: HostedPageHarness, _ parameters: [(String, String)] = HostedPageHarness.parameters()
    ) async -> Response {
        await harness.client.post("/oauth/par", form: parameters)
    }

    /// The `request_uri` of a successful push.
    static func requestURI(_ response: Response) throws -> String {
        #expect(response.status == 201, "\(response.bodyText)")
        let body = try response.jsonValue()
        #expect(body["expires_in"] == 90)
        #expect(response.headers["Cache-Control"] == "no-store")
        let uri = try #require(body["request_uri"]?.stringValue)
        #expect(uri.hasPrefix("urn:ietf:params:oauth:request_uri:"))
        return uri
    }

    @Test("a pushed request, then /authorize with its request_uri: the page, a sign-up, a code for the pushed state")
    func pushedFlow() async throws {
        let harness = try HostedPageHarness()
        let uri = try Self.requestURI(await Self.push(harness))
        // §4: only the pushed parameters count; the query's others (another state, a prompt) are not read.
        let authorize = await harness.authorize([
            ("client_id", "web"), ("request_uri", uri), ("state", "not-pushed"), ("prompt", "none"),
        ])
        let page = try HostedPageHarness.page(authorize)
        var passkey = Passkey()
        let response = try await harness.signUp(&passkey, page: page)
        #expect(response.status == 200, "\(response.bodyText)")
        let query = try HostedPageHarness.query(try response.jsonValue()["redirect_to"]?.stringValue)
        #expect(query["state"] == "st-1 &x")
        let tokens = await harness.redeem(try #require(query["code"]))
        #expect(tokens.status == 200, "\(tokens.bodyText)")
        let claims = try SRPHarness.claims(try #require(try tokens.jsonValue()["id_token"]?.stringValue))
        #expect(claims["nonce"] == "n-1")
    }

    @Test("/authorize refuses a request_uri that is another client's, altered, expired or missing its client_id")
    func badRequestURI() async throws {
        let harness = try HostedPageHarness()
        let uri = try Self.requestURI(await Self.push(harness))
        let otherClient = await harness.authorize([("client_id", "native"), ("request_uri", uri)])
        #expect(otherClient.status == 400)
        #expect(otherClient.bodyText.contains("another client"))
        var altered = Array(uri)
        altered[altered.count - 5] = altered[altered.count - 5] == "A" ? "B" : "A"
        let tampered = await harness.authorize([("client_id", "web"), ("request_uri", String(altered))])
        #expect(tampered.status == 400)
        let noClient = await harness.authorize([("request_uri", uri)])
        #expect(noClient.status == 400)
        let foreign = await harness.authorize([("client_id", "web"), ("request_uri", "https://evil.example/request")])
        #expect(foreign.status == 400)
        // RFC 6749 §3.1: request_uri or client_id twice is the error page, which request was meant being unknown.
        let twice = await harness.authorize([("client_id", "web"), ("request_uri", uri), ("request_uri", uri)])
        #expect(twice.status == 400)
        #expect(twice.bodyText.contains("more than one request_uri"))
        harness.base.clock.advance(91)
        let expired = await harness.authorize([("client_id", "web"), ("request_uri", uri)])
        #expect(expired.status == 400)
        #expect(expired.bodyText.contains("expired"))
    }

    @Test("the push is checked as /authorize checks: each refusal in the answer, with its error")
    func refusals() async throws {
        let harness = try HostedPageHarness()
        let cases: [([String: String?], Int, String)] = [
            (["client_id": "nobody"], 401, "invalid_client"),
            (["client_id": nil], 400, "invalid_request"),
            (["client_id": "app"], 403, "unauthorized_client"),
            (["redirect_uri": "https://evil.example.net/callback"], 400, "invalid_request"),
            (["response_type": "token"], 400, "unsupported_response_type"),
            (["code_challenge_method": "plain"], 400, "invalid_request"),
            (["scope": "openid\u{7F}"], 400, "invalid_scope"),
            (["request_uri": "urn:ietf:params:oauth:request_uri:x"], 400, "invalid_request"),
            (["audience": "https://unknown.example.com/"], 403, "access_denied"),
        ]
        for (changes, status, error) in cases {
            let response = await Self.push(harness, HostedPageHarness.parameters(changes))
            #expect(response.status == status, "\(changes): \(response.bodyText)")
            #expect(response.errorCode == error, "\(changes)")
        }
        // A request whose sealed form would not fit a URL (an unknown parameter of 9,000 bytes, kept as pushed).
        let large = await Self.push(
            harness, HostedPageHarness.parameters() + [("x_padding", String(repeating: "a", count: 9_000))])
        #expect(large.status == 400 && large.errorCode == "invalid_request", "\(large.bodyText)")
        #expect(try large.jsonValue()["error_description"]?.stringValue == "The pushed request is too large.")
        // RFC 6749 §3.1: a parameter twice; RFC 9126 §2: a form body.
        let twice = await harness.client.post(
            "/oauth/par", form: HostedPageHarness.parameters() + [("state", "again")])
        #expect(twice.status == 400)
        let json = await harness.client.post("/oauth/par", json: ["client_id": "web"])
        #expect(json.status == 400)
        #expect(try json.jsonValue()["error_description"]?.stringValue == ErrorMapping.unsupportedMediaTypeDescription)
    }

    @Test("a client with require_pushed_authorization_requests is refused at /authorize without a request_uri")
    func requiredByTheClient() async throws {
        let clients = """
            [{"client_id": "web", "grant_types": ["authorization_code"], "redirect_uris": ["\(HostedPageHarness.redirectURI)"],
              "require_pushed_authorization_requests": true},
             {"client_id": "native", "grant_types": ["authorization_code"], "redirect_uris": ["http://127.0.0.1/cb"]}]
            """
        let harness = try HostedPageHarness(["PASSKEYD_CLIENTS": clients])
        let direct = await harness.authorize()
        #expect(direct.status == 302)
        let query = try HostedPageHarness.query(direct.headers["Location"])
        #expect(query["error"] == "invalid_request")
        #expect(query["error_description"]?.contains("/oauth/par") == true)
        let uri = try Self.requestURI(await Self.push(harness))
        _ = try HostedPageHarness.page(await harness.authorize([("client_id", "web"), ("request_uri", uri)]))
    }

    @Test("a DPoP proof with the push binds the code to its key (RFC 9449 §10.1); one naming another key is refused")
    func dpopProofBindsTheCode() async throws {
        let harness = try HostedPageHarness()
        let prover = try DPoPProver()
        let url = "https://auth.example.com/oauth/par"
        let proof = try prover.proof("POST", url, now: harness.base.clock.now())
        let pushed = await harness.client.post(
            "/oauth/par", form: HostedPageHarness.parameters(), headers: ["DPoP": proof])
        let uri = try Self.requestURI(pushed)
        let page = try HostedPageHarness.page(await harness.authorize([("client_id", "web"), ("request_uri", uri)]))
        var passkey = Passkey()
        let response = try await harness.signUp(&passkey, page: page)
        let code = try #require(
            try HostedPageHarness.query(try response.jsonValue()["redirect_to"]?.stringValue)["code"])
        let stored = try await harness.context.store.read {
            try $0.authorizationCode(hash: try #require(HostedLogin.hashOfPresented(code)))
        }
        #expect(stored?.dpopThumbprint == prover.thumbprint)
        let bare = await harness.redeem(code)
        #expect(bare.status == 403 && bare.errorCode == "invalid_grant", "\(bare.bodyText)")
        // dpop_jkt naming another key than the proof's.
        let other = try DPoPProver()
        let mismatch = await harness.client.post(
            "/oauth/par", form: HostedPageHarness.parameters(["dpop_jkt": other.thumbprint]),
            headers: ["DPoP": try prover.proof("POST", url, now: harness.base.clock.now())])
        #expect(mismatch.status == 400 && mismatch.errorCode == "invalid_dpop_proof", "\(mismatch.bodyText)")
    }

    @Test("discovery names the endpoint (RFC 9126 §5)")
    func discovery() async throws {
        let harness = try HostedPageHarness()
        let body = try await harness.client.get("/.well-known/openid-configuration").jsonValue()
        #expect(body["pushed_authorization_request_endpoint"] == "https://auth.example.com/oauth/par")
        #expect(body["require_pushed_authorization_requests"] == false)
    }

    @Test("the pushed request's sealed form keeps its parameters and expiry")
    func sealedForm() throws {
        let request = PushedAuthorizationRequest(
            parameters: ["client_id": "web", "state": "a \"b\" é"], expiresAt: Date(timeIntervalSince1970: 1.5e9))
        #expect(PushedAuthorizationRequest(plaintext: request.plaintext) == request)
        let sealer = try PushedRequestSealer(secret: Array(repeating: 7, count: 32))
        let sealed = try sealer.seal(request)
        #expect(sealer.open(sealed, now: Date(timeIntervalSince1970: 1.4e9)) == request)
        #expect(sealer.open(sealed, now: Date(timeIntervalSince1970: 1.5e9)) == nil)
        // Another purpose's key does not open it (a hosted transaction's sealer under the same secret).
        let transactions = try HostedTransactionSealer(secret: Array(repeating: 7, count: 32))
        #expect(transactions.open(sealed, now: Date(timeIntervalSince1970: 1.4e9)) == nil)
    }
}

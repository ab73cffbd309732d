import Testing

@testable import Configuration
@testable import Service

/// `RedirectURIRules`: what a client may register and how `/authorize`, the code grant and logout match.
@Suite("Redirect URI rules (RFC 6749 §3.1.2, RFC 8252 §7, RFC 9700 §2.1)")
struct RedirectURIRulesTests {
    @Test(
        "registrable: https, http on loopback, reverse-domain private-use schemes",
        arguments: [
            "https://app.example.com/callback", "https://app.example.com:8443/cb?x=1", "http://127.0.0.1/cb",
            "http://127.0.0.1:8080/cb", "http://[::1]/cb", "http://localhost:3000/cb",
            "com.example.app://example.auth0.com/ios/com.example.app/callback", "com.example.app:/oauth2redirect",
        ])
    func accepted(_ uri: String) {
        #expect(RedirectURIRules.problem(with: uri) == nil)
    }

    @Test(
        "refused: plain http elsewhere, fragments, wildcards, bare schemes, relative, user information, spaces",
        arguments: [
            "http://app.example.com/cb", "https://app.example.com/cb#frag", "https://*.example.com/cb",
            "https://app.example.com/*", "myapp://callback", "/callback", "app.example.com/callback",
            "https://user:pass@app.example.com/cb", "https://app.example.com/a b", "", "https:///cb",
        ])
    func refused(_ uri: String) {
        #expect(RedirectURIRules.problem(with: uri) != nil)
    }

    @Test("matching is exact, but for the port of http on a loopback IP literal (RFC 8252 §7.3)")
    func matching() {
        let registered = [
            "https://app.example.com/cb", "http://127.0.0.1/cb", "http://[::1]:9/cb", "http://localhost/cb",
        ]
        func match(_ uri: String) -> String? { RedirectURIRules.match(uri, in: registered) }
        #expect(match("https://app.example.com/cb") == "https://app.example.com/cb")
        #expect(match("https://app.example.com/cb/") == nil)
        #expect(match("https://APP.example.com/cb") == nil)
        #expect(match("https://app.example.com:443/cb") == nil)
        #expect(match("https://app.example.com/cb?x=1") == nil)
        #expect(match("http://127.0.0.1:51004/cb") == "http://127.0.0.1/cb")
        #expect(match("http://127.0.0.1/cb") == "http://127.0.0.1/cb")
        #expect(match("http://[::1]/cb") == "http://[::1]:9/cb")
        #expect(match("http://[::1]:60000/cb") == "http://[::1]:9/cb")
        #expect(match("http://127.0.0.1:51004/other") == nil)
        #expect(match("http://127.0.0.1:51004@evil.example/cb") == nil)
        #expect(match("http://127.0.0.1.evil.example/cb") == nil)
        #expect(match("http://localhost:3000/cb") == nil, "localhost gets no port leniency")
    }
}

/// The clients' `redirect_uris` and `post_logout_redirect_uris` at load.
@Suite("Configuration: hosted-login clients")
struct HostedLoginClientConfigurationTests {
    static func clients(_ client: String) -> [String: String] { ["PASSKEYD_CLIENTS": "[\(client)]"] }

    @Test("a code client's redirect URIs are read; a client without the grant needs none")
    func read() throws {
        let configuration = try TestConfiguration.make(
            Self.clients(
                #"{"client_id": "web", "grant_types": ["authorization_code"], "redirect_uris": ["https://a.example/cb"], "post_logout_redirect_uris": ["https://a.example/"]}"#
            ))
        let client = try #require(configuration.client(id: "web"))
        #expect(
            client.redirectURIs == ["https://a.example/cb"] && client.postLogoutRedirectURIs == ["https://a.example/"])
        #expect(client.allows(.authorizationCode))
        #expect(try TestConfiguration.make().clients.allSatisfy { $0.redirectURIs.isEmpty })
        #expect(configuration.hostedLoginSessionLifetime == 604_800)
    }

    @Test(
        "refused at load: a code client without redirect URIs, a bad redirect or logout URI, PAR required of a client without the code grant, a zero session lifetime"
    )
    func refusals() {
        let refused = { (overrides: [String: String]) in APIConfigurationTests.refusedField(overrides) }
        #expect(
            refused(Self.clients(#"{"client_id": "web", "grant_types": ["authorization_code"]}"#))
                == "clients[0].redirect_uris")
        #expect(
            refused(
                Self.clients(
                    #"{"client_id": "web", "grant_types": ["authorization_code"], "redirect_uris": ["https://a.example/cb", "http://a.example/cb"]}"#
                )) == "clients[0].redirect_uris[1]")
        #expect(
            refused(
                Self.clients(
                    #"{"client_id": "web", "grant_types": ["authorization_code"], "redirect_uris": ["https://*.example/cb"]}"#
                )) == "clients[0].redirect_uris[0]")
        #expect(
            refused(
                Self.clients(
                    #"{"client_id": "web", "grant_types": ["authorization_code"], "redirect_uris": ["https://a.example/cb"], "post_logout_redirect_uris": ["https://a.example/#x"]}"#
                )) == "clients[0].post_logout_redirect_uris[0]")
        #expect(
            refused(
                Self.clients(
                    #"{"client_id": "app", "grant_types": ["refresh_token"], "require_pushed_authorization_requests": true}"#
                )) == "clients[0].require_pushed_authorization_requests")
        #expect(
            refused(["PASSKEYD_HOSTED_LOGIN_SESSION_LIFETIME_SECONDS": "0"]) == "hosted_login.session_lifetime_seconds")
    }
}

import Testing

@testable import WebAuthn

@Suite("OriginPolicy")
struct OriginPolicyTests {
    let policy = OriginPolicy(allowedOrigins: ["https://rp", "https://app.rp:8443", "android:apk-key-hash:abc_-"])

    @Test("the configured origin matches exactly")
    func exact() {
        #expect(policy.allows(origin: "https://rp"))
        #expect(policy.allows(origin: "https://app.rp:8443"))
    }

    @Test("another scheme does not match")
    func scheme() {
        #expect(!policy.allows(origin: "http://rp"))
    }

    @Test("another port does not match")
    func port() {
        #expect(!policy.allows(origin: "https://rp:8443"))
        #expect(!policy.allows(origin: "https://app.rp"))
    }

    @Test("a look-alike or sub-domain host does not match")
    func host() {
        #expect(!policy.allows(origin: "https://evil.rp"))
        #expect(!policy.allows(origin: "https://rp.evil"))
        #expect(!policy.allows(origin: "https://rprp"))
    }

    @Test("default ports are normalised in both directions")
    func defaultPorts() {
        #expect(policy.allows(origin: "https://rp:443"))
        let explicit = OriginPolicy(allowedOrigins: ["https://rp:443", "http://localhost:80"])
        #expect(explicit.allows(origin: "https://rp"))
        #expect(explicit.allows(origin: "http://localhost"))
        #expect(!explicit.allows(origin: "https://localhost"))
    }

    @Test("scheme and host compare case-insensitively")
    func caseInsensitive() {
        #expect(policy.allows(origin: "HTTPS://RP"))
    }

    @Test("a URL with a path, query or credentials is not an origin")
    func notBareOrigin() {
        #expect(!policy.allows(origin: "https://rp/"))
        #expect(!policy.allows(origin: "https://rp/login"))
        #expect(!policy.allows(origin: "https://rp?x=1"))
        #expect(!policy.allows(origin: "https://user@rp"))
    }

    @Test("opaque origins compare as exact strings")
    func opaque() {
        #expect(policy.allows(origin: "android:apk-key-hash:abc_-"))
        #expect(!policy.allows(origin: "android:apk-key-hash:ABC_-"))
        #expect(!policy.allows(origin: "android:apk-key-hash:abc_"))
    }

    @Test("top origins are judged against their own list")
    func topOrigins() {
        let framed = OriginPolicy(
            allowedOrigins: ["https://rp"], allowsCrossOrigin: true, allowedTopOrigins: ["https://shop"])
        #expect(framed.allows(topOrigin: "https://shop:443"))
        #expect(!framed.allows(topOrigin: "https://rp"))
    }
}

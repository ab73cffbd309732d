import Testing

@testable import Commands
@testable import Configuration
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Client origins")
struct ClientConfigurationTests {
    private func client(fingerprints: [String]) -> ClientConfiguration {
        ClientConfiguration(
            clientID: "app", name: "App", grantTypes: [ClientConfiguration.webAuthnGrant],
            webOrigins: ["https://web.example.com"], refreshTokens: .offlineAccess,
            ios: .init(teamID: "ABCDE12345", bundleIdentifier: "com.example.app"),
            android: .init(packageName: "com.example.app", sha256CertFingerprints: fingerprints))
    }

    @Test("Android fingerprints become apk-key-hash origins (base64url, no padding)")
    func androidOrigin() {
        let fingerprint = (0..<32).map { _ in "FA" }.joined(separator: ":")
        let origins = client(fingerprints: [fingerprint]).acceptedOrigins(rpID: "example.com", sharedWebOrigins: [])
        // 32 bytes of 0xFA in base64url without padding.
        #expect(origins.contains("android:apk-key-hash:-vr6-vr6-vr6-vr6-vr6-vr6-vr6-vr6-vr6-vr6-vo"))
        #expect(origins.contains("https://example.com"))
        #expect(origins.contains("https://web.example.com"))
        #expect(!origins.contains(where: { $0.hasSuffix("=") }))
    }

    @Test("malformed fingerprints are not turned into origins")
    func malformedFingerprint() {
        #expect(ClientConfiguration.fingerprintBytes("FA:C6") == nil)
        #expect(ClientConfiguration.fingerprintBytes((0..<32).map { _ in "ZZ" }.joined(separator: ":")) == nil)
        #expect(ClientConfiguration.fingerprintBytes((0..<32).map { _ in "0A" }.joined(separator: ":"))?.count == 32)
    }
}

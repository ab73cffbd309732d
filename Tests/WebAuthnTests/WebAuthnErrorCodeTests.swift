import SoftwareClient
import TestSupport
import Testing

@testable import WebAuthn

@Suite("WebAuthnError codes")
struct WebAuthnErrorCodeTests {
    @Test("every code's raw value is snake_case and no two codes share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: WebAuthnError.Code.self) == [])
        // The attestation formats' codes are declared with the rest (the set is closed).
        #expect(WebAuthnError.Code.tpmAAGUIDMismatch.rawValue == "tpm_aaguid_mismatch")
        #expect(WebAuthnError.Code(rawValue: "counterNotIncreased") == nil)
    }

    @Test("the TestSupport authenticators' codes follow the rule too")
    func testSupportSpelling() {
        #expect(ErrorCodeSpelling.violations(of: SoftwareClientError.Code.self) == [])
    }

    @Test("the rule: snake_case words of lower-case letters and digits")
    func rule() {
        for good in ["malformed", "rp_id_hash_mismatch", "invalid_utf8", "tpm_ecdaa_not_supported"] {
            #expect(ErrorCodeSpelling.isSnakeCase(good), "\(good)")
        }
        for bad in ["", "counterNotIncreased", "_x", "x_", "a__b", "Bad", "1abc", "with space", "kebab-case"] {
            #expect(!ErrorCodeSpelling.isSnakeCase(bad), "\(bad)")
        }
    }
}

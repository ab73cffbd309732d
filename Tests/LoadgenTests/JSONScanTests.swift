import SoftwareClient
import Testing

@testable import passkeyd_loadgen

@Suite("The load generator's JSON string quoting")
struct JSONScanQuotingTests {
    @Test("plain text is only wrapped; quotes, backslashes and control characters are escaped (RFC 8259 §7)")
    func quoting() {
        #expect(JSONScan.quoted("openid offline_access") == "\"openid offline_access\"")
        #expect(JSONScan.quoted("é") == "\"é\"")
        #expect(JSONScan.quoted("a\"b\\c\nd\u{1F}") == "\"a\\\"b\\\\c\\u000ad\\u001f\"")
    }
}

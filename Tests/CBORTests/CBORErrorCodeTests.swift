import TestSupport
import Testing

@testable import CBOR

@Suite("CBORError codes")
struct CBORErrorCodeTests {
    @Test("every code's raw value is snake_case and no two codes share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: CBORError.Code.self) == [])
    }
}

import TestSupport
import Testing

@testable import JSON

@Suite("JSONError codes")
struct JSONErrorCodeTests {
    @Test("every code's raw value is snake_case and no two codes share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: JSONError.Code.self) == [])
    }
}

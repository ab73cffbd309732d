import TestSupport
import Testing

@testable import HTTP

@Suite("HTTPError codes")
struct HTTPErrorCodeTests {
    @Test("every code's raw value is snake_case and no two codes share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: HTTPError.Code.self) == [])
    }
}

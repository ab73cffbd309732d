import TestSupport
import Testing

@testable import Tokens

@Suite("TokenError codes")
struct TokenErrorCodeTests {
    @Test("every code's raw value is snake_case and no two codes share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: TokenError.Code.self) == [])
    }
}

import TestSupport
import Testing

@testable import Crypto

@Suite("CryptoError codes")
struct CryptoErrorCodeTests {
    @Test("every code's raw value is snake_case and no two codes share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: CryptoError.Code.self) == [])
    }
}

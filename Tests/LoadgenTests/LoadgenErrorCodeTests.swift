import TestSupport
import Testing

@testable import passkeyd_loadgen

@Suite("LoadgenError codes")
struct LoadgenErrorCodeTests {
    @Test("every code's raw value is snake_case and no two codes share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: LoadgenError.Code.self) == [])
    }
}

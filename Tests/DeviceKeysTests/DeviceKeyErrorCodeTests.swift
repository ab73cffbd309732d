import TestSupport
import Testing

@testable import DeviceKeys

@Suite("DeviceKeyError codes")
struct DeviceKeyErrorCodeTests {
    @Test("every code's raw value is snake_case and no two codes share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: DeviceKeyError.Code.self) == [])
    }
}

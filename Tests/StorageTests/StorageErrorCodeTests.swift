import Testing
import TestSupport

@testable import Storage

@Suite("StorageError codes")
struct StorageErrorCodeTests {
    @Test("every code's raw value is snake_case and no two codes share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: StorageError.Code.self) == [])
    }
}

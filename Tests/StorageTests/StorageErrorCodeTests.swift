import TestSupport
import Testing

@testable import Storage

@Suite("StorageError codes")
struct StorageErrorCodeTests {
    @Test("every code's raw value is snake_case and no two codes share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: StorageError.Code.self) == [])
    }
}

@Suite("StorageError constraints")
struct StorageErrorConstraintTests {
    @Test("every constraint name is snake_case and unique (PostgreSQL's schema names its constraints after them)")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: StorageError.Constraint.self) == [])
    }
}

import Storage
import Testing

@Suite("MigrationPlan")
struct MigrationPlanTests {
    let migrations = [
        Migration(version: 1, name: "core", statements: ["CREATE TABLE a (x)"]),
        Migration(version: 2, name: "device_keys", statements: ["CREATE TABLE b (x)"]),
    ]

    @Test("a fresh database gets every migration, an old one the rest, a current one none")
    func pending() throws {
        let plan = try MigrationPlan(migrations)
        #expect(plan.latestVersion == 2)
        #expect(try plan.pending(applied: []).map(\.version) == [1, 2])
        #expect(try plan.pending(applied: [(1, "core")]).map(\.version) == [2])
        #expect(try plan.pending(applied: [(1, "core"), (2, "device_keys")]).isEmpty)
    }

    @Test("a list with a gap is refused")
    func refusesGap() {
        let gap = [migrations[0], Migration(version: 3, name: "x", statements: [])]
        #expect(throws: StorageError(.migration, "")) { try MigrationPlan(gap) }
    }

    @Test("a database newer than the binary is refused")
    func refusesNewer() throws {
        let plan = try MigrationPlan(migrations)
        #expect(throws: StorageError(.migration, "")) {
            try plan.pending(applied: [(1, "core"), (2, "device_keys"), (3, "future")])
        }
    }

    @Test("an applied version the binary does not know is refused")
    func refusesUnknownVersion() throws {
        let plan = try MigrationPlan(migrations)
        #expect(throws: StorageError(.migration, "")) { try plan.pending(applied: [(0, "zero")]) }
    }

    @Test("an applied version recorded under another name is refused")
    func refusesRenamed() throws {
        let plan = try MigrationPlan(migrations)
        #expect(throws: StorageError(.migration, "")) { try plan.pending(applied: [(1, "renamed")]) }
    }
}

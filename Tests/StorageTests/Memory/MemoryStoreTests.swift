import Storage
import TestSupport
import Testing

@Suite("MemoryStore")
struct MemoryStoreTests {
    @Test("passes the store behaviour suite", arguments: StoreConformance.checks)
    func conforms(_ check: StoreConformance.Check) async throws {
        let store = MemoryStore()
        try await check.run(on: store)
        await store.close()
    }

    @Test("the whole suite runs through the one-call entry point")
    func runsWholeSuite() async throws {
        try await StoreConformance.run { MemoryStore() }
    }
}

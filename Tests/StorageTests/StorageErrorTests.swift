import Storage
import Testing

@Suite("StorageError")
struct StorageErrorTests {
    @Test("errors compare by code only; the description names code, constraint and reason")
    func equalityAndDescription() {
        let a = StorageError.conflict(.userEmail, "one")
        let b = StorageError(.conflict, "two", constraint: .credentialID)
        #expect(a == b)
        #expect(a != StorageError(.notFound, "one"))
        #expect(a.description.contains("conflict[user_email]: one"))
        #expect(a.constraint == .userEmail)
    }
}

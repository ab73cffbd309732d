import Storage
import Testing

@Suite("SQLiteSynchronous: one value from database.synchronous to the SQLite pragma")
struct SQLiteSynchronousTests {
    @Test("the configuration's spellings (full, normal) are the values; the pragma gets FULL and NORMAL")
    func spellings() {
        #expect(SQLiteSynchronous.allCases.map(\.rawValue) == ["full", "normal"])
        #expect(SQLiteSynchronous(rawValue: "FULL") == nil)
        #expect(SQLiteSynchronous.allCases.map(\.pragmaValue) == ["FULL", "NORMAL"])
    }
}

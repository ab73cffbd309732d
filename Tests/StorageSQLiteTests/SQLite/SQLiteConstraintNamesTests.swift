import Storage
import Testing

@testable import StorageSQLite

@Suite("SQLiteConstraintNames")
struct SQLiteConstraintNamesTests {
    @Test("SQLite constraint messages map to the constraint they guard")
    func mapsMessages() {
        #expect(
            SQLiteConstraintNames.constraint(forMessage: "UNIQUE constraint failed: users.realm, users.email")
                == .userEmail)
        #expect(
            SQLiteConstraintNames.constraint(forMessage: "UNIQUE constraint failed: credentials.credential_id")
                == .credentialID)
        #expect(SQLiteConstraintNames.constraint(forMessage: "FOREIGN KEY constraint failed") == .foreignKey)
        #expect(SQLiteConstraintNames.constraint(forMessage: "UNIQUE constraint failed: other.x") == nil)
        #expect(SQLiteConstraintNames.constraint(forMessage: "CHECK constraint failed: x") == nil)
    }

    @Test("a unique violation from the schema comes back as .conflict naming the constraint")
    func funnelNamesConstraint() throws {
        let database = try SQLiteDatabase(path: ":memory:", readOnly: false, busyTimeoutMilliseconds: 0)
        try database.executeScript("CREATE TABLE signing_keys (kid TEXT PRIMARY KEY)")
        try database.execute("INSERT INTO signing_keys VALUES ('a')")
        do {
            try database.execute("INSERT INTO signing_keys VALUES ('a')")
            Issue.record("duplicate insert succeeded")
        } catch {
            #expect(error.code == .conflict)
            #expect(error.constraint == .signingKeyID)
        }
    }
}

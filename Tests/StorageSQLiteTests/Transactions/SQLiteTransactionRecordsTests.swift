import Foundation
import Storage
import Testing

@testable import StorageSQLite

/// The transports column: the compact fast path and the JSONDecoder fallback read the same values.
@Suite("SQLiteTransaction records: transports")
struct SQLiteTransactionRecordsTests {
    static let samples: [[String]] = [
        [], [""], ["internal"], ["internal", "hybrid"], ["usb", "nfc", "ble", "smart-card"], ["é", "日本"],
        ["a\"b"], ["back\\slash"], ["new\nline"], ["slash/ed"], ["tab\t"],
    ]

    @Test("every written array reads back unchanged", arguments: samples)
    func roundTrip(_ transports: [String]) throws {
        let text = try SQLiteTransaction.encodeTransports(transports)
        #expect(try SQLiteTransaction.decodeTransports(text) == transports)
    }

    @Test(
        "the fast path agrees with JSONDecoder wherever it answers",
        arguments: [
            "[]", "[\"\"]", "[\"internal\",\"hybrid\"]", "[\"é\"]", "[ ]", "[\"a\" ]", "[\"a\",]", "[\"a\"\"b\"]",
            "[\"]", "[", "]", "[1]", "[\"a\\\\b\"]", "[\"a\\/b\"]",
        ])
    func fastPathAgrees(_ text: String) throws {
        let decoded = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
        if let fast = SQLiteTransaction.simpleStringArray(text) {
            #expect(fast == decoded)
        }
        #expect((try? SQLiteTransaction.decodeTransports(text)) == decoded)
    }

    @Test("a column that is not a JSON string array is refused")
    func refusesOther() {
        #expect(throws: StorageError(.invalidRecord, "")) { try SQLiteTransaction.decodeTransports("[1]") }
        #expect(throws: StorageError(.invalidRecord, "")) { try SQLiteTransaction.decodeTransports("{}") }
    }
}

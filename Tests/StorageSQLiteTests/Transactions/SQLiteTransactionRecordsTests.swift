import Foundation
import Storage
import Testing

@testable import StorageSQLite

/// The transports column: written and read through the JSON module, as JSONDecoder would read it.
@Suite("SQLiteTransaction records: transports")
struct SQLiteTransactionRecordsTests {
    static let samples: [[String]] = [
        [], [""], ["internal"], ["internal", "hybrid"], ["usb", "nfc", "ble", "smart-card"], ["é", "日本"],
        ["a\"b"], ["back\\slash"], ["new\nline"], ["slash/ed"], ["tab\t"],
    ]

    @Test("every written array reads back unchanged", arguments: samples)
    func roundTrip(_ transports: [String]) throws {
        let text = TransportsColumn.encode(transports)
        #expect(try TransportsColumn.decode(text) == transports)
    }

    @Test(
        "the column reads what JSONDecoder reads",
        arguments: [
            "[]", "[\"\"]", "[\"internal\",\"hybrid\"]", "[\"é\"]", "[ ]", "[\"a\" ]", "[\"a\"\"b\"]",
            "[\"]", "[", "]", "[1]", "[\"a\\\\b\"]", "[\"a\\/b\"]",
        ])
    func readsAsJSONDecoder(_ text: String) throws {
        let decoded = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
        #expect((try? TransportsColumn.decode(text)) == decoded)
    }

    @Test("a column that is not a JSON string array is refused")
    func refusesOther() {
        #expect(throws: StorageError(.invalidRecord, "")) { try TransportsColumn.decode("[1]") }
        #expect(throws: StorageError(.invalidRecord, "")) { try TransportsColumn.decode("{}") }
        // RFC 8259 §5: no trailing comma (JSONDecoder reads one; the strict parser does not).
        #expect(throws: StorageError(.invalidRecord, "")) { try TransportsColumn.decode(#"["a",]"#) }
    }
}

import JSON

/// How every driver stores a credential's transports: one column holding a JSON array of strings, so any string
/// round-trips, written by the JSON module's writer and read by its parser (the one reader of JSON in passkeyd).
package enum TransportsColumn {
    /// The column text for `transports`.
    package static func encode(_ transports: [String]) -> String {
        String(decoding: JSONValue.array(transports.map(JSONValue.string)).serialized(), as: UTF8.self)
    }

    /// The transports a column holds; `.invalidRecord` for anything but a JSON array of strings.
    package static func decode(_ json: String) throws(StorageError) -> [String] {
        do {
            return try JSONValueDecoder().decode([String].self, from: try JSONValue(parsing: Array(json.utf8)))
        } catch {
            throw StorageError(.invalidRecord, "transports column is not a JSON string array: \(error)")
        }
    }
}

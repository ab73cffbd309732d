import JSON

/// How every driver stores a credential's transports: one column holding a JSON array of strings, so any string
/// round-trips, written by the JSON module's writer and read by its parser (the one reader of JSON in passkeyd).
package enum TransportsColumn {
    /// The column text for `transports`.
    package static func encode(_ transports: [String]) -> String {
        String(decoding: JSONValue.array(transports.map(JSONValue.string)).serialized(), as: UTF8.self)
    }

    /// The transports a column holds; `.invalidRecord` for anything but a JSON array of strings.
    /// Read straight off the parsed value, without `Decodable`: every login reads one of these, and the decoder's
    /// generic walk was two thirds of decoding the credential's row.
    package static func decode(_ json: String) throws(StorageError) -> [String] {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(json.utf8))
        } catch {
            throw StorageError(.invalidRecord, "transports column is not JSON: \(error)")
        }
        guard let items = value.arrayValue else {
            throw StorageError(.invalidRecord, "transports column is not a JSON array")
        }
        var transports: [String] = []
        transports.reserveCapacity(items.count)
        for item in items {
            guard let transport = item.stringValue else {
                throw StorageError(.invalidRecord, "transports column holds a value that is not a string")
            }
            transports.append(transport)
        }
        return transports
    }
}

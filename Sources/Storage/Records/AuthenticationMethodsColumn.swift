/// How every driver stores a refresh family's `amr` (RFC 8176 §2): one text column of the method values separated by
/// one space (the values are registered tokens without spaces; an empty list is the empty string); NULL for a family
/// stored before the column existed.
package enum AuthenticationMethodsColumn {
    /// The column text for `methods`, or nil to store NULL.
    package static func encode(_ methods: [String]?) -> String? {
        methods?.joined(separator: " ")
    }

    /// The methods of column `column` of `row`; nil for NULL.
    package static func decode(_ row: some RecordRow, _ column: Int32) throws(StorageError) -> [String]? {
        guard let text = try row.optionalText(column) else { return nil }
        return text.split(separator: " ").map(String.init)
    }
}

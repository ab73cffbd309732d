internal import CMicroHTTPD

/// Whether libmicrohttpd handed the access handler every byte of a request's header section: the check that refuses
/// what its parser accepts and then hides (MHD thread only, on the request's first access-handler call).
///
/// MHD 0.9.75 parses the request line and the field lines in place, in the connection's read buffer: it writes NUL
/// over each line's CR and LF and over each field's colon, and hands over pointers into that buffer (the method,
/// the version, each field's name and value with their lengths); MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE is the
/// length of the section, from the method to the end of the empty line. Three things it accepts leave no trace in
/// the fields it hands over:
/// - an obs-fold line (RFC 9112 §5.2) is appended to the previous field's *name*: `Content-Length:` folded onto
///   ` 5` becomes a field "Content-Length5" with an empty value, so the length is lost and the body is read as a
///   second request;
/// - a NUL in a field value ends the value there (MHD measures it with strlen) and the rest is dropped unseen;
/// - a bare LF ends a line as CRLF does, where a proxy in front may see no line end (RFC 9112 §2.2 lets a server
///   refuse it).
///
/// So the section is walked with the fields MHD reported, in order: after the version and its line end, each field
/// line must be exactly its name, the colon, optional whitespace, its value and a line end, and the empty line must
/// end the section. A byte left over means MHD read something it did not hand over, and the request is refused.
/// Nothing here parses HTTP: MHD parsed; the walk checks that its parse accounts for every byte it consumed.
enum ReceivedHeaderSection {
    /// Where one field's name and value lie, as MHD handed them over.
    private struct Field {
        let name: UInt
        let nameCount: Int
        let value: UInt?
        let valueCount: Int
    }

    /// MHD's default per-connection memory pool (MHD_POOL_SIZE_DEFAULT): no header section can be longer.
    static let defaultPoolBytes = 32 * 1_024

    /// Whether the section that starts at `method` (the access handler's pointer) is exactly the request line ending
    /// in `version` and the fields MHD reports, each line ended by CRLF, then the empty line. A section MHD reports as
    /// longer than `limit` (the connection's memory pool, which holds it) is refused unread.
    static func isWhole(
        connection: OpaquePointer, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>, limit: Int
    ) -> Bool {
        let size = CMicroHTTPD_request_header_size(connection)
        guard size > 0, size <= limit else { return false }
        let section = UnsafeRawBufferPointer(start: UnsafeRawPointer(method), count: size)
        let base = UInt(bitPattern: method)
        /// The offset of `address` in the section, if it lies in it.
        func offset(_ address: UInt) -> Int? {
            address >= base && address - base <= UInt(size) ? Int(address - base) : nil
        }
        /// Whether a line end (CRLF, both overwritten with NUL) lies at `index`; a bare LF left only one NUL.
        func isLineEnd(at index: Int) -> Bool {
            index + 2 <= size && section[index] == 0 && section[index + 1] == 0
        }
        guard var cursor = offset(UInt(bitPattern: version)) else { return false }
        // The version ends at the NUL MHD wrote over the request line's CR.
        while cursor < size, section[cursor] != 0 { cursor += 1 }
        guard isLineEnd(at: cursor) else { return false }
        cursor += 2
        for field in fields(of: connection) {
            guard offset(field.name) == cursor else { return false }  // a folded name was moved out of the section
            cursor += field.nameCount
            guard cursor < size, section[cursor] == 0 else { return false }  // the colon
            cursor += 1
            // RFC 9112 §5.1: OWS before the value, which MHD skips as well.
            while cursor < size, section[cursor] == UInt8(ascii: " ") || section[cursor] == UInt8(ascii: "\t") {
                cursor += 1
            }
            guard let value = field.value, offset(value) == cursor else { return false }
            cursor += field.valueCount
            guard isLineEnd(at: cursor) else { return false }  // a NUL cut the value short, or a bare LF
            cursor += 2
        }
        // RFC 9112 §2.1: the empty line ends the section.
        return isLineEnd(at: cursor) && cursor + 2 == size
    }

    /// The request's header fields, in order, as addresses and lengths.
    private static func fields(of connection: OpaquePointer) -> [Field] {
        var fields: [Field] = []
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { cls, _, key, keySize, value, valueSize in
                    guard let cls, let key else { return .YES }
                    cls.assumingMemoryBound(to: [Field].self).pointee.append(
                        Field(
                            name: UInt(bitPattern: key), nameCount: keySize,
                            value: value.map { UInt(bitPattern: $0) }, valueCount: valueSize))
                    return .YES
                }, pointer)
        }
        return fields
    }
}

/// Runs OpenSSL's `d2i_*` decoding pattern over a Swift array and reports how much was consumed,
/// so callers can refuse trailing bytes.
enum OpenSSLDecoding {
    /// Calls `decode` with a cursor at the start of `der` and its length; returns the decoded
    /// object (if any) and the number of bytes the cursor advanced.
    static func decode<Object>(
        _ der: [UInt8], _ decode: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> Object?
    ) -> (object: Object?, consumed: Int) {
        der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return (nil, 0) }
            var cursor: UnsafePointer<UInt8>? = base
            let object = decode(&cursor, buffer.count)
            let consumed = cursor.map { base.distance(to: $0) } ?? 0
            return (object, consumed)
        }
    }
}

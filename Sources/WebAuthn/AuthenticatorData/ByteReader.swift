/// The one bounds-checked reader over received bytes: every read either returns exactly the bytes
/// asked for or throws, so no parser indexes a buffer by hand.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int
    private let failure: WebAuthnError.Code

    /// Reads `bytes` from the start; short reads throw `failure`.
    init(_ bytes: [UInt8], failure: WebAuthnError.Code) {
        self.bytes = bytes
        self.offset = 0
        self.failure = failure
    }

    /// How many bytes are left.
    var remaining: Int { bytes.count - offset }

    /// The unread bytes, without consuming them.
    var rest: ArraySlice<UInt8> { bytes[offset...] }

    /// Reads `count` bytes.
    mutating func read(_ count: Int, _ what: String) throws(WebAuthnError) -> [UInt8] {
        guard count >= 0, count <= remaining else {
            throw WebAuthnError(failure, "\(what): needs \(count) bytes, \(remaining) left at offset \(offset)")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads one byte.
    mutating func readUInt8(_ what: String) throws(WebAuthnError) -> UInt8 {
        guard remaining >= 1 else { throw WebAuthnError(failure, "\(what): input ends at offset \(offset)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a big-endian 16-bit integer.
    mutating func readUInt16(_ what: String) throws(WebAuthnError) -> UInt16 {
        let pair = try read(2, what)
        return pair.reduce(0) { $0 << 8 | UInt16($1) }
    }

    /// Reads a big-endian 32-bit integer.
    mutating func readUInt32(_ what: String) throws(WebAuthnError) -> UInt32 {
        let quad = try read(4, what)
        return quad.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Moves past `count` bytes another parser has consumed.
    mutating func skip(_ count: Int, _ what: String) throws(WebAuthnError) {
        guard count >= 0, count <= remaining else {
            throw WebAuthnError(failure, "\(what): cannot skip \(count) bytes, \(remaining) left")
        }
        offset += count
    }
}

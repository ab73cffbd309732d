/// A bounds-checked, big-endian cursor over the TPM 2.0 wire structures carried by a `tpm`
/// attestation statement (`pubArea`, `certInfo`).
///
/// TPM 2.0 Part 1 §18 (marshalling): every integer is big-endian and every variable-length field
/// is a `TPM2B_…` sized buffer, `UINT16 size || size bytes`. Every read checks the remaining length
/// first and throws `code` instead of trapping, so a truncated or lying structure is a typed error.
struct TPMByteReader {
    /// The structure being read, kept whole so callers can hash the exact received bytes.
    let bytes: [UInt8]
    /// Index of the next unread byte.
    private(set) var offset: Int
    /// The error code thrown when the input ends early.
    private let code: WebAuthnError.Code
    /// Names the structure in error reasons ("pubArea", "certInfo").
    private let structure: String

    /// Starts reading `bytes` at offset 0; failures throw `code` and name `structure`.
    init(_ bytes: [UInt8], structure: String, code: WebAuthnError.Code) {
        self.bytes = bytes
        self.offset = 0
        self.code = code
        self.structure = structure
    }

    /// Bytes not yet read.
    var remainingCount: Int { bytes.count - offset }

    /// True when every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    /// Reads `count` raw bytes.
    mutating func readBytes(count: Int) throws(WebAuthnError) -> [UInt8] {
        guard count >= 0, count <= remainingCount else {
            throw WebAuthnError(
                code, "\(structure): needs \(count) bytes at offset \(offset), \(remainingCount) left"
            )
        }
        let slice = Array(bytes[offset..<(offset + count)])
        offset += count
        return slice
    }

    /// Reads one byte.
    mutating func readUInt8() throws(WebAuthnError) -> UInt8 {
        try readInteger(byteCount: 1, as: UInt8.self)
    }

    /// Reads a big-endian `UINT16`.
    mutating func readUInt16() throws(WebAuthnError) -> UInt16 {
        try readInteger(byteCount: 2, as: UInt16.self)
    }

    /// Reads a big-endian `UINT32`.
    mutating func readUInt32() throws(WebAuthnError) -> UInt32 {
        try readInteger(byteCount: 4, as: UInt32.self)
    }

    /// Reads a big-endian `UINT64`.
    mutating func readUInt64() throws(WebAuthnError) -> UInt64 {
        try readInteger(byteCount: 8, as: UInt64.self)
    }

    /// Reads a `TPM2B_…` sized buffer: `UINT16 size || size bytes` (TPM 2.0 Part 2 §10.4).
    mutating func readSizedBuffer() throws(WebAuthnError) -> [UInt8] {
        let size = try readUInt16()
        return try readBytes(count: Int(size))
    }

    /// Throws unless every byte has been consumed: trailing bytes would be unsigned by the name
    /// computation's view of the structure and are refused.
    func requireEnd() throws(WebAuthnError) {
        guard isAtEnd else {
            throw WebAuthnError(code, "\(structure): \(remainingCount) trailing bytes")
        }
    }

    private mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>(
        byteCount: Int,
        as type: T.Type
    ) throws(WebAuthnError) -> T {
        let raw = try readBytes(count: byteCount)
        return raw.reduce(T(0)) { ($0 << 8) | T($1) }
    }
}

internal import COpenSSL

/// Owner of one `BIGNUM`.
final class BigNumber {
    /// The owned `BIGNUM *`.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// A non-negative number from big-endian bytes (`BN_bin2bn`); nil only when allocation fails.
    convenience init?(bigEndian bytes: [UInt8]) {
        guard bytes.count <= Int(Int32.max) else { return nil }
        let bn = bytes.withUnsafeBufferPointer { buffer in
            BN_bin2bn(buffer.baseAddress, Int32(buffer.count), nil)
        }
        guard let bn else { return nil }
        self.init(taking: bn)
    }

    deinit { BN_clear_free(pointer) }

    /// Minimal big-endian magnitude (empty for zero).
    func bigEndianBytes() -> [UInt8] {
        Self.bigEndianBytes(of: pointer)
    }

    /// Minimal big-endian magnitude of a borrowed BIGNUM.
    static func bigEndianBytes(of bn: OpaquePointer) -> [UInt8] {
        let count = Int((BN_num_bits(bn) + 7) / 8)
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = count == 0 ? 0 : Int(BN_bn2bin(bn, buffer.baseAddress))
        }
    }

    /// Big-endian magnitude left-padded to exactly `width` bytes, or nil when it does not fit.
    static func bigEndianBytes(of bn: OpaquePointer, width: Int) -> [UInt8]? {
        guard Int((BN_num_bits(bn) + 7) / 8) <= width, width <= Int(Int32.max) else { return nil }
        var ok = true
        let bytes = [UInt8](unsafeUninitializedCapacity: width) { buffer, initialized in
            ok = BN_bn2binpad(bn, buffer.baseAddress, Int32(width)) == Int32(width)
            if !ok { buffer.initialize(repeating: 0) }
            initialized = width
        }
        return ok ? bytes : nil
    }
}

/// Runs OpenSSL's `i2d_*` two-pass encoding pattern into a Swift array.
enum OpenSSLEncoding {
    /// Calls `encode` once with a NULL output to learn the length, then once to write.
    /// Returns an empty array when OpenSSL reports a failure.
    static func encode(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8] {
        let length = Int(encode(nil))
        guard length > 0 else {
            OpenSSLErrorQueue.clear()
            return []
        }
        var ok = true
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var cursor = buffer.baseAddress
            ok = Int(encode(&cursor)) == length
            if !ok { buffer.initialize(repeating: 0) }
            initialized = length
        }
        if !ok { OpenSSLErrorQueue.clear() }
        return ok ? bytes : []
    }
}

internal import COpenSSL

/// Owner of one `ECDSA_SIG`.
final class ECDSASignatureObject {
    /// The owned `ECDSA_SIG *`.
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { ECDSA_SIG_free(pointer) }

    /// The borrowed r and s BIGNUMs (`ECDSA_SIG_get0`), nil if unset.
    var components: (r: OpaquePointer, s: OpaquePointer)? {
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(pointer, &r, &s)
        guard let r, let s else { return nil }
        return (r, s)
    }
}

/// Strict DER handling of `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` (RFC 3279 §2.2.3).
enum ECDSASignatureCodec {
    /// The longest DER signature any supported curve can produce (P-521: 3 + 2 × (3 + 67)).
    static let maximumDERLength = 160

    /// Parses `der` strictly: `d2i_ECDSA_SIG`, then re-encode with `i2d_ECDSA_SIG` and require byte
    /// equality (minimal lengths and integers, no BER, no trailing bytes), then r and s in [1, n-1].
    static func parseStrict(_ der: [UInt8], curve: EllipticCurve) -> ECDSASignatureObject? {
        guard !der.isEmpty, der.count <= maximumDERLength else { return nil }
        let (decoded, consumed) = OpenSSLDecoding.decode(der) { cursor, length in
            d2i_ECDSA_SIG(nil, cursor, length)
        }
        guard let decoded else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        let signature = ECDSASignatureObject(taking: decoded)
        guard consumed == der.count, Int(i2d_ECDSA_SIG(decoded, nil)) == der.count else { return nil }
        let canonical = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: der.count) { buffer in
            var cursor = buffer.baseAddress
            guard Int(i2d_ECDSA_SIG(decoded, &cursor)) == der.count else { return false }
            return buffer.elementsEqual(der)
        }
        // SEC 1 v2 §4.1.4 step 1: r, s ∈ [1, n-1]; this is what refuses r = s = 0 (CVE-2022-21449).
        guard canonical, let (r, s) = signature.components, let order = curve.order,
            order.contains(r), order.contains(s)
        else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return signature
    }

    /// Whether `der` is exactly what `parseStrict` accepts: the DER encoding (X.690 §10.1 minimal lengths,
    /// §8.3.2 minimal integers) of `SEQUENCE { r INTEGER, s INTEGER }` with nothing after it and r, s in
    /// [1, n-1]. Read on the bytes, without OpenSSL: the verification path runs it for every signature.
    ///
    ///     30 L  02 Lr r…  02 Ls s…      (L, Lr, Ls one byte below 0x80, or 81 xx with xx ≥ 0x80 for L)
    static func isStrictDER(_ der: [UInt8], curve: EllipticCurve) -> Bool {
        guard !der.isEmpty, der.count <= maximumDERLength, let order = curve.order else { return false }
        guard der.count >= 2, der[0] == sequenceTag else { return false }
        var offset: Int
        let length: Int
        if der[1] < 0x80 {
            length = Int(der[1])
            offset = 2
        } else if der[1] == 0x81, der.count >= 3, der[2] >= 0x80 {
            // X.690 §10.1: the long form only when the short form cannot hold the length.
            length = Int(der[2])
            offset = 3
        } else {
            return false  // longer length forms are never minimal below maximumDERLength
        }
        guard offset + length == der.count else { return false }
        guard let r = integer(der, at: &offset), let s = integer(der, at: &offset), offset == der.count else {
            return false
        }
        // SEC 1 v2 §4.1.4 step 1: r, s ∈ [1, n-1]; this is what refuses r = s = 0 (CVE-2022-21449).
        return order.contains(magnitude: r) && order.contains(magnitude: s)
    }

    /// X.690 §8.1.2.2 / §8.3: the universal tags of SEQUENCE (constructed) and INTEGER.
    private static let sequenceTag: UInt8 = 0x30
    private static let integerTag: UInt8 = 0x02

    /// Reads one minimal, non-negative DER INTEGER at `offset`; returns its magnitude without the sign byte.
    private static func integer(_ der: [UInt8], at offset: inout Int) -> ArraySlice<UInt8>? {
        guard der.count - offset >= 2, der[offset] == integerTag, der[offset + 1] < 0x80 else { return nil }
        let length = Int(der[offset + 1])
        let start = offset + 2
        guard length >= 1, der.count - start >= length else { return nil }
        let content = der[start..<(start + length)]
        offset = start + length
        let first = content[start]
        guard first & 0x80 == 0 else { return nil }  // negative: outside [1, n-1]
        if first == 0 {
            // X.690 §8.3.2: a leading zero octet only when the next octet's top bit is set.
            guard length >= 2, content[start + 1] & 0x80 != 0 else { return nil }
            return content.dropFirst()
        }
        return content
    }

    /// Fixed-width `r || s` from a strict DER signature.
    static func raw(fromDER der: [UInt8], curve: EllipticCurve) throws(CryptoError) -> [UInt8] {
        guard let signature = parseStrict(der, curve: curve), let (r, s) = signature.components,
            let rBytes = BigNumber.bigEndianBytes(of: r, width: curve.coordinateByteCount),
            let sBytes = BigNumber.bigEndianBytes(of: s, width: curve.coordinateByteCount)
        else {
            throw CryptoError(.invalidSignature, "not a strict DER ECDSA signature for \(curve)")
        }
        return rBytes + sBytes
    }

    /// Strict DER from fixed-width `r || s` (RFC 7518 §3.4: each half is exactly the curve's width).
    static func der(fromRaw raw: [UInt8], curve: EllipticCurve) throws(CryptoError) -> [UInt8] {
        let width = curve.coordinateByteCount
        guard raw.count == 2 * width else {
            throw CryptoError(.invalidSignature, "raw ECDSA signature is \(raw.count) bytes, expected \(2 * width)")
        }
        guard let r = BigNumber(bigEndian: Array(raw[0..<width])),
            let s = BigNumber(bigEndian: Array(raw[width..<(2 * width)]))
        else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "BN_bin2bn")
        }
        guard let order = curve.order, order.contains(r.pointer), order.contains(s.pointer) else {
            throw CryptoError(.invalidSignature, "ECDSA r or s is outside [1, n-1]")
        }
        guard let signature = ECDSA_SIG_new() else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "ECDSA_SIG_new")
        }
        let owner = ECDSASignatureObject(taking: signature)
        // ECDSA_SIG_set0 takes ownership of the BIGNUMs it is given, so hand it copies.
        guard let rCopy = BN_dup(r.pointer) else { throw OpenSSLErrorQueue.failure(.internalFailure, "BN_dup") }
        guard let sCopy = BN_dup(s.pointer) else {
            BN_free(rCopy)
            throw OpenSSLErrorQueue.failure(.internalFailure, "BN_dup")
        }
        guard ECDSA_SIG_set0(owner.pointer, rCopy, sCopy) == 1 else {
            BN_free(rCopy)
            BN_free(sCopy)
            throw OpenSSLErrorQueue.failure(.internalFailure, "ECDSA_SIG_set0")
        }
        let der = OpenSSLEncoding.encode { out in i2d_ECDSA_SIG(owner.pointer, out) }
        guard !der.isEmpty else { throw CryptoError(.internalFailure, "i2d_ECDSA_SIG failed") }
        return der
    }
}

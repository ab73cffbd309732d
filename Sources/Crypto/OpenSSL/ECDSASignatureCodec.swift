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
    var components: (r: OpaquePointer, s: OpaquePointer)? { Self.components(of: pointer) }

    /// The borrowed r and s BIGNUMs of the `ECDSA_SIG` at `signature`, nil if unset.
    static func components(of signature: OpaquePointer) -> (r: OpaquePointer, s: OpaquePointer)? {
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        guard let r, let s else { return nil }
        return (r, s)
    }
}

/// Strict DER handling of `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` (RFC 3279 §2.2.3).
enum ECDSASignatureCodec {
    /// The longest DER signature any supported curve can produce (P-521: 3 + 2 × (3 + 67)).
    static let maximumDERLength = 160

    /// Runs `body` on `der` decoded strictly (as `parseStrict` decodes it), the `ECDSA_SIG` freed afterwards;
    /// `nil` without calling `body` when `der` is not a strict signature for `curve`. No Swift object is made
    /// for the signature, which a verification only borrows.
    static func withStrict<Answer>(
        _ der: [UInt8], curve: EllipticCurve, _ body: (OpaquePointer) -> Answer
    ) -> Answer? {
        guard let decoded = decodeStrict(der, curve: curve) else { return nil }
        defer { ECDSA_SIG_free(decoded) }
        return body(decoded)
    }

    /// Parses `der` strictly: it must be exactly the DER encoding (`i2d_ECDSA_SIG`) of the r and s that
    /// `d2i_ECDSA_SIG` decodes from it, byte for byte, and r and s must lie in [1, n-1].
    ///
    /// DER gives every value one encoding (X.690 §10.1 shortest lengths, §8.3.2 shortest integers), so comparing
    /// the input with the re-encoding refuses every other spelling of the same signature — a long-form or
    /// indefinite length, a padded integer, trailing bytes — whatever the decoder itself lets through; the
    /// Wycheproof ECDSA vectors (`ECPublicKeyTests`) hold these variants.
    static func parseStrict(_ der: [UInt8], curve: EllipticCurve) -> ECDSASignatureObject? {
        decodeStrict(der, curve: curve).map { ECDSASignatureObject(taking: $0) }
    }

    /// The strict decoding behind `parseStrict` and `withStrict`: an owned `ECDSA_SIG *`, or `nil` (nothing
    /// left to free) when `der` is not a strict signature for `curve`.
    private static func decodeStrict(_ der: [UInt8], curve: EllipticCurve) -> OpaquePointer? {
        guard !der.isEmpty, der.count <= maximumDERLength else { return nil }
        let (decoded, consumed) = OpenSSLDecoding.decode(der) { cursor, length in
            d2i_ECDSA_SIG(nil, cursor, length)
        }
        guard let decoded else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        // RFC 3279 §2.2.3 / X.690 §10: strict DER — all of the input, and byte for byte OpenSSL's DER encoding of
        // the values it decoded.
        guard consumed == der.count, OpenSSLEncoding.encode({ out in i2d_ECDSA_SIG(decoded, out) }) == der else {
            ECDSA_SIG_free(decoded)
            return nil
        }
        // SEC 1 v2 §4.1.4 step 1: r, s ∈ [1, n-1]; this is what refuses r = s = 0 (CVE-2022-21449).
        guard let (r, s) = ECDSASignatureObject.components(of: decoded), let order = curve.order, order.contains(r),
            order.contains(s)
        else {
            OpenSSLErrorQueue.clear()
            ECDSA_SIG_free(decoded)
            return nil
        }
        return decoded
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

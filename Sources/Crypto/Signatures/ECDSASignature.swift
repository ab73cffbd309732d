/// Conversions between the two ECDSA signature encodings: DER `ECDSA-Sig-Value` (X.509, WebAuthn,
/// RFC 3279 §2.2.3) and fixed-width `r || s` (JOSE, RFC 7518 §3.4).
public enum ECDSASignature {
    /// `r || s`, each left-padded to `curve.coordinateByteCount`, from a strict DER signature.
    /// - Throws: `.invalidSignature` unless the input is strict DER with r and s in [1, n-1].
    public static func rawRepresentation(fromDER der: [UInt8], curve: EllipticCurve) throws(CryptoError) -> [UInt8] {
        try ECDSASignatureCodec.raw(fromDER: der, curve: curve)
    }

    /// Minimal DER from `r || s`.
    /// - Throws: `.invalidSignature` unless the input is exactly twice the curve's width with r and s in [1, n-1].
    public static func derRepresentation(fromRaw raw: [UInt8], curve: EllipticCurve) throws(CryptoError) -> [UInt8] {
        try ECDSASignatureCodec.der(fromRaw: raw, curve: curve)
    }
}

internal import COpenSSL

/// Owner of one `EVP_PKEY`. Built once per key value and cached inside it, so verification never
/// rebuilds the key.
final class EVPKey: @unchecked Sendable {  // immutable; OpenSSL 3 allows concurrent read-only EVP_PKEY use
    /// The owned `EVP_PKEY *`.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The key's kind as OpenSSL sees it.
    enum Kind {
        case ec, ed25519, ed448, rsa, other
    }

    /// The key's kind (`EVP_PKEY_get_base_id`).
    var kind: Kind {
        switch EVP_PKEY_get_base_id(pointer) {
        case EVP_PKEY_EC: .ec
        case EVP_PKEY_ED25519: .ed25519
        case EVP_PKEY_ED448: .ed448
        case EVP_PKEY_RSA: .rsa
        default: .other
        }
    }

    // MARK: building keys from parameters (OSSL_PARAM_BLD + EVP_PKEY_fromdata)

    /// An EC public key built through `EVP_PKEY_fromdata` (a fresh group each time: slow, used once per
    /// curve to make `ECGroup`'s parameter template), then checked with `EVP_PKEY_public_check_quick`.
    static func ecPublicKeyFromData(curve: EllipticCurve, point: [UInt8]) throws(CryptoError) -> EVPKey {
        let key = try fromData(type: "EC", what: "EC public key") { builder in
            point.withUnsafeBytes { raw in
                OSSL_PARAM_BLD_push_utf8_string(builder, CStringText.of("group"), CStringText.of(curve.groupName), 0)
                    == 1
                    && OSSL_PARAM_BLD_push_octet_string(builder, CStringText.of("pub"), raw.baseAddress, raw.count)
                        == 1
                    ? OSSL_PARAM_BLD_to_param(builder) : nil
            }
        }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_CTX_new_from_pkey")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check_quick(context) == 1 else {
            throw OpenSSLErrorQueue.failure(.invalidKey, "EC point is not a valid public key on \(curve)")
        }
        return key
    }

    /// An RSA public key from big-endian modulus and exponent bytes.
    static func rsaPublicKey(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) -> EVPKey {
        guard let n = BigNumber(bigEndian: modulus), let e = BigNumber(bigEndian: exponent) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "BN_bin2bn")
        }
        return try fromData(type: "RSA", what: "RSA public key") { builder in
            OSSL_PARAM_BLD_push_BN(builder, CStringText.of("n"), n.pointer) == 1
                && OSSL_PARAM_BLD_push_BN(builder, CStringText.of("e"), e.pointer) == 1
                ? OSSL_PARAM_BLD_to_param(builder) : nil
        }
    }

    /// Runs `EVP_PKEY_fromdata` for a public key of `type` with the parameters `build` produces.
    private static func fromData(
        type: StaticString, what: String,
        build: (OpaquePointer) -> UnsafeMutablePointer<OSSL_PARAM>?
    ) throws(CryptoError) -> EVPKey {
        guard let builder = OSSL_PARAM_BLD_new() else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "OSSL_PARAM_BLD_new")
        }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard let params = build(builder) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "building the \(what) parameters")
        }
        defer { OSSL_PARAM_free(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, CStringText.of(type), nil) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &pkey, COpenSSL_selection_public_key(), params) == 1,
            let pkey
        else {
            throw OpenSSLErrorQueue.failure(.invalidKey, "EVP_PKEY_fromdata rejected the \(what)")
        }
        return EVPKey(taking: pkey)
    }

    /// An Ed25519 public key from its 32 raw bytes (RFC 8032 §5.1.5).
    static func ed25519PublicKey(raw: [UInt8]) throws(CryptoError) -> EVPKey {
        try rawPublicKey(EVP_PKEY_ED25519, raw)
    }

    /// An Ed448 public key from its 57 raw bytes (RFC 8032 §5.2.5).
    static func ed448PublicKey(raw: [UInt8]) throws(CryptoError) -> EVPKey {
        try rawPublicKey(EVP_PKEY_ED448, raw)
    }

    /// A public key of `type` from its raw encoding (`EVP_PKEY_new_raw_public_key`).
    private static func rawPublicKey(_ type: Int32, _ raw: [UInt8]) throws(CryptoError) -> EVPKey {
        let pkey = raw.withUnsafeBufferPointer { buffer in
            EVP_PKEY_new_raw_public_key(type, nil, buffer.baseAddress, buffer.count)
        }
        guard let pkey else { throw OpenSSLErrorQueue.failure(.invalidKey, "EVP_PKEY_new_raw_public_key") }
        return EVPKey(taking: pkey)
    }

    // MARK: DER (SubjectPublicKeyInfo)

    /// A public key from a DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7); the whole input must be consumed.
    static func fromSubjectPublicKeyInfo(_ der: [UInt8]) throws(CryptoError) -> EVPKey {
        guard !der.isEmpty, der.count <= Int(Int32.max) else {
            throw CryptoError(.invalidKey, "SubjectPublicKeyInfo length \(der.count) is out of range")
        }
        let (pkey, consumed) = OpenSSLDecoding.decode(der) { cursor, length in d2i_PUBKEY(nil, cursor, length) }
        guard let pkey else { throw OpenSSLErrorQueue.failure(.invalidKey, "d2i_PUBKEY") }
        let key = EVPKey(taking: pkey)
        guard consumed == der.count else {
            throw CryptoError(.invalidKey, "SubjectPublicKeyInfo has \(der.count - consumed) trailing bytes")
        }
        return key
    }

    /// The key as DER SubjectPublicKeyInfo (`i2d_PUBKEY`).
    func subjectPublicKeyInfo() -> [UInt8] {
        OpenSSLEncoding.encode { out in i2d_PUBKEY(pointer, out) }
    }

    // MARK: reading parameters

    /// An octet-string parameter such as "pub" (EC point) or raw key bytes.
    func octetStringParameter(_ name: StaticString) -> [UInt8]? {
        var length = 0
        guard EVP_PKEY_get_octet_string_param(pointer, CStringText.of(name), nil, 0, &length) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        var ok = false
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var written = 0
            ok =
                EVP_PKEY_get_octet_string_param(pointer, CStringText.of(name), buffer.baseAddress, length, &written)
                == 1 && written <= length
            if !ok { buffer.initialize(repeating: 0) }
            initialized = ok ? written : length
        }
        guard ok else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return bytes
    }

    /// A UTF-8 string parameter such as "group".
    func utf8StringParameter(_ name: StaticString) -> String? {
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_utf8_string_param(pointer, CStringText.of(name), &buffer, buffer.count, &length) == 1
        else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return CStringText.decode(buffer)
    }

    /// A big-number parameter such as "n" or "e", as minimal big-endian bytes.
    func bigNumberParameter(_ name: StaticString) -> [UInt8]? {
        var bn: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pointer, CStringText.of(name), &bn) == 1, let bn else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return BigNumber(taking: bn).bigEndianBytes()
    }

    /// The raw public key bytes (Ed25519).
    func rawPublicKey() -> [UInt8]? {
        var length = 0
        guard EVP_PKEY_get_raw_public_key(pointer, nil, &length) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        var ok = false
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var written = length
            ok = EVP_PKEY_get_raw_public_key(pointer, buffer.baseAddress, &written) == 1 && written == length
            if !ok { buffer.initialize(repeating: 0) }
            initialized = length
        }
        guard ok else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return bytes
    }
}

internal import COpenSSL

extension EVPKey {
    // MARK: key generation

    /// A new P-256 key pair (`EVP_PKEY_keygen` with group "P-256").
    static func generateP256() throws(CryptoError) -> EVPKey {
        try generate(type: "EC") { EVP_PKEY_CTX_set_group_name($0, CStringText.of("P-256")) == 1 }
    }

    /// A new Ed25519 key pair.
    static func generateEd25519() throws(CryptoError) -> EVPKey {
        try generate(type: "ED25519") { _ in true }
    }

    /// A new RSA key pair of `bits` bits (public exponent 65537, OpenSSL's default).
    static func generateRSA(bits: Int) throws(CryptoError) -> EVPKey {
        try generate(type: "RSA") { EVP_PKEY_CTX_set_rsa_keygen_bits($0, Int32(bits)) == 1 }
    }

    private static func generate(type: StaticString, configure: (OpaquePointer) -> Bool) throws(CryptoError)
        -> EVPKey
    {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, CStringText.of(type), nil) else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_PKEY_CTX_new_from_name(\(type))")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, configure(context), EVP_PKEY_generate(context, &pkey) == 1,
            let pkey
        else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "generating a \(type) key")
        }
        return EVPKey(taking: pkey)
    }

    // MARK: private key import / export

    /// An Ed25519 private key from its 32-byte seed (RFC 8032 §5.1.5).
    static func ed25519PrivateKey(raw: [UInt8]) throws(CryptoError) -> EVPKey {
        let pkey = raw.withUnsafeBufferPointer { buffer in
            EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, buffer.baseAddress, buffer.count)
        }
        guard let pkey else { throw OpenSSLErrorQueue.failure(.invalidKey, "EVP_PKEY_new_raw_private_key") }
        return EVPKey(taking: pkey)
    }

    /// The raw private key bytes (Ed25519 seed).
    func rawPrivateKey() -> [UInt8]? {
        var length = 0
        guard EVP_PKEY_get_raw_private_key(pointer, nil, &length) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        var ok = false
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var written = length
            ok = EVP_PKEY_get_raw_private_key(pointer, buffer.baseAddress, &written) == 1 && written == length
            if !ok { buffer.initialize(repeating: 0) }
            initialized = length
        }
        if !ok { OpenSSLErrorQueue.clear() }
        return ok ? bytes : nil
    }

    /// A private key from DER PKCS#8 PrivateKeyInfo (RFC 5208 §5); the whole input must be consumed.
    static func fromPKCS8(_ der: [UInt8]) throws(CryptoError) -> EVPKey {
        guard !der.isEmpty else { throw CryptoError(.invalidKey, "empty PKCS#8 input") }
        let (info, consumed) = OpenSSLDecoding.decode(der) { cursor, length in
            d2i_PKCS8_PRIV_KEY_INFO(nil, cursor, length)
        }
        guard let info else { throw OpenSSLErrorQueue.failure(.invalidKey, "d2i_PKCS8_PRIV_KEY_INFO") }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        guard consumed == der.count else {
            throw CryptoError(.invalidKey, "PKCS#8 input has \(der.count - consumed) trailing bytes")
        }
        guard let pkey = EVP_PKCS82PKEY(info) else {
            throw OpenSSLErrorQueue.failure(.invalidKey, "EVP_PKCS82PKEY")
        }
        return EVPKey(taking: pkey)
    }

    /// The private key as DER PKCS#8 PrivateKeyInfo.
    func pkcs8() -> [UInt8] {
        guard let info = EVP_PKEY2PKCS8(pointer) else {
            OpenSSLErrorQueue.clear()
            return []
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        return OpenSSLEncoding.encode { out in i2d_PKCS8_PRIV_KEY_INFO(info, out) }
    }

    // MARK: signing

    /// One-shot `EVP_DigestSign` (DER for ECDSA, 64 bytes for Ed25519, k bytes for RSA).
    func digestSign(
        message: [UInt8], method: MessageDigestMethod?, configure: (OpaquePointer) -> Bool = { _ in true }
    ) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_MD_CTX_new")
        }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, method?.pointer, nil, pointer) == 1,
            let keyContext, configure(keyContext)
        else {
            throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_DigestSignInit")
        }
        var ok = false
        let signature = NonNullBytes.with(message) { messageBytes, messageLength -> [UInt8] in
            var capacity = 0
            guard EVP_DigestSign(context, nil, &capacity, messageBytes, messageLength) == 1 else { return [] }
            var output = [UInt8](repeating: 0, count: capacity)
            var written = capacity
            ok = output.withUnsafeMutableBufferPointer { buffer in
                EVP_DigestSign(context, buffer.baseAddress, &written, messageBytes, messageLength) == 1
            }
            return Array(output.prefix(min(written, capacity)))
        }
        guard ok else { throw OpenSSLErrorQueue.failure(.internalFailure, "EVP_DigestSign") }
        return signature
    }
}

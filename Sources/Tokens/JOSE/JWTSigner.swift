import Crypto

/// Signs JWTs as compact JWS (RFC 7515 §7.1) with ES256 (RFC 7518 §3.4) or RS256 (RFC 7518 §3.3).
public struct JWTSigner: Sendable {
    /// The private key and the algorithm it signs with.
    enum Material: Sendable {
        case es256(P256SigningKey)
        case rs256(RSASigningKey)
    }

    let material: Material
    /// The key's `kid`, as published in the JWKS.
    public let keyID: String

    /// An ES256 signer for one P-256 key.
    public init(key: P256SigningKey, keyID: String) {
        self.material = .es256(key)
        self.keyID = keyID
    }

    /// An RS256 signer for one RSA key.
    /// - Throws: `.unusableKey` for a modulus under 2048 bits (RFC 7518 §3.3: "2048 bits or larger MUST be used").
    public init(rsaKey: RSASigningKey, keyID: String) throws(TokenError) {
        try Self.checkRSAKeySize(rsaKey.publicKey)
        self.material = .rs256(rsaKey)
        self.keyID = keyID
    }

    /// RFC 7518 §3.3: the smallest RSA modulus that signs RS256.
    public static let minimumRSABits = 2048

    /// RFC 7518 §3.3 (and §3.5 for PS256): "A key of size 2048 bits or larger MUST be used with these algorithms":
    /// the one check of an RSA key's size, for the keys passkeyd signs with, publishes and verifies clients' with.
    /// Counted in bits of the modulus, so a 2047-bit modulus (256 bytes, top bit clear) is refused.
    /// - Throws: `.unusableKey`.
    static func checkRSAKeySize(_ key: RSAPublicKey) throws(TokenError) {
        guard key.modulusBits >= minimumRSABits else {
            throw TokenError(
                .unusableKey, "the RSA key has \(key.modulusBits) bits; at least \(minimumRSABits) are needed")
        }
    }

    /// The `alg` of the tokens this signer writes.
    public var algorithm: String {
        switch material {
        case .es256: JWSHeader.es256
        case .rs256: JWSHeader.rs256
        }
    }

    /// Signs a claims set with its own `typ`.
    public func sign(_ claims: some JWTClaims) throws(TokenError) -> String {
        try sign(payload: try claims.payload(), type: type(of: claims).type)
    }

    /// Signs an arbitrary JSON payload: `BASE64URL(header) "." BASE64URL(payload) "." BASE64URL(signature)`.
    public func sign(payload: [UInt8], type: String) throws(TokenError) -> String {
        let header = JWSHeader(algorithm: algorithm, keyID: keyID, type: type)
        // RFC 7515 §5.1 step 8: the signing input is ASCII(BASE64URL(header) "." BASE64URL(payload)).
        let signingInput = Base64URL.encode(header.bytes()) + "." + Base64URL.encode(payload)
        do {
            switch material {
            case .es256(let key):
                let der = try key.signature(for: Array(signingInput.utf8))
                // RFC 7518 §3.4: the JWS signature is R and S as 32-byte big-endian integers, concatenated.
                let raw = try ECDSASignature.rawRepresentation(fromDER: der, curve: .p256)
                return signingInput + "." + Base64URL.encode(raw)
            case .rs256(let key):
                // RFC 7518 §3.3: RSASSA-PKCS1-v1_5 with SHA-256; the signature is used as is.
                let signature = try key.signature(for: Array(signingInput.utf8), hash: .sha256, padding: .pkcs1v15)
                return signingInput + "." + Base64URL.encode(signature)
            }
        } catch {
            throw TokenError(.signingFailed, "\(algorithm) signing failed: \(error.reason)")
        }
    }
}

import Crypto

/// Signs JWTs as compact JWS with ES256 (RFC 7515 §7.1, RFC 7518 §3.4).
public struct JWTSigner: Sendable {
    /// The P-256 signing key.
    public let key: P256SigningKey
    /// The key's `kid`, as published in the JWKS.
    public let keyID: String

    /// A signer for one key.
    public init(key: P256SigningKey, keyID: String) {
        self.key = key
        self.keyID = keyID
    }

    /// Signs a claims set with its own `typ`.
    public func sign(_ claims: some JWTClaims) throws(TokenError) -> String {
        try sign(payload: try claims.payload(), type: type(of: claims).type)
    }

    /// Signs an arbitrary JSON payload: `BASE64URL(header) "." BASE64URL(payload) "." BASE64URL(r‖s)`.
    public func sign(payload: [UInt8], type: String) throws(TokenError) -> String {
        let header = JWSHeader(algorithm: JWSHeader.es256, keyID: keyID, type: type)
        // RFC 7515 §5.1 step 8: the signing input is ASCII(BASE64URL(header) "." BASE64URL(payload)).
        let signingInput = Base64URL.encode(header.bytes()) + "." + Base64URL.encode(payload)
        do {
            let der = try key.signature(for: Array(signingInput.utf8))
            // RFC 7518 §3.4: the JWS signature is R and S as 32-byte big-endian integers, concatenated.
            let raw = try ECDSASignature.rawRepresentation(fromDER: der, curve: .p256)
            return signingInput + "." + Base64URL.encode(raw)
        } catch {
            throw TokenError(.signingFailed, "ES256 signing failed: \(error.reason)")
        }
    }
}

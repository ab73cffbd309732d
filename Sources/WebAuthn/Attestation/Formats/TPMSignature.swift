import Crypto

/// Verifies an attestation signature made with a certificate's key under a COSE algorithm, as the
/// `tpm` and `android-key` formats require ("using the public key in … with the algorithm specified in alg").
enum TPMSignature {
    /// The digest a COSE signature algorithm uses; nil for EdDSA, which hashes internally.
    static func hashAlgorithm(for algorithm: COSEAlgorithm) -> HashAlgorithm? {
        switch algorithm {
        case .rs1: .sha1
        case .es256, .ps256, .rs256: .sha256
        case .es384, .ps384, .rs384: .sha384
        case .es512, .ps512, .rs512: .sha512
        case .edDSA: nil
        }
    }

    /// True when `signature` verifies over `message` with `certificate`'s key under `algorithm`
    /// (RFC 9053 §2.1 ECDSA with DER signatures as WebAuthn carries them; RFC 8230 RSASSA-PKCS1-v1_5 /
    /// RSASSA-PSS; RFC 8032 Ed25519). A key of the wrong type for `algorithm` never verifies.
    static func isValid(
        _ signature: [UInt8],
        over message: [UInt8],
        by certificate: Certificate,
        algorithm: COSEAlgorithm
    ) -> Bool {
        guard let key = try? certificate.publicKey() else { return false }
        return isValid(signature, over: message, by: key, algorithm: algorithm)
    }

    /// True when `signature` verifies over `message` with `key` under `algorithm`.
    static func isValid(
        _ signature: [UInt8],
        over message: [UInt8],
        by key: PublicKey,
        algorithm: COSEAlgorithm
    ) -> Bool {
        switch (algorithm, key) {
        case (.edDSA, .ed25519(let ed25519)):
            return ed25519.isValidSignature(signature, for: message)
        case (.es256, .ec(let ec)), (.es384, .ec(let ec)), (.es512, .ec(let ec)):
            guard let hash = hashAlgorithm(for: algorithm) else { return false }
            return ec.isValidSignature(signature, for: message, hash: hash)
        case (.rs1, .rsa(let rsa)), (.rs256, .rsa(let rsa)), (.rs384, .rsa(let rsa)), (.rs512, .rsa(let rsa)):
            guard let hash = hashAlgorithm(for: algorithm) else { return false }
            return rsa.isValidSignature(signature, for: message, hash: hash, padding: .pkcs1v15)
        case (.ps256, .rsa(let rsa)), (.ps384, .rsa(let rsa)), (.ps512, .rsa(let rsa)):
            guard let hash = hashAlgorithm(for: algorithm) else { return false }
            return rsa.isValidSignature(signature, for: message, hash: hash, padding: .pss)
        default:
            return false
        }
    }
}

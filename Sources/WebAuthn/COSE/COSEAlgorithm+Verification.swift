import Crypto

extension COSEAlgorithm {
    /// Verifies `signature` over `message` with `key` under this algorithm, refusing a key of another
    /// kind (RFC 9053 §2: ES*/ESP* use ECDSA on the algorithm's curve with DER signatures in WebAuthn L3
    /// §6.5.6; EdDSA, Ed25519 and Ed448 are PureEdDSA; RS* are RSASSA-PKCS1-v1_5 and PS* RSASSA-PSS,
    /// RFC 8230 §2 and RFC 8812 §2).
    func isValidSignature(_ signature: [UInt8], for message: [UInt8], with key: PublicKey) -> Bool {
        switch (self, key) {
        case (.es256, .ec(let ec)), (.esp256, .ec(let ec)), (.es384, .ec(let ec)), (.esp384, .ec(let ec)),
            (.es512, .ec(let ec)), (.esp512, .ec(let ec)):
            guard ec.curve == ellipticCurve, let hash = hashAlgorithm else { return false }
            return ec.isValidSignature(signature, for: message, hash: hash)
        case (.edDSA, .ed25519(let ed)), (.ed25519, .ed25519(let ed)):
            return ed.isValidSignature(signature, for: message)
        case (.ed448, .ed448(let ed)):
            return ed.isValidSignature(signature, for: message)
        case (.rs256, .rsa(let rsa)), (.rs384, .rsa(let rsa)), (.rs512, .rsa(let rsa)), (.rs1, .rsa(let rsa)):
            guard let hash = hashAlgorithm else { return false }
            return rsa.isValidSignature(signature, for: message, hash: hash, padding: .pkcs1v15)
        case (.ps256, .rsa(let rsa)), (.ps384, .rsa(let rsa)), (.ps512, .rsa(let rsa)):
            guard let hash = hashAlgorithm else { return false }
            return rsa.isValidSignature(signature, for: message, hash: hash, padding: .pss)
        default:
            return false
        }
    }
}

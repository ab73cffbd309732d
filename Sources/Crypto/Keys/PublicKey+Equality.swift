// Used by the `apple` (WebAuthn L3 §8.8.2 step 5) and `android-key` (§8.4.2 step 3) formats, which both
// require the certificate's subject public key to equal the credential public key, and by device-key platform
// attestation (the attested key must be the enrolled key).
extension PublicKey {
    /// True when both keys are the same mathematical key: same type, same curve and point, same
    /// modulus and exponent (leading zero bytes ignored), or same Ed25519 or Ed448 bytes. Encoding
    /// differences of the certificate's SubjectPublicKeyInfo do not matter.
    public func isSameKey(as other: PublicKey) -> Bool {
        switch (self, other) {
        case (.ec(let lhs), .ec(let rhs)):
            return lhs.curve == rhs.curve && lhs.x963Representation == rhs.x963Representation
        case (.rsa(let lhs), .rsa(let rhs)):
            return lhs.modulus.drop { $0 == 0 } == rhs.modulus.drop { $0 == 0 }
                && lhs.exponent.drop { $0 == 0 } == rhs.exponent.drop { $0 == 0 }
        case (.ed25519(let lhs), .ed25519(let rhs)):
            return lhs.rawRepresentation == rhs.rawRepresentation
        case (.ed448(let lhs), .ed448(let rhs)):
            return lhs.rawRepresentation == rhs.rawRepresentation
        default:
            return false
        }
    }
}

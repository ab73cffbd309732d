import CBOR
import Crypto

/// The private half of a software credential, one of the three algorithms the server offers.
public enum CredentialSigningKey: Sendable {
    /// A P-256 key (ES256).
    case es256(P256SigningKey)
    /// An Ed25519 key (EdDSA).
    case edDSA(Ed25519SigningKey)
    /// An RSA key (RS256).
    case rs256(RSASigningKey)

    /// Generates a fresh key for `algorithm`.
    public init(generating algorithm: CredentialAlgorithm) throws(SoftwareClientError) {
        do {
            switch algorithm {
            case .es256: self = .es256(try P256SigningKey())
            case .edDSA: self = .edDSA(try Ed25519SigningKey())
            case .rs256: self = .rs256(try RSASigningKey(bits: 2048))
            }
        } catch {
            throw SoftwareClientError(.internalFailure, "generating a \(algorithm) key: \(error)")
        }
    }

    /// The algorithm this key signs with.
    public var algorithm: CredentialAlgorithm {
        switch self {
        case .es256: .es256
        case .edDSA: .edDSA
        case .rs256: .rs256
        }
    }

    /// The public key as a COSE_Key map, labels in CTAP2 canonical order (1, 3, -1, -2, -3).
    public var coseKey: CBORValue {
        switch self {
        case .es256(let key):
            // RFC 9053 §7.1.1: kty 2 (EC2), crv 1 (P-256), x and y as 32-byte strings.
            .map([
                CBORMapEntry(key: CBORValue(1), value: CBORValue(2)),
                CBORMapEntry(key: CBORValue(3), value: CBORValue(CredentialAlgorithm.es256.coseIdentifier)),
                CBORMapEntry(key: CBORValue(-1), value: CBORValue(1)),
                CBORMapEntry(key: CBORValue(-2), value: .bytes(key.publicKey.x)),
                CBORMapEntry(key: CBORValue(-3), value: .bytes(key.publicKey.y)),
            ])
        case .edDSA(let key):
            // RFC 9053 §7.2: kty 1 (OKP), crv 6 (Ed25519), x the 32-byte public key.
            .map([
                CBORMapEntry(key: CBORValue(1), value: CBORValue(1)),
                CBORMapEntry(key: CBORValue(3), value: CBORValue(CredentialAlgorithm.edDSA.coseIdentifier)),
                CBORMapEntry(key: CBORValue(-1), value: CBORValue(6)),
                CBORMapEntry(key: CBORValue(-2), value: .bytes(key.publicKey.rawRepresentation)),
            ])
        case .rs256(let key):
            // RFC 8230 §4: kty 3 (RSA), n the modulus, e the public exponent.
            .map([
                CBORMapEntry(key: CBORValue(1), value: CBORValue(3)),
                CBORMapEntry(key: CBORValue(3), value: CBORValue(CredentialAlgorithm.rs256.coseIdentifier)),
                CBORMapEntry(key: CBORValue(-1), value: .bytes(key.publicKey.modulus)),
                CBORMapEntry(key: CBORValue(-2), value: .bytes(key.publicKey.exponent)),
            ])
        }
    }

    /// The COSE_Key encoded with CBOREncoder, as it goes into attested credential data.
    public func coseKeyBytes() throws(SoftwareClientError) -> [UInt8] {
        do {
            return try CBOREncoder.encode(coseKey)
        } catch {
            throw SoftwareClientError(.internalFailure, "encoding the COSE key: \(error)")
        }
    }

    /// Signs `message` the way a WebAuthn authenticator does for this algorithm: ECDSA as X9.62 DER
    /// (WebAuthn L3 §6.5.6), Ed25519 as the 64-byte RFC 8032 signature, RSA as PKCS#1 v1.5 over SHA-256.
    public func signature(for message: [UInt8]) throws(SoftwareClientError) -> [UInt8] {
        do {
            switch self {
            case .es256(let key): return try key.signature(for: message)
            case .edDSA(let key): return try key.signature(for: message)
            case .rs256(let key): return try key.signature(for: message, hash: .sha256, padding: .pkcs1v15)
            }
        } catch {
            throw SoftwareClientError(.internalFailure, "signing with \(algorithm): \(error)")
        }
    }
}

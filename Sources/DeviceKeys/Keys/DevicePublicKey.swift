import Crypto

/// An app-bound device public key: a P-256 key created in the Secure Enclave or Android Keystore.
///
/// Accepted on import: the 65-byte X9.62 uncompressed point that iOS's `SecKeyCopyExternalRepresentation`
/// exports, or the SubjectPublicKeyInfo DER that Android's `PublicKey.getEncoded()` exports. Stored
/// canonically as SPKI DER (`spkiDERRepresentation`), whichever form came in.
public struct DevicePublicKey: Sendable, Equatable {
    /// The validated key.
    public let publicKey: ECPublicKey
    /// The canonical SubjectPublicKeyInfo DER (RFC 5480), the form to store.
    public var spkiDERRepresentation: [UInt8] { publicKey.derRepresentation }
    /// The 65-byte X9.62 uncompressed point 0x04‖X‖Y.
    public var x963Representation: [UInt8] { publicKey.x963Representation }

    /// Imports a key in either accepted form (also the way to load a stored SPKI back).
    /// - Throws: `.malformedKey`, `.invalidKeyLength`, `.compressedPoint`, `.unsupportedCurve`,
    ///   `.unsupportedKeyType`, `.pointNotOnCurve`.
    public init(importing bytes: [UInt8]) throws(DeviceKeyError) {
        guard let first = bytes.first else { throw DeviceKeyError(.malformedKey, "empty key") }
        let point: [UInt8]
        if first == DERTag.sequence {
            point = try Self.pointFromSubjectPublicKeyInfo(bytes)
        } else {
            point = bytes
        }
        self.publicKey = try Self.importPoint(point)
    }

    /// Verifies an ECDSA P-256 / SHA-256 signature in X9.62 DER (what `SecKeyCreateSignature` with
    /// `.ecdsaSignatureMessageX962SHA256` and Android's `SHA256withECDSA` produce). Strict DER.
    public func isValidSignature(_ derSignature: [UInt8], for message: [UInt8]) -> Bool {
        publicKey.isValidSignature(derSignature, for: message, hash: .sha256)
    }

    /// SEC 1 v2 §2.3.3: 0x04‖X‖Y (uncompressed), 0x02/0x03‖X (compressed, refused here).
    private static func importPoint(_ point: [UInt8]) throws(DeviceKeyError) -> ECPublicKey {
        let coordinateLength = EllipticCurve.p256.coordinateByteCount
        if let prefix = point.first, prefix == 0x02 || prefix == 0x03, point.count == 1 + coordinateLength {
            throw DeviceKeyError(.compressedPoint, "compressed P-256 points are not accepted")
        }
        guard point.first == 0x04 else {
            throw DeviceKeyError(.malformedKey, "neither an X9.62 uncompressed point nor a SubjectPublicKeyInfo")
        }
        guard point.count == 1 + 2 * coordinateLength else {
            throw DeviceKeyError(.invalidKeyLength, "an uncompressed P-256 point has 65 bytes, not \(point.count)")
        }
        do {
            return try ECPublicKey(x963Representation: point, curve: .p256)
        } catch {
            // SEC 1 v2 §3.2.2.1: the point must lie on the curve (and not be the point at infinity).
            throw DeviceKeyError(.pointNotOnCurve, "not a point on P-256: \(error.reason)")
        }
    }

    /// RFC 5480 §2: SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
    /// with AlgorithmIdentifier ::= SEQUENCE { id-ecPublicKey, namedCurve OID }.
    private static func pointFromSubjectPublicKeyInfo(_ der: [UInt8]) throws(DeviceKeyError) -> [UInt8] {
        do {
            let spki = try DERNode.parse(der)
            let fields = try spki.children()
            guard spki.hasTag(.universal, DERNode.UniversalTag.sequence), fields.count == 2,
                fields[0].hasTag(.universal, DERNode.UniversalTag.sequence),
                fields[1].hasTag(.universal, DERNode.UniversalTag.bitString)
            else {
                throw DeviceKeyError(.malformedKey, "SubjectPublicKeyInfo must be SEQUENCE { SEQUENCE, BIT STRING }")
            }
            let algorithm = try fields[0].children()
            guard let algorithmOIDNode = algorithm.first else {
                throw DeviceKeyError(.malformedKey, "AlgorithmIdentifier without an algorithm OID")
            }
            let algorithmOID = try algorithmOIDNode.objectIdentifier()
            guard algorithmOID == KeyAlgorithmOID.ecPublicKey else {
                throw DeviceKeyError(.unsupportedKeyType, "algorithm \(KeyAlgorithmOID.name(algorithmOID)) is not EC")
            }
            // RFC 5480 §2.1.1: parameters MUST be a namedCurve OID (implicit/specified curves are refused).
            guard algorithm.count == 2, algorithm[1].hasTag(.universal, DERNode.UniversalTag.objectIdentifier) else {
                throw DeviceKeyError(.unsupportedCurve, "EC parameters are not a named curve")
            }
            let curveOID = try algorithm[1].objectIdentifier()
            guard curveOID == KeyAlgorithmOID.prime256v1 else {
                throw DeviceKeyError(.unsupportedCurve, "curve \(KeyAlgorithmOID.name(curveOID)) is not P-256")
            }
            // X.690 §8.6.2: the BIT STRING holding the point has no unused bits.
            return try fields[1].bitStringBytes()
        } catch let error as DeviceKeyError {
            throw error
        } catch {
            throw DeviceKeyError(.malformedKey, "not a DER SubjectPublicKeyInfo: \(error)")
        }
    }
}

/// X.690 §8.9: the identifier octet of a constructed SEQUENCE, the first byte of any SPKI.
private enum DERTag {
    static let sequence: UInt8 = 0x30
}

/// Object identifiers for the key algorithms and curves we recognise, so refusals can name what they saw.
private enum KeyAlgorithmOID {
    /// RFC 5480 §2.1.1 id-ecPublicKey.
    static let ecPublicKey = "1.2.840.10045.2.1"
    /// RFC 5480 §2.1.1.1 secp256r1 (P-256).
    static let prime256v1 = "1.2.840.10045.3.1.7"

    static func name(_ oid: String) -> String {
        switch oid {
        case "1.2.840.113549.1.1.1": "rsaEncryption"
        case "1.2.840.113549.1.1.10": "RSASSA-PSS"
        case "1.3.101.112": "Ed25519"
        case "1.3.101.113": "Ed448"
        case "1.3.101.110": "X25519"
        case "1.3.132.0.34": "secp384r1"
        case "1.3.132.0.35": "secp521r1"
        case "1.3.132.0.10": "secp256k1"
        default: oid
        }
    }
}

import CBOR
import Crypto

/// A credential public key in COSE_Key form (RFC 9052 §7, WebAuthn L3 §6.5.1.1), bound to exactly
/// one algorithm: the key type and curve must be the ones that algorithm uses, so a key can never be
/// used with an algorithm it was not made for.
public struct COSEKey: Sendable {
    /// The algorithm the key is for (label 3, required by WebAuthn).
    public let algorithm: COSEAlgorithm
    /// The COSE_Key bytes as received.
    public let rawBytes: [UInt8]
    /// The key, ready to verify.
    public let publicKey: Crypto.PublicKey

    /// COSE_Key labels (RFC 9052 §7.1, RFC 9053 §7.1–7.2, RFC 8230 §4).
    private enum Label {
        static let kty = 1
        static let alg = 3
        static let crv = -1  // EC2/OKP
        static let x = -2  // EC2/OKP
        static let y = -3  // EC2
        static let n = -1  // RSA modulus
        static let e = -2  // RSA public exponent
    }

    /// COSE elliptic curve identifiers (RFC 9053 §7.1).
    private static func curveIdentifier(_ curve: EllipticCurve) -> Int {
        switch curve {
        case .p256: 1
        case .p384: 2
        case .p521: 3
        }
    }

    /// Decodes and checks a COSE_Key.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do {
            value = try CBORDecoder.decode(bytes)
        } catch {
            throw WebAuthnError(.malformedCOSEKey, "not one CBOR item: \(error)")
        }
        try self.init(cbor: value, raw: bytes)
    }

    /// Checks an already decoded COSE_Key; `raw` are the bytes it was decoded from.
    public init(cbor: CBORValue, raw: [UInt8]) throws(WebAuthnError) {
        guard case .map = cbor else { throw WebAuthnError(.malformedCOSEKey, "COSE_Key is not a map") }
        guard let algorithmID = cbor[int: Label.alg]?.intValue else {
            throw WebAuthnError(.malformedCOSEKey, "alg (3) missing or not an integer")
        }
        guard let algorithm = COSEAlgorithm(rawValue: algorithmID) else {
            throw WebAuthnError(.unsupportedAlgorithm, "COSE algorithm \(algorithmID)")
        }
        // RFC 9052 §7.1: kty is required; it must be the type the algorithm uses (no algorithm confusion).
        guard let keyTypeID = cbor[int: Label.kty]?.intValue, keyTypeID == algorithm.keyType.rawValue else {
            throw WebAuthnError(.malformedCOSEKey, "kty does not match alg \(algorithmID)")
        }
        self.algorithm = algorithm
        self.rawBytes = raw
        switch algorithm.keyType {
        case .ec2: self.publicKey = try Self.ec2Key(cbor, algorithm)
        case .okp: self.publicKey = try Self.okpKey(cbor, algorithm)
        case .rsa: self.publicKey = try Self.rsaKey(cbor)
        }
    }

    /// RFC 9053 §7.1.1: EC2 keys carry crv, x and y (WebAuthn L3 §6.5.1.1: uncompressed points only).
    private static func ec2Key(
        _ map: CBORValue, _ algorithm: COSEAlgorithm
    ) throws(WebAuthnError) -> PublicKey {
        guard let curve = algorithm.ellipticCurve, map[int: Label.crv]?.intValue == curveIdentifier(curve) else {
            throw WebAuthnError(.malformedCOSEKey, "crv does not match alg \(algorithm.rawValue)")
        }
        guard let x = map[int: Label.x]?.bytesValue, let y = map[int: Label.y]?.bytesValue,
            x.count == curve.coordinateByteCount, y.count == curve.coordinateByteCount
        else {
            throw WebAuthnError(.malformedCOSEKey, "x/y missing or not \(curve.coordinateByteCount) bytes")
        }
        do {
            return .ec(try ECPublicKey(curve: curve, x: x, y: y))
        } catch {
            throw WebAuthnError(.malformedCOSEKey, "EC point rejected: \(error)")
        }
    }

    /// RFC 9053 §7.2: OKP keys carry crv and x. The curve must be the algorithm's: Ed25519 for EdDSA
    /// (-8, WebAuthn L3 §5.8.5) and Ed25519 (-19), Ed448 for Ed448 (-53, RFC 9864 §2.2); x is the raw
    /// public key (RFC 8032 §5.1.5: 32 bytes, §5.2.5: 57 bytes).
    private static func okpKey(
        _ map: CBORValue, _ algorithm: COSEAlgorithm
    ) throws(WebAuthnError) -> PublicKey {
        guard let curve = algorithm.edwardsCurve, map[int: Label.crv]?.intValue == curve.rawValue else {
            throw WebAuthnError(.malformedCOSEKey, "OKP crv does not match alg \(algorithm.rawValue)")
        }
        guard let x = map[int: Label.x]?.bytesValue else {
            throw WebAuthnError(.malformedCOSEKey, "OKP x missing or not bytes")
        }
        do {
            switch curve {
            case .ed25519: return .ed25519(try Ed25519PublicKey(rawRepresentation: x))
            case .ed448: return .ed448(try Ed448PublicKey(rawRepresentation: x))
            }
        } catch {
            throw WebAuthnError(.malformedCOSEKey, "\(curve) key rejected: \(error)")
        }
    }

    /// RFC 8230 §4: RSA keys carry n and e as unsigned big-endian byte strings.
    private static func rsaKey(_ map: CBORValue) throws(WebAuthnError) -> PublicKey {
        guard let n = map[int: Label.n]?.bytesValue, let e = map[int: Label.e]?.bytesValue, !n.isEmpty, !e.isEmpty
        else {
            throw WebAuthnError(.malformedCOSEKey, "RSA n/e missing")
        }
        do {
            return .rsa(try RSAPublicKey(modulus: n, exponent: e))
        } catch {
            throw WebAuthnError(.malformedCOSEKey, "RSA key rejected: \(error)")
        }
    }

    /// Verifies `signature` over `message` with this key's algorithm: DER ECDSA for ES*, Ed25519 for
    /// EdDSA, PKCS#1 v1.5 for RS*, PSS (salt = digest length) for PS* (WebAuthn L3 §6.5.6).
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        algorithm.isValidSignature(signature, for: message, with: publicKey)
    }

    /// Whether `signature` verifies over WebAuthn's signed data, `authenticatorData || SHA-256(clientDataJSON)`
    /// (L3 §7.1 step 20 with §8.2, §7.2 steps 20–21).
    public func isValidSignature(
        _ signature: [UInt8], overAuthenticatorData authenticatorData: [UInt8], clientDataJSON: [UInt8]
    ) -> Bool {
        isValidSignature(signature, for: authenticatorData + Digest.sha256(clientDataJSON))
    }
}

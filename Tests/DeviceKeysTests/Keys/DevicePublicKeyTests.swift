import Crypto
import TestSupport
import Testing

@testable import DeviceKeys

@Suite("DevicePublicKey: importing iOS X9.62 points and Android SPKI")
struct DevicePublicKeyTests {
    /// RFC 5480 SPKI prefix for a P-256 key with a compressed point (33 bytes follow).
    static let compressedSPKIPrefix = Hex.decode("3039301306072a8648ce3d020106082a8648ce3d030107032200")
    /// A P-384 SPKI (Wycheproof ecdsa_secp384r1_sha384_test.json, first group).
    static let p384SPKI = Hex.decode(
        "3076301006072a8648ce3d020106052b810400220362000429bdb76d5fa741bfd70233cb3a66cc7d44"
            + "beb3b0663d92a8136650478bcefb61ef182e155a54345a5e8e5e88f064e5bc9a525ab7f764dad3dae1468c2b4"
            + "19f3b62b9ba917d5e8c4fb1ec47404a3fc76474b2713081be"
            + "9db4c00e043ada9fc4a3")

    @Test("imports the 65-byte X9.62 point iOS exports, stored as SPKI")
    func x963() throws {
        let device = try P256SigningKey()
        let key = try DevicePublicKey(importing: device.publicKey.x963Representation)
        #expect(key.x963Representation == device.publicKey.x963Representation)
        #expect(key.spkiDERRepresentation == device.publicKey.derRepresentation)
    }

    @Test("imports the SPKI DER Android exports; both forms give the same stored key")
    func spki() throws {
        let device = try P256SigningKey()
        let fromSPKI = try DevicePublicKey(importing: device.publicKey.derRepresentation)
        let fromPoint = try DevicePublicKey(importing: device.publicKey.x963Representation)
        #expect(fromSPKI.spkiDERRepresentation == fromPoint.spkiDERRepresentation)
        #expect(fromSPKI == fromPoint)
        #expect(fromSPKI.spkiDERRepresentation.count == 91)
        // A stored key loads back.
        #expect(
            try DevicePublicKey(importing: fromSPKI.spkiDERRepresentation).x963Representation
                == fromPoint.x963Representation)
    }

    @Test("verifies a device signature (X9.62 DER)")
    func signature() throws {
        let device = try P256SigningKey()
        let key = try DevicePublicKey(importing: device.publicKey.x963Representation)
        let message = utf8("approve")
        let signature = try device.signature(for: message)
        #expect(key.isValidSignature(signature, for: message))
        #expect(!key.isValidSignature(signature, for: utf8("approvE")))
    }

    @Test("refuses an empty key")
    func empty() { expectRefusal([], .malformedKey) }

    @Test("refuses garbage")
    func garbage() { expectRefusal(Hex.decode("deadbeef00112233"), .malformedKey) }

    @Test("refuses a truncated uncompressed point")
    func wrongLength() throws {
        let point = try P256SigningKey().publicKey.x963Representation
        expectRefusal(Array(point.dropLast()), .invalidKeyLength)
        expectRefusal(point + [0], .invalidKeyLength)
    }

    @Test("refuses a compressed point, bare or inside an SPKI")
    func compressed() throws {
        let point = try P256SigningKey().publicKey.x963Representation
        let compressed = [0x02 | (point[64] & 1)] + point[1...32]
        expectRefusal(compressed, .compressedPoint)
        expectRefusal(Self.compressedSPKIPrefix + compressed, .compressedPoint)
    }

    @Test("refuses a point off the curve, bare or inside an SPKI")
    func offCurve() throws {
        var point = try P256SigningKey().publicKey.x963Representation
        point[64] ^= 0x01
        expectRefusal(point, .pointNotOnCurve)
        var spki = try P256SigningKey().publicKey.derRepresentation
        spki[spki.count - 1] ^= 0x01
        expectRefusal(spki, .pointNotOnCurve)
    }

    @Test("refuses another curve (P-384)")
    func otherCurve() { expectRefusal(Self.p384SPKI, .unsupportedCurve) }

    @Test("refuses EC parameters that are not a named curve")
    func implicitCurve() throws {
        // AlgorithmIdentifier { id-ecPublicKey, NULL } instead of the namedCurve OID.
        let point = try P256SigningKey().publicKey.x963Representation
        let spki = Hex.decode("3051300b06072a8648ce3d02010500034200") + point
        expectRefusal(spki, .unsupportedCurve)
    }

    @Test("refuses an RSA key")
    func rsa() throws { expectRefusal(try RSASigningKey(bits: 2048).publicKey.derRepresentation, .unsupportedKeyType) }

    @Test("refuses an Ed25519 key")
    func ed25519() throws { expectRefusal(try Ed25519SigningKey().publicKey.derRepresentation, .unsupportedKeyType) }

    @Test("refuses an SPKI whose BIT STRING declares unused bits")
    func unusedBits() throws {
        var spki = try P256SigningKey().publicKey.derRepresentation
        spki[25] = 0x01  // the unused-bits octet right after 03 42
        expectRefusal(spki, .malformedKey)
    }

    @Test("refuses an SPKI with trailing bytes or a broken structure")
    func brokenSPKI() throws {
        let spki = try P256SigningKey().publicKey.derRepresentation
        expectRefusal(spki + [0], .malformedKey)
        expectRefusal(Hex.decode("3003020101"), .malformedKey)
        // AlgorithmIdentifier that is an empty SEQUENCE.
        let point = try P256SigningKey().publicKey.x963Representation
        expectRefusal(Hex.decode("30463000034200") + point, .malformedKey)
    }

    @Test("every prefix and every single-byte flip of an SPKI gives a typed error or a valid key, never a trap")
    func robustness() throws {
        let spki = try P256SigningKey().publicKey.derRepresentation
        for length in 0..<spki.count {
            #expect(throws: DeviceKeyError.self) { try DevicePublicKey(importing: Array(spki.prefix(length))) }
        }
        for offset in spki.indices {
            var flipped = spki
            flipped[offset] ^= 0x80
            _ = try? DevicePublicKey(importing: flipped)
        }
    }

    private func expectRefusal(
        _ bytes: [UInt8], _ code: DeviceKeyError.Code, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: DeviceKeyError(code, ""), sourceLocation: sourceLocation) {
            try DevicePublicKey(importing: bytes)
        }
    }
}

import Crypto
import TestSupport
import Testing

@Suite("ECPublicKey")
struct ECPublicKeyTests {
    /// (file, curve, hash, valid count, invalid count) — counts taken from the files themselves.
    static let wycheproofFiles: [(String, EllipticCurve, HashAlgorithm, Int, Int)] = [
        ("ecdsa_secp256r1_sha256_test.json", .p256, .sha256, 170, 301),
        ("ecdsa_secp384r1_sha384_test.json", .p384, .sha384, 190, 301),
        ("ecdsa_secp521r1_sha512_test.json", .p521, .sha512, 228, 301),
    ]

    @Test("Wycheproof ECDSA: every valid vector accepted, every invalid one rejected", arguments: wycheproofFiles)
    func wycheproof(file: String, curve: EllipticCurve, hash: HashAlgorithm, valid: Int, invalid: Int) throws {
        let vectors = try WycheproofFile.load(file)
        var keys: [String: ECPublicKey] = [:]
        for group in vectors.testGroups {
            let point = try #require(group.publicKey.uncompressed)
            let key = try ECPublicKey(x963Representation: Hex.decode(point), curve: curve)
            // The SPKI form must give the same key.
            let der = try #require(group.publicKeyDer)
            #expect(try ECPublicKey(derRepresentation: Hex.decode(der)).x963Representation == key.x963Representation)
            keys[point] = key
        }
        let tally = vectors.run { group, test in
            guard let point = group.publicKey.uncompressed, let key = keys[point] else { return false }
            return key.isValidSignature(Hex.decode(test.sig), for: Hex.decode(test.msg), hash: hash)
        }
        #expect(tally.failures.isEmpty, "\(tally)")
        #expect(tally.validAccepted == valid)
        #expect(tally.invalidRejected == invalid)
        #expect(tally.acceptable == vectors.numberOfTests - valid - invalid)
    }

    @Test(
        "the psychic signature r = s = 0 (CVE-2022-21449) is rejected on every curve", arguments: EllipticCurve.allCases
    )
    func psychicSignature(curve: EllipticCurve) throws {
        let key = try P256SigningKey().publicKey
        let zeroes: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00]
        #expect(!key.isValidSignature(zeroes, for: [1, 2, 3], hash: .sha256))
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try ECDSASignature.rawRepresentation(fromDER: zeroes, curve: curve)
        }
        #expect(throws: CryptoError(.invalidSignature, "")) {
            try ECDSASignature.derRepresentation(
                fromRaw: [UInt8](repeating: 0, count: 2 * curve.coordinateByteCount), curve: curve)
        }
    }

    @Test("a signature with trailing bytes or non-minimal DER is rejected although its r and s are right")
    func strictDER() throws {
        let signingKey = try P256SigningKey()
        let message: [UInt8] = Array("strict".utf8)
        let signature = try signingKey.signature(for: message)
        #expect(signingKey.publicKey.isValidSignature(signature, for: message, hash: .sha256))
        #expect(!signingKey.publicKey.isValidSignature(signature + [0x00], for: message, hash: .sha256))
        // Long-form length 0x81 for a short SEQUENCE is BER, not DER.
        let longForm = [0x30, 0x81] + signature.dropFirst(1)
        #expect(!signingKey.publicKey.isValidSignature(Array(longForm), for: message, hash: .sha256))
        #expect(!signingKey.publicKey.isValidSignature([], for: message, hash: .sha256))
        #expect(!signingKey.publicKey.isValidSignature(signature, for: message + [0], hash: .sha256))
    }

    @Test("coordinates and points round-trip between the x/y, X9.63 and SPKI forms")
    func representations() throws {
        let key = try P256SigningKey().publicKey
        let fromCoordinates = try ECPublicKey(curve: .p256, x: key.x, y: key.y)
        #expect(fromCoordinates.x963Representation == key.x963Representation)
        let fromDER = try ECPublicKey(derRepresentation: key.derRepresentation)
        #expect(fromDER.x963Representation == key.x963Representation)
        #expect(fromDER.curve == .p256)
        guard case .ec(let generic) = try PublicKey(derRepresentation: key.derRepresentation) else {
            Issue.record("SPKI did not decode as an EC key")
            return
        }
        #expect(generic.x963Representation == key.x963Representation)
    }

    @Test("a point off the curve is refused with .invalidKey")
    func offCurve() throws {
        let key = try P256SigningKey().publicKey
        var y = key.y
        y[y.count - 1] ^= 0x01
        #expect(throws: CryptoError(.invalidKey, "")) { try ECPublicKey(curve: .p256, x: key.x, y: y) }
    }

    /// P-256's field prime p (SEC 2 v2 §2.4.2), big-endian.
    static let p256Prime: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    ]

    @Test("a coordinate equal to the field prime is refused with .invalidKey (SEC 1 §3.2.2.1 step 2)")
    func coordinateOutOfRange() throws {
        let key = try P256SigningKey().publicKey
        #expect(throws: CryptoError(.invalidKey, "")) { try ECPublicKey(curve: .p256, x: Self.p256Prime, y: key.y) }
        #expect(throws: CryptoError(.invalidKey, "")) { try ECPublicKey(curve: .p256, x: key.x, y: Self.p256Prime) }
        let all = [UInt8](repeating: 0xFF, count: 32)
        #expect(throws: CryptoError(.invalidKey, "")) { try ECPublicKey(curve: .p256, x: all, y: all) }
    }

    @Test("the all-zero point (not the encoding of infinity) is refused with .invalidKey")
    func zeroPoint() throws {
        let zero = [UInt8](repeating: 0, count: 32)
        #expect(throws: CryptoError(.invalidKey, "")) { try ECPublicKey(curve: .p256, x: zero, y: zero) }
    }

    @Test("a key verifies the same on every call once its OpenSSL key is built")
    func lazyKeyReuse() throws {
        let signingKey = try P256SigningKey()
        let message = Array("lazy".utf8)
        let signature = try signingKey.signature(for: message)
        let key = try ECPublicKey(x963Representation: signingKey.publicKey.x963Representation, curve: .p256)
        #expect(key.isValidSignature(signature, for: message, hash: .sha256))
        #expect(key.isValidSignature(signature, for: message, hash: .sha256))
        #expect(!key.isValidSignature(signature, for: message + [1], hash: .sha256))
        #expect(try ECPublicKey(derRepresentation: key.derRepresentation) == key)
    }

    @Test("a compressed point is refused with .invalidKey")
    func compressed() throws {
        let key = try P256SigningKey().publicKey
        let prefix: UInt8 = (key.y.last ?? 0) & 1 == 0 ? 0x02 : 0x03
        #expect(throws: CryptoError(.invalidKey, "")) {
            try ECPublicKey(x963Representation: [prefix] + key.x, curve: .p256)
        }
    }

    @Test("a wrong prefix byte is refused with .invalidKey")
    func wrongPrefix() throws {
        let key = try P256SigningKey().publicKey
        #expect(throws: CryptoError(.invalidKey, "")) {
            try ECPublicKey(x963Representation: [0x05] + key.x + key.y, curve: .p256)
        }
    }

    @Test("wrong coordinate or point lengths are refused with .invalidKey")
    func wrongLengths() throws {
        let key = try P256SigningKey().publicKey
        #expect(throws: CryptoError(.invalidKey, "")) {
            try ECPublicKey(curve: .p256, x: Array(key.x.dropFirst()), y: key.y)
        }
        #expect(throws: CryptoError(.invalidKey, "")) { try ECPublicKey(curve: .p384, x: key.x, y: key.y) }
        #expect(throws: CryptoError(.invalidKey, "")) {
            try ECPublicKey(x963Representation: key.x963Representation + [0], curve: .p256)
        }
    }

    @Test("an SPKI with trailing bytes, or of another key type, is refused with .invalidKey")
    func badSPKI() throws {
        let key = try P256SigningKey().publicKey
        #expect(throws: CryptoError(.invalidKey, "")) {
            try ECPublicKey(derRepresentation: key.derRepresentation + [0])
        }
        #expect(throws: CryptoError(.invalidKey, "")) { try ECPublicKey(derRepresentation: []) }
        let ed = try Ed25519SigningKey().publicKey
        #expect(throws: CryptoError(.invalidKey, "")) { try ECPublicKey(derRepresentation: ed.derRepresentation) }
    }

    @Test("an SPKI holding a compressed point is refused with .invalidKey")
    func compressedSPKI() throws {
        let key = try P256SigningKey().publicKey
        let prefix: UInt8 = (key.y.last ?? 0) & 1 == 0 ? 0x02 : 0x03
        // RFC 5480 §2: id-ecPublicKey with namedCurve prime256v1, BIT STRING of 33 bytes.
        let spki = Hex.decode("3039301306072a8648ce3d020106082a8648ce3d030107032200") + [prefix] + key.x
        #expect(throws: CryptoError(.invalidKey, "")) { try ECPublicKey(derRepresentation: spki) }
    }

    @Test("one key verifying from many tasks at once: every call gets its own verdict")
    func concurrentVerification() async throws {
        let signer = try P256SigningKey()
        // A fresh key from the point, so its verification key is built lazily while the tasks race for it.
        let key = try ECPublicKey(x963Representation: signer.publicKey.x963Representation, curve: .p256)
        let signatures = try (0..<32).map { try signer.signature(for: [UInt8($0)]) }
        let verdicts = await withTaskGroup(of: (Int, Bool, Bool).self) { group in
            for index in 0..<32 {
                group.addTask {
                    let own = key.isValidSignature(signatures[index], for: [UInt8(index)], hash: .sha256)
                    let other = key.isValidSignature(signatures[index], for: [UInt8((index + 1) % 32)], hash: .sha256)
                    return (index, own, other)
                }
            }
            var all: [(Int, Bool, Bool)] = []
            for await verdict in group { all.append(verdict) }
            return all
        }
        #expect(verdicts.count == 32)
        #expect(verdicts.allSatisfy { $0.1 && !$0.2 })
    }
}

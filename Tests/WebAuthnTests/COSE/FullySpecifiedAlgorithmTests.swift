import CBOR
import Crypto
import TestSupport
import Testing

@testable import WebAuthn

/// The fully-specified COSE algorithms of RFC 9864, which WebAuthn L3 §5.8.5 admits next to the
/// polymorphic ones: ESP256 (-9), ESP384 (-51), ESP512 (-52), Ed25519 (-19) and Ed448 (-53). The keys and
/// signatures were made with Python's `cryptography` (an implementation passkeyd shares no code with),
/// over `message`.
@Suite("COSE fully-specified algorithms (RFC 9864)")
struct FullySpecifiedAlgorithmTests {
    static let message: [UInt8] = Array("RFC 9864 fully-specified algorithms".utf8)

    /// A COSE key and a DER or raw signature of `message` under it.
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let algorithm: COSEAlgorithm
        let coseKey: [UInt8]
        let signature: [UInt8]
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(
            name: "esp256", algorithm: .esp256,
            coseKey: Hex.decode(
                "a5010203282001215820a1e5f58ba24453e001cdf7623bdd8a103dd5184b0e1a304ae8137b8c010bfe11225820870709"
                    + "48882d6aee99cca3d33a4920180f4be2560f13ff5740ad1e0075573d1f"),
            signature: Hex.decode(
                "30440220629385c78ea925602dc25e07d4b3a5b204c10035b3342f26b88a343ad4a0b0d5022075bd47320ae06f1d4a63"
                    + "26f88299e86e8cb07463264f56ad1dd2fa17d7afcae0")),
        Vector(
            name: "esp384", algorithm: .esp384,
            coseKey: Hex.decode(
                "a501020338322002215830a63cbece68660557c5b58f2d571a5bcac667e75495d2417ec7d3ff49f78267f9e585492ded"
                    + "b4db02deffb06c98dc9cfa225830b824f9a3e7916a9b520f1e435fb38594e0c330345d5fe8e1619b1840db2103bf7760"
                    + "b2b406b2633eaf63e5300076b940"),
            signature: Hex.decode(
                "3065023100bc7e73d59e9a7df57799d5274134420b8b91b174705dbb0030fdde695d5c15ae892610ca0870c9b2e14887"
                    + "d6a399dc6502302b9deee2ff25d46c568d6d7f6ddb55d7312cab3c88585da6143f294ad492ec187199c3cb9eb9506eab"
                    + "9d29fe4a97206e")),
        Vector(
            name: "esp512", algorithm: .esp512,
            coseKey: Hex.decode(
                "a501020338332003215842005f7cd114413dfe9a48dbf2ec6dc23723f8bec7abacb788e1e6c0dac228439d571e31678d"
                    + "a33c2feccfdc9a56641a8104c8ffd6e43898f068b90fb20ecebfd0ff8f22584201622fc18800d6cc9d88004965dbcbff"
                    + "4432321fd8c2a7d6957a2cbe542e7d8df1cd60f9c12949e6c3006cdb9728c99b0f20e45af7542e785492385f0bb7d983"
                    + "423f"),
            signature: Hex.decode(
                "3081880242013649010b68d6ec2b92c1bf657fd9cbada7ba95dd26cf438a101c25c1244caf73fadc620d60f093d40078"
                    + "e32739ebc786f0df94118a483bd601fb54622c673959c3024201e0ff14f0991d809e196d27202f88a89465911264f823"
                    + "bda671facec81e9ca2c9ebb7ecbb412757c13bbf2714745808a5d32adc1a8c6191c91a6cbce35344ffbbaa")),
        Vector(
            name: "ed25519", algorithm: .ed25519,
            coseKey: Hex.decode(
                "a4010103322006215820693bd10b37a5062c0433c3c6b9ecd236b2ca5208f46bc9254e566f82344798fb"),
            signature: Hex.decode(
                "0f73b146397b1d77a551edbf021e66e11f7d26688dbba9c1bb580ae685655d819115f8b3772651803d900daa18447a96"
                    + "bacb2e5110d47493d088723c2ee98702")),
        Vector(
            name: "ed448", algorithm: .ed448,
            coseKey: Hex.decode(
                "a401010338342007215839da634d7d0b69b523709474e70b5dd4f3f111bf3adf72a77d17d384d1c5576c3131c7617353"
                    + "08348d47c1228394d8b20ffe75bce7427c95d200"),
            signature: Hex.decode(
                "2ed2437308c56ddd8eb8e0ae2648a09f00b9417005513057957f72934e9d312c32ecbcf6b3246599798dd2dc18dd5055"
                    + "894ed54ae0c785aa00d9020c18412bf0b4e212b674f6a5a8b4b778dad0411ed4fd46442a1020e1ec5af1bed3dd862de2"
                    + "e894244d2077c61f669a9e1a6d9065a61b00")),
    ]

    @Test(
        "each key parses under its algorithm and verifies its own signature, not a changed message", arguments: vectors)
    func verifies(_ vector: Vector) throws {
        let key = try COSEKey(bytes: vector.coseKey)
        #expect(key.algorithm == vector.algorithm)
        #expect(key.isValidSignature(vector.signature, for: Self.message))
        #expect(!key.isValidSignature(vector.signature, for: Self.message + [0]))
        var flipped = vector.signature
        flipped[flipped.count / 2] ^= 0x01
        #expect(!key.isValidSignature(flipped, for: Self.message))
    }

    /// `vector`'s COSE key with one label's value replaced.
    func replacing(_ label: Int, with value: CBORValue, in vector: Vector) throws -> [UInt8] {
        let decoded = try CBORDecoder.decode(vector.coseKey)
        let entries = try #require(decoded.mapEntries).map { entry in
            entry.key == CBORValue(label) ? CBORMapEntry(key: entry.key, value: value) : entry
        }
        return try CBOREncoder.encode(.map(entries))
    }

    static func vector(_ name: String) throws -> Vector {
        try #require(vectors.first { $0.name == name })
    }

    @Test("an ESPxxx key must name the algorithm's own curve (RFC 9864 §2.1)")
    func espCurveBound() throws {
        // ESP256 with crv P-384 (2), ESP384 with crv P-256 (1): no algorithm confusion.
        let esp256 = try replacing(-1, with: CBORValue(2), in: Self.vector("esp256"))
        #expect(throws: code(.malformedCOSEKey)) { try COSEKey(bytes: esp256) }
        let esp384 = try replacing(-1, with: CBORValue(1), in: Self.vector("esp384"))
        #expect(throws: code(.malformedCOSEKey)) { try COSEKey(bytes: esp384) }
    }

    @Test("Ed448 is reached only through -53: its key under EdDSA (-8) or Ed25519 (-19) is refused")
    func ed448OnlyThroughItsOwnIdentifier() throws {
        let ed448 = try Self.vector("ed448")
        for alg in [-8, -19] {
            let relabelled = try replacing(3, with: CBORValue(alg), in: ed448)
            #expect(throws: code(.malformedCOSEKey)) { try COSEKey(bytes: relabelled) }
        }
        // …and -53 with the Ed25519 curve (6) is refused too.
        let wrongCurve = try replacing(-1, with: CBORValue(6), in: ed448)
        #expect(throws: code(.malformedCOSEKey)) { try COSEKey(bytes: wrongCurve) }
    }

    @Test("Ed25519 (-19) is the same key and signature as EdDSA (-8)")
    func ed25519MatchesEdDSA() throws {
        let vector = try Self.vector("ed25519")
        let legacy = try COSEKey(bytes: try replacing(3, with: CBORValue(-8), in: vector))
        #expect(legacy.algorithm == .edDSA)
        #expect(legacy.isValidSignature(vector.signature, for: Self.message))
        // An Ed25519 x of Ed448's length is refused.
        let ed448X = try #require(try CBORDecoder.decode(try Self.vector("ed448").coseKey)[int: -2])
        let long = try replacing(-2, with: ed448X, in: vector)
        #expect(throws: code(.malformedCOSEKey)) { try COSEKey(bytes: long) }
    }

    @Test("an Ed448 signature of the wrong length is refused before OpenSSL sees it")
    func ed448SignatureLength() throws {
        let vector = try Self.vector("ed448")
        let key = try COSEKey(bytes: vector.coseKey)
        #expect(!key.isValidSignature(Array(vector.signature.dropLast()), for: Self.message))
        #expect(!key.isValidSignature(vector.signature + [0], for: Self.message))
    }

    @Test("the EdDSA family reports no separate hash; ECDSA and RSA report theirs")
    func hashes() {
        #expect(COSEAlgorithm.ed448.hashAlgorithm == nil)
        #expect(COSEAlgorithm.ed25519.hashAlgorithm == nil)
        #expect(COSEAlgorithm.edDSA.hashAlgorithm == nil)
        #expect(COSEAlgorithm.esp384.hashAlgorithm == .sha384)
        #expect(COSEAlgorithm.esp512.hashAlgorithm == .sha512)
    }
}

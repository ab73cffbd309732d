import CBOR
import Crypto
import Testing

@testable import WebAuthn

@Suite("COSEKey")
struct COSEKeyTests {
    let p256 = try! P256SigningKey()
    let message: [UInt8] = Array("signed bytes".utf8)

    func ec2(kty: Int = 2, alg: Int = -7, crv: Int = 1, x: [UInt8]? = nil, y: [UInt8]? = nil) -> CBORValue {
        .map([
            CBORMapEntry(key: CBORValue(1), value: CBORValue(kty)),
            CBORMapEntry(key: CBORValue(3), value: CBORValue(alg)),
            CBORMapEntry(key: CBORValue(-1), value: CBORValue(crv)),
            CBORMapEntry(key: CBORValue(-2), value: .bytes(x ?? p256.publicKey.x)),
            CBORMapEntry(key: CBORValue(-3), value: .bytes(y ?? p256.publicKey.y)),
        ])
    }

    func key(_ value: CBORValue) throws -> COSEKey {
        try COSEKey(bytes: try CBOREncoder.encode(value))
    }

    @Test("an ES256 key verifies its signatures and nothing else")
    func es256() throws {
        let cose = try key(ec2())
        #expect(cose.algorithm == .es256)
        #expect(cose.isValidSignature(try p256.signature(for: message), for: message))
        #expect(!cose.isValidSignature(try p256.signature(for: message), for: message + [0]))
    }

    @Test("an EdDSA key verifies Ed25519 signatures")
    func edDSA() throws {
        let signer = try Ed25519SigningKey()
        let cose = try key(
            .map([
                CBORMapEntry(key: CBORValue(1), value: CBORValue(1)),
                CBORMapEntry(key: CBORValue(3), value: CBORValue(-8)),
                CBORMapEntry(key: CBORValue(-1), value: CBORValue(6)),
                CBORMapEntry(key: CBORValue(-2), value: .bytes(signer.publicKey.rawRepresentation)),
            ]))
        #expect(cose.algorithm == .edDSA)
        #expect(cose.isValidSignature(try signer.signature(for: message), for: message))
    }

    @Test("ES256, EdDSA and RS256 verify WebAuthn's signed data, authenticatorData || SHA-256(clientDataJSON)")
    func signedData() throws {
        let authenticatorData = Array(repeating: UInt8(0x49), count: 37)
        let clientDataJSON = Array(#"{"type":"webauthn.get"}"#.utf8)
        let signed = authenticatorData + Digest.sha256(clientDataJSON)
        let ed25519 = try Ed25519SigningKey()
        let keys: [(COSEKey, [UInt8])] = [
            (try key(ec2()), try p256.signature(for: signed)),
            (
                try key(
                    .map([
                        CBORMapEntry(key: CBORValue(1), value: CBORValue(1)),
                        CBORMapEntry(key: CBORValue(3), value: CBORValue(-8)),
                        CBORMapEntry(key: CBORValue(-1), value: CBORValue(6)),
                        CBORMapEntry(key: CBORValue(-2), value: .bytes(ed25519.publicKey.rawRepresentation)),
                    ])), try ed25519.signature(for: signed)
            ),
            (try key(rsa(alg: -257)), try Self.rsaSigner.signature(for: signed, hash: .sha256, padding: .pkcs1v15)),
        ]
        for (cose, signature) in keys {
            #expect(
                cose.isValidSignature(
                    signature, overAuthenticatorData: authenticatorData, clientDataJSON: clientDataJSON),
                "\(cose.algorithm)")
            #expect(
                !cose.isValidSignature(
                    signature, overAuthenticatorData: authenticatorData, clientDataJSON: clientDataJSON + [0x20]),
                "\(cose.algorithm)")
            #expect(
                !cose.isValidSignature(
                    signature, overAuthenticatorData: authenticatorData + [0], clientDataJSON: clientDataJSON),
                "\(cose.algorithm)")
        }
    }

    static let rsaSigner = try! RSASigningKey(bits: 2048)

    func rsa(alg: Int) -> CBORValue {
        .map([
            CBORMapEntry(key: CBORValue(1), value: CBORValue(3)),
            CBORMapEntry(key: CBORValue(3), value: CBORValue(alg)),
            CBORMapEntry(key: CBORValue(-1), value: .bytes(Self.rsaSigner.publicKey.modulus)),
            CBORMapEntry(key: CBORValue(-2), value: .bytes(Self.rsaSigner.publicKey.exponent)),
        ])
    }

    @Test("RS256 and PS256 keys verify with their own padding only")
    func rsaPaddings() throws {
        let pkcs1 = try Self.rsaSigner.signature(for: message, hash: .sha256, padding: .pkcs1v15)
        let pss = try Self.rsaSigner.signature(for: message, hash: .sha256, padding: .pss)
        let rs256 = try key(rsa(alg: -257))
        let ps256 = try key(rsa(alg: -37))
        #expect(rs256.isValidSignature(pkcs1, for: message))
        #expect(!rs256.isValidSignature(pss, for: message))
        #expect(ps256.isValidSignature(pss, for: message))
        #expect(!ps256.isValidSignature(pkcs1, for: message))
    }

    @Test("a COSE key that is not a map is malformedCOSEKey")
    func notMap() {
        #expect(throws: code(.malformedCOSEKey)) { try key(.array([])) }
    }

    @Test("bytes after the COSE key are malformedCOSEKey")
    func trailing() throws {
        let bytes = try CBOREncoder.encode(ec2()) + [0x00]
        #expect(throws: code(.malformedCOSEKey)) { try COSEKey(bytes: bytes) }
    }

    @Test("a missing alg is malformedCOSEKey")
    func missingAlg() {
        let value: CBORValue = .map(ec2().mapEntries!.filter { $0.key != CBORValue(3) })
        #expect(throws: code(.malformedCOSEKey)) { try key(value) }
    }

    @Test("an unknown alg is unsupportedAlgorithm")
    func unknownAlg() {
        #expect(throws: code(.unsupportedAlgorithm)) { try key(ec2(alg: -47)) }
    }

    @Test("a kty that is not the alg's key type is malformedCOSEKey (no algorithm confusion)")
    func ktyMismatch() {
        #expect(throws: code(.malformedCOSEKey)) { try key(ec2(kty: 3)) }
    }

    @Test("an RSA algorithm on an EC2 key is malformedCOSEKey")
    func rsaAlgOnECKey() {
        #expect(throws: code(.malformedCOSEKey)) { try key(ec2(alg: -257)) }
    }

    @Test("a crv that is not the alg's curve is malformedCOSEKey")
    func crvMismatch() {
        #expect(throws: code(.malformedCOSEKey)) { try key(ec2(crv: 2)) }
    }

    @Test("a coordinate of the wrong length is malformedCOSEKey")
    func coordinateLength() {
        #expect(throws: code(.malformedCOSEKey)) { try key(ec2(x: Array(repeating: 1, count: 31))) }
    }

    @Test("a point not on the curve is malformedCOSEKey")
    func offCurve() {
        #expect(throws: code(.malformedCOSEKey)) { try key(ec2(y: Array(repeating: 1, count: 32))) }
    }

    @Test("an OKP key on another curve is malformedCOSEKey")
    func okpCurve() {
        let value: CBORValue = .map([
            CBORMapEntry(key: CBORValue(1), value: CBORValue(1)),
            CBORMapEntry(key: CBORValue(3), value: CBORValue(-8)),
            CBORMapEntry(key: CBORValue(-1), value: CBORValue(4)),
            CBORMapEntry(key: CBORValue(-2), value: .bytes(Array(repeating: 1, count: 32))),
        ])
        #expect(throws: code(.malformedCOSEKey)) { try key(value) }
    }

    @Test("an Ed25519 x that is not 32 bytes is malformedCOSEKey")
    func okpLength() {
        let value: CBORValue = .map([
            CBORMapEntry(key: CBORValue(1), value: CBORValue(1)),
            CBORMapEntry(key: CBORValue(3), value: CBORValue(-8)),
            CBORMapEntry(key: CBORValue(-1), value: CBORValue(6)),
            CBORMapEntry(key: CBORValue(-2), value: .bytes(Array(repeating: 1, count: 31))),
        ])
        #expect(throws: code(.malformedCOSEKey)) { try key(value) }
    }

    @Test("an RSA key without its modulus is malformedCOSEKey")
    func rsaMissingModulus() {
        let value: CBORValue = .map(rsa(alg: -257).mapEntries!.filter { $0.key != CBORValue(-1) })
        #expect(throws: code(.malformedCOSEKey)) { try key(value) }
    }

    @Test("an RSA modulus that is too small is malformedCOSEKey")
    func rsaTooSmall() {
        let value: CBORValue = .map([
            CBORMapEntry(key: CBORValue(1), value: CBORValue(3)),
            CBORMapEntry(key: CBORValue(3), value: CBORValue(-257)),
            CBORMapEntry(key: CBORValue(-1), value: .bytes([0xC5, 0x01])),
            CBORMapEntry(key: CBORValue(-2), value: .bytes([1, 0, 1])),
        ])
        #expect(throws: code(.malformedCOSEKey)) { try key(value) }
    }
}

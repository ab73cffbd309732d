import Crypto
import TestSupport
import Testing

/// Ed448 public keys (RFC 8032 §5.2), for the COSE Ed448 algorithm (-53) and Ed448 certificates. The key
/// and signature were made with Python's `cryptography`.
@Suite("Ed448PublicKey")
struct Ed448PublicKeyTests {
    static let spki = Hex.decode(
        "3043300506032b6571033a0022fd895daf796015892d9943e5ac1dbdd8f5ff723afc7206a32da6f9718ca6bcbe81762f"
            + "f2a2b9d1ad78f8d1d75e447fe177417cc9e5471600")
    static let raw = Hex.decode(
        "22fd895daf796015892d9943e5ac1dbdd8f5ff723afc7206a32da6f9718ca6bcbe81762ff2a2b9d1ad78f8d1d75e447f"
            + "e177417cc9e5471600")
    /// The signature of "abc".
    static let signature = Hex.decode(
        "5c1f0588b46546d65c705f162f61d725ab61268773e114b060eccdfc31b6dff662cf7e87c73bd4e43e415bfcc4cc5ecf"
            + "24916e82a14e0ae580b019ac7bac047317f26020d6d2f01551bbf605bc245ce5a07c9c944afda47abe30d75c86222a3b"
            + "f2712f1ee5489bbc1bd5ee84fbe30eac0100")

    @Test("a raw key verifies its signature of \"abc\" and refuses another message")
    func verifies() throws {
        let key = try Ed448PublicKey(rawRepresentation: Self.raw)
        #expect(key.isValidSignature(Self.signature, for: Array("abc".utf8)))
        #expect(!key.isValidSignature(Self.signature, for: Array("abd".utf8)))
    }

    @Test("a SubjectPublicKeyInfo holding Ed448 becomes .ed448, and exports the same DER")
    func fromSPKI() throws {
        let key = try PublicKey(derRepresentation: Self.spki)
        guard case .ed448(let ed448) = key else {
            Issue.record("expected an Ed448 key, got \(key)")
            return
        }
        #expect(ed448.rawRepresentation == Self.raw)
        #expect(key.derRepresentation == Self.spki)
        #expect(key.isValidSignature(Self.signature, for: Array("abc".utf8), hash: .sha512))
    }

    @Test("a raw key of any other length than 57 bytes is invalidKey")
    func wrongLength() {
        for count in [0, 32, 56, 58] {
            #expect(throws: CryptoError(.invalidKey, "")) {
                try Ed448PublicKey(rawRepresentation: [UInt8](repeating: 1, count: count))
            }
        }
    }
}

import Testing

@testable import Crypto

/// The copied-per-signature ECDSA context behind `P256SigningKey.signature(for:)`.
@Suite("ECDSASigningTemplate")
struct ECDSASigningTemplateTests {
    @Test("a P-256 key gets a template, and its signatures verify over SHA-256 of the message")
    func signsDigest() throws {
        let key = try P256SigningKey()
        let template = try #require(key.signingTemplate)
        let message: [UInt8] = Array("eyJhbGciOiJFUzI1NiJ9.e30".utf8)
        let signature = try template.sign(digest: Digest.sha256(message))
        #expect(key.publicKey.isValidSignature(signature, for: message, hash: .sha256))
        #expect(!key.publicKey.isValidSignature(signature, for: message + [0], hash: .sha256))
    }

    @Test("a digest of the wrong length is refused before OpenSSL sees it")
    func refusesWrongLength() throws {
        let template = try #require(try P256SigningKey().signingTemplate)
        #expect(throws: CryptoError(.internalFailure, "")) {
            try template.sign(digest: [UInt8](repeating: 1, count: 31))
        }
    }

    @Test("many tasks signing with one key at once all get valid, distinct signatures")
    func concurrentSigning() async throws {
        let key = try P256SigningKey()
        let signatures = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for index in 0..<64 {
                group.addTask { try key.signature(for: [UInt8(index)]) }
            }
            var all: [[UInt8]] = []
            for try await signature in group { all.append(signature) }
            return all
        }
        #expect(signatures.count == 64)
        #expect(Set(signatures).count == 64)
        for signature in signatures {
            let verified = (0..<64).contains {
                key.publicKey.isValidSignature(signature, for: [UInt8($0)], hash: .sha256)
            }
            #expect(verified)
        }
    }
}

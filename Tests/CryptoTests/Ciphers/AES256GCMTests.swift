import Testing

@testable import Crypto

@Suite("AES-256-GCM: known answers, tampering and wrong keys")
struct AES256GCMTests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    /// The GCM specification's test cases 13, 14 and 16 (McGrew and Viega, the AES-256 ones), checked here against
    /// Python's `cryptography` as well: nonce ‖ ciphertext ‖ tag.
    static let knownAnswers: [(key: String, nonce: String, plaintext: String, aad: String, sealed: String)] = [
        (
            String(repeating: "00", count: 32), String(repeating: "00", count: 12), "", "",
            "530f8afbc74536b9a963b4f1c4cb738b"
        ),
        (
            String(repeating: "00", count: 32), String(repeating: "00", count: 12), String(repeating: "00", count: 16),
            "",
            "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919"
        ),
        (
            "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
            "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f66276fc6ece0f4e1768cddf8853bb2d551b"
        ),
    ]

    @Test("the specification's test cases seal to their ciphertext and tag, and open back", arguments: 0..<3)
    func knownAnswer(index: Int) throws {
        let vector = Self.knownAnswers[index]
        let cipher = try AES256GCM(key: Self.hex(vector.key))
        let nonce = Self.hex(vector.nonce)
        let sealed = try cipher.seal(Self.hex(vector.plaintext), associatedData: Self.hex(vector.aad), nonce: nonce)
        #expect(sealed == nonce + Self.hex(vector.sealed))
        #expect(try cipher.open(sealed, associatedData: Self.hex(vector.aad)) == Self.hex(vector.plaintext))
    }

    @Test("seal draws a new nonce each time; a flipped bit anywhere, other associated data or another key fail to open")
    func tampering() throws {
        let key = try SecureRandom.bytes(count: 32)
        let cipher = try AES256GCM(key: key)
        let secret = Array("a PKCS#8 private key".utf8)
        let aad = Array("kid-1".utf8)
        let sealed = try cipher.seal(secret, associatedData: aad)
        #expect(sealed.count == 12 + secret.count + 16)
        #expect(try cipher.seal(secret, associatedData: aad) != sealed, "a fresh nonce")
        #expect(try cipher.open(sealed, associatedData: aad) == secret)
        for position in [0, 12, sealed.count - 1] {
            var flipped = sealed
            flipped[position] ^= 0x01
            #expect(throws: CryptoError(.authenticationFailed, "")) { try cipher.open(flipped, associatedData: aad) }
        }
        #expect(throws: CryptoError(.authenticationFailed, "")) {
            try cipher.open(sealed, associatedData: Array("kid-2".utf8))
        }
        var otherKey = key
        otherKey[0] ^= 0x80
        #expect(throws: CryptoError(.authenticationFailed, "")) {
            try AES256GCM(key: otherKey).open(sealed, associatedData: aad)
        }
        #expect(throws: CryptoError(.authenticationFailed, "")) {
            try cipher.open(Array(sealed.prefix(27)), associatedData: aad)
        }
        #expect(throws: CryptoError(.invalidKey, "")) { try AES256GCM(key: Array(key.prefix(16))) }
    }

    @Test("one cipher seals and opens from many tasks at once (its keyed contexts are copied, never shared)")
    func concurrentUse() async throws {
        let cipher = try AES256GCM(key: try SecureRandom.bytes(count: 32))
        let aad = Array("purpose".utf8)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let plaintext = [UInt8](repeating: UInt8(index), count: index)
                    let sealed = try cipher.seal(plaintext, associatedData: aad)
                    return try cipher.open(sealed, associatedData: aad) == plaintext
                }
            }
            var all: [Bool] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }

    @Test("a nonce of any length but 12 bytes is refused before OpenSSL reads it")
    func nonceLength() throws {
        let cipher = try AES256GCM(key: [UInt8](repeating: 7, count: 32))
        for length in [0, 8, 11, 13, 16] {
            #expect(throws: CryptoError(.internalFailure, "")) {
                try cipher.seal([1, 2, 3], associatedData: [], nonce: [UInt8](repeating: 0, count: length))
            }
        }
    }
}

import Crypto
import TestSupport
import Testing

@Suite("Digest")
struct DigestTests {
    // FIPS 180-4 example "abc" (NIST CSRC examples).
    static let abc = Array("abc".utf8)

    @Test("SHA-1/256/384/512 of \"abc\" match the FIPS 180-4 examples")
    func knownAnswers() {
        #expect(Hex.encode(Digest.hash(Self.abc, using: .sha1)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            Hex.encode(Digest.sha256(Self.abc))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Hex.encode(Digest.hash(Self.abc, using: .sha384))
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(
            Hex.encode(Digest.hash(Self.abc, using: .sha512))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        )
    }

    @Test("the empty message hashes, and every digest has digestByteCount bytes")
    func emptyMessage() {
        #expect(
            Hex.encode(Digest.sha256([]))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        for algorithm in HashAlgorithm.allCases {
            #expect(Digest.hash([1, 2, 3], using: algorithm).count == algorithm.digestByteCount)
        }
    }

    @Test("any collection of bytes hashes as the array of the same bytes")
    func collections() {
        let wide: [UInt8] = [0] + Self.abc + [0]
        for algorithm in HashAlgorithm.allCases {
            let expected = Digest.hash(Self.abc, using: algorithm)
            #expect(Digest.hash(wide[1..<(wide.count - 1)], using: algorithm) == expected)
            #expect(Digest.hash("abc".utf8, using: algorithm) == expected)
            #expect(Digest.hash(AnyCollection(Self.abc), using: algorithm) == expected)
        }
    }
}

import Crypto
import Foundation
import TestSupport
import Testing

@testable import Metadata

@Suite("BuiltinMetadataRoot and MetadataError")
struct BuiltinMetadataRootTests {
    @Test("the built-in MDS root is GlobalSign Root CA - R3, SHA-256 cbb522d7…c963c53b, equal to the Fixtures file")
    func root() throws {
        let root = try #require(BuiltinMetadataRoot.certificates.first)
        #expect(BuiltinMetadataRoot.certificates.count == 1)
        #expect(
            Hex.encode(Digest.sha256(root.derEncoded))
                == "cbb522d7b7f127ad6a0113865bdf1cd4102e7d0759af635a7cf4720dc963c53b")
        #expect(root.subject.values(forOID: "2.5.4.11") == ["GlobalSign Root CA - R3"])
        let file = try String(contentsOf: FixtureLoader.url("trust/fido_mds_root_globalsign_r3.pem"), encoding: .utf8)
        #expect(try Certificate.certificates(fromPEM: file) == BuiltinMetadataRoot.certificates)
    }

    @Test("every MetadataError code is snake_case and no two share one")
    func spelling() {
        #expect(ErrorCodeSpelling.violations(of: MetadataError.Code.self) == [])
    }
}

import Crypto
import TestSupport
import Testing

@Suite("SRP-6a")
struct SRP6aTests {
    /// RFC 5054 Appendix B: I = "alice", P = "password123", the 1024-bit group, SHA-1.
    enum RFC5054 {
        static let srp = SRP6a(group: .rfc5054Group1024, hash: .sha1)
        static let salt = hex("BEB25379D1A8581EB5A727673A2441EE")
        static let k = hex("7556AA045AEF2CDD07ABAF0F665C3E818913186F")
        static let x = hex("94B7555AABE9127CC58CCF4993DB6CF84D16C124")
        static let v = hex(
            "7E273DE8696FFC4F4E337D05B4B375BEB0DDE1569E8FA00A9886D8129BADA1F1822223CA1A605B530E379BA4729FDC59F105B47"
                + "87E5186F5C671085A1447B52A48CF1970B4FB6F8400BBF4CEBFBB168152E08AB5EA53D15C1AFF87B2B9DA6E04E058AD51CC72"
                + "BFC9033B564E26480D78E955A5E29E7AB245DB2BE315E2099AFB")
        static let a = hex("60975527035CF2AD1989806F0407210BC81EDC04E2762A56AFD529DDDA2D4393")
        static let b = hex("E487CB59D31AC550471E81F00F6928E01DDA08E974A004F49E61F5D105284D20")
        static let clientPublic = hex(
            "61D5E490F6F1B79547B0704C436F523DD0E560F0C64115BB72557EC44352E8903211C04692272D8B2D1A5358A2CF1B6E0BFCF99"
                + "F921530EC8E39356179EAE45E42BA92AEACED825171E1E8B9AF6D9C03E1327F44BE087EF06530E69F66615261EEF54073CA11"
                + "CF5858F0EDFDFE15EFEAB349EF5D76988A3672FAC47B0769447B")
        static let serverPublic = hex(
            "BD0C61512C692C0CB6D041FA01BB152D4916A1E77AF46AE105393011BAF38964DC46A0670DD125B95A981652236F99D9B681CBF"
                + "87837EC996C6DA04453728610D0C6DDB58B318885D7D82C7F8DEB75CE7BD4FBAA37089E6F9C6059F388838E7A00030B331EB7"
                + "6840910440B1B27AAEAEEB4012B7D7665238A8E3FB004B117B58")
        static let u = hex("CE38B9593487DA98554ED47D70A7AE5F462EF019")
        static let premaster = hex(
            "B0DC82BABCF30674AE450C0287745E7990A3381F63B387AAF271A10D233861E359B48220F7C4693C9AE12B0A6F67809F0876E2D"
                + "013800D6C41BB59B6D5979B5C00A172B4A2A5903A0BDCAF8A709585EB2AFAFA8F3499B200210DCC1F10EB33943CD67FC88A2F"
                + "39A4BE5BEC4EC0A3212DC346D7E474B29EDE8A469FFECA686E5A")
    }

    /// SHA-256 over the 3072-bit group, computed by PyPI `srp` 1.0.22 in RFC 5054 mode (`srp.rfc5054_enable()`,
    /// `NG_CUSTOM` with OpenSSL's RFC 3526 prime, g = 5) with a = 0x11 × 32 and b = 0x22 × 32: the interop target.
    enum PySRP {
        static let identity = "alice@example.com"
        static let password = "correct horse battery staple"
        static let salt: [UInt8] = Array(1...16)
        static let a = [UInt8](repeating: 0x11, count: 32)
        static let b = [UInt8](repeating: 0x22, count: 32)
        static let v = hex(
            "dc5d4d3f6300d8b1500ec16a62e89250392d382fd72ee9ca3b57850f6409e6cb618fcfbd1e83fc7b1d05b78d7182657513b7a91"
                + "40bcde8b3491f1afad3ddb0a67172c3599ba1a08e2cf1dfd4ca4e4841de0d3e428140b3a5cef2d5c57ae33e4307138de64e6a"
                + "7ab4aa5209572c49ee2603a3120dcbe121949f6f74cb1450d21fee1e9ac31a2ccc31fc498df20e49aeef0c645d03b79f83614"
                + "a1196f38ff998c79a9b553fce478e38a9ceb2d2121979de3f9c343c80f9f6ce8fc6229a3d2eb4ec730dee262b9603748f810e"
                + "3279de520e539c737f643dec13eb3ba07e788c14592f02c0cfad4e595c3bf68c58d83d882f1ec1e7670830183a9cfbcd0fd1e"
                + "66173d58bf19a76050c52341b978fa24c63044be3751bf7e1a9b0b99da51b06390bdc805ff872c2b26fec79bb83a081ece1a6"
                + "57acdc65dd569cf6fc60c4bffec91553aaaf7a17f4a1fe8c5112f86abcac2c058272fee2fbc2918d264020a448fcca88dc444"
                + "73815fea045fe3b101aeaf83f963e5fac245da2b39715b33ecbed68849f")
        static let clientPublic = hex(
            "c95341372ca4d0b469f87c0ae37bda635713223b577ef5e8d64a959a54e5395722fea50e71bbd44306055760924a64885805ae1"
                + "3545fcfc7e65f4e7b75c765a112d267f79bffb8353d96ae81cfa64ca7eb687a5dba4cf223b21e1362489ca3e056254b25f610"
                + "c00643490ea19944f6d3d0872bdcc5fc338bebc8936f30b695924e117f364a4cfc3898eeaa1a4bb98957df8eb046eba3cf425"
                + "58138ca616a1dc7991426292dd258693bbd4c11816e3064e4a7c536f7255ae61735db25e3cf0349eb8b3e9848d0aa572b0f80"
                + "9d8983f1b280581aba96104422fcf088b698f8d899115a5653cc473e87f5e45552a5a126c8b7fc273bd2cd12bfb15ff3501a5"
                + "72b17608f16c33f6e971081f3af1be37a0a96748f60d204e935f6a5d2a71303aea434b45bcb9ab6b4444208d3fdf7a00c07a3"
                + "ba2a09b56b578170c78ba1573ca2692406ba8d461e43bb3d160f0024a388d7234236537e29c3604f666c69d7244eae29a0e8b"
                + "9fa5ee490890e5892973fa535707fbe8f06e90dcbb99c7b39b5eb2b45fb")
        static let serverPublic = hex(
            "55ffde7d27d96ade79c3ee6b9968c70bcb10fdead13cefcb79b480a71bd031cbdec92191f0a519403f1c73e47c63ecc50561b0b"
                + "ba8da110ac362a7a7d2cab3fd2184690e94c09c75ac99f5e3c301a6ff2f9b2bc3981df6bd2be22915dc51c27910a5d19e4e54"
                + "dfde02faab899f0a9a34e259cff05fc4b1fb1d21caaf3df74a518fd6f66fe9aa7272b081b8eae4786c55a40d02d991bf76ca3"
                + "e7857a3ce92c72f54c0147584df29120c59a360fc68f1a40d0685fb27f8d3c74e4c45ef5676df31a121621395e859a29930e3"
                + "813185e12ead50dfe987a6df5dafc1f05850bb67ece80103d24a1db3e1e0846b59942f072b96a38725f01f79b1ccc6d5e49d0"
                + "6806a9ba4214be3c2c87ed63ccdfb0d734ffe7b75a1cefac94e740288a2b80b88f3e6c7af8cab2f698a9759a66ef9e31bd345"
                + "b11817c6791cf2fd49e75e191c67b9fa4aaed0285ee5b9a259009bcb625baa5508e6afa43f1547f4cda3987b18c08140109cc"
                + "7f6aa4926732fbed00323f0b0c222f0c6750bca9ef6436bb4a987218add")
        static let clientProof = hex("b1fef219acd8e4b3e685ada24a31aacc5ee84d87778ff22d20ad8b510e49d4f3")
        static let serverProof = hex("408490e93c28f707ce894a7101b86f9964411adb24afe4722196f3f781e65105")
    }

    static func hex(_ text: String) -> [UInt8] {
        Hex.decode(text.lowercased())
    }

    @Test("RFC 5054 Appendix B: k, x, v, A, B, u and S (1024-bit group, SHA-1)")
    func rfc5054Vectors() throws {
        let srp = RFC5054.srp
        #expect(srp.multiplier() == RFC5054.k)
        let x = srp.privateKey(identity: "alice", password: "password123", salt: RFC5054.salt)
        #expect(x == RFC5054.x)
        #expect(try srp.verifier(privateKey: x) == RFC5054.v)
        #expect(try srp.clientPublic(secret: RFC5054.a) == RFC5054.clientPublic)
        #expect(try srp.serverPublic(verifier: RFC5054.v, secret: RFC5054.b) == RFC5054.serverPublic)
        #expect(
            srp.scramblingParameter(clientPublic: RFC5054.clientPublic, serverPublic: RFC5054.serverPublic) == RFC5054.u
        )
        let serverS = try srp.serverPremasterSecret(
            clientPublic: RFC5054.clientPublic, verifier: RFC5054.v, serverSecret: RFC5054.b,
            serverPublic: RFC5054.serverPublic)
        #expect(serverS == RFC5054.premaster)
        let clientS = try srp.clientPremasterSecret(
            serverPublic: RFC5054.serverPublic, privateKey: x, clientSecret: RFC5054.a,
            clientPublic: RFC5054.clientPublic)
        #expect(clientS == RFC5054.premaster)
    }

    @Test("SHA-256 / 3072-bit: v, A, B, M1 and M2 equal what PyPI srp 1.0.22 computes")
    func pySRPVector() throws {
        let srp = SRP6a(group: try .rfc5054Group3072(), hash: .sha256)
        let x = srp.privateKey(identity: PySRP.identity, password: PySRP.password, salt: PySRP.salt)
        #expect(try srp.verifier(privateKey: x) == PySRP.v)
        #expect(try srp.clientPublic(secret: PySRP.a) == PySRP.clientPublic)
        #expect(try srp.serverPublic(verifier: PySRP.v, secret: PySRP.b) == PySRP.serverPublic)
        let m2 = try srp.verifyClientProof(
            PySRP.clientProof, identity: PySRP.identity, salt: PySRP.salt, verifier: PySRP.v,
            clientPublic: PySRP.clientPublic,
            serverSecret: PySRP.b, serverPublic: PySRP.serverPublic)
        #expect(m2 == PySRP.serverProof)
        // The client side of this module agrees too.
        let clientS = try srp.clientPremasterSecret(
            serverPublic: PySRP.serverPublic, privateKey: x, clientSecret: PySRP.a, clientPublic: PySRP.clientPublic)
        let m1 = srp.clientProof(
            identity: PySRP.identity, salt: PySRP.salt, clientPublic: PySRP.clientPublic,
            serverPublic: PySRP.serverPublic,
            sessionKey: srp.sessionKey(premasterSecret: clientS))
        #expect(m1 == PySRP.clientProof)
    }

    @Test("a wrong M1 (one bit flipped, or another length) gives no M2")
    func wrongProof() throws {
        let srp = SRP6a(group: try .rfc5054Group3072(), hash: .sha256)
        var flipped = PySRP.clientProof
        flipped[5] ^= 0x01
        for proof in [flipped, Array(PySRP.clientProof.dropLast()), []] {
            let m2 = try srp.verifyClientProof(
                proof, identity: PySRP.identity, salt: PySRP.salt, verifier: PySRP.v, clientPublic: PySRP.clientPublic,
                serverSecret: PySRP.b, serverPublic: PySRP.serverPublic)
            #expect(m2 == nil)
        }
        // Another identity changes H(I) in M1.
        let other = try srp.verifyClientProof(
            PySRP.clientProof, identity: "mallory@example.com", salt: PySRP.salt, verifier: PySRP.v,
            clientPublic: PySRP.clientPublic,
            serverSecret: PySRP.b, serverPublic: PySRP.serverPublic)
        #expect(other == nil)
    }

    @Test("A and the verifier must be in 1..<N: 0, N, 2^3072 − 1 and N + 2^3072 are refused (RFC 5054 §2.5.4)")
    func groupElementChecks() throws {
        let group = try SRPGroup.rfc5054Group3072()
        let srp = SRP6a(group: group, hash: .sha256)
        let n = group.prime
        let allOnes = [UInt8](repeating: 0xFF, count: n.count)  // 2^3072 − 1 > N
        let twoN = [UInt8](repeating: 0, count: 1) + n  // N again, with a leading zero byte
        for bad in [[], [0], [0, 0], n, allOnes, [1] + n] {
            #expect(throws: CryptoError(.invalidKey, "")) { try srp.checkClientPublic(bad) }
            #expect(throws: CryptoError(.invalidKey, "")) { try srp.checkVerifier(bad) }
        }
        // A leading zero byte does not change the value: N spelled with one is still refused.
        #expect(throws: CryptoError(.invalidKey, "")) { try srp.checkClientPublic(twoN) }
        try srp.checkClientPublic(PySRP.clientPublic)
        try srp.checkVerifier(PySRP.v)
        try srp.checkClientPublic([1])
    }

    @Test("PAD() widens to the length of N and keeps the value")
    func padding() {
        let srp = RFC5054.srp
        #expect(srp.pad([2]).count == 128)
        #expect(srp.pad([2]).last == 2)
        #expect(srp.pad([0, 0, 2]) == srp.pad([2]))
    }
}

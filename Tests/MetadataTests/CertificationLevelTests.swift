import Testing

@testable import Metadata

@Suite("CertificationLevel")
struct CertificationLevelTests {
    @Test("levels order L1 < L1plus < L2 < L2plus < L3 < L3plus, spelled as MDS spells them")
    func order() {
        #expect(CertificationLevel.allCases == [.l1, .l1plus, .l2, .l2plus, .l3, .l3plus])
        #expect(CertificationLevel.allCases.sorted() == CertificationLevel.allCases)
        #expect(CertificationLevel.l1 < .l1plus && CertificationLevel.l2plus < .l3)
        #expect(CertificationLevel(rawValue: "FIDO_CERTIFIED_L2plus") == .l2plus)
        #expect(CertificationLevel(rawValue: "FIDO_CERTIFIED") == nil)
    }
}

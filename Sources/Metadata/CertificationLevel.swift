/// A FIDO certification level (FIDO MDS3 §3.1.4, `FIDO_CERTIFIED_L1` … `FIDO_CERTIFIED_L3plus`), ordered from the
/// lowest: the one home of the level order (Configuration parses `minimum_certification` with it).
package enum CertificationLevel: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// `FIDO_CERTIFIED_L1` (and plain `FIDO_CERTIFIED`).
    case l1 = "FIDO_CERTIFIED_L1"
    /// `FIDO_CERTIFIED_L1plus`.
    case l1plus = "FIDO_CERTIFIED_L1plus"
    /// `FIDO_CERTIFIED_L2`.
    case l2 = "FIDO_CERTIFIED_L2"
    /// `FIDO_CERTIFIED_L2plus`.
    case l2plus = "FIDO_CERTIFIED_L2plus"
    /// `FIDO_CERTIFIED_L3`.
    case l3 = "FIDO_CERTIFIED_L3"
    /// `FIDO_CERTIFIED_L3plus`.
    case l3plus = "FIDO_CERTIFIED_L3plus"

    /// The MDS spelling.
    package var description: String { rawValue }

    /// The position in `allCases` (declaration order is the level order).
    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// Lower levels first.
    package static func < (lhs: CertificationLevel, rhs: CertificationLevel) -> Bool { lhs.rank < rhs.rank }
}

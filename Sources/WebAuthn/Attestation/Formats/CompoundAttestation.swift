import CBOR

/// The "compound" attestation statement format (WebAuthn L3 §8.9): several self-contained attestation statements
/// of other formats in one ceremony.
///
/// `attStmt = [2* nonCompoundAttStmt]`, each `{fmt: text .ne "compound", attStmt: …}` as that format defines it.
///
/// Not an `AttestationStatementFormat`: its verification procedure runs the procedures of the formats its entries
/// name, which `AttestationFormatRegistry.verify(format:_:)` holds. The relying-party policy §8.9 leaves open is this
/// server's: every entry must name a supported format and pass its procedure (one that fails is refused as it would
/// be on its own), and the registration's trust is that of the best-trusted entry (`RegistrationVerifier`).
public enum CompoundAttestation {
    /// "compound".
    public static let identifier = "compound"

    /// One entry of a compound statement: a format identifier and that format's statement.
    public struct Entry: Sendable {
        /// The entry's `fmt`.
        public let format: String
        /// The entry's `attStmt`.
        public let statement: CBORValue
    }

    /// The entries of `statement` (WebAuthn L3 §8.9 syntax).
    /// - Throws: `.compoundMalformedStatement` when attStmt is not an array of at least two maps, or an entry has no
    ///   text `fmt`, names `compound` itself, or has no `attStmt`.
    public static func entries(of statement: CBORValue) throws(WebAuthnError) -> [Entry] {
        guard let elements = statement.arrayValue else {
            throw WebAuthnError(.compoundMalformedStatement, "compound: attStmt is not an array")
        }
        // §8.9 syntax: `[2* nonCompoundAttStmt]`, at least two entries.
        guard elements.count >= 2 else {
            throw WebAuthnError(
                .compoundMalformedStatement, "compound: attStmt has \(elements.count) entries, at least 2 are required")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .map = element else {
                throw WebAuthnError(.compoundMalformedStatement, "compound: attStmt[\(index)] is not a map")
            }
            guard let format = element[text: "fmt"]?.textValue else {
                throw WebAuthnError(.compoundMalformedStatement, "compound: attStmt[\(index)].fmt missing or not text")
            }
            // §8.9 syntax: `fmt: text .ne "compound"`, no nesting.
            guard format != identifier else {
                throw WebAuthnError(.compoundMalformedStatement, "compound: attStmt[\(index)] is itself compound")
            }
            guard let entryStatement = element[text: "attStmt"] else {
                throw WebAuthnError(.compoundMalformedStatement, "compound: attStmt[\(index)].attStmt missing")
            }
            entries.append(Entry(format: format, statement: entryStatement))
        }
        return entries
    }
}

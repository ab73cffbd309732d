/// Maps an attestation object's `fmt` to the format that verifies it (WebAuthn L3 §7.1 step 21:
/// USASCII case-sensitive match against the supported formats).
public struct AttestationFormatRegistry: Sendable {
    private let formats: [String: any AttestationStatementFormat]
    /// Whether `compound` statements (WebAuthn L3 §8.9) of the other formats are verified.
    public let supportsCompound: Bool

    /// Every format this server implements, one file each under `Attestation/Formats/`.
    /// When a format is added, list its type here.
    public static let standard = AttestationFormatRegistry(
        [
            NoneAttestation.self,  // §8.7 "none"
            PackedAttestation.self,  // §8.2 "packed"
            FIDOU2FAttestation.self,  // §8.6 "fido-u2f"
            TPMAttestation.self,  // §8.3 "tpm"
            AndroidKeyAttestation.self,  // §8.4 "android-key"
            AndroidSafetyNetAttestation.self,  // §8.5 "android-safetynet"
            AppleAttestation.self,  // §8.8 "apple"
        ], compound: true)  // §8.9 "compound", of the formats above

    /// A registry of exactly `formats` (a later duplicate identifier replaces an earlier one), and of `compound`
    /// statements of them when `compound` is true.
    public init(_ formats: [any AttestationStatementFormat.Type], compound: Bool = false) {
        var table: [String: any AttestationStatementFormat] = [:]
        for format in formats { table[format.identifier] = format.init() }
        self.formats = table
        self.supportsCompound = compound
    }

    /// The format for `identifier`, or `nil` when it is not supported (or is `compound`, which `verify` runs).
    public func format(for identifier: String) -> (any AttestationStatementFormat)? {
        formats[identifier]
    }

    /// Whether `identifier` is a supported format (WebAuthn L3 §7.1 step 21), `compound` included when supported.
    public func supports(_ identifier: String) -> Bool {
        formats[identifier] != nil || (supportsCompound && identifier == CompoundAttestation.identifier)
    }

    /// The supported identifiers, sorted.
    public var identifiers: [String] {
        (Array(formats.keys) + (supportsCompound ? [CompoundAttestation.identifier] : [])).sorted()
    }

    /// WebAuthn L3 §7.1 steps 21–22: runs the verification procedure of the format `identifier` names on `input`.
    /// - Returns: one verified statement for a format of its own; for `compound` (§8.9), one per entry, in order,
    ///   every entry verified by its format's procedure.
    /// - Throws: `.unsupportedAttestationFormat` for a format (or a compound entry's) that is not supported;
    ///   `.compoundMalformedStatement` for a compound statement's syntax; otherwise the format's own error, for a
    ///   compound entry with its index and format in the reason.
    public func verify(format identifier: String, _ input: AttestationStatementInput) throws(WebAuthnError)
        -> [VerifiedAttestationStatement]
    {
        if let format = formats[identifier] {
            return [VerifiedAttestationStatement(format: identifier, result: try format.verify(input))]
        }
        guard supportsCompound, identifier == CompoundAttestation.identifier else {
            throw WebAuthnError(.unsupportedAttestationFormat, "fmt \"\(identifier.prefix(64))\"")
        }
        let entries = try CompoundAttestation.entries(of: input.statement)
        var verified: [VerifiedAttestationStatement] = []
        verified.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            // §8.9 step 1: each entry's own procedure, with the same authenticatorData and clientDataHash. This
            // relying party's policy (§8.9 steps 1–2): every entry must verify, as a statement on its own must.
            let entryName = "compound attStmt[\(index)] (\(entry.format.prefix(64)))"
            guard let format = formats[entry.format] else {
                throw WebAuthnError(.unsupportedAttestationFormat, "\(entryName): not a supported format")
            }
            let entryInput = AttestationStatementInput(
                statement: entry.statement, authenticatorData: input.authenticatorData,
                clientDataHash: input.clientDataHash, verificationTime: input.verificationTime)
            do {
                verified.append(
                    VerifiedAttestationStatement(format: entry.format, result: try format.verify(entryInput)))
            } catch {
                throw WebAuthnError(error.code, "\(entryName): \(error.reason)", file: error.file, line: error.line)
            }
        }
        return verified
    }
}

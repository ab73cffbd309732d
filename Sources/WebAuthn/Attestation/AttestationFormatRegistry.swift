/// Maps an attestation object's `fmt` to the format that verifies it (WebAuthn L3 §7.1 step 21:
/// USASCII case-sensitive match against the supported formats).
public struct AttestationFormatRegistry: Sendable {
    private let formats: [String: any AttestationStatementFormat]

    /// Every format this server implements, one file each under `Attestation/Formats/`.
    /// When a format is added, list its type here (tpm, android-key, android-safetynet and apple come
    /// from h/attest and are added at merge time).
    public static let standard = AttestationFormatRegistry([
        NoneAttestation.self,  // §8.7 "none"
        PackedAttestation.self,  // §8.2 "packed"
        FIDOU2FAttestation.self,  // §8.6 "fido-u2f"
    ])

    /// A registry of exactly `formats` (a later duplicate identifier replaces an earlier one).
    public init(_ formats: [any AttestationStatementFormat.Type]) {
        var table: [String: any AttestationStatementFormat] = [:]
        for format in formats { table[format.identifier] = format.init() }
        self.formats = table
    }

    /// The format for `identifier`, or `nil` when it is not supported.
    public func format(for identifier: String) -> (any AttestationStatementFormat)? {
        formats[identifier]
    }

    /// The supported identifiers, sorted.
    public var identifiers: [String] { formats.keys.sorted() }
}

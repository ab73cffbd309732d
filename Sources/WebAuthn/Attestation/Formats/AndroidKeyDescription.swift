import Crypto

/// The Android Key Attestation extension (OID 1.3.6.1.4.1.11129.2.1.17) of an `android-key` attestation
/// certificate, reduced to the fields WebAuthn L3 §8.4.2 checks.
///
/// ```
/// KeyDescription ::= SEQUENCE {
///     attestationVersion INTEGER, attestationSecurityLevel SecurityLevel,
///     keyMintVersion INTEGER, keyMintSecurityLevel SecurityLevel,
///     attestationChallenge OCTET STRING, uniqueId OCTET STRING,
///     softwareEnforced AuthorizationList, hardwareEnforced AuthorizationList }   -- "teeEnforced" in WebAuthn
/// ```
/// (Android Key and ID Attestation schema; field names changed across versions, positions did not.)
struct AndroidKeyDescription: Sendable {
    /// The extension OID (Android Key Attestation).
    static let oid = "1.3.6.1.4.1.11129.2.1.17"

    /// The fields of one `AuthorizationList` that WebAuthn looks at. Every field of the list is
    /// `[tag] EXPLICIT` and optional; the others are skipped.
    struct AuthorizationList: Sendable {
        /// `purpose [1] EXPLICIT SET OF INTEGER`, nil when absent.
        let purposes: [Int]?
        /// `origin [702] EXPLICIT INTEGER`, nil when absent.
        let origin: Int?
        /// Whether `allApplications [600] EXPLICIT NULL` is present.
        let allApplications: Bool

        /// Reads an AuthorizationList SEQUENCE.
        init(node: DERNode) throws(CryptoError) {
            var purposes: [Int]?
            var origin: Int?
            var allApplications = false
            for field in try node.children() {
                guard field.tagClass == .contextSpecific else {
                    throw CryptoError(.invalidDER, "AuthorizationList field is not context-tagged")
                }
                switch field.tagNumber {
                case 1:
                    var values: [Int] = []
                    for member in try Self.explicitValue(field).children() {
                        values.append(try member.integerValue())
                    }
                    purposes = values
                case 702:
                    origin = try Self.explicitValue(field).integerValue()
                case 600:
                    allApplications = true
                default:
                    continue
                }
            }
            self.purposes = purposes
            self.origin = origin
            self.allApplications = allApplications
        }

        /// The single element inside an `[n] EXPLICIT` wrapper.
        private static func explicitValue(_ field: DERNode) throws(CryptoError) -> DERNode {
            let inner = try field.children()
            guard inner.count == 1, let value = inner.first else {
                throw CryptoError(.invalidDER, "[\(field.tagNumber)] EXPLICIT holds \(inner.count) elements")
            }
            return value
        }
    }

    /// `attestationVersion`.
    let attestationVersion: Int
    /// `attestationChallenge`: the challenge the app passed to the keystore, for WebAuthn the clientDataHash.
    let attestationChallenge: [UInt8]
    /// `softwareEnforced`.
    let softwareEnforced: AuthorizationList
    /// `teeEnforced` (`hardwareEnforced` in KeyMint).
    let teeEnforced: AuthorizationList

    /// Parses the extension value (extnValue contents).
    /// - Throws: `.androidKeyMalformedKeyDescription` when it is not a KeyDescription.
    init(extensionValue: [UInt8]) throws(WebAuthnError) {
        do {
            let fields = try DERNode.parse(extensionValue).children()
            guard fields.count >= 8 else {
                throw CryptoError(.invalidDER, "KeyDescription has \(fields.count) fields, expected 8")
            }
            attestationVersion = try fields[0].integerValue()
            attestationChallenge = try fields[4].octetString()
            softwareEnforced = try AuthorizationList(node: fields[6])
            teeEnforced = try AuthorizationList(node: fields[7])
        } catch {
            throw WebAuthnError(.androidKeyMalformedKeyDescription, "key description does not parse: \(error)")
        }
    }
}

/// The Android Key Attestation extension (OID 1.3.6.1.4.1.11129.2.1.17) of a Keystore attestation certificate:
/// one parser for WebAuthn's `android-key` format (WebAuthn L3 §8.4) and for device-key enrolment
/// (docs/device-keys.md), reduced to the fields they check.
///
/// ```
/// KeyDescription ::= SEQUENCE {
///     attestationVersion INTEGER, attestationSecurityLevel SecurityLevel,
///     keyMintVersion INTEGER, keyMintSecurityLevel SecurityLevel,
///     attestationChallenge OCTET STRING, uniqueId OCTET STRING,
///     softwareEnforced AuthorizationList, hardwareEnforced AuthorizationList }   -- "teeEnforced" in WebAuthn
/// SecurityLevel ::= ENUMERATED { Software (0), TrustedEnvironment (1), StrongBox (2) }
/// ```
/// (Android Key and ID Attestation schema; field names changed across versions, positions did not.)
public struct AndroidKeyDescription: Sendable, Hashable {
    /// The extension OID (Android Key Attestation).
    public static let oid = CertificateExtension.OID.androidKeyDescription

    /// Where the key lives (`SecurityLevel`).
    public enum SecurityLevel: Int, Sendable, Hashable {
        /// Android's software keystore: the key is not hardware-bound.
        case software = 0
        /// A trusted execution environment (TEE).
        case trustedEnvironment = 1
        /// A StrongBox secure element.
        case strongBox = 2
    }

    /// `RootOfTrust.verifiedBootState`.
    public enum VerifiedBootState: Int, Sendable, Hashable {
        /// The boot chain is verified with Google's or the OEM's key.
        case verified = 0
        /// Verified with a key the user installed.
        case selfSigned = 1
        /// An unlocked bootloader: anything may run.
        case unverified = 2
        /// Verification failed.
        case failed = 3
    }

    /// `AttestationApplicationId` (the DER inside the `[709]` OCTET STRING): the app(s) of the key's uid.
    ///
    /// ```
    /// AttestationApplicationId ::= SEQUENCE {
    ///     package_infos SET OF AttestationPackageInfo, signature_digests SET OF OCTET STRING }
    /// AttestationPackageInfo ::= SEQUENCE { package_name OCTET STRING, version INTEGER }
    /// ```
    public struct ApplicationID: Sendable, Hashable {
        /// The package names.
        public let packageNames: [String]
        /// SHA-256 digests of the apps' signing certificates.
        public let signatureDigests: [[UInt8]]

        /// Reads the DER of an AttestationApplicationId.
        init(derEncoded: [UInt8]) throws(CryptoError) {
            let fields = try DERNode.parse(derEncoded).children()
            guard fields.count == 2 else {
                throw CryptoError(.invalidDER, "AttestationApplicationId has \(fields.count) fields, expected 2")
            }
            var names: [String] = []
            for info in try fields[0].children() {
                guard let name = try info.children().first else {
                    throw CryptoError(.invalidDER, "AttestationPackageInfo is empty")
                }
                names.append(String(decoding: try name.octetString(), as: UTF8.self))
            }
            var digests: [[UInt8]] = []
            for digest in try fields[1].children() { digests.append(try digest.octetString()) }
            packageNames = names
            signatureDigests = digests
        }
    }

    /// The fields of one `AuthorizationList` that passkeyd looks at. Every field of the list is `[tag] EXPLICIT`
    /// and optional; the others are skipped.
    public struct AuthorizationList: Sendable, Hashable {
        /// `purpose [1] EXPLICIT SET OF INTEGER`, nil when absent.
        public let purposes: [Int]?
        /// Whether `noAuthRequired [503] EXPLICIT NULL` is present: the key is usable without user authentication.
        public let noAuthRequired: Bool
        /// `userAuthType [504] EXPLICIT INTEGER` (bit field: 1 password, 2 biometric), nil when absent.
        public let userAuthType: Int?
        /// `authTimeout [505] EXPLICIT INTEGER` in seconds, nil when absent (authentication per use).
        public let authTimeout: Int?
        /// Whether `allApplications [600] EXPLICIT NULL` is present.
        public let allApplications: Bool
        /// `origin [702] EXPLICIT INTEGER`, nil when absent.
        public let origin: Int?
        /// `rootOfTrust [704]`'s verifiedBootState, nil when absent.
        public let verifiedBootState: VerifiedBootState?
        /// `attestationApplicationId [709] EXPLICIT OCTET STRING`, nil when absent.
        public let applicationID: ApplicationID?

        /// Reads an AuthorizationList SEQUENCE.
        init(node: DERNode) throws(CryptoError) {
            var purposes: [Int]?
            var noAuthRequired = false
            var userAuthType: Int?
            var authTimeout: Int?
            var allApplications = false
            var origin: Int?
            var verifiedBootState: VerifiedBootState?
            var applicationID: ApplicationID?
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
                case 503:
                    noAuthRequired = true
                case 504:
                    userAuthType = try Self.explicitValue(field).integerValue()
                case 505:
                    authTimeout = try Self.explicitValue(field).integerValue()
                case 600:
                    allApplications = true
                case 702:
                    origin = try Self.explicitValue(field).integerValue()
                case 704:
                    // RootOfTrust ::= SEQUENCE { verifiedBootKey OCTET STRING, deviceLocked BOOLEAN,
                    //     verifiedBootState VerifiedBootState, verifiedBootHash OCTET STRING (v3+) }
                    let rootOfTrust = try Self.explicitValue(field).children()
                    guard rootOfTrust.count >= 3 else {
                        throw CryptoError(.invalidDER, "RootOfTrust has \(rootOfTrust.count) fields")
                    }
                    let state = try rootOfTrust[2].integerValue()
                    guard let known = VerifiedBootState(rawValue: state) else {
                        throw CryptoError(.invalidDER, "unknown verifiedBootState \(state)")
                    }
                    verifiedBootState = known
                case 709:
                    applicationID = try ApplicationID(derEncoded: try Self.explicitValue(field).octetString())
                default:
                    continue
                }
            }
            self.purposes = purposes
            self.noAuthRequired = noAuthRequired
            self.userAuthType = userAuthType
            self.authTimeout = authTimeout
            self.allApplications = allApplications
            self.origin = origin
            self.verifiedBootState = verifiedBootState
            self.applicationID = applicationID
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

    /// KM_ORIGIN_GENERATED: the key was generated inside the keystore.
    public static let originGenerated = 0
    /// KM_PURPOSE_SIGN: the key may sign.
    public static let purposeSign = 2
    /// HW_AUTH_BIOMETRIC: the `userAuthType` bit of a biometric authentication.
    public static let userAuthBiometric = 2

    /// `attestationVersion`.
    public let attestationVersion: Int
    /// `attestationSecurityLevel`: where the attestation was made.
    public let attestationSecurityLevel: SecurityLevel
    /// `keyMintSecurityLevel` (`keymasterSecurityLevel`): where the key lives.
    public let keyMintSecurityLevel: SecurityLevel
    /// `attestationChallenge`: the challenge the app passed to the keystore (WebAuthn: the clientDataHash).
    public let attestationChallenge: [UInt8]
    /// `softwareEnforced`.
    public let softwareEnforced: AuthorizationList
    /// `teeEnforced` (`hardwareEnforced` in KeyMint).
    public let teeEnforced: AuthorizationList

    /// Parses the extension value (extnValue contents).
    /// - Throws: `.invalidDER` when it is not a KeyDescription.
    public init(extensionValue: [UInt8]) throws(CryptoError) {
        let fields = try DERNode.parse(extensionValue).children()
        guard fields.count >= 8 else {
            throw CryptoError(.invalidDER, "KeyDescription has \(fields.count) fields, expected 8")
        }
        attestationVersion = try fields[0].integerValue()
        attestationSecurityLevel = try Self.securityLevel(fields[1])
        keyMintSecurityLevel = try Self.securityLevel(fields[3])
        attestationChallenge = try fields[4].octetString()
        softwareEnforced = try AuthorizationList(node: fields[6])
        teeEnforced = try AuthorizationList(node: fields[7])
    }

    /// A `SecurityLevel` ENUMERATED.
    private static func securityLevel(_ node: DERNode) throws(CryptoError) -> SecurityLevel {
        let value = try node.integerValue()
        guard let level = SecurityLevel(rawValue: value) else {
            throw CryptoError(.invalidDER, "unknown SecurityLevel \(value)")
        }
        return level
    }
}

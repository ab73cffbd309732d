import Foundation

/// A registered WebAuthn public-key credential (passkey).
public struct Credential: Sendable, Hashable {
    /// The credential id chosen by the authenticator (WebAuthn L3 §4 "Credential ID"); globally unique here.
    public var credentialID: [UInt8]
    /// The owning user's id.
    public var userID: String
    /// The credential public key as the COSE_Key bytes from the attested credential data.
    public var publicKey: [UInt8]
    /// The COSE algorithm identifier (e.g. -7 ES256, -8 EdDSA, -257 RS256).
    public var algorithm: Int
    /// The last signature counter seen (WebAuthn L3 §6.1.1).
    public var signCount: UInt32
    /// Whether user verification was performed at registration (`uvInitialized`, WebAuthn L3 §4).
    public var uvInitialized: Bool
    /// The BE flag at registration (WebAuthn L3 §6.1 backup eligibility); fixed for the credential's life.
    public var backupEligible: Bool
    /// The BS flag last seen (WebAuthn L3 §6.1 backup state).
    public var backedUp: Bool
    /// Transports reported by the client (`usb`, `nfc`, `ble`, `internal`, `hybrid`, …).
    public var transports: [String]
    /// The authenticator's AAGUID (16 bytes).
    public var aaguid: [UInt8]
    /// The attestation statement format identifier (`none`, `packed`, `apple`, …).
    public var attestationFormat: String
    /// When the credential was registered.
    public var createdAt: Date
    /// When the credential last produced a valid assertion.
    public var lastUsedAt: Date?
    /// The name the user gave it (`PATCH /me/passkeys/{id}`); `nil` until renamed.
    public var name: String?
    /// For an authenticator whose AAGUID is all zero (U2F) registered with an attestation certificate: that
    /// certificate's key identifier (lower-case hex, FIDO MDS 3.0 `attestationCertificateKeyIdentifiers`), by which
    /// its model is found in metadata at login as it was at registration (`AuthenticatorModelKey`); nil otherwise.
    public var attestationKeyIdentifier: String?

    /// Creates a credential record.
    public init(
        credentialID: [UInt8], userID: String, publicKey: [UInt8], algorithm: Int, signCount: UInt32,
        uvInitialized: Bool, backupEligible: Bool, backedUp: Bool, transports: [String], aaguid: [UInt8],
        attestationFormat: String, createdAt: Date, lastUsedAt: Date? = nil, name: String? = nil,
        attestationKeyIdentifier: String? = nil
    ) {
        self.credentialID = credentialID
        self.userID = userID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.uvInitialized = uvInitialized
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.transports = transports
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.name = name
        self.attestationKeyIdentifier = attestationKeyIdentifier
    }
}

import Foundation

/// A row `StoreWriter.insert(_:)` stores unless one with the same key exists: the key of each kind is its table's
/// primary key (the only unique constraint of these tables).
public enum NewRecord: Sendable {
    /// A credential of an existing user (key: its credential id).
    case credential(Credential)
    /// An auth session (key: its id).
    case authSession(AuthSession)
    /// A refresh token (key: its hash).
    case refreshToken(RefreshToken)
    /// A signing key (key: its kid).
    case signingKey(SigningKey)
    /// A device key (key: its key id), stored as given.
    case deviceKey(DeviceKey)
    /// A device challenge (key: its id).
    case deviceChallenge(DeviceChallenge)
    /// An SRP session (key: its id).
    case srpSession(SRPSession)
    /// A device enrolment nonce (key: the nonce).
    case deviceEnrolmentNonce(DeviceEnrolmentNonce)
    /// A remembered DPoP proof (key: thumbprint and `jti`), kept until its expiry.
    case dpopProof(DPoPProofUse)
    /// A spent single-use token (key: its `jti`), kept until `expiresAt`.
    case spentToken(jwtID: String, expiresAt: Date)
    /// A spent sealed auth session (key: its id), kept until the session's `expiresAt`.
    case spentAuthSession(id: String, expiresAt: Date)
    /// A signed audit checkpoint (key: its tree size).
    case auditCheckpoint(AuditCheckpointRecord)
    /// A server secret (key: its name).
    case serverSecret(name: String, value: [UInt8])
    /// An organization (key: its id; its name is unique too, `StoreWriter.insertOrganization` tells which clashed).
    case organization(Organization)
    /// A user's membership of an organization (key: the organization's id and the user's).
    case organizationMember(OrganizationMember)
    /// A hosted-login session (key: the hash of its cookie value).
    case loginSession(LoginSession)
    /// An authorization code (key: its hash).
    case authorizationCode(AuthorizationCode)
}

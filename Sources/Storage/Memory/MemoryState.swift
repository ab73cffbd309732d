import Foundation

/// Everything the in-memory store holds: one value, copied at the start of a write and published on success.
struct MemoryState: Sendable {
    var users: [String: User] = [:]
    var credentials: [[UInt8]: Credential] = [:]
    var authSessions: [String: AuthSession] = [:]
    var refreshTokens: [[UInt8]: RefreshToken] = [:]
    /// When every session of a user was last revoked, by user id.
    var sessionsRevokedAt: [String: Date] = [:]
    var signingKeys: [String: SigningKey] = [:]
    var deviceKeys: [String: DeviceKey] = [:]
    var deviceChallenges: [String: DeviceChallenge] = [:]
    /// Remembered DPoP proofs by thumbprint and `jti`.
    var dpopProofs: [DPoPProofIdentity: Date] = [:]
    var deviceEnrolmentNonces: [String: DeviceEnrolmentNonce] = [:]
    /// In `seq` order; appended to, and purged from the oldest past their retention.
    var securityEvents: [SecurityEvent] = []
    /// The last seq given: never given again, even when the events are purged.
    var lastSecurityEventSeq: Int64 = 0
    /// Seqs of events not yet in the audit log, in append order.
    var auditPending: [Int64] = []
    /// The audit log, in index order.
    var auditLeaves: [AuditLeaf] = []
    var auditTree = AuditTreeState()
    /// The stored nodes of level 1 and more.
    var auditNodes: [AuditNodeID: [UInt8]] = [:]
    /// Every node within the first `auditNodeSize` leaves is stored.
    var auditNodeSize: Int64 = 0
    /// Signed checkpoints by tree size.
    var auditCheckpoints: [Int64: AuditCheckpointRecord] = [:]
    var passwordVerifiers: [String: PasswordVerifier] = [:]
    var srpSessions: [String: SRPSession] = [:]
    var fallbackCounters: [String: FallbackCounter] = [:]
    var serverSecrets: [String: [UInt8]] = [:]
    /// Unused recovery codes by user id.
    var recoveryCodes: [String: [RecoveryCode]] = [:]
    /// Spent single-use tokens: their expiry by `jti`.
    var spentTokens: [String: Date] = [:]
    /// Spent sealed auth sessions: their expiry by session id.
    var spentAuthSessions: [String: Date] = [:]
    /// The last readiness heartbeat.
    var heartbeat: Date?
    var organizations: [String: Organization] = [:]
    /// Memberships by organization id, then user id.
    var organizationMembers: [String: [String: OrganizationMember]] = [:]
    /// Hosted-login sessions by the hash of their cookie value.
    var loginSessions: [[UInt8]: LoginSession] = [:]
    /// Authorization codes by the hash of the code.
    var authorizationCodes: [[UInt8]: AuthorizationCode] = [:]
    /// The newest stored metadata BLOB (`metadata_blobs` keeps only it).
    var metadataBLOB: MetadataBLOBRecord?
}

/// The identity of a remembered DPoP proof: its key's thumbprint and its `jti`.
struct DPoPProofIdentity: Sendable, Hashable {
    let thumbprint: String
    let jwtID: String
}

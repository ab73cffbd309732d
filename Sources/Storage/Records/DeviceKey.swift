import Foundation

/// An app-bound, hardware-backed P-256 key registered by a logged-in app.
public struct DeviceKey: Sendable, Hashable {
    /// The key's lifecycle state.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Usable for approvals.
        case active
        /// Locked after repeated failures, until the user logs in again with a passkey.
        case locked
        /// Revoked for good (replaced, deleted, biometry changed).
        case revoked
    }

    /// The server-assigned key id.
    public var keyID: String
    /// The owner.
    public var userID: String
    /// The app-chosen device id; one active key per (user, device).
    public var deviceID: String
    /// `ios` or `android`.
    public var platform: String
    /// The public key as SubjectPublicKeyInfo DER.
    public var publicKey: [UInt8]
    /// The lifecycle state.
    public var status: Status
    /// Consecutive failed approvals.
    public var failedAttempts: Int
    /// When the key was locked.
    public var lockedAt: Date?
    /// When the key was registered.
    public var createdAt: Date
    /// When the key last approved an action.
    public var lastUsedAt: Date?
    /// When the key was revoked.
    public var revokedAt: Date?
    /// The platform key attestation verified at enrolment, if any.
    public var attestation: DeviceKeyAttestation?
    /// The RFC 7638 thumbprint of the DPoP key (RFC 9449) the enrolling access token was bound to: a proof by that
    /// key is proof of the device for what only the device may do (a revocation, a lockout); `nil` when the
    /// enrolment was made with a Bearer token.
    public var dpopThumbprint: String?

    /// Creates a device-key record.
    public init(
        keyID: String, userID: String, deviceID: String, platform: String, publicKey: [UInt8],
        status: Status = .active, failedAttempts: Int = 0, lockedAt: Date? = nil, createdAt: Date,
        lastUsedAt: Date? = nil, revokedAt: Date? = nil, attestation: DeviceKeyAttestation? = nil,
        dpopThumbprint: String? = nil
    ) {
        self.keyID = keyID
        self.userID = userID
        self.deviceID = deviceID
        self.platform = platform
        self.publicKey = publicKey
        self.status = status
        self.failedAttempts = failedAttempts
        self.lockedAt = lockedAt
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
        self.attestation = attestation
        self.dpopThumbprint = dpopThumbprint
    }
}

import Foundation

/// The mutable part of a device key, written as one unit by `StoreWriter.updateDeviceKeyState`.
public struct DeviceKeyState: Sendable, Hashable {
    /// The lifecycle state.
    public var status: DeviceKey.Status
    /// Consecutive failed approvals.
    public var failedAttempts: Int
    /// When the key was locked (nil unless locked).
    public var lockedAt: Date?
    /// When the key was revoked (nil unless revoked).
    public var revokedAt: Date?

    /// Creates a state value.
    public init(status: DeviceKey.Status, failedAttempts: Int, lockedAt: Date? = nil, revokedAt: Date? = nil) {
        self.status = status
        self.failedAttempts = failedAttempts
        self.lockedAt = lockedAt
        self.revokedAt = revokedAt
    }
}

extension DeviceKey {
    /// The key's mutable state.
    public var state: DeviceKeyState {
        get { DeviceKeyState(status: status, failedAttempts: failedAttempts, lockedAt: lockedAt, revokedAt: revokedAt) }
        set {
            status = newValue.status
            failedAttempts = newValue.failedAttempts
            lockedAt = newValue.lockedAt
            revokedAt = newValue.revokedAt
        }
    }
}

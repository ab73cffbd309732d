import Foundation

/// Everything the in-memory store holds: one value, copied at the start of a write and published on success.
struct MemoryState: Sendable {
    var users: [String: User] = [:]
    var credentials: [[UInt8]: Credential] = [:]
    var authSessions: [String: AuthSession] = [:]
    var refreshTokens: [[UInt8]: RefreshToken] = [:]
    var signingKeys: [String: SigningKey] = [:]
    var deviceKeys: [String: DeviceKey] = [:]
    var deviceChallenges: [String: DeviceChallenge] = [:]
    var deviceEnrolmentNonces: [String: DeviceEnrolmentNonce] = [:]
    /// Append-only, in `seq` order.
    var securityEvents: [SecurityEvent] = []
    /// The last readiness heartbeat.
    var heartbeat: Date?
}

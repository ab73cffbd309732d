import Foundation

/// The login session a browser held before a new one (the SHA-256 of its cookie value), which the write storing the
/// new session ends (`StoreWriter.insertHostedLogin(session:code:replacing:)`), and the security event that records
/// the end: appended in the same write when the replaced session was live then, with the replaced session's user and
/// the new session's creation as its user and time (what the caller cannot know before the write: the cookie names
/// the session, not its user).
public struct LoginSessionReplacement: Sendable, Equatable {
    /// SHA-256 of the replaced session's cookie value.
    public var sessionHash: [UInt8]
    /// The event of its end (a `logout`), its user and time set by the write.
    public var event: SecurityEvent

    public init(sessionHash: [UInt8], event: SecurityEvent) {
        self.sessionHash = sessionHash
        self.event = event
    }
}

import Foundation

/// The server's source of the current time. Injected so tests can move time (expiry, lockout) without
/// sleeping; the pure modules never read a clock and get their instants from here.
public protocol WallClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The system clock.
public struct SystemClock: WallClock {
    /// Creates the system clock.
    public init() {}
    public func now() -> Date { Date() }
}

import Foundation

/// When a refresh token stops being usable: the end of its idle window or its family's absolute end, whichever
/// comes first. Fixed when the token is issued (`RefreshTokenPolicy`) and stored with it.
public struct RefreshTokenExpiry: Sendable, Hashable {
    /// The end of the token's idle window.
    public var idle: Date
    /// The family's hard end, carried unchanged across rotations.
    public var absolute: Date

    /// Collects the two instants.
    public init(idle: Date, absolute: Date) {
        self.idle = idle
        self.absolute = absolute
    }
}

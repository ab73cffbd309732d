/// Why a configuration could not be loaded: one message naming the field and the reason.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The dotted path of the offending setting (`relying_party.id`, `clients[0].client_id`), or the
    /// environment variable / flag that carried it.
    public let field: String
    /// What is wrong with it, for a human.
    public let reason: String

    /// Creates an error for `field`.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "invalid configuration: \(field): \(reason)" }
}

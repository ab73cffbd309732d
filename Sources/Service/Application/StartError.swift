/// Why the server could not start (a configuration it cannot serve, a data directory another server holds, a port
/// taken): one message for the operator.
public struct StartError: Error, CustomStringConvertible {
    public let description: String

    /// Creates the error.
    public init(description: String) {
        self.description = description
    }
}

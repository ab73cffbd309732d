import Storage

/// What every endpoint shares: the validated configuration, the store, observability and the clock.
/// Immutable; one per running server.
public struct ServerContext: Sendable {
    public let configuration: ServerConfiguration
    public let store: any Store
    public let metrics: Metrics
    public let logger: Logger
    public let clock: any WallClock

    /// Creates a context.
    public init(
        configuration: ServerConfiguration, store: any Store, metrics: Metrics = Metrics(),
        logger: Logger = Logger(), clock: any WallClock = SystemClock()
    ) {
        self.configuration = configuration
        self.store = store
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
    }
}
